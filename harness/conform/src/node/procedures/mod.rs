//! How each check of `vectors/node/checks.json` is asked, one file per kind: [`reactions`]
//! (limits and misbehaviour: does the node keep the connection), [`relay`] (which offered
//! transactions the node announces: filters, `filterclear`, `version`'s relay flag, BIP 35
//! `mempool`), [`blocks`] (single filtered-block requests) and [`families`] (regen's probes
//! of filtered blocks, each family one check).
//!
//! Every check uses fresh connections (a node may disconnect, discourage or ban a peer it
//! judges misbehaving) and every wait is bounded (the per-call deadline of the P2P code, the
//! announcement timeout, the settle time).

pub mod blocks;
pub mod families;
pub mod reactions;
pub mod relay;

use super::link::Link;
use super::trial::Trial;
use crate::regen::chain::MinedBlock;
use crate::regen::error::RegenError;
use crate::regen::probes::scenario::{STEP_FILTER_BYTES, STEP_HASH_FUNCS, STEP_TWEAK};
use bip37_harness::ops::Step;
use bip37_reference::{BloomFilter, FilterAdd, FilterLoad};

/// What asking a check gives.
pub enum Outcome {
    Trial(Trial),
    /// A family of probes: how many, and the differences from the reference.
    Family {
        probes: usize,
        disagreements: Vec<String>,
    },
}

/// State shared by the checks of one run: the block the single filtered-block checks ask
/// about (mined on first use) and a counter that keeps every element unique.
#[derive(Default)]
pub struct Fixtures {
    pub block: Option<blocks::FixtureBlock>,
    next_element: u32,
    pub families: families::Families,
}

impl Fixtures {
    /// A 20-byte element no other check of any run uses (it mixes in the run's token).
    pub fn element(&mut self, token: &str) -> Vec<u8> {
        self.next_element += 1;
        let seed = format!("{token}/{}", self.next_element);
        bip37_reference::sha256::sha256d(seed.as_bytes())[..20].to_vec()
    }
}

/// Every check id with code, and the code.
type Procedure = fn(&mut Link, &mut Fixtures) -> Result<Outcome, RegenError>;

/// The procedures by check id; a test holds this list and the data file to the same ids.
pub const PROCEDURES: &[(&str, Procedure)] = &[
    (
        "node/merkleblock/tx-after-merkleblock",
        blocks::tx_after_merkleblock,
    ),
    ("node/merkleblock/places", families::places),
    ("node/merkleblock/update-modes", families::update_modes),
    ("node/merkleblock/bit-positions", families::bit_positions),
    (
        "node/merkleblock/no-hash-funcs-matches-all",
        blocks::no_hash_funcs,
    ),
    ("node/merkleblock/without-filter", blocks::without_filter),
    (
        "node/merkleblock/after-filterclear",
        blocks::after_filterclear,
    ),
    ("node/merkleblock/empty-filter", blocks::empty_filter),
    (
        "node/filterload/max-36000-bytes-50-funcs-kept",
        reactions::max_filter,
    ),
    (
        "node/filterload/oversized-36001-disconnects",
        reactions::oversized_filter,
    ),
    (
        "node/filterload/51-hash-funcs-disconnects",
        reactions::too_many_funcs,
    ),
    ("node/filterload/flags-0xff-installed", blocks::all_flags),
    ("node/filteradd/520-bytes-kept", reactions::max_element),
    (
        "node/filteradd/521-bytes-disconnects",
        reactions::oversized_element,
    ),
    (
        "node/filteradd/without-filter-disconnects",
        reactions::add_without_filter,
    ),
    (
        "node/filterclear/without-filter-kept",
        reactions::clear_without_filter,
    ),
    (
        "node/relay/filter-announces-only-matching",
        relay::only_matching,
    ),
    (
        "node/relay/filterclear-announces-all",
        relay::after_filterclear,
    ),
    ("node/relay/update-persists", relay::update_persists),
    (
        "node/version/relay-0-silent-before-filter",
        relay::silent_before_filter,
    ),
    (
        "node/version/relay-0-filterload-enables",
        relay::filterload_enables,
    ),
    (
        "node/version/relay-0-filterclear-enables",
        relay::filterclear_enables,
    ),
    (
        "node/version/relay-0-filteradd-does-not-enable",
        relay::filteradd_does_not_enable,
    ),
    (
        "node/mempool/filter-announces-only-matching",
        relay::mempool_only_matching,
    ),
    (
        "node/no-bloom/filterload-disconnects",
        reactions::no_bloom_filterload,
    ),
    (
        "node/no-bloom/filteradd-disconnects",
        reactions::no_bloom_filteradd,
    ),
    (
        "node/no-bloom/filterclear-disconnects",
        reactions::no_bloom_filterclear,
    ),
    (
        "node/no-bloom/mempool-disconnects",
        reactions::no_bloom_mempool,
    ),
];

