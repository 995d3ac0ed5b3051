//! Seed corpora from the JSON vectors: every vector input that fits a target's layout becomes
//! a corpus file of that target, so fuzzing starts from Core's cases, the literature's and the
//! generator's instead of from nothing. Mutant targets get no seeds: their time to find the
//! planted bug must measure the fuzzer, not the vectors.

use crate::hashing::{BitIndexInput, MurmurInput};
use crate::merkle::BuildInput;
use bip37_harness::hex;
use bip37_harness::ops::{FilterInit, Output, Request};
use bip37_harness::reference_impl::init_filter;
use bip37_harness::vectors::{load_file, vector_paths, LoadedTest, VectorError};
use bip37_reference::limits::MAX_HASH_FUNCS;
use bip37_reference::sha256::sha256;
use bip37_reference::tx::Transaction;
use std::fs;
use std::io;
use std::path::Path;

/// One seed: the target it is for and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seed {
    pub target: &'static str,
    pub bytes: Vec<u8>,
}

fn seed(target: &'static str, bytes: Vec<u8>) -> Seed {
    Seed { target, bytes }
}

/// The filter size and hash function count of a filter set-up, if the bit index layout can
/// carry them (up to 65,535 bytes and 255 hash functions).
fn explicit_size(filter: &FilterInit) -> Option<(u16, u8, u32)> {
    let filter = init_filter(filter).ok()?;
    Some((
        filter.data().len().try_into().ok()?,
        filter.hash_funcs().try_into().ok()?,
        filter.tweak(),
    ))
}

/// The scripts of a transaction, for the script walk targets.
fn scripts(tx: &[u8]) -> Vec<Vec<u8>> {
    let Ok(tx) = Transaction::decode(tx) else {
        return Vec::new();
    };
    let tx = tx.into_mutable();
    let inputs = tx.inputs.into_iter().map(|i| i.script_sig);
    inputs
        .chain(tx.outputs.into_iter().map(|o| o.script_pubkey))
        .collect()
}

/// The seeds one test gives.
pub fn seeds_of(test: &LoadedTest) -> Vec<Seed> {
    let mut seeds = Vec::new();
    match &test.request {
        Request::FilterloadDecode(i) | Request::FilterloadAccept(i) => {
            seeds.push(seed("differential_filterload", i.payload.0.clone()));
            seeds.push(seed("decode_filterload", i.payload.0.clone()));
        }
        Request::FilteraddDecode(i) | Request::FilteraddAccept(i) => {
            seeds.push(seed("differential_filteradd", i.payload.0.clone()));
            seeds.push(seed("decode_filteradd", i.payload.0.clone()));
        }
        Request::Murmur3(i) => {
            let input = MurmurInput {
                seed: i.seed,
                data: &i.data,
            };
            seeds.push(seed("differential_murmur3", input.to_bytes()));
        }
        Request::BitIndexes(i) => {
            let sizes = explicit_size(&i.filter);
            // The layout reads at most Core's 50 hash functions.
            if let Some((filter_bytes, hash_funcs, tweak)) =
                sizes.filter(|&(_, funcs, _)| u32::from(funcs) <= MAX_HASH_FUNCS)
            {
                let input = BitIndexInput {
                    filter_bytes,
                    hash_funcs,
                    tweak,
                    element: &i.element,
                };
                seeds.push(seed("differential_bit_indexes", input.to_bytes()));
            }
        }
        Request::PmtBuild(i) => {
            let txids: Option<Vec<[u8; 32]>> = i
                .txids
                .iter()
                .map(|t| t.0.as_slice().try_into().ok())
                .collect();
            if let Some(txids) = txids.filter(|t| t.len() <= BuildInput::MAX_TRANSACTIONS) {
                let input = BuildInput {
                    txids,
                    matches: i.matches.clone(),
                };
                seeds.push(seed("differential_pmt_build", input.to_bytes()));
            }
        }
        Request::PmtExtract(i) => {
            seeds.push(seed("differential_pmt_extract", i.pmt.0.clone()));
            seeds.push(seed("decode_pmt", i.pmt.0.clone()));
        }
        Request::MatchTx(i) => {
            for tx in &i.txs {
                seeds.push(seed("decode_tx", tx.0.clone()));
                for script in scripts(tx) {
                    seeds.push(seed("differential_script", script.clone()));
                    seeds.push(seed("decode_script", script));
                }
            }
        }
        Request::MerkleBlock(i) => seeds.push(seed("decode_block", i.block.0.clone())),
        _ => {}
    }
    if let Some(Output::MerkleBlock(out)) = &test.expected {
        seeds.push(seed("differential_merkle_block", out.merkleblock.0.clone()));
        seeds.push(seed("decode_merkle_block", out.merkleblock.0.clone()));
    }
    seeds
}

/// Every seed of every vector file in `dir`.
pub fn seeds_from_vectors(dir: &Path) -> Result<Vec<Seed>, VectorError> {
    let mut seeds = Vec::new();
    for path in vector_paths(dir)? {
        for test in load_file(&path)?.tests {
            seeds.extend(seeds_of(&test));
        }
    }
    Ok(seeds)
}

/// Writes each seed to `out/<target>/<sha256 prefix>` (cargo-fuzz's corpus layout); returns how
/// many files are new.
pub fn write_corpora(seeds: &[Seed], out: &Path) -> io::Result<usize> {
    let mut written = 0;
    for s in seeds {
        let dir = out.join(s.target);
        fs::create_dir_all(&dir)?;
        let name = hex::encode(&sha256(&s.bytes)[..8]);
        let path = dir.join(format!("seed-{name}"));
        if !path.exists() {
            bip37_harness::atomic_file::write(&path, &s.bytes)?;
            written += 1;
        }
    }
    Ok(written)
}
