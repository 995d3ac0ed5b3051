//! `bip37-vectorgen [--check] [DIR]`: writes the vector files into DIR (default `vectors/`),
//! or with `--check` exits non-zero when a committed file differs from what it would write.

use bip37_harness::vectorgen::{check_dir, generate, write_dir};
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
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ if arg.starts_with('-') || dir.is_some() => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    let dir = dir.unwrap_or_else(|| PathBuf::from("vectors"));
    let files = match generate() {
        Ok(files) => files,
        Err(e) => {
            eprintln!("bip37-vectorgen: {e}");
            return ExitCode::FAILURE;
        }
    };
    if check {
        match check_dir(&dir, &files) {
            Ok(problems) if problems.is_empty() => {
                println!(
                    "{} vector files up to date in {}",
                    files.len(),
                    dir.display()
                );
                ExitCode::SUCCESS
            }
            Ok(problems) => {
                for p in problems {
                    eprintln!("{}: {p}", dir.display());
                }
                eprintln!("run `cargo run -p bip37-harness --features maintainer --bin bip37-vectorgen` to regenerate");
                ExitCode::FAILURE
            }
            Err(e) => {
                eprintln!("bip37-vectorgen: {e}");
                ExitCode::FAILURE
            }
        }
    } else {
        match write_dir(&dir, &files) {
            Ok(()) => {
                println!("wrote {} vector files to {}", files.len(), dir.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("bip37-vectorgen: cannot write {}: {e}", dir.display());
                ExitCode::FAILURE
            }
        }
    }
}
