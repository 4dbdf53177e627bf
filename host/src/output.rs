//! Output files written whole or not at all: the bytes go to a temporary file beside the
//! target (same directory, so the same file system), which is renamed over the target only
//! once everything was written. A failure part-way (a render error, a full disk) removes
//! the temporary file and leaves whatever was at the target untouched.
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("skin-output-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("hello.txt");
//! skin_host::output::write_bytes(&path, b"hello")?;
//! assert_eq!(std::fs::read(&path)?, b"hello");
//! // A directory in the way is named, not overwritten.
//! let err = skin_host::output::write_bytes(&dir, b"hello").unwrap_err();
//! assert!(err.to_string().contains("is a directory"));
//! std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why an output file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The target is an existing directory.
    #[error("cannot write {0}: it is a directory")]
    Directory(PathBuf),
    /// The target's directory does not exist.
    #[error("cannot write {0}: its directory {1} does not exist")]
    NoDirectory(PathBuf, PathBuf),
    /// The file system refused.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The target.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The content could not be produced (the writer's own error, as a line).
    #[error("{0}")]
    Content(String),
}

/// The error of writing `path`.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Write `path` through `fill`, whole or not at all (see the module docs).
pub fn write(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> Result<(), OutputError>,
) -> Result<(), OutputError> {
    if path.is_dir() {
        return Err(OutputError::Directory(path.to_owned()));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(OutputError::NoDirectory(path.to_owned(), dir.to_owned()));
    }
    let name = path
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy());
    let temp = dir.join(format!(".{name}.{}.part", std::process::id()));
    let result = File::create(&temp).map_err(io(path)).and_then(|file| {
        let mut w = BufWriter::new(file);
        fill(&mut w)?;
        let file = w.into_inner().map_err(|e| io(path)(e.into_error()))?;
        file.sync_all().map_err(io(path))
    });
    let result = result.and_then(|()| std::fs::rename(&temp, path).map_err(io(path)));
    if result.is_err() {
        // Nothing half-written stays behind; the temporary file may not exist at all.
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Write `bytes` to `path`, whole or not at all.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    write(path, |w| w.write_all(bytes).map_err(io(path)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("skin-output-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = scratch("fail");
        let path = dir.join("a.gif");
        std::fs::write(&path, b"old").unwrap();
        let err = write(&path, |w| {
            w.write_all(b"half").unwrap();
            Err(OutputError::Content("clip 7 does not exist".into()))
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "clip 7 does not exist");
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_directory_is_named() {
        let dir = scratch("missing");
        let path = dir.join("no/such/a.gif");
        let err = write_bytes(&path, b"x").unwrap_err();
        assert!(
            err.to_string().contains("directory") && err.to_string().contains("no/such"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
