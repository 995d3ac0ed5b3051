//! A check's verdict, in the runner's own types: a passing, failing or not-run
//! [`TestResult`] of a `sequence` test built from the check's data.
//!
//! `valid` passes only on Core's behaviour; `acceptable` also on a legitimate deviation. A
//! failure is diagnosed by the deviation the node's answer is (its bug type, name and note
//! from the data file), and as "unknown" when it is neither Core's behaviour nor a deviation
//! the data file declares: a guessed diagnosis would be worse than none.

use super::checks::{Check, CheckFile};
use super::trial::Trial;
use bip37_harness::implementation::{Answer, Fault};
use bip37_harness::ops::{Output, Request, SequenceInput, SequenceOutput, Step};
use bip37_harness::runner::{State, TestResult};
use bip37_harness::vectors::load::TestGroupInfo;
use bip37_harness::vectors::{Expectation, LoadedTest, Phase, Source, TestCase};
use std::time::Duration;

/// The Bitcoin Core commit the data file's `file:line` sources refer to.
pub const CORE_COMMIT: &str = "d861c3820528fad2e17a45549bec70b6ba434dcc";
/// The bitcoin/bips commit of its BIP sections.
pub const BIPS_COMMIT: &str = "7fe0b034ec967b52a5a28276419117326df93263";

/// `check` as a test of the runner, with `steps` as its input and `expected` as Core's answer.
pub fn as_test(check: &Check, steps: Vec<Step>, expected: Option<Output>) -> LoadedTest {
    LoadedTest {
        file: "node/checks.json".into(),
        group: TestGroupInfo {
            index: 0,
            operation: bip37_harness::ops::OpName::Sequence,
            source: source(&check.source, &check.id),
            comment: check.area.clone(),
        },
        case: TestCase {
            id: check.id.clone(),
            comment: check.description.clone(),
            flags: check.flags.clone(),
            result: check.result,
            phase: match check.area.as_str() {
                "filtered blocks" => Phase::Merkle,
                "limits" => Phase::Limits,
                _ => Phase::Sequence,
            },
            input: Default::default(),
            expected: None,
        },
        request: Request::Sequence(SequenceInput { steps }),
        expected,
    }
}

/// The data file's source text as a vector source: Core `file:line` or a BIP section.
fn source(text: &str, id: &str) -> Source {
    let core = text.split([' ', ';', ',']).find_map(|word| {
        let (file, line) = word.split_once(':')?;
        let line: u32 = line.split('-').next()?.parse().ok()?;
        file.starts_with("src/").then(|| (file.to_string(), line))
    });
    match core {
        Some((file, line)) => Source::Core {
            commit: CORE_COMMIT.into(),
            file,
            line,
            test_case: id.into(),
        },
        None => Source::Bip {
            bip: 37,
            commit: BIPS_COMMIT.into(),
            section: text.into(),
        },
    }
}

/// The verdict of `trial` for `check`.
pub fn judge(check: &Check, notes: &CheckFile, trial: Trial, duration: Duration) -> TestResult {
    let expected = trial.encode(&check.expected);
    let actual = Output::Sequence(SequenceOutput {
        results: trial.observed.clone(),
    });
    let test = as_test(
        check,
        trial.steps.clone(),
        expected
            .clone()
            .map(|results| Output::Sequence(SequenceOutput { results })),
    );
    let matching = check
        .deviations
        .iter()
        .find(|d| trial.encode(&d.observed).as_ref() == Some(&trial.observed));
    let note = trial.note.map(|n| format!(" ({n})")).unwrap_or_default();
    let (state, message, diagnosis) = if expected.as_ref() == Some(&trial.observed) {
        (State::Pass, note.trim().to_string(), None)
    } else {
        match matching {
            Some(d) if d.legitimate && check.result == Expectation::Acceptable => (
                State::Pass,
                format!(
                    "a legitimate difference from Core: {} ({}){note}",
                    d.name, d.note
                ),
                None,
            ),
            Some(d) => (
                State::WrongValue,
                format!("the node's behaviour is not Core's: {}{note}", d.name),
                Some(format!(
                    "{}: {}: {}",
                    bug_type_name(d.bug_type),
                    d.name,
                    d.note
                )),
            ),
            None => (
                State::WrongValue,
                format!("the node's behaviour is neither Core's nor a known deviation{note}"),
                Some(format!(
                    "unknown: the answer matches no deviation that vectors/node/checks.json \
                     declares for this check (flags: {})",
                    flag_classes(check, notes)
                )),
            ),
        }
    };
    let difference = (state == State::WrongValue)
        .then(|| bip37_harness::runner::diff::first_difference(&test, &actual));
    TestResult {
        test,
        state,
        answer: Answer::Ok(actual),
        message,
        difference,
        diagnosis,
        duration,
    }
}

