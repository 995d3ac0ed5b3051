//! # bip37-conform
//!
//! The command line of `bip37-conformance` (binary `bip37-conform`) and the products that need
//! heavy dependencies: the differential fuzz campaign ([`fuzz`], proptest), the matrix of
//! adapters ([`matrix`]), confirmation against a live node ([`regen`], its own HTTP and P2P
//! clients), the node-conformance suite ([`node`], over the same clients) and progress bars ([`progress`], indicatif). It is split from the library
//! `bip37-harness` so that a Rust implementation testing itself through the trait pulls in none
//! of this: this crate depends on the library, never the other way.

pub mod cli;
pub mod fuzz;
pub mod matrix;
pub mod node;
pub mod progress;
pub mod regen;
