//! Every command `adapters install` and `adapters check` run has a deadline (`deadlines` in its
//! manifest, a default otherwise), after which its process group is ended as on a signal
//! (issue 32: `install = "sleep 100000"` and a node `start` that hangs after the suite and
//! ignores SIGTERM waited until killed from outside).

mod common;

use bip37_conform::adapters::manifest;
use common::processes::settles_at;
use std::time::{Duration, Instant};

/// A directory with one adapter `name` of `kind`, its manifest ending in `extra`.
fn adapter(dir_name: &str, kind: &str, extra: &str) -> std::path::PathBuf {
    let dir = common::tempdir(dir_name);
    std::fs::create_dir(dir.join("slow")).unwrap();
    let text = format!(
        "name = \"slow\"\nkind = {kind:?}\nlanguage = \"sh\"\n\
         library = {{ name = \"l\", version = \"1\", registry = \"none\" }}\n\
         expectations = \"e.toml\"\n{extra}\n"
    );
    std::fs::write(dir.join("slow").join(manifest::FILE_NAME), text).unwrap();
    dir
}

#[test]
fn an_install_past_its_deadline_is_ended() {
    let marker = format!("bip37-deadline-install-{}", std::process::id());
    let extra = format!(
        "install = \"sh -c 'sleep 100000; : {marker}'\"\nrun = \"true\"\n\
         deadlines = {{ install = \"1s\" }}"
    );
    let dir = adapter("deadline-install", "subprocess", &extra);
    let started = Instant::now();
    let out = common::conform(&["adapters", "install", "--adapters", dir.to_str().unwrap()]);
    let stderr = common::text(&out.stderr);
    assert_eq!(common::code(&out), 3, "{stderr}");
    assert!(
        started.elapsed() < Duration::from_secs(9),
        "{:?}",
        started.elapsed()
    );
    assert!(
        stderr.contains("still running after its deadline of 1s"),
        "{stderr}"
    );
    assert_eq!(
        settles_at(&marker, 0, Duration::from_secs(3)),
        0,
        "left running"
    );
}

#[test]
fn a_node_start_that_hangs_and_ignores_sigterm_is_killed() {
    let marker = format!("bip37-deadline-start-{}", std::process::id());
    // It runs the suite, then hangs deaf to SIGTERM, as a start script that never stops its node.
    let start = format!("sh -c '\"$@\"; trap \"\" TERM; sleep 100000; : {marker}' sh");
    let extra = format!(
        "start = {start:?}\nrun = \"{} run --builtin reference\"\n\
         deadlines = {{ start = \"5s\" }}",
        common::conform_binary()
    );
    let dir = adapter("deadline-start", "node", &extra);
    let started = Instant::now();
    let out = common::conform(&["adapters", "check", "--adapters", dir.to_str().unwrap()]);
    let stderr = common::text(&out.stderr);
    assert_eq!(common::code(&out), 3, "{stderr}");
    assert!(
        stderr.contains("start+run: still running after its deadline of 5s"),
        "{stderr}"
    );
    // The grace of 10 s, then SIGKILL.
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        settles_at(&marker, 0, Duration::from_secs(3)),
        0,
        "left running"
    );
}