/// A check whose answers are summed up from many probes (the filtered-block families of
/// `regen`): pass when every probe answered byte for byte as the reference predicts. Its
/// expected answer is the empty list of probes answered otherwise; a failing family's answer
/// is that count as a rejection of Core's, with the first differences to show where.
pub fn judge_family(
    check: &Check,
    probes: usize,
    disagreements: &[String],
    duration: Duration,
) -> TestResult {
    let none_otherwise = Output::Sequence(SequenceOutput {
        results: Vec::new(),
    });
    let test = as_test(check, Vec::new(), Some(none_otherwise.clone()));
    if disagreements.is_empty() {
        return TestResult {
            test,
            state: State::Pass,
            answer: Answer::Ok(none_otherwise),
            message: format!("{probes} probes, every answer byte for byte the reference's"),
            difference: None,
            diagnosis: None,
            duration,
        };
    }
    // Probes, not messages: a probe whose merkleblock and tx both differ counts once.
    let disagreeing: std::collections::BTreeSet<&str> = disagreements
        .iter()
        .map(|d| crate::regen::probes::Findings::probe_of(d))
        .collect();
    let otherwise = format!(
        "{} of {probes} probes answered otherwise than the reference",
        disagreeing.len()
    );
    let shown: Vec<&str> = disagreements.iter().take(3).map(String::as_str).collect();
    TestResult {
        test,
        state: State::WrongValue,
        answer: Answer::Rejected(bip37_harness::implementation::Rejection {
            stage: None,
            message: otherwise.clone(),
        }),
        message: format!("{otherwise}: the merkleblock or tx messages differ"),
        difference: Some(shown.join(" | ")),
        diagnosis: Some(
            "unknown: a filtered-block family sums up many probes; the differences name them"
                .into(),
        ),
        duration,
    }
}

/// A check that does not apply to this node: reported not claimed (not run), never passed.
pub fn not_run(check: &Check, why: String) -> TestResult {
    bip37_harness::runner::verdict::not_claimed(&as_test(check, Vec::new(), None), why)
}

/// A check the node broke down on (no answer in time, a malformed message).
pub fn broke_down(
    check: &Check,
    error: &crate::regen::RegenError,
    duration: Duration,
) -> TestResult {
    let timeout = matches!(
        error,
        crate::regen::RegenError::P2pTimeout { .. } | crate::regen::RegenError::P2pStalled { .. }
    );
    TestResult {
        test: as_test(check, Vec::new(), None),
        state: if timeout {
            State::Timeout
        } else {
            State::ProtocolError
        },
        answer: Answer::Fault(if timeout {
            Fault::Timeout
        } else {
            Fault::Protocol(error.to_string())
        }),
        message: error.to_string(),
        difference: None,
        diagnosis: None,
        duration,
    }
}

/// A check not attempted because the node stopped answering before it.
pub fn not_attempted(check: &Check, why: String) -> TestResult {
    TestResult {
        state: State::NotRun,
        answer: Answer::Fault(Fault::Crash(why.clone())),
        ..not_run(check, why)
    }
}

/// A check whose setup the node refused (a transaction Bitcoin Core accepts, a block, an RPC
/// call): it fails alone, as a rejection of something valid, with the node's reason; the run
/// goes on.
pub fn setup_refused(
    check: &Check,
    error: &crate::regen::RegenError,
    duration: Duration,
) -> TestResult {
    let reason = error.to_string();
    TestResult {
        test: as_test(check, Vec::new(), None),
        state: State::RejectedValid,
        answer: Answer::Rejected(bip37_harness::implementation::Rejection {
            stage: None,
            message: reason.clone(),
        }),
        message: format!("the check's setup failed: {reason}"),
        difference: None,
        diagnosis: None,
        duration,
    }
}

/// The check during which the node stopped answering (its RPC is gone): a crash, naming the
/// last message the suite sent before it.
pub fn crashed(check: &Check, last_sent: Option<String>, duration: Duration) -> TestResult {
    let detail = format!(
        "the node stopped answering RPC during this check; the last P2P message the suite sent \
         it: {}",
        last_sent.unwrap_or_else(|| "none yet".into())
    );
    TestResult {
        test: as_test(check, Vec::new(), None),
        state: State::Crash,
        answer: Answer::Fault(Fault::Crash(detail.clone())),
        message: detail,
        difference: None,
        diagnosis: None,
        duration,
    }
}

