//! One deadline for a whole network call, not one timeout per read.
//!
//! A socket read timeout bounds each `read` alone: a peer that sends one byte just before
//! each timeout (a header announcing 3,999,999 bytes, then a byte every 2 s; an HTTP server
//! sending endless header lines) keeps a call going for ever. [`DeadlineStream`] instead sets
//! the socket's read or write timeout to the time left before one instant before every
//! operation, and fails with [`io::ErrorKind::TimedOut`] once that instant has passed, so a
//! whole message, handshake or HTTP exchange ends by its deadline whatever the peer does.
//! Writes get the same deadline: a peer that never reads cannot block a write for ever.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The longest wait a deadline is ever set for: a caller's larger timeout is capped here, so
/// adding it to the current instant cannot overflow.
pub const MAX_WAIT: Duration = Duration::from_secs(24 * 60 * 60);

/// The instant `timeout` from now (at most [`MAX_WAIT`]).
pub fn deadline_after(timeout: Duration) -> Instant {
    Instant::now() + timeout.min(MAX_WAIT)
}

/// The time left before `deadline`, or a `TimedOut` error once none is left.
pub fn time_left(deadline: Instant) -> io::Result<Duration> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the deadline of the call passed",
        ))
    } else {
        Ok(left)
    }
}

/// Connects to `address` by `deadline`.
pub fn connect(address: &SocketAddr, deadline: Instant) -> io::Result<TcpStream> {
    TcpStream::connect_timeout(address, time_left(deadline)?)
}

/// A TCP stream whose reads and writes all end by one deadline.
#[derive(Debug)]
pub struct DeadlineStream {
    stream: TcpStream,
    deadline: Instant,
}

impl DeadlineStream {
    pub fn new(stream: TcpStream, deadline: Instant) -> Self {
        DeadlineStream { stream, deadline }
    }

    /// Moves the deadline (for the next call on a kept connection).
    pub fn set_deadline(&mut self, deadline: Instant) {
        self.deadline = deadline;
    }
}

impl Read for DeadlineStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.stream
            .set_read_timeout(Some(time_left(self.deadline)?))?;
        self.stream.read(buf)
    }
}

impl Write for DeadlineStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream
            .set_write_timeout(Some(time_left(self.deadline)?))?;
        self.stream.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

/// Whether `e` is a timeout (the deadline passed, or the socket's timeout before it).
pub fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;
    use std::thread;

    fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        (client, server)
    }

    #[test]
    fn a_trickle_cannot_outlast_the_deadline() {
        let (client, mut server) = pair();
        let dripper = thread::spawn(move || {
            // One byte every 100 ms: each read alone would succeed well within a
            // per-read timeout of 300 ms.
            for _ in 0..20 {
                if server.write_all(b"x").is_err() {
                    break;
                }
                thread::sleep(Duration::from_millis(100));
            }
        });
        let start = Instant::now();
        let mut stream = DeadlineStream::new(client, deadline_after(Duration::from_millis(300)));
        let mut buf = [0u8; 64];
        let err = stream.read_exact(&mut buf).unwrap_err();
        assert!(is_timeout(&err), "{err:?}");
        assert!(
            start.elapsed() < Duration::from_millis(600),
            "{:?}",
            start.elapsed()
        );
        drop(stream);
        dripper.join().unwrap();
    }

    #[test]
    fn a_peer_that_never_reads_cannot_block_a_write() {
        let (client, _server) = pair();
        let start = Instant::now();
        let mut stream = DeadlineStream::new(client, deadline_after(Duration::from_millis(300)));
        let chunk = vec![0u8; 1 << 20];
        let err = loop {
            if let Err(e) = stream.write_all(&chunk) {
                break e;
            }
        };
        assert!(is_timeout(&err), "{err:?}");
        assert!(
            start.elapsed() < Duration::from_millis(600),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn huge_timeouts_are_capped_not_overflowed() {
        let deadline = deadline_after(Duration::MAX);
        assert!(deadline <= Instant::now() + MAX_WAIT);
        assert!(time_left(Instant::now()).is_err());
    }
}
