//! One model per bug class: the flag a vector carries names the mutant that must fail it. A
//! vector flagged X that mutant X passes would teach a maintainer the wrong bug class.

use bip37_conform::vector_set;
use bip37_harness::implementation::Implementation;
use bip37_harness::mutants::{Bug, Mutant};
use bip37_harness::runner::verdict::judge;
use bip37_harness::runner::State;
use std::time::Duration;

#[test]
fn every_vector_flagged_with_a_bug_class_is_failed_by_its_mutant() {
    let tests = vector_set::load(None).expect("the built-in vectors load");
    let mut passed_by_own_mutant = Vec::new();
    for test in &tests {
        for flag in &test.case.flags {
            let Some(&bug) = Bug::ALL.iter().find(|b| b.flag() == flag) else {
                continue;
            };
            let answer = Mutant { bug }.execute(&test.request);
            if judge(test, answer, Duration::ZERO).state == State::Pass {
                passed_by_own_mutant.push(format!("{} {flag}", test.case.id));
            }
        }
    }
    assert!(
        passed_by_own_mutant.is_empty(),
        "{} (vector, flag) places passed by the flag's own mutant:\n{}",
        passed_by_own_mutant.len(),
        passed_by_own_mutant.join("\n")
    );
}
