//! A check passes only what ran. `adapters check` appends `--report json:FILE` to the command
//! line it runs (`bip37-conform run` for a protocol adapter; a node's `run` line, inside its
//! `start` command), FILE in a fresh private directory made for this one check, and holds the
//! exit code to that report: an exit code of 0 counts only when this run's report is there,
//! says `conformant`, and has a test that ran (answered: neither `notClaimed` nor `notRun`) in
//! each of its `claimedOperations`, of which there is at least one. A node's `start` that does
//! not run the command appended to it (`start = "true"`), or runs it and then ignores its exit
//! code, fails the gate instead of passing it; so does a `run` line whose flags let a run that
//! tested nothing exit 0 (`--allow-empty` with an `--id` that selects nothing), library and
//! node alike.

use crate::exit;
use bip37_harness::{input_file, teardown};
use std::collections::BTreeSet;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// The largest report read back: a JSON report of the whole suite is well under a megabyte.
const MAX_REPORT_BYTES: u64 = 64 << 20;

/// The fresh report file one check's command line writes; its directory goes when this does.
#[derive(Debug)]
pub struct Gate {
    dir: PathBuf,
    report: PathBuf,
}

impl Gate {
    /// A new directory, private to this user, that nothing has written in yet.
    pub fn new() -> Result<Self, String> {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("bip37-check-{}-{n}", std::process::id()));
            // Recorded for the tear-down: a signal removes it too.
            let made = teardown::create_temporary(|| {
                std::fs::DirBuilder::new().mode(0o700).create(&dir)?;
                Ok(((), dir.clone()))
            });
            match made {
                Ok(((), dir)) => {
                    let report = dir.join("report.json");
                    return Ok(Gate { dir, report });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => {}
                Err(e) => return Err(format!("cannot make {}: {e}", dir.display())),
            }
        }
    }

    /// The arguments appended to the checked command line: its JSON report into this gate.
    pub fn arguments(&self) -> [String; 2] {
        ["--report".into(), format!("json:{}", self.report.display())]
    }

    /// The exit code the check earns from the command's `code`: a failure stays itself; a 0
    /// stands only with this run's report saying `conformant`, and is a harness error (with
    /// the reason) otherwise.
    pub fn judge(&self, code: u8) -> Result<u8, String> {
        if code != exit::CONFORMANT {
            return Ok(code);
        }
        let report = read_report(&self.report).map_err(|why| {
            format!(
                "exit 0, but {why}: the suite did not run (a node's `start` must run the \
                 command appended to it and exit with its exit code)"
            )
        })?;
        if report.conformance != "conformant" {
            return Err(format!(
                "exit 0, but its report says {:?}: the exit code of the suite was lost (a \
                 node's `start` must exit with the exit code of the command appended to it)",
                report.conformance
            ));
        }
        if report.claimed.is_empty() {
            return Err("exit 0, but its report claims no operation: nothing was checked".into());
        }
        let untested: Vec<&str> = report
            .claimed
            .iter()
            .filter(|op| !report.ran.contains(*op))
            .map(String::as_str)
            .collect();
        match untested.is_empty() {
            true => Ok(code),
            false => Err(format!(
                "exit 0, but no test ran in the claimed operations {}: a gate counts what ran \
                 (do the `run` line's flags, such as --id or --allow-empty, select nothing?)",
                untested.join(", ")
            )),
        }
    }
}

impl Drop for Gate {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        teardown::temporary_gone(&self.dir);
    }
}

/// What the gate reads of a report.
struct Report {
    conformance: String,
    /// `claimedOperations`.
    claimed: Vec<String>,
    /// The operations with a result that ran (neither `notClaimed` nor `notRun`).
    ran: BTreeSet<String>,
}

/// The report at `path`, or why there is none.
fn read_report(path: &Path) -> Result<Report, String> {
    let text = input_file::read_text(path, MAX_REPORT_BYTES)
        .map_err(|e| format!("it wrote no report to {} ({e})", path.display()))?;
    let report: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("its report {} is not JSON ({e})", path.display()))?;
    let not_ours = || {
        format!(
            "its report {} is not a bip37-conform report",
            path.display()
        )
    };
    let version = report["reportVersion"].as_u64();
    if version != Some(u64::from(bip37_harness::report::json::REPORT_VERSION)) {
        return Err(not_ours());
    }
    let conformance = report["conformance"].as_str().ok_or_else(not_ours)?;
    let strings = |value: &serde_json::Value| -> Option<Vec<String>> {
        value
            .as_array()?
            .iter()
            .map(|v| v.as_str().map(String::from))
            .collect()
    };
    let claimed = strings(&report["claimedOperations"]).ok_or_else(not_ours)?;
    let results = report["results"].as_array().ok_or_else(not_ours)?;
    let ran = results
        .iter()
        .filter(|r| !matches!(r["state"].as_str(), Some("notClaimed" | "notRun") | None))
        .filter_map(|r| r["operation"].as_str().map(String::from))
        .collect();
    Ok(Report {
        conformance: conformance.to_string(),
        claimed,
        ran,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_stands_only_with_a_conformant_report_of_this_run() {
        let gate = Gate::new().unwrap();
        assert_eq!(gate.judge(exit::FAILURES), Ok(exit::FAILURES));
        let missing = gate.judge(exit::CONFORMANT).unwrap_err();
        assert!(missing.contains("wrote no report"), "{missing}");
        let report = |conformance: &str, claimed: &str, results: &str| {
            format!(
                "{{\"reportVersion\": 1, \"conformance\": {conformance:?}, \
                 \"claimedOperations\": [{claimed}], \"results\": [{results}]}}"
            )
        };
        let murmur = |state: &str| format!("{{\"operation\": \"murmur3\", \"state\": {state:?}}}");
        std::fs::write(
            &gate.report,
            report("failures", "\"murmur3\"", &murmur("pass")),
        )
        .unwrap();
        let lost = gate.judge(exit::CONFORMANT).unwrap_err();
        assert!(lost.contains("exit code of the suite was lost"), "{lost}");
        std::fs::write(&gate.report, report("conformant", "", "")).unwrap();
        let nothing = gate.judge(exit::CONFORMANT).unwrap_err();
        assert!(nothing.contains("claims no operation"), "{nothing}");
        let two = "\"murmur3\", \"sizing\"";
        std::fs::write(&gate.report, report("conformant", two, &murmur("pass"))).unwrap();
        let untested = gate.judge(exit::CONFORMANT).unwrap_err();
        assert!(
            untested.contains("no test ran in the claimed operations sizing"),
            "{untested}"
        );
        let skipped = murmur("notClaimed");
        std::fs::write(&gate.report, report("conformant", "\"murmur3\"", &skipped)).unwrap();
        assert!(gate.judge(exit::CONFORMANT).is_err());
        let expected = murmur("expectedFailure");
        std::fs::write(&gate.report, report("conformant", "\"murmur3\"", &expected)).unwrap();
        assert_eq!(gate.judge(exit::CONFORMANT), Ok(exit::CONFORMANT));
        let dir = gate.dir.clone();
        drop(gate);
        assert!(!dir.exists());
    }
}
