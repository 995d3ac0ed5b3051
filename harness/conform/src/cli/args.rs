//! The command line of `bip37-conform`, declared with clap.

use bip37_harness::ops::OpName;
use bip37_harness::report::Format;
use bip37_harness::runner::{RunOptions, Selection};
use bip37_harness::subprocess::ClientConfig;
use bip37_harness::vectors::Phase;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

const EXIT_CODES: &str = "\
Exit codes:
  0  conformant: at least one test passed, and every other test passed, was unsupported or
     failed as the expectations file says
  1  failures: a wrong value, a wrong acceptance or rejection, a protocol error, an unexpected
     pass, or a stale expectations entry
  2  usage or harness error (bad arguments, unreadable files, an implementation that cannot start)
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
    /// (Markdown, JSON): columns are implementations, rows vectors or groups of alike vectors.
    Matrix(crate::matrix::command::MatrixArgs),
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
}

#[derive(Debug, Args)]
pub struct VectorArgs {
    /// Read the `*_test.json` files of this directory instead of the built-in vectors.
    #[arg(long, value_name = "DIR")]
    pub vectors: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SelectArgs {
    /// Only tests whose id matches this glob (`*`, `?`); repeatable.
    #[arg(long = "id", value_name = "GLOB")]
    pub ids: Vec<String>,
    /// Only tests of this phase (hash, seed, sizing, insert, contains, serialize, decode,
    /// limits, match, update, merkle, sequence); repeatable.
    #[arg(long = "phase", value_parser = parse_phase)]
    pub phases: Vec<Phase>,
    /// Only tests carrying this flag; repeatable.
    #[arg(long = "flag")]
    pub flags: Vec<String>,
    /// Only tests from this kind of source; repeatable.
    #[arg(long = "source", value_parser = ["core", "bip", "literature", "generated"])]
    pub sources: Vec<String>,
    /// Only tests of this operation (its wire name, e.g. murmur3); repeatable.
    #[arg(long = "op", value_parser = parse_op)]
    pub operations: Vec<OpName>,
}

impl SelectArgs {
    pub fn selection(&self) -> Selection {
        Selection {
            ids: self.ids.clone(),
            phases: self.phases.clone(),
            flags: self.flags.clone(),
            sources: self.sources.clone(),
            operations: self.operations.clone(),
        }
    }
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub vectors: VectorArgs,
    #[command(flatten)]
    pub select: SelectArgs,
}

#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct TargetArgs {
    /// The implementation's command line (split like a shell would, but run without one); it
    /// must speak the subprocess protocol (docs/PROTOCOL.md).
    #[arg(long = "impl", value_name = "COMMAND")]
    pub command: Option<String>,
    /// A built-in implementation, e.g. `reference`.
    #[arg(long, value_name = "NAME")]
    pub builtin: Option<String>,
}

/// The bounds on a subprocess implementation, shared by every command that starts one.
#[derive(Debug, Args)]
pub struct TimeoutArgs {
    /// The longest wait for one answer of a subprocess (e.g. 500ms, 5s).
    #[arg(long, value_parser = parse_duration, default_value = "5s")]
    pub timeout: Duration,
    /// The longest wait for a subprocess's hello after each start.
    #[arg(long, value_parser = parse_duration, default_value = "10s")]
    pub start_timeout: Duration,
    /// For each implementation, no test starts after this much time; the rest are reported as
    /// not run.
    #[arg(long, value_parser = parse_duration, default_value = "10m")]
    pub total_timeout: Duration,
}

impl TimeoutArgs {
    /// The client configuration that starts `argv` within these bounds.
    pub fn client_config(&self, argv: Vec<String>) -> ClientConfig {
        ClientConfig {
            request_timeout: self.timeout,
            start_timeout: self.start_timeout,
            ..ClientConfig::new(argv)
        }
    }

