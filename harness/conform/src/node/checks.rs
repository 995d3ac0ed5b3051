//! The data file of the node suite, `vectors/node/checks.json`: every check with its id, its
//! source in Bitcoin Core or BIP 37, its flags, whether nodes may legitimately differ
//! (`acceptable`), what Core does (`expected`) and what other nodes were seen or are known to
//! do instead (`deviations`, each legitimate or a known bug with its bug type).
//!
//! The code says how a check is asked ([`super::procedures`]); this file says what answer is
//! right. [`checks`] parses the copy compiled into the binary, so the suite cannot run with a
//! data file its code does not match (a test holds the two to the same ids).

use bip37_harness::vectors::{BugType, Expectation, Note};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The `suite` value of the file.
pub const SUITE: &str = "bip37-conformance-node";
/// The file, as compiled in.
pub const CHECKS_JSON: &str = include_str!("../../../../vectors/node/checks.json");

/// The whole file.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CheckFile {
    pub suite: String,
    pub format_version: u32,
    pub header: Vec<String>,
    /// Every flag a check carries, defined (the same shape as a vector file's notes).
    pub notes: BTreeMap<String, Note>,
    pub checks: Vec<Check>,
}

/// One check.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Check {
    /// Stable and unique: `node/<area>/<slug>`.
    pub id: String,
    /// The part of the serving surface, for the README table.
    pub area: String,
    pub description: String,
    /// Bitcoin Core `file:line`, or a BIP 37 section.
    pub source: String,
    pub flags: Vec<String>,
    /// `valid` (Core's behaviour only) or `acceptable` (a legitimate deviation passes too).
    pub result: Expectation,
    pub requires: Requires,
    /// What Bitcoin Core does.
    pub expected: Observation,
    pub deviations: Vec<Deviation>,
}

/// The node a check can run against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Requires {
    /// A node offering NODE_BLOOM.
    Bloom,
    /// A node not offering NODE_BLOOM.
    NoBloom,
}

/// What a node did, in the words of the data file (see its header).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Observation {
    Reaction(Reaction),
    Announced {
        /// The roles of the offered transactions announced to this peer, in offer order.
        announced: Vec<String>,
    },
    Block(BlockAnswer),
}

/// Whether the node kept the connection after the check's last message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Reaction {
    Keep,
    Disconnect,
}

/// The answer to a filtered-block request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum BlockAnswer {
    /// The reference's prediction for the filter loaded.
    Reference,
    /// The answer for a filter that matches every transaction.
    MatchesAll,
    /// The answer for a filter that matches none.
    MatchesNone,
    /// Nothing before the pong.
    NoReply,
    /// A `notfound` message only.
    NotFound,
}

/// Something other than Core's behaviour that a node does.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Deviation {
    pub observed: Observation,
    /// A short name for reports.
    pub name: String,
    pub bug_type: BugType,
    /// True when nodes may do this (the check must be `acceptable`); false for a known bug.
    pub legitimate: bool,
    /// Which nodes do it, or what goes wrong.
    pub note: String,
}

/// The parsed data file.
pub fn checks() -> Result<CheckFile, String> {
    let file: CheckFile =
        serde_json::from_str(CHECKS_JSON).map_err(|e| format!("vectors/node/checks.json: {e}"))?;
    let problems = lint(&file);
    if problems.is_empty() {
        Ok(file)
    } else {
        Err(format!("vectors/node/checks.json: {}", problems.join("; ")))
    }
}

/// What is wrong with the file beyond its shape.
pub fn lint(file: &CheckFile) -> Vec<String> {
    let mut problems = Vec::new();
    if file.suite != SUITE || file.format_version != 1 {
        problems.push(format!("suite must be {SUITE} and formatVersion 1"));
    }
    let mut seen = std::collections::BTreeSet::new();
    for check in &file.checks {
        let id = &check.id;
        if !seen.insert(id) {
            problems.push(format!("{id}: the id is not unique"));
        }
        if !id.starts_with("node/") {
            problems.push(format!("{id}: ids start with node/"));
        }
        for flag in &check.flags {
            if !file.notes.contains_key(flag) {
                problems.push(format!("{id}: flag {flag} has no note"));
            }
        }
        let legitimate = check.deviations.iter().any(|d| d.legitimate);
        match check.result {
            Expectation::Invalid => problems.push(format!("{id}: result is valid or acceptable")),
            Expectation::Acceptable if !legitimate => problems.push(format!(
                "{id}: an acceptable check names at least one legitimate deviation"
            )),
            Expectation::Valid if legitimate => problems.push(format!(
                "{id}: a valid check has no legitimate deviation (make it acceptable)"
            )),
            _ => {}
        }
        for deviation in &check.deviations {
            if deviation.observed == check.expected {
                problems.push(format!(
                    "{id}: deviation {:?} is Core's own behaviour",
                    deviation.name
                ));
            }
        }
    }
    problems
}

impl Check {
    /// The deviation the node's observation is, if any.
    pub fn deviation(&self, observed: &Observation) -> Option<&Deviation> {
        self.deviations.iter().find(|d| &d.observed == observed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_file_parses_and_lints_clean() {
        let file = checks().unwrap();
        assert!(file.checks.len() >= 20);
    }

    #[test]
    fn the_lint_catches_a_valid_check_with_a_legitimate_deviation_and_a_duplicate() {
        let mut file = checks().unwrap();
        let acceptable = file
            .checks
            .iter()
            .position(|c| c.result == Expectation::Acceptable)
            .unwrap();
        file.checks[acceptable].result = Expectation::Valid;
        let first = file.checks[0].clone();
        file.checks.push(first);
        let problems = lint(&file).join("\n");
        assert!(problems.contains("make it acceptable"), "{problems}");
        assert!(problems.contains("not unique"), "{problems}");
    }

    #[test]
    fn observations_read_every_shape() {
        let read = |text: &str| serde_json::from_str::<Observation>(text).unwrap();
        assert_eq!(read("\"keep\""), Observation::Reaction(Reaction::Keep));
        assert_eq!(
            read("\"noReply\""),
            Observation::Block(BlockAnswer::NoReply)
        );
        assert_eq!(
            read(r#"{"announced": ["a"]}"#),
            Observation::Announced {
                announced: vec!["a".into()]
            }
        );
        assert!(serde_json::from_str::<Observation>("\"maybe\"").is_err());
    }
}