/// The procedure of `id`.
pub fn procedure(id: &str) -> Option<Procedure> {
    PROCEDURES.iter().find(|(i, _)| *i == id).map(|(_, p)| *p)
}

/// One message a check sends: its sequence step (none for `mempool`, which the sequence
/// vocabulary has no step for), command and payload.
pub struct Send {
    pub step: Option<Step>,
    pub command: &'static str,
    pub payload: Vec<u8>,
}

impl Send {
    pub fn load(load: &FilterLoad) -> Send {
        let payload = load.encode();
        Send {
            step: Some(Step::Filterload {
                payload: bip37_harness::hex::Hex(payload.clone()),
            }),
            command: "filterload",
            payload,
        }
    }

    pub fn add(data: Vec<u8>) -> Send {
        let payload = FilterAdd { data }.encode();
        Send {
            step: Some(Step::Filteradd {
                payload: bip37_harness::hex::Hex(payload.clone()),
            }),
            command: "filteradd",
            payload,
        }
    }

    pub fn clear() -> Send {
        Send {
            step: Some(Step::Filterclear {}),
            command: "filterclear",
            payload: Vec::new(),
        }
    }

    pub fn mempool() -> Send {
        Send {
            step: None,
            command: "mempool",
            payload: Vec::new(),
        }
    }
}

/// What sending a check's filter messages gave: the steps, one result per message sent
/// (accepted while the node kept the connection, misbehaving where it closed it), and whether
/// the connection is still open.
pub struct Sent {
    pub steps: Vec<Step>,
    pub observed: Vec<bip37_harness::ops::StepResult>,
    pub kept: bool,
}

/// Sends `messages` on `peer`, each followed by a barrier, until the node hangs up.
pub fn send_all(
    peer: &mut crate::regen::peer::Peer,
    messages: Vec<Send>,
) -> Result<Sent, RegenError> {
    let mut sent = Sent {
        steps: Vec::new(),
        observed: Vec::new(),
        kept: true,
    };
    for message in messages {
        sent.steps.extend(message.step);
        sent.kept = Link::kept_after(peer, message.command, message.payload)?;
        sent.observed.push(match sent.kept {
            true => bip37_harness::ops::StepResult::Accepted,
            false => bip37_harness::ops::StepResult::Misbehaving,
        });
        if !sent.kept {
            break;
        }
    }
    Ok(sent)
}

/// A filter of the given shape and flags with every byte 0x5a (the limit checks' filler).
pub fn filler(bytes: usize, hash_funcs: u32, flags: u8) -> FilterLoad {
    FilterLoad {
        data: vec![0x5a; bytes],
        hash_funcs,
        tweak: 0,
        flags,
    }
}

/// A sparse filter (256 bytes, 10 hash functions) holding `elements`, with `flags`.
pub fn holding(elements: &[&[u8]], flags: u8) -> FilterLoad {
    let mut filter = BloomFilter::from_parts(
        vec![0; STEP_FILTER_BYTES as usize],
        STEP_HASH_FUNCS,
        STEP_TWEAK,
        flags,
    );
    for element in elements {
        filter.insert(element);
    }
    FilterLoad {
        data: filter.data().to_vec(),
        hash_funcs: STEP_HASH_FUNCS,
        tweak: STEP_TWEAK,
        flags,
    }
}

/// The sequence step offering `mined` for a filtered-block request.
pub fn block_step(mined: &MinedBlock) -> Step {
    Step::MerkleBlock {
        block: bip37_harness::hex::Hex(mined.block.encode()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_check_of_the_data_file_has_code_and_every_code_a_check() {
        let file = super::super::checks::checks().unwrap();
        let data: BTreeSet<&str> = file.checks.iter().map(|c| c.id.as_str()).collect();
        let code: BTreeSet<&str> = PROCEDURES.iter().map(|(id, _)| *id).collect();
        assert_eq!(PROCEDURES.len(), code.len(), "an id has two procedures");
        assert_eq!(data, code);
    }

    #[test]
    fn elements_are_unique() {
        let mut fixtures = Fixtures::default();
        assert_ne!(fixtures.element("t"), fixtures.element("t"));
    }
}
