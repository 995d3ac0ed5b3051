//! `bip37-conform regen`: confirm (or regenerate) the vectors against a live regtest node.
//!
//! Bitcoin Core is the truth, and the strongest evidence is Core itself answering. `regen`
//! sets up chain state over RPC ([`chain`]), asks the node over P2P ([`peer`]) the questions
//! of [`probes`], compares every `merkleblock` and `tx` it sends byte for byte with the
//! reference's prediction ([`predict`]), and keeps a [`record`] of what the node did: written
//! atomically with the node's provenance, or compared with the committed record (`--check`).

pub mod chain;
pub mod cli;
pub mod deadline;
pub mod error;
pub mod keep;
pub mod message;
pub mod network;
pub mod oracle;
pub mod payloads;
pub mod peer;
pub mod predict;
pub mod probes;
pub mod record;
pub mod record_path;
pub mod rpc;
pub mod same_node;
pub mod session;
pub mod tls;
pub mod write;

pub use error::RegenError;
