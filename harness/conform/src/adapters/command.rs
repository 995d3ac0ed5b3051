//! `bip37-conform adapters list|install|check [--adapters DIR] [--name NAME]...`: what CI does
//! with every adapter, read from the manifests instead of written out by hand. `install` runs
//! each one's install, build and test commands; `check` runs each one against its expectations
//! file through `bip37-conform run` (this same program, as a child, so its report and exit code
//! are exactly those of the command line it prints), or, for a node, its `start` command with its
//! `run` command appended (start wraps run: it starts the node, runs run, stops the node).
//! Either way the command line also writes a JSON report for [`super::gate`], and an exit code
//! of 0 counts only with that report saying `conformant`. Every adapter is done even when one fails; the exit code is the first failure's.

use super::gate::Gate;
use super::manifest::{self, Kind, Manifest};
use crate::{exit, output};
use bip37_harness::teardown;
use clap::{Args, Subcommand};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Command;

/// The arguments of `bip37-conform adapters`.
#[derive(Debug, Args)]
pub struct AdaptersArgs {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// Print each adapter: name, kind, library and version, matrix column, run command.
    List(Which),
    /// Run each adapter's install, build and test commands (those it has), in that order.
    Install(Which),
    /// Run each adapter against its expectations file (`bip37-conform run --expectations FILE
    /// --impl RUN`, with its --timeout); a node: its start command with its run command appended.
    Check(Which),
}

/// Which adapters.
#[derive(Debug, Args)]
pub struct Which {
    /// The directory whose subdirectories hold the manifests (`<name>/adapter.toml`).
    #[arg(long = "adapters", value_name = "DIR", default_value = "adapters")]
    pub dir: PathBuf,
    /// Only the adapter NAME; repeatable.
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
}

/// Runs `bip37-conform adapters` and returns its exit code.
pub fn run(args: &AdaptersArgs) -> u8 {
    let (Action::List(which) | Action::Install(which) | Action::Check(which)) = &args.action;
    let manifests = match chosen(which) {
        Ok(manifests) => manifests,
        Err(message) => {
            bip37_harness::say!("bip37-conform adapters: {message}");
            return exit::HARNESS_ERROR;
        }
    };
    match &args.action {
        Action::List(_) => {
            output::print(&list(&manifests));
            exit::CONFORMANT
        }
        Action::Install(_) => each(&manifests, install),
        Action::Check(_) => each(&manifests, check),
    }
}

/// The manifests `which` names, all of them without `--name`.
fn chosen(which: &Which) -> Result<Vec<Manifest>, String> {
    if !which.dir.exists() {
        return Err(format!(
            "there is no directory {}: the adapters' manifests are part of this repository, not \
             of the installed binary; run `bip37-conform adapters` from the root of a checkout, \
             or name a directory of manifests with --adapters DIR",
            which.dir.display()
        ));
    }
    let all = manifest::load_all(&which.dir).map_err(|e| e.to_string())?;
    if let Some(unknown) = which
        .names
        .iter()
        .find(|name| !all.iter().any(|m| &&m.name == name))
    {
        let known: Vec<&str> = all.iter().map(|m| m.name.as_str()).collect();
        return Err(format!(
            "no adapter {unknown:?} in {}; known: {}",
            which.dir.display(),
            known.join(", ")
        ));
    }
    Ok(all
        .into_iter()
        .filter(|m| which.names.is_empty() || which.names.contains(&m.name))
        .collect())
}

/// One line per adapter, tab-separated.
fn list(manifests: &[Manifest]) -> String {
    let lines: Vec<String> = manifests
        .iter()
        .map(|m| {
            let kind = match m.kind {
                Kind::Subprocess => "subprocess",
                Kind::Rust => "rust",
                Kind::Node => "node",
            };
            let library = format!(
                "{} {} ({})",
                m.library.name, m.library.version, m.library.registry
            );
            [m.name.as_str(), kind, &library, m.column(), &m.run].join("\t") + "\n"
        })
        .collect();
    lines.concat()
}

