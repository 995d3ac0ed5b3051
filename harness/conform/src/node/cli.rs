//! The command line of `bip37-conform node`: where the node is (the options of `regen`),
//! which checks (`--id`, `--flag`, ... as for `run`), how long an announcement may take, and
//! the reports, expectations file and exit codes of `run`.

use super::suite::{self, Options};
use crate::delivery::{deliver, exit_code, load_expectations, lock_expectations, ReportArgs};
use crate::options::{parse_duration, SelectArgs};
use crate::regen::cli::NodeAddressArgs;
use crate::{exit, plan};
use bip37_harness::runner::State;
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

/// Check a full node's BIP 37 serving over P2P (regtest; RPC for setup).
#[derive(Debug, clap::Args)]
pub struct NodeArgs {
    #[command(flatten)]
    pub node: NodeAddressArgs,
    #[command(flatten)]
    pub select: SelectArgs,
    /// Print the plan (the selected checks) and stop.
    #[arg(long)]
    pub list: bool,
    /// The longest wait for a transaction announcement a conforming node must make (Core
    /// trickles them to inbound peers every 5 s on average).
    #[arg(long, value_parser = parse_duration, default_value = "60s")]
    pub announce_timeout: Duration,
    /// After a control peer was told of the offered transactions, the time the checked peer
    /// is given before what it was not told counts as not announced.
    #[arg(long, value_parser = parse_duration, default_value = "3s")]
    pub settle: Duration,
    #[command(flatten)]
    pub report: ReportArgs,
    /// The node's known deviations (TOML, as for `run`): listed failures are expected.
    #[arg(long, value_name = "FILE")]
    pub expectations: Option<PathBuf>,
    /// Rewrite the expectations file from this run (the verdict is still against the file as
    /// it was).
    #[arg(long, requires = "expectations")]
    pub update_expectations: bool,
    /// Let a run in which no check passed be conformant (exit 0 instead of 5).
    #[arg(long)]
    pub allow_empty: bool,
}

/// Runs `bip37-conform node` and returns its exit code.
pub fn main(args: &NodeArgs) -> u8 {
    let file = match super::checks::checks() {
        Ok(file) => file,
        Err(e) => return harness_error(&e),
    };
    let all = suite::plan(&file);
    let selection = args.select.selection();
    if args.list {
        crate::output::print(&plan::render(&selection.apply(&all), all.len()));
        return exit::CONFORMANT;
    }
    if let Some(expectations) = &args.expectations {
        for output in args.report.files() {
            if let Err(e) = bip37_harness::atomic_file::refuse_overwriting(output, [expectations]) {
                return harness_error(&e.to_string());
            }
        }
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
    let rpc = match args.node.rpc_config() {
        Ok(rpc) => rpc,
        Err(e) => return harness_error(&e.to_string()),
    };
    let options = Options {
        rpc,
        p2p: args.node.p2p.clone(),
        magic: args.node.magic,
        timeout: Duration::from_secs(args.node.timeout),
        announce_timeout: args.announce_timeout,
        settle: args.settle,
        selection,
        last: expectations
            .failures
            .iter()
            .filter(|(_, expected)| expected.state == State::Crash)
            .map(|(id, _)| id.clone())
            .collect(),
    };
    let mut run = match suite::run(&options, &mut std::io::stderr()) {
        Ok(run) => run,
        Err(e) => return harness_error(&e.to_string()),
    };
    let known: HashSet<&str> = file.checks.iter().map(|c| c.id.as_str()).collect();
    if let (Some(path), true) = (&args.expectations, args.update_expectations) {
        let updated = expectations.updated(&run, &known, false);
        if let Err(e) = bip37_harness::atomic_file::write(path, updated.to_toml().as_bytes()) {
            return harness_error(&format!("cannot write {}: {e}", path.display()));
        }
        bip37_harness::say!(
            "bip37-conform: wrote {} expected failures to {}",
            updated.failures.len(),
            path.display()
        );
    }
    drop(lock);
    run.allow_empty = args.allow_empty;
    expectations.apply(&mut run, &known);
    if let Err(code) = deliver(&run, &args.report) {
        return code;
    }
    exit_code(&run)
}

fn harness_error(message: &str) -> u8 {
    bip37_harness::say!("bip37-conform node: {message}");
    exit::HARNESS_ERROR
}

#[cfg(test)]
mod tests {
    use crate::exit;

    fn main(args: &[&str]) -> u8 {
        let argv = ["bip37-conform", "node"].iter().chain(args).map(Into::into);
        crate::cli::main(argv.collect::<Vec<std::ffi::OsString>>())
    }

    #[test]
    fn the_plan_lists_without_a_node() {
        assert_eq!(main(&["--list", "--id", "node/relay/*"]), exit::CONFORMANT);
    }

    #[test]
    fn no_node_is_a_harness_error_and_no_report_is_written() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let report = std::env::temp_dir().join(format!("node-cli-{}.json", std::process::id()));
        let rpc = format!("127.0.0.1:{port}");
        let output = report.display().to_string();
        let code = main(&["--rpc", &rpc, "--format", "json", "--output", &output]);
        assert_eq!(code, exit::HARNESS_ERROR);
        assert!(!report.exists());
    }

    #[test]
    fn a_report_may_not_replace_the_expectations_file() {
        let path = std::env::temp_dir().join(format!("node-cli-exp-{}.toml", std::process::id()));
        std::fs::write(&path, "").unwrap();
        let file = path.display().to_string();
        let code = main(&["--expectations", &file, "--output", &file]);
        assert_eq!(code, exit::HARNESS_ERROR);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
        std::fs::remove_file(path).unwrap();
    }
}
