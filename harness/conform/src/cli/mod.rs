//! The `bip37-conform` command line: `run` the suite against an implementation, `list` the
//! plan, `serve` a built-in implementation over the subprocess protocol, `lint` the vectors.
//! The other subcommands live in their own modules ([`crate::fuzz`], [`crate::matrix`],
//! [`crate::regen`], [`crate::node`]), which this one dispatches to and which never import it. Every path ends
//! in one of the documented [`exit`] codes.

pub mod args;
pub mod run;

use crate::{builtins, exit, output, plan, vector_set};
use args::{Cli, Command};
use bip37_harness::subprocess::pipes::SpinningReader;
use clap::Parser;
use std::ffi::OsString;
use std::io::{self, BufReader, BufWriter};
use std::os::fd::AsFd;

/// Parses `argv` (program name first) and runs the command; returns the exit code.
pub fn main(argv: impl IntoIterator<Item = OsString>) -> u8 {
    let argv: Vec<OsString> = argv.into_iter().collect();
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(mut e) => {
            suggest_subcommand(&mut e);
            let _ = e.print();
            if let Some(hint) = unquoted_impl(&e, &argv) {
                bip37_harness::say!("{hint}");
            }
            return if e.use_stderr() {
                exit::HARNESS_ERROR
            } else {
                exit::CONFORMANT
            };
        }
    };
    let code = dispatch(&cli.command);
    match output::failed() {
        // A report cut short on stdout is never a success, nor any other verdict.
        true => exit::HARNESS_ERROR,
        false => code,
    }
}

/// Runs `command`; returns its exit code.
fn dispatch(command: &Command) -> u8 {
    match command {
        Command::Run(args) => run::run(args),
        Command::List(args) => {
            match vector_set::load_unlinted_or_exit(args.vectors.vectors.as_deref()) {
                Ok(tests) => {
                    let selected = args.select.selection().apply(&tests);
                    output::print(&plan::render(&selected, tests.len()));
                    exit::CONFORMANT
                }
                Err(code) => code,
            }
        }
        Command::Serve(args) => match &args.mutant {
            Some(mutant) => serve(&format!("mutant:{mutant}")),
            None => serve(&args.builtin),
        },
        Command::Lint(args) => vector_set::lint(args.vectors.as_deref()),
        Command::Regen(args) => crate::regen::cli::main(args),
        Command::Node(args) => crate::node::cli::main(args),
        Command::Fuzz(args) => crate::fuzz::cli::run(args),
        Command::Matrix(args) => crate::matrix::command::run(args),
        Command::Findings(args) => crate::findings::command::run(args),
        Command::Adapters(args) => crate::adapters::command::run(args),
        Command::Mutants(args) => match vector_set::load_or_exit(args.vectors.as_deref()) {
            Ok(tests) => {
                let outcomes = bip37_harness::diagnosis::kill_table::kill_table(&tests);
                output::print(&bip37_harness::diagnosis::kill_table::render(&outcomes));
                match outcomes.iter().all(|o| o.caught()) {
                    true => exit::CONFORMANT,
                    false => exit::FAILURES,
                }
            }
            Err(code) => code,
        },
    }
}

/// clap suggests a subcommand only for a close spelling by its own measure, which misses short
/// typos (`rn` for `run`); a subcommand one edit away (Damerau-Levenshtein) is suggested too.
fn suggest_subcommand(error: &mut clap::Error) {
    use clap::error::{ContextKind, ContextValue};
    if error.get(ContextKind::SuggestedSubcommand).is_some() {
        return;
    }
    let Some(ContextValue::String(typed)) = error.get(ContextKind::InvalidSubcommand) else {
        return;
    };
    let command = <Cli as clap::CommandFactory>::command();
    let close: Vec<String> = (command.get_subcommands())
        .map(|sub| sub.get_name().to_string())
        .filter(|name| strsim::damerau_levenshtein(typed, name) <= 1)
        .collect();
    if !close.is_empty() {
        error.insert(
            ContextKind::SuggestedSubcommand,
            ContextValue::Strings(close),
        );
    }
}

/// A hint for the commonest unexpected argument: `--impl python3 adapter.py`, where the
/// command line after `--impl` was not quoted into one argument.
fn unquoted_impl(error: &clap::Error, argv: &[OsString]) -> Option<String> {
    use clap::error::{ContextKind, ErrorKind};
    if error.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let position = argv.iter().position(|a| a == "--impl")?;
    let words: Vec<String> = argv[position + 1..]
        .iter()
        .map(|word| word.to_string_lossy().into_owned())
        .take_while(|word| !word.starts_with("--"))
        .collect();
    let extra = error.get(ContextKind::InvalidArg)?.to_string();
    words.contains(&extra).then(|| {
        format!(
            "hint: --impl takes the whole command line as one argument; quote it: --impl \"{}\"",
            words.join(" ")
        )
    })
}

fn serve(name: &str) -> u8 {
    let mut implementation = match builtins::builtin(name) {
        Ok(implementation) => implementation,
        Err(e) => {
            bip37_harness::say!("bip37-conform serve: {e}");
            return exit::HARNESS_ERROR;
        }
    };
    let stdin = match SpinningReader::new(io::stdin().as_fd()) {
        Ok(reader) => BufReader::with_capacity(64 * 1024, reader),
        Err(e) => {
            bip37_harness::say!("bip37-conform serve: stdin: {e}");
            return exit::HARNESS_ERROR;
        }
    };
    let stdout = BufWriter::new(io::stdout().lock());
    match bip37_harness::subprocess::serve(implementation.as_mut(), stdin, stdout, io::stderr()) {
        Ok(()) => exit::CONFORMANT,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::CONFORMANT,
        Err(e) => {
            bip37_harness::say!("bip37-conform serve: {e}");
            exit::HARNESS_ERROR
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::exit;

    #[test]
    fn regen_is_wired_and_no_node_exits_2_without_writing() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let record = std::env::temp_dir().join(format!("regen-cli-{}.json", std::process::id()));
        let argv = [
            "bip37-conform".to_string(),
            "regen".into(),
            "--rpc".into(),
            format!("127.0.0.1:{port}"),
            "--record".into(),
            record.display().to_string(),
        ];
        assert_eq!(super::main(argv.map(Into::into)), exit::HARNESS_ERROR);
        assert!(!record.exists());
    }
}
