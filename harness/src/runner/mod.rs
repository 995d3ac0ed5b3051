//! The conformance runner: select tests ([`select`]), run them against an implementation
//! ([`execute`]), judge each answer into a [`State`] ([`verdict`]) and say where a wrong value
//! first departs from the expected one ([`diff`]).
//!
//! The runner knows no operation in particular: it moves typed requests and outputs through
//! [`crate::implementation::Implementation::execute`]. Only [`diff`] looks inside outputs, and
//! it falls back to a generic comparison for every operation it has no special account of.

pub mod diff;
pub mod execute;
pub mod exercised;
pub mod select;
pub mod state;
pub mod verdict;

pub use execute::{run_tests, run_tests_observed, Conformance, Run, RunOptions};
pub use select::Selection;
pub use state::State;
pub use verdict::TestResult;
