//! The one way a vector directory is read: every `*_test.json` of it (and of `imported/`)
//! loaded as a bounded regular file, then linted as a whole (ids unique across files, results
//! consistent with the reference, flags defined), before any of it is used. `run`, `list`,
//! `mutants`, `matrix`, `lint`, `fuzz --import-into` and `promote` all go through it, so a
//! directory one of them refuses is refused by all, with the same problems (exit code 4 on the
//! command line): a wrongly marked vector cannot pass an implementation in one command and fail
//! it in another.

use super::lint::{lint, Problem};
use super::load::{load_file, LoadedFile};
use std::path::PathBuf;

/// The files at `paths`, loaded and linted; every problem when there is one (a file that does
/// not load is one problem, and the files that do are still linted).
pub fn load_and_lint(paths: &[PathBuf]) -> Result<Vec<LoadedFile>, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut loaded = Vec::with_capacity(paths.len());
    for path in paths {
        match load_file(path) {
            Ok(file) => loaded.push(file),
            // Located as the load error says it (`file:line:column: field ...`).
            Err(e) => problems.push(match e.line {
                0 => Problem {
                    file: e.file.clone(),
                    id: None,
                    message: e.message.clone(),
                },
                _ => Problem {
                    file: format!("{}:{}:{}", e.file, e.line, e.column),
                    id: None,
                    message: format!("field `{}`: {}", e.field, e.message),
                },
            }),
        }
    }
    problems.extend(lint(&loaded));
    match problems.is_empty() {
        true => Ok(loaded),
        false => Err(problems),
    }
}
