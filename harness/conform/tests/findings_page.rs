//! docs/FINDINGS.md is generated (`bip37-conform findings`): these tests fail when the committed
//! page is not what the committed matrices, manifests and expectations files make, and hold the
//! generator to its rules on a made-up repository: a fix is read from a newer column of the
//! same library, a node crash no newer version fixes is withheld, and a matrix that disagrees
//! with an expectations file is refused rather than written up.

mod common;

use bip37_conform::findings::{collect, page, Sources};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_committed_page_is_what_the_committed_data_makes() {
    let root = repository();
    let made = page(&root, &Sources::committed()).unwrap_or_else(|e| panic!("{e}"));
    let committed = std::fs::read_to_string(root.join("docs/FINDINGS.md")).unwrap_or_default();
    assert!(
        made == committed,
        "docs/FINDINGS.md is stale: regenerate it from the repository root with \
         `cargo run -p bip37-conform -- findings`"
    );
}

#[test]
fn check_exits_1_on_a_stale_page_and_names_the_command() {
    let root = repository();
    let stale = Path::new(env!("CARGO_TARGET_TMPDIR")).join("FINDINGS-stale.md");
    let committed = std::fs::read_to_string(root.join("docs/FINDINGS.md")).unwrap();
    std::fs::write(&stale, committed.replace("present in", "gone from")).unwrap();
    let out = Command::new(common::conform_binary())
        .current_dir(&root)
        .args(["findings", "--check", "--output"])
        .arg(&stale)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("cargo run -p bip37-conform -- findings"),
        "{stderr}"
    );
    assert!(!stale.with_extension("md.tmp").exists());
}

/// A made-up repository: one library at two versions (a Go module and its /v2), one node at
/// two versions, and the committed shape of each file.
struct Fake {
    root: PathBuf,
}

const VECTOR: &str = "murmur3/core-00000000-empty";
const CRASH_FIXED: &str = "node/filteradd/521-bytes-disconnects";
const CRASH_PRESENT: &str = "node/filterload/oversized-36001-disconnects";

