//! One check asked: what was sent (as `sequence` steps), what the node did (as step results),
//! and how any observation in the data file's words reads in those results, so that Core's
//! expected behaviour and each deviation are compared with the node's answer field by field.
//!
//! A node check travels through the runner's types as a test of the `sequence` operation (one
//! peer's session with a node), so every report format, the expectations file and the exit
//! codes treat it as they treat a vector. The steps are the BIP 37 messages the check sends
//! and the transactions and blocks it offers; `tx.relevant` means the node announced the
//! transaction to this peer (or sent it after a merkleblock); `filterData` is always empty,
//! since a peer cannot see the node's filter. Messages the sequence vocabulary has no step for
//! (`version`'s relay flag, `mempool`) are named in the check's description.

use super::checks::{BlockAnswer, Observation, Reaction};
use crate::regen::chain::MinedBlock;
use crate::regen::peer::Reply;
use crate::regen::predict::predict;
use bip37_harness::hex::Hex;
use bip37_harness::ops::{MatchedTx, Step, StepResult};
use bip37_reference::BloomFilter;

/// What was sent and what the node did.
#[derive(Debug, Clone)]
pub struct Trial {
    pub steps: Vec<Step>,
    pub observed: Vec<StepResult>,
    /// How observations read here.
    pub shape: Shape,
    /// Anything worth reporting besides the results (a ban, the time waited).
    pub note: Option<String>,
}

/// The shape of a check's results, after `setup` steps the node must keep the connection for.
#[derive(Debug, Clone)]
pub enum Shape {
    /// The last step's reaction.
    Reaction { setup: usize },
    /// One result per offered transaction, in offer order, with its role.
    Announced { setup: usize, roles: Vec<String> },
    /// The answer to one filtered-block request under `filter` (what the reference predicts
    /// the node holds; `None` when no filter is loaded).
    Block {
        setup: usize,
        block: Box<MinedBlock>,
        filter: Option<BloomFilter>,
    },
}

impl Trial {
    /// The results `observation` stands for in this trial; `None` when it cannot happen here.
    pub fn encode(&self, observation: &Observation) -> Option<Vec<StepResult>> {
        let kept = |n: usize| vec![StepResult::Accepted; n];
        match (&self.shape, observation) {
            (Shape::Reaction { setup }, Observation::Reaction(reaction)) => {
                let mut results = kept(*setup);
                results.push(match reaction {
                    Reaction::Keep => StepResult::Accepted,
                    Reaction::Disconnect => StepResult::Misbehaving,
                });
                Some(results)
            }
            (Shape::Announced { setup, roles }, Observation::Announced { announced }) => {
                let mut results = kept(*setup);
                results.extend(roles.iter().map(|role| StepResult::Tx {
                    relevant: announced.contains(role),
                    filter_data: Hex(Vec::new()),
                }));
                Some(results)
            }
            // A disconnect at the last setup message: nothing offered is reached.
            (
                Shape::Announced { setup, .. } | Shape::Block { setup, .. },
                Observation::Reaction(Reaction::Disconnect),
            ) if *setup > 0 => {
                let mut results = kept(setup - 1);
                results.push(StepResult::Misbehaving);
                Some(results)
            }
            (
                Shape::Block {
                    setup,
                    block,
                    filter,
                },
                Observation::Block(answer),
            ) => {
                let mut results = kept(*setup);
                if *answer == BlockAnswer::NotFound {
                    results.push(other_message("notfound"));
                    return Some(results);
                }
                let filter = match answer {
                    BlockAnswer::NoReply | BlockAnswer::NotFound => None,
                    BlockAnswer::Reference => filter.clone(),
                    BlockAnswer::MatchesAll => Some(BloomFilter::from_parts(vec![0xff], 1, 0, 0)),
                    BlockAnswer::MatchesNone => Some(BloomFilter::from_parts(vec![0], 1, 0, 0)),
                };
                results.push(match filter {
                    None => StepResult::NoFilter,
                    Some(mut filter) => {
                        let predicted = predict(&mut filter, block).ok()?;
                        block_result(block, &Reply::Answered(predicted.messages))
                    }
                });
                Some(results)
            }
            _ => None,
        }
    }
}

/// The result of a filtered-block request: nothing (`noFilter`), a disconnect, or the
/// merkleblock's bytes and the transactions sent after it (by their txids, located in the
/// block; a transaction the block does not hold gets index 4294967295).
pub fn block_result(block: &MinedBlock, reply: &Reply) -> StepResult {
    let messages = match reply {
        Reply::Disconnected => return StepResult::Misbehaving,
        Reply::Answered(messages) if messages.is_empty() => return StepResult::NoFilter,
        Reply::Answered(messages) => messages,
    };
    let txids = block.block.txids();
    let mut merkleblock = Vec::new();
    let mut matched = Vec::new();
    for message in messages {
        match message.command.as_str() {
            "merkleblock" if merkleblock.is_empty() => merkleblock = message.payload.clone(),
            "tx" => {
                let txid = bip37_reference::sha256::sha256d(&message.payload);
                let index = txids.iter().position(|t| *t == txid);
                matched.push(MatchedTx {
                    index: index.map_or(u32::MAX, |i| i as u32),
                    txid: Hex(txid.to_vec()),
                });
            }
            // Anything else (a second merkleblock, notfound, reject) makes the answer differ
            // from every prediction: shown as an entry no transaction has.
            other => matched.push(other_entry(other)),
        }
    }
    StepResult::MerkleBlock {
        merkleblock: Hex(merkleblock),
        matched,
        filter_data: Hex(Vec::new()),
    }
}

/// A message other than `merkleblock` and `tx` in a filtered-block answer: an entry with
/// index 4294967295 whose "txid" is the command's name in ASCII.
fn other_entry(command: &str) -> MatchedTx {
    MatchedTx {
        index: u32::MAX,
        txid: Hex(command.as_bytes().to_vec()),
    }
}

/// The result of an answer that is one message `command` alone.
fn other_message(command: &str) -> StepResult {
    StepResult::MerkleBlock {
        merkleblock: Hex(Vec::new()),
        matched: vec![other_entry(command)],
        filter_data: Hex(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reaction(setup: usize, observed: Vec<StepResult>) -> Trial {
        Trial {
            steps: Vec::new(),
            observed,
            shape: Shape::Reaction { setup },
            note: None,
        }
    }

    #[test]
    fn reactions_read_as_the_last_step() {
        let trial = reaction(1, vec![]);
        assert_eq!(
            trial.encode(&Observation::Reaction(Reaction::Disconnect)),
            Some(vec![StepResult::Accepted, StepResult::Misbehaving])
        );
        assert_eq!(
            trial.encode(&Observation::Announced { announced: vec![] }),
            None
        );
    }

    #[test]
    fn announcements_read_per_offered_role() {
        let trial = Trial {
            steps: Vec::new(),
            observed: Vec::new(),
            shape: Shape::Announced {
                setup: 1,
                roles: vec!["other".into(), "matching".into()],
            },
            note: None,
        };
        let tx = |relevant| StepResult::Tx {
            relevant,
            filter_data: Hex(Vec::new()),
        };
        assert_eq!(
            trial.encode(&Observation::Announced {
                announced: vec!["matching".into()]
            }),
            Some(vec![StepResult::Accepted, tx(false), tx(true)])
        );
        assert_eq!(
            trial.encode(&Observation::Reaction(Reaction::Disconnect)),
            Some(vec![StepResult::Misbehaving])
        );
    }
}
