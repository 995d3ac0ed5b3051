//! Command output on stdout that survives a reader going away: `bip37-conform list | head`
//! closes the pipe early, and `print!` would panic (exit 101). A closed pipe ends the output
//! quietly and the command ends with the exit code it would have had.

use std::io::{self, Write};

/// Writes `text` to stdout; a closed pipe is not an error, any other failure is said on stderr.
pub fn print(text: &str) {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            bip37_harness::say!("bip37-conform: cannot write to stdout: {e}");
        }
        _ => {}
    }
}
