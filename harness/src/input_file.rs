//! Reading a file the tool computes from (a vector file, an expectations file) within bounds:
//! only a regular file is read, so a FIFO cannot block the run and a link to `/dev/zero` cannot
//! fill the memory, and never more than a stated number of bytes.
//!
//! The file is opened without blocking (`O_NONBLOCK`: opening a FIFO would otherwise wait for a
//! writer), then checked on the open descriptor, so what is checked is what is read.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The text of the regular file at `path` (UTF-8), refused when it is not a regular file or
/// holds more than `max_bytes` bytes.
pub fn read_text(path: &Path, max_bytes: u64) -> io::Result<String> {
    let file = open_regular(path)?;
    let len = file.metadata()?.len();
    if len > max_bytes {
        return Err(too_large(len, max_bytes));
    }
    let mut text = String::with_capacity(len as usize);
    file.take(max_bytes + 1).read_to_string(&mut text)?;
    if text.len() as u64 > max_bytes {
        return Err(too_large(text.len() as u64, max_bytes));
    }
    Ok(text)
}

/// True when `path` names something that exists (following links), regular file or not.
pub fn exists(path: &Path) -> bool {
    path.metadata().is_ok()
}

fn open_regular(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, device or directory is refused)",
        ));
    }
    Ok(file)
}

fn too_large(len: u64, max_bytes: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{len} bytes is more than the {max_bytes}-byte ceiling"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn refuses_devices_fifos_and_oversized_files() {
        let dir = std::env::temp_dir().join(format!("bip37-input-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.join("zero_test.json")).unwrap();
        let err = read_text(&dir.join("zero_test.json"), 1 << 20).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");

        let fifo = dir.join("fifo_test.json");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let started = Instant::now();
        let err = read_text(&fifo, 1 << 20).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(1));

        std::fs::write(dir.join("big"), vec![b'x'; 101]).unwrap();
        let err = read_text(&dir.join("big"), 100).unwrap_err();
        assert!(err.to_string().contains("100-byte ceiling"), "{err}");
        assert_eq!(read_text(&dir.join("big"), 101).unwrap().len(), 101);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
