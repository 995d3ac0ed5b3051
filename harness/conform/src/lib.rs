//! # bip37-conform
//!
//! The command line of `bip37-conformance` (binary `bip37-conform`) and the products that need
//! heavy dependencies: the differential fuzz campaign ([`fuzz`], proptest), the matrix of
//! adapters ([`matrix`]), confirmation against a live node ([`regen`], its own HTTP and P2P
//! clients), the node-conformance suite ([`node`], over the same clients) and progress bars
//! ([`progress`], indicatif). It is split from the library `bip37-harness` so that a Rust implementation testing itself through the trait pulls in none
//! of this: this crate depends on the library, never the other way.
//!
//! Inside the crate, dependencies point one way too: [`cli`] parses the command line and
//! dispatches to the subcommands ([`fuzz`], [`matrix`], [`findings`], [`regen`], [`node`], [`adapters`]), which never
//! import it; what they share sits at the root: the exit codes ([`exit`]), stdout that survives
//! a closed pipe ([`output`]), the vectors a command works on ([`vector_set`]), the argument
//! groups ([`options`]), the reports and exit code of a run ([`delivery`]), the test plan
//! ([`plan`]), the built-in implementations ([`builtins`]) and starting the
//! implementation a command names ([`target`]).

pub mod adapters;
pub mod builtins;
pub mod cli;
pub mod delivery;
pub mod exit;
pub mod findings;
pub mod fuzz;
pub mod matrix;
pub mod node;
pub mod options;
pub mod output;
pub mod plan;
pub mod progress;
pub mod regen;
pub mod signals;
pub mod target;
pub mod vector_set;
