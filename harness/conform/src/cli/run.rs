//! `bip37-conform run`: load and select the vectors, start the implementation, run, apply the
//! expectations file, write the report and turn the verdict into an exit code.

use super::args::RunArgs;
use crate::delivery::{deliver, exit_code, load_expectations, lock_expectations};
use crate::progress::Progress;
use crate::target::start;
use crate::{exit, output, plan, vector_set};
use bip37_harness::atomic_file::refuse_overwriting;
use bip37_harness::report::Format;
use bip37_harness::runner::{run_tests_observed, State};
use bip37_harness::suite::conclude;
use std::collections::HashSet;

/// Runs `bip37-conform run` and returns its exit code.
pub fn run(args: &RunArgs) -> u8 {
    let tests = match vector_set::load_or_exit(args.vectors.vectors.as_deref()) {
        Ok(tests) => tests,
        Err(code) => return code,
    };
    let selected = args.select.selection().apply(&tests);
    if args.list {
        output::print(&plan::render(&selected, tests.len()));
        return exit::CONFORMANT;
    }
    if let Err(message) = refuse_output_over_inputs(args) {
        return harness_error(&message);
    }
    let lock = match lock_expectations(args.expectations.as_deref(), args.update_expectations) {
        Ok(lock) => lock,
        Err(code) => return code,
    };
    let expectations =
        match load_expectations(args.expectations.as_deref(), args.update_expectations) {
            Ok(e) => e,
            Err(code) => return code,
        };
    let mut implementation = match start(&args.target, |argv| args.timeouts.client_config(argv)) {
        Ok(implementation) => implementation,
        Err((code, message)) => {
            bip37_harness::say!("bip37-conform: {message}");
            return code;
        }
    };
    let mut progress = Progress::new(&implementation.name(), selected.len() as u64, "tests");
    let raw = run_tests_observed(
        &selected,
        implementation.as_mut(),
        &args.timeouts.run_options(),
        &mut |done| progress.set(done as u64),
    );
    progress.finish();
    drop(implementation);
    let known: HashSet<&str> = tests.iter().map(|t| t.case.id.as_str()).collect();
    if let (Some(path), true) = (&args.expectations, args.update_expectations) {
        let updated = expectations.updated(&raw, &known, args.record_crashes);
        let existed = path.symlink_metadata().is_ok();
        if let Err(e) = bip37_harness::atomic_file::write(path, updated.to_toml().as_bytes()) {
            let kept = match existed {
                true => "the file keeps its previous contents",
                false => "no file was created",
            };
            return harness_error(&format!(
                "the expectations were NOT updated: cannot write {}: {e}; {kept}, without the \
                 {} expected failures of this run",
                path.display(),
                updated.failures.len()
            ));
        }
        let left_out = raw
            .results
            .iter()
            .filter(|r| matches!(r.state, State::Crash | State::Timeout))
            .count();
        let to_fill = updated
            .failures
            .values()
            .filter(|entry| !entry.has_reason())
            .count();
        bip37_harness::say!(
            "bip37-conform: wrote {} expected failures to {}{}{}; this run is judged against the \
             file as it was before",
            updated.failures.len(),
            path.display(),
            match (args.record_crashes, left_out) {
                (false, n) if n > 0 =>
                    format!(" ({n} crashes and timeouts left out: --record-crashes lists them)"),
                _ => String::new(),
            },
            match to_fill {
                0 => String::new(),
                n => format!(
                    " ({n} claimed tests answered `unsupported`: each excuses nothing until its \
                     \"{}\" reason says why)",
                    bip37_harness::expectations::FILL_IN
                ),
            }
        );
    }
    drop(lock);
    let mut run = raw;
    run.allow_empty = args.allow_empty;
    conclude(&mut run, &tests, &args.select.selection(), &expectations);
    if let Err(code) = deliver(&run, &args.report) {
        return code;
    }
    if let (Some(builtin), Format::Human) = (&args.target.builtin, args.report.format) {
        bip37_harness::say!("{}", next_step(builtin, run.results.len()));
    }
    exit_code(&run)
}

/// Refuses an `--output` or `--report` file that names a file the run reads (the expectations
/// file or a vector file): the report would replace it.
fn refuse_output_over_inputs(args: &RunArgs) -> Result<(), String> {
    let vector_files = vector_set::input_paths(args.vectors.vectors.as_deref());
    args.report.files().try_for_each(|output| {
        refuse_overwriting(output, args.expectations.iter().chain(&vector_files))
            .map_err(|e| e.to_string())
    })
}

/// What a run of a built-in implementation was, and how to run one's own.
fn next_step(builtin: &str, tests: usize) -> String {
    let what = match builtin {
        "reference" => "the built-in reference (bip37-reference, the Bitcoin Core-exact \
                        implementation of this repository): the suite checking itself"
            .to_string(),
        mutant => format!(
            "the built-in {mutant}, the reference with one planted mistake \
             (`bip37-conform mutants` shows every mutant and the vectors that catch it)"
        ),
    };
    format!(
        "bip37-conform: that ran {tests} vectors against {what}.\n\
         Next: test your own implementation through an adapter that speaks the subprocess \
         protocol (docs/PROTOCOL.md; start from adapters/template.py):\n  \
         bip37-conform run --impl \"python3 my_adapter.py\""
    )
}

fn harness_error(message: &str) -> u8 {
    bip37_harness::say!("bip37-conform: {message}");
    exit::HARNESS_ERROR
}
