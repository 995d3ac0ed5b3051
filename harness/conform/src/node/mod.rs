//! `bip37-conform node`: a conformance suite for full nodes, over P2P, with the reports,
//! expectations files and exit codes of `run`.
//!
//! A full node is a BIP 37 implementation too, and the one where mistakes hurt most: a filter
//! not applied to relay leaks a wallet's addresses, a missing limit is a DoS, a wrong reaction
//! drops honest clients. The checks are data ([`checks`], `vectors/node/checks.json`: id,
//! source, flags, Core's behaviour, the deviations nodes show); how each is asked is code
//! ([`procedures`], reusing `regen`'s P2P, RPC and mining code); [`judge`] turns what the node
//! did ([`trial`]) into the runner's results, and [`suite`] runs them against a node
//! ([`link`]). [`cli`] is the command line.

pub mod checks;
pub mod cli;
pub mod judge;
pub mod link;
pub mod procedures;
pub mod suite;
pub mod trial;
