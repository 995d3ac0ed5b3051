//! Announcements of new transactions: a fresh connection (relay flag as the check says) sends
//! its filter messages; a control connection (relay on, no filter) is opened; the check's
//! transactions are offered to the node's mempool in order; once the control has been told of
//! them all, the checked connection gets the settle time and a barrier ([`crate::node::link`]),
//! and each offered transaction counts as announced to it or not.
//!
//! The BIP 35 `mempool` check offers first and asks after: the reply is one `inv` at the
//! peer's next trickle, so it is awaited (at most the announcement timeout), then settled.

use super::{holding, send_all, Fixtures, Outcome, Send, Sent};
use crate::node::link::{output_coin, spend_with_fee, Link, Watched};
use crate::node::trial::{Shape, Trial};
use crate::regen::chain::{self, carrier_script};
use crate::regen::error::RegenError;
use crate::regen::peer::Peer;
use bip37_harness::ops::{Step, StepResult};
use bip37_reference::tx::Transaction;

/// BLOOM_UPDATE_ALL.
const UPDATE_ALL: u8 = 1;

/// An offered transaction and its role in the data file.
struct Offered {
    role: &'static str,
    tx: Transaction,
}

/// The results of what `watched` saw of `offered`, after the setup's.
fn announced(
    offered: &[Offered],
    watched: &Watched,
    mut observed: Vec<StepResult>,
) -> Vec<StepResult> {
    if watched.disconnected {
        observed.push(StepResult::Misbehaving);
        return observed;
    }
    observed.extend(offered.iter().map(|o| StepResult::Tx {
        relevant: watched.announced.contains(&o.tx.txid()),
        filter_data: bip37_harness::hex::Hex(Vec::new()),
    }));
    observed
}

fn trial(
    setup: usize,
    steps: Vec<Step>,
    observed: Vec<StepResult>,
    offered: &[Offered],
    note: String,
) -> Outcome {
    Outcome::Trial(Trial {
        steps,
        observed,
        shape: Shape::Announced {
            setup,
            roles: offered.iter().map(|o| o.role.to_string()).collect(),
        },
        note: Some(note),
    })
}

/// Offers `offered` to the mempool and waits until a control peer (relay on, no filter,
/// connected before) has been told of them all.
fn offer_seen_by_control(link: &mut Link, offered: &[Offered]) -> Result<(), RegenError> {
    let mut control = link.connect(true)?;
    control.barrier()?;
    let txs: Vec<&Transaction> = offered.iter().map(|o| &o.tx).collect();
    link.offer(&txs)?;
    let txids: Vec<_> = txs.iter().map(|t| t.txid()).collect();
    link.await_control(&mut control, &txids)
}

/// Sends `setup` on `peer`; the steps then name the offered transactions.
fn send_before(peer: &mut Peer, setup: Vec<Send>, offered: &[Offered]) -> Result<Sent, RegenError> {
    let mut sent = send_all(peer, setup)?;
    sent.steps.extend(offered.iter().map(|o| Step::MatchTx {
        tx: bip37_harness::hex::Hex(o.tx.encode()),
    }));
    Ok(sent)
}

/// A connection with relay flag `relay` sends `setup`; `offered` then enter the mempool.
fn relay(
    link: &mut Link,
    relay: bool,
    setup: Vec<Send>,
    offered: Vec<Offered>,
) -> Result<Outcome, RegenError> {
    let count = setup.len();
    let mut peer = link.connect(relay)?;
    let Sent {
        steps,
        observed,
        kept,
    } = send_before(&mut peer, setup, &offered)?;
    if !kept {
        let note = "the node closed the connection during the filter messages".to_string();
        return Ok(trial(count, steps, observed, &offered, note));
    }
    offer_seen_by_control(link, &offered)?;
    let watched = link.settle(&mut peer)?;
    let note = format!(
        "a control peer was told of all {} offered transactions, then this peer was given {} ms more",
        offered.len(),
        link.settle.as_millis()
    );
    Ok(trial(
        count,
        steps,
        announced(&offered, &watched, observed),
        &offered,
        note,
    ))
}

/// A fresh redeem script (`<fresh element> OP_DROP OP_TRUE`, spendable by anyone who shows it)
/// and the element its P2SH output pushes: the script's hash160, which a filter matches.
fn fresh_p2sh(link: &Link, fixtures: &mut Fixtures) -> (Vec<u8>, Vec<u8>) {
    let redeem = carrier_script(&fixtures.element(&link.token));
    let element = chain::hash160(&redeem).to_vec();
    (redeem, element)
}

