//! Adapters as data: every adapter under `adapters/` has a manifest whose files exist, and
//! `bip37-conform adapters` and `matrix --adapters` do what the manifests say (on manifests of
//! the built-in reference and a mutant, served by the binary).

mod common;

use bip37_conform::adapters::manifest::{self, Kind, Manifest};
use bip37_harness::expectations::Expectations;
use std::path::{Path, PathBuf};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Whether `dir` holds an adapter: an expectations file, a protocol program or a crate.
fn is_adapter(dir: &Path) -> bool {
    [
        "expectations.toml",
        "adapter.py",
        "adapter.js",
        "Cargo.toml",
    ]
    .iter()
    .any(|file| dir.join(file).is_file())
}

#[test]
fn every_adapter_directory_has_a_manifest() {
    let adapters = repository().join("adapters");
    let mut found = 0;
    for entry in std::fs::read_dir(&adapters).unwrap() {
        let dir = entry.unwrap().path();
        if dir.is_dir() && is_adapter(&dir) {
            assert!(
                dir.join(manifest::FILE_NAME).is_file(),
                "{} holds an adapter but no {}",
                dir.display(),
                manifest::FILE_NAME
            );
            found += 1;
        }
    }
    let manifests = manifest::load_all(&adapters).unwrap();
    assert_eq!(manifests.len(), found);
    assert!(found >= 7, "the seven adapters of README's table");
}

/// Whether `word` of a command line names a file that install or build makes.
fn made_by_setup(word: &str) -> bool {
    ["/.venv/", "/target/", "/node_modules/"]
        .iter()
        .any(|made| word.contains(made))
}

/// The workspace or own-lockfile crates under `adapters/`, by package name.
fn adapter_packages() -> Vec<String> {
    let adapters = repository().join("adapters");
    let crates = std::fs::read_dir(&adapters).unwrap().filter_map(|entry| {
        let text = std::fs::read_to_string(entry.ok()?.path().join("Cargo.toml")).ok()?;
        let line = text.lines().find(|l| l.starts_with("name = "))?;
        Some(line["name = ".len()..].trim_matches('"').to_string())
    });
    crates.collect()
}

#[test]
fn every_manifest_names_files_that_exist() {
    let root = repository();
    let packages = adapter_packages();
    for m in manifest::load_all(&root.join("adapters")).unwrap() {
        let expectations = root.join(&m.expectations);
        Expectations::load(&expectations)
            .unwrap_or_else(|e| panic!("{}: expectations {e}", m.name));
        assert!(
            m.expectations.starts_with(format!("adapters/{}", m.name)),
            "{}: its expectations file is its own",
            m.name
        );
        for (field, command) in m.commands() {
            let argv = manifest::split(command).unwrap();
            for (i, word) in argv.iter().enumerate() {
                if word.starts_with("adapters/") && !made_by_setup(word) {
                    assert!(root.join(word).exists(), "{} {field}: {word}", m.name);
                }
                if i > 0 && argv[i - 1] == "-p" {
                    assert!(packages.contains(word), "{} {field}: -p {word}", m.name);
                }
            }
        }
        match m.kind {
            Kind::Rust => assert!(m.build.is_some(), "{}: a crate is built", m.name),
            Kind::Subprocess | Kind::Node => {}
        }
    }
}

/// A directory of adapter manifests, each served by this binary: `name` runs `serve ARGS`.
fn manifests(dir_name: &str, adapters: &[(&str, &str, &str)]) -> PathBuf {
    let dir = common::tempdir(dir_name);
    for (name, serve, extra) in adapters {
        std::fs::create_dir(dir.join(name)).unwrap();
        let expectations = dir.join(name).join("expectations.toml");
        std::fs::write(&expectations, "").unwrap();
        let text = format!(
            "name = {name:?}\nkind = \"subprocess\"\nlanguage = \"Rust\"\n\
             library = {{ name = \"bip37-reference\", version = \"0.1.0\", registry = \"none\" }}\n\
             run = {:?}\nexpectations = {:?}\n{extra}\n",
            format!("{} serve {serve}", common::conform_binary()),
            expectations.display().to_string(),
        );
        std::fs::write(dir.join(name).join(manifest::FILE_NAME), text).unwrap();
    }
    dir
}

