//! Told to stop, the tool leaves nothing running: on SIGTERM, SIGINT or SIGHUP in the middle of
//! `run`, `fuzz --jobs 2` or `matrix`, each against an adapter behind a shell wrapper without
//! `exec` (hung on a request), it kills every adapter process group it started and exits with
//! 128 + the signal's number; `adapters check` passes the signal on to the `run` it started,
//! which does the same. So do SIGQUIT, SIGUSR1, SIGUSR2 and SIGALRM, whose default action would
//! end the tool with the adapters left running (issue 32); on SIGKILL, which it cannot catch,
//! the adapter it started directly gets its parent-death signal. Processes are counted in /proc
//! by a marker on their command lines.

mod common;

use common::processes::settles_at;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The exit code of `child`, waiting up to ten seconds (killed and `None` after that).
fn exit_code(child: &mut Child) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The hanging adapter behind `wrapped.sh`, as one command line, marked with `marker`.
fn wrapped_hang(marker: &str) -> String {
    format!(
        "{} hang {marker}",
        common::fixture("adapters/wrapped.sh").display()
    )
}

/// Starts `bip37-conform ARGS`, waits for `processes` marked adapter processes, sends `signal`
/// and checks the exit code and that no marked process is left; returns the tool's pid.
fn stops_cleanly(name: &str, args: &[&str], marker: &str, processes: usize, signal: i32) -> u32 {
    let mut tool = Command::new(common::conform_binary())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = settles_at(marker, processes, Duration::from_secs(20));
    assert_eq!(started, processes, "{name}: the adapters did not start");
    // The hung request is in flight by now (the adapters answer murmur3 at once).
    std::thread::sleep(Duration::from_millis(300));
    let pid = libc::pid_t::try_from(tool.id()).unwrap();
    // SAFETY: kill(2) of the child this test started; no memory is involved.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    let code = exit_code(&mut tool);
    let left = settles_at(marker, 0, Duration::from_secs(3));
    let mut stderr = String::new();
    if let Some(mut err) = tool.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut err, &mut stderr);
    }
    assert_eq!(code, Some(128 + signal), "{name}: {stderr}");
    assert_eq!(left, 0, "{name}: adapter processes left running: {stderr}");
    assert!(stderr.contains("stopped by signal"), "{name}: {stderr}");
    tool.id()
}

fn marker(name: &str) -> String {
    format!("bip37-signal-{name}-{}", std::process::id())
}

#[test]
fn run_stops_on_sigterm_and_leaves_no_adapter() {
    let marker = marker("run");
    let adapter = wrapped_hang(&marker);
    let args = [
        "run",
        "--impl",
        &adapter,
        "--timeout",
        "60s",
        "--id",
        "mini/*",
    ];
    let vectors = common::fixture_vectors();
    let args = [&args[..], &["--vectors", vectors.to_str().unwrap()]].concat();
    let _ = stops_cleanly("run", &args, &marker, 2, libc::SIGTERM);
}

/// `run` against the wrapped hanging adapter over the fixture vectors, marked with `marker`.
fn run_args(marker: &str) -> Vec<String> {
    let vectors = common::fixture_vectors();
    [
        "run",
        "--impl",
        &wrapped_hang(marker),
        "--timeout",
        "60s",
        "--id",
        "mini/*",
        "--vectors",
        vectors.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn run_stops_on_every_signal_that_would_end_it() {
    for (name, signal) in [
        ("sigquit", libc::SIGQUIT),
        ("sigusr1", libc::SIGUSR1),
        ("sigusr2", libc::SIGUSR2),
        ("sigalrm", libc::SIGALRM),
    ] {
        let marker = marker(name);
        let args = run_args(&marker);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let _ = stops_cleanly(name, &args, &marker, 2, signal);
    }
}

/// SIGKILL cannot be caught: the adapter `run` started gets SIGKILL from the kernel as its
/// parent dies.
#[test]
fn an_adapter_does_not_outlive_a_killed_run() {
    let marker = marker("sigkill");
    let mut hang = common::adapter("hang");
    hang.push(marker.clone());
    let vectors = common::fixture_vectors();
    let args = [
        "run",
        "--impl",
        &hang.join(" "),
        "--timeout",
        "60s",
        "--id",
        "mini/*",
        "--vectors",
        vectors.to_str().unwrap(),
    ];
    let mut tool = Command::new(common::conform_binary())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert_eq!(
        settles_at(&marker, 1, Duration::from_secs(20)),
        1,
        "no adapter"
    );
    // The hung request is in flight by now: the adapter sleeps, deaf to its stdin closing.
    std::thread::sleep(Duration::from_millis(500));
    tool.kill().unwrap();
    tool.wait().unwrap();
    assert_eq!(
        settles_at(&marker, 0, Duration::from_secs(5)),
        0,
        "the adapter outlived it"
    );
}

#[test]
fn fuzz_with_two_workers_stops_on_sigint_and_leaves_no_adapter() {
    let marker = marker("fuzz");
    let adapter = wrapped_hang(&marker);
    let args = [
        "fuzz",
        "--impl",
        &adapter,
        "--op",
        "hashSeed",
        "--timeout",
        "60s",
        "--time",
        "60s",
        "--jobs",
        "2",
        "--seed",
        "1",
    ];
    let _ = stops_cleanly("fuzz --jobs 2", &args, &marker, 4, libc::SIGINT);
}

#[test]
fn matrix_stops_on_sighup_and_leaves_no_adapter() {
    let marker = marker("matrix");
    let adapter = format!("hang={}", wrapped_hang(&marker));
    let vectors = common::fixture_vectors();
    let args = [
        "matrix",
        "--impl",
        &adapter,
        "--timeout",
        "60s",
        "--vectors",
        vectors.to_str().unwrap(),
    ];
    let _ = stops_cleanly("matrix", &args, &marker, 2, libc::SIGHUP);
}

#[test]
fn adapters_check_passes_sigterm_on_and_leaves_no_adapter() {
    let marker = marker("check");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hardening-signals-check");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("hung")).unwrap();
    let run = format!(
        "{} run --impl {:?} --timeout 60s --vectors {}",
        common::conform_binary(),
        wrapped_hang(&marker),
        common::fixture_vectors().display()
    );
    let manifest = format!(
        "name = \"hung\"\nkind = \"node\"\nlanguage = \"sh\"\n\
         library = {{ name = \"n\", version = \"1\", registry = \"none\" }}\n\
         start = \"env\"\nrun = {run:?}\nexpectations = \"e.toml\"\n"
    );
    std::fs::write(dir.join("hung/adapter.toml"), manifest).unwrap();
    let args = ["adapters", "check", "--adapters", dir.to_str().unwrap()];
    let pid = stops_cleanly("adapters check", &args, &marker, 2, libc::SIGTERM);
    // A signal the start script may not handle is passed on as SIGTERM.
    let _ = stops_cleanly("adapters check", &args, &marker, 2, libc::SIGUSR1);
    // Its report directory (bip37-check-<pid>-<n>) went with it.
    let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("bip37-check-{pid}-"))
        })
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
