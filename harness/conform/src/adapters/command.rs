//! `bip37-conform adapters list|install|check [--adapters DIR] [--name NAME]...`: what CI does
//! with every adapter, read from the manifests instead of written out by hand. `install` runs
//! each one's install, build and test commands; `check` runs each one against its expectations
//! file through `bip37-conform run` (this same program, as a child, so its report and exit code
//! are exactly those of the command line it prints), or, for a node, its `start` command with its
//! `run` command appended (start wraps run: it starts the node, runs run, stops the node).
//! Either way the command line also writes a JSON report for [`super::gate`], and an exit code
//! of 0 counts only with that report saying `conformant` with a test run in every claimed
//! operation. Each command runs within its deadline ([`super::deadlines`], [`super::child`]).
//! Every adapter is done even when one fails; the exit code is the first failure's. An adapter
//! whose manifest is refused (not a regular file, a link leading nowhere, not parsing) is
//! listed as refused and fails `install` and `check`.
//!
//! Every line says text from the manifests (names, versions, commands, a parser's quote of a
//! line) through one rule, [`escape::control`]: a control character, a newline, a tab or a
//! bidirectional override is shown as a visible escape, so a manifest can neither steer the
//! terminal nor forge a row of the tab-separated list.

use super::child::{self, Ended};
use super::gate::Gate;
use super::manifest::{self, Entry, Kind, Manifest};
use crate::{exit, output};
use bip37_harness::report::escape;
use clap::{Args, Subcommand};
use std::path::PathBuf;

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
    let entries = match chosen(which) {
        Ok(entries) => entries,
        Err(message) => {
            say(&format!("bip37-conform adapters: {message}"));
            return exit::HARNESS_ERROR;
        }
    };
    match &args.action {
        Action::List(_) => {
            output::print(&list(&entries));
            exit::CONFORMANT
        }
        Action::Install(_) => each(&entries, install),
        Action::Check(_) => each(&entries, check),
    }
}

/// A line on stderr, with everything but its end of line made inert for the terminal.
fn say(line: &str) {
    bip37_harness::say!("{}", escape::control(line));
}

/// The adapters `which` names, all of them without `--name`; a refused manifest is named by its
/// directory.
fn chosen(which: &Which) -> Result<Vec<Entry>, String> {
    if !which.dir.exists() {
        return Err(format!(
            "there is no directory {}: the adapters' manifests are part of this repository, not \
             of the installed binary; run `bip37-conform adapters` from the root of a checkout, \
             or name a directory of manifests with --adapters DIR",
            which.dir.display()
        ));
    }
    let all = manifest::scan(&which.dir).map_err(|e| e.to_string())?;
    let names: Vec<String> = all.iter().map(manifest::entry_name).collect();
    if let Some(unknown) = which.names.iter().find(|name| !names.contains(name)) {
        return Err(format!(
            "no adapter {unknown:?} in {}; known: {}",
            which.dir.display(),
            names.join(", ")
        ));
    }
    Ok(all
        .into_iter()
        .filter(|entry| {
            which.names.is_empty() || which.names.contains(&manifest::entry_name(entry))
        })
        .collect())
}

/// One line per adapter, tab-separated, each field made inert ([`escape::control`] shows a tab
/// or a newline inside a field as `\t`, `\n`); a refused manifest's line says `refused` and why.
fn list(entries: &[Entry]) -> String {
    let lines: Vec<String> = entries
        .iter()
        .map(|entry| {
            let fields = match entry {
                Ok(m) => {
                    let kind = match m.kind {
                        Kind::Subprocess => "subprocess",
                        Kind::Rust => "rust",
                        Kind::Node => "node",
                    };
                    let library = format!(
                        "{} {} ({})",
                        m.library.name, m.library.version, m.library.registry
                    );
                    [
                        m.name.clone(),
                        kind.into(),
                        library,
                        m.column().into(),
                        m.run.clone(),
                    ]
                    .to_vec()
                }
                Err(e) => [manifest::entry_name(entry), "refused".into(), e.to_string()].to_vec(),
            };
            let fields: Vec<String> = fields
                .iter()
                .map(|field| escape::control(field).into_owned())
                .collect();
            fields.join("\t") + "\n"
        })
        .collect();
    lines.concat()
}

/// Does `step` for every adapter and sums up; the exit code is the first failure's. An adapter
/// whose manifest was refused fails with exit 2 and the reason.
fn each(entries: &[Entry], step: fn(&Manifest) -> u8) -> u8 {
    let codes: Vec<(String, u8)> = entries
        .iter()
        .map(|entry| {
            let code = match entry {
                Ok(m) => step(m),
                Err(e) => {
                    say(&format!("bip37-conform adapters: refused: {e}"));
                    exit::HARNESS_ERROR
                }
            };
            (manifest::entry_name(entry), code)
        })
        .collect();
    let failed: Vec<String> = codes
        .iter()
        .filter(|(_, code)| *code != exit::CONFORMANT)
        .map(|(name, code)| format!("{name} (exit {code})"))
        .collect();
    say(&format!(
        "bip37-conform adapters: {} of {} done{}",
        codes.len() - failed.len(),
        codes.len(),
        match failed.is_empty() {
            true => String::new(),
            false => format!("; failed: {}", failed.join(", ")),
        }
    ));
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
            say(&format!("bip37-conform adapters: {} {field}: {e}", m.name));
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
            say(&format!(
                "bip37-conform adapters: {} {field}: {why}",
                m.name
            ));
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

/// Runs `argv` (the manifest's `field` command) as a child within its deadline and returns its
/// exit code; a child that cannot start or ends by a signal is a harness error, one that
/// overruns its deadline a breakdown (exit 3).
fn execute(m: &Manifest, field: &str, argv: Result<Vec<String>, String>) -> u8 {
    let argv = match argv {
        Ok(argv) => argv,
        Err(e) => {
            say(&format!("bip37-conform adapters: {}: {field}: {e}", m.name));
            return exit::HARNESS_ERROR;
        }
    };
    let shown = shlex::try_join(argv.iter().map(String::as_str)).unwrap_or_default();
    say(&format!(
        "bip37-conform adapters: {} {field}: {shown}",
        m.name
    ));
    let deadline = m.deadlines.of(field);
    match child::run(&argv, deadline) {
        Ok(Ended::Exited(status)) => match status.code() {
            Some(code) => u8::try_from(code).unwrap_or(exit::HARNESS_ERROR),
            None => {
                say(&format!(
                    "bip37-conform adapters: {} {field}: {status}",
                    m.name
                ));
                exit::HARNESS_ERROR
            }
        },
        Ok(Ended::Overran) => {
            say(&format!(
                "bip37-conform adapters: {} {field}: still running after its deadline of {}s \
                 (`deadlines` in its manifest): its process group was ended",
                m.name,
                deadline.as_secs_f64()
            ));
            exit::BREAKDOWN
        }
        Err(e) => {
            say(&format!(
                "bip37-conform adapters: {} {field}: cannot start {}: {e}",
                m.name, argv[0]
            ));
            exit::HARNESS_ERROR
        }
    }
}
