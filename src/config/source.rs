//! Reading a tournament file, and the data files it names, with a bound on their size: a
//! tournament file is a few kilobytes, and a path to something huge (or endless, like
//! `/dev/zero`) must be refused, not read into memory.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The most bytes a tournament file or a data file it names may have.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// The text of the file at `path`, or why not. A regular file over [`MAX_FILE_BYTES`] is
/// refused by its size before any of it is read; anything else (a pipe, a device) is read
/// to one byte past the bound and refused when it gets there.
pub(crate) fn read_bounded(path: &Path) -> io::Result<String> {
    let file = File::open(path)?;
    let too_large = || {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("it is over {MAX_FILE_BYTES} bytes, the most a tournament's files may have"),
        )
    };
    if file.metadata()?.len() > MAX_FILE_BYTES {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|error| not_utf8(error.as_bytes(), error.utf8_error()))
}

/// The error of a file that is not UTF-8, naming the line and column of its first bad byte.
fn not_utf8(bytes: &[u8], error: std::str::Utf8Error) -> io::Error {
    let before = &bytes[..error.valid_up_to()];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |newline| newline + 1);
    let column = 1 + String::from_utf8_lossy(&before[start..]).chars().count();
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("line {line}, column {column}: not UTF-8 (a TOML file must be)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_not_utf8_is_refused_where_it_stops_being_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.toml");
        std::fs::write(&path, b"game = \"petri\"\n# \xc3\xa9t\xc3\xa9 \xff bad\n").unwrap();
        let error = read_bounded(&path).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            error.to_string(),
            "line 2, column 7: not UTF-8 (a TOML file must be)"
        );
    }

    #[test]
    fn files_up_to_the_bound_are_read_and_larger_ones_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.toml");
        let bound = usize::try_from(MAX_FILE_BYTES).unwrap();
        std::fs::write(&path, "#".repeat(bound)).unwrap();
        assert_eq!(read_bounded(&path).unwrap().len(), bound);
        std::fs::write(&path, "#".repeat(bound + 1)).unwrap();
        let error = read_bounded(&path).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
    }

    #[test]
    fn an_endless_file_is_refused_after_the_bound() {
        let error = read_bounded(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
    }
}
