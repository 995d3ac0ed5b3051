//! Writing to what is not a regular file: a report sent to `/dev/null`, `/dev/stdout`, a FIFO a
//! reader waits on, or a Unix socket. [`crate::atomic_file::write`] replaces a regular file by
//! a rename; done to a device node or a FIFO that would put a regular file in its place (as
//! root, a new `/dev/null` for the whole system) and leave the reader with nothing. These are
//! opened and written in place instead, and never replaced. A block device or a directory is
//! refused: no report belongs there.
//!
//! Opening a FIFO for writing waits for a reader, so it is opened without blocking and retried
//! until one comes, for at most [`READER_WAIT`]; a device is opened the same way (a terminal
//! line must not wait for a carrier), and the descriptor is made blocking again to write.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::{Duration, Instant};

/// The longest wait for a FIFO's reader.
pub const READER_WAIT: Duration = Duration::from_secs(10);

/// True when `meta` is something [`write`] writes in place: a character device, a FIFO or a
/// socket (a block device too, to refuse it rather than replace it).
pub fn is_special(meta: &Metadata) -> bool {
    let kind = meta.file_type();
    kind.is_char_device() || kind.is_fifo() || kind.is_socket() || kind.is_block_device()
}

/// Writes `contents` into the special file at `path` (see [`is_special`]) in place.
pub fn write(path: &Path, meta: &Metadata, contents: &[u8]) -> io::Result<()> {
    let kind = meta.file_type();
    if kind.is_block_device() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a block device: refusing to write a report over it",
        ));
    }
    if kind.is_socket() {
        let mut stream = UnixStream::connect(path)?;
        stream.write_all(contents)?;
        return stream.shutdown(std::net::Shutdown::Write);
    }
    let mut file = open_without_waiting(path, kind.is_fifo())?;
    file.write_all(contents)?;
    file.flush()
}

/// Opens `path` for writing without blocking, waiting up to [`READER_WAIT`] for a FIFO's
/// reader, then makes the descriptor blocking so that a slow reader slows the write down
/// instead of failing it.
fn open_without_waiting(path: &Path, fifo: bool) -> io::Result<File> {
    let deadline = Instant::now() + READER_WAIT;
    let file = loop {
        let opened = OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(path);
        match opened {
            Ok(file) => break file,
            Err(e) if fifo && e.raw_os_error() == Some(libc::ENXIO) => {
                if Instant::now() >= deadline {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!("a FIFO with no reader for {READER_WAIT:?}"),
                    ));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(e),
        }
    };
    let fd = file.as_raw_fd();
    // SAFETY: fcntl(2) on a descriptor `file` owns; no memory is involved.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_gets_the_contents_and_stays_a_fifo() {
        let dir = std::env::temp_dir().join(format!("bip37-special-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("report.fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        crate::atomic_file::write(&fifo, b"the report\n").unwrap();
        assert_eq!(reader.join().unwrap(), b"the report\n");
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());

        let socket = dir.join("report.sock");
        let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let reader = std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let mut text = Vec::new();
            std::io::Read::read_to_end(&mut stream, &mut text).unwrap();
            text
        });
        crate::atomic_file::write(&socket, b"over a socket").unwrap();
        assert_eq!(reader.join().unwrap(), b"over a socket");
        assert!(std::fs::metadata(&socket).unwrap().file_type().is_socket());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