/// Two transactions, each paying to a fresh P2SH output (standard, as Core's relay needs):
/// the elements their outputs push, and the offers.
fn pair(
    link: &mut Link,
    fixtures: &mut Fixtures,
    roles: [&'static str; 2],
) -> Result<(Vec<Vec<u8>>, Vec<Offered>), RegenError> {
    let mut elements = Vec::new();
    let mut offered = Vec::new();
    for role in roles {
        let (redeem, element) = fresh_p2sh(link, fixtures);
        let tx = link.pay_to(chain::p2sh(&redeem))?;
        elements.push(element);
        offered.push(Offered { role, tx });
    }
    Ok((elements, offered))
}

pub fn only_matching(link: &mut Link, fixtures: &mut Fixtures) -> Result<Outcome, RegenError> {
    let (elements, offered) = pair(link, fixtures, ["other", "matching"])?;
    let setup = vec![Send::load(&holding(&[&elements[1]], 0))];
    relay(link, true, setup, offered)
}

pub fn after_filterclear(link: &mut Link, fixtures: &mut Fixtures) -> Result<Outcome, RegenError> {
    let (_, offered) = pair(link, fixtures, ["first", "second"])?;
    let unrelated = fixtures.element(&link.token);
    let setup = vec![Send::load(&holding(&[&unrelated], 0)), Send::clear()];
    relay(link, true, setup, offered)
}

pub fn update_persists(link: &mut Link, fixtures: &mut Fixtures) -> Result<Outcome, RegenError> {
    let (redeem, element) = fresh_p2sh(link, fixtures);
    let parent = link.pay_to(chain::p2sh(&redeem))?;
    let child = spend_with_fee(
        &output_coin(&parent, 0),
        &redeem,
        chain::p2sh(&chain::P2SH_TRUE),
    )?;
    let setup = vec![Send::load(&holding(&[&element], UPDATE_ALL))];
    let offered = vec![
        Offered {
            role: "parent",
            tx: parent,
        },
        Offered {
            role: "child",
            tx: child,
        },
    ];
    relay(link, true, setup, offered)
}

pub fn silent_before_filter(
    link: &mut Link,
    fixtures: &mut Fixtures,
) -> Result<Outcome, RegenError> {
    let (_, offered) = pair(link, fixtures, ["first", "second"])?;
    relay(link, false, Vec::new(), offered)
}

pub fn filterload_enables(link: &mut Link, fixtures: &mut Fixtures) -> Result<Outcome, RegenError> {
    let (elements, offered) = pair(link, fixtures, ["other", "matching"])?;
    let setup = vec![Send::load(&holding(&[&elements[1]], 0))];
    relay(link, false, setup, offered)
}

pub fn filterclear_enables(
    link: &mut Link,
    fixtures: &mut Fixtures,
) -> Result<Outcome, RegenError> {
    let (_, offered) = pair(link, fixtures, ["first", "second"])?;
    relay(link, false, vec![Send::clear()], offered)
}

pub fn filteradd_does_not_enable(
    link: &mut Link,
    fixtures: &mut Fixtures,
) -> Result<Outcome, RegenError> {
    let (elements, offered) = pair(link, fixtures, ["other", "matching"])?;
    let setup = vec![Send::add(elements[1].clone())];
    let outcome = relay(link, false, setup, offered)?;
    link.banned()?;
    Ok(outcome)
}

pub fn mempool_only_matching(
    link: &mut Link,
    fixtures: &mut Fixtures,
) -> Result<Outcome, RegenError> {
    let (elements, offered) = pair(link, fixtures, ["other", "matching"])?;
    offer_seen_by_control(link, &offered)?;
    let mut peer = link.connect(false)?;
    let setup = vec![Send::load(&holding(&[&elements[1]], 0))];
    let Sent {
        steps,
        observed,
        kept,
    } = send_before(&mut peer, setup, &offered)?;
    if !kept {
        let note = "the node closed the connection at the filterload".to_string();
        return Ok(trial(1, steps, observed, &offered, note));
    }
    let watched = match peer.send("mempool", Vec::new()) {
        Ok(()) => link.first_inv_then_settle(&mut peer)?,
        Err(_) => Watched {
            disconnected: true,
            ..Watched::default()
        },
    };
    let note = format!(
        "both were in the mempool (a control peer was told of them); after `mempool` the first \
         inv was awaited up to {} s, then {} ms more",
        link.announce_timeout.as_secs(),
        link.settle.as_millis()
    );
    Ok(trial(
        1,
        steps,
        announced(&offered, &watched, observed),
        &offered,
        note,
    ))
}
