//! Files read within bounds and written whole or not at all (the failure policy of
//! `docs/failures.md`).
//!
//! Every reader has a cap, checked while it reads (never the whole input first, then the
//! check): [`MAX_LINE`] for a line of a batch or a protocol, [`MAX_RECORD`] for one game or a
//! small file (`--params`, `--openings`), [`MAX_FILE`] for the files read whole (a game-record
//! CSV, the lines a command keeps). Beyond the cap the error names the source and the cap.
//!
//! Every file the program writes goes to a temporary file in the target's folder, is flushed
//! to the disk, and is renamed over the target only when complete: a full disk, an error or an
//! interrupt leaves the old file as it was and no temporary file behind. [`Staged`] does the
//! same for a set of files that belong together (the test sets): all of them are written
//! before the first is renamed.

use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// The longest line a batch, a protocol or an engine's answer may hold: 1 MiB (a game of 361
/// points written out takes under 2 KiB).
pub const MAX_LINE: usize = 1 << 20;
/// The largest single game (a diagram, an SGF or contest record spread over lines) and the
/// largest small file (`--params`, `--openings`): 16 MiB.
pub const MAX_RECORD: u64 = 16 << 20;
/// The largest file read whole (a game-record CSV; the lines of a batch that `analyze`,
/// `name` and `move` keep): 256 MiB. `solve` streams its batches and has no such cap.
pub const MAX_FILE: u64 = 256 << 20;

/// `bytes` as a size in a message: `16 MiB`, `1 KiB`, `300 bytes`.
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// The error of an input larger than its cap.
pub fn too_large(what: &str, cap: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{what}: larger than {}, the cap on it", size(cap)),
    )
}

/// All of `reader`, at most `cap` bytes (reading stops one byte past the cap); beyond it the
/// error names `what`.
pub fn read_capped(reader: impl Read, cap: u64, what: &str) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io::Error::new(e.kind(), format!("{what}: {e}")))?;
    if bytes.len() as u64 > cap {
        return Err(too_large(what, cap));
    }
    Ok(bytes)
}

/// The file at `path`, at most `cap` bytes; errors name the path.
pub fn read(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    let what = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| naming(path, e))?;
    read_capped(file, cap, &what)
}

/// The text of the file at `path` (UTF-8), at most `cap` bytes; errors name the path.
pub fn read_text(path: &Path, cap: u64) -> io::Result<String> {
    String::from_utf8(read(path, cap)?).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: not UTF-8 text (byte {at})", path.display()),
        )
    })
}

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line, now in the buffer without its line break (`\n` or `\r\n`).
    Line,
    /// A line longer than the cap: the buffer holds its first `cap + 1` bytes; the rest of
    /// the line is still unread ([`skip_line`] passes over it).
    TooLong,
    /// The end of the input.
    End,
}

/// The next line of `reader` into `buf` (cleared first), at most `cap` bytes of it read.
pub fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>, cap: usize) -> io::Result<LineRead> {
    buf.clear();
    let n = reader.take(cap as u64 + 1).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(LineRead::End);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        return Ok(LineRead::Line);
    }
    if buf.len() > cap {
        return Ok(LineRead::TooLong);
    }
    // The last line, without a line break.
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(LineRead::Line)
}

/// Pass over the rest of the current line of `reader` (up to and with its line break) without
/// keeping it; the bytes passed over.
pub fn skip_line(reader: &mut impl BufRead) -> io::Result<u64> {
    let mut skipped = 0;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(skipped);
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(skipped + i as u64 + 1);
            }
            None => {
                let n = chunk.len();
                reader.consume(n);
                skipped += n as u64;
            }
        }
    }
}

/// `error` with the path it is about in front of its message.
fn naming(path: &Path, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

/// The folder a file of `path` goes into (`.` for a bare file name).
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A temporary file beside `path`, holding `parts` one after the other, flushed to the disk.
fn temporary(path: &Path, parts: &[&[u8]]) -> io::Result<NamedTempFile> {
    let name = path
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // The permissions a plain `File::create` gives (0666 less the umask), not tempfile's 0600.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut file = builder.tempfile_in(folder(path))?;
    for part in parts {
        file.write_all(part)?;
    }
    file.as_file().sync_all()?;
    Ok(file)
}

/// Write `bytes` to `path` whole or not at all; errors name the path.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    write_parts(path, &[bytes.as_ref()])
}

