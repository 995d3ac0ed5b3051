//! # bip37-harness
//!
//! The conformance harness of `bip37-conformance`: the vector format and loader, the
//! operations every implementation answers, the [`implementation::Implementation`] trait and
//! the built-in reference behind it.

pub mod atomic_file;
pub mod cli;
pub mod console;
pub mod diagnosis;
pub mod expectations;
pub mod fuzz;
pub mod hex;
pub mod implementation;
pub mod input_file;
pub mod matrix;
pub mod mutants;
pub mod node;
pub mod ops;
pub mod progress;
pub mod reference_impl;
pub mod regen;
pub mod report;
pub mod runner;
pub mod scripts;
pub mod subprocess;
pub mod vectorgen;
pub mod vectors;
