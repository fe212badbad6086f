//! The knowledge base at run time: the tables build.rs generated, compiled into the binary.
//!
//! Nothing is parsed or computed at start-up: the tables are byte arrays whose lengths the
//! compiler checks, paged in by the operating system on first touch.

pub use cpbim_kb::{
    shape_count, shape_from_index, shape_index, table_size_kb, Composite, ConnType,
    COMPOSITE_TABLE_LEN, K, N, NO_POINT_TYPE, SHAPES, TI_LEN, TI_STRIDE,
};
use std::{io, path::Path};

/// Connection type code of every shape, indexed by shape number (`ct.bin`).
static CT: &[u8; SHAPES] = include_bytes!(concat!(env!("OUT_DIR"), "/ct.bin"));
/// Empty-point type codes, 19 bytes per shape (`ti.bin`).
static TI: &[u8; TI_LEN] = include_bytes!(concat!(env!("OUT_DIR"), "/ti.bin"));
/// Composite class per ordered 4-tuple of point types.
static COMPOSITE: &[u8; COMPOSITE_TABLE_LEN] =
    include_bytes!(concat!(env!("OUT_DIR"), "/composite.bin"));
/// The same for the games of one stone a move (`composite-1.bin`).
static COMPOSITE_1: &[u8; COMPOSITE_TABLE_LEN] =
    include_bytes!(concat!(env!("OUT_DIR"), "/composite-1.bin"));

/// The `ct.bin` bytes: type code per shape number.
pub fn ct_bytes() -> &'static [u8; SHAPES] {
    CT
}

/// The `ti.bin` bytes: `‖c‖·19 + i` → type code of empty point `i`, 255 where none.
pub fn ti_bytes() -> &'static [u8; TI_LEN] {
    TI
}

/// Type of the connection with shape number `shape`.
#[inline]
pub fn conn_type(shape: u32) -> ConnType {
    ConnType::ALL[CT[shape as usize] as usize]
}

/// Type codes of the points of the connection with shape number `shape`, by offset
/// ([`NO_POINT_TYPE`] for stones, points past the end, and `WIN` shapes).
#[inline]
pub fn point_type_row(shape: u32) -> &'static [u8; TI_STRIDE] {
    let start = shape as usize * TI_STRIDE;
    TI[start..start + TI_STRIDE]
        .try_into()
        .expect("row of TI_STRIDE bytes")
}

/// Composite class of the four directional point types (in any order).
#[inline]
pub fn composite(types: [ConnType; 4]) -> Composite {
    let i = types[0] as usize
        + 12 * types[1] as usize
        + 144 * types[2] as usize
        + 1728 * types[3] as usize;
    Composite::ALL[COMPOSITE[i] as usize]
}

/// Table 1 and Table 2 of the paper, as computed from the built-in tables.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Stats {
    /// Shapes per type, by type code.
    pub counts: [u64; ConnType::COUNT],
    /// Total shapes (1,048,512).
    pub total: u64,
    /// Table 2: knowledge-base sizes in KB for 4-bit entries.
    pub sizes_kb: Sizes,
}

/// The four sizes of the paper's Table 2.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Sizes {
    /// Connect6 on 19×19.
    pub connect6_19: f64,
    /// Connect6 on 15×15.
    pub connect6_15: f64,
    /// Connect6 on 13×13.
    pub connect6_13: f64,
    /// Gomoku (k = 5) on 15×15.
    pub gomoku_15: f64,
}

/// Count the built-in connection-type table by type and compute Table 2.
pub fn stats() -> Stats {
    let counts = cpbim_kb::type_counts(CT);
    Stats {
        counts,
        total: counts.iter().sum(),
        sizes_kb: Sizes {
            connect6_19: table_size_kb(19, 6),
            connect6_15: table_size_kb(15, 6),
            connect6_13: table_size_kb(13, 6),
            gomoku_15: table_size_kb(15, 5),
        },
    }
}

/// Write `ct.bin` and `ti.bin` (layout in `docs/knowledge-base.md`) into `dir`, creating it if
/// needed; both are written in full before either replaces a file of its name.
pub fn export(dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut staged = crate::files::Staged::new();
    staged.add(&dir.join("ct.bin"), CT)?;
    staged.add(&dir.join("ti.bin"), TI)?;
    staged.commit()
}

/// A knowledge-base file mapped read-only from disk, its length checked against the layout.
pub struct MappedTable {
    map: memmap2::Mmap,
}

