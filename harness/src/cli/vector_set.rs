//! The vectors a command works on: the `*_test.json` files of `--vectors DIR`, or by default
//! the suite's own vector directory.

use crate::vectors::{load_file, vector_paths, LoadedTest, VectorError};
use std::path::Path;

/// The suite's vector directory in this source tree.
const DEFAULT_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors");

/// Every test of every vector file, in file order; the first broken file stops the load.
pub fn load(dir: Option<&Path>) -> Result<Vec<LoadedTest>, VectorError> {
    let dir = dir.unwrap_or(Path::new(DEFAULT_DIR));
    let paths = vector_paths(dir)?;
    if paths.is_empty() {
        return Err(VectorError {
            file: dir.display().to_string(),
            line: 0,
            column: 0,
            field: ".".into(),
            message: "no *_test.json files in this directory".into(),
        });
    }
    let mut tests = Vec::new();
    for path in paths {
        tests.extend(load_file(&path)?.tests);
    }
    Ok(tests)
}
