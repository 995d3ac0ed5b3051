//! Single filtered-block requests on a fresh connection: the check's filter messages (each
//! with a barrier), then `getdata(MSG_FILTERED_BLOCK)` of a block of three transactions mined
//! for the run, then a barrier; everything before the `pong` is the answer (Core sends the
//! `merkleblock` and its `tx`s before it reads the `ping`).

use super::{block_step, filler, holding, send_all, Fixtures, Outcome, Send, Sent};
use crate::node::link::Link;
use crate::node::trial::{block_result, Shape, Trial};
use crate::regen::chain::{self, carrier_script, MinedBlock};
use crate::regen::error::RegenError;
use crate::regen::payloads;
use bip37_reference::{BloomFilter, FilterLoad};

/// The block the checks ask about, and the element each of its transactions carries.
pub struct FixtureBlock {
    pub mined: MinedBlock,
    pub elements: Vec<Vec<u8>>,
}

/// The run's block, mined on first use.
fn fixture<'a>(
    link: &mut Link,
    fixtures: &'a mut Fixtures,
) -> Result<&'a FixtureBlock, RegenError> {
    if fixtures.block.is_none() {
        let mut elements = Vec::new();
        let mut txs = Vec::new();
        for _ in 0..3 {
            let element = fixtures.element(&link.token);
            let coin = chain::take_coin(&mut link.coins)?;
            txs.push(chain::spend(&coin, None, vec![carrier_script(&element)])?);
            elements.push(element);
        }
        let mined = chain::mine(&mut link.rpc, &txs)?;
        fixtures.block = Some(FixtureBlock { mined, elements });
    }
    Ok(fixtures.block.as_ref().expect("mined above"))
}

/// Sends `setup`, then asks for the block; `filter` is what Core holds by then.
fn ask(
    link: &mut Link,
    fixtures: &mut Fixtures,
    setup: Vec<Send>,
    filter: Option<FilterLoad>,
) -> Result<Outcome, RegenError> {
    let mined = fixture(link, fixtures)?.mined.clone();
    let count = setup.len();
    let mut peer = link.connect(false)?;
    let Sent {
        mut steps,
        mut observed,
        kept,
    } = send_all(&mut peer, setup)?;
    steps.push(block_step(&mined));
    if kept {
        let reply = match peer.send("getdata", payloads::getdata_filtered_block(&mined.hash)) {
            Ok(()) => peer.barrier()?,
            Err(_) => crate::regen::peer::Reply::Disconnected,
        };
        observed.push(block_result(&mined, &reply));
    }
    Ok(Outcome::Trial(Trial {
        steps,
        observed,
        shape: Shape::Block {
            setup: count,
            block: Box::new(mined),
            filter: filter.map(|load| {
                BloomFilter::from_parts(load.data, load.hash_funcs, load.tweak, load.flags)
            }),
        },
        note: None,
    }))
}

pub fn tx_after_merkleblock(
    link: &mut Link,
    fixtures: &mut Fixtures,
) -> Result<Outcome, RegenError> {
    let elements = fixture(link, fixtures)?.elements.clone();
    let load = holding(&[&elements[0], &elements[2]], 0);
    ask(link, fixtures, vec![Send::load(&load)], Some(load))
}

pub fn no_hash_funcs(link: &mut Link, fixtures: &mut Fixtures) -> Result<Outcome, RegenError> {
    let load = filler(64, 0, 0);
    ask(link, fixtures, vec![Send::load(&load)], Some(load))
}

pub fn without_filter(link: &mut Link, fixtures: &mut Fixtures) -> Result<Outcome, RegenError> {
    ask(link, fixtures, Vec::new(), None)
}

pub fn after_filterclear(link: &mut Link, fixtures: &mut Fixtures) -> Result<Outcome, RegenError> {
    let setup = vec![Send::load(&filler(64, 5, 0)), Send::clear()];
    ask(link, fixtures, setup, None)
}

pub fn empty_filter(link: &mut Link, fixtures: &mut Fixtures) -> Result<Outcome, RegenError> {
    let load = filler(0, 1, 0);
    ask(link, fixtures, vec![Send::load(&load)], Some(load))
}

pub fn all_flags(link: &mut Link, fixtures: &mut Fixtures) -> Result<Outcome, RegenError> {
    let load = filler(64, 5, 0xff);
    ask(link, fixtures, vec![Send::load(&load)], Some(load))
}
