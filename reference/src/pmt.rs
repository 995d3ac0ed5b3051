//! The partial merkle tree of a `merkleblock` (Core's `CPartialMerkleTree`,
//! src/merkleblock.cpp): built top-down and depth-first from the txids and their match flags,
//! serialized, parsed, and checked while its matches are extracted.
//!
//! Wire form: `nTransactions u32 LE || CompactSize(n) || n hashes (32 bytes, internal order) ||
//! CompactSize(m) || m flag bytes`, the flag bits packed least significant bit first. The
//! height is the smallest `h` with `width(h) == 1`, `width(h) = (nTx + 2^h - 1) >> h`; a node
//! without a right child hashes its left child twice.
//!
//! Extraction refuses, as Core's `ExtractMatches` does by returning the null root: no
//! transactions or more than 16,666; more hashes than transactions; fewer bits than hashes;
//! running out of bits or hashes; a two-child node with identical children (CVE-2012-2459);
//! bits left over beyond the padding of the last byte; hashes left over.

use crate::compact_size::{self, ensure_consumed, read_prefixed, take, take_slice, write_prefixed};
use crate::sha256::{hash_pair, Hash256};
use crate::tx::read_count;
use crate::wire::DecodeError;
use std::fmt;

/// `MAX_BLOCK_WEIGHT / MIN_TRANSACTION_WEIGHT`: the most transactions a tree may claim.
pub const MAX_TRANSACTIONS: u32 = 4_000_000 / 240;

/// Why a tree cannot be built from txids and match flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildError {
    /// No transactions (Core's constructor reads out of bounds there).
    NoTransactions,
    /// The txid and match lists differ in length.
    LengthMismatch { txids: usize, matches: usize },
    /// More transactions than the u32 count field holds.
    TooManyTransactions(usize),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::NoTransactions => f.write_str("a partial merkle tree needs a transaction"),
            BuildError::LengthMismatch { txids, matches } => {
                write!(f, "{txids} txids but {matches} match flags")
            }
            BuildError::TooManyTransactions(n) => write!(f, "{n} transactions overflow the count"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Why `ExtractMatches` refuses a tree (Core returns the null root for each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtractError {
    NoTransactions,
    TooManyTransactions(u32),
    MoreHashesThanTransactions { hashes: usize, transactions: u32 },
    FewerBitsThanHashes { bits: usize, hashes: usize },
    BitsExhausted,
    HashesExhausted,
    IdenticalSiblings { height: u32, pos: u32 },
    UnusedBits { used: usize, available: usize },
    UnusedHashes { used: usize, available: usize },
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractError::NoTransactions => f.write_str("the tree claims no transactions"),
            ExtractError::TooManyTransactions(n) => {
                write!(f, "{n} transactions exceed {MAX_TRANSACTIONS}")
            }
            ExtractError::MoreHashesThanTransactions {
                hashes,
                transactions,
            } => write!(f, "{hashes} hashes for {transactions} transactions"),
            ExtractError::FewerBitsThanHashes { bits, hashes } => {
                write!(f, "{bits} flag bits for {hashes} hashes")
            }
            ExtractError::BitsExhausted => f.write_str("ran out of flag bits"),
            ExtractError::HashesExhausted => f.write_str("ran out of hashes"),
            ExtractError::IdenticalSiblings { height, pos } => write!(
                f,
                "node {pos} at height {height} has identical children (CVE-2012-2459)"
            ),
            ExtractError::UnusedBits { used, available } => write!(
                f,
                "{used} of {available} flag bits used: a whole unused byte remains"
            ),
            ExtractError::UnusedHashes { used, available } => {
                write!(f, "{used} of {available} hashes used")
            }
        }
    }
}

impl std::error::Error for ExtractError {}

/// A matched transaction: its position in the block and its txid (internal byte order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub index: u32,
    pub txid: Hash256,
}

/// What a valid tree proves: the merkle root and the matched transactions in block order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    pub root: Hash256,
    pub matches: Vec<Match>,
}

/// A partial merkle tree. After [`PartialMerkleTree::decode`] `bits` holds every bit of the
/// flag bytes, padding included, as Core's `BytesToBits` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialMerkleTree {
    pub transactions: u32,
    pub hashes: Vec<Hash256>,
    pub bits: Vec<bool>,
}

