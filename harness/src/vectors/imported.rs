//! Imported vectors: tests that do not come from the generator (fuzz findings, hand-written
//! regressions). They live in `vectors/imported/<kind>_test.json`, in the same format as the
//! generated files (`schema` names the suite's schema file, which sits in `vectors/`), each
//! group's `generated` source saying where its tests came from. The loader lists them beside
//! the generated files (named `imported/<kind>_test.json`), so the runner, the lint and the
//! embedded copy include them, while `bip37-vectorgen --check` owns only the top level of
//! `vectors/`.
//!
//! [`add`] is how tools put a finding there: it merges the new file's groups into the kind's
//! file (created when missing), keeps `numberOfTests` right, refuses an id that is already used
//! by a different test, checks that the result still loads, re-judges each new test against
//! the reference and the suite's notes as `lint` does (refusing, say, an `invalid` test of
//! trailing bytes Core ignores), and writes it atomically.

use super::load::{parse_file, VectorError};
use super::model::VectorFile;
use super::render;
use std::fmt;
use std::path::{Path, PathBuf};

/// The subdirectory of the vector directory that holds the imported files.
pub const DIR: &str = "imported";

/// The name the suite gives a vector file at `path`: `imported/<file>` for an imported file,
/// the bare file name otherwise.
pub fn name_of(path: &Path) -> String {
    let file = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let parent = path.parent().and_then(Path::file_name);
    if parent.is_some_and(|p| p == DIR) {
        format!("{DIR}/{file}")
    } else {
        file
    }
}

/// Why a finding could not be added.
#[derive(Debug)]
#[non_exhaustive]
pub enum ImportError {
    /// The new file has no test, or its tests' ids do not all start with one `<kind>/`.
    NoKind,
    /// An id is already used by a different test of the kind's file.
    IdTaken(String),
    /// The kind's file, or the merged result, does not load.
    Vector(VectorError),
    /// The existing file is not a vector file.
    Json(serde_json::Error),
    /// Reading or writing failed.
    Io(std::io::Error),
    /// Re-judged against the reference and the suite's notes, a new test is wrong: the id
    /// and why (`lint` would report the same).
    Refused { id: String, why: String },
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::NoKind => {
                f.write_str("the vector has no test, or its ids do not share one `<kind>/` prefix")
            }
            ImportError::IdTaken(id) => write!(f, "id {id} is already used by another test"),
            ImportError::Vector(e) => write!(f, "{e}"),
            ImportError::Json(e) => write!(f, "the imported file is not a vector file: {e}"),
            ImportError::Io(e) => write!(f, "{e}"),
            ImportError::Refused { id, why } => {
                write!(f, "{id} is refused, nothing was written: {why}")
            }
        }
    }
}

impl std::error::Error for ImportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ImportError::Vector(e) => Some(e),
            ImportError::Json(e) => Some(e),
            ImportError::Io(e) => Some(e),
            ImportError::NoKind | ImportError::IdTaken(_) | ImportError::Refused { .. } => None,
        }
    }
}

/// The kind of `file`: the prefix its test ids share (`fuzz` for `fuzz/...`).
fn kind(file: &VectorFile) -> Option<&str> {
    let mut ids = file
        .test_groups
        .iter()
        .flat_map(|g| &g.tests)
        .map(|t| &t.id);
    let first = ids.next()?.split_once('/')?.0;
    let shared = ids.all(|id| id.split_once('/').is_some_and(|(k, _)| k == first));
    shared.then_some(first)
}

