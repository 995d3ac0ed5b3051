//! Bitcoin Core's own BIP 37 code as an implementation under test: `CBloomFilter`,
//! `CMerkleBlock`, `CPartialMerkleTree`, `MurmurHash3` and Core's transaction, block and
//! message deserialization, compiled from Core's source with Core's flags (build.rs) behind the
//! project's `extern "C"` shim (shim/bip37_core.cpp), answered through the suite's
//! `Implementation` trait in-process (tests/suite.rs) and over the subprocess protocol (the
//! `bip37-bitcoin-core` binary). Core is the truth, so it must pass every vector; an input for
//! which Core's code is undefined is answered "unsupported" and listed in expectations.toml.

pub mod bench_ffi;
pub mod ffi;

use bip37_harness::implementation::{Answer, Implementation, Stage};
use bip37_harness::ops::*;
use ffi::{Init, Outcome, Value};

/// Core's code behind the trait.
#[derive(Debug, Default, Clone, Copy)]
pub struct Core;

fn init(filter: &FilterInit) -> Init<'_> {
    match filter {
        FilterInit::Sized {
            n_elements,
            fp_rate,
            tweak,
            flags,
        } => Init::Sized {
            n_elements: *n_elements,
            fp_rate: fp_rate.0,
            tweak: *tweak,
            flags: *flags,
        },
        FilterInit::Explicit {
            filter_bytes,
            hash_funcs,
            tweak,
            flags,
        } => Init::Explicit {
            filter_bytes: *filter_bytes,
            hash_funcs: *hash_funcs,
            tweak: *tweak,
            flags: *flags,
        },
        FilterInit::Loaded {
            data,
            hash_funcs,
            tweak,
            flags,
        } => Init::Loaded {
            data,
            hash_funcs: *hash_funcs,
            tweak: *tweak,
            flags: *flags,
        },
    }
}

/// A shim outcome as an answer, its value mapped by `f`.
fn answer<T>(outcome: Outcome, f: impl FnOnce(Value) -> T) -> Answer<T> {
    match outcome {
        Outcome::Value(value) => Answer::Ok(f(value)),
        Outcome::Rejected(stage, message) => Answer::reject(
            match stage {
                ffi::Stage::Decode => Stage::Decode,
                ffi::Stage::Limits => Stage::Limits,
                ffi::Stage::Parameters => Stage::Parameters,
                ffi::Stage::Validation => Stage::Validation,
            },
            message,
        ),
        Outcome::Undefined(_) => Answer::Unsupported,
    }
}

/// Matched transactions from 32-byte txids and their indexes.
fn matched(txids: &[u8], indexes: &[u32]) -> Vec<MatchedTx> {
    txids
        .chunks(32)
        .zip(indexes)
        .map(|(txid, &index)| MatchedTx {
            index,
            txid: txid.to_vec().into(),
        })
        .collect()
}

fn filterload_output(value: Value) -> FilterloadOutput {
    FilterloadOutput {
        data: value.a.into(),
        hash_funcs: value.n[0],
        tweak: value.n[1],
        flags: value.n[2] as u8,
    }
}

impl Implementation for Core {
    fn name(&self) -> String {
        "bitcoin-core".into()
    }

    fn version(&self) -> String {
        "30.99 (d861c3820528)".into()
    }

    fn notes(&self) -> Option<String> {
        Some(
            "Core's own code, compiled from source; no hashSeed (Core computes the seed inside \
             the private CBloomFilter::Hash) and no sequence (a node's session is \
             net_processing's, checked on a real bitcoind by the node suite); inputs where \
             Core's code is undefined are answered unsupported"
                .into(),
        )
    }

    fn operations(&self) -> Vec<OpName> {
        use OpName::*;
        vec![
            Murmur3,
            Sizing,
            BitIndexes,
            BuildFilter,
            FilterloadDecode,
            FilterloadAccept,
            FilteraddDecode,
            FilteraddAccept,
            MatchTx,
            MerkleBlock,
            PmtBuild,
            PmtExtract,
        ]
    }

    fn murmur3(&mut self, input: &Murmur3Input) -> Answer<Murmur3Output> {
        Answer::Ok(Murmur3Output {
            hash: ffi::murmur3(input.seed, &input.data),
        })
    }

    fn sizing(&mut self, input: &SizingInput) -> Answer<SizingOutput> {
        answer(ffi::sizing(input.n_elements, input.fp_rate.0), |v| {
            SizingOutput {
                filter_bytes: v.n[0],
                hash_funcs: v.n[1],
            }
        })
    }

    fn bit_indexes(&mut self, input: &BitIndexesInput) -> Answer<BitIndexesOutput> {
        answer(
            ffi::bit_indexes(&init(&input.filter), &input.element),
            |v| BitIndexesOutput { indexes: v.n },
        )
    }

    fn build_filter(&mut self, input: &BuildFilterInput) -> Answer<BuildFilterOutput> {
        let outcome = ffi::build_filter(&init(&input.filter), &input.insert, &input.queries);
        answer(outcome, |v| BuildFilterOutput {
            filterload: v.a.into(),
            contains: v.n.iter().map(|&c| c != 0).collect(),
        })
    }

    fn filterload_decode(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        answer(ffi::filterload(&input.payload, false), filterload_output)
    }

    fn filterload_accept(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        answer(ffi::filterload(&input.payload, true), filterload_output)
    }

    fn filteradd_decode(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        answer(ffi::filteradd(&input.payload, false), |v| FilteraddOutput {
            data: v.a.into(),
        })
    }

    fn filteradd_accept(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        answer(ffi::filteradd(&input.payload, true), |v| FilteraddOutput {
            data: v.a.into(),
        })
    }

    fn match_tx(&mut self, input: &MatchTxInput) -> Answer<MatchTxOutput> {
        let outcome = ffi::match_tx(&init(&input.filter), &input.insert, &input.txs);
        answer(outcome, |v| MatchTxOutput {
            matched: v.n.iter().map(|&m| m != 0).collect(),
            filter_data: v.a.into(),
        })
    }

    fn merkle_block(&mut self, input: &MerkleBlockInput) -> Answer<MerkleBlockOutput> {
        let outcome = ffi::merkle_block(&init(&input.filter), &input.insert, &input.block);
        answer(outcome, |v| MerkleBlockOutput {
            merkleblock: v.a.into(),
            matched: matched(&v.b, &v.n),
            filter_data: v.c.into(),
        })
    }

    fn pmt_build(&mut self, input: &PmtBuildInput) -> Answer<PmtBuildOutput> {
        if input.txids.iter().any(|id| id.len() != 32) {
            return Answer::reject(Stage::Decode, "every txid must be 32 bytes");
        }
        let txids: Vec<u8> = input
            .txids
            .iter()
            .flat_map(|id| id.iter().copied())
            .collect();
        answer(ffi::pmt_build(&txids, &input.matches), |v| PmtBuildOutput {
            pmt: v.a.into(),
        })
    }

    fn pmt_extract(&mut self, input: &PmtExtractInput) -> Answer<PmtExtractOutput> {
        answer(ffi::pmt_extract(&input.pmt), |v| PmtExtractOutput {
            root: v.a.into(),
            matched: matched(&v.b, &v.n),
        })
    }
}
