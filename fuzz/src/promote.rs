//! A crash artifact of a target as a vector: the artifact's bytes read in the target's layout
//! as a request, the reference's answer as the expected result, and a generated-kind source
//! naming the target and the artifact's SHA-256. [`promote_into`] is the documented
//! crash-to-vector path (fuzz/README.md): it merges the vector into
//! `vectors/imported/fuzz_test.json`, the imported vectors' home, so `cargo test` stays green.

use crate::{target, CORE_TARGET_NAMES};
use bip37_harness::disagreement::vector::{self, Provenance};
use bip37_harness::hex;
use bip37_harness::implementation::Answer;
use bip37_harness::implementation::Implementation;
use bip37_harness::ops::{Output, Request};
use bip37_harness::reference_impl::Reference;
use bip37_harness::vectors::checked::load_and_lint;
use bip37_harness::vectors::{imported, vector_paths, VectorFile};
use bip37_reference::sha256::sha256;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why an artifact cannot become a vector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromoteError {
    /// No target has this name.
    UnknownTarget(String),
    /// The target's input is not one request of the suite (e.g. an `arbitrary` structure).
    NoLayout(&'static str),
    /// The bytes are too short for the target's layout (the target ignores them too).
    TooShort,
    /// The reference gives no answer to record.
    NoAnswer,
    /// The artifact cannot be read.
    Read(String),
    /// The vector directory does not pass the suite's load-and-lint step (each problem, one a
    /// line): nothing is merged into a directory `bip37-conform run` refuses.
    InvalidVectors(String),
    /// The vector cannot be merged into the imported file.
    Import(String),
}

impl fmt::Display for PromoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PromoteError::UnknownTarget(name) => write!(f, "no fuzz target {name:?}"),
            PromoteError::NoLayout(name) => write!(
                f,
                "the input of {name} is not a request of the suite; write the vector by hand"
            ),
            PromoteError::TooShort => f.write_str("the artifact is too short for the target"),
            PromoteError::NoAnswer => f.write_str("the reference has no answer to record"),
            PromoteError::Read(e) => write!(f, "cannot read the artifact: {e}"),
            PromoteError::InvalidVectors(problems) => write!(f, "invalid vectors: {problems}"),
            PromoteError::Import(e) => write!(f, "cannot import the vector: {e}"),
        }
    }
}

impl std::error::Error for PromoteError {}

/// The vector file for `artifact`, a crash input of the target `name`.
///
/// The expected answer is the reference's, except for a Core target (`core_*`, a build with
/// the `core` feature): there it is Bitcoin Core's, the truth the reference differed from, so
/// the vector fails the reference until the reference is fixed.
pub fn promote(name: &str, artifact: &[u8]) -> Result<VectorFile, PromoteError> {
    let target = target(name).ok_or_else(|| match CORE_TARGET_NAMES.contains(&name) {
        true => {
            PromoteError::UnknownTarget(format!("{name} (a Core target: needs --features core)"))
        }
        false => PromoteError::UnknownTarget(name.into()),
    })?;
    let layout = target.layout.ok_or(PromoteError::NoLayout(target.name))?;
    let request = layout.request(artifact).ok_or(PromoteError::TooShort)?;
    let answer = expected_answer(name, &request);
    let digest = hex::encode(sha256(artifact));
    let provenance = Provenance {
        generator: format!("cargo-fuzz target {name}, promoted by fuzz/examples/promote.rs"),
        targets: format!("crash artifact sha256:{digest} of {name}"),
        slug: format!("{}-{}", name.replace('_', "-"), &digest[..12]),
        comment: format!("crash input of the fuzz target {name}"),
    };
    vector::vector_file(&request, &answer, &provenance, Default::default())
        .ok_or(PromoteError::NoAnswer)
}

/// The answer a promoted vector records: Core's for a Core target, else the reference's.
fn expected_answer(name: &str, request: &Request) -> Answer<Output> {
    #[cfg(feature = "core")]
    if name.starts_with("core_") {
        return crate::core::core_answer(request);
    }
    let _ = name;
    Reference.execute(request)
}

/// The repository's vector directory, where the documented path writes.
pub fn repository_vectors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
}

/// The artifact file at `artifact`, a crash input of the target `name`, promoted and merged
/// into `<vectors_dir>/imported/fuzz_test.json`; returns that file's path.
pub fn promote_into(
    name: &str,
    artifact: &Path,
    vectors_dir: &Path,
) -> Result<PathBuf, PromoteError> {
    let bytes = std::fs::read(artifact)
        .map_err(|e| PromoteError::Read(format!("{}: {e}", artifact.display())))?;
    let file = promote(name, &bytes)?;
    let paths = vector_paths(vectors_dir).map_err(|e| PromoteError::Import(e.to_string()))?;
    load_and_lint(&paths).map_err(|problems| {
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        PromoteError::InvalidVectors(lines.join("\n"))
    })?;
    imported::add(vectors_dir, &file).map_err(|e| PromoteError::Import(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bip37_harness::vectors::parse_file;

    #[test]
    fn an_artifact_becomes_a_loadable_vector() {
        // Core's filterload with flags 3: the reference accepts it (flags & 3 is what counts).
        let artifact = [3, 0x61, 0x4e, 0x9b, 5, 0, 0, 0, 0, 0, 0, 0, 3];
        let file = promote("differential_filterload", &artifact).unwrap();
        let json = vector::to_json(&file);
        let loaded = parse_file("fuzz_test.json", &json).unwrap();
        let case = &loaded.tests[0].case;
        assert!(
            case.id.starts_with("fuzz/differential-filterload-"),
            "{}",
            case.id
        );
        assert!(json.contains("sha256:"));
        assert_eq!(
            promote("invariants_filter", &artifact),
            Err(PromoteError::NoLayout("invariants_filter"))
        );
        assert_eq!(
            promote("differential_murmur3", &[1]),
            Err(PromoteError::TooShort)
        );
    }
}
