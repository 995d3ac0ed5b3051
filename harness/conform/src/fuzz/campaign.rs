//! One fuzzing campaign: generate requests from a seed, ask the candidate and the reference,
//! and judge the candidate's answer as `run` would judge it against the vector the request
//! would become ([`policy::expectation`]: the reference's answer, or either answer where the
//! suite tolerates both, such as trailing bytes Core ignores). A finding is an answer `run`
//! would fail: shrunk to a minimal request and diagnosed against the mutants (the bug classes
//! whose mutant answers exactly like the candidate). The campaign stops at the first finding,
//! or with `keep_going` runs its whole budget and keeps one finding per operation and
//! diagnosis.

use super::strategy::{fuzzed, requests};
use bip37_harness::disagreement::compare::{compare, Agreement};
use bip37_harness::disagreement::policy;
use bip37_harness::implementation::{Answer, Implementation};
use bip37_harness::mutants::{self, Bug};
use bip37_harness::ops::{OpName, Output, Request};
use bip37_harness::reference_impl::Reference;
use bip37_harness::runner::verdict::state_of;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What to fuzz and for how long.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Generation stops after this long (shrinking a finding may take a little longer).
    pub duration: Duration,
    /// The same seed, implementation and operations give the same inputs.
    pub seed: u64,
    /// The operations to cover (those the candidate does not claim are left out).
    pub ops: Vec<OpName>,
    /// The most shrink steps, each one request to the candidate.
    pub max_shrink_steps: usize,
    /// The longest time spent shrinking.
    pub max_shrink_time: Duration,
    /// Set by another worker of the same run when it finds a disagreement: generation stops.
    pub stop: Arc<AtomicBool>,
    /// Run the whole budget, keeping one finding per operation and diagnosis, instead of
    /// stopping at the first.
    pub keep_going: bool,
}

impl Settings {
    /// Every fuzzed operation, for `duration`, from `seed`.
    pub fn new(duration: Duration, seed: u64) -> Self {
        Settings {
            duration,
            seed,
            ops: fuzzed(),
            max_shrink_steps: 5_000,
            max_shrink_time: Duration::from_secs(30),
            stop: Arc::default(),
            keep_going: false,
        }
    }
}

/// How far a campaign has got, for a progress display.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    pub elapsed: Duration,
    pub total: Duration,
    pub cases: u64,
}

impl Progress {
    /// Cases per second so far.
    pub fn rate(&self) -> f64 {
        self.cases as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// An answer `run` would fail, shrunk.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The request as generated.
    pub original: Request,
    /// The smallest request found that still disagrees.
    pub request: Request,
    pub reference: Answer<Output>,
    pub candidate: Answer<Output>,
    /// Shrink steps tried.
    pub shrink_steps: usize,
    /// The bug classes whose mutant answers the shrunk request exactly like the candidate.
    pub lookalikes: Vec<Bug>,
}

/// The outcome of a campaign.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Requests generated.
    pub cases: u64,
    /// Of those, requests the hello's capabilities exclude: not sent, as `run` sends no test
    /// outside the claim.
    pub not_claimed: u64,
    pub elapsed: Duration,
    /// The operations covered.
    pub ops: Vec<OpName>,
    /// The findings, in the order found: the first only, or with `keep_going` one per
    /// operation and diagnosis ([`Finding::key`]).
    pub findings: Vec<Finding>,
}

impl Finding {
    /// What tells two findings apart: the operation and the bug classes that answer like it.
    pub fn key(&self) -> (OpName, Vec<Bug>) {
        (self.request.op(), self.lookalikes.clone())
    }
}

/// True when `run` would fail `answer` to `request`, whose reference answer is `reference`:
/// the runner's own judgement against the demand a vector of this request would make. Only
/// claimed requests the capabilities do not exclude are sent, so an `unsupported` answer is
/// an unanswered claim, which `run` fails too. A request the reference has no answer to can
/// be no vector, so it is no finding.
pub fn fails(request: &Request, reference: &Answer<Output>, answer: &Answer<Output>) -> bool {
    policy::expectation(request, reference).is_some_and(|demand| {
        state_of(demand.result, demand.expected.as_ref(), answer).is_failure()
    })
}

/// Why a campaign could not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CampaignError {
    /// None of the requested operations is both fuzzed and claimed by the candidate.
    NothingToFuzz,
    /// proptest could not generate a value (a strategy rejected too often).
    Generation(String),
}

impl std::fmt::Display for CampaignError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CampaignError::NothingToFuzz => {
                f.write_str("the implementation claims none of the fuzzed operations")
            }
            CampaignError::Generation(e) => write!(f, "input generation failed: {e}"),
        }
    }
}

impl std::error::Error for CampaignError {}

/// The deterministic generator for `seed`.
fn runner(seed: u64) -> TestRunner {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &key),
    )
}

