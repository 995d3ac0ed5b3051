//! The live-node record (`vectors/live-node/record.json`): what `regen` regenerates.
//!
//! One entry per probe, each holding only what does not change between runs against the same
//! kind of node: the question (elements, filter parameters, the vector tests it confirms) and
//! the node's observed behaviour (bit indexes confirmed, which named transactions it sent,
//! whether it answered or disconnected), plus whether the node's bytes equalled the
//! reference's. Block hashes and txids are not recorded: they change with every run.
//!
//! Behaviour that legitimately differs between nodes (filteradd with no filter loaded, the
//! reply after filterclear, the empty filter) is kept apart in `nodeBehaviours`: recorded
//! and reported, never counted as a mismatch. `--check` compares `probes` only.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The `record` value of every record file.
pub const RECORD_KIND: &str = "bip37-live-node-record";
/// The format version written and read.
pub const RECORD_FORMAT_VERSION: u32 = 1;

/// A whole record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Record {
    /// Always [`RECORD_KIND`].
    pub record: String,
    /// Always [`RECORD_FORMAT_VERSION`].
    pub format_version: u32,
    pub header: Vec<String>,
    /// Present only on a record written with `--force` although the node disagreed with the
    /// reference: says so, with the count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced: Option<String>,
    pub provenance: Provenance,
    /// Node-independent probes: a difference here fails `--check`.
    pub probes: Vec<ProbeRecord>,
    /// Behaviour nodes may legitimately differ on, for the node of `provenance`.
    pub node_behaviours: Vec<ProbeRecord>,
}

/// Which node answered, and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Provenance {
    /// The user agent from the node's `version` message, e.g. `/Satoshi:30.0.0/`.
    pub user_agent: String,
    /// The node's version number (`getnetworkinfo.version`).
    pub version: i64,
    /// The P2P protocol version from its `version` message.
    pub protocol_version: i32,
    /// The services it offered, as hex.
    pub services: String,
    /// The network magic used.
    pub magic: String,
    /// When the record was made (RFC 3339, UTC).
    pub date: String,
    /// The tool that made it.
    pub tool: String,
}

/// One probe: the question, the node's answer, and whether it matched the reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProbeRecord {
    /// Stable, content-derived id.
    pub id: String,
    /// What the probe asks, in words.
    pub what: String,
    /// The ids of the vector tests it confirms, if it comes from the vectors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub confirms: Vec<String>,
    /// The question's parameters (filter, element).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub input: Value,
    /// What the node did.
    pub observed: Value,
    /// Whether every byte the node sent equalled the reference's prediction (for limits:
    /// whether the node accepted or disconnected as Core does).
    pub agrees_with_reference: bool,
}

/// One line of a `--check` report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// A probe of the committed record that this run did not make.
    Missing(String),
    /// A probe this run made that the committed record lacks.
    New(String),
    /// The same probe with another observation.
    Changed {
        id: String,
        committed: String,
        now: String,
    },
}

impl Difference {
    /// The probe's id.
    pub fn id(&self) -> &str {
        match self {
            Difference::Missing(id) | Difference::New(id) | Difference::Changed { id, .. } => id,
        }
    }
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Difference::Missing(id) => write!(f, "- {id}: in the committed record, not probed now"),
            Difference::New(id) => write!(f, "+ {id}: probed now, not in the committed record"),
            Difference::Changed { id, committed, now } => {
                write!(
                    f,
                    "~ {id}:\n    committed: {committed}\n    now:       {now}"
                )
            }
        }
    }
}

fn summary(probe: &ProbeRecord) -> String {
    format!(
        "{} (agrees with reference: {})",
        probe.observed, probe.agrees_with_reference
    )
}

/// The differences between two lists of probes, by id, in id order.
pub fn compare(committed: &[ProbeRecord], now: &[ProbeRecord]) -> Vec<Difference> {
    let old: BTreeMap<&str, &ProbeRecord> = committed.iter().map(|p| (p.id.as_str(), p)).collect();
    let new: BTreeMap<&str, &ProbeRecord> = now.iter().map(|p| (p.id.as_str(), p)).collect();
    let mut ids: Vec<&str> = old.keys().chain(new.keys()).copied().collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter()
        .filter_map(|id| match (old.get(id), new.get(id)) {
            (Some(_), None) => Some(Difference::Missing(id.to_string())),
            (None, Some(_)) => Some(Difference::New(id.to_string())),
            (Some(a), Some(b))
                if a.observed != b.observed
                    || a.agrees_with_reference != b.agrees_with_reference
                    || a.input != b.input =>
            {
                Some(Difference::Changed {
                    id: id.to_string(),
                    committed: summary(a),
                    now: summary(b),
                })
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn probe(id: &str, observed: Value) -> ProbeRecord {
        ProbeRecord {
            id: id.into(),
            what: "w".into(),
            confirms: vec![],
            input: Value::Null,
            observed,
            agrees_with_reference: true,
        }
    }

    #[test]
    fn same_probes_have_no_difference() {
        let a = vec![probe("x", json!(1)), probe("y", json!(2))];
        assert!(compare(&a, &a.clone()).is_empty());
    }

    #[test]
    fn missing_new_and_changed_are_reported() {
        let committed = vec![probe("a", json!(1)), probe("b", json!(2))];
        let mut changed = probe("b", json!(2));
        changed.agrees_with_reference = false;
        let now = vec![changed, probe("c", json!(3))];
        let diff = compare(&committed, &now);
        assert_eq!(diff.len(), 3);
        assert_eq!(diff[0], Difference::Missing("a".into()));
        assert!(matches!(&diff[1], Difference::Changed { id, .. } if id == "b"));
        assert_eq!(diff[2], Difference::New("c".into()));
        let ids: Vec<&str> = diff.iter().map(Difference::id).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        assert!(diff[1].to_string().contains("false"));
    }
}
