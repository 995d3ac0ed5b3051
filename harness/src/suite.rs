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

use crate::expectations::{Expectations, ExpectationsError};
use crate::implementation::Implementation;
use crate::ops::OpName;
use crate::report::{self, Format};
use crate::runner::{run_tests, Conformance, Run, RunOptions, Selection};
use crate::vectors::{embedded, LoadedTest, VectorError};
use std::collections::HashSet;
use std::fmt;
use std::path::PathBuf;

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
    /// package's root.
    pub fn expectations(mut self, path: impl Into<PathBuf>) -> Self {
        self.expectations = Some(path.into());
        self
    }

    /// A run in which no test passed is conformant, like `--allow-empty`.
    pub fn allow_empty(mut self) -> Self {
        self.allow_empty = true;
        self
    }

    /// Runs the selected tests and judges them against the expectations file.
    pub fn run(mut self) -> Result<Run, SuiteError> {
        let tests: Vec<LoadedTest> = embedded::load()
            .map_err(SuiteError::Vectors)?
            .into_iter()
            .flat_map(|file| file.tests)
            .collect();
        let expectations = match &self.expectations {
            Some(path) => Expectations::load(path).map_err(SuiteError::Expectations)?,
            None => Expectations::default(),
        };
        let selected = self.selection.apply(&tests);
        let mut run = run_tests(&selected, &mut self.implementation, &RunOptions::default());
        run.allow_empty = self.allow_empty;
        conclude(&mut run, &tests, &self.selection, &expectations);
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
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::Vectors(e) => write!(f, "invalid vectors: {e}"),
            SuiteError::Expectations(e) => write!(f, "expectations file {e}"),
        }
    }
}

impl std::error::Error for SuiteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SuiteError::Vectors(e) => Some(e),
            SuiteError::Expectations(e) => Some(e),
        }
    }
}
