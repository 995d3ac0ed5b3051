//! # bip37-reference
//!
//! A BIP 37 implementation that agrees with Bitcoin Core bit for bit: the oracle of the
//! `bip37-conformance` suite. Where the BIP text and Core differ, this crate follows Core.
//!
//! - [`murmur3`](mod@murmur3): MurmurHash3 x86_32 as Core's `MurmurHash3`.
//! - [`sizing`]: the constructor's (n, p) → (bytes, hash functions) arithmetic.
//! - [`filter`]: the filter, its seeds and bit indexes, `insert` and `contains`.
//! - [`wire`] and [`compact_size`]: `filterload` / `filteradd` / `filterclear` payloads.
//! - [`limits`]: the size limits a node applies after decoding; [`ceilings`]: the largest
//!   filter built here at all, so no input makes unbounded work.
//! - [`flags`]: the `nFlags` byte and the update mode it selects.
//! - [`sha256`], [`tx`], [`block`]: hashing and bounded transaction / block decoders.
//! - [`script`] and [`solver`]: the pushes a filter tests and the P2PUBKEY_ONLY templates.
//! - [`matching`]: `IsRelevantAndUpdate`, the transaction match and filter update.
//! - [`pmt`] and [`merkle_block`]: the partial merkle tree and the `merkleblock` message.
//!
//! Nothing here panics on any input, and no decoder allocates from an untrusted length.

mod bit_modulus;
pub mod block;
pub mod ceilings;
pub mod compact_size;
pub mod filter;
pub mod flags;
pub mod limits;
pub mod matching;
pub mod merkle_block;
pub mod murmur3;
pub mod pmt;
pub mod script;
pub mod sha256;
pub mod sizing;
pub mod solver;
pub mod tx;
pub mod wire;

pub use block::{Block, BlockHeader};
pub use ceilings::BeyondCeiling;
pub use filter::{hash_seed, BloomFilter};
pub use flags::UpdateMode;
pub use limits::LimitError;
pub use merkle_block::MerkleBlock;
pub use murmur3::murmur3;
pub use pmt::PartialMerkleTree;
pub use sizing::{size_for, FilterSize, SizingError};
pub use tx::{MutableTransaction, OutPoint, Transaction, TxError};
pub use wire::{DecodeError, FilterAdd, FilterLoad};