#[test]
fn check_holds_each_adapter_to_its_expectations() {
    let dir = manifests(
        "adapters-check",
        &[
            ("reference", "", "timeout = \"30s\""),
            ("tail", "--mutant murmur-tail", ""),
        ],
    );
    let dir = dir.to_str().unwrap();
    let out = common::conform(&[
        "adapters",
        "check",
        "--adapters",
        dir,
        "--name",
        "reference",
    ]);
    assert_eq!(common::code(&out), 0, "{}", common::text(&out.stderr));
    let stderr = common::text(&out.stderr);
    assert!(stderr.contains("--timeout 30000ms"), "{stderr}");
    assert!(stderr.contains("1 of 1 done"), "{stderr}");

    let out = common::conform(&["adapters", "check", "--adapters", dir]);
    assert_eq!(
        common::code(&out),
        1,
        "the mutant fails its empty expectations"
    );
    let stderr = common::text(&out.stderr);
    assert!(
        stderr.contains("1 of 2 done; failed: tail (exit 1)"),
        "{stderr}"
    );

    let out = common::conform(&["adapters", "list", "--adapters", dir, "--name", "nope"]);
    assert_eq!(common::code(&out), 2);
    assert!(common::text(&out.stderr).contains("known: reference, tail"));
}

#[test]
fn install_stops_an_adapter_at_its_first_failing_command() {
    let dir = manifests(
        "adapters-install",
        &[("broken", "", "install = \"false\"\nbuild = \"true\"")],
    );
    let out = common::conform(&["adapters", "install", "--adapters", dir.to_str().unwrap()]);
    assert_eq!(common::code(&out), 1);
    let stderr = common::text(&out.stderr);
    assert!(stderr.contains("broken install: false"), "{stderr}");
    assert!(!stderr.contains("broken build"), "{stderr}");
}

/// A directory of node manifests, `(name, start, run)`.
fn nodes(dir_name: &str, nodes: &[(&str, &str, &str)]) -> PathBuf {
    let dir = common::tempdir(dir_name);
    for (name, start, run) in nodes {
        std::fs::create_dir(dir.join(name)).unwrap();
        let text = format!(
            "name = {name:?}\nkind = \"node\"\nlanguage = \"C++\"\n\
             library = {{ name = \"n\", version = \"1\", registry = \"none\" }}\n\
             start = {start:?}\nrun = {run:?}\nexpectations = \"e.toml\"\n"
        );
        std::fs::write(dir.join(name).join(manifest::FILE_NAME), text).unwrap();
    }
    dir
}

/// A node suite's command line stood in for by a run of a built-in implementation, the whole
/// suite: the gate wants a test run in every operation the built-in claims.
fn suite(builtin: &str) -> String {
    format!("{} run --builtin {builtin}", common::conform_binary())
}

#[test]
fn a_node_runs_inside_its_start_command_and_is_no_matrix_column() {
    let (agrees, differs) = (suite("reference"), suite("mutant:murmur-tail"));
    let dir = nodes(
        "adapters-node",
        &[("agrees", "env", &agrees), ("differs", "env", &differs)],
    );
    let dir = dir.to_str().unwrap();
    let out = common::conform(&["adapters", "check", "--adapters", dir]);
    assert_eq!(common::code(&out), 1);
    let stderr = common::text(&out.stderr);
    assert!(stderr.contains("agrees start+run: env "), "{stderr}");
    assert!(
        stderr.contains("1 of 2 done; failed: differs (exit 1)"),
        "{stderr}"
    );
    let out = common::conform(&["matrix", "--adapters", dir]);
    assert_eq!(common::code(&out), 2);
    assert!(common::text(&out.stderr).contains("nodes are not columns"));
}

