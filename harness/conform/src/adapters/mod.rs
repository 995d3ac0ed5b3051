//! Adapters as data: each `adapters/<name>/adapter.toml` ([`manifest`]) says how its library is
//! installed, how the adapter is built and run and which expectations file holds it; `bip37-conform
//! adapters` ([`command`]) lists, installs and checks them from the manifests, which is what
//! `.ci/run` calls, and `bip37-conform matrix --adapters` makes a column of each.

pub mod child;
pub mod command;
pub mod deadlines;
pub mod gate;
pub mod manifest;

pub use manifest::{Kind, Manifest};
