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
    let mut text = String::new();
    file.take(MAX_FILE_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

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
