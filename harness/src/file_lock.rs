//! The lock a read-modify-write holds: `run --update-expectations` (read the expectations file,
//! run, write it back), `fuzz --import-into` and `promote` (merge a finding into the imported
//! vector file) and the matrix (its Markdown and JSON files, written as a pair). Without it two
//! runs at once both read the old file and the last rename wins: the other run's entries are
//! lost, silently.
//!
//! The lock is an advisory `flock(2)` on the target's directory, not on the file: the file is
//! replaced by a rename ([`crate::atomic_file`]), so a lock on its inode would be a lock on a
//! file that is no longer there, and a separate lock file would be litter beside it. A second
//! writer waits for the first, up to a bound, then fails with "locked by another run". The lock
//! goes with the process (a crash or a kill releases it).

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a writer waits for another run's lock before giving up: longer than a run of the
/// whole suite against a slow adapter takes here, bounded so that a run stuck elsewhere cannot
/// hold a queue of writers forever.
pub const WAIT: Duration = Duration::from_secs(600);

/// Exclusive locks on the directories of the files being rewritten; dropping it releases them.
#[derive(Debug)]
#[must_use = "the lock is released when this is dropped"]
pub struct RewriteLock {
    _dirs: Vec<File>,
}

/// Takes the lock for rewriting each of `paths` (a path that is a symbolic link is locked where
/// its target is, as it is written there), waiting up to `wait` for another run to release it.
/// Directories are locked in one order, so two runs locking the same pair cannot deadlock.
pub fn lock(paths: &[&Path], wait: Duration) -> io::Result<RewriteLock> {
    let mut dirs: Vec<(PathBuf, &Path)> = paths
        .iter()
        .map(|path| {
            let dir = crate::atomic_file::directory_of(path);
            match std::fs::canonicalize(&dir) {
                Ok(dir) => Ok((dir, *path)),
                Err(e) => Err(io::Error::new(
                    e.kind(),
                    format!("cannot lock {}: {e}", dir.display()),
                )),
            }
        })
        .collect::<io::Result<_>>()?;
    dirs.sort();
    dirs.dedup_by(|a, b| a.0 == b.0);
    let deadline = Instant::now() + wait;
    let mut held = Vec::with_capacity(dirs.len());
    for (dir, path) in &dirs {
        held.push(lock_dir(dir, path, deadline)?);
    }
    Ok(RewriteLock { _dirs: held })
}

fn lock_dir(dir: &Path, path: &Path, deadline: Instant) -> io::Result<File> {
    let file = File::open(dir)?;
    let mut said = false;
    loop {
        // SAFETY: flock(2) on a descriptor this function owns; no memory is involved.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(file);
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(libc::EWOULDBLOCK) => {}
            _ => {
                return Err(io::Error::new(
                    e.kind(),
                    format!("cannot lock {}: {e}", dir.display()),
                ))
            }
        }
        if Instant::now() >= deadline {
            return Err(io::Error::new(
                io::ErrorKind::WouldBlock,
                format!(
                    "{} is locked by another run (a rewrite of a file in {}); nothing was written",
                    path.display(),
                    dir.display()
                ),
            ));
        }
        if !said {
            crate::say!(
                "bip37-conform: waiting for another run that is rewriting a file in {}",
                dir.display()
            );
            said = true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_waits_then_fails_saying_why() {
        let dir = std::env::temp_dir().join(format!("bip37-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("expectations.toml");
        let first = lock(&[&file], Duration::ZERO).unwrap();
        let started = Instant::now();
        let err = lock(&[&dir.join("matrix.md"), &file], Duration::from_millis(200)).unwrap_err();
        assert!(err.to_string().contains("locked by another run"), "{err}");
        assert!(started.elapsed() >= Duration::from_millis(200));
        drop(first);
        let second = lock(&[&file], Duration::ZERO).unwrap();
        drop(second);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
