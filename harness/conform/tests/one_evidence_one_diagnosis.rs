//! One evidence, one diagnosis (issue 23): a run of one operation (`--op`) or of one test
//! (`--id`) holds a subset of the whole run's tests with the same answers, so its diagnosis
//! may be less specific (more candidates, or unknown) but never names a class the whole run
//! does not name or list for that failure, and it keeps every class the whole run names
//! without refutation. Checked on the independent model (`tests/independent/bip37_model.py`)
//! for every mistake it defines (`--list`), whatever their number.

use bip37_conform::vector_set;
use bip37_harness::diagnosis::{annotate, Diagnosis};
use bip37_harness::mutants::Bug;
use bip37_harness::runner::{run_tests, RunOptions, TestResult};
use bip37_harness::subprocess::{ClientConfig, Subprocess};
use bip37_harness::vectors::LoadedTest;
use std::collections::BTreeSet;
use std::process::Command;

fn model() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/independent/bip37_model.py"
    )
    .to_string()
}

/// Every mistake the model defines.
fn mistakes() -> Vec<String> {
    let listed = Command::new("python3")
        .args([model().as_str(), "--list"])
        .output()
        .expect("the model lists its mistakes");
    String::from_utf8_lossy(&listed.stdout)
        .lines()
        .filter_map(|l| l.split('\t').next())
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect()
}

fn flags(bugs: &[Bug]) -> Vec<&'static str> {
    bugs.iter().map(|b| b.flag()).collect()
}

/// What is wrong with the narrower run `narrow` (of `results[picked]`) against the whole run's
/// diagnosis `whole`, if anything.
fn compare(
    planted: &str,
    what: &str,
    results: &[TestResult],
    picked: &[usize],
    whole: &Diagnosis,
) -> Vec<String> {
    let mut subset: Vec<TestResult> = picked.iter().map(|&i| results[i].clone()).collect();
    let narrow = annotate(&mut subset);
    let mut problems = Vec::new();
    for &j in &narrow.failures {
        let i = picked[j];
        let id = &results[i].test.case.id;
        let listed: BTreeSet<Bug> = whole
            .named(i)
            .into_iter()
            .chain(whole.candidates(i))
            .collect();
        let stray: Vec<Bug> = (narrow.named(j).into_iter())
            .filter(|b| !listed.contains(b))
            .collect();
        if !stray.is_empty() {
            problems.push(format!(
                "{planted}, {what}: {id} named {:?}, which the whole run does not list ({})",
                flags(&stray),
                whole.of_failure(i)
            ));
        }
        let likely =
            |d: &Diagnosis, k: usize| d.verdicts.get(&k).map_or(Vec::new(), |v| v.likely());
        // A narrower run sees fewer failures, so a class the whole run leaves to the
        // candidates (it explains less of the same evidence) may beside the named one; but
        // it never names only others.
        let kept = likely(&narrow, j);
        let named = likely(whole, i);
        if !kept.is_empty() && !named.is_empty() && !kept.iter().any(|b| named.contains(b)) {
            problems.push(format!(
                "{planted}, {what}: {id} names {:?} ({}), none of what the whole run names ({})",
                flags(&kept),
                narrow.of_failure(j),
                whole.of_failure(i)
            ));
        }
    }
    problems
}

/// Every narrower run of one planted mistake against its whole run.
fn check(planted: &str, tests: &[&LoadedTest]) -> Vec<String> {
    let argv = vec![
        "python3".to_string(),
        model(),
        "--mistake".to_string(),
        planted.to_string(),
    ];
    let mut child = Subprocess::start(ClientConfig::new(argv)).expect("the model starts");
    let run = run_tests(tests, &mut child, &RunOptions::default());
    drop(child);
    let mut results = run.results;
    let whole = annotate(&mut results);
    let ops: BTreeSet<_> = results.iter().map(|r| r.test.request.op()).collect();
    let mut problems = Vec::new();
    for op in ops {
        let picked: Vec<usize> = (0..results.len())
            .filter(|&i| results[i].test.request.op() == op)
            .collect();
        problems.extend(compare(
            planted,
            &format!("--op {op}"),
            &results,
            &picked,
            &whole,
        ));
    }
    for &i in &whole.failures {
        let what = format!("--id {}", results[i].test.case.id);
        problems.extend(compare(planted, &what, &results, &[i], &whole));
    }
    problems
}

#[test]
fn a_narrower_run_never_names_another_class_for_any_planted_mistake() {
    let tests: Vec<LoadedTest> = vector_set::load_files(None)
        .expect("the vectors load")
        .into_iter()
        .flat_map(|f| f.tests)
        .collect();
    let tests: Vec<&LoadedTest> = tests.iter().collect();
    let mistakes = mistakes();
    assert!(mistakes.len() >= 15, "{mistakes:?}");
    let problems: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = mistakes
            .chunks(mistakes.len().div_ceil(4))
            .map(|chunk| {
                let tests = &tests;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .flat_map(|m| check(m, tests))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a checking thread"))
            .collect()
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
