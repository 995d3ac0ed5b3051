//! Several campaigns at once (`bip37-conform fuzz --jobs N`): worker `i` starts its own
//! implementation and generates from seed `seed + i`; the first worker to find a failing answer
//! stops the others (unless `keep_going`), which end at their next generated case, and its
//! finding is the run's.
//! A worker's finding is reproduced alone with `--jobs 1 --seed <its seed>`.

use super::campaign::{self, CampaignError, Settings, Summary};
use crate::options::TargetArgs;
use crate::progress::Progress;
use bip37_harness::subprocess::ClientConfig;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// What one worker did.
#[derive(Debug)]
pub struct Worker {
    /// The seed it generated from.
    pub seed: u64,
    pub summary: Summary,
}

/// The outcome of a run of workers.
#[derive(Debug)]
pub struct Outcome {
    /// The implementation's name (from the first worker).
    pub name: String,
    /// Every worker, in worker order.
    pub workers: Vec<Worker>,
    /// The worker whose finding came first, if any found one.
    pub first_finding: Option<usize>,
}

/// Why a run of workers could not run.
#[derive(Debug)]
pub enum Failure {
    /// A worker's implementation could not be started: the exit code and the message.
    Start(u8, String),
    Campaign(CampaignError),
}

/// Runs `jobs` campaigns of `settings` (worker `i` from seed `settings.seed + i`) against
/// implementations started from `target` with `config`, showing the total progress.
pub fn run(
    target: &TargetArgs,
    config: &(dyn Fn(Vec<String>) -> ClientConfig + Sync),
    settings: &Settings,
    jobs: usize,
) -> Result<Outcome, Failure> {
    let cases: Vec<AtomicU64> = (0..jobs).map(|_| AtomicU64::new(0)).collect();
    let first = AtomicUsize::new(usize::MAX);
    let began = Instant::now();
    let results = thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|i| {
                let (cases, first) = (&cases[i], &first);
                scope.spawn(move || {
                    let worker_settings = Settings {
                        seed: settings.seed.wrapping_add(i as u64),
                        ..settings.clone()
                    };
                    let mut candidate = crate::target::start(target, config).map_err(|e| {
                        settings.stop.store(true, Ordering::Relaxed);
                        Failure::Start(e.0, e.1)
                    })?;
                    let summary = campaign::fuzz(candidate.as_mut(), &worker_settings, &mut |p| {
                        cases.store(p.cases, Ordering::Relaxed)
                    })
                    .map_err(Failure::Campaign)?;
                    if !summary.findings.is_empty() {
                        let _ = first.compare_exchange(
                            usize::MAX,
                            i,
                            Ordering::SeqCst,
                            Ordering::SeqCst,
                        );
                        if !settings.keep_going {
                            settings.stop.store(true, Ordering::Relaxed);
                        }
                    }
                    let worker = Worker {
                        seed: worker_settings.seed,
                        summary,
                    };
                    Ok((candidate.name(), worker))
                })
            })
            .collect();
        let seconds = settings.duration.as_secs().max(1);
        let mut progress = Progress::new("fuzz", seconds, "s");
        while !handles.iter().all(|h| h.is_finished()) {
            thread::sleep(Duration::from_millis(100));
            let total: u64 = cases.iter().map(|c| c.load(Ordering::Relaxed)).sum();
            let elapsed = began.elapsed();
            progress.update(elapsed.as_secs().min(seconds), || {
                let rate = total as f64 / elapsed.as_secs_f64().max(1e-9);
                format!("{total} cases, {rate:.0} cases/s")
            });
        }
        progress.finish();
        let joined: Vec<Result<(String, Worker), Failure>> = (handles.into_iter())
            .map(|h| h.join().expect("a fuzz worker panicked"))
            .collect();
        joined
    });
    let mut name = String::new();
    let mut workers = Vec::with_capacity(jobs);
    for result in results {
        let (worker_name, worker) = result?;
        if name.is_empty() {
            name = worker_name;
        }
        workers.push(worker);
    }
    let first = first.load(Ordering::SeqCst);
    Ok(Outcome {
        name,
        workers,
        first_finding: (first != usize::MAX).then_some(first),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bip37_harness::ops::OpName;

    fn builtin(name: &str) -> TargetArgs {
        TargetArgs {
            command: None,
            builtin: Some(name.into()),
        }
    }

    #[test]
    fn every_worker_fuzzes_from_its_own_seed() {
        let settings = Settings::new(Duration::from_millis(300), 40);
        let outcome = run(&builtin("reference"), &ClientConfig::new, &settings, 2).unwrap();
        assert!(outcome.first_finding.is_none());
        let seeds: Vec<u64> = outcome.workers.iter().map(|w| w.seed).collect();
        assert_eq!(seeds, [40, 41]);
        for worker in &outcome.workers {
            assert!(worker.summary.cases > 10, "{} cases", worker.summary.cases);
        }
    }

    #[test]
    fn the_first_finding_stops_every_worker() {
        let settings = Settings {
            ops: vec![OpName::FilteraddDecode],
            ..Settings::new(Duration::from_secs(60), 3)
        };
        let began = Instant::now();
        let mutant = builtin("mutant:truncation-not-detected");
        let outcome = run(&mutant, &ClientConfig::new, &settings, 2).unwrap();
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "the others did not stop"
        );
        let first = outcome.first_finding.expect("the planted bug is found");
        assert!(!outcome.workers[first].summary.findings.is_empty());
    }

    #[test]
    fn a_worker_that_cannot_start_fails_the_run() {
        let settings = Settings::new(Duration::from_millis(200), 1);
        let failure = run(&builtin("no-such"), &ClientConfig::new, &settings, 2).unwrap_err();
        assert!(matches!(failure, Failure::Start(2, _)), "{failure:?}");
    }
}
