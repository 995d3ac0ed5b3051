//! `regen`'s probes of filtered blocks, run as they are, each family one check: every
//! `merkleblock` and `tx` the node sends is compared byte for byte with the reference's
//! prediction ([`crate::regen::oracle`]); a family passes when no probe disagrees.
//!
//! The families need coins of their own, counted before the run funds them ([`coins_needed`]).

use super::{Fixtures, Outcome};
use crate::node::link::Link;
use crate::regen::chain::Coin;
use crate::regen::error::RegenError;
use crate::regen::oracle::Oracle;
use crate::regen::probes::{bits, places, update, Findings};
use bip37_harness::vectors::LoadedTest;

/// What the families share: coins spent with one scriptSig push (the place probes need one)
/// and the vectors whose elements the bit probes confirm.
#[derive(Default)]
pub struct Families {
    pub one_push: Vec<Coin>,
    pub tests: Vec<LoadedTest>,
}

/// The bit probes of `tests` and the sweep.
fn bit_probes(tests: &[LoadedTest]) -> Vec<bits::BitProbe> {
    let mut probes = bits::from_vectors(tests);
    probes.extend(bits::sweep());
    probes
}

/// Plain and one-push coins the families of `ids` spend.
pub fn coins_needed(ids: &[&str], tests: &[LoadedTest]) -> (usize, usize) {
    let mut plain = 0;
    let mut one_push = 0;
    for id in ids {
        match *id {
            "node/merkleblock/places" => {
                plain += places::OP_TRUE_COINS;
                one_push += places::DROP_TRUE_COINS;
            }
            "node/merkleblock/update-modes" => plain += update::OP_TRUE_COINS,
            "node/merkleblock/bit-positions" => plain += bit_probes(tests).len(),
            _ => {}
        }
    }
    (plain, one_push)
}

fn family(findings: Findings, probes: usize) -> Outcome {
    Outcome::Family {
        probes,
        disagreements: findings.disagreements,
    }
}

pub fn places(link: &mut Link, fixtures: &mut Fixtures) -> Result<Outcome, RegenError> {
    let mut oracle = Oracle::connect(&link.config)?;
    let mut findings = Findings::default();
    let (records, _) = places::run(
        &mut link.rpc,
        &mut oracle,
        &mut link.coins,
        &mut fixtures.families.one_push,
        &mut findings,
    )?;
    Ok(family(findings, records.len()))
}

pub fn update_modes(link: &mut Link, _: &mut Fixtures) -> Result<Outcome, RegenError> {
    let mut oracle = Oracle::connect(&link.config)?;
    let mut findings = Findings::default();
    let records = update::run(&mut link.rpc, &mut oracle, &mut link.coins, &mut findings)?;
    Ok(family(findings, records.len()))
}

pub fn bit_positions(link: &mut Link, fixtures: &mut Fixtures) -> Result<Outcome, RegenError> {
    let mut oracle = Oracle::connect(&link.config)?;
    let mut findings = Findings::default();
    let probes = bit_probes(&fixtures.families.tests);
    let (counted, _node_specific) = bits::run(
        &mut link.rpc,
        &mut oracle,
        &probes,
        &mut link.coins,
        &mut findings,
    )?;
    Ok(family(findings, counted.len()))
}
