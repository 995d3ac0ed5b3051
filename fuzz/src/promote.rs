//! A crash artifact of a target as a ready-to-commit vector file: the artifact's bytes read in
//! the target's layout as a request, the reference's answer as the expected result, and a
//! generated-kind source naming the target and the artifact's SHA-256.

use crate::target;
use bip37_harness::disagreement::vector::{self, Provenance};
use bip37_harness::hex;
use bip37_harness::implementation::Implementation;
use bip37_harness::reference_impl::Reference;
use bip37_reference::sha256::sha256;
use std::fmt;

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
        }
    }
}

impl std::error::Error for PromoteError {}

/// The vector file (JSON text) for `artifact`, a crash input of the target `name`.
pub fn promote(name: &str, artifact: &[u8]) -> Result<String, PromoteError> {
    let target = target(name).ok_or_else(|| PromoteError::UnknownTarget(name.into()))?;
    let layout = target.layout.ok_or(PromoteError::NoLayout(target.name))?;
    let request = layout.request(artifact).ok_or(PromoteError::TooShort)?;
    let answer = Reference.execute(&request);
    let digest = hex::encode(sha256(artifact));
    let provenance = Provenance {
        generator: format!("cargo-fuzz target {name}, promoted by fuzz/examples/promote.rs"),
        targets: format!("crash artifact sha256:{digest} of {name}"),
        slug: format!("{}-{}", name.replace('_', "-"), &digest[..12]),
        comment: format!("crash input of the fuzz target {name}"),
    };
    let file = vector::vector_file(&request, &answer, &provenance, Default::default())
        .ok_or(PromoteError::NoAnswer)?;
    Ok(vector::to_json(&file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bip37_harness::vectors::parse_file;

    #[test]
    fn an_artifact_becomes_a_loadable_vector() {
        // Core's filterload with flags 3: the reference accepts it (flags & 3 is what counts).
        let artifact = [3, 0x61, 0x4e, 0x9b, 5, 0, 0, 0, 0, 0, 0, 0, 3];
        let json = promote("differential_filterload", &artifact).unwrap();
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
