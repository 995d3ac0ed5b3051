//! The child's pipes. Requests are written and answer lines read on the calling thread, each
//! wait bounded by a deadline through `poll(2)` (Unix), so no wait can outlast its timeout and no
//! thread sits between a request and its answer. stdout is cut into lines of bounded length;
//! stderr is drained by a thread that keeps only its tail, so a child that floods it never blocks.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::process::{ChildStdin, ChildStdout};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// One thing read from the child's stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A complete line without its `\n` (and without a `\r` before it).
    Text(Vec<u8>),
    /// A line longer than the limit; its bytes were discarded as they arrived.
    Oversized { limit: usize },
    /// Nothing complete arrived before the deadline.
    TimedOut,
    /// The pipe closed: the child exited or closed its stdout.
    End,
    /// Reading failed.
    Failed(String),
}

/// How long a wait polls without sleeping before it blocks, in the client and in `serve`. The
/// other side usually answers within this; a blocked wait costs a wake-up of its core, which
/// on a quiet machine takes longer than the answer itself (measured on the project's idle
/// 2-core machine: about 20,000 requests/s through `serve` when blocking at once, 51,000 to
/// 66,000 with the client's spin alone; docs/PERFORMANCE.md has the figures with both).
const SPIN: Duration = Duration::from_micros(100);

/// Waits until `fd` is ready for `events` or `deadline` passes (then `TimedOut`).
fn wait_ready(fd: RawFd, events: libc::c_short, deadline: Instant) -> io::Result<()> {
    let spin_until = Instant::now() + SPIN;
    while Instant::now() < spin_until.min(deadline) {
        if poll_once(fd, events, 0)? {
            return Ok(());
        }
        // Yield, not just spin: with two processes on one core, the other may be the one
        // that is about to answer (measured: a pure spin dropped a run to 12,600 /s).
        thread::yield_now();
    }
    loop {
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        let millis = remaining.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
        if poll_once(fd, events, millis)? {
            return Ok(());
        }
    }
}

/// One `poll(2)` of `fd` for `events`, waiting at most `millis` (0: do not wait); false when
/// it timed out or was interrupted.
fn poll_once(fd: RawFd, events: libc::c_short, millis: libc::c_int) -> io::Result<bool> {
    let mut pollfd = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    // SAFETY: one valid pollfd for the duration of the call.
    match unsafe { libc::poll(&mut pollfd, 1, millis) } {
        n if n > 0 => Ok(true),
        0 => Ok(false),
        _ => {
            let error = io::Error::last_os_error();
            if error.kind() == io::ErrorKind::Interrupted {
                Ok(false)
            } else {
                Err(error)
            }
        }
    }
}

/// The child's stdout, read only when `poll` says a read will not block.
struct PolledStdout {
    pipe: ChildStdout,
    deadline: Instant,
}

impl Read for PolledStdout {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        wait_ready(self.pipe.as_raw_fd(), libc::POLLIN, self.deadline)?;
        self.pipe.read(buf)
    }
}

/// The server's side of the spin: a reader (`bip37-conform serve`'s stdin) that polls for up
/// to `SPIN` before it blocks. Without it the server sleeps between requests and every
/// request pays the wake-up of its core as well as the client's; the perf profile of the
/// serve benchmark showed the server spending most of its samples in the scheduler's task
/// switch, not in parsing or answering.
pub struct SpinningReader {
    file: std::fs::File,
}

impl SpinningReader {
    /// Reads from a duplicate of `fd` (so no buffer of the original sits in between, which
    /// `poll` could not see).
    pub fn new(fd: std::os::fd::BorrowedFd<'_>) -> io::Result<Self> {
        Ok(SpinningReader {
            file: fd.try_clone_to_owned()?.into(),
        })
    }
}

impl Read for SpinningReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // A server waits for its next request as long as it takes: the deadline only ends
        // one `poll` so that the next can start.
        loop {
            let deadline = Instant::now() + Duration::from_secs(3600);
            match wait_ready(self.file.as_raw_fd(), libc::POLLIN, deadline) {
                Err(e) if e.kind() == io::ErrorKind::TimedOut => continue,
                Err(e) => return Err(e),
                Ok(()) => return self.file.read(buf),
            }
        }
    }
}

/// Reads the child's stdout in lines of at most `limit` bytes, each within a timeout.
pub struct LineReader {
    reader: BufReader<PolledStdout>,
    limit: usize,
}

impl LineReader {
    pub fn new(pipe: ChildStdout, limit: usize) -> Self {
        LineReader {
            reader: BufReader::with_capacity(
                64 * 1024,
                PolledStdout {
                    pipe,
                    deadline: Instant::now(),
                },
            ),
            limit,
        }
    }

    /// The next line, or [`Line::TimedOut`] if it is not complete by `deadline`.
    pub fn next_line(&mut self, deadline: Instant) -> Line {
        self.reader.get_mut().deadline = deadline;
        next_line(&mut self.reader, self.limit)
    }
}