/// Does `step` for every adapter and sums up; the exit code is the first failure's.
fn each(manifests: &[Manifest], step: fn(&Manifest) -> u8) -> u8 {
    let codes: Vec<(&str, u8)> = manifests
        .iter()
        .map(|m| (m.name.as_str(), step(m)))
        .collect();
    let failed: Vec<String> = codes
        .iter()
        .filter(|(_, code)| *code != exit::CONFORMANT)
        .map(|(name, code)| format!("{name} (exit {code})"))
        .collect();
    bip37_harness::say!(
        "bip37-conform adapters: {} of {} done{}",
        codes.len() - failed.len(),
        codes.len(),
        match failed.is_empty() {
            true => String::new(),
            false => format!("; failed: {}", failed.join(", ")),
        }
    );
    codes
        .iter()
        .map(|(_, code)| *code)
        .find(|code| *code != exit::CONFORMANT)
        .unwrap_or(exit::CONFORMANT)
}

fn install(m: &Manifest) -> u8 {
    for (field, command) in m.setup() {
        let code = execute(m, field, manifest::split(command));
        if code != exit::CONFORMANT {
            return code;
        }
    }
    exit::CONFORMANT
}

/// Runs the adapter's check with its report going to a fresh [`Gate`], which the exit code is
/// then held to: a check passes only what ran.
fn check(m: &Manifest) -> u8 {
    let (field, argv) = match m.kind {
        Kind::Node => ("start+run", node_command(m)),
        Kind::Subprocess | Kind::Rust => ("run", run_command(m)),
    };
    let gate = match Gate::new() {
        Ok(gate) => gate,
        Err(e) => {
            bip37_harness::say!("bip37-conform adapters: {} {field}: {e}", m.name);
            return exit::HARNESS_ERROR;
        }
    };
    let argv = argv.map(|mut argv| {
        argv.extend(gate.arguments());
        argv
    });
    match gate.judge(execute(m, field, argv)) {
        Ok(code) => code,
        Err(why) => {
            bip37_harness::say!("bip37-conform adapters: {} {field}: {why}", m.name);
            exit::HARNESS_ERROR
        }
    }
}

/// A node's check as one argv: its `start` command (which starts the node, runs the rest of
/// its command line against it and stops it), followed by its `run` command.
fn node_command(m: &Manifest) -> Result<Vec<String>, String> {
    let mut argv = match &m.start {
        Some(start) => manifest::split(start)?,
        None => Vec::new(),
    };
    argv.extend(manifest::split(&m.run)?);
    Ok(argv)
}

/// `bip37-conform run` of a protocol adapter against its expectations, as argv.
pub fn run_command(m: &Manifest) -> Result<Vec<String>, String> {
    let program = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let mut argv = vec![
        program.display().to_string(),
        "run".into(),
        "--expectations".into(),
        m.expectations.display().to_string(),
        "--impl".into(),
        m.run.clone(),
    ];
    if let Some(timeout) = m.timeout {
        argv.extend(["--timeout".into(), format!("{}ms", timeout.as_millis())]);
    }
    Ok(argv)
}

/// Runs `argv` (the manifest's `field` command) as a child and returns its exit code; a child
/// that cannot start or ends by a signal is a harness error.
fn execute(m: &Manifest, field: &str, argv: Result<Vec<String>, String>) -> u8 {
    let argv = match argv {
        Ok(argv) => argv,
        Err(e) => {
            bip37_harness::say!("bip37-conform adapters: {}: {field}: {e}", m.name);
            return exit::HARNESS_ERROR;
        }
    };
    let shown = shlex::try_join(argv.iter().map(String::as_str)).unwrap_or_default();
    bip37_harness::say!("bip37-conform adapters: {} {field}: {shown}", m.name);
    // Its own process group, sent the signal that stops this command (crate::signals), so a
    // `run` kills its adapters and a node's start script stops its node.
    let status =
        teardown::spawn_forwarded(Command::new(&argv[0]).args(&argv[1..]).process_group(0))
            .and_then(|mut child| {
                let status = child.wait();
                teardown::forget_forwarded(&child);
                status
            });
    match status {
        Ok(status) => match status.code() {
            Some(code) => u8::try_from(code).unwrap_or(exit::HARNESS_ERROR),
            None => {
                bip37_harness::say!("bip37-conform adapters: {} {field}: {status}", m.name);
                exit::HARNESS_ERROR
            }
        },
        Err(e) => {
            bip37_harness::say!(
                "bip37-conform adapters: {} {field}: cannot start {}: {e}",
                m.name,
                argv[0]
            );
            exit::HARNESS_ERROR
        }
    }
}
