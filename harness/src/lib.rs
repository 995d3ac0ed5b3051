//! # bip37-harness
//!
//! The lean library of `bip37-conformance` that a Rust implementation of BIP 37 depends on to
//! test itself: the operations every implementation answers ([`ops`]), the
//! [`implementation::Implementation`] trait and the built-in reference behind it, the vectors'
//! model and the embedded vectors, the runner, the expectations file, the reports, the mutants
//! and the diagnosis, and the subprocess protocol (client and server).
//!
//! A Rust implementation runs the suite from its own `cargo test` with [`Suite`].
//!
//! It is split from the tools by job, with Cargo enforcing the layering: the command line
//! `bip37-conform` and its heavy products (the fuzz campaign, the matrix, live-node
//! confirmation) live in the crate `bip37-conform` (`harness/conform/`), and the maintainers'
//! vector generator in `bip37-vectorgen` (`harness/vectorgen/`). Both depend on this crate,
//! never the other way, so a crate that only wants the trait pulls in few dependencies
//! (`tests/dependency_allow_list.rs` keeps that list short).

pub mod atomic_file;
pub mod capabilities;
pub mod console;
pub mod diagnosis;
pub mod disagreement;
pub mod expectations;
pub mod file_lock;
pub mod flags;
pub mod hex;
pub mod implementation;
pub mod input_file;
pub mod mutants;
pub mod ops;
pub mod parent_death;
pub mod reference_impl;
pub mod report;
pub mod runner;
pub mod scripts;
pub mod special_file;
pub mod subprocess;
pub mod suite;
pub mod teardown;
pub mod toml_tables;
pub mod vectors;

pub use suite::Suite;
