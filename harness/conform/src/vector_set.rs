//! The vectors a command works on: by default the files built into the binary (so an installed
//! `bip37-conform` needs no checkout), or the `*_test.json` files of `--vectors DIR`.

use crate::exit;
use bip37_harness::vectors::lint::{lint as lint_files, lint_texts, Problem};
use bip37_harness::vectors::{
    embedded, load_file, vector_paths, LoadedFile, LoadedTest, VectorError,
};
use std::path::{Path, PathBuf};

/// Every vector file, parsed; the first broken file stops the load.
pub fn load_files(dir: Option<&Path>) -> Result<Vec<LoadedFile>, VectorError> {
    match dir {
        None => embedded::load(),
        Some(dir) => paths(dir)?.iter().map(|path| load_file(path)).collect(),
    }
}

/// Every test of every vector file, in file order.
pub fn load(dir: Option<&Path>) -> Result<Vec<LoadedTest>, VectorError> {
    Ok(load_files(dir)?.into_iter().flat_map(|f| f.tests).collect())
}

/// [`load`] for a command: a `--vectors` directory that cannot be listed or holds no vector
/// file is a usage error (exit code 2); a broken vector file is reported on stderr and turned
/// into exit code 4.
pub fn load_or_exit(dir: Option<&Path>) -> Result<Vec<LoadedTest>, u8> {
    if let Some(dir) = dir {
        paths_or_exit(dir)?;
    }
    load(dir).map_err(|e| {
        bip37_harness::say!("bip37-conform: invalid vectors: {e}");
        exit::INVALID_VECTORS
    })
}

/// For `run --vectors DIR`: the same checks as `lint`, before anything runs, so that a
/// wrongly marked vector (a valid input marked invalid, a duplicate id) cannot pass an
/// implementation; every problem is printed on stderr and turned into exit code 4. The
/// built-in vectors are linted by the test suite and are not checked again.
pub fn lint_or_exit(dir: Option<&Path>) -> Result<(), u8> {
    let Some(dir) = dir else {
        return Ok(());
    };
    let problems = lint_paths(&paths_or_exit(dir)?);
    if problems.is_empty() {
        return Ok(());
    }
    for problem in &problems {
        bip37_harness::say!("bip37-conform: invalid vectors: {problem}");
    }
    bip37_harness::say!(
        "bip37-conform: {} problems in {} (`bip37-conform lint --vectors` lists them); nothing was run",
        problems.len(),
        dir.display()
    );
    Err(exit::INVALID_VECTORS)
}

/// The vector files a command reads from `--vectors DIR` (none for the built-in vectors), for
/// refusing an output over one of them.
pub fn input_paths(dir: Option<&Path>) -> Vec<PathBuf> {
    dir.and_then(|dir| vector_paths(dir).ok())
        .unwrap_or_default()
}

/// `bip37-conform lint`: prints every problem of the vectors; exit code 4 if there is one.
pub fn lint(dir: Option<&Path>) -> u8 {
    let (count, problems) = match dir {
        None => (embedded::FILES.len(), lint_texts(embedded::FILES)),
        Some(dir) => match paths_or_exit(dir) {
            Ok(paths) => (paths.len(), lint_paths(&paths)),
            Err(code) => return code,
        },
    };
    let mut text: String = problems.iter().map(|p| format!("{p}\n")).collect();
    let code = if problems.is_empty() {
        text += &format!("{count} vector files, no problems\n");
        exit::CONFORMANT
    } else {
        text += &format!("{} problems\n", problems.len());
        exit::INVALID_VECTORS
    };
    crate::output::print(&text);
    code
}

/// The problems of the files at `paths`: a file that does not load is one problem.
fn lint_paths(paths: &[PathBuf]) -> Vec<Problem> {
    let (loaded, broken): (Vec<_>, Vec<_>) =
        paths.iter().map(|p| load_file(p)).partition(Result::is_ok);
    let mut problems: Vec<Problem> = broken
        .into_iter()
        .filter_map(Result::err)
        .map(|e| Problem {
            file: e.file.clone(),
            id: None,
            message: match e.line {
                0 => e.message.clone(),
                _ => format!(
                    "{}:{}: field `{}`: {}",
                    e.line, e.column, e.field, e.message
                ),
            },
        })
        .collect();
    let loaded: Vec<LoadedFile> = loaded.into_iter().filter_map(Result::ok).collect();
    problems.extend(lint_files(&loaded));
    problems
}

/// [`paths`] for a command: a directory problem is reported on stderr as exit code 2.
fn paths_or_exit(dir: &Path) -> Result<Vec<PathBuf>, u8> {
    paths(dir).map_err(|e| {
        bip37_harness::say!("bip37-conform: --vectors {}: {}", dir.display(), e.message);
        exit::HARNESS_ERROR
    })
}

/// The `*_test.json` files of `dir`; none at all is an error.
fn paths(dir: &Path) -> Result<Vec<PathBuf>, VectorError> {
    let paths = vector_paths(dir)?;
    if paths.is_empty() {
        return Err(VectorError::whole(
            dir.display().to_string(),
            "no *_test.json files in this directory",
        ));
    }
    Ok(paths)
}
