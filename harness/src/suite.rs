//! The suite from a Rust crate's own `cargo test`: [`Suite`] runs the vectors on a value
//! implementing [`Implementation`] and [`Suite::assert_conforms`] fails the test with the
//! report `bip37-conform run` prints (every failure with its first difference and diagnosis).
//!
//! ```no_run
//! # use bip37_harness::reference_impl::Reference as MyFilter;
//! bip37_harness::Suite::new(MyFilter::default())
//!     .expectations("tests/bip37-expectations.toml")
//!     .assert_conforms();
//! ```
//!
//! The verdict rules are the command line's, because both end a run with [`conclude`]: a
//! failure, an unexpected pass of a listed failure, a stale expectations entry, a crash, or a
//! run in which nothing was exercised (unless [`Suite::allow_empty`]) is not conformant.
//!
//! The expectations file works as on the command line, with two differences that make the
//! snippet above work as pasted into a new crate: a missing file is an empty one (the run
//! notes how to record it), and `BIP37_UPDATE_EXPECTATIONS=1 cargo test` records or updates it
//! from the run, as `--update-expectations` does (written atomically, reasons of entries that
//! still fail as listed kept, the run judged against the file as it was before).

use crate::expectations::{Expectations, ExpectationsError};
use crate::implementation::Implementation;
use crate::input_file;
use crate::ops::OpName;
use crate::report::{self, Format};
use crate::runner::{run_tests, Conformance, Run, RunOptions, Selection};
use crate::vectors::{embedded, LoadedTest, VectorError};
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// The environment variable that makes [`Suite::run`] record the expectations file from the
/// run, as `bip37-conform run --update-expectations` does: `BIP37_UPDATE_EXPECTATIONS=1`.
pub const UPDATE_ENV: &str = "BIP37_UPDATE_EXPECTATIONS";

/// A run of the suite on one implementation, set up builder style.
#[derive(Debug)]
pub struct Suite<I> {
    implementation: I,
    selection: Selection,
    expectations: Option<PathBuf>,
    allow_empty: bool,
}

impl<I: Implementation> Suite<I> {
    /// Every embedded vector, no expectations file.
    pub fn new(implementation: I) -> Self {
        Suite {
            implementation,
            selection: Selection::default(),
            expectations: None,
            allow_empty: false,
        }
    }

    /// Only the tests whose id matches `glob` (`*` and `?`), like `--id`; may be repeated.
    pub fn id(mut self, glob: impl Into<String>) -> Self {
        self.selection.ids.push(glob.into());
        self
    }

    /// Only the tests carrying `flag` (a bug class or divergence), like `--flag`.
    pub fn flag(mut self, flag: impl Into<String>) -> Self {
        self.selection.flags.push(flag.into());
        self
    }

    /// Only the tests of `operation`, like `--op`.
    pub fn operation(mut self, operation: OpName) -> Self {
        self.selection.operations.push(operation);
        self
    }

    /// Any selection the command line can make (phases, source kinds...).
    pub fn select(mut self, selection: Selection) -> Self {
        self.selection = selection;
        self
    }

    /// The expectations file of the known failures (the command line's TOML format). A
    /// relative path is taken from the current directory, which `cargo test` sets to the
    /// package's root. A missing file counts as empty; with `BIP37_UPDATE_EXPECTATIONS=1` in
    /// the environment the run writes it ([`UPDATE_ENV`]).
    pub fn expectations(mut self, path: impl Into<PathBuf>) -> Self {
        self.expectations = Some(path.into());
        self
    }

    /// A run in which no test passed is conformant, like `--allow-empty`.
    pub fn allow_empty(mut self) -> Self {
        self.allow_empty = true;
        self
    }

    /// Runs the selected tests and judges them against the expectations file; records the
    /// file first when [`UPDATE_ENV`] is set to `1`.
    pub fn run(mut self) -> Result<Run, SuiteError> {
        let tests: Vec<LoadedTest> = embedded::load()
            .map_err(SuiteError::Vectors)?
            .into_iter()
            .flat_map(|file| file.tests)
            .collect();
        let update = std::env::var(UPDATE_ENV).is_ok_and(|v| v == "1");
        let (expectations, note) = match &self.expectations {
            Some(path) => load_or_empty(path)?,
            None => (Expectations::default(), None),
        };
        let selected = self.selection.apply(&tests);
        let mut run = run_tests(&selected, &mut self.implementation, &RunOptions::default());
        let known: HashSet<&str> = tests.iter().map(|t| t.case.id.as_str()).collect();
        let recorded = match (&self.expectations, update) {
            (Some(path), true) => Some(record(path, &expectations, &run, &known)?),
            _ => None,
        };
        run.allow_empty = self.allow_empty;
        conclude(&mut run, &tests, &self.selection, &expectations);
        for line in note.into_iter().chain(recorded) {
            eprintln!("bip37-harness: {line}");
            run.warnings.push(line);
        }
        Ok(run)
    }

