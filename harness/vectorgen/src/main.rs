//! `bip37-vectorgen [--check] [--oracle PROGRAM] [DIR]`: writes the vector files and their
//! JSON Schema into DIR (default `vectors/`), or with `--check` exits non-zero when a committed
//! file differs from what it would write. `--oracle PROGRAM` takes every expected value from
//! that implementation (run without arguments, protocol v1; in practice Bitcoin Core's own
//! code, `adapters/bitcoin-core/target/debug/bip37-bitcoin-core`) instead of the reference,
//! and checks every value a source states against it (`bip37_vectorgen::oracle`).

use bip37_harness::implementation::Implementation;
use bip37_harness::subprocess::{ClientConfig, Subprocess};
use bip37_vectorgen::oracle::{with_oracle, OracleReport};
use bip37_vectorgen::{check_dir, generate, write_dir, GenError, GeneratedFile};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: bip37-vectorgen [--check] [--oracle PROGRAM] [DIR]";

/// The files, generated with the reference or with the oracle `program`; an oracle's faults
/// are an error, and what it answered is said.
fn generate_with(oracle: Option<&str>) -> Result<Vec<GeneratedFile>, GenError> {
    let Some(program) = oracle else {
        return generate();
    };
    let client = Subprocess::start(ClientConfig::new(vec![program.to_string()]))
        .map_err(|e| GenError(format!("--oracle {program}: {e}")))?;
    let name = client.name();
    let (files, report) = with_oracle(Box::new(client), generate);
    let OracleReport {
        answered,
        silent,
        unsupported,
        faults,
    } = report;
    if !faults.is_empty() {
        return Err(GenError(format!(
            "the oracle {name} failed {} requests:\n{}",
            faults.len(),
            faults.join("\n")
        )));
    }
    if answered == 0 || !silent.is_empty() {
        return Err(GenError(format!(
            "the oracle {name} answered {answered} requests, none of {}: it cannot recompute the vectors",
            if silent.is_empty() { "any operation".to_string() } else { silent.join(", ") }
        )));
    }
    let files = files?;
    let fell_back: Vec<String> = unsupported
        .iter()
        .map(|(op, n)| format!("{op} {n}"))
        .collect();
    bip37_harness::say!(
        "bip37-vectorgen: the oracle {name} answered {answered} requests{}",
        if fell_back.is_empty() {
            String::new()
        } else {
            format!(
                "; it answered unsupported to {} (the reference answered those)",
                fell_back.join(", ")
            )
        }
    );
    Ok(files)
}

fn main() -> ExitCode {
    let mut check = false;
    let mut dir = None;
    let mut oracle = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--oracle" => match args.next() {
                Some(program) if oracle.is_none() => oracle = Some(program),
                _ => {
                    bip37_harness::say!("{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                bip37_harness::say_out!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ if arg.starts_with('-') || dir.is_some() => {
                bip37_harness::say!("{USAGE}");
                return ExitCode::from(2);
            }
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    let dir = dir.unwrap_or_else(|| PathBuf::from("vectors"));
    let files = match generate_with(oracle.as_deref()) {
        Ok(files) => files,
        Err(e) => {
            bip37_harness::say!("bip37-vectorgen: {e}");
            return ExitCode::FAILURE;
        }
    };
    if check {
        match check_dir(&dir, &files) {
            Ok(problems) if problems.is_empty() => {
                bip37_harness::say_out!(
                    "{} files (the vectors and their schema) up to date in {}",
                    files.len(),
                    dir.display()
                );
                ExitCode::SUCCESS
            }
            Ok(problems) => {
                for p in problems {
                    bip37_harness::say!("{}: {p}", dir.display());
                }
                bip37_harness::say!("run `cargo run -p bip37-vectorgen` to regenerate");
                ExitCode::FAILURE
            }
            Err(e) => {
                bip37_harness::say!("bip37-vectorgen: {e}");
                ExitCode::FAILURE
            }
        }
    } else {
        match write_dir(&dir, &files) {
            Ok(()) => {
                bip37_harness::say_out!(
                    "wrote {} files (the vectors and their schema) to {}",
                    files.len(),
                    dir.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                bip37_harness::say!("bip37-vectorgen: cannot write {}: {e}", dir.display());
                ExitCode::FAILURE
            }
        }
    }
}
