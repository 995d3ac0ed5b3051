//! The `sequence` operation as a mutant node runs it: one peer's session, step by step, with
//! every message decoded, limited, inserted, matched and merkle-blocked the mutant's way, so a
//! mistake anywhere shows in the session too. The node's rules are those of
//! [`crate::ops::sequence`]; the session's own switch points are a refused filterload that
//! still replaces, a filteradd accepted without a filter or refused on an empty one, a
//! filterclear ignored, updates made on a copy, undecodable messages punished, and a filtered
//! block served to a peer with no filter.

use super::bug::Bug;
use super::filter::MutantFilter;
use super::wire::{self, WireFailure};
use super::{matching, merkle};
use crate::implementation::{Answer, Fault, Stage};
use crate::ops::{SequenceOutput, Step, StepResult};
use bip37_reference::block::Block;
use bip37_reference::tx::Transaction;
use bip37_reference::{DecodeError, FilterLoad};

/// Why a session stops before its last step.
enum Stop {
    /// A transaction or block does not decode, or a filter operation fails: the whole
    /// sequence is rejected.
    Rejected(Stage, String),
    /// The mutant models a crash.
    Crash(String),
}

/// A payload decoded the way a node reads it: the fields it needs, any bytes after them
/// unread; `None` when it does not decode (the node drops it).
fn read_as_node<T>(
    payload: &[u8],
    decode: impl Fn(&[u8]) -> Result<T, WireFailure>,
) -> Result<Option<T>, Stop> {
    match decode(payload) {
        Ok(message) => Ok(Some(message)),
        Err(WireFailure::Decode(DecodeError::TrailingBytes(extra))) => {
            read_as_node(&payload[..payload.len() - extra], decode)
        }
        Err(WireFailure::Decode(_) | WireFailure::ZeroHashFuncs) => Ok(None),
        Err(crash) => Err(Stop::Crash(crash.to_string())),
    }
}

fn rejected(stage: Stage) -> impl Fn(String) -> Stop {
    move |message| Stop::Rejected(stage, message)
}

/// What the node does with a payload that does not decode: drops it (Core), or punishes it.
fn dropped(bug: Bug) -> StepResult {
    match bug {
        Bug::MalformedMessagePunished => StepResult::Misbehaving,
        _ => StepResult::Ignored,
    }
}

/// Keeps the updates an evaluation made on `working`, unless losing them is the mistake.
fn keep_updates(bug: Bug, filter: &mut MutantFilter, working: MutantFilter) {
    if bug != Bug::UpdatesNotPersisted {
        *filter = working;
    }
}

/// The filter a mutant node installs from `load`, refused beyond the work ceilings (a mutant
/// without Core's limits would otherwise hash 2^32 - 1 times per element).
fn bounded(bug: Bug, load: FilterLoad) -> Result<MutantFilter, Stop> {
    bip37_reference::ceilings::check_filter(load.data.len() as u64, load.hash_funcs)
        .map_err(|e| rejected(Stage::Limits)(e.to_string()))?;
    Ok(MutantFilter::from_fields(bug, load))
}

