//! `bip37-conform fuzz --impl "<command>" --time 60s [--seed N] [--jobs N]`: runs campaigns
//! ([`super::workers`]) against an implementation, shows progress on stderr
//! ([`crate::progress`]), and on the first disagreement prints the diagnosis to stderr and the
//! shrunk input as a ready-to-commit vector file on stdout, or with `--import-into VECTORS`
//! merges it into `VECTORS/imported/fuzz_test.json` ([`bip37_harness::vectors::imported`]).
//!
//! Exit codes are the suite's: 0 no disagreement, 1 a disagreement, 2 a usage or harness
//! error, 3 the implementation could not be started (crashed or timed out), 5 nothing was
//! exercised (the hello's capabilities exclude every case).

use super::campaign::{Finding, Settings};
use super::workers::{self, Failure, Outcome};
use crate::exit;
use crate::options::{parse_duration, parse_op, TargetArgs};
use bip37_harness::disagreement::policy;
use bip37_harness::disagreement::vector::{self, Provenance};
use bip37_harness::implementation::Answer;
use bip37_harness::ops::{OpName, Output};
use bip37_harness::subprocess::ClientConfig;
use bip37_harness::vectors::{imported, Note};
use clap::Args;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Arguments of `bip37-conform fuzz`.
#[derive(Debug, Args)]
pub struct FuzzArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// How long to generate inputs (e.g. 60s, 5m).
    #[arg(long, value_parser = parse_duration, default_value = "60s")]
    pub time: Duration,
    /// The generator seed: the same seed gives the same inputs. Random when absent.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Only fuzz this operation (its wire name); repeatable.
    #[arg(long = "op", value_name = "OPERATION", value_parser = parse_op)]
    pub ops: Vec<OpName>,
    /// The longest wait for one answer of a subprocess.
    #[arg(long, value_parser = parse_duration, default_value = "5s")]
    pub timeout: Duration,
    /// Workers, each with its own implementation process and seed (--seed, --seed + 1, ...);
    /// the first finding stops them all. One per core uses the machine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// Run the whole --time budget and report every distinct finding (one per operation and
    /// diagnosis, each shrunk) instead of stopping at the first.
    #[arg(long)]
    pub keep_going: bool,
    /// Merge the findings' vectors into DIR/imported/fuzz_test.json (DIR is a vector directory,
    /// e.g. a checkout's `vectors`) instead of printing them.
    #[arg(long, value_name = "DIR")]
    pub import_into: Option<PathBuf>,
}

/// Runs the subcommand; returns the exit code.
pub fn run(args: &FuzzArgs) -> u8 {
    if let Some(dir) = &args.import_into {
        if let Err(code) = check_import_dir(dir) {
            return code;
        }
    }
    let config = |argv| ClientConfig {
        request_timeout: args.timeout,
        ..ClientConfig::new(argv)
    };
    let seed = args.seed.unwrap_or_else(random_seed);
    let mut settings = Settings::new(args.time, seed);
    if !args.ops.is_empty() {
        settings.ops = args.ops.clone();
    }
    settings.keep_going = args.keep_going;
    let jobs = usize::from(args.jobs);
    let seeds = match jobs {
        1 => format!("--seed {seed}"),
        _ => format!(
            "{jobs} workers, seeds {seed} to {}",
            seed.wrapping_add(jobs as u64 - 1)
        ),
    };
    bip37_harness::say!(
        "fuzzing against the reference for {:?} ({seeds})",
        args.time
    );
    let outcome = match workers::run(&args.target, &config, &settings, jobs) {
        Ok(outcome) => outcome,
        Err(Failure::Start(code, message)) => {
            bip37_harness::say!("bip37-conform fuzz: {message}");
            return code;
        }
        Err(Failure::Campaign(e)) => {
            bip37_harness::say!("bip37-conform fuzz: {e}");
            return exit::HARNESS_ERROR;
        }
    };
    report(&outcome, args.import_into.as_deref())
}

/// The vector files already in `--import-into DIR` go through the one load-and-lint step
/// before any fuzzing (exit code 4 for a broken one, a FIFO or a link to a device included), so
/// a finding is never merged into a directory `run` would refuse. A directory without vector
/// files (a new one) is fine: the import creates its file.
fn check_import_dir(dir: &Path) -> Result<(), u8> {
    if !dir.exists() {
        return Ok(());
    }
    let paths = bip37_harness::vectors::vector_paths(dir).map_err(|e| {
        bip37_harness::say!(
            "bip37-conform fuzz: --import-into {}: {}",
            dir.display(),
            e.message
        );
        exit::HARNESS_ERROR
    })?;
    crate::vector_set::checked_or_exit(dir, &paths).map(drop)
}

/// A seed from the clock, printed so the run can be repeated.
fn random_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map(|d| d.as_nanos() as u64).unwrap_or(0)
}