impl PartialMerkleTree {
    /// Core's `CPartialMerkleTree(txids, matches)`.
    pub fn build(txids: &[Hash256], matches: &[bool]) -> Result<Self, BuildError> {
        if txids.len() != matches.len() {
            return Err(BuildError::LengthMismatch {
                txids: txids.len(),
                matches: matches.len(),
            });
        }
        if txids.is_empty() {
            return Err(BuildError::NoTransactions);
        }
        let transactions =
            u32::try_from(txids.len()).map_err(|_| BuildError::TooManyTransactions(txids.len()))?;
        let mut builder = Builder {
            txids,
            matches,
            tree: Self {
                transactions,
                hashes: Vec::new(),
                bits: Vec::new(),
            },
        };
        builder.traverse(height(transactions), 0);
        Ok(builder.tree)
    }

    /// The serialization.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + 9 + 32 * self.hashes.len() + 9 + self.bits.len() / 8);
        out.extend_from_slice(&self.transactions.to_le_bytes());
        compact_size::write(&mut out, self.hashes.len() as u64);
        out.extend_from_slice(self.hashes.as_flattened());
        write_prefixed(&mut out, &bits_to_bytes(&self.bits));
        out
    }

    /// Decodes exactly one tree: trailing bytes are an error. Decoding checks only the form;
    /// [`PartialMerkleTree::extract_matches`] checks the content.
    pub fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut input = bytes;
        let tree = Self::decode_from(&mut input)?;
        ensure_consumed(input)?;
        Ok(tree)
    }

    /// Decodes a tree from the front of `input`.
    pub fn decode_from(input: &mut &[u8]) -> Result<Self, DecodeError> {
        let transactions = u32::from_le_bytes(take(input, "transaction count")?);
        let count = read_count(input, 32, "hashes")?;
        // `read_count` has checked that the `count` hashes are there: one slice, copied whole.
        let (hashes, _) = take_slice(input, count as u64 * 32, "hashes")?.as_chunks::<32>();
        let hashes = hashes.to_vec();
        // A byte at a time, each into its eight flags at once (a flag at a time was most of
        // `differential_merkle_block`'s decoding under the fuzzer's comparison tracing).
        let flag_bytes = read_prefixed(input, "flag bytes")?;
        let bits = (flag_bytes.iter())
            .map(|&byte| std::array::from_fn::<bool, 8, _>(|i| byte >> i & 1 == 1))
            .collect::<Vec<_>>()
            .into_flattened();
        Ok(Self {
            transactions,
            hashes,
            bits,
        })
    }

    /// Core's `ExtractMatches`: the root and the matched transactions, or why the tree is invalid.
    pub fn extract_matches(&self) -> Result<Extracted, ExtractError> {
        if self.transactions == 0 {
            return Err(ExtractError::NoTransactions);
        }
        if self.transactions > MAX_TRANSACTIONS {
            return Err(ExtractError::TooManyTransactions(self.transactions));
        }
        if self.hashes.len() > self.transactions as usize {
            return Err(ExtractError::MoreHashesThanTransactions {
                hashes: self.hashes.len(),
                transactions: self.transactions,
            });
        }
        if self.bits.len() < self.hashes.len() {
            return Err(ExtractError::FewerBitsThanHashes {
                bits: self.bits.len(),
                hashes: self.hashes.len(),
            });
        }
        let mut extractor = Extractor {
            tree: self,
            bits_used: 0,
            hashes_used: 0,
            matches: Vec::new(),
        };
        let root = extractor.traverse(height(self.transactions), 0)?;
        if extractor.bits_used.div_ceil(8) != self.bits.len().div_ceil(8) {
            return Err(ExtractError::UnusedBits {
                used: extractor.bits_used,
                available: self.bits.len(),
            });
        }
        if extractor.hashes_used != self.hashes.len() {
            return Err(ExtractError::UnusedHashes {
                used: extractor.hashes_used,
                available: self.hashes.len(),
            });
        }
        Ok(Extracted {
            root,
            matches: extractor.matches,
        })
    }
}

