//! `action.yml` tells the truth: its `exit-code` output documents every exit code
//! `bip37-conform --help` lists (0 to 5), and every script it names exists.

mod common;

use common::{conform, text};
use std::path::Path;

fn action() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../action.yml");
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_action_documents_every_exit_code() {
    let help = text(&conform(&["--help"]).stdout);
    let codes: Vec<String> = help
        .split("Exit codes:")
        .nth(1)
        .expect("--help lists the exit codes")
        .lines()
        .filter_map(|line| {
            let code = line.split_whitespace().next()?;
            let is_code = line.starts_with("  ") && !line.starts_with("   ");
            (is_code && code.parse::<u8>().is_ok()).then(|| code.to_string())
        })
        .collect();
    assert_eq!(codes, ["0", "1", "2", "3", "4", "5"], "{help}");
    let action = action();
    let described = action
        .lines()
        .skip_while(|line| !line.trim_start().starts_with("exit-code:"))
        .nth(1)
        .expect("action.yml has an exit-code output with a description");
    for code in codes {
        assert!(
            described.contains(&format!("{code} ")),
            "action.yml's exit-code does not document {code}: {described}"
        );
    }
}

#[test]
fn every_script_the_action_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let action = action();
    let named: Vec<&str> = action
        .split(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == '(' || c == ')')
        .filter_map(|word| word.find("scripts/").map(|at| &word[at..]))
        .map(|path| path.trim_end_matches([';', ',', '.']))
        .collect();
    assert!(named.len() >= 2, "{named:?}");
    for path in named {
        assert!(
            root.join(path).is_file(),
            "action.yml names {path}, which does not exist"
        );
    }
}
