//! How a target's bytes read as one request of the suite, for the targets whose input is one
//! operation's input: the mutant targets ask the reference and a mutant with it, and `promote`
//! turns a crash artifact into a vector with it.

use crate::hashing::{BitIndexInput, MurmurInput};
use crate::merkle::BuildInput;
use bip37_harness::hex::Hex;
use bip37_harness::ops::*;
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
        })
    }
}
