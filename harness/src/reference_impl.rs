//! The built-in reference implementation (`--builtin reference`): the trait answered by
//! `bip37-reference`, the oracle every vector is checked against.

use crate::hex::Hex;
use crate::implementation::{Answer, Implementation, Stage};
use crate::ops::*;
use bip37_reference::pmt::Match;
use bip37_reference::{
    murmur3, size_for, Block, BloomFilter, DecodeError, FilterAdd, FilterLoad, MerkleBlock,
    PartialMerkleTree, Transaction,
};

/// `bip37-reference` behind the [`Implementation`] trait.
#[derive(Debug, Default, Clone, Copy)]
pub struct Reference;

/// Sets up the filter a test describes.
pub fn init_filter(init: &FilterInit) -> Result<BloomFilter, (Stage, String)> {
    match init {
        FilterInit::Sized {
            n_elements,
            fp_rate,
            tweak,
            flags,
        } => BloomFilter::new(*n_elements, fp_rate.0, *tweak, *flags)
            .map_err(|e| (Stage::Parameters, e.to_string())),
        FilterInit::Explicit {
            filter_bytes,
            hash_funcs,
            tweak,
            flags,
        } => BloomFilter::with_size(u64::from(*filter_bytes), *hash_funcs, *tweak, *flags)
            .map_err(|e| (Stage::Parameters, e.to_string())),
        FilterInit::Loaded {
            data,
            hash_funcs,
            tweak,
            flags,
        } => BloomFilter::bounded(data.0.clone(), *hash_funcs, *tweak, *flags)
            .map_err(|e| (Stage::Parameters, e.to_string())),
    }
}

/// The output of a decoded `filterload`.
pub fn filterload_output(load: FilterLoad) -> FilterloadOutput {
    FilterloadOutput {
        data: load.data.into(),
        hash_funcs: load.hash_funcs,
        tweak: load.tweak,
        flags: load.flags,
    }
}

/// The matches of a merkle block or tree in the operations' form.
pub fn matched_txs(matches: &[Match]) -> Vec<MatchedTx> {
    matches
        .iter()
        .map(|m| MatchedTx {
            index: m.index,
            txid: m.txid.to_vec().into(),
        })
        .collect()
}

/// Sets up a filter and inserts the elements a test lists.
fn filled_filter(init: &FilterInit, insert: &[Hex]) -> Result<BloomFilter, (Stage, String)> {
    let mut filter = init_filter(init)?;
    for element in insert {
        filter.insert(element);
    }
    Ok(filter)
}

fn decode_tx(bytes: &[u8]) -> Result<Transaction, (Stage, String)> {
    Transaction::decode(bytes).map_err(|e| (Stage::Decode, e.to_string()))
}

fn decode_block(bytes: &[u8]) -> Result<Block, (Stage, String)> {
    Block::decode(bytes).map_err(|e| (Stage::Decode, format!("block: {e}")))
}

/// `CMerkleBlock(block, filter)` in the operations' form.
fn merkle_block_output(
    block: &Block,
    filter: &mut BloomFilter,
) -> Result<MerkleBlockOutput, (Stage, String)> {
    let mb =
        MerkleBlock::from_filter(block, filter).map_err(|e| (Stage::Validation, e.to_string()))?;
    Ok(MerkleBlockOutput {
        merkleblock: mb.encode().into(),
        matched: matched_txs(&mb.matched),
        filter_data: filter.data().into(),
    })
}

/// A payload decoded the way a node reads it: the fields it needs, any bytes after them unread.
pub(crate) fn decode_as_node<T>(
    payload: &[u8],
    decode: fn(&[u8]) -> Result<T, DecodeError>,
) -> Option<T> {
    match decode(payload) {
        Ok(message) => Some(message),
        Err(DecodeError::TrailingBytes(extra)) => decode(&payload[..payload.len() - extra]).ok(),
        Err(_) => None,
    }
}

/// What a node serving BIP 37 does with one step of a session (semantics in
/// [`crate::ops::sequence`]); `filter` is the peer's filter, `None` before any `filterload`.
fn node_step(filter: &mut Option<BloomFilter>, step: &Step) -> Result<StepResult, (Stage, String)> {
    Ok(match step {
        Step::Filterload { payload } => match decode_as_node(payload, FilterLoad::decode) {
            None => StepResult::Ignored,
            Some(load) if load.check_limits().is_err() => StepResult::Misbehaving,
            Some(load) => {
                *filter = Some(load.into_filter());
                StepResult::Accepted
            }
        },
        Step::Filteradd { payload } => {
            match (decode_as_node(payload, FilterAdd::decode), filter.as_mut()) {
                (None, _) => StepResult::Ignored,
                (Some(add), Some(f)) if add.check_limits().is_ok() => {
                    f.insert(&add.data);
                    StepResult::Accepted
                }
                (Some(_), _) => StepResult::Misbehaving,
            }
        }
        Step::Filterclear {} => {
            *filter = None;
            StepResult::Accepted
        }
        Step::MatchTx { tx } => {
            let tx = decode_tx(tx)?;
            match filter.as_mut() {
                None => StepResult::NoFilter,
                Some(f) => StepResult::Tx {
                    relevant: f.is_relevant_and_update(&tx),
                    filter_data: f.data().into(),
                },
            }
        }
        Step::MerkleBlock { block } => {
            let block = decode_block(block)?;
            match filter.as_mut() {
                None => StepResult::NoFilter,
                Some(f) => {
                    let out = merkle_block_output(&block, f)?;
                    StepResult::MerkleBlock {
                        merkleblock: out.merkleblock,
                        matched: out.matched,
                        filter_data: out.filter_data,
                    }
                }
            }
        }
    })
}

