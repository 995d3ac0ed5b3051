//! `Suite::assert_conforms` fails a `cargo test` usefully and by the command line's rules: an
//! implementation with one planted bug (written here, independently of the suite's mutants)
//! fails with the failing test, its first difference and the diagnosis naming the bug; the
//! same code without the bug passes; nothing exercised, an unexpected pass and an unusable
//! expectations file fail too (a missing one is empty: `suite_expectations_file.rs`).

use bip37_harness::implementation::{Answer, Implementation};
use bip37_harness::mutants::Bug;
use bip37_harness::ops::{Murmur3Input, Murmur3Output, OpName};
use bip37_harness::Suite;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// MurmurHash3 x86_32 and nothing else; `reversed_tail` plants the classic mistake of
/// combining the 1 to 3 tail bytes in reverse order.
#[derive(Default)]
struct Murmur {
    reversed_tail: bool,
}

impl Murmur {
    fn hash(&self, seed: u32, data: &[u8]) -> u32 {
        const C1: u32 = 0xcc9e_2d51;
        const C2: u32 = 0x1b87_3593;
        let scramble = |k: u32| k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        let mut h = seed;
        let blocks = data.chunks_exact(4);
        let tail = blocks.remainder();
        for block in blocks {
            let k = u32::from_le_bytes([block[0], block[1], block[2], block[3]]);
            h = (h ^ scramble(k))
                .rotate_left(13)
                .wrapping_mul(5)
                .wrapping_add(0xe654_6b64);
        }
        let mut k = 0u32;
        for (i, &byte) in tail.iter().enumerate() {
            let place = if self.reversed_tail {
                tail.len() - 1 - i
            } else {
                i
            };
            k |= u32::from(byte) << (8 * place);
        }
        if !tail.is_empty() {
            h ^= scramble(k);
        }
        h ^= data.len() as u32;
        h ^= h >> 16;
        h = h.wrapping_mul(0x85eb_ca6b);
        h ^= h >> 13;
        h = h.wrapping_mul(0xc2b2_ae35);
        h ^ (h >> 16)
    }
}

impl Implementation for Murmur {
    fn name(&self) -> String {
        "murmur".into()
    }

    fn operations(&self) -> Vec<OpName> {
        vec![OpName::Murmur3]
    }

    fn murmur3(&mut self, input: &Murmur3Input) -> Answer<Murmur3Output> {
        Answer::Ok(Murmur3Output {
            hash: self.hash(input.seed, &input.data.0),
        })
    }
}

/// The panic message of `suite.assert_conforms()`, or `None` when it passed.
fn failure<I: Implementation>(suite: Suite<I>) -> Option<String> {
    let payload = catch_unwind(AssertUnwindSafe(|| suite.assert_conforms())).err()?;
    Some(match payload.downcast::<String>() {
        Ok(message) => *message,
        Err(payload) => payload.downcast_ref::<&str>().unwrap().to_string(),
    })
}

fn scratch_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("bip37-suite-{name}-{}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_correct_hash_conforms() {
    assert_eq!(failure(Suite::new(Murmur::default())), None);
}

#[test]
fn a_planted_bug_fails_with_the_first_difference_and_the_diagnosis() {
    let planted = Murmur {
        reversed_tail: true,
    };
    let report = failure(Suite::new(planted)).expect("the planted bug fails the test");
    assert!(report.contains("\nwrongValue murmur3/"), "{report}");
    assert!(report.contains("  difference "), "{report}");
    let diagnosis = report
        .lines()
        .find(|line| line.starts_with("  diagnosis "))
        .unwrap_or_else(|| panic!("no diagnosis in {report}"));
    assert!(
        diagnosis.contains(Bug::MurmurTail.explanation()),
        "{diagnosis}"
    );
    assert!(
        report.ends_with("not conformant: 12 failing tests (wrongValue: 12)\n"),
        "{report}"
    );
}

#[test]
fn selection_narrows_the_run_and_nothing_exercised_fails() {
    let planted = || Murmur {
        reversed_tail: true,
    };
    let flagged = failure(Suite::new(planted()).flag("MurmurTail")).expect("tails are checked");
    assert!(flagged.contains("\nwrongValue murmur3/"), "{flagged}");
    assert_eq!(
        failure(
            Suite::new(planted())
                .operation(OpName::Sizing)
                .allow_empty()
        ),
        None
    );
    let none = failure(Suite::new(planted()).id("no-such-test/*"))
        .expect("a run with nothing exercised fails");
    assert!(
        none.contains("--id no-such-test/* matches no test"),
        "{none}"
    );
    assert!(none.contains("not conformant: "), "{none}");
    assert!(!none.contains("some tests fail"), "{none}");
}

#[test]
fn a_listed_failure_that_passes_fails_the_run() {
    let one_test = "murmur3/*";
    let run = Suite::new(Murmur::default()).id(one_test).run().unwrap();
    let id = &run.results[0].test.case.id;
    let expectations = scratch_file(
        "unexpected-pass",
        &format!("[failures.\"{id}\"]\nstate = \"wrongValue\"\nreason = \"planted\"\n"),
    );
    let report = failure(Suite::new(Murmur::default()).expectations(&expectations))
        .expect("an unexpected pass fails");
    assert!(report.contains(&format!("unexpectedPass {id}")), "{report}");
    std::fs::remove_file(expectations).unwrap();
}

#[test]
fn an_unusable_expectations_file_fails_with_its_path() {
    let broken = scratch_file("unusable", "[failures.\"x\"]\nstate = \"pass\"\n");
    let report = failure(Suite::new(Murmur::default()).expectations(&broken))
        .expect("an invalid expectations file fails");
    assert!(
        report.starts_with(&format!(
            "bip37-harness: expectations file {}: ",
            broken.display()
        )),
        "{report}"
    );
    std::fs::remove_file(broken).unwrap();
}
