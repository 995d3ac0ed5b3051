//! Whether a run may replace the record file: only when the node agreed with the reference
//! on every probe.
//!
//! A record is what the next `regen --check` compares with, so a run that disagreed (a node
//! with a bug, or a misconfigured run) must not quietly become the new truth: it is written
//! only with `--force`, and then the record itself says so in `forced`, so a reviewer of the
//! diff sees it.

use super::error::RegenError;
use super::probes::Findings;
use super::record::Record;
use super::write;
use std::path::Path;

/// What became of the record file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordFile {
    /// Compared with, not written (`--check`).
    Compared,
    /// Written: the node agreed with the reference on every probe.
    Written,
    /// Written with `--force` although the node disagreed (the record's `forced` says so).
    Forced { disagreements: usize },
    /// Left as it was: the node disagreed and `--force` was not given.
    Refused { disagreements: usize },
}

/// The disagreements of a run: the findings, or the probes recorded as disagreeing if those
/// are more (the two should be the same; the larger one is trusted).
pub fn disagreements(record: &Record, findings: &Findings) -> usize {
    let recorded = record
        .probes
        .iter()
        .filter(|p| !p.agrees_with_reference)
        .count();
    findings.disagreements.len().max(recorded)
}

/// Writes `record` to `path` atomically unless the run disagreed with the reference and
/// `force` is false.
pub fn keep(
    path: &Path,
    record: &mut Record,
    findings: &Findings,
    force: bool,
) -> Result<RecordFile, RegenError> {
    let disagreements = disagreements(record, findings);
    if disagreements == 0 {
        write::write_atomically(path, record)?;
        return Ok(RecordFile::Written);
    }
    if !force {
        return Ok(RecordFile::Refused { disagreements });
    }
    record.forced = Some(format!(
        "written with --force although the node disagreed with the reference \
         {disagreements} times (see agreesWithReference); not a confirmation of the vectors"
    ));
    write::write_atomically(path, record)?;
    Ok(RecordFile::Forced { disagreements })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regen::record::{ProbeRecord, Provenance, RECORD_FORMAT_VERSION, RECORD_KIND};
    use serde_json::json;
    use std::fs;

    fn record(agrees: bool) -> Record {
        Record {
            record: RECORD_KIND.into(),
            format_version: RECORD_FORMAT_VERSION,
            header: vec![],
            forced: None,
            provenance: Provenance {
                user_agent: "/Satoshi:30.99.0/".into(),
                version: 309900,
                protocol_version: 70016,
                services: "c0d".into(),
                magic: "fabfb5da".into(),
                date: "2026-12-01T00:00:00Z".into(),
                tool: "bip37-conform 0.1.0".into(),
            },
            probes: vec![ProbeRecord {
                id: "places/output-push".into(),
                what: "w".into(),
                confirms: vec![],
                input: json!(null),
                observed: json!([]),
                agrees_with_reference: agrees,
            }],
            node_behaviours: vec![],
        }
    }

    fn committed(name: &str) -> (std::path::PathBuf, Vec<u8>) {
        let dir = std::env::temp_dir().join(format!("regen-keep-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("record.json");
        let bytes = b"{\"committed\": true}\n".to_vec();
        fs::write(&path, &bytes).unwrap();
        (path, bytes)
    }

    fn disagreeing_findings() -> Findings {
        let mut findings = Findings::default();
        findings.disagree("places/output-push", "no merkleblock".into());
        findings
    }

    #[test]
    fn a_disagreeing_run_leaves_the_committed_record_byte_for_byte() {
        let (path, before) = committed("refused");
        // Disagreement in the findings only, and in the recorded probes only.
        for (record, findings) in [
            (record(true), disagreeing_findings()),
            (record(false), Findings::default()),
        ] {
            let mut record = record;
            let kept = keep(&path, &mut record, &findings, false).unwrap();
            assert_eq!(kept, RecordFile::Refused { disagreements: 1 });
            assert_eq!(fs::read(&path).unwrap(), before);
        }
        assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
        fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn force_writes_and_the_record_says_so() {
        let (path, _) = committed("forced");
        let mut record = record(false);
        let kept = keep(&path, &mut record, &disagreeing_findings(), true).unwrap();
        assert_eq!(kept, RecordFile::Forced { disagreements: 1 });
        let written = write::read(&path).unwrap();
        assert!(written.forced.unwrap().contains("--force"));
        fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn an_agreeing_run_is_written_without_a_forced_mark() {
        let (path, _) = committed("agreeing");
        let mut record = record(true);
        let kept = keep(&path, &mut record, &Findings::default(), false).unwrap();
        assert_eq!(kept, RecordFile::Written);
        assert_eq!(write::read(&path).unwrap(), record);
        assert!(!fs::read_to_string(&path).unwrap().contains("forced"));
        fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
