//! How a target's bytes read as one request of the suite, for the targets whose input is one
//! operation's input: the mutant targets ask the reference and a mutant with it, the Core
//! targets the reference and Bitcoin Core's code, and `promote` turns a crash artifact into a
//! vector with it.

use crate::hashing::{BitIndexInput, MurmurInput};
use crate::invariants::{planted_element, FilterCase, FilterSetup, MatchCase};
use crate::merkle::BuildInput;
use arbitrary::{Arbitrary, Unstructured};
use bip37_harness::hex::Hex;
use bip37_harness::ops::*;
use bip37_reference::block::{Block, BlockHeader};
use bip37_reference::FilterAdd;

/// The byte layout of a target's input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The bytes are the payload of this message operation.
    Payload(OpName),
    /// The bytes are a `filteradd` element, sent canonically encoded to `filteraddAccept`: a
    /// payload whose length prefix matches its length is all but unreachable by blind mutation
    /// once it needs the 3-byte form, an element of any length is not.
    FilteraddElement,
    /// [`MurmurInput`]: a `murmur3` request.
    Murmur3,
    /// [`BitIndexInput`]: a `bitIndexes` request on an explicit filter.
    BitIndexes,
    /// [`BuildInput`]: a `pmtBuild` request.
    PmtBuild,
    /// The bytes are a serialized partial merkle tree: a `pmtExtract` request.
    PmtExtract,
    /// A [`FilterCase`] (`arbitrary`): a `buildFilter` request of its set-up, inserts and
    /// queries, the set-up's numbers as they are (no cap on hash functions, any flags byte).
    BuildFilter,
    /// A [`MatchCase`] (`arbitrary`): a `matchTx` request of its filter, its planted element
    /// and its transactions, any flags byte.
    MatchTx,
    /// A [`MatchCase`] whose transactions are a block's (an all-zero header): a `merkleBlock`
    /// request, so that the corpus of matching seeds it.
    MerkleBlock,
}

impl Layout {
    /// The request `bytes` stand for, or `None` if they are too short for the layout.
    pub fn request(self, bytes: &[u8]) -> Option<Request> {
        let payload = || PayloadInput {
            payload: Hex(bytes.to_vec()),
        };
        Some(match self {
            Layout::Payload(OpName::FilterloadDecode) => Request::FilterloadDecode(payload()),
            Layout::Payload(OpName::FilterloadAccept) => Request::FilterloadAccept(payload()),
            Layout::Payload(OpName::FilteraddDecode) => Request::FilteraddDecode(payload()),
            Layout::Payload(OpName::FilteraddAccept) => Request::FilteraddAccept(payload()),
            Layout::Payload(_) => return None,
            Layout::FilteraddElement => Request::FilteraddAccept(PayloadInput {
                payload: Hex(FilterAdd {
                    data: bytes.to_vec(),
                }
                .encode()),
            }),
            Layout::Murmur3 => {
                let input = MurmurInput::parse(bytes)?;
                Request::Murmur3(Murmur3Input {
                    seed: input.seed,
                    data: Hex(input.data.to_vec()),
                })
            }
            Layout::BitIndexes => {
                let input = BitIndexInput::parse(bytes)?;
                Request::BitIndexes(BitIndexesInput {
                    filter: FilterInit::Explicit {
                        filter_bytes: input.filter_bytes.into(),
                        hash_funcs: input.hash_funcs.into(),
                        tweak: input.tweak,
                        flags: 0,
                    },
                    element: Hex(input.element.to_vec()),
                })
            }
            Layout::PmtBuild => {
                let input = BuildInput::parse(bytes)?;
                Request::PmtBuild(PmtBuildInput {
                    txids: input.txids.iter().map(|id| Hex(id.to_vec())).collect(),
                    matches: input.matches,
                })
            }
            Layout::PmtExtract => Request::PmtExtract(PmtExtractInput {
                pmt: Hex(bytes.to_vec()),
            }),
            Layout::BuildFilter => {
                let case = FilterCase::arbitrary_take_rest(Unstructured::new(bytes)).ok()?;
                Request::BuildFilter(BuildFilterInput {
                    filter: filter_init(case.setup),
                    insert: case.inserts.into_iter().map(Hex).collect(),
                    queries: case.queries.into_iter().map(Hex).collect(),
                })
            }
            Layout::MatchTx => {
                let case = MatchCase::arbitrary_take_rest(Unstructured::new(bytes)).ok()?;
                let (filter, insert) = match_filter(&case);
                Request::MatchTx(MatchTxInput {
                    filter,
                    insert,
                    txs: (case.txs.iter())
                        .map(|tx| Hex(tx.build().encode()))
                        .collect(),
                })
            }
            Layout::MerkleBlock => {
                let case = MatchCase::arbitrary_take_rest(Unstructured::new(bytes)).ok()?;
                let (filter, insert) = match_filter(&case);
                let block = Block {
                    header: BlockHeader {
                        version: 0,
                        prev_block: [0; 32],
                        merkle_root: [0; 32],
                        time: 0,
                        bits: 0,
                        nonce: 0,
                    },
                    transactions: case.txs.iter().map(|tx| tx.build()).collect(),
                };
                Request::MerkleBlock(MerkleBlockInput {
                    filter,
                    insert,
                    block: Hex(block.encode()),
                })
            }
        })
    }
}

/// A filter set-up of the `arbitrary` cases as the suite's request states it.
fn filter_init(setup: FilterSetup) -> FilterInit {
    match setup {
        FilterSetup::Sized { n, p, tweak, flags } => FilterInit::Sized {
            n_elements: n,
            fp_rate: FpRate(p),
            tweak,
            flags,
        },
        FilterSetup::Explicit {
            bytes,
            hash_funcs,
            tweak,
            flags,
        } => FilterInit::Explicit {
            filter_bytes: bytes.into(),
            hash_funcs: hash_funcs.into(),
            tweak,
            flags,
        },
        FilterSetup::Loaded {
            data,
            hash_funcs,
            tweak,
            flags,
        } => FilterInit::Loaded {
            data: Hex(data),
            hash_funcs: hash_funcs.into(),
            tweak,
            flags,
        },
    }
}

/// The filter of a [`MatchCase`] (its size up to 4,095 bytes, as the invariant target reads
/// it) and the element planted from its first transaction, if that exists.
fn match_filter(case: &MatchCase) -> (FilterInit, Vec<Hex>) {
    let filter = FilterInit::Explicit {
        filter_bytes: u32::from(case.filter_bytes % 4096),
        hash_funcs: case.hash_funcs.into(),
        tweak: case.tweak,
        flags: case.flags,
    };
    let first = case.txs.first().map(|tx| tx.build());
    let planted = first.and_then(|tx| planted_element(&case.planted, &tx));
    (filter, planted.into_iter().map(Hex).collect())
}