impl Fake {
    fn new(name: &str) -> Self {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = std::fs::remove_dir_all(&root);
        let fake = Fake { root };
        for (dir, module, version) in [
            ("lib-v1", "github.com/x/lib", "1.0.0"),
            ("lib-v2", "github.com/x/lib/v2", "2.0.0"),
        ] {
            fake.write(
                &format!("adapters/{dir}/adapter.toml"),
                &format!(
                    "name = \"{dir}\"\nkind = \"subprocess\"\nlanguage = \"Go\"\n\
                     library = {{ name = \"{module}\", version = \"{version}\", registry = \"Go\" }}\n\
                     run = \"x\"\nexpectations = \"adapters/{dir}/expectations.toml\"\n"
                ),
            );
        }
        fake.write(
            "adapters/lib-v1/expectations.toml",
            &format!("[failures.\"{VECTOR}\"]\nstate = \"wrongValue\"\nreason = \"lib.go:7 reads the tail backwards\"\n"),
        );
        fake.write("adapters/lib-v2/expectations.toml", "");
        let column = |name: &str, version: &str| {
            json!({"name": name, "command": "x", "implementation": format!("lib {version}"),
                   "operations": ["murmur3"], "counts": {}, "diagnosis": "d"})
        };
        fake.write_json(
            "adapters/matrix.json",
            json!({"matrixFormat": 1, "mode": "groups",
                   "columns": [column("lib-v1", "1.0.0"), column("lib-v2", "2.0.0")],
                   "rows": [{"operation": "murmur3", "tests": [VECTOR],
                             "cells": [{"state": "wrongValue", "bugClasses": ["MurmurTail"]},
                                       {"state": "pass"}]}]}),
        );
        for (dir, version) in [("noded-old", "0.24.0"), ("noded-new", "0.25.0")] {
            fake.write(
                &format!("adapters/nodes/{dir}/adapter.toml"),
                &format!(
                    "name = \"{dir}\"\nkind = \"node\"\nlanguage = \"Go\"\n\
                     library = {{ name = \"noded\", version = \"{version}\", registry = \"Go\" }}\n\
                     run = \"x\"\nexpectations = \"adapters/nodes/{dir}/expectations.toml\"\n"
                ),
            );
        }
        let entry =
            |id: &str| format!("[failures.\"{id}\"]\nstate = \"timeout\"\nreason = \"hangs\"\n");
        fake.write(
            "adapters/nodes/noded-old/expectations.toml",
            &(entry(CRASH_FIXED) + &entry(CRASH_PRESENT)),
        );
        fake.write(
            "adapters/nodes/noded-new/expectations.toml",
            &entry(CRASH_PRESENT),
        );
        let legitimate = json!({"result": "acceptableDifference",
                                "detail": "a legitimate difference from Core: matches nothing (x)"});
        let crashed = json!({"result": "expectedFailure",
                             "detail": "expected failure (hangs): timeout: no answer in time"});
        fake.write_json(
            "adapters/nodes/matrix.json",
            json!({"matrixFormat": 1, "mode": "groups", "columns": [], "rows": [],
                   "nodes": {"columns": [{"name": "noded-old", "reports": []},
                                         {"name": "noded-new", "reports": []}],
                             "rows": [{"id": CRASH_FIXED, "cells": [crashed, {"result": "pass"}]},
                                      {"id": CRASH_PRESENT, "cells": [crashed, crashed]},
                                      {"id": "node/merkleblock/empty-filter",
                                       "cells": [{"result": "pass"}, legitimate]}]}}),
        );
        fake
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn write_json(&self, path: &str, value: Value) {
        self.write(path, &serde_json::to_string_pretty(&value).unwrap());
    }
}

#[test]
fn fixes_come_from_newer_columns_and_unfixed_node_crashes_are_withheld() {
    let fake = Fake::new("findings-fake");
    let found = collect(&fake.root, &Sources::committed()).unwrap_or_else(|e| panic!("{e}"));
    let entry = |column: &str| {
        found
            .entries
            .iter()
            .find(|e| e.subject.column == column)
            .unwrap()
    };
    let old_lib = &entry("lib-v1").findings;
    assert_eq!(old_lib.len(), 1);
    assert_eq!(old_lib[0].classes, ["MurmurTail"]);
    assert_eq!(old_lib[0].status.to_string(), "fixed in 2.0.0");
    assert!(entry("lib-v2").findings.is_empty());

    let text = page(&fake.root, &Sources::committed()).unwrap();
    let row = |id: &str, column: &str| -> String {
        let section = text
            .split("<a id=")
            .find(|s| s.starts_with(&format!("\"{column}")))
            .unwrap();
        section
            .lines()
            .find(|l| l.contains(id))
            .unwrap()
            .to_string()
    };
    // Crashed in 0.24.0, passes in 0.25.0: fixed, so its reproduction is shown.
    let fixed = row(CRASH_FIXED, "noded-old");
    assert!(
        fixed.contains("| crash |") && fixed.contains("fixed in 0.25.0"),
        "{fixed}"
    );
    assert!(
        fixed.contains("bip37-conform node --id") && fixed.contains("hangs"),
        "{fixed}"
    );
    // A pass on a legitimate difference is listed, but not as a deviation.
    assert_eq!(entry("noded-new").findings.len(), 1);
    assert!(
        text.contains("- `node/merkleblock/empty-filter`: matches nothing (x)\n"),
        "{text}"
    );
    // Crashes in the newest checked version: withheld in both columns.
    for column in ["noded-old", "noded-new"] {
        let present = row(CRASH_PRESENT, column);
        assert!(
            present.contains("withheld until reported privately"),
            "{present}"
        );
        assert!(!present.contains("36,001"), "{present}");
        assert!(
            present.contains("present in the newest checked, 0.25.0"),
            "{present}"
        );
    }
}

#[test]
fn a_matrix_that_disagrees_with_an_expectations_file_is_refused() {
    let fake = Fake::new("findings-stale-expectations");
    fake.write("adapters/lib-v1/expectations.toml", "");
    let error = collect(&fake.root, &Sources::committed()).unwrap_err();
    assert!(
        error.contains("disagree on murmur3/core-00000000-empty"),
        "{error}"
    );
    assert!(error.contains("regenerate"), "{error}");

    let fake = Fake::new("findings-stale-version");
    fake.write(
        "adapters/lib-v2/adapter.toml",
        "name = \"lib-v2\"\nkind = \"subprocess\"\nlanguage = \"Go\"\n\
         library = { name = \"github.com/x/lib/v2\", version = \"2.1.0\", registry = \"Go\" }\n\
         run = \"x\"\nexpectations = \"adapters/lib-v2/expectations.toml\"\n",
    );
    let error = collect(&fake.root, &Sources::committed()).unwrap_err();
    assert!(error.contains("not version 2.1.0"), "{error}");
}

#[test]
fn the_page_is_never_written_over_a_matrix_it_reads() {
    let fake = Fake::new("findings-over-input");
    let matrix = fake.root.join("adapters/matrix.json");
    let before = std::fs::read(&matrix).unwrap();
    let out = Command::new(common::conform_binary())
        .current_dir(&fake.root)
        .args(["findings", "--output", "adapters/matrix.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("refusing to overwrite"), "{stderr}");
    assert_eq!(std::fs::read(&matrix).unwrap(), before);
    let out = Command::new(common::conform_binary())
        .current_dir(&fake.root)
        .args(["findings", "--output", "FINDINGS.md"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::read_to_string(fake.root.join("FINDINGS.md")).unwrap();
    assert_eq!(written, page(&fake.root, &Sources::committed()).unwrap());
}

/// Issue 32: a manifest's `library.link` starting with `#`, `+`, `1.`, `---` or four spaces
/// became a heading, list, rule or code block on the page (and `findings --check` took it).
#[test]
fn a_link_cannot_open_a_block_on_the_page() {
    let fake = Fake::new("findings-link");
    for (link, inert) in [
        ("# owned", "\\# owned"),
        ("+ owned", "\\+ owned"),
        ("1. owned", "1\\. owned"),
        ("---", "\\---"),
        ("    owned", "&#32;&#32;&#32;&#32;owned"),
    ] {
        fake.write(
            "adapters/lib-v1/adapter.toml",
            &format!(
                "name = \"lib-v1\"\nkind = \"subprocess\"\nlanguage = \"Go\"\n\
                 library = {{ name = \"github.com/x/lib\", version = \"1.0.0\", registry = \
                 \"Go\", link = {link:?} }}\n\
                 run = \"x\"\nexpectations = \"adapters/lib-v1/expectations.toml\"\n"
            ),
        );
        let text = page(&fake.root, &Sources::committed()).unwrap();
        let heading = text
            .lines()
            .position(|l| l.starts_with("### github.com/x/lib 1.0.0"));
        let line = text
            .lines()
            .nth(heading.expect("lib-v1's section") + 2)
            .unwrap();
        assert_eq!(line, inert, "{link:?}");
    }
}
