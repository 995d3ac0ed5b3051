//! Command output on stdout that survives a reader going away, and never hides a failed write.
//! `bip37-conform list | head` closes the pipe early, and `print!` would panic (exit 101): a
//! closed pipe ends the output quietly and the command ends with the exit code it would have
//! had. Any other failure (`> /dev/full`, an I/O error, a write that makes no progress) is said
//! on stderr with its cause and turns the command's exit code into 2 ([`failed`], which
//! [`crate::cli::main`] consults), so a report cut short is never a success.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once a write to stdout failed other than by a closed pipe.
static FAILED: AtomicBool = AtomicBool::new(false);

/// Writes `text` to stdout; a closed pipe is not an error, any other failure is said on stderr
/// and remembered for the exit code.
pub fn print(text: &str) {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            FAILED.store(true, Ordering::Relaxed);
            bip37_harness::say!(
                "bip37-conform: cannot write to stdout: {e}; the output is incomplete"
            );
        }
        _ => {}
    }
}

/// True once a write to stdout failed (other than by a closed pipe).
pub fn failed() -> bool {
    FAILED.load(Ordering::Relaxed)
}