/// Writes request lines to the child's stdin without ever blocking past a deadline.
pub struct RequestWriter {
    pipe: ChildStdin,
}

impl RequestWriter {
    /// Puts the pipe in non-blocking mode, so a child that stops reading cannot block a write.
    pub fn new(pipe: ChildStdin) -> io::Result<Self> {
        let fd = pipe.as_raw_fd();
        // SAFETY: fcntl on a pipe descriptor this value owns.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        // SAFETY: as above, adding O_NONBLOCK to the flags just read.
        if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(RequestWriter { pipe })
    }

    /// Writes all of `line` by `deadline` (`TimedOut` otherwise; `BrokenPipe` if the child
    /// closed its stdin).
    pub fn write_line(&mut self, line: &[u8], deadline: Instant) -> io::Result<()> {
        let mut written = 0;
        while written < line.len() {
            match self.pipe.write(&line[written..]) {
                Ok(n) => written += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    wait_ready(self.pipe.as_raw_fd(), libc::POLLOUT, deadline)?
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// The next line of `reader`, at most `limit` bytes (the rest of a longer one is skipped).
pub fn next_line(reader: &mut impl BufRead, limit: usize) -> Line {
    let mut line = Vec::new();
    let mut oversized = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == io::ErrorKind::TimedOut => return Line::TimedOut,
            Err(e) => return Line::Failed(e.to_string()),
        };
        if chunk.is_empty() {
            // A last line without `\n` still counts; nothing at all means the end.
            return match (line.is_empty(), oversized) {
                (_, true) => Line::Oversized { limit },
                (true, false) => Line::End,
                (false, false) => Line::Text(line),
            };
        }
        let (taken, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if !oversized && line.len() + taken <= limit {
            line.extend_from_slice(&chunk[..taken]);
        } else {
            oversized = true;
            line = Vec::new();
        }
        reader.consume(taken + usize::from(done));
        if done {
            if oversized {
                return Line::Oversized { limit };
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Line::Text(line);
        }
    }
}

/// The last bytes a child wrote to stderr, kept by a thread that reads until the pipe closes.
#[derive(Debug, Clone, Default)]
pub struct StderrTail {
    tail: Arc<Mutex<Vec<u8>>>,
    /// Set by the reader thread when the pipe has closed and every byte is in `tail`.
    ended: Arc<(Mutex<bool>, Condvar)>,
}

impl StderrTail {
    /// How much of the end of stderr is kept.
    pub const KEEP: usize = 4096;

    /// Starts draining `pipe`.
    pub fn drain<R: Read + Send + 'static>(mut pipe: R) -> Self {
        let tail = StderrTail::default();
        let shared = Arc::clone(&tail.tail);
        let ended = Arc::clone(&tail.ended);
        thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                match pipe.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        let mut kept = shared.lock().unwrap_or_else(|p| p.into_inner());
                        kept.extend_from_slice(&buf[..n]);
                        let excess = kept.len().saturating_sub(Self::KEEP);
                        kept.drain(..excess);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let (done, signal) = &*ended;
            *done.lock().unwrap_or_else(|p| p.into_inner()) = true;
            signal.notify_all();
        });
        tail
    }

    /// Waits until the pipe has closed and every byte written is read, or `timeout` passed
    /// (a process outside the child's group may still hold the pipe open).
    pub fn wait_for_end(&self, timeout: Duration) {
        let (done, signal) = &*self.ended;
        let done = done.lock().unwrap_or_else(|p| p.into_inner());
        let _ = signal.wait_timeout_while(done, timeout, |ended| !*ended);
    }

    /// The kept tail as text (lossy UTF-8), trimmed.
    pub fn text(&self) -> String {
        let kept = self.tail.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&kept).trim().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn lines(input: &[u8], limit: usize) -> Vec<Line> {
        let mut reader = BufReader::with_capacity(4, Cursor::new(input.to_vec()));
        let mut out = Vec::new();
        loop {
            let line = next_line(&mut reader, limit);
            let end = line == Line::End;
            out.push(line);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn splits_bounds_and_resumes_after_an_oversized_line() {
        assert_eq!(
            lines(b"ab\r\n0123456789\ncd", 5),
            vec![
                Line::Text(b"ab".to_vec()),
                Line::Oversized { limit: 5 },
                Line::Text(b"cd".to_vec()),
                Line::End
            ]
        );
        assert_eq!(lines(b"", 5), vec![Line::End]);
        assert_eq!(lines(b"\n", 5), vec![Line::Text(vec![]), Line::End]);
    }

    #[test]
    fn stderr_keeps_only_its_tail() {
        let tail = StderrTail::drain(Cursor::new(vec![b'x'; 3 * StderrTail::KEEP]));
        for _ in 0..200 {
            if tail.text().len() == StderrTail::KEEP {
                return;
            }
            thread::sleep(std::time::Duration::from_millis(5));
        }
        panic!("tail has {} bytes", tail.text().len());
    }
}