/// Write `parts`, one after the other, to `path` whole or not at all.
pub fn write_parts(path: &Path, parts: &[&[u8]]) -> io::Result<()> {
    let file = temporary(path, parts).map_err(|e| naming(path, e))?;
    file.persist(path).map_err(|e| naming(path, e.error))?;
    Ok(())
}

/// Files that are replaced together: each is written in full to a temporary file first,
/// and only [`Staged::commit`] renames them over their targets. Dropped without a commit (an
/// error, an interrupt), it removes the temporary files and leaves every target untouched.
#[derive(Default)]
pub struct Staged {
    files: Vec<(NamedTempFile, PathBuf)>,
}

impl Staged {
    /// Nothing staged yet.
    pub fn new() -> Staged {
        Staged::default()
    }

    /// Write `bytes` for `path` to a temporary file beside it.
    pub fn add(&mut self, path: &Path, bytes: impl AsRef<[u8]>) -> io::Result<()> {
        let file = temporary(path, &[bytes.as_ref()]).map_err(|e| naming(path, e))?;
        self.files.push((file, path.to_path_buf()));
        Ok(())
    }

    /// Rename every staged file over its target, in the order they were added.
    pub fn commit(self) -> io::Result<()> {
        for (file, path) in self.files {
            file.persist(&path).map_err(|e| naming(&path, e.error))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn lines_and_files_are_read_within_their_caps() {
        let mut r = io::Cursor::new(b"ab\r\ncdefgh\nij".to_vec());
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut r, &mut buf, 4).unwrap(), LineRead::Line);
        assert_eq!(buf, b"ab");
        assert_eq!(read_line(&mut r, &mut buf, 4).unwrap(), LineRead::TooLong);
        assert_eq!(buf, b"cdefg");
        assert_eq!(skip_line(&mut r).unwrap(), 2);
        assert_eq!(read_line(&mut r, &mut buf, 4).unwrap(), LineRead::Line);
        assert_eq!(buf, b"ij");
        assert_eq!(read_line(&mut r, &mut buf, 4).unwrap(), LineRead::End);
        // A line of exactly the cap is a line.
        let mut r = io::Cursor::new(b"abcd\n".to_vec());
        assert_eq!(read_line(&mut r, &mut buf, 4).unwrap(), LineRead::Line);
        assert_eq!(read_capped(&b"abcd"[..], 4, "x").unwrap(), b"abcd");
        let e = read_capped(&b"abcde"[..], 4, "x").unwrap_err();
        assert_eq!(e.to_string(), "x: larger than 4 bytes, the cap on it");
        // An endless input is refused after the cap, not read to its end.
        let e = read_capped(io::repeat(0), MAX_RECORD, "standard input").unwrap_err();
        assert!(e.to_string().contains("16 MiB"), "{e}");
    }

    #[test]
    fn a_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "old").unwrap();
        write(&path, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn a_failed_write_names_the_path_and_keeps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-folder").join("a.txt");
        let e = write(&path, "x").unwrap_err();
        assert!(e.to_string().contains("missing-folder"), "{e}");
        assert!(!path.exists());
    }

    #[test]
    fn staged_files_reach_their_targets_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
        std::fs::write(&a, "old a").unwrap();
        let mut staged = Staged::new();
        staged.add(&a, "new a").unwrap();
        staged.add(&b, "new b").unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        assert!(!b.exists());
        drop(staged);
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        assert!(leftovers(dir.path()).is_empty());

        let mut staged = Staged::new();
        staged.add(&a, "new a").unwrap();
        staged.add(&b, "new b").unwrap();
        staged.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "new b");
        assert!(leftovers(dir.path()).is_empty());
    }
}