/// Merges `new` into `<vectors_dir>/imported/<kind>_test.json` and returns that path. Adding
/// a test that is already there, identical, changes nothing.
pub fn add(vectors_dir: &Path, new: &VectorFile) -> Result<PathBuf, ImportError> {
    let kind = kind(new).ok_or(ImportError::NoKind)?;
    let dir = vectors_dir.join(DIR);
    let path = dir.join(format!("{kind}_test.json"));
    std::fs::create_dir_all(&dir).map_err(ImportError::Io)?;
    // Held from the read to the write: a second import at once waits and merges into this one's.
    let _lock =
        crate::file_lock::lock(&[&path], crate::file_lock::WAIT).map_err(ImportError::Io)?;
    let mut merged = match crate::input_file::read_text(&path, super::load::MAX_FILE_BYTES) {
        Ok(text) => serde_json::from_str::<VectorFile>(&text).map_err(ImportError::Json)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => VectorFile {
            number_of_tests: 0,
            test_groups: Vec::new(),
            notes: Default::default(),
            ..new.clone()
        },
        Err(e) => return Err(ImportError::Io(e)),
    };
    for group in &new.test_groups {
        let mut group = group.clone();
        let existing: Vec<_> = merged.test_groups.iter().flat_map(|g| &g.tests).collect();
        let mut fresh = Vec::new();
        for test in group.tests {
            match existing.iter().find(|t| t.id == test.id) {
                Some(old) if **old == test => {}
                Some(_) => return Err(ImportError::IdTaken(test.id)),
                None => fresh.push(test),
            }
        }
        if !fresh.is_empty() {
            group.tests = fresh;
            merged.test_groups.push(group);
        }
    }
    for (flag, note) in &new.notes {
        merged
            .notes
            .entry(flag.clone())
            .or_insert_with(|| note.clone());
    }
    merged.number_of_tests = merged.test_groups.iter().map(|g| g.tests.len()).sum();
    let text = render(&merged);
    let loaded =
        parse_file(&format!("{DIR}/{kind}_test.json"), &text).map_err(ImportError::Vector)?;
    let new_ids: Vec<&str> = (new.test_groups.iter().flat_map(|g| &g.tests))
        .map(|t| t.id.as_str())
        .collect();
    for test in loaded
        .tests
        .iter()
        .filter(|t| new_ids.contains(&t.case.id.as_str()))
    {
        if let Some(why) = super::lint::rejudge(test) {
            return Err(ImportError::Refused {
                id: test.case.id.clone(),
                why,
            });
        }
    }
    crate::atomic_file::write(&path, text.as_bytes()).map_err(ImportError::Io)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::disagreement::vector::{vector_file, Provenance};
    use crate::hex::Hex;
    use crate::implementation::Implementation;
    use crate::ops::{PayloadInput, Request};
    use crate::reference_impl::Reference;
    use crate::vectors::{lint::lint, load_file, vector_paths};

    fn finding(payload: &[u8], slug: &str) -> VectorFile {
        let request = Request::FilteraddDecode(PayloadInput {
            payload: Hex(payload.to_vec()),
        });
        let provenance = Provenance {
            generator: "imported.rs tests".into(),
            targets: "a filteradd payload".into(),
            slug: slug.into(),
            comment: "a test of the imported home".into(),
        };
        vector_file(
            &request,
            &Reference.execute(&request),
            &provenance,
            Default::default(),
        )
        .unwrap()
    }

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bip37-imported-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn findings_merge_into_one_lint_clean_file_per_kind() {
        let dir = temp_dir("merge");
        let path = add(&dir, &finding(&[2, 0xaa], "truncated")).unwrap();
        assert_eq!(path, dir.join("imported/fuzz_test.json"));
        assert_eq!(add(&dir, &finding(&[2, 0xaa], "truncated")).unwrap(), path);
        add(&dir, &finding(&[1, 0xbb], "one-byte")).unwrap();
        assert_eq!(vector_paths(&dir).unwrap(), vec![path.clone()]);
        let loaded = load_file(&path).unwrap();
        assert_eq!(loaded.name, "imported/fuzz_test.json");
        assert_eq!(loaded.tests.len(), 2);
        assert_eq!(loaded.file.number_of_tests, 2);
        assert_eq!(lint(&[loaded]), Vec::new());
        let clash = add(&dir, &finding(&[1, 0xcc], "one-byte"));
        assert!(matches!(clash, Err(ImportError::IdTaken(id)) if id == "fuzz/one-byte"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_test_contradicting_a_divergence_note_is_refused_and_nothing_is_written() {
        use crate::disagreement::vector::{vector_file, Provenance};
        use crate::vectors::model::Expectation;
        let dir = std::env::temp_dir().join(format!("bip37-refused-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Trailing bytes after a whole filterload: Core's node ignores them, the reference
        // rejects them; a vector saying `invalid` would fail an implementation that is right.
        let request = crate::ops::Request::FilterloadDecode(crate::ops::PayloadInput {
            payload: Hex::parse("03614e9b05000000000000000100").unwrap(),
        });
        let provenance = Provenance {
            generator: "test".into(),
            targets: "trailing bytes".into(),
            slug: "trailing".into(),
            comment: "c".into(),
        };
        let rejection =
            crate::implementation::Answer::reject(crate::implementation::Stage::Decode, "trailing");
        let mut file = vector_file(&request, &rejection, &provenance, Default::default()).unwrap();
        // What the policy writes: acceptable, with Core's answer.
        assert_eq!(file.test_groups[0].tests[0].result, Expectation::Acceptable);
        add(&dir, &file).unwrap();
        // Made to contradict the note, it is refused and the file is left as it was.
        let before = std::fs::read_to_string(dir.join("imported/fuzz_test.json")).unwrap();
        let test = &mut file.test_groups[0].tests[0];
        test.id = "fuzz/trailing-invalid".into();
        test.result = Expectation::Invalid;
        test.expected = None;
        let err = add(&dir, &file).unwrap_err();
        assert!(
            err.to_string().contains("TrailingBytesIgnoredByCore"),
            "{err}"
        );
        let after = std::fs::read_to_string(dir.join("imported/fuzz_test.json")).unwrap();
        assert_eq!(before, after);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
