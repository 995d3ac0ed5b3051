//! The vectors a command works on: by default the files built into the binary (so an installed
//! `bip37-conform` needs no checkout), or the `*_test.json` files of `--vectors DIR`.

use crate::exit;
use bip37_harness::vectors::checked::load_and_lint;
use bip37_harness::vectors::lint::lint_texts;
use bip37_harness::vectors::{
    embedded, load_file, vector_paths, LoadedFile, LoadedTest, VectorError,
};
use std::path::{Path, PathBuf};

/// Every vector file, parsed; the first broken file stops the load. For the commands that
/// read the vectors as data (`regen`, `node`, `fuzz`'s seeds), not to judge an implementation.
pub fn load_files(dir: Option<&Path>) -> Result<Vec<LoadedFile>, VectorError> {
    match dir {
        None => embedded::load(),
        Some(dir) => paths(dir)?.iter().map(|path| load_file(path)).collect(),
    }
}

/// Every test of every vector file, in file order (see [`load_files`]).
pub fn load(dir: Option<&Path>) -> Result<Vec<LoadedTest>, VectorError> {
    Ok(load_files(dir)?.into_iter().flat_map(|f| f.tests).collect())
}

/// The tests a command judges by: the built-in vectors (linted by the test suite), or every
/// file of `--vectors DIR` through the one load-and-lint step ([`load_and_lint`]) before
/// anything runs. A directory that cannot be listed or holds no vector file is a usage error
/// (exit code 2); every problem of the files is printed on stderr and is exit code 4.
pub fn load_or_exit(dir: Option<&Path>) -> Result<Vec<LoadedTest>, u8> {
    let files = match dir {
        None => embedded::load().map_err(|e| {
            bip37_harness::say!("bip37-conform: invalid vectors: {e}");
            exit::INVALID_VECTORS
        })?,
        Some(dir) => checked_or_exit(dir, &paths_or_exit(dir)?)?,
    };
    Ok(files.into_iter().flat_map(|f| f.tests).collect())
}

/// The tests for `list`, which prints the plan and judges nothing: every file of `--vectors
/// DIR` loaded (bounded, located errors, exit code 4) but not linted, so the plan of a
/// directory being written can be looked at.
pub fn load_unlinted_or_exit(dir: Option<&Path>) -> Result<Vec<LoadedTest>, u8> {
    if let Some(dir) = dir {
        paths_or_exit(dir)?;
    }
    load(dir).map_err(|e| {
        bip37_harness::say!("bip37-conform: invalid vectors: {e}");
        exit::INVALID_VECTORS
    })
}

/// [`load_and_lint`] of `paths`, the files of `dir`, for a command: every problem on stderr
/// and exit code 4.
pub fn checked_or_exit(dir: &Path, paths: &[PathBuf]) -> Result<Vec<LoadedFile>, u8> {
    load_and_lint(paths).map_err(|problems| {
        for problem in &problems {
            bip37_harness::say!("bip37-conform: invalid vectors: {problem}");
        }
        bip37_harness::say!(
            "bip37-conform: {} problems in {} (`bip37-conform lint --vectors` lists them); \
             nothing was run",
            problems.len(),
            dir.display()
        );
        exit::INVALID_VECTORS
    })
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
            Ok(paths) => (paths.len(), load_and_lint(&paths).err().unwrap_or_default()),
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
