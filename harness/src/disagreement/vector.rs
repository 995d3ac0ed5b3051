//! A finding written as a ready-to-commit vector file: one group of the generated kind naming
//! where the input came from, one test whose expected result is what the suite demands
//! ([`super::policy::expectation`]: `valid` with the reference's output, `invalid` when the
//! reference rejects, `acceptable` with Core's answer on an input of a divergence note), and
//! the flags of the bug classes the diagnosis found, with their notes copied from the suite's
//! vectors.

use crate::implementation::{Answer, Stage};
use crate::ops::{OpName, Output, Request};
use crate::vectors::model::{
    Note, Phase, Source, TestCase, TestGroup, VectorFile, FORMAT_VERSION, SUITE,
};
use serde_json::Value;
use std::collections::BTreeMap;

/// The kind of vectors from fuzzing: their id prefix, and so their file
/// (`vectors/imported/fuzz_test.json`, see [`crate::vectors::imported`]).
pub const FILE_STEM: &str = "fuzz";

/// What the vector says about itself.
#[derive(Debug, Clone)]
pub struct Provenance {
    /// The tool that found the input (e.g. `bip37-conform fuzz --seed 7`).
    pub generator: String,
    /// What the input separates, in words (the disagreement, the target, the artifact hash).
    pub targets: String,
    /// The test's slug: lowercase letters, digits, `.`, `+`, `-`.
    pub slug: String,
    /// The test's comment.
    pub comment: String,
}

/// The phase a test of `op` exercises, refined by the reference's rejection stage.
fn phase(op: OpName, rejected_at: Option<Stage>) -> Phase {
    match rejected_at {
        Some(Stage::Decode) => Phase::Decode,
        Some(Stage::Limits) => Phase::Limits,
        _ => op.phase(),
    }
}

/// Keeps only what a test slug may contain, lowercased.
pub fn slug(text: &str) -> String {
    let cleaned: String = text
        .to_ascii_lowercase()
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '.' | '+' | '-' => c,
            _ => '-',
        })
        .collect();
    cleaned.trim_start_matches(['.', '+', '-']).to_string()
}

/// The vector file for `request`, whose reference answer is `reference` (`None` when the
/// reference has no answer to record, e.g. it does not support the operation). `flags` are
/// the bug classes diagnosed, each with its note.
pub fn vector_file(
    request: &Request,
    reference: &Answer<Output>,
    provenance: &Provenance,
    flags: BTreeMap<String, Note>,
) -> Option<VectorFile> {
    let demand = super::policy::expectation(request, reference)?;
    let rejected_at = match reference {
        Answer::Rejected(r) => r.stage,
        _ => None,
    };
    let (result, expected) = (demand.result, demand.expected.map(|o| o.to_json()));
    let mut flags = flags;
    if let Some(divergence) = demand.divergence {
        flags.extend(suite_note(divergence).map(|note| (divergence.to_string(), note)));
    }
    let Value::Object(input) = request.input_json() else {
        return None;
    };
    let test = TestCase {
        id: format!("{FILE_STEM}/{}", slug(&provenance.slug)),
        comment: provenance.comment.clone(),
        flags: flags.keys().cloned().collect(),
        result,
        phase: phase(request.op(), rejected_at),
        input,
        expected,
    };
    Some(VectorFile {
        suite: SUITE.into(),
        format_version: FORMAT_VERSION,
        schema: "vectors.schema.json".into(),
        number_of_tests: 1,
        header: vec![
            "Inputs found by fuzzing on which an implementation disagreed with the reference."
                .into(),
        ],
        notes: flags,
        test_groups: vec![TestGroup {
            operation: request.op(),
            source: Source::Generated {
                generator: provenance.generator.clone(),
                targets: provenance.targets.clone(),
            },
            comment: String::new(),
            input: Default::default(),
            tests: vec![test],
        }],
    })
}

/// The note the suite's own vectors give `flag`.
fn suite_note(flag: &str) -> Option<Note> {
    let files = crate::vectors::embedded::load().ok()?;
    files
        .into_iter()
        .find_map(|f| f.file.notes.get(flag).cloned())
}

/// The file as the suite formats vector files: the generator's canonical text.
pub use crate::vectors::render as to_json;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::Hex;
    use crate::implementation::Implementation;
    use crate::ops::PayloadInput;
    use crate::reference_impl::Reference;
    use crate::vectors::model::Expectation;
    use crate::vectors::parse_file;

    fn provenance() -> Provenance {
        Provenance {
            generator: "test".into(),
            targets: "a truncated filteradd".into(),
            slug: "Truncated_filteradd".into(),
            comment: "two bytes claimed, one present".into(),
        }
    }

    #[test]
    fn the_file_loads_and_expects_the_reference_answer() {
        let request = Request::FilteraddDecode(PayloadInput {
            payload: Hex(vec![2, 0xaa]),
        });
        let answer = Reference.execute(&request);
        let file = vector_file(&request, &answer, &provenance(), BTreeMap::new()).unwrap();
        let loaded = parse_file("fuzz_test.json", &to_json(&file)).unwrap();
        assert_eq!(loaded.tests.len(), 1);
        assert_eq!(loaded.tests[0].case.id, "fuzz/truncated-filteradd");
        assert_eq!(loaded.tests[0].case.result, Expectation::Invalid);
        assert_eq!(loaded.tests[0].case.phase, Phase::Decode);
        assert_eq!(loaded.tests[0].request, request);
    }
}
