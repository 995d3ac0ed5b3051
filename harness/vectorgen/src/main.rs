//! `bip37-vectorgen [--check] [DIR]`: writes the vector files and their JSON Schema into DIR
//! (default `vectors/`),
//! or with `--check` exits non-zero when a committed file differs from what it would write.

use bip37_vectorgen::{check_dir, generate, write_dir};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: bip37-vectorgen [--check] [DIR]";

fn main() -> ExitCode {
    let mut check = false;
    let mut dir = None;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--check" => check = true,
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
    let files = match generate() {
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
