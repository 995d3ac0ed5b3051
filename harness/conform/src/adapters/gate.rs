//! A check passes only what ran. `adapters check` appends `--report json:FILE` to the command
//! line it runs (`bip37-conform run` for a protocol adapter; a node's `run` line, inside its
//! `start` command), FILE in a fresh private directory made for this one check, and holds the
//! exit code to that report: an exit code of 0 counts only when this run's report is there and
//! says `conformant`. A node's `start` that does not run the command appended to it (`start =
//! "true"`), or runs it and then ignores its exit code, fails the gate instead of passing it.

use crate::exit;
use bip37_harness::{input_file, teardown};
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
        let conformance = read_conformance(&self.report).map_err(|why| {
            format!(
                "exit 0, but {why}: the suite did not run (a node's `start` must run the \
                 command appended to it and exit with its exit code)"
            )
        })?;
        match conformance.as_str() {
            "conformant" => Ok(code),
            other => Err(format!(
                "exit 0, but its report says {other:?}: the exit code of the suite was lost \
                 (a node's `start` must exit with the exit code of the command appended to it)"
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

/// The `conformance` of the JSON report at `path`, or why there is none.
fn read_conformance(path: &Path) -> Result<String, String> {
    let text = input_file::read_text(path, MAX_REPORT_BYTES)
        .map_err(|e| format!("it wrote no report to {} ({e})", path.display()))?;
    let report: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("its report {} is not JSON ({e})", path.display()))?;
    let version = report["reportVersion"].as_u64();
    match (version, report["conformance"].as_str()) {
        (Some(v), Some(conformance))
            if v == u64::from(bip37_harness::report::json::REPORT_VERSION) =>
        {
            Ok(conformance.to_string())
        }
        _ => Err(format!(
            "its report {} is not a bip37-conform report",
            path.display()
        )),
    }
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
        let report = |conformance: &str| {
            format!("{{\"reportVersion\": 1, \"conformance\": {conformance:?}}}")
        };
        std::fs::write(&gate.report, report("failures")).unwrap();
        let lost = gate.judge(exit::CONFORMANT).unwrap_err();
        assert!(lost.contains("exit code of the suite was lost"), "{lost}");
        std::fs::write(&gate.report, report("conformant")).unwrap();
        assert_eq!(gate.judge(exit::CONFORMANT), Ok(exit::CONFORMANT));
        let dir = gate.dir.clone();
        drop(gate);
        assert!(!dir.exists());
    }
}
