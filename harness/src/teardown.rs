//! What the process must undo if it is told to stop (a signal that ends it, `bip37-conform`'s
//! `signals` lists them) in the middle of a run: the process groups of the adapters it started (killed), those of programs that clean up
//! after themselves (sent the signal, then killed if they have not ended within a grace), and
//! the temporary files it has not yet renamed into place. The subprocess client and [`crate::atomic_file`] record them here as
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
/// The process group ids of running programs that clean up after themselves when signalled (a
/// `bip37-conform run` under `adapters check`, a node's start script that stops its node).
static FORWARDED: Mutex<BTreeSet<libc::pid_t>> = Mutex::new(BTreeSet::new());

/// How long the tear-down waits for a forwarded group to end before killing it.
pub const FORWARD_GRACE: std::time::Duration = std::time::Duration::from_secs(10);
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

/// Spawns `command`, which must start a process group of its own, as a program that is sent the
/// tear-down's signal (and given [`FORWARD_GRACE`] to clean up) rather than killed outright.
pub fn spawn_forwarded(command: &mut Command) -> io::Result<Child> {
    let _no_tear_down = locked(&GROUPS);
    let child = command.spawn()?;
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        locked(&FORWARDED).insert(pgid);
    }
    Ok(child)
}

/// Forgets a group of [`spawn_forwarded`] once its leader has ended.
pub fn forget_forwarded(child: &Child) {
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        locked(&FORWARDED).remove(&pgid);
    }
}

/// Forgets the group led by `child`: called after its group is killed and before the child is
/// reaped.
pub fn forget_group(child: &Child) {
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        locked(&GROUPS).remove(&pgid);
    }
}

/// Creates a temporary file or directory with `create` (which returns it and its path) and
/// records it, under the lock the tear-down keeps: none is created behind the tear-down.
pub fn create_temporary<T>(
    create: impl FnOnce() -> io::Result<(T, PathBuf)>,
) -> io::Result<(T, PathBuf)> {
    let mut files = locked(&TEMPORARY);
    let (file, path) = create()?;
    files.insert(path.clone());
    Ok((file, path))
}

/// Forgets a temporary file or directory: renamed into place or removed.
pub fn temporary_gone(path: &Path) {
    locked(&TEMPORARY).remove(path);
}

/// Returns at once unless a [`tear_down`] has begun; then never (the tear-down ends the
/// process, with the signal's exit code): called on the way out, so that a command whose last
/// child ended because of the tear-down does not exit first with that child's code.
pub fn wait_for_tear_down() {
    drop(locked(&GROUPS));
}

/// Sends `signal` to every forwarded group and kills every adapter group, waits up to
/// [`FORWARD_GRACE`] for the forwarded groups to end (killing what is left of them), and
/// removes every recorded temporary file; returns how many groups and files. The group and file
/// locks are kept for the rest of the process's life, so no program can be started and no
/// temporary file created after this: call it only on the way out.
pub fn tear_down(signal: i32) -> (usize, usize) {
    let groups = locked(&GROUPS);
    let forwarded: Vec<libc::pid_t> = locked(&FORWARDED).iter().copied().collect();
    for pgid in &forwarded {
        // SAFETY: kill(2) with a negative pid signals that process group; no memory is involved.
        unsafe { libc::kill(-pgid, signal) };
    }
    for pgid in groups.iter() {
        // SAFETY: as above.
        unsafe { libc::kill(-pgid, libc::SIGKILL) };
    }
    let deadline = std::time::Instant::now() + FORWARD_GRACE;
    // SAFETY: signal 0 only checks that the group exists.
    while forwarded
        .iter()
        .any(|pgid| unsafe { libc::kill(-pgid, 0) } == 0)
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    for pgid in locked(&FORWARDED).iter() {
        // SAFETY: kill(2) of a group whose leader is not yet forgotten (reaped an instant ago at
        // most, so its id names no other group); no memory is involved.
        unsafe { libc::kill(-pgid, libc::SIGKILL) };
    }
    let killed = groups.len() + forwarded.len();
    std::mem::forget(groups);
    let files = locked(&TEMPORARY);
    for file in files.iter() {
        // A temporary directory (adapters check's report directory) goes with its contents.
        if std::fs::remove_file(file).is_err() {
            let _ = std::fs::remove_dir_all(file);
        }
    }
    let removed = files.len();
    std::mem::forget(files);
    (killed, removed)
}
