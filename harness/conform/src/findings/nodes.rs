//! The findings of the node section: per node column with a manifest, each failing check is
//! one deviation. Its state and reason come from the node's expectations file (a committed
//! node run is green, so every failure is an expected one, and every entry of the file must be
//! a failure of a check the node ran); its class is the deviation of `vectors/node/checks.json`
//! the node suite recognised in the node's answer, or unknown. A crash no checked newer version
//! fixes is written up without its input and without the reason's words, which would give it.

use super::severity;
use super::status::{self, Outcome};
use super::{expectations_of, expected, subject_of, Entry, Finding, Reproduction};
use crate::adapters::Manifest;
use crate::matrix::nodes::{NodeCell, NodeSection};
use crate::node::checks::{checks, Check};
use std::path::Path;

/// The start of the node suite's message for an answer that is a declared deviation
/// (node/judge.rs).
const KNOWN_DEVIATION: &str = "the node's behaviour is not Core's: ";

/// What the page says instead of the input, and the words, of a node crash still present.
pub(super) const WITHHELD: &str = "withheld until reported privately";

/// Every node column with a manifest, with its deviations.
pub(super) fn findings(
    root: &Path,
    section: &NodeSection,
    manifests: &[Manifest],
) -> Result<Vec<Entry>, String> {
    let file = checks()?;
    let check_of = |id: &str| {
        file.checks
            .iter()
            .find(|c| c.id == id)
            .ok_or_else(|| format!("the node section has check {id}, which checks.json lacks"))
    };
    let mut subjects = Vec::new();
    for (i, column) in section.columns.iter().enumerate() {
        let failing: Vec<(&str, &NodeCell)> = (section.rows.iter())
            .map(|row| (row.id.as_str(), &row.cells[i]))
            .filter(|(_, cell)| fails(cell))
            .collect();
        let Some(subject) = subject_of(&column.name, true, manifests)? else {
            return Err(format!(
                "the node column {} is named by no node manifest (its `column`, or its name), \
                 so its node and version are unknown",
                column.name
            ));
        };
        let files = expectations_of(root, &column.name, true, manifests)?;
        for (path, file) in &files {
            for (id, entry) in &file.failures {
                let cell = section
                    .rows
                    .iter()
                    .find(|r| &r.id == id)
                    .map(|r| &r.cells[i]);
                if matches!(
                    cell,
                    Some(NodeCell::Pass | NodeCell::AcceptableDifference { .. })
                ) {
                    return Err(format!(
                        "{} lists {id} as {}, but the node section has {} passing it: \
                         regenerate the node section (README, Check a node)",
                        path.display(),
                        entry.state,
                        column.name
                    ));
                }
            }
        }
        let others: Vec<(String, usize)> = (section.columns.iter().enumerate())
            .filter(|(j, _)| *j != i)
            .filter_map(
                |(j, other)| match subject_of(&other.name, true, manifests) {
                    Ok(Some(s)) if s.family == subject.family => Some(Ok((s.library.version, j))),
                    Ok(_) => None,
                    Err(e) => Some(Err(e)),
                },
            )
            .collect::<Result<_, _>>()?;
        let mut found = Vec::new();
        for (id, cell) in failing {
            let check = check_of(id)?;
            let (state, message) = match cell {
                NodeCell::Failure { state, detail } => {
                    return Err(format!(
                        "the node section has {} failing {id} ({state}: {detail}), which its \
                         expectations file does not list: the committed run was red",
                        column.name
                    ))
                }
                NodeCell::ExpectedFailure { detail } => {
                    let (_, state, reason) = expected(&files, id).ok_or_else(|| {
                        format!(
                            "the node section has {id} of {} as an expected failure its \
                             expectations file does not list: regenerate the node section",
                            column.name
                        )
                    })?;
                    let prefix = format!("expected failure ({reason}): {state}: ");
                    (
                        state,
                        detail.strip_prefix(&prefix).unwrap_or(detail).to_string(),
                    )
                }
                _ => unreachable!("only failing cells are kept"),
            };
            let severity = severity::of_check(state, &check.expected);
            let outcomes: Vec<(String, Outcome)> = others
                .iter()
                .map(|(version, j)| {
                    let row = section.rows.iter().find(|r| r.id == id);
                    (
                        version.clone(),
                        row.map_or(Outcome::NotAnswered, |r| outcome(&r.cells[*j])),
                    )
                })
                .collect();
            let status = status::status(&subject.library.version, &outcomes);
            let reproduction = if severity == severity::Severity::Crash && status.unfixed() {
                Reproduction::Withheld
            } else {
                Reproduction::Check {
                    description: check.description.clone(),
                }
            };
            found.push(Finding {
                tests: vec![id.to_string()],
                classes: class(check, &message).into_iter().collect(),
                states: vec![state],
                severity,
                // The reason of a withheld crash would describe its input.
                reason: match reproduction {
                    Reproduction::Withheld => WITHHELD.to_string(),
                    _ => expected(&files, id).map_or(String::new(), |(_, _, r)| r.to_string()),
                },
                reproduction,
                status,
            });
        }
        subjects.push(Entry {
            subject,
            answered: (section.rows.iter())
                .filter(|r| r.cells[i] != NodeCell::NotRun)
                .count(),
            total: section.rows.len(),
            findings: found,
            legitimate: (section.rows.iter())
                .filter_map(|r| match &r.cells[i] {
                    NodeCell::AcceptableDifference { detail } => {
                        Some((r.id.clone(), detail.clone()))
                    }
                    _ => None,
                })
                .collect(),
        });
    }
    Ok(subjects)
}

fn fails(cell: &NodeCell) -> bool {
    matches!(
        cell,
        NodeCell::ExpectedFailure { .. } | NodeCell::Failure { .. }
    )
}

fn outcome(cell: &NodeCell) -> Outcome {
    match cell {
        NodeCell::Pass | NodeCell::AcceptableDifference { .. } => Outcome::Passes,
        NodeCell::ExpectedFailure { .. } | NodeCell::Failure { .. } => Outcome::Fails,
        NodeCell::NotRun => Outcome::NotAnswered,
    }
}

/// The deviation of `check` the suite named in `message`, as `BUG_TYPE: name`.
fn class(check: &Check, message: &str) -> Option<String> {
    let named = message.strip_prefix(KNOWN_DEVIATION)?;
    let deviation = (check.deviations.iter())
        .filter(|d| named.starts_with(&d.name))
        .max_by_key(|d| d.name.len())?;
    Some(format!(
        "{}: {}",
        crate::node::judge::bug_type_name(deviation.bug_type),
        deviation.name
    ))
}