    /// Runs the suite and panics with the human report unless the run is conformant; a
    /// vectors or expectations file that cannot be used panics with its error.
    #[track_caller]
    pub fn assert_conforms(self) {
        match self.run() {
            Ok(run) if run.conformance() == Conformance::Conformant => {}
            Ok(run) => panic!("{}", report::render(&run, Format::Human, false)),
            Err(e) => panic!("bip37-harness: {e}"),
        }
    }
}

/// The expectations file at `path`, or an empty one with a note on how to record it when
/// there is no file there.
fn load_or_empty(path: &Path) -> Result<(Expectations, Option<String>), SuiteError> {
    if input_file::exists(path) {
        let loaded = Expectations::load(path).map_err(SuiteError::Expectations)?;
        return Ok((loaded, None));
    }
    let note = format!(
        "the expectations file {} does not exist, so no failure is expected; \
         `{UPDATE_ENV}=1 cargo test` records this run's failures there",
        path.display()
    );
    Ok((Expectations::default(), Some(note)))
}

/// Writes the expectations `raw` (a run before [`conclude`]) calls for to `path`, atomically,
/// as `--update-expectations` does (crashes and timeouts left out), and says what it wrote.
fn record(
    path: &Path,
    old: &Expectations,
    raw: &Run,
    known: &HashSet<&str>,
) -> Result<String, SuiteError> {
    let updated = old.updated(raw, known, false);
    let existed = path.symlink_metadata().is_ok();
    crate::atomic_file::write(path, updated.to_toml().as_bytes()).map_err(|source| {
        SuiteError::Record {
            path: path.to_path_buf(),
            existed,
            source,
        }
    })?;
    Ok(format!(
        "{UPDATE_ENV}=1: wrote {} expected failures and {} pinned operations to {}; this run \
         is judged against the file as it was before",
        updated.failures.len(),
        updated.operations.len(),
        path.display()
    ))
}

/// What turns a raw run into the verdict, for the command line and [`Suite`] alike: names
/// the likely bug class of each failure, warns about selection criteria that match nothing
/// in `tests` (every loaded test), and applies `expectations`.
pub fn conclude(
    run: &mut Run,
    tests: &[LoadedTest],
    selection: &Selection,
    expectations: &Expectations,
) {
    crate::diagnosis::annotate(&mut run.results);
    run.warnings.extend(selection.unmatched(tests));
    let known: HashSet<&str> = tests.iter().map(|t| t.case.id.as_str()).collect();
    expectations.apply(run, &known);
}

/// Why the suite could not run.
#[derive(Debug)]
#[non_exhaustive]
pub enum SuiteError {
    /// An embedded vector file does not load.
    Vectors(VectorError),
    /// The expectations file cannot be read or is not valid.
    Expectations(ExpectationsError),
    /// `BIP37_UPDATE_EXPECTATIONS=1` could not write the expectations file (it keeps its
    /// previous contents, or stays missing).
    Record {
        path: PathBuf,
        /// Whether there was a file before.
        existed: bool,
        source: std::io::Error,
    },
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::Vectors(e) => write!(f, "invalid vectors: {e}"),
            SuiteError::Expectations(e) => write!(f, "expectations file {e}"),
            SuiteError::Record {
                path,
                existed,
                source,
            } => write!(
                f,
                "the expectations were NOT updated: cannot write {}: {source}; {}",
                path.display(),
                match existed {
                    true => "the file keeps its previous contents",
                    false => "no file was created",
                }
            ),
        }
    }
}

impl std::error::Error for SuiteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SuiteError::Vectors(e) => Some(e),
            SuiteError::Expectations(e) => Some(e),
            SuiteError::Record { source, .. } => Some(source),
        }
    }
}
