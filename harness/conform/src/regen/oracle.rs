//! The node as an oracle: load a filter, request filtered blocks, and hold each answer
//! against the reference's prediction for the same filter and blocks.
//!
//! The node's filter changes while it answers (nFlags 1 and 2), so every question starts with
//! its own `filterload`, and the prediction replays the same updates on a copy of that filter.

use super::chain::MinedBlock;
use super::error::RegenError;
use super::payloads;
use super::peer::{Peer, PeerConfig, Reply};
use super::predict::{difference, node_matched, predict};
use bip37_reference::{BloomFilter, FilterLoad};

/// A connection used for questions whose answer is always a reply (never a disconnect).
pub struct Oracle {
    config: PeerConfig,
    peer: Peer,
}

/// The node's answer to one filtered-block request, next to the reference's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockAnswer {
    /// Block-order indexes of the transactions the node sent.
    pub node: Vec<usize>,
    /// Block-order indexes of the transactions the reference predicts.
    pub reference: Vec<usize>,
    /// The first byte-level difference between the two replies.
    pub difference: Option<String>,
}

impl Oracle {
    pub fn connect(config: &PeerConfig) -> Result<Oracle, RegenError> {
        Ok(Oracle {
            config: config.clone(),
            peer: Peer::connect(config)?,
        })
    }

    /// The connection, for what the node said in its `version`.
    pub fn peer(&self) -> &Peer {
        &self.peer
    }

    /// Loads `load`, then requests each of `blocks` in order (the node's filter carries its
    /// updates from one block to the next) and compares each reply with the reference.
    pub fn ask(
        &mut self,
        load: &FilterLoad,
        blocks: &[&MinedBlock],
    ) -> Result<Vec<BlockAnswer>, RegenError> {
        let mut filter: BloomFilter = load.clone().into_filter();
        self.peer.send("filterload", load.encode())?;
        let mut answers = Vec::with_capacity(blocks.len());
        for mined in blocks {
            self.peer
                .send("getdata", payloads::getdata_filtered_block(&mined.hash))?;
            let reply = self.peer.barrier()?;
            if reply == Reply::Disconnected {
                // Reconnect so the next question can still be asked, then report this one.
                self.peer = Peer::connect(&self.config)?;
                return Err(RegenError::Disconnected {
                    during: "a filtered-block request with a filter within the limits".into(),
                });
            }
            let prediction = predict(&mut filter, mined).map_err(|detail| RegenError::Setup {
                detail: format!("predicting a mined block: {detail}"),
            })?;
            answers.push(BlockAnswer {
                node: node_matched(mined, &reply),
                reference: prediction.matched.clone(),
                difference: difference(&prediction, &reply),
            });
        }
        Ok(answers)
    }
}