fn describe(answer: &Answer<Output>) -> String {
    match answer {
        Answer::Ok(output) => format!("ok {}", output.to_json()),
        Answer::Rejected(r) => match r.stage {
            Some(stage) => format!("rejected at {stage}: {}", r.message),
            None => format!("rejected: {}", r.message),
        },
        Answer::Unsupported => "unsupported".into(),
        Answer::Wide(wide) => format!("ok {} ({wide})", wide.output),
        Answer::Fault(fault) => fault.to_string(),
    }
}

fn report(outcome: &Outcome, import_into: Option<&Path>) -> u8 {
    // The adapter's own name, escaped as the human report escapes it.
    let name = bip37_harness::report::escape::control(&outcome.name).into_owned();
    let workers = &outcome.workers;
    let cases: u64 = workers.iter().map(|w| w.summary.cases).sum();
    let not_claimed: u64 = workers.iter().map(|w| w.summary.not_claimed).sum();
    let elapsed = (workers.iter().map(|w| w.summary.elapsed).max()).unwrap_or_default();
    let ops: Vec<&str> = workers[0]
        .summary
        .ops
        .iter()
        .map(|op| op.as_str())
        .collect();
    bip37_harness::say!(
        "{name}: {cases} cases in {:.1}s, {:.0} cases/s ({not_claimed} outside the hello's capabilities, not sent) over {}",
        elapsed.as_secs_f64(),
        cases as f64 / elapsed.as_secs_f64().max(1e-9),
        ops.join(", ")
    );
    if not_claimed == cases {
        bip37_harness::say!(
            "nothing was exercised: the hello's capabilities exclude all {cases} cases"
        );
        return exit::NOTHING_EXERCISED;
    }
    // The first worker's findings first, then the others', one per operation and diagnosis.
    let order = outcome
        .first_finding
        .into_iter()
        .chain((0..workers.len()).filter(|&i| Some(i) != outcome.first_finding));
    let mut findings: Vec<(u64, &Finding)> = Vec::new();
    for worker in order.map(|i| &workers[i]) {
        for finding in &worker.summary.findings {
            if !findings.iter().any(|(_, f)| f.key() == finding.key()) {
                findings.push((worker.seed, finding));
            }
        }
    }
    if findings.is_empty() {
        bip37_harness::say!("no answer the suite would fail: no finding");
        return exit::CONFORMANT;
    }
    if findings.len() > 1 {
        bip37_harness::say!("{} distinct findings:", findings.len());
    }
    let mut files = Vec::new();
    for (seed, finding) in &findings {
        print_finding(finding, &name);
        match finding_vector(finding, &name, *seed) {
            Some(file) => files.push(file),
            None => bip37_harness::say!("(the reference has no answer to record as a vector)"),
        }
    }
    for file in files {
        match import_into {
            None => crate::output::print(&vector::to_json(&file)),
            Some(dir) => match imported::add(dir, &file) {
                Ok(path) => bip37_harness::say!("the finding's vector is in {}", path.display()),
                Err(e) => {
                    bip37_harness::say!(
                        "bip37-conform fuzz: cannot import into {}: {e}",
                        dir.display()
                    );
                    return match e {
                        imported::ImportError::Vector(_) | imported::ImportError::Json(_) => {
                            exit::INVALID_VECTORS
                        }
                        _ => exit::HARNESS_ERROR,
                    };
                }
            },
        }
    }
    exit::FAILURES
}

/// The vector of `finding`, found by worker `seed` fuzzing `name`.
fn finding_vector(
    finding: &Finding,
    name: &str,
    seed: u64,
) -> Option<bip37_harness::vectors::VectorFile> {
    let provenance = Provenance {
        generator: format!("bip37-conform fuzz --seed {seed}"),
        targets: format!(
            "{name} gave an answer the suite fails ({})",
            describe(&finding.candidate)
        ),
        slug: format!(
            "{}-{}-seed-{seed}",
            finding.request.op(),
            finding
                .lookalikes
                .first()
                .map_or("unclassified", |b| b.name())
        ),
        comment: format!(
            "found by fuzzing {name}, shrunk in {} steps",
            finding.shrink_steps
        ),
    };
    let mut flags: Vec<&str> = finding.lookalikes.iter().map(|b| b.flag()).collect();
    let demand = policy::expectation(&finding.request, &finding.reference);
    flags.extend(demand.and_then(|d| d.divergence));
    vector::vector_file(
        &finding.request,
        &finding.reference,
        &provenance,
        notes_of(&flags),
    )
}

/// The longest value a finding shows on stderr; the vector file (stdout or `--import-into`)
/// keeps it whole.
const SHOWN: usize = 240;

/// `text` cut to about [`SHOWN`] characters, its start and end kept, with its whole length.
fn shorten(text: &str) -> String {
    let total = text.chars().count();
    if total <= SHOWN {
        return text.to_string();
    }
    let head: String = text.chars().take(SHOWN - 40).collect();
    let tail: String = text.chars().skip(total - 40).collect();
    format!("{head}...{tail} ({total} characters; whole in the vector file)")
}