/// The gate never passes what did not run: a `start` that does not run the command appended to
/// it, or runs it and drops its exit code, fails the check (issue 24's first case).
#[test]
fn a_check_passes_only_what_ran() {
    let (agrees, differs) = (suite("reference"), suite("mutant:murmur-tail"));
    let dir = nodes(
        "adapters-gate",
        &[
            ("a-ran", "env", &agrees),
            ("b-not-run", "true", &agrees),
            ("c-exit-code-dropped", "sh -c '\"$@\"; exit 0' sh", &differs),
        ],
    );
    let dir = dir.to_str().unwrap();
    for (name, code, why) in [
        ("a-ran", 0, "1 of 1 done"),
        ("b-not-run", 2, "the suite did not run"),
        (
            "c-exit-code-dropped",
            2,
            "the exit code of the suite was lost",
        ),
    ] {
        let out = common::conform(&["adapters", "check", "--adapters", dir, "--name", name]);
        let stderr = common::text(&out.stderr);
        assert_eq!(common::code(&out), code, "{name}: {stderr}");
        assert!(stderr.contains(why), "{name}: {stderr}");
    }
}

#[test]
fn the_matrix_has_a_column_per_manifest() {
    let dir = manifests(
        "adapters-matrix",
        &[
            ("reference", "", "column = \"ref\""),
            ("tail", "--mutant murmur-tail", ""),
        ],
    );
    let out = common::conform(&[
        "matrix",
        "--op",
        "murmur3",
        "--adapters",
        dir.to_str().unwrap(),
        "--report-only",
    ]);
    // The tail mutant's expectations file is empty: without --report-only, exit 1.
    assert_eq!(common::code(&out), 0, "{}", common::text(&out.stderr));
    let markdown = common::text(&out.stdout);
    assert!(
        markdown.contains("| operation | vectors | ref | tail |"),
        "{markdown}"
    );
    assert!(markdown.contains("MurmurTail"), "{markdown}");
}

#[test]
fn a_manifest_is_read_as_the_matrix_and_check_read_it() {
    let sv = Manifest::load(&repository().join("adapters/sv/adapter.toml")).unwrap();
    assert_eq!(sv.timeout, Some(std::time::Duration::from_secs(60)));
    let argv = bip37_conform::adapters::command::run_command(&sv).unwrap();
    assert_eq!(
        argv[1..],
        [
            "run",
            "--expectations",
            "adapters/sv/expectations.toml",
            "--impl",
            "adapters/sv/target/debug/bip37-sv",
            "--timeout",
            "60000ms"
        ]
    );
}

/// Issue 32: a manifest path that is there but is not a manifest (a link leading nowhere, a
/// directory, a FIFO, text that does not parse) was passed over, and `check` said "2 of 2
/// done"; each is named by `list` and fails `check` and `install`, saying which and why.
#[test]
fn every_adapter_that_is_there_is_checked_or_refused() {
    let dir = manifests("adapters-refused", &[("good", "", "")]);
    for name in ["dangling", "directory", "fifo", "garbage"] {
        std::fs::create_dir(dir.join(name)).unwrap();
    }
    let path = |name: &str| dir.join(name).join(manifest::FILE_NAME);
    std::os::unix::fs::symlink(dir.join("moved.toml"), path("dangling")).unwrap();
    std::fs::create_dir(path("directory")).unwrap();
    common::mkfifo(&path("fifo"));
    std::fs::write(path("garbage"), "name = ").unwrap();
    let dir = dir.to_str().unwrap();

    let out = common::conform(&["adapters", "list", "--adapters", dir]);
    assert_eq!(common::code(&out), 0, "{}", common::text(&out.stderr));
    let listed = common::text(&out.stdout);
    for (name, why) in [
        ("dangling", "leads nowhere"),
        ("directory", "not a regular file"),
        ("fifo", "not a regular file"),
        ("garbage", "TOML parse error"),
    ] {
        let line = listed.lines().find(|l| l.starts_with(&format!("{name}\t")));
        let line = line.unwrap_or_else(|| panic!("{name} is not listed:\n{listed}"));
        assert!(line.contains("\trefused\t") && line.contains(why), "{line}");
    }
    for action in ["check", "install"] {
        let out = common::conform(&["adapters", action, "--adapters", dir]);
        let stderr = common::text(&out.stderr);
        assert_eq!(common::code(&out), 2, "{action}: {stderr}");
        assert!(
            stderr.contains("1 of 5 done; failed: dangling (exit 2), directory (exit 2)"),
            "{action}: {stderr}"
        );
        assert!(
            stderr.contains("refused: ") && stderr.contains("leads nowhere"),
            "{stderr}"
        );
    }
}

