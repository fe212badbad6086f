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
/// needed.
pub fn export(dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("ct.bin"), CT)?;
    std::fs::write(dir.join("ti.bin"), TI)?;
    Ok(())
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
