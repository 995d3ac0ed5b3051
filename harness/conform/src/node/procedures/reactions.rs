//! Limits and misbehaviour: a fresh connection, the check's messages each followed by a `ping`
//! barrier, and whether the node kept the connection after each (Core: `Misbehaving` ends the
//! connection of a non-`noban` peer, and discourages it unless it is local). A node that also
//! bans 127.0.0.1 is noted, and the ban cleared over RPC for the next check.

use super::{filler, send_all, Fixtures, Outcome, Send, Sent};
use crate::node::link::Link;
use crate::node::trial::{Shape, Trial};
use crate::regen::error::RegenError;
use bip37_harness::ops::StepResult;
use bip37_reference::limits::{MAX_FILTERADD_BYTES, MAX_FILTER_BYTES, MAX_HASH_FUNCS};

/// Sends `messages` on a fresh connection, each followed by a barrier, until the node hangs up.
pub fn react(link: &mut Link, messages: Vec<Send>) -> Result<Outcome, RegenError> {
    let setup = messages.len().saturating_sub(1);
    let mut peer = link.connect(false)?;
    let Sent {
        steps, observed, ..
    } = send_all(&mut peer, messages)?;
    drop(peer);
    let note = match observed.last() == Some(&StepResult::Misbehaving) && link.banned()? {
        true => Some("the node also banned 127.0.0.1; the ban was cleared over RPC".to_string()),
        false => None,
    };
    Ok(Outcome::Trial(Trial {
        steps,
        observed,
        shape: Shape::Reaction { setup },
        note,
    }))
}

fn small() -> Send {
    Send::load(&filler(64, 5, 0))
}

pub fn max_filter(link: &mut Link, _: &mut Fixtures) -> Result<Outcome, RegenError> {
    react(
        link,
        vec![Send::load(&filler(
            MAX_FILTER_BYTES as usize,
            MAX_HASH_FUNCS,
            0,
        ))],
    )
}

pub fn oversized_filter(link: &mut Link, _: &mut Fixtures) -> Result<Outcome, RegenError> {
    react(
        link,
        vec![Send::load(&filler(MAX_FILTER_BYTES as usize + 1, 1, 0))],
    )
}

pub fn too_many_funcs(link: &mut Link, _: &mut Fixtures) -> Result<Outcome, RegenError> {
    react(link, vec![Send::load(&filler(64, MAX_HASH_FUNCS + 1, 0))])
}

pub fn max_element(link: &mut Link, _: &mut Fixtures) -> Result<Outcome, RegenError> {
    react(link, vec![small(), Send::add(vec![7; MAX_FILTERADD_BYTES])])
}

pub fn oversized_element(link: &mut Link, _: &mut Fixtures) -> Result<Outcome, RegenError> {
    react(
        link,
        vec![small(), Send::add(vec![7; MAX_FILTERADD_BYTES + 1])],
    )
}

pub fn add_without_filter(link: &mut Link, _: &mut Fixtures) -> Result<Outcome, RegenError> {
    react(link, vec![Send::add(vec![7; 20])])
}

pub fn clear_without_filter(link: &mut Link, _: &mut Fixtures) -> Result<Outcome, RegenError> {
    react(link, vec![Send::clear()])
}

pub fn no_bloom_filterload(link: &mut Link, _: &mut Fixtures) -> Result<Outcome, RegenError> {
    react(link, vec![small()])
}

pub fn no_bloom_filteradd(link: &mut Link, _: &mut Fixtures) -> Result<Outcome, RegenError> {
    react(link, vec![Send::add(vec![7; 20])])
}

pub fn no_bloom_filterclear(link: &mut Link, _: &mut Fixtures) -> Result<Outcome, RegenError> {
    react(link, vec![Send::clear()])
}

pub fn no_bloom_mempool(link: &mut Link, _: &mut Fixtures) -> Result<Outcome, RegenError> {
    react(link, vec![Send::mempool()])
}
