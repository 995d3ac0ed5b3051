//! What `bip37-conform` does when told to stop. On every signal whose default action would end
//! it (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM) it kills every adapter
//! process group it started, removes the temporary files it was writing
//! ([`bip37_harness::teardown`]) and exits with 128 + the signal's number, as a shell reports a
//! process killed by it: without this the tool died at once and an adapter behind a shell
//! wrapper kept running. The programs that clean up after themselves (a `run` under `adapters
//! check`, a node's start script) are sent SIGINT, SIGTERM or SIGHUP as received and SIGTERM
//! for the others, which a script's traps seldom name. SIGPIPE does not apply: the Rust runtime
//! ignores it, so a closed pipe is a write error ([`crate::output`]). SIGKILL cannot be caught;
//! against it each program started directly gets a parent-death signal
//! ([`bip37_harness::parent_death`]). SIGXFSZ (a file size limit, `ulimit -f`) is caught and does nothing,
//! so a write past the limit fails with `EFBIG`, which the atomic write cleans up after, instead
//! of killing the process with its temporary file left behind.
//!
//! The signals are taken by `signal-hook` and handled on a thread of their own, not in a signal
//! handler, so the tear-down may lock, allocate and print. A caught signal is reset to its
//! default in every program the tool starts.

use signal_hook::consts::{SIGALRM, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGXFSZ};
use signal_hook::iterator::Signals;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The signals whose default action ends the process, and that can be caught.
const ENDING: [i32; 7] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM];

/// Starts the signal thread; a failure to set it up is said and the run goes on without it.
pub fn install() {
    if let Err(e) = signal_hook::flag::register(SIGXFSZ, Arc::new(AtomicBool::new(false))) {
        bip37_harness::say!("bip37-conform: cannot catch SIGXFSZ: {e}");
    }
    let mut signals = match Signals::new(ENDING) {
        Ok(signals) => signals,
        Err(e) => {
            bip37_harness::say!("bip37-conform: cannot catch the signals that end it: {e}");
            return;
        }
    };
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let forwarded = match signal {
                    SIGINT | SIGTERM | SIGHUP => signal,
                    _ => SIGTERM,
                };
                let (groups, files) = bip37_harness::teardown::tear_down(forwarded);
                bip37_harness::say!(
                    "bip37-conform: stopped by signal {signal}: killed {groups} adapter process \
                     groups, removed {files} temporary files"
                );
                std::process::exit(128 + signal);
            }
        });
    if let Err(e) = spawned {
        bip37_harness::say!("bip37-conform: cannot start the signal thread: {e}");
    }
}
