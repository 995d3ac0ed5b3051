//! Differential fuzzing of any implementation (`bip37-conform fuzz`): proptest-generated
//! requests sent to the implementation under test (over the subprocess protocol or built in),
//! each answer compared with the reference's, the first disagreement shrunk to a minimal
//! request, diagnosed against the mutants and written as a ready-to-commit JSON vector.
//!
//! - [`strategy`]: how requests are generated, per operation.
//! - [`bip37_harness::disagreement::compare`]: what counts as agreeing with the reference.
//! - [`campaign`]: the time-boxed, seeded loop, shrinking and diagnosis.
//! - [`workers`]: several campaigns at once, with distinct seeds, stopped by the first finding.
//! - [`bip37_harness::disagreement::vector`]: a finding (or a fuzz crash artifact) as a vector
//!   file.
//! - [`cli`]: the `fuzz` subcommand.

pub mod campaign;
pub mod cli;
pub mod strategy;
pub mod workers;
