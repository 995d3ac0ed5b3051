//! Expectations files, for adopting the suite gradually: the failures an implementation is
//! known to have, each with the state it fails in and why.
//!
//! A listed failure that happens as listed is an expected failure and does not fail the run (a
//! claimed test answered `unsupported` is listed as `unsupported`, and only with a reason
//! written by hand: `--update-expectations` writes [`FILL_IN`], which excuses nothing); a
//! listed test that passes is an unexpected pass and does fail it, so the list only shrinks; an
//! entry for a test id that no vector has is stale and fails the run too. The format is TOML:
//!
//! The file can also pin the operations the implementation must answer (`operations`): a run
//! in which no selected test of a pinned operation got an answer other than `unsupported` fails,
//! so a gate notices when coverage drops. `--update-expectations` pins every operation the run
//! exercised.
//!
//! ```toml
//! operations = ["murmur3", "hashSeed"]
//!
//! [failures."murmur3_test/tail-3"]
//! state = "wrongValue"
//! reason = "reads the tail big-endian; issue #12"
//! ```

use crate::ops::OpName;
use crate::runner::{Run, State};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The contents of an expectations file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// Operations (wire names) the implementation must answer whenever a selected test asks
    /// them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operations: Vec<String>,
    /// Test id → the expected failure.
    #[serde(default)]
    pub failures: BTreeMap<String, ExpectedFailure>,
}

/// One expected failure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedFailure {
    /// The state the test is expected to end in (a failing state).
    pub state: State,
    /// Why it fails: an issue link, a known divergence.
    pub reason: String,
}

/// The reason `--update-expectations` writes for a claimed test answered `unsupported`: only
/// the implementer knows why, so the entry excuses nothing until it is replaced.
pub const FILL_IN: &str = "FILL IN: why this claimed input is unsupported";

impl ExpectedFailure {
    /// False for an `unsupported` entry whose reason is empty or still [`FILL_IN`]: such an
    /// entry does not excuse its test.
    pub fn has_reason(&self) -> bool {
        let reason = self.reason.trim();
        self.state != State::Unsupported || !(reason.is_empty() || reason.starts_with(FILL_IN))
    }
}

/// The largest expectations file read, in bytes: far more than one entry per vector needs.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The largest text parsed as one TOML document; a larger one is parsed table by table.
pub const WHOLE_PARSE_BYTES: usize = 1 << 20;

const HEADER: &str = "\
# bip37-conform expectations: the failures this implementation is known to have.
# A listed test that passes fails the run (remove its entry); `--update-expectations` rewrites
# this file from a run, keeping the reasons of entries that still fail as listed. `operations`
# are the operations the implementation must keep answering. An `unsupported` entry (a claimed
# test answered `unsupported`) excuses its test only once its FILL IN reason says why.
";

impl Expectations {
    /// Parses the TOML text of an expectations file: whole up to [`WHOLE_PARSE_BYTES`], table by
    /// table beyond ([`crate::toml_tables`]), so that the peak memory stays within a small
    /// multiple of the file's size whatever its shape.
    pub fn parse(text: &str) -> Result<Self, ExpectationsError> {
        let parsed = match text.len() <= WHOLE_PARSE_BYTES {
            true => toml::from_str(text).map_err(ExpectationsError::Syntax)?,
            false => Self::parse_by_table(text)?,
        };
        if let Some(name) = parsed
            .operations
            .iter()
            .find(|name| OpName::from_name(name).is_none())
        {
            return Err(ExpectationsError::UnknownOperation { name: name.clone() });
        }
        if let Some((id, entry)) = parsed
            .failures
            .iter()
            .find(|(_, entry)| !entry.state.can_be_expected())
        {
            return Err(ExpectationsError::NotAFailure {
                id: id.clone(),
                state: entry.state,
            });
        }
        Ok(parsed)
    }

    /// [`Self::parse`] of a large text, one top-level table at a time: the tables' entries are
    /// merged, and a key two tables both define is refused, as a whole parse refuses it.
    fn parse_by_table(text: &str) -> Result<Self, ExpectationsError> {
        let pieces = crate::toml_tables::split(text)
            .map_err(|message| ExpectationsError::Table { line: 1, message })?;
        let mut merged = Expectations::default();
        for piece in pieces {
            let at = |message: String| ExpectationsError::Table {
                line: piece.line,
                message,
            };
            let part: Expectations = toml::from_str(piece.text).map_err(|e| at(e.to_string()))?;
            if !part.operations.is_empty() {
                if !merged.operations.is_empty() {
                    return Err(at("`operations` is defined twice".into()));
                }
                merged.operations = part.operations;
            }
            for (id, entry) in part.failures {
                if merged.failures.contains_key(&id) {
                    return Err(at(format!("failures.\"{id}\" is defined twice")));
                }
                merged.failures.insert(id, entry);
            }
        }
        Ok(merged)
    }