fn print_finding(finding: &Finding, name: &str) {
    for line in finding_lines(finding, name) {
        bip37_harness::say!("{line}");
    }
}

/// What stderr shows of a finding: its signature, the shrunk input and both answers, each
/// shortened, and the bug classes whose mutants answer alike.
fn finding_lines(finding: &Finding, name: &str) -> Vec<String> {
    let op = finding.request.op();
    let class = finding
        .lookalikes
        .first()
        .map_or("unclassified", |b| b.name());
    // The name without its version, so the signature groups findings across releases.
    let short = name.split_whitespace().next().unwrap_or(name);
    let mut lines = vec![
        format!("MISMATCH reference-{short}-{op}-{class}"),
        format!(
            "input:     {}",
            shorten(&finding.request.input_json().to_string())
        ),
        format!("reference: {}", shorten(&describe(&finding.reference))),
        format!("{name}: {}", shorten(&describe(&finding.candidate))),
        format!(
            "shrunk in {} steps from {}",
            finding.shrink_steps,
            shorten(&finding.original.input_json().to_string())
        ),
    ];
    for bug in &finding.lookalikes {
        lines.push(format!(
            "likely bug: {} ({}): {}",
            bug.name(),
            bug.flag(),
            bug.explanation()
        ));
    }
    lines
}

fn notes_of(flags: &[&str]) -> BTreeMap<String, Note> {
    let mut notes = BTreeMap::new();
    for file in crate::vector_set::load_files(None).unwrap_or_default() {
        for (flag, note) in file.file.notes {
            if flags.contains(&flag.as_str()) {
                notes.insert(flag, note);
            }
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(builtin: &str, time: Duration, ops: Vec<OpName>) -> FuzzArgs {
        FuzzArgs {
            target: TargetArgs {
                command: None,
                builtin: Some(builtin.into()),
            },
            time,
            seed: Some(1),
            ops,
            timeout: Duration::from_secs(5),
            jobs: 1,
            keep_going: false,
            import_into: None,
        }
    }

    #[test]
    fn long_values_are_shortened_on_screen_and_whole_in_the_vector() {
        use bip37_harness::ops::{Hex, Murmur3Input, Murmur3Output, Request};
        let long = Request::Murmur3(Murmur3Input {
            seed: 0,
            data: Hex(vec![0xab; 1024]),
        });
        let finding = Finding {
            original: long.clone(),
            request: long.clone(),
            reference: Answer::Ok(Output::Murmur3(Murmur3Output { hash: 1 })),
            candidate: Answer::Ok(Output::Murmur3(Murmur3Output { hash: 2 })),
            shrink_steps: 3,
            lookalikes: vec![],
        };
        let lines = finding_lines(&finding, "lib 1.0");
        for line in &lines {
            assert!(line.chars().count() < SHOWN + 100, "{line}");
        }
        assert!(
            lines[1].contains("(2068 characters; whole in the vector file)"),
            "{}",
            lines[1]
        );
        let provenance = Provenance {
            generator: "test".into(),
            targets: "test".into(),
            slug: "murmur3-seed-1".into(),
            comment: "test".into(),
        };
        let file = vector::vector_file(&long, &finding.reference, &provenance, BTreeMap::new())
            .expect("a vector");
        assert!(vector::to_json(&file).contains(&"ab".repeat(1024)));
    }

    #[test]
    fn exit_codes_say_whether_a_disagreement_was_found() {
        let quick = Duration::from_millis(200);
        assert_eq!(run(&args("reference", quick, vec![])), exit::CONFORMANT);
        let mutant = "mutant:truncation-not-detected";
        let found = run(&args(
            mutant,
            Duration::from_secs(20),
            vec![OpName::FilteraddDecode],
        ));
        assert_eq!(found, exit::FAILURES);
        assert_eq!(run(&args("no-such", quick, vec![])), exit::HARNESS_ERROR);
        let unfuzzed = args("reference", quick, vec![OpName::Sequence]);
        assert_eq!(run(&unfuzzed), exit::HARNESS_ERROR);
    }

    #[test]
    fn a_finding_is_imported_beside_the_vectors_and_lints_clean() {
        use bip37_harness::vectors::{lint::lint, load_file, vector_paths};
        let dir = std::env::temp_dir().join(format!("bip37-fuzz-import-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut fuzz = args(
            "mutant:truncation-not-detected",
            Duration::from_secs(20),
            vec![OpName::FilteraddDecode],
        );
        fuzz.import_into = Some(dir.clone());
        assert_eq!(run(&fuzz), exit::FAILURES);
        let paths = vector_paths(&dir).unwrap();
        assert_eq!(paths, vec![dir.join("imported/fuzz_test.json")]);
        let file = load_file(&paths[0]).unwrap();
        assert_eq!(file.tests.len(), 1);
        assert!(file.tests[0].case.id.starts_with("fuzz/filteradddecode-"));
        assert_eq!(lint(&[file]), Vec::new());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