/// Fuzzes `candidate` against the reference; `on_progress` is called about five times a second.
pub fn fuzz(
    candidate: &mut dyn Implementation,
    settings: &Settings,
    on_progress: &mut dyn FnMut(&Progress),
) -> Result<Summary, CampaignError> {
    let claimed = candidate.operations();
    let capabilities = candidate.capabilities();
    let fuzzed = fuzzed();
    let ops: Vec<OpName> = (settings.ops.iter().copied())
        .filter(|op| claimed.contains(op) && fuzzed.contains(op))
        .collect();
    let strategy = requests(&ops).ok_or(CampaignError::NothingToFuzz)?;
    let mut runner = runner(settings.seed);
    let start = Instant::now();
    let mut last_report = start;
    let (mut cases, mut not_claimed) = (0u64, 0u64);
    let mut findings: Vec<Finding> = Vec::new();
    while start.elapsed() < settings.duration && !settings.stop.load(Ordering::Relaxed) {
        let mut tree = strategy
            .new_tree(&mut runner)
            .map_err(|e| CampaignError::Generation(e.to_string()))?;
        let request = tree.current();
        cases += 1;
        if capabilities.excludes(&request).is_some() {
            not_claimed += 1;
            continue;
        }
        let reference = Reference.execute(&request);
        let answer = candidate.execute(&request);
        if fails(&request, &reference, &answer) {
            // A kind already found is not shrunk again: its lookalikes, unshrunk, say so.
            let key = (request.op(), lookalikes(&request, &reference, &answer));
            if !findings.iter().any(|f| f.key() == key) {
                let found = shrink(candidate, &mut *tree, request, reference, answer, settings);
                if !findings.iter().any(|f| f.key() == found.key()) {
                    findings.push(found);
                }
            }
            if !settings.keep_going {
                break;
            }
        }
        if last_report.elapsed() >= Duration::from_millis(200) {
            last_report = Instant::now();
            on_progress(&Progress {
                elapsed: start.elapsed(),
                total: settings.duration,
                cases,
            });
        }
    }
    Ok(Summary {
        cases,
        not_claimed,
        elapsed: start.elapsed(),
        ops,
        findings,
    })
}

/// Shrinks a finding the way proptest does: simplify while it still disagrees, step back
/// (complicate) when it stops disagreeing, until neither moves or the budget is spent. Only
/// requests of the original operation count as still disagreeing.
/// Sends `request`; when `run` would fail the answer, it becomes `best` and this is true.
fn fails_now(
    candidate: &mut dyn Implementation,
    request: &Request,
    best: &mut (Request, Answer<Output>, Answer<Output>),
) -> bool {
    let reference = Reference.execute(request);
    let answer = candidate.execute(request);
    let failing = fails(request, &reference, &answer);
    if failing {
        *best = (request.clone(), reference, answer);
    }
    failing
}

fn shrink(
    candidate: &mut dyn Implementation,
    tree: &mut dyn ValueTree<Value = Request>,
    original: Request,
    reference: Answer<Output>,
    answer: Answer<Output>,
    settings: &Settings,
) -> Finding {
    let start = Instant::now();
    let mut best = (original.clone(), reference, answer);
    let mut steps = 0;
    let mut moved = tree.simplify();
    while moved && steps < settings.max_shrink_steps && start.elapsed() < settings.max_shrink_time {
        steps += 1;
        let request = tree.current();
        // Shrinking a union may switch to another operation (another finding), or to an
        // input outside the claim (never sent).
        let sent =
            request.op() == original.op() && candidate.capabilities().excludes(&request).is_none();
        moved = if sent && fails_now(candidate, &request, &mut best) {
            tree.simplify()
        } else {
            tree.complicate()
        };
    }
    let (request, reference, candidate_answer) = best;
    let lookalikes = lookalikes(&request, &reference, &candidate_answer);
    Finding {
        original,
        request,
        reference,
        candidate: candidate_answer,
        shrink_steps: steps,
        lookalikes,
    }
}

/// The bug classes whose mutant disagrees with the reference on `request` exactly as the
/// candidate does.
pub fn lookalikes(
    request: &Request,
    reference: &Answer<Output>,
    candidate: &Answer<Output>,
) -> Vec<Bug> {
    mutants::all()
        .into_iter()
        .filter_map(|mut mutant| {
            let answer = mutant.execute(request);
            let differs = compare(reference, &answer) == Agreement::Disagrees;
            (differs && compare(candidate, &answer) == Agreement::Agrees).then_some(mutant.bug)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bip37_harness::mutants::by_name;

    fn quick(seed: u64) -> Settings {
        Settings::new(Duration::from_secs(20), seed)
    }

    #[test]
    fn the_reference_agrees_with_itself() {
        let settings = Settings {
            duration: Duration::from_millis(300),
            ..quick(1)
        };
        let summary = fuzz(&mut Reference, &settings, &mut |_| {}).unwrap();
        assert!(summary.findings.is_empty());
        assert!(summary.cases > 10, "{} cases", summary.cases);
    }

    #[test]
    fn a_planted_bug_is_found_shrunk_and_diagnosed() {
        let mut mutant = by_name("big-endian-blocks").unwrap();
        let settings = Settings {
            ops: vec![OpName::Murmur3],
            ..quick(7)
        };
        let summary = fuzz(&mut mutant, &settings, &mut |_| {}).unwrap();
        let finding = summary.findings.first().expect("the planted bug is found");
        let Request::Murmur3(input) = &finding.request else {
            panic!("{:?}", finding.request);
        };
        // Big-endian blocks differ from little-endian only once there is a whole block.
        assert_eq!(input.data.len(), 4, "not shrunk: {input:?}");
        assert!(finding.lookalikes.contains(&Bug::BigEndianBlocks));
    }

    #[test]
    fn the_same_seed_gives_the_same_inputs() {
        let mut mutant = by_name("no-element-size-limit").unwrap();
        let settings = Settings {
            ops: vec![OpName::FilteraddAccept],
            ..quick(3)
        };
        let first = fuzz(&mut mutant, &settings, &mut |_| {}).unwrap();
        let second = fuzz(&mut mutant, &settings, &mut |_| {}).unwrap();
        let (a, b) = (&first.findings[0], &second.findings[0]);
        assert_eq!(a.original, b.original);
        assert_eq!(a.request, b.request);
    }
}
