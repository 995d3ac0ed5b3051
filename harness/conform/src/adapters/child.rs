//! One command of a manifest run as a child within its deadline. The child leads a process group
//! of its own that the tear-down signals (`crate::signals`: a `run` kills its adapters, a
//! node's start script stops its node), it gets SIGTERM if this process ends without a
//! tear-down (SIGKILL), and once its deadline has passed its group is ended as on a signal:
//! SIGTERM, [`teardown::FORWARD_GRACE`] to clean up, then SIGKILL to what is left.

use bip37_harness::{parent_death, teardown};
use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

/// How often a running child is looked at.
const POLL: Duration = Duration::from_millis(50);

/// How a child ended.
#[derive(Debug)]
pub enum Ended {
    /// By itself, with this status.
    Exited(ExitStatus),
    /// At its deadline: its group was ended.
    Overran,
}

/// Runs `argv` until it exits or `deadline` has passed.
pub fn run(argv: &[String], deadline: Duration) -> io::Result<Ended> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "an empty command line"))?;
    let mut command = Command::new(program);
    command.args(args).process_group(0);
    parent_death::die_with_parent(&mut command, libc::SIGTERM);
    let mut child = teardown::spawn_forwarded(&mut command)?;
    let ended = wait(&mut child, deadline);
    teardown::forget_forwarded(&child);
    ended
}

fn wait(child: &mut Child, deadline: Duration) -> io::Result<Ended> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Ended::Exited(status));
        }
        if started.elapsed() >= deadline {
            end_group(child);
            return Ok(Ended::Overran);
        }
        std::thread::sleep(POLL);
    }
}

/// SIGTERM to the group of `child`, the grace to end, then SIGKILL; `child` is reaped.
fn end_group(child: &mut Child) {
    let Ok(pgid) = libc::pid_t::try_from(child.id()) else {
        let _ = child.kill();
        let _ = child.wait();
        return;
    };
    // SAFETY: kill(2) of the group this child leads, the child not yet reaped (so the id names
    // no other group); no memory is involved.
    unsafe { libc::kill(-pgid, libc::SIGTERM) };
    let grace = Instant::now() + teardown::FORWARD_GRACE;
    let mut reaped = false;
    while Instant::now() < grace {
        reaped = reaped || matches!(child.try_wait(), Ok(Some(_)));
        // SAFETY: signal 0 only asks whether the group still has a member.
        if reaped && unsafe { libc::kill(-pgid, 0) } != 0 {
            return;
        }
        std::thread::sleep(POLL);
    }
    // SAFETY: as above; once the leader is reaped the group id stays unused while a member of
    // the group is alive, and an empty group makes this a no-op.
    unsafe { libc::kill(-pgid, libc::SIGKILL) };
    if !reaped {
        let _ = child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(script: &str) -> Vec<String> {
        ["sh", "-c", script].map(String::from).to_vec()
    }

    #[test]
    fn a_child_within_its_deadline_keeps_its_exit_code() {
        match run(&argv("exit 7"), Duration::from_secs(10)).unwrap() {
            Ended::Exited(status) => assert_eq!(status.code(), Some(7)),
            Ended::Overran => panic!("exit 7 overran"),
        }
    }

    #[test]
    fn a_child_that_ignores_sigterm_is_killed_after_the_grace() {
        let started = Instant::now();
        let ended = run(
            &argv("trap '' TERM; sleep 100000"),
            Duration::from_millis(200),
        );
        assert!(matches!(ended.unwrap(), Ended::Overran));
        let took = started.elapsed();
        assert!(
            took < teardown::FORWARD_GRACE + Duration::from_secs(5),
            "{took:?}"
        );
    }
}
