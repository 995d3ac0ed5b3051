//! Counting the processes a test started, by a marker on their command lines in /proc: what
//! the process-group and signal tests check is left behind.

use std::time::{Duration, Instant};

/// How many live processes carry `marker` on their command line (zombies have none).
pub fn processes_with(marker: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .filter(|cmdline| {
            cmdline
                .split(|&b| b == 0)
                .any(|arg| arg == marker.as_bytes())
        })
        .count()
}

/// Waits up to `within` for the count of `marker` to reach `wanted`, and returns the last
/// count: a SIGKILLed process takes a moment to go, and on a loaded machine a process just
/// started can take a moment to show in /proc with its final command line.
pub fn settles_at(marker: &str, wanted: usize, within: Duration) -> usize {
    let deadline = Instant::now() + within;
    loop {
        let n = processes_with(marker);
        if n == wanted || Instant::now() > deadline {
            return n;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
