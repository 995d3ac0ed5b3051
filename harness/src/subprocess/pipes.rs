//! The child's output pipes, each drained by its own thread so that nothing the child writes
//! can block it or the harness: stdout is cut into bounded lines, stderr keeps only its tail.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;

/// One thing read from the child's stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A complete line without its `\n` (and without a `\r` before it).
    Text(Vec<u8>),
    /// A line longer than the limit; its bytes were discarded as they arrived.
    Oversized { limit: usize },
    /// The pipe closed: the child exited or closed its stdout.
    End,
    /// Reading failed.
    Failed(String),
}

/// Reads `pipe` into lines of at most `limit` bytes on a thread; the receiver yields them in
/// order and then [`Line::End`] or [`Line::Failed`]. At most a few lines wait in the channel,
/// so a child that floods stdout blocks on its own writes, not the harness.
pub fn read_lines<R: Read + Send + 'static>(pipe: R, limit: usize) -> Receiver<Line> {
    let (tx, rx) = sync_channel(4);
    thread::spawn(move || {
        let mut reader = BufReader::with_capacity(64 * 1024, pipe);
        loop {
            let line = next_line(&mut reader, limit);
            let last = matches!(line, Line::End | Line::Failed(_));
            if tx.send(line).is_err() || last {
                return;
            }
        }
    });
    rx
}

fn next_line(reader: &mut impl BufRead, limit: usize) -> Line {
    let mut line = Vec::new();
    let mut oversized = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
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
}

impl StderrTail {
    /// How much of the end of stderr is kept.
    pub const KEEP: usize = 4096;

    /// Starts draining `pipe`.
    pub fn drain<R: Read + Send + 'static>(mut pipe: R) -> Self {
        let tail = StderrTail::default();
        let shared = Arc::clone(&tail.tail);
        thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                match pipe.read(&mut buf) {
                    Ok(0) => return,
                    Ok(n) => {
                        let mut kept = shared.lock().unwrap_or_else(|p| p.into_inner());
                        kept.extend_from_slice(&buf[..n]);
                        let excess = kept.len().saturating_sub(Self::KEEP);
                        kept.drain(..excess);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => return,
                }
            }
        });
        tail
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
