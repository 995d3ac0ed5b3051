//! A child that does not outlive the tool. The tear-down ([`crate::teardown`]) ends every
//! adapter group on a signal the tool can catch; SIGKILL (and a crash) it cannot, so each
//! program the tool starts directly asks the kernel for a parent-death signal
//! (`prctl(PR_SET_PDEATHSIG)`, Linux): when the tool ends, however it ends, its direct child
//! gets `signal`. The kernel sends it when the *thread* that started the child ends, so a
//! program must be started on a thread that lives as long as the program is needed (the main
//! thread, or a worker that uses and stops its own adapter, as `fuzz --jobs` does).

use std::io;
use std::os::unix::process::CommandExt;
use std::process::Command;

/// Makes the program `command` starts receive `signal` when this process (the thread that
/// spawns it) ends. A parent that ended before the program set it up gets it at once.
pub fn die_with_parent(command: &mut Command, signal: libc::c_int) -> &mut Command {
    let parent = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
    // SAFETY: the closure runs in the child between fork and exec and calls only prctl(2),
    // getppid(2) and kill(2), which are async-signal-safe; it allocates nothing.
    unsafe {
        command.pre_exec(move || {
            let signal = libc::c_ulong::try_from(signal).unwrap_or(libc::SIGKILL as libc::c_ulong);
            if libc::prctl(libc::PR_SET_PDEATHSIG, signal, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            // The parent may have ended before the prctl: then the signal would never come.
            if libc::getppid() != parent {
                libc::kill(libc::getpid(), signal as libc::c_int);
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A sleeper started with the signal by a thread that then ends, as its parent would:
    /// the kernel sends it SIGKILL.
    #[test]
    fn the_child_of_an_ended_parent_ends() {
        let thread = std::thread::spawn(|| {
            let mut sleeper = Command::new("sleep");
            sleeper.arg("1000");
            die_with_parent(&mut sleeper, libc::SIGKILL);
            sleeper.spawn().unwrap().id()
        });
        let pid = libc::pid_t::try_from(thread.join().unwrap()).unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut status = 0;
        let reaped = loop {
            // SAFETY: waitpid(2) of this process's own child into a local.
            let reaped = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
            if reaped != 0 || Instant::now() > deadline {
                break reaped;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        if reaped == 0 {
            // SAFETY: kill(2) of the sleeper this test started, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        assert_eq!(
            reaped, pid,
            "the sleeper outlived the thread that started it"
        );
        assert!(libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGKILL);
    }
}
