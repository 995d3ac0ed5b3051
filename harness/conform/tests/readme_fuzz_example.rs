//! README's "Fuzz an implementation" example, run as written (with the binary built for the
//! tests): it finds the planted mistake, names its bug class, ends well inside the shrink limit
//! (5,000 steps; here at most a fifth of it) and prints a vector file on stdout.

mod common;

use std::path::Path;
use std::process::Command;

/// The first command of the ```sh block of README's section `heading`, its continuation lines
/// joined, without its stdout redirection.
fn readme_command(heading: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = readme
        .split_once(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("README has no {heading:?}"))
        .1;
    let block = section
        .split_once("```sh\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("a sh block")
        .0;
    let command = block.replace("\\\n", " ");
    let first = command.lines().next().unwrap();
    first.split(" > ").next().unwrap().trim().to_string()
}

#[test]
fn the_fuzz_example_finds_its_bug_well_inside_the_shrink_limit() {
    let command = readme_command("## Fuzz an implementation");
    let words = shlex::split(&command).expect("a command line");
    assert_eq!(words[0], "bip37-conform", "{command}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(common::conform_binary())
        .args(&words[1..])
        .current_dir(root)
        .output()
        .unwrap();
    let stderr = common::text(&out.stderr);
    assert_eq!(common::code(&out), 1, "{stderr}");
    assert!(stderr.contains("MISMATCH reference-"), "{stderr}");
    assert!(
        stderr.contains("likely bug: seed-reduced-mod-2-to-31"),
        "{stderr}"
    );
    let steps: usize = stderr
        .split("shrunk in ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no shrink count in {stderr}"));
    assert!(steps <= 1_000, "{steps} shrink steps: {stderr}");
    let vector: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("stdout is a vector file");
    assert_eq!(vector["numberOfTests"], 1, "{vector}");
}