fn flag_classes(check: &Check, notes: &CheckFile) -> String {
    check
        .flags
        .iter()
        .map(|f| match notes.notes.get(f) {
            Some(note) => format!("{f} ({})", bug_type_name(note.bug_type)),
            None => f.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A bug type as the data file writes it (`MISSING_CHECK`).
pub(crate) fn bug_type_name(bug_type: bip37_harness::vectors::BugType) -> String {
    serde_json::to_value(bug_type)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::checks::checks;
    use crate::node::trial::Shape;
    use bip37_harness::hex::Hex;
    use bip37_harness::ops::StepResult;

    fn check(id: &str) -> (Check, CheckFile) {
        let file = checks().unwrap();
        let check = file.checks.iter().find(|c| c.id == id).unwrap().clone();
        (check, file)
    }

    fn verdict(id: &str, shape: Shape, observed: Vec<StepResult>) -> TestResult {
        let (check, file) = check(id);
        let trial = Trial {
            steps: Vec::new(),
            observed,
            shape,
            note: None,
        };
        judge(&check, &file, trial, Duration::ZERO)
    }

    fn tx(relevant: bool) -> StepResult {
        StepResult::Tx {
            relevant,
            filter_data: Hex(Vec::new()),
        }
    }

    const OVERSIZED: &str = "node/filterload/oversized-36001-disconnects";

    #[test]
    fn cores_behaviour_passes_and_a_known_bug_is_diagnosed_by_its_class() {
        let reaction = || Shape::Reaction { setup: 0 };
        let pass = verdict(OVERSIZED, reaction(), vec![StepResult::Misbehaving]);
        assert_eq!(pass.state, State::Pass);
        let kept = verdict(OVERSIZED, reaction(), vec![StepResult::Accepted]);
        assert_eq!(kept.state, State::WrongValue);
        assert!(
            kept.diagnosis
                .as_deref()
                .unwrap()
                .starts_with("MISSING_CHECK: an oversized filter is served"),
            "{:?}",
            kept.diagnosis
        );
        assert!(kept.difference.unwrap().contains("misbehaving"));
    }

    #[test]
    fn a_legitimate_deviation_passes_only_an_acceptable_check() {
        let ignored = verdict(
            "node/filteradd/without-filter-disconnects",
            Shape::Reaction { setup: 0 },
            vec![StepResult::Accepted],
        );
        assert_eq!(ignored.state, State::Pass);
        assert!(
            ignored.message.contains("legitimate"),
            "{}",
            ignored.message
        );
    }

    #[test]
    fn behaviour_no_deviation_declares_is_unknown() {
        let shape = || Shape::Announced {
            setup: 1,
            roles: vec!["other".into(), "matching".into()],
        };
        let observed = vec![StepResult::Accepted, tx(true), tx(false)];
        let odd = verdict(
            "node/relay/filter-announces-only-matching",
            shape(),
            observed,
        );
        assert_eq!(odd.state, State::WrongValue);
        assert!(odd.diagnosis.unwrap().starts_with("unknown"));
        let leak = vec![StepResult::Accepted, tx(true), tx(true)];
        let leak = verdict("node/relay/filter-announces-only-matching", shape(), leak);
        assert!(leak.diagnosis.unwrap().starts_with("MISSING_CHECK"));
    }

    #[test]
    fn a_family_passes_only_without_disagreements() {
        let (check, _) = check("node/merkleblock/places");
        assert_eq!(
            judge_family(&check, 13, &[], Duration::ZERO).state,
            State::Pass
        );
        let failed = judge_family(&check, 13, &["places/x: differs".into()], Duration::ZERO);
        assert_eq!(failed.state, State::WrongValue);
        assert!(failed.difference.unwrap().contains("places/x"));
        // Issue 32: "24 of 12 probes" counted messages; a probe differing twice is one.
        let twice = [
            "places/x: merkleblock differs".into(),
            "places/x: tx differs".into(),
            "places/y: merkleblock differs".into(),
        ];
        let failed = judge_family(&check, 2, &twice, Duration::ZERO);
        assert!(
            failed.message.starts_with("2 of 2 probes"),
            "{}",
            failed.message
        );
    }
}