    /// Reads an expectations file: a regular file of at most [`MAX_FILE_BYTES`]; a missing
    /// file is an error (only `--update-expectations` may start from nothing).
    pub fn load(path: &Path) -> Result<Self, ExpectationsError> {
        let in_file = |source| ExpectationsError::InFile {
            path: path.to_path_buf(),
            source: Box::new(source),
        };
        match crate::input_file::read_text(path, MAX_FILE_BYTES) {
            Ok(text) => Self::parse(&text).map_err(in_file),
            Err(e) => Err(in_file(ExpectationsError::Read(e))),
        }
    }

    /// The TOML text of the file, with its explanatory header.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).unwrap_or_default();
        format!("{HEADER}\n{body}")
    }

    /// Marks expected failures and unexpected passes in `run`, and records stale entries
    /// (ids not among `known_ids`, the ids of every loaded vector) and pinned operations that
    /// selected tests ask but none of them exercised.
    pub fn apply(&self, run: &mut Run, known_ids: &HashSet<&str>) {
        let (asked, exercised) = coverage(run);
        run.missing_operations = self
            .operations
            .iter()
            .filter_map(|name| OpName::from_name(name))
            .filter(|op| asked.contains(op) && !exercised.contains(op))
            .collect();
        for result in &mut run.results {
            let Some(entry) = self.failures.get(&result.test.case.id) else {
                continue;
            };
            if result.state == State::Pass {
                result.state = State::UnexpectedPass;
                result.message = format!(
                    "passes, but the expectations file lists it as {} ({}): remove the entry",
                    entry.state, entry.reason
                );
            } else if result.state == State::Unsupported
                && entry.state == State::Unsupported
                && !entry.has_reason()
            {
                result.message = format!(
                    "{} (the expectations file lists it as unsupported, but its reason is still \
                     to be written: replace {:?} with why this claimed input is unsupported)",
                    result.message, entry.reason
                );
            } else if result.state == entry.state {
                result.message = format!(
                    "expected failure ({}): {}: {}",
                    entry.reason, result.state, result.message
                );
                result.state = State::ExpectedFailure;
            } else if result.state.is_failure() {
                result.message = format!(
                    "{} (the expectations file lists {} instead)",
                    result.message, entry.state
                );
            }
        }
        run.stale_expectations = self
            .failures
            .keys()
            .filter(|id| !known_ids.contains(id.as_str()))
            .cloned()
            .collect();
    }

    /// The expectations a run calls for: every failure of `raw` (a run before [`Self::apply`])
    /// listed with its state, passing and unsupported tests removed, tests that did not run
    /// kept as they were, and stale entries dropped. Crashes and timeouts are listed only when
    /// `record_crashes` says so (otherwise their entries go): a gate that expects an
    /// implementation to crash says little about it. The pinned operations become those the
    /// run exercised, plus the old pins no selected test asked.
    pub fn updated(
        &self,
        raw: &Run,
        known_ids: &HashSet<&str>,
        record_crashes: bool,
    ) -> Expectations {
        let mut failures = self.failures.clone();
        for result in &raw.results {
            let id = &result.test.case.id;
            if result.state == State::NotRun {
                continue;
            }
            let refused = result.state.is_breakdown() && !record_crashes;
            if !result.state.can_be_expected() || refused {
                failures.remove(id);
                continue;
            }
            let reason = match self.failures.get(id) {
                Some(old) if old.state == result.state => old.reason.clone(),
                _ if result.state == State::Unsupported => FILL_IN.to_string(),
                _ => match &result.difference {
                    Some(d) => format!("{}: {d}", result.message),
                    None => result.message.clone(),
                },
            };
            failures.insert(
                id.clone(),
                ExpectedFailure {
                    state: result.state,
                    reason,
                },
            );
        }
        failures.retain(|id, _| known_ids.contains(id.as_str()));
        let (asked, exercised) = coverage(raw);
        let operations: Vec<String> = OpName::ALL
            .iter()
            .filter(|op| {
                exercised.contains(op)
                    || (!asked.contains(op) && self.operations.iter().any(|n| n == op.as_str()))
            })
            .map(|op| op.as_str().to_string())
            .collect();
        Expectations {
            operations,
            failures,
        }
    }
}

