//! The clap argument groups and value parsers that several subcommands share (`run`, `list`,
//! `fuzz`, `matrix`, `adapters`): which vectors, which tests, which implementation, and the
//! time bounds on it. Each subcommand declares its own arguments beside its code and flattens
//! these in.

use bip37_harness::ops::OpName;
use bip37_harness::runner::{RunOptions, Selection};
use bip37_harness::subprocess::ClientConfig;
use bip37_harness::vectors::Phase;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

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
}
