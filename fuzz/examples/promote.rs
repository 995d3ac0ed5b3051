//! Turns a crash artifact of a fuzz target into a vector, merged into
//! `vectors/imported/fuzz_test.json` (or `VECTORS/imported/fuzz_test.json`).
//!
//! Usage: `cargo run --manifest-path fuzz/Cargo.toml --example promote -- TARGET ARTIFACT [VECTORS]`

use bip37_fuzz::promote::{promote_into, repository_vectors, PromoteError};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (target, artifact, vectors) = match args.as_slice() {
        [target, artifact] => (target, artifact, repository_vectors()),
        [target, artifact, vectors] => (target, artifact, PathBuf::from(vectors)),
        _ => {
            eprintln!("usage: promote TARGET ARTIFACT [VECTORS]");
            return ExitCode::from(2);
        }
    };
    match promote_into(target, artifact.as_ref(), &vectors) {
        Ok(path) => {
            println!("{}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("promote: {e}");
            // bip37-conform's exit codes: 4 for invalid vectors, 2 for any other failure.
            match e {
                PromoteError::InvalidVectors(_) => ExitCode::from(4),
                _ => ExitCode::from(2),
            }
        }
    }
}
