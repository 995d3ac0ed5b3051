//! What the process must undo if it is told to stop (SIGINT, SIGTERM, SIGHUP) in the middle of a
//! run: the process groups of the adapters it started and the temporary files it has not yet
//! renamed into place. The subprocess client and [`crate::atomic_file`] record them here as
//! they come and go; [`tear_down`], called by the command line's signal handling thread, kills
//! every group and removes every file.
//!
//! A group is recorded while its leader is unreaped, so its id cannot name another process's
//! group. Spawning happens under the same lock as the tear-down: once the tear-down has begun
//! no new adapter can start behind it.

use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard};

/// The process group ids of running adapters.
static GROUPS: Mutex<BTreeSet<libc::pid_t>> = Mutex::new(BTreeSet::new());
/// The temporary files being written.
static TEMPORARY: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

fn locked<T>(set: &'static Mutex<T>) -> MutexGuard<'static, T> {
    set.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Spawns `command`, which must start a process group of its own (`process_group(0)`), and
/// records the group.
pub fn spawn_group(command: &mut Command) -> io::Result<Child> {
    let mut groups = locked(&GROUPS);
    let child = command.spawn()?;
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        groups.insert(pgid);
    }
    Ok(child)
}

/// Forgets the group led by `child`: called after its group is killed and before the child is
/// reaped.
pub fn forget_group(child: &Child) {
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        locked(&GROUPS).remove(&pgid);
    }
}

/// Creates a temporary file with `create` (which returns it and its path) and records it, under
/// the lock the tear-down keeps: none is created behind the tear-down.
pub fn create_temporary<T>(
    create: impl FnOnce() -> io::Result<(T, PathBuf)>,
) -> io::Result<(T, PathBuf)> {
    let mut files = locked(&TEMPORARY);
    let (file, path) = create()?;
    files.insert(path.clone());
    Ok((file, path))
}

/// Forgets a temporary file: renamed into place or removed.
pub fn temporary_gone(path: &Path) {
    locked(&TEMPORARY).remove(path);
}

/// Kills every recorded process group and removes every recorded temporary file; returns how
/// many of each. Both locks are kept for the rest of the process's life, so no adapter can be
/// started and no temporary file created after this: call it only on the way out.
pub fn tear_down() -> (usize, usize) {
    let groups = locked(&GROUPS);
    for pgid in groups.iter() {
        // SAFETY: kill(2) with a negative pid signals that process group; no memory is involved.
        unsafe { libc::kill(-pgid, libc::SIGKILL) };
    }
    let killed = groups.len();
    std::mem::forget(groups);
    let files = locked(&TEMPORARY);
    for file in files.iter() {
        let _ = std::fs::remove_file(file);
    }
    let removed = files.len();
    std::mem::forget(files);
    (killed, removed)
}