    /// The run options that stop starting tests after the total bound.
    pub fn run_options(&self) -> RunOptions {
        RunOptions {
            total_time: Some(self.total_timeout),
        }
    }
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
    /// The report format.
    #[arg(long, value_parser = format_parser(), default_value = "human")]
    pub format: Format,
    /// Write the report to this file instead of stdout (a one-line verdict goes to stderr).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write the report in FORMAT to FILE, from the same run (e.g. `markdown:summary.md`
    /// next to `--format junit --output junit.xml`); repeatable.
    #[arg(long = "report", value_name = "FORMAT:FILE", value_parser = parse_report)]
    pub reports: Vec<(Format, PathBuf)>,
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
    /// Colour in the human report.
    #[arg(long, value_enum, default_value_t = Colour::Auto)]
    pub color: Colour,
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

/// When to colour the human report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Colour {
    /// Only when writing to a terminal and `NO_COLOR` is not set.
    Auto,
    Always,
    Never,
}

/// `--format` by name: the library's [`Format`] knows no clap, so the names are listed here.
pub fn format_parser() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(Format::ALL.map(Format::name))
        .map(|name: String| Format::from_name(&name).expect("a listed format name"))
}

/// `FORMAT:FILE`, e.g. `junit:reports/bip37.xml`.
pub fn parse_report(text: &str) -> Result<(Format, PathBuf), String> {
    let (format, file) = text
        .split_once(':')
        .filter(|(_, file)| !file.is_empty())
        .ok_or_else(|| format!("{text:?} is not FORMAT:FILE, e.g. markdown:summary.md"))?;
    let format = Format::from_name(format).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!("unknown format {format:?}; one of: {}", names.join(", "))
    })?;
    Ok((format, PathBuf::from(file)))
}

fn parse_phase(text: &str) -> Result<Phase, String> {
    serde_json::from_value(serde_json::Value::from(text)).map_err(|e| e.to_string())
}

/// An operation by its wire name; an unknown one is refused with the list of known names.
pub fn parse_op(text: &str) -> Result<OpName, String> {
    OpName::from_name(text).ok_or_else(|| {
        let known: Vec<&str> = OpName::ALL.iter().map(|o| o.as_str()).collect();
        format!("unknown operation; known: {}", known.join(", "))
    })
}

/// The longest duration any option takes: a year. Longer ones (`10000000000000000000s`)
/// would overflow the clock when added to it.
pub const MAX_DURATION: Duration = Duration::from_secs(365 * 24 * 3600);

/// A duration written as a number with a unit: `ms`, `s` or `m`, at most [`MAX_DURATION`].
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration like 500ms, 5s or 2m"))?;
    let seconds = match unit {
        "ms" => value / 1e3,
        "s" => value,
        "m" => value * 60.0,
        _ => return Err(format!("{text:?}: the unit must be ms, s or m")),
    };
    let duration = Duration::try_from_secs_f64(seconds).map_err(|e| format!("{text:?}: {e}"))?;
    if duration > MAX_DURATION {
        return Err(format!(
            "{text:?} is longer than the longest duration accepted, a year ({}s)",
            MAX_DURATION.as_secs()
        ));
    }
    Ok(duration)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("5").is_err());
        assert!(parse_duration("s").is_err());
        assert!(parse_duration("10000000000000000000s").is_err());
        assert!(parse_duration("1e400s").is_err());
        assert_eq!(parse_duration("525600m"), Ok(MAX_DURATION));
    }

    #[test]
    fn reports() {
        let (format, file) = parse_report("markdown:out/summary.md").unwrap();
        assert_eq!(
            (format, file),
            (Format::Markdown, PathBuf::from("out/summary.md"))
        );
        assert!(parse_report("markdown").is_err());
        assert!(parse_report("markdown:").is_err());
        let unknown = parse_report("html:x.html").unwrap_err();
        assert!(unknown.contains("html"), "{unknown}");
    }

    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