/// Packs bits least significant first (Core's `BitsToBytes`).
pub fn bits_to_bytes(bits: &[bool]) -> Vec<u8> {
    let pack = |flags: &[bool]| {
        (0..)
            .zip(flags)
            .fold(0u8, |byte, (i, &f)| byte | u8::from(f) << i)
    };
    let (whole, last) = bits.as_chunks::<8>();
    let mut bytes: Vec<u8> = whole.iter().map(|flags| pack(flags)).collect();
    if !last.is_empty() {
        bytes.push(pack(last));
    }
    bytes
}

/// The number of nodes at `height` above the leaves of a tree of `transactions` leaves.
fn width(transactions: u32, height: u32) -> u32 {
    ((u64::from(transactions) + (1u64 << height) - 1) >> height) as u32
}

/// The height of the tree: the smallest with a single node.
fn height(transactions: u32) -> u32 {
    let mut h = 0;
    while width(transactions, h) > 1 {
        h += 1;
    }
    h
}

struct Builder<'a> {
    txids: &'a [Hash256],
    matches: &'a [bool],
    tree: PartialMerkleTree,
}

impl Builder<'_> {
    /// `TraverseAndBuild`.
    fn traverse(&mut self, height: u32, pos: u32) {
        let first = (pos as usize) << height;
        let end = ((pos as usize + 1) << height).min(self.txids.len());
        let parent_of_match = self.matches[first..end].iter().any(|&m| m);
        self.tree.bits.push(parent_of_match);
        if height == 0 || !parent_of_match {
            let hash = self.node_hash(height, pos);
            self.tree.hashes.push(hash);
        } else {
            self.traverse(height - 1, pos * 2);
            if pos * 2 + 1 < width(self.tree.transactions, height - 1) {
                self.traverse(height - 1, pos * 2 + 1);
            }
        }
    }

    /// `CalcHash`: the hash of a node of the full tree.
    fn node_hash(&self, height: u32, pos: u32) -> Hash256 {
        if height == 0 {
            return self.txids[pos as usize];
        }
        let left = self.node_hash(height - 1, pos * 2);
        let right = if pos * 2 + 1 < width(self.tree.transactions, height - 1) {
            self.node_hash(height - 1, pos * 2 + 1)
        } else {
            left
        };
        hash_pair(&left, &right)
    }
}

struct Extractor<'a> {
    tree: &'a PartialMerkleTree,
    bits_used: usize,
    hashes_used: usize,
    matches: Vec<Match>,
}

