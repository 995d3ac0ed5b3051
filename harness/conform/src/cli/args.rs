//! The command line of `bip37-conform`, declared with clap: the subcommands and the arguments
//! of those implemented in [`crate::cli`]; the groups several share are in [`crate::options`].

use crate::delivery::ReportArgs;
use crate::options::{SelectArgs, TargetArgs, TimeoutArgs, VectorArgs};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

const EXIT_CODES: &str = "\
Exit codes:
  0  conformant: at least one test passed, and every other test passed, was not claimed, or
     failed as the expectations file says
  1  failures: a wrong value, a wrong acceptance or rejection, a protocol error, an unexpected
     pass, or a stale expectations entry
  2  usage or harness error (bad arguments, unreadable or unwritable files, stdout included, an
     implementation that cannot start)
  3  the implementation crashed or timed out, or the run hit its overall time bound
  4  invalid vectors (reported with file, line, column and field before anything runs)
  5  nothing was exercised: no test passed (none selected, no operation claimed, every test
     unsupported or an expected failure); --allow-empty makes such a run exit 0";

/// BIP 37 conformance suite: run the vectors against an implementation in any language.
#[derive(Debug, Parser)]
#[command(name = "bip37-conform", version, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the suite against an implementation and report the result.
    #[command(after_help = EXIT_CODES)]
    Run(RunArgs),
    /// Print the tests a selection picks (the plan), without running anything.
    List(ListArgs),
    /// Speak the subprocess protocol on stdin/stdout with a built-in implementation behind it.
    Serve(ServeArgs),
    /// Check the vector files (ids, flags, counts, and every expected value re-derived by the
    /// reference); exits 4 if there is a problem.
    Lint(VectorArgs),
    /// Run every mutant (the reference with one classic mistake) and print the kill table;
    /// exits 1 if a mutant survives or is not diagnosed as its own bug class.
    Mutants(VectorArgs),
    /// Run several implementations over the same vectors and write the conformance matrix
    /// (Markdown, JSON): columns are implementations, rows vectors or groups of alike vectors;
    /// exits nonzero when a column fails against its expectations file (--report-only: never).
    #[command(after_help = crate::matrix::command::MATRIX_EXIT_CODES)]
    Matrix(crate::matrix::command::MatrixArgs),
    /// Write docs/FINDINGS.md, every deviation from Core per implementation and version, from
    /// the committed matrices, manifests and expectations files (--check: exit 1 if stale).
    Findings(crate::findings::command::FindingsArgs),
    /// Confirm the vectors against a live regtest node over RPC and P2P and write the record
    /// (vectors/live-node/record.json), or compare with it (--check).
    Regen(crate::regen::cli::RegenArgs),
    /// Check a full node's BIP 37 serving over P2P (a regtest node; RPC for setup), with the
    /// reports, expectations file and exit codes of `run`.
    #[command(after_help = EXIT_CODES)]
    Node(crate::node::cli::NodeArgs),
    /// Fuzz an implementation against the reference for a while; the first disagreement is
    /// shrunk, diagnosed (stderr) and printed as a vector file (stdout); exits 1 if found.
    Fuzz(crate::fuzz::cli::FuzzArgs),
    /// The adapters described by `adapters/*/adapter.toml`: list them, install and build them,
    /// or check each against its expectations file (what CI runs).
    Adapters(crate::adapters::command::AdaptersArgs),
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub vectors: VectorArgs,
    #[command(flatten)]
    pub select: SelectArgs,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub vectors: VectorArgs,
    #[command(flatten)]
    pub select: SelectArgs,
    /// Print the plan (the selected tests) and stop.
    #[arg(long, visible_alias = "dry-run")]
    pub list: bool,
    #[command(flatten)]
    pub report: ReportArgs,
    /// Known failures (TOML): listed failures are expected, a listed test that passes fails.
    /// The file must exist, unless --update-expectations creates it.
    #[arg(long, value_name = "FILE")]
    pub expectations: Option<PathBuf>,
    /// Rewrite the expectations file from this run. The exit code is still the verdict of
    /// the run against the file as it was before.
    #[arg(long, requires = "expectations")]
    pub update_expectations: bool,
    /// With --update-expectations, also list crashes and timeouts (left out otherwise).
    #[arg(long, requires = "update_expectations")]
    pub record_crashes: bool,
    /// Let a run in which no test passed be conformant (exit 0 instead of 5).
    #[arg(long)]
    pub allow_empty: bool,
    #[command(flatten)]
    pub timeouts: TimeoutArgs,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The built-in implementation to serve.
    #[arg(long, value_name = "NAME", default_value = "reference")]
    pub builtin: String,
    /// Serve the mutant NAME instead (the same as `--builtin mutant:NAME`).
    #[arg(long, value_name = "NAME", conflicts_with = "builtin")]
    pub mutant: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
