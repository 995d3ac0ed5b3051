//! Writing and reading the record file. Writing is atomic ([`bip37_harness::atomic_file`]): an
//! interrupted or failed run leaves the committed record as it was.

use super::error::RegenError;
use super::record::{Record, RECORD_FORMAT_VERSION, RECORD_KIND};
use std::fs;
use std::path::Path;

/// Writes `record` to `path` atomically (pretty JSON, trailing newline).
pub fn write_atomically(path: &Path, record: &Record) -> Result<(), RegenError> {
    let fail = |detail: String| RegenError::Write {
        path: path.display().to_string(),
        detail,
    };
    let text = serde_json::to_string_pretty(record)
        .map_err(|e| fail(format!("cannot serialize: {e}")))?
        + "\n";
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).map_err(|e| fail(format!("cannot create {}: {e}", dir.display())))?;
    bip37_harness::atomic_file::write(path, text.as_bytes()).map_err(|e| fail(e.to_string()))?;
    Ok(())
}

/// The largest record read, in bytes (the committed one is under 100 kB).
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// Reads a record (a regular file of at most 16 MiB), refusing another kind or format version.
pub fn read(path: &Path) -> Result<Record, RegenError> {
    let fail = |detail: String| RegenError::Input {
        path: path.display().to_string(),
        detail,
    };
    let text = bip37_harness::input_file::read_text(path, MAX_RECORD_BYTES).map_err(|e| {
        fail(if e.kind() == std::io::ErrorKind::NotFound {
            format!("{e} (run `bip37-conform regen` without --check to make the first record)")
        } else {
            e.to_string()
        })
    })?;
    let record: Record = serde_json::from_str(&text).map_err(|e| fail(e.to_string()))?;
    if record.record != RECORD_KIND || record.format_version != RECORD_FORMAT_VERSION {
        return Err(fail(format!(
            "not a {RECORD_KIND} of format version {RECORD_FORMAT_VERSION}"
        )));
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regen::record::Provenance;

    fn record() -> Record {
        Record {
            record: RECORD_KIND.into(),
            format_version: RECORD_FORMAT_VERSION,
            header: vec!["test".into()],
            forced: None,
            provenance: Provenance {
                user_agent: "/Bitcoin SV:1.0.13/".into(),
                version: 101001300,
                protocol_version: 70016,
                services: "25".into(),
                magic: "dab5bffa".into(),
                date: "2026-11-30T01:00:00Z".into(),
                tool: "bip37-conform 0.1.0".into(),
            },
            probes: vec![],
            node_behaviours: vec![],
        }
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("regen-write-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn writes_and_reads_back_without_leftovers() {
        let dir = scratch("ok");
        let path = dir.join("sub/record.json");
        write_atomically(&path, &record()).unwrap();
        assert_eq!(read(&path).unwrap(), record());
        assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn failed_write_keeps_the_old_file() {
        let dir = scratch("fail");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("record.json");
        fs::write(&path, "old").unwrap();
        // A directory where the temporary file's rename target is: rename fails.
        let blocked = dir.join("blocked");
        fs::create_dir_all(blocked.join("x")).unwrap();
        assert!(write_atomically(&blocked, &record()).is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            2,
            "no temporary file left"
        );
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn only_a_regular_file_of_bounded_size_is_read() {
        let dir = scratch("special");
        fs::create_dir_all(&dir).unwrap();
        let zero = dir.join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let fifo = dir.join("fifo.json");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let huge = dir.join("huge.json");
        fs::File::create(&huge)
            .unwrap()
            .set_len(MAX_RECORD_BYTES + 1)
            .unwrap();
        let start = std::time::Instant::now();
        for path in [&zero, &fifo, &huge] {
            let err = read(path).unwrap_err().to_string();
            assert!(
                err.contains("not a regular file") || err.contains("ceiling"),
                "{err}"
            );
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn missing_record_says_how_to_make_one() {
        let err = read(Path::new("/nonexistent/record.json")).unwrap_err();
        assert!(err.to_string().contains("without --check"), "{err}");
    }
}
