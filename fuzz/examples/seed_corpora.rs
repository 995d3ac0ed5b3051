//! Writes the seed corpora of the fuzz targets from the JSON vectors.
//!
//! Usage: `cargo run --manifest-path fuzz/Cargo.toml --example seed_corpora [VECTORS_DIR [OUT_DIR]]`
//! (defaults: `vectors/` and `fuzz/corpus/`, where `cargo fuzz run` looks).

use bip37_fuzz::seeds::{seeds_from_vectors, write_corpora};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let vectors = args.next().unwrap_or_else(|| root.join("../vectors"));
    let out = args.next().unwrap_or_else(|| root.join("corpus"));
    let seeds = match seeds_from_vectors(&vectors) {
        Ok(seeds) => seeds,
        Err(e) => {
            eprintln!("seed_corpora: {e}");
            return ExitCode::from(4);
        }
    };
    match write_corpora(&seeds, &out) {
        Ok(new) => {
            println!(
                "{} seeds, {new} new files under {}",
                seeds.len(),
                out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("seed_corpora: cannot write under {}: {e}", out.display());
            ExitCode::from(2)
        }
    }
}