impl Implementation for Reference {
    fn name(&self) -> String {
        "reference".into()
    }

    fn murmur3(&mut self, input: &Murmur3Input) -> Answer<Murmur3Output> {
        Answer::Ok(Murmur3Output {
            hash: murmur3(input.seed, &input.data),
        })
    }

    fn hash_seed(&mut self, input: &HashSeedInput) -> Answer<HashSeedOutput> {
        Answer::Ok(HashSeedOutput {
            seed: bip37_reference::hash_seed(input.hash_index, input.tweak),
        })
    }

    fn sizing(&mut self, input: &SizingInput) -> Answer<SizingOutput> {
        size_for(input.n_elements, input.fp_rate.0)
            .map(|s| SizingOutput {
                filter_bytes: s.filter_bytes,
                hash_funcs: s.hash_funcs,
            })
            .map_err(|e| (Stage::Parameters, e))
            .into()
    }

    fn bit_indexes(&mut self, input: &BitIndexesInput) -> Answer<BitIndexesOutput> {
        init_filter(&input.filter)
            .map(|f| BitIndexesOutput {
                indexes: f.bit_indexes(&input.element),
            })
            .into()
    }

    fn build_filter(&mut self, input: &BuildFilterInput) -> Answer<BuildFilterOutput> {
        filled_filter(&input.filter, &input.insert)
            .map(|f| BuildFilterOutput {
                filterload: FilterLoad::from(&f).encode().into(),
                contains: input.queries.iter().map(|q| f.contains(q)).collect(),
            })
            .into()
    }

    fn filterload_decode(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        FilterLoad::decode(&input.payload)
            .map(filterload_output)
            .map_err(|e| (Stage::Decode, e))
            .into()
    }

    fn filterload_accept(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        let load = match FilterLoad::decode(&input.payload) {
            Ok(load) => load,
            Err(e) => return Answer::reject(Stage::Decode, e),
        };
        match load.check_limits() {
            Ok(()) => Answer::Ok(filterload_output(load)),
            Err(e) => Answer::reject(Stage::Limits, e),
        }
    }

    fn filteradd_decode(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        FilterAdd::decode(&input.payload)
            .map(|add| FilteraddOutput {
                data: add.data.into(),
            })
            .map_err(|e| (Stage::Decode, e))
            .into()
    }

    fn filteradd_accept(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        let add = match FilterAdd::decode(&input.payload) {
            Ok(add) => add,
            Err(e) => return Answer::reject(Stage::Decode, e),
        };
        match add.check_limits() {
            Ok(()) => Answer::Ok(FilteraddOutput {
                data: add.data.into(),
            }),
            Err(e) => Answer::reject(Stage::Limits, e),
        }
    }
    fn match_tx(&mut self, input: &MatchTxInput) -> Answer<MatchTxOutput> {
        let run = || {
            let txs = input
                .txs
                .iter()
                .map(|tx| decode_tx(tx))
                .collect::<Result<Vec<_>, _>>()?;
            let mut filter = filled_filter(&input.filter, &input.insert)?;
            let matched = txs
                .iter()
                .map(|tx| filter.is_relevant_and_update(tx))
                .collect();
            Ok(MatchTxOutput {
                matched,
                filter_data: filter.data().into(),
            })
        };
        run().into()
    }

    fn merkle_block(&mut self, input: &MerkleBlockInput) -> Answer<MerkleBlockOutput> {
        let run = || {
            let block = decode_block(&input.block)?;
            let mut filter = filled_filter(&input.filter, &input.insert)?;
            merkle_block_output(&block, &mut filter)
        };
        run().into()
    }

    fn pmt_build(&mut self, input: &PmtBuildInput) -> Answer<PmtBuildOutput> {
        let run = || {
            let txids = input
                .txids
                .iter()
                .map(|id| <[u8; 32]>::try_from(&id[..]))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| (Stage::Decode, "every txid must be 32 bytes".to_string()))?;
            let tree = PartialMerkleTree::build(&txids, &input.matches)
                .map_err(|e| (Stage::Parameters, e.to_string()))?;
            Ok(PmtBuildOutput {
                pmt: tree.encode().into(),
            })
        };
        run().into()
    }

    fn pmt_extract(&mut self, input: &PmtExtractInput) -> Answer<PmtExtractOutput> {
        let run = || {
            let tree = PartialMerkleTree::decode(&input.pmt)
                .map_err(|e| (Stage::Decode, format!("partial merkle tree: {e}")))?;
            let extracted = tree
                .extract_matches()
                .map_err(|e| (Stage::Validation, e.to_string()))?;
            Ok(PmtExtractOutput {
                root: extracted.root.to_vec().into(),
                matched: matched_txs(&extracted.matches),
            })
        };
        run().into()
    }

    fn sequence(&mut self, input: &SequenceInput) -> Answer<SequenceOutput> {
        let mut filter = None;
        input
            .steps
            .iter()
            .map(|step| node_step(&mut filter, step))
            .collect::<Result<Vec<_>, _>>()
            .map(|results| SequenceOutput { results })
            .into()
    }
}