impl Extractor<'_> {
    /// `TraverseAndExtract`.
    fn traverse(&mut self, height: u32, pos: u32) -> Result<Hash256, ExtractError> {
        let &parent_of_match = self
            .tree
            .bits
            .get(self.bits_used)
            .ok_or(ExtractError::BitsExhausted)?;
        self.bits_used += 1;
        if height == 0 || !parent_of_match {
            let &hash = self
                .tree
                .hashes
                .get(self.hashes_used)
                .ok_or(ExtractError::HashesExhausted)?;
            self.hashes_used += 1;
            if height == 0 && parent_of_match {
                self.matches.push(Match {
                    index: pos,
                    txid: hash,
                });
            }
            return Ok(hash);
        }
        let left = self.traverse(height - 1, pos * 2)?;
        let right = if pos * 2 + 1 < width(self.tree.transactions, height - 1) {
            let right = self.traverse(height - 1, pos * 2 + 1)?;
            if right == left {
                return Err(ExtractError::IdenticalSiblings { height, pos });
            }
            right
        } else {
            left
        };
        Ok(hash_pair(&left, &right))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: u8) -> Vec<Hash256> {
        (1..=n).map(|i| [i; 32]).collect()
    }

    #[test]
    fn single_transaction_is_one_bit_one_hash() {
        let tree = PartialMerkleTree::build(&ids(1), &[true]).unwrap();
        let mut expected = vec![1, 0, 0, 0, 1];
        expected.extend_from_slice(&[1; 32]);
        expected.extend_from_slice(&[1, 1]);
        assert_eq!(tree.encode(), expected);
        let extracted = PartialMerkleTree::decode(&expected)
            .unwrap()
            .extract_matches()
            .unwrap();
        assert_eq!(extracted.root, [1; 32]);
        assert_eq!(
            extracted.matches,
            vec![Match {
                index: 0,
                txid: [1; 32]
            }]
        );
    }

    #[test]
    fn roundtrip_three_leaves() {
        let txids = ids(3);
        let tree = PartialMerkleTree::build(&txids, &[false, false, true]).unwrap();
        // root(1) left(0: hash) right(1) leaf 2 (1: hash) — depth first.
        assert_eq!(tree.bits, vec![true, false, true, true]);
        let decoded = PartialMerkleTree::decode(&tree.encode()).unwrap();
        let extracted = decoded.extract_matches().unwrap();
        let expected_root = hash_pair(
            &hash_pair(&txids[0], &txids[1]),
            &hash_pair(&txids[2], &txids[2]),
        );
        assert_eq!(extracted.root, expected_root);
        assert_eq!(
            extracted.matches,
            vec![Match {
                index: 2,
                txid: txids[2]
            }]
        );
    }

    #[test]
    fn padding_only_in_the_last_byte() {
        let tree = PartialMerkleTree::build(&ids(3), &[false, false, true]).unwrap();
        let mut bytes = tree.encode();
        let at = bytes.len() - 2;
        bytes[at] = 2; // two flag bytes
        bytes.push(0);
        let err = PartialMerkleTree::decode(&bytes)
            .unwrap()
            .extract_matches()
            .unwrap_err();
        assert!(matches!(err, ExtractError::UnusedBits { .. }), "{err}");
    }

    #[test]
    fn unused_hash_and_exhaustion() {
        let mut tree = PartialMerkleTree::build(&ids(3), &[false, false, true]).unwrap();
        tree.hashes.push([9; 32]);
        assert!(matches!(
            tree.extract_matches(),
            Err(ExtractError::UnusedHashes { .. })
        ));
        tree.hashes.truncate(1);
        assert_eq!(tree.extract_matches(), Err(ExtractError::HashesExhausted));
        let tree = PartialMerkleTree {
            transactions: 2,
            hashes: vec![[1; 32]],
            bits: vec![true],
        };
        assert_eq!(tree.extract_matches(), Err(ExtractError::BitsExhausted));
    }

    #[test]
    fn count_bounds() {
        let mut tree = PartialMerkleTree::build(&ids(1), &[true]).unwrap();
        tree.transactions = 0;
        assert_eq!(tree.extract_matches(), Err(ExtractError::NoTransactions));
        tree.transactions = MAX_TRANSACTIONS + 1;
        assert_eq!(
            tree.extract_matches(),
            Err(ExtractError::TooManyTransactions(MAX_TRANSACTIONS + 1))
        );
        assert_eq!(
            PartialMerkleTree::build(&[], &[]),
            Err(BuildError::NoTransactions)
        );
        assert!(PartialMerkleTree::build(&ids(2), &[true]).is_err());
    }

    #[test]
    fn flags_pack_least_significant_bit_first() {
        // Flag p is bit p % 8 of byte p / 8; a partial last byte is padded with zeros.
        let flags = |pattern: &str| pattern.bytes().map(|c| c == b'1').collect::<Vec<_>>();
        assert_eq!(bits_to_bytes(&[]), Vec::<u8>::new());
        assert_eq!(bits_to_bytes(&flags("1")), [0x01]);
        assert_eq!(bits_to_bytes(&flags("00000001")), [0x80]);
        assert_eq!(bits_to_bytes(&flags("110100101")), [0x4b, 0x01]);
        assert_eq!(
            bits_to_bytes(&flags("1111111100000000011")),
            [0xff, 0x00, 0x06]
        );
        // Decoding unpacks every bit of every flag byte, padding included.
        let mut payload = vec![5, 0, 0, 0, 0, 3, 0x4b, 0x80, 0x06];
        let tree = PartialMerkleTree::decode(&payload).unwrap();
        let mut expected = flags("11010010");
        expected.extend(flags("00000001"));
        expected.extend(flags("01100000"));
        assert_eq!(tree.bits, expected);
        payload.truncate(8);
        assert!(PartialMerkleTree::decode(&payload).is_err());
    }

    #[test]
    fn hostile_hash_count_is_not_allocated() {
        let bytes = [1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0x00];
        assert!(matches!(
            PartialMerkleTree::decode(&bytes),
            Err(DecodeError::SizeTooLarge(_) | DecodeError::Truncated { .. })
        ));
    }
}
