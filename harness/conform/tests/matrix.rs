//! `bip37-conform matrix` end to end: two protocol v1 children (the reference and a mutant,
//! both served by the binary) over the real vectors, written as Markdown and JSON.

mod common;

use std::path::Path;
use std::process::{Command, Output};

/// Runs `bip37-conform matrix` with `args`.
/// Fails the test with the command's stderr unless it exited 0.
fn succeeded(out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

/// The JSON document at `path`.
fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn matrix(args: &[&str]) -> Output {
    Command::new(common::conform_binary())
        .arg("matrix")
        .args(args)
        .output()
        .expect("bip37-conform runs")
}

#[test]
fn a_mutant_column_shows_its_bug_class_next_to_the_reference() {
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let (markdown, json) = (
        out_dir.join("matrix-murmur3.md"),
        out_dir.join("matrix-murmur3.json"),
    );
    let reference = format!("ref={} serve", common::conform_binary());
    let mutant = format!(
        "tail={} serve --mutant murmur-tail",
        common::conform_binary()
    );
    let out = matrix(&[
        "--op",
        "murmur3",
        "--impl",
        &reference,
        "--impl",
        &mutant,
        "--markdown",
        markdown.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    // The mutant fails and has no expectations file: exit 1, the matrix written all the same.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("tail failed with no expectations file (exit 1)"),
        "{stderr}"
    );
    assert!(!stderr.contains("ref failed"), "{stderr}");
    let text = std::fs::read_to_string(&markdown).unwrap();
    assert!(
        text.contains("| operation | vectors | ref | tail |"),
        "{text}"
    );
    assert!(
        text.contains("| ✅ pass | wrongValue: likely MurmurTail |"),
        "{text}"
    );
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let columns = value["columns"].as_array().unwrap();
    assert_eq!(columns.len(), 2);
    assert!(columns[0]["counts"]["wrongValue"].is_null(), "{value}");
    assert!(
        columns[1]["counts"]["wrongValue"].as_u64() > Some(0),
        "{value}"
    );
    let rows = value["rows"].as_array().unwrap();
    assert!(rows.iter().all(|r| r["operation"] == "murmur3"));
    let tests: usize = rows
        .iter()
        .map(|r| r["tests"].as_array().unwrap().len())
        .sum();
    let counted: u64 = columns[0]["counts"]
        .as_object()
        .unwrap()
        .values()
        .filter_map(|n| n.as_u64())
        .sum();
    assert_eq!(
        tests as u64, counted,
        "every selected vector is in exactly one row"
    );
}

#[test]
fn bad_columns_are_usage_errors() {
    let out = matrix(&["--impl", "no-equals-sign"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("name=\"<command>\""));
    let out = matrix(&["--impl", "a=x", "--impl", "a=y"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("used twice"));
    let out = matrix(&["--impl", "gone=/nonexistent/adapter"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gone: cannot start"));
}

#[test]
fn keep_reruns_only_the_named_columns_and_keeps_the_others_as_they_were() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let binary = common::conform_binary();
    let (before, after) = (dir.join("keep-before.json"), dir.join("keep-after.json"));
    let serve = |name: &str, mutant: &str| format!("{name}={binary} serve --mutant {mutant}");
    // The kept matrix: column `a` is the murmur-tail mutant, `b` the big-endian-blocks one.
    let out = matrix(&[
        "--op",
        "murmur3",
        "--impl",
        &serve("a", "murmur-tail"),
        "--impl",
        &serve("b", "big-endian-blocks"),
        "--json",
        before.to_str().unwrap(),
        "--report-only",
    ]);
    succeeded(&out);
    // Now `a` is the reference, but only `b` runs: `a` must still be the mutant's column.
    let out = matrix(&[
        "--op",
        "murmur3",
        "--impl",
        &format!("a={binary} serve"),
        "--impl",
        &serve("b", "murmur-tail"),
        "--name",
        "b",
        "--keep",
        before.to_str().unwrap(),
        "--json",
        after.to_str().unwrap(),
        "--report-only",
    ]);
    succeeded(&out);
    let (before, after) = (read_json(&before), read_json(&after));
    assert_eq!(after["columns"][0], before["columns"][0], "a was kept");
    assert_eq!(
        after["columns"][1]["command"],
        serve("b", "murmur-tail")[2..]
    );
    assert!(after["columns"][1]["diagnosis"]
        .as_str()
        .unwrap()
        .contains("MurmurTail"));
    // Both columns now fail the same tail vectors, so those rows merge into one.
    let tail_row =
        after["rows"].as_array().unwrap().iter().find(|r| {
            r["cells"][0]["state"] == "wrongValue" && r["cells"][1]["state"] == "wrongValue"
        });
    assert!(tail_row.is_some(), "{after}");

    // A kept matrix over other vectors, or an unknown column, is refused before anything runs.
    let other = matrix(&[
        "--op",
        "hashSeed",
        "--impl",
        &serve("a", "murmur-tail"),
        "--name",
        "a",
        "--keep",
        dir.join("keep-before.json").to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert_eq!(other.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("run every column"), "{stderr}");
    let unknown = matrix(&[
        "--op",
        "murmur3",
        "--impl",
        &serve("a", "murmur-tail"),
        "--name",
        "c",
    ]);
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert_eq!(unknown.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--name c: no such column (the columns: a)"),
        "{stderr}"
    );
}

#[test]
fn keep_takes_the_node_columns_no_report_gives_from_the_kept_matrix() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let committed = root.join("adapters/nodes/matrix.json");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    // Giving Bitcoin-Core again, as reports at the committed paths (relative to the run's
    // directory) that pass every check Core passed there, and keeping the rest, remakes the
    // committed file: the kept columns and the column's order and report list are the same.
    let core_dir = dir.join("keep-nodes-core");
    std::fs::create_dir_all(core_dir.join("target")).unwrap();
    let nodes = read_json(&committed)["nodes"].clone();
    let columns = nodes["columns"].as_array().unwrap();
    let core = columns
        .iter()
        .position(|c| c["name"] == "Bitcoin-Core")
        .expect("Bitcoin-Core is a node column");
    let reports: Vec<&str> = (columns[core]["reports"].as_array().unwrap().iter())
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(reports.len(), 2, "Core's column: NODE_BLOOM on, then off");
    for (index, report) in reports.iter().enumerate() {
        let results: Vec<serde_json::Value> = (nodes["rows"].as_array().unwrap().iter())
            .filter(|row| row["id"].as_str().unwrap().starts_with("node/no-bloom/") == (index == 1))
            .map(|row| {
                assert_eq!(
                    row["cells"][core]["result"], "pass",
                    "Core passes {}",
                    row["id"]
                );
                serde_json::json!({"id": row["id"], "state": "pass", "message": ""})
            })
            .collect();
        let text = serde_json::json!({ "results": results }).to_string();
        std::fs::write(core_dir.join(report), text).unwrap();
    }
    let same = dir.join("keep-nodes-same.json");
    let mut core_args = vec![
        "matrix".to_string(),
        "--keep".into(),
        committed.display().to_string(),
    ];
    for report in &reports {
        core_args.extend(["--node-report".into(), format!("Bitcoin-Core={report}")]);
    }
    core_args.extend(["--json".into(), same.display().to_string()]);
    let out = Command::new(common::conform_binary())
        .args(&core_args)
        .current_dir(&core_dir)
        .output()
        .expect("bip37-conform runs");
    succeeded(&out);
    assert_eq!(
        std::fs::read_to_string(&same).unwrap(),
        std::fs::read_to_string(&committed).unwrap()
    );
    // A new node's report adds its column after the kept ones; the kept cells stay.
    let report = dir.join("keep-nodes-report.json");
    let results = serde_json::json!({"results": [
        {"id": "node/filteradd/520-bytes-kept", "state": "pass", "message": ""},
        {"id": "node/filteradd/521-bytes-disconnects", "state": "timeout", "message": "no pong"},
    ]});
    std::fs::write(&report, results.to_string()).unwrap();
    let added = dir.join("keep-nodes-added.json");
    let out = matrix(&[
        "--keep",
        committed.to_str().unwrap(),
        "--node-report",
        &format!("new-node={}", report.display()),
        "--json",
        added.to_str().unwrap(),
    ]);
    succeeded(&out);
    let (before, after) = (
        read_json(&committed)["nodes"].clone(),
        read_json(&added)["nodes"].clone(),
    );
    let names = |nodes: &serde_json::Value| -> Vec<String> {
        (nodes["columns"].as_array().unwrap().iter())
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect()
    };
    let mut expected = names(&before);
    expected.push("new-node".into());
    assert!(expected.len() > 1, "the committed node matrix has columns");
    assert_eq!(names(&after), expected);
    for (b, a) in before["rows"]
        .as_array()
        .unwrap()
        .iter()
        .zip(after["rows"].as_array().unwrap())
    {
        let kept = b["cells"].as_array().unwrap();
        assert_eq!(a["cells"].as_array().unwrap()[..kept.len()], kept[..]);
    }
    let new_column = expected.len() - 1;
    let row = |id: &str| -> serde_json::Value {
        let rows = after["rows"].as_array().unwrap();
        rows.iter().find(|r| r["id"] == id).unwrap()["cells"][new_column].clone()
    };
    assert_eq!(row("node/filteradd/520-bytes-kept")["result"], "pass");
    assert_eq!(
        row("node/filteradd/521-bytes-disconnects")["state"],
        "timeout"
    );
    assert_eq!(row("node/relay/update-persists")["result"], "notRun");
    // --keep alone would run nothing again.
    let out = matrix(&[
        "--keep",
        committed.to_str().unwrap(),
        "--adapters",
        "/nonexistent",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// A directory of adapter manifests, one per `(name, run command, expectations text)`.
fn manifests(dir_name: &str, adapters: &[(&str, &str, &str)]) -> std::path::PathBuf {
    let dir = common::tempdir(dir_name);
    for (name, run, expectations_text) in adapters {
        std::fs::create_dir(dir.join(name)).unwrap();
        let expectations = dir.join(name).join("expectations.toml");
        std::fs::write(&expectations, expectations_text).unwrap();
        let text = format!(
            "name = {name:?}\nkind = \"subprocess\"\nlanguage = \"Rust\"\n\
             library = {{ name = \"fixture\", version = \"0.1.0\", registry = \"none\" }}\n\
             run = {run:?}\nexpectations = {:?}\n",
            expectations.display().to_string(),
        );
        std::fs::write(dir.join(name).join("adapter.toml"), text).unwrap();
    }
    dir
}

/// Issue 33: `matrix` exited 0 with every column failing. A column of an adapter is held to
/// its manifest's expectations file: listing exactly its failures is exit 0, an empty file is
/// exit 1, and `--report-only` is exit 0 either way.
#[test]
fn a_column_is_held_to_its_expectations_file() {
    let binary = common::conform_binary();
    let tail = format!("{binary} serve --mutant murmur-tail");
    let recorded = common::tempdir("matrix-exit-recorded").join("expectations.toml");
    let out = Command::new(binary)
        .args(["run", "--op", "murmur3", "--impl", &tail, "--expectations"])
        .arg(&recorded)
        .arg("--update-expectations")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recorded = std::fs::read_to_string(&recorded).unwrap();
    assert!(recorded.contains("wrongValue"), "{recorded}");
    for (case, expectations, extra, code) in [
        ("listed", recorded.as_str(), None, 0),
        ("unlisted", "", None, 1),
        ("unlisted-report-only", "", Some("--report-only"), 0),
    ] {
        let dir = manifests(
            &format!("matrix-exit-{case}"),
            &[("tail", &tail, expectations)],
        );
        let mut args = vec!["--op", "murmur3", "--adapters", dir.to_str().unwrap()];
        args.extend(extra);
        let out = matrix(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{case}: {stderr}");
        let markdown = String::from_utf8_lossy(&out.stdout);
        assert!(
            markdown.contains("MurmurTail"),
            "{case}: the matrix: {markdown}"
        );
        match case {
            "unlisted" => assert!(
                stderr.contains("tail failed against its expectations file")
                    && stderr.contains("(exit 1)"),
                "{stderr}"
            ),
            "unlisted-report-only" => {
                assert!(stderr.contains("--report-only: not judged"), "{stderr}")
            }
            _ => assert!(!stderr.contains("tail failed"), "{stderr}"),
        }
    }
    // An expectations file that cannot be read is a harness error, before anything runs.
    let dir = manifests("matrix-exit-unreadable", &[("tail", &tail, "not = [toml")]);
    let out = matrix(&[
        "--op",
        "murmur3",
        "--adapters",
        dir.to_str().unwrap(),
        "--report-only",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("tail: expectations file"), "{stderr}");
}

/// A column that crashes is exit 3, `run`'s code for a crash, worse than another column's
/// failures; `--report-only` is exit 0.
#[test]
fn a_crashing_column_exits_with_the_crash_code() {
    let crash = format!(
        "python3 {}",
        common::fixture("adapters/crash_halfway.py").display()
    );
    let tail = format!("{} serve --mutant murmur-tail", common::conform_binary());
    let dir = manifests(
        "matrix-exit-crash",
        &[("crash", &crash, ""), ("tail", &tail, "")],
    );
    let vectors = common::fixture_vectors();
    let args = [
        "--vectors",
        vectors.to_str().unwrap(),
        "--id",
        "mini/murmur3-*",
        "--adapters",
        dir.to_str().unwrap(),
    ];
    let out = matrix(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("crash crashed or timed out"), "{stderr}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("crash"),
        "the matrix is printed"
    );
    let out = matrix(&[&args[..], &["--report-only"]].concat());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_help_gives_the_exit_codes() {
    let out = matrix(&["--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("Exit codes"), "{help}");
    assert!(help.contains("--report-only"), "{help}");
}