impl MappedTable {
    /// Map `path` and check that it holds exactly `len` bytes. Errors name the file.
    pub fn open(path: &Path, len: usize) -> io::Result<MappedTable> {
        let file = std::fs::File::open(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        // SAFETY: the map is read-only and private to this process; if another process
        // truncates the file while it is mapped, reads may fault — `kb verify` is a one-shot
        // check of files the user names, and the length is checked before any read.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        if map.len() != len {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {} bytes, expected {len}", path.display(), map.len()),
            ));
        }
        Ok(MappedTable { map })
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }
}

/// Compare exported files in `dir` with the built-in tables: the first differing byte of each,
/// or `None` when equal.
pub fn verify(dir: &Path) -> io::Result<[Option<usize>; 2]> {
    let ct = MappedTable::open(&dir.join("ct.bin"), SHAPES)?;
    let ti = MappedTable::open(&dir.join("ti.bin"), TI_LEN)?;
    let diff = |a: &[u8], b: &[u8]| a.iter().zip(b).position(|(x, y)| x != y);
    Ok([diff(ct.bytes(), CT), diff(ti.bytes(), TI)])
}

// ---------------------------------------------------------------------------------------------
// The tables of every game.

use crate::game::{Game, Rule};
use crate::geom::Color;
pub use cpbim_kb::Params;
use std::sync::Mutex;

/// Gomoku's tables (five or more, one stone per move) for lines up to 15 long, built by
/// build.rs.
static FIVE_OR_MORE_15: [&[u8]; 2] = [
    include_bytes!(concat!(env!("OUT_DIR"), "/ct-5-1-free-15.bin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/ti-5-1-free-15.bin")),
];
/// Standard Gomoku's and Renju black's tables (exactly five) for lines up to 15 long.
static EXACTLY_FIVE_15: [&[u8]; 2] = [
    include_bytes!(concat!(env!("OUT_DIR"), "/ct-5-1-exact-15.bin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/ti-5-1-exact-15.bin")),
];

/// Where a game's tables came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Built into the binary (the presets).
    BuiltIn,
    /// Generated on first use, in this many milliseconds (not cached: no writable cache).
    Generated(u64),
    /// Generated on first use and written to this cache file.
    Written(std::path::PathBuf),
    /// Read from this cache file (memory-mapped, header and checksum checked).
    Cached(std::path::PathBuf),
}

impl Origin {
    /// In words: `built into the binary`, `read from the cache PATH`, ….
    pub fn describe(&self) -> String {
        match self {
            Origin::BuiltIn => "built into the binary".into(),
            Origin::Generated(ms) => format!("generated in {ms} ms (no writable cache)"),
            Origin::Written(p) => format!("generated and cached in {}", p.display()),
            Origin::Cached(p) => format!("read from the cache {}", p.display()),
        }
    }
}

/// The knowledge base of one classification ([`Params`]) for lines up to `n` long: the
/// connection type of every shape, the empty-point types (`n` bytes per shape) and the
/// composite classes.
pub struct Tables {
    /// What the classification depends on.
    pub params: Params,
    /// The longest line the tables cover (and the bytes per shape of the point types).
    pub n: u32,
    ct: &'static [u8],
    ti: &'static [u8],
    composite: &'static [u8],
    /// Where they came from.
    pub origin: Origin,
}

impl Tables {
    /// Type of the connection with shape number `shape`.
    #[inline]
    pub fn conn_type(&self, shape: u32) -> ConnType {
        ConnType::ALL[self.ct[shape as usize] as usize]
    }

    /// Type codes of the points of the connection with shape number `shape`, by offset.
    #[inline]
    pub fn point_type_row(&self, shape: u32) -> &[u8] {
        let n = self.n as usize;
        &self.ti[shape as usize * n..(shape as usize + 1) * n]
    }

    /// Composite class of four directional point types.
    #[inline]
    pub fn composite(&self, types: [ConnType; 4]) -> Composite {
        let i = types[0] as usize
            + 12 * types[1] as usize
            + 144 * types[2] as usize
            + 1728 * types[3] as usize;
        Composite::ALL[self.composite[i] as usize]
    }

    /// The connection-type bytes, by shape number.
    pub fn ct(&self) -> &[u8] {
        self.ct
    }

    /// The empty-point type bytes, `n` per shape.
    pub fn ti(&self) -> &[u8] {
        self.ti
    }

    /// Shapes per type code.
    pub fn counts(&self) -> [u64; ConnType::COUNT] {
        cpbim_kb::type_counts(self.ct)
    }

    /// Size in KB of the connection-type table with 4-bit entries (the paper's Table 2).
    pub fn size_kb(&self) -> f64 {
        table_size_kb(self.n, self.params.k)
    }
}

