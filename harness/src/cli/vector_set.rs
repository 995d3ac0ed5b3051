//! The vectors a command works on: by default the files built into the binary (so an installed
//! `bip37-conform` needs no checkout), or the `*_test.json` files of `--vectors DIR`.

use super::exit;
use crate::vectors::lint::lint_texts;
use crate::vectors::{embedded, parse_file, vector_paths, LoadedFile, LoadedTest, VectorError};
use std::path::Path;

/// Every vector file, parsed; the first broken file stops the load.
pub fn load_files(dir: Option<&Path>) -> Result<Vec<LoadedFile>, VectorError> {
    let Some(dir) = dir else {
        return embedded::load();
    };
    texts(dir)?
        .iter()
        .map(|(name, text)| parse_file(name, text))
        .collect()
}

/// Every test of every vector file, in file order.
pub fn load(dir: Option<&Path>) -> Result<Vec<LoadedTest>, VectorError> {
    Ok(load_files(dir)?.into_iter().flat_map(|f| f.tests).collect())
}

/// `bip37-conform lint`: prints every problem of the vectors; exit code 4 if there is one.
pub fn lint(dir: Option<&Path>) -> u8 {
    let owned = match dir {
        None => embedded::FILES
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect(),
        Some(dir) => match texts(dir) {
            Ok(texts) => texts,
            Err(e) => {
                eprintln!("bip37-conform lint: {e}");
                return exit::INVALID_VECTORS;
            }
        },
    };
    let files: Vec<(&str, &str)> = owned
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let problems = lint_texts(&files);
    for problem in &problems {
        println!("{problem}");
    }
    if problems.is_empty() {
        println!("{} vector files, no problems", files.len());
        exit::CONFORMANT
    } else {
        println!("{} problems", problems.len());
        exit::INVALID_VECTORS
    }
}

/// The names and texts of the `*_test.json` files of `dir` (at least one).
fn texts(dir: &Path) -> Result<Vec<(String, String)>, VectorError> {
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
    paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).map_err(|e| VectorError {
                file: path.display().to_string(),
                line: 0,
                column: 0,
                field: ".".into(),
                message: format!("cannot read: {e}"),
            })?;
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            Ok((name, text))
        })
        .collect()
}