/// Why an expectations file cannot be used. The messages name the field at fault; an error
/// of [`Expectations::load`] is prefixed with the file's path.
#[derive(Debug)]
#[non_exhaustive]
pub enum ExpectationsError {
    /// The file cannot be read (missing, not a regular file, too large, not UTF-8).
    Read(io::Error),
    /// The text is not TOML of the expectations format (an unknown key, a bad state name).
    Syntax(toml::de::Error),
    /// `operations` names something that is not an operation.
    UnknownOperation { name: String },
    /// A `failures` entry lists a state that is not a failure (`pass`, `unexpectedPass`...).
    NotAFailure { id: String, state: State },
    /// A large file's top-level table starting at `line` is not TOML of the expectations
    /// format, repeats an entry or is beyond the table ceiling (its lines counted from the
    /// table's first).
    Table { line: usize, message: String },
    /// One of the errors above, in the file at `path`.
    InFile {
        path: PathBuf,
        source: Box<ExpectationsError>,
    },
}

impl fmt::Display for ExpectationsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpectationsError::Read(e) => write!(f, "{e}"),
            ExpectationsError::Syntax(e) => write!(f, "{e}"),
            ExpectationsError::UnknownOperation { name } => write!(
                f,
                "operations: {name:?} is not an operation; known: {}",
                crate::runner::exercised::known_operations()
            ),
            ExpectationsError::NotAFailure { id, state } => write!(
                f,
                "failures.\"{id}\".state: {state} is not a failure an expectations file can list"
            ),
            ExpectationsError::Table { line, message } => {
                write!(f, "in the table starting at line {line}: {message}")
            }
            ExpectationsError::InFile { path, source } => {
                write!(f, "{}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for ExpectationsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExpectationsError::Read(e) => Some(e),
            ExpectationsError::Syntax(e) => Some(e),
            ExpectationsError::InFile { source, .. } => Some(source.as_ref()),
            ExpectationsError::UnknownOperation { .. }
            | ExpectationsError::NotAFailure { .. }
            | ExpectationsError::Table { .. } => None,
        }
    }
}

/// The operations some test of `run` asks, and those some test got an answer to (anything but
/// `unsupported`, not claimed or not run).
fn coverage(run: &Run) -> (HashSet<OpName>, HashSet<OpName>) {
    let asked = run.results.iter().map(|r| r.test.request.op()).collect();
    let exercised = run
        .results
        .iter()
        .filter(|r| {
            !matches!(
                r.state,
                State::Unsupported | State::NotClaimed | State::NotRun
            )
        })
        .map(|r| r.test.request.op())
        .collect();
    (asked, exercised)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses_states_that_are_not_failures() {
        let text = "[failures.\"a/b\"]\nstate = \"wrongValue\"\nreason = \"r\"\n";
        let parsed = Expectations::parse(text).unwrap();
        assert_eq!(parsed.failures["a/b"].state, State::WrongValue);
        assert_eq!(Expectations::parse(&parsed.to_toml()).unwrap(), parsed);
        let err = Expectations::parse(&text.replace("wrongValue", "pass")).unwrap_err();
        assert!(
            matches!(err, ExpectationsError::NotAFailure { .. }),
            "{err}"
        );
        assert!(err.to_string().contains("not a failure"), "{err}");
        assert!(Expectations::parse("[failures.x]\nstate = \"bogus\"\nreason = \"\"\n").is_err());
    }

    #[test]
    fn a_load_error_names_the_file_and_keeps_its_cause() {
        use std::error::Error;
        let path = Path::new("no/such/expectations.toml");
        let err = Expectations::load(path).unwrap_err();
        assert!(
            err.to_string().starts_with("no/such/expectations.toml: "),
            "{err}"
        );
        let cause = err.source().expect("the read error");
        assert!(
            cause.downcast_ref::<ExpectationsError>().is_some(),
            "{cause:?}"
        );
        let io = cause.source().and_then(|e| e.downcast_ref::<io::Error>());
        assert_eq!(io.map(io::Error::kind), Some(io::ErrorKind::NotFound));
    }

    #[test]
    fn a_large_file_parsed_table_by_table_is_what_a_whole_parse_gives() {
        let mut text = String::from("operations = [\"murmur3\"]\n[failures]\n");
        let mut i = 0;
        while text.len() <= WHOLE_PARSE_BYTES {
            text += &format!(
                "[failures.\"m/{i}\"]\nstate = \"wrongValue\"\nreason = \"\"\"\n[failures.\"x\"]\n\"\"\"\n"
            );
            i += 1;
        }
        let whole: Expectations = toml::from_str(&text).unwrap();
        assert_eq!(Expectations::parse(&text).unwrap(), whole);
        assert_eq!(whole.failures.len(), i);
        let twice = format!("{text}[failures.\"m/0\"]\nstate = \"crash\"\nreason = \"\"\n");
        assert!(toml::from_str::<Expectations>(&twice).is_err());
        let err = Expectations::parse(&twice).unwrap_err().to_string();
        assert!(err.contains("defined twice"), "{err}");
    }
}