/// The classification each colour of `game` plays by: exactly k for an exact rule and for
/// Renju's black, k or more otherwise.
pub fn params_of(game: &Game, c: Color) -> Params {
    let exact = match game.rule() {
        Rule::Free => false,
        Rule::Exact => true,
        Rule::Renju => c == Color::Black,
    };
    Params {
        k: game.k() as u32,
        p: game.p() as u32,
        exact,
    }
}

/// The tables of `game`, for black and for white (the same for every game but Renju).
pub fn game_tables(game: &Game) -> [&'static Tables; 2] {
    let n = game.m().max(game.n()) as u32;
    [Color::Black, Color::White].map(|c| tables(params_of(game, c), n))
}

/// The tables of `game` with the colours that play by each: `[("both", t)]` when both colours
/// share one table, else `[("black", b), ("white", w)]` (Renju, standard Gomoku's black).
pub fn colour_tables(game: &Game) -> Vec<(&'static str, &'static Tables)> {
    let [black, white] = game_tables(game);
    if std::ptr::eq(black, white) {
        vec![("both", black)]
    } else {
        vec![("black", black), ("white", white)]
    }
}

/// The tables of `params` for lines up to `n` long at least: built in for the presets,
/// otherwise read from the cache or generated (once per process).
pub fn tables(params: Params, n: u32) -> &'static Tables {
    static ALL: Mutex<Vec<&'static Tables>> = Mutex::new(Vec::new());
    let mut all = ALL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = all.iter().find(|t| t.params == params && t.n >= n) {
        return t;
    }
    let t: &'static Tables = Box::leak(Box::new(load(params, n)));
    all.push(t);
    t
}

/// The composite table of games of `p` stones per move (both built in: generating one at run
/// time took 2 million instructions, more than a whole small VCF search).
fn composite_of(p: u32) -> &'static [u8] {
    if p == 2 {
        COMPOSITE
    } else {
        COMPOSITE_1
    }
}

fn built_in(params: Params, n: u32) -> Option<(u32, &'static [u8], &'static [u8])> {
    let (table_n, [ct, ti]): (u32, [&'static [u8]; 2]) = if params == Params::CONNECT6 {
        (N, [CT, TI])
    } else if params == Params::FIVE_OR_MORE {
        (15, FIVE_OR_MORE_15)
    } else if params == Params::EXACTLY_FIVE {
        (15, EXACTLY_FIVE_15)
    } else {
        return None;
    };
    (n <= table_n).then_some((table_n, ct, ti))
}

fn load(params: Params, n: u32) -> Tables {
    let composite = composite_of(params.p);
    if let Some((n, ct, ti)) = built_in(params, n) {
        return Tables {
            params,
            n,
            ct,
            ti,
            composite,
            origin: Origin::BuiltIn,
        };
    }
    let path = cache::file(params, n);
    if let Some(path) = &path {
        if let Some((ct, ti)) = cache::read(path, params, n) {
            return Tables {
                params,
                n,
                ct,
                ti,
                composite,
                origin: Origin::Cached(path.clone()),
            };
        }
    }
    let start = std::time::Instant::now();
    let ct = cpbim_kb::classify_all_for(params, n);
    let ti = cpbim_kb::point_types_for(params.k, &ct, n);
    let ms = start.elapsed().as_millis() as u64;
    let written = path.filter(|p| cache::write(p, params, n, &ct, &ti).is_ok());
    let (ct, ti) = match written.as_ref().and_then(|p| cache::read(p, params, n)) {
        Some(mapped) => mapped,
        None => (
            &*Box::leak(ct.into_boxed_slice()),
            &*Box::leak(ti.into_boxed_slice()),
        ),
    };
    Tables {
        params,
        n,
        ct,
        ti,
        composite,
        origin: match written {
            Some(p) => Origin::Written(p),
            None => Origin::Generated(ms),
        },
    }
}

/// The on-disk cache of generated tables: one file per (n, k, p, rule) under
/// `$CPBIM_CACHE_DIR`, `$XDG_CACHE_HOME/cpbim` or `~/.cache/cpbim`, memory-mapped when read.
///
/// A file is a 64-byte header — magic `CPBIMKB\0`, format version, k, p, exact, n (u32 each),
/// the two table lengths and an FNV-1a checksum of both tables (u64 each), little-endian —
/// then `ct` and `ti`. A file whose header, length or checksum does not match what is asked is
/// not used: the tables are generated again and the file rewritten.
pub mod cache {
    use super::Params;
    use std::path::{Path, PathBuf};

    const MAGIC: &[u8; 8] = b"CPBIMKB\0";
    const VERSION: u32 = 1;
    /// Bytes of the header.
    pub const HEADER: usize = 64;

    /// The cache directory, if one can be named.
    pub fn dir() -> Option<PathBuf> {
        let env = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        env("CPBIM_CACHE_DIR")
            .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("cpbim")))
            .or_else(|| env("HOME").map(|d| d.join(".cache").join("cpbim")))
    }

    /// The cache file of `params` for lines up to `n` long.
    pub fn file(params: Params, n: u32) -> Option<PathBuf> {
        let rule = if params.exact { "exact" } else { "free" };
        Some(dir()?.join(format!(
            "kb-v{VERSION}-k{}-p{}-{rule}-n{n}.bin",
            params.k, params.p
        )))
    }

    fn fnv(parts: [&[u8]; 2]) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for part in parts {
            for &b in part {
                h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    }

    fn header(params: Params, n: u32, ct: &[u8], ti: &[u8]) -> [u8; HEADER] {
        let mut h = [0u8; HEADER];
        h[..8].copy_from_slice(MAGIC);
        let words = [VERSION, params.k, params.p, params.exact as u32, n];
        for (i, w) in words.iter().enumerate() {
            h[8 + 4 * i..12 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
        h[28..36].copy_from_slice(&(ct.len() as u64).to_le_bytes());
        h[36..44].copy_from_slice(&(ti.len() as u64).to_le_bytes());
        h[44..52].copy_from_slice(&fnv([ct, ti]).to_le_bytes());
        h
    }

    /// Write the tables to `path` (through a temporary file renamed into place).
    pub fn write(path: &Path, params: Params, n: u32, ct: &[u8], ti: &[u8]) -> std::io::Result<()> {
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d)?;
        }
        crate::files::write_parts(path, &[&header(params, n, ct, ti), ct, ti])
    }

    /// The tables in `path`, memory-mapped, if its header, length and checksum are those of
    /// `params` and `n`.
    pub fn read(path: &Path, params: Params, n: u32) -> Option<(&'static [u8], &'static [u8])> {
        let file = std::fs::File::open(path).ok()?;
        // SAFETY: the map is read-only and private to this process, and every byte is checked
        // (length, header, checksum) before use; the cache directory belongs to the user, and a
        // file another process truncates while mapped is the one risk memory maps carry.
        let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
        let ct_len = cpbim_kb::shape_count(n, params.k);
        let ti_len = ct_len * n as usize;
        if map.len() != HEADER + ct_len + ti_len {
            return None;
        }
        let (ct, ti) = map[HEADER..].split_at(ct_len);
        if map[..HEADER] != header(params, n, ct, ti) {
            return None;
        }
        let map: &'static memmap2::Mmap = Box::leak(Box::new(map));
        let (ct, ti) = map[HEADER..].split_at(ct_len);
        Some((ct, ti))
    }
}