/// What the mutant node does with one step; `filter` is the peer's filter.
fn step(bug: Bug, filter: &mut Option<MutantFilter>, step: &Step) -> Result<StepResult, Stop> {
    Ok(match step {
        Step::Filterload { payload } => {
            match read_as_node(payload, |p| wire::decode_filterload(bug, p))? {
                None => dropped(bug),
                Some(load) if wire::check_filterload_limits(bug, &load).is_err() => {
                    if bug == Bug::RejectedFilterloadReplaces {
                        *filter = Some(bounded(bug, load)?);
                    }
                    StepResult::Misbehaving
                }
                Some(load) => {
                    *filter = Some(bounded(bug, load)?);
                    StepResult::Accepted
                }
            }
        }
        Step::Filteradd { payload } => {
            let add = read_as_node(payload, |p| wire::decode_filteradd(bug, p))?;
            match (add, filter.as_mut()) {
                (None, _) => dropped(bug),
                (Some(_), None) if bug == Bug::FilteraddWithoutFilterAccepted => {
                    StepResult::Accepted
                }
                (Some(_), Some(f)) if f.is_empty() && bug == Bug::FilteraddToEmptyFilterRefused => {
                    StepResult::Misbehaving
                }
                (Some(add), Some(f)) if wire::check_filteradd_limits(bug, &add).is_ok() => {
                    f.insert(&add.data)
                        .map_err(|e| Stop::Rejected(Stage::Parameters, e.to_string()))?;
                    StepResult::Accepted
                }
                (Some(_), _) => StepResult::Misbehaving,
            }
        }
        Step::Filterclear {} => {
            if bug != Bug::FilterclearIgnored {
                *filter = None;
            }
            StepResult::Accepted
        }
        Step::MatchTx { tx } => {
            let tx = Transaction::decode(tx).map_err(|e| rejected(Stage::Decode)(e.to_string()))?;
            match filter.as_mut() {
                None => StepResult::NoFilter,
                Some(f) => {
                    let mut working = f.clone();
                    let relevant = matching::is_relevant_and_update(bug, &mut working, &tx)
                        .map_err(|e| rejected(Stage::Parameters)(e.to_string()))?;
                    let filter_data = working.data().to_vec().into();
                    keep_updates(bug, f, working);
                    StepResult::Tx {
                        relevant,
                        filter_data,
                    }
                }
            }
        }
        Step::MerkleBlock { block } => {
            let block =
                Block::decode(block).map_err(|e| rejected(Stage::Decode)(format!("block: {e}")))?;
            // The mutant that serves a peer without a filter serves it as the match-all filter.
            let mut match_all = (filter.is_none() && bug == Bug::MerkleblockWithoutFilterServed)
                .then(|| {
                    let none = FilterLoad {
                        data: Vec::new(),
                        hash_funcs: 0,
                        tweak: 0,
                        flags: 0,
                    };
                    MutantFilter::from_fields(bug, none)
                });
            match filter.as_mut().or(match_all.as_mut()) {
                None => StepResult::NoFilter,
                Some(f) => {
                    let mut working = f.clone();
                    let out = merkle::merkle_block(bug, &block, &mut working)
                        .map_err(|e| rejected(Stage::Validation)(e.to_string()))?;
                    keep_updates(bug, f, working);
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

/// The mutant node's answer to a whole session, which starts with no filter loaded.
pub fn run(bug: Bug, steps: &[Step]) -> Answer<SequenceOutput> {
    let mut filter = None;
    let mut results = Vec::with_capacity(steps.len());
    for s in steps {
        match step(bug, &mut filter, s) {
            Ok(result) => results.push(result),
            Err(Stop::Rejected(stage, message)) => return Answer::reject(stage, message),
            Err(Stop::Crash(why)) => return Answer::Fault(Fault::Crash(why)),
        }
    }
    Answer::Ok(SequenceOutput { results })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::Implementation;
    use crate::ops::SequenceInput;
    use crate::reference_impl::Reference;
    use bip37_reference::FilterLoad;

    /// A session: load a 10-byte filter, clear it, add an element, load an oversize filter,
    /// send an undecodable filterload.
    fn steps() -> Vec<Step> {
        let load = |bytes: usize| FilterLoad {
            data: vec![0; bytes],
            hash_funcs: 3,
            tweak: 0,
            flags: 1,
        };
        vec![
            Step::Filterload {
                payload: load(10).encode().into(),
            },
            Step::Filterclear {},
            Step::Filteradd {
                payload: vec![1, 0xaa].into(),
            },
            Step::Filterload {
                payload: load(36_001).encode().into(),
            },
            Step::Filterload {
                payload: vec![0xfd].into(),
            },
        ]
    }

    fn outcomes(answer: Answer<SequenceOutput>) -> Vec<StepResult> {
        match answer {
            Answer::Ok(out) => out.results,
            other => panic!("the session is answered: {other:?}"),
        }
    }

    #[test]
    fn each_session_bug_changes_its_own_step() {
        let core = outcomes(Reference.sequence(&SequenceInput { steps: steps() }));
        assert_eq!(outcomes(run(Bug::MsbFirstBits, &steps())), core);
        let differing = |bug| {
            let mutant = outcomes(run(bug, &steps()));
            (0..core.len())
                .filter(|&i| mutant[i] != core[i])
                .collect::<Vec<_>>()
        };
        assert_eq!(differing(Bug::FilteraddWithoutFilterAccepted), vec![2]);
        assert_eq!(differing(Bug::MalformedMessagePunished), vec![4]);
        // Ignoring the clear keeps the filter, so the filteradd is accepted.
        assert_eq!(differing(Bug::FilterclearIgnored), vec![2]);
    }
}