/// Issue 32: a node's `run` line with `--allow-empty` and an `--id` that selects nothing
/// exited 0 with a report "conformant in 0 of 0 claimed operations", and `check` passed it; a
/// library adapter whose capabilities exclude every test of a claimed operation passed too.
/// The gate wants a test run in every claimed operation, whatever flags `run` carries.
#[test]
fn a_gate_counts_what_ran() {
    let empty = format!("{} --allow-empty --id nothing/*", suite("reference"));
    let dir = nodes("adapters-gate-empty", &[("empty", "env", &empty)]);
    let out = common::conform(&["adapters", "check", "--adapters", dir.to_str().unwrap()]);
    let stderr = common::text(&out.stderr);
    assert_eq!(common::code(&out), 2, "{stderr}");
    assert!(
        stderr.contains("no test ran in the claimed operations murmur3"),
        "{stderr}"
    );

    let dir = common::tempdir("adapters-gate-excluded");
    std::fs::create_dir(dir.join("excluded")).unwrap();
    std::fs::write(dir.join("excluded/expectations.toml"), "").unwrap();
    let mut run = common::adapter("capabilities");
    run.push("'{\"filterKinds\": []}'".into());
    let text = format!(
        "name = \"excluded\"\nkind = \"subprocess\"\nlanguage = \"Python\"\n\
         library = {{ name = \"x\", version = \"0\", registry = \"none\" }}\n\
         run = {:?}\nexpectations = {:?}\n",
        run.join(" "),
        dir.join("excluded/expectations.toml").display().to_string(),
    );
    std::fs::write(dir.join("excluded").join(manifest::FILE_NAME), text).unwrap();
    let out = common::conform(&["adapters", "check", "--adapters", dir.to_str().unwrap()]);
    let stderr = common::text(&out.stderr);
    assert_eq!(common::code(&out), 2, "{stderr}");
    assert!(
        stderr.contains("no test ran in the claimed operations bitIndexes"),
        "{stderr}"
    );
}

/// Issue 32: ESC, BEL, U+202E, a newline or a tab in a manifest's library name or version or in
/// its commands reached the terminal raw (the screen cleared, the title set, a second row of
/// the tab-separated list forged); `list`, `install` and `check` show them as escapes.
#[test]
fn text_from_a_manifest_is_inert_on_the_terminal() {
    let hostile = r"\u001b[2J\u001b]0;owned\u0007\u202e\n\tforged";
    let extra = format!("install = \"true {hostile}\"\nbuild = \"sh -c 'exit 0' {hostile}\"");
    let dir = manifests("adapters-hostile-text", &[("hostile", "", &extra)]);
    let text = std::fs::read_to_string(dir.join("hostile").join(manifest::FILE_NAME)).unwrap();
    let text = text.replace(
        "version = \"0.1.0\"",
        &format!("version = \"0.1.0{hostile}\""),
    );
    std::fs::write(dir.join("hostile").join(manifest::FILE_NAME), text).unwrap();
    let dir = dir.to_str().unwrap();
    let raw = |text: &str| text.contains(['\u{1b}', '\u{7}', '\u{202e}']);

    let out = common::conform(&["adapters", "list", "--adapters", dir]);
    let listed = common::text(&out.stdout);
    assert_eq!(common::code(&out), 0, "{}", common::text(&out.stderr));
    assert!(!raw(&listed), "{listed:?}");
    assert_eq!(listed.lines().count(), 1, "{listed:?}");
    assert_eq!(listed.trim_end().split('\t').count(), 5, "{listed:?}");
    assert!(listed.contains(r"0.1.0\u{1b}[2J"), "{listed:?}");
    assert!(listed.contains(r"\u{202e}\n\tforged"), "{listed:?}");

    let out = common::conform(&["adapters", "install", "--adapters", dir]);
    let stderr = common::text(&out.stderr);
    assert_eq!(common::code(&out), 0, "{stderr}");
    assert!(!raw(&stderr), "{stderr:?}");
    assert!(
        stderr.contains(r"hostile install: true '\u{1b}[2J"),
        "{stderr:?}"
    );
}