/// What a type code stands for under `params`, in words (the stone counts are those of the
/// fullest window, `l`; a connection is live with exactly p threats).
pub fn role(t: ConnType, params: Params) -> String {
    use ConnType::*;
    let (k, p) = (params.k, params.p);
    let threats = |n: u32| {
        if n == 1 {
            "1 threat".to_string()
        } else {
            format!("{n} threats")
        }
    };
    let none = "(none in this game)".to_string();
    match t {
        WIN => format!(
            "{} {k} in a row",
            if params.exact { "exactly" } else { "at least" }
        ),
        DW => format!("{} or more: the opponent cannot block", threats(p + 1)),
        L5 => format!("{} stones, {} (live)", k - 1, threats(p)),
        D5 if p > 1 => format!("{} stones, fewer than {} threats", k - 1, p),
        L4 if p > 1 => format!("{} stones, {} (live)", k - 2, threats(p)),
        S4 if p > 1 => format!("{} stones, 1 threat; one stone makes it live", k - 2),
        D4 if p > 1 => format!("{} stones, 1 threat; no stone makes it live", k - 2),
        D5 | L4 | S4 | D4 => none,
        L3 => format!("{} stones, no threat; one stone makes it live", k - p - 1),
        S3 => format!("{} stones, no threat; two stones make it live", k - p - 1),
        D3 => format!(
            "{} stones, no threat; two stones do not make it live",
            k - p - 1
        ),
        L2 if k > p + 2 => format!("{} stones; two stones make it live", k - p - 2),
        L2 => none,
        O => "anything else".to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn built_in_composite_tables_are_the_generators() {
        assert_eq!(&super::COMPOSITE[..], &cpbim_kb::composite_table_for(2)[..]);
        assert_eq!(
            &super::COMPOSITE_1[..],
            &cpbim_kb::composite_table_for(1)[..]
        );
        assert_ne!(super::COMPOSITE[..], super::COMPOSITE_1[..]);
    }
}
