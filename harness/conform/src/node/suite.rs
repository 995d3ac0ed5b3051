//! One run of the node suite: check the node (regtest, RPC and P2P reaching the same node, its
//! services), fund the coins the selected checks spend, ask each check on fresh connections,
//! and sum the verdicts up as a [`Run`] of the runner, so that expectations, reports and exit
//! codes are those of `bip37-conform run`.

use super::checks::{self, Check, CheckFile, Requires};
use super::judge::{
    as_test, broke_down, crashed, judge, judge_family, not_attempted, not_run, setup_refused,
};
use super::link::Link;
use super::procedures::{self, families, Fixtures, Outcome};
use crate::regen::chain::{self, Lock};
use crate::regen::error::RegenError;
use crate::regen::network::{network_info, TestChain};
use crate::regen::payloads::NODE_BLOOM;
use crate::regen::peer::{Peer, PeerConfig};
use crate::regen::rpc::{RpcClient, RpcConfig};
use crate::regen::same_node;
use bip37_harness::ops::OpName;
use bip37_harness::runner::{Run, Selection};
use bip37_harness::vectors::LoadedTest;
use std::collections::BTreeSet;
use std::io::Write;
use std::time::{Duration, Instant};

/// Coins the single-block checks spend (3 in the block), with room to spare.
const PLAIN_COINS: usize = 8;
/// P2SH coins the relay and mempool checks offer (15 transactions; a child spends its parent),
/// with room to spare.
const RELAY_COINS: usize = 20;

/// What a run needs.
#[derive(Debug, Clone)]
pub struct Options {
    pub rpc: RpcConfig,
    pub p2p: String,
    pub magic: Option<[u8; 4]>,
    /// The longest any one P2P call may take.
    pub timeout: Duration,
    /// The longest wait for an announcement a conforming node must make.
    pub announce_timeout: Duration,
    /// The time given to a checked peer after the control was told.
    pub settle: Duration,
    pub selection: Selection,
    /// Checks to run after all the others, in their order: those the node's expectations file
    /// expects to crash it. A crash ends a run (nothing after it can be asked of a dead node),
    /// so an expected one, run last, costs no other check.
    pub last: BTreeSet<String>,
}

/// The checks of the data file, as tests of the runner (for selection and listing).
pub fn plan(file: &CheckFile) -> Vec<LoadedTest> {
    file.checks
        .iter()
        .map(|c| as_test(c, Vec::new(), None))
        .collect()
}

/// Runs the selected checks against the node, printing progress to `log`.
pub fn run(options: &Options, log: &mut dyn Write) -> Result<Run, RegenError> {
    let began = Instant::now();
    let file = checks::checks().map_err(|detail| RegenError::Input {
        path: "vectors/node/checks.json (compiled in)".into(),
        detail,
    })?;
    let all = plan(&file);
    let mut selected: Vec<&Check> = options
        .selection
        .apply(&all)
        .into_iter()
        .filter_map(|t| file.checks.iter().find(|c| c.id == t.case.id))
        .collect();
    // A stable sort: the expected crashes move to the end, everything keeps its order.
    selected.sort_by_key(|c| options.last.contains(&c.id));
    let mut rpc = RpcClient::new(options.rpc.clone());
    let test_chain = TestChain::of(&mut rpc)?;
    let subversion = network_info(&mut rpc)?.subversion;
    let token = same_node::run_token();
    let config = PeerConfig {
        address: options.p2p.clone(),
        magic: options
            .magic
            .unwrap_or_else(|| test_chain.magic(&subversion)),
        timeout: options.timeout,
        user_agent: same_node::user_agent(&token),
        last_sent: Default::default(),
    };
    let first = Peer::connect(&config)?;
    same_node::check(
        &mut rpc,
        &options.rpc.address,
        &options.p2p,
        &config.user_agent,
        &first.node,
    )?;
    let node = first.node.clone();
    drop(first);
    let bloom = node.services & NODE_BLOOM != 0;
    let _ = writeln!(
        log,
        "node: {} (protocol {}, services {:#x}: NODE_BLOOM {}) at {}",
        node.user_agent,
        node.protocol_version,
        node.services,
        if bloom { "on" } else { "off" },
        options.p2p
    );
    let applies = |c: &Check| (c.requires == Requires::Bloom) == bloom;
    let mut link = Link {
        rpc,
        config,
        coins: Vec::new(),
        relay_coins: Vec::new(),
        announce_timeout: options.announce_timeout,
        settle: options.settle,
        token,
    };
    let mut fixtures = Fixtures::default();
    // A funding the node refuses fails every check that spends the coins, each with the
    // node's reason; the others still run.
    let mut funding_refused = None;
    if selected
        .iter()
        .any(|c| applies(c) && c.requires == Requires::Bloom)
    {
        match fund(&mut link, &mut fixtures, &selected, log) {
            Ok(()) => {}
            Err(e) if setup_refused_by_node(&e) => funding_refused = Some(e),
            Err(e) => return Err(e),
        }
    }
    let mut results = Vec::with_capacity(selected.len());
    // Set when the node stopped answering: the check it happened in is a crash, the rest are
    // not run.
    let mut crashed_in: Option<String> = None;
    for check in selected {
        if let Some(during) = &crashed_in {
            results.push(not_attempted(
                check,
                format!("not run: the node stopped answering during {during}"),
            ));
            continue;
        }
        if !applies(check) {
            results.push(not_run(
                check,
                format!(
                    "not run: the check needs a node {} NODE_BLOOM, and this one's services are \
                     {:#x}",
                    if check.requires == Requires::Bloom {
                        "with"
                    } else {
                        "without"
                    },
                    node.services
                ),
            ));
            continue;
        }
        let started = Instant::now();
        let procedure = procedures::procedure(&check.id).ok_or_else(|| RegenError::Setup {
            detail: format!("no code for check {}", check.id),
        })?;
        let outcome = match (&funding_refused, check.requires) {
            (Some(e), Requires::Bloom) => Err(RegenError::Setup {
                detail: e.to_string(),
            }),
            _ => procedure(&mut link, &mut fixtures),
        };
        // A node that crashed can look like one that disconnected on purpose: whatever the
        // check made of it, a node that no longer answers RPC crashed during this check.
        let result = if !link.alive() {
            crashed_in = Some(check.id.clone());
            crashed(check, link.config.last_sent.get(), started.elapsed())
        } else {
            match outcome {
                Ok(Outcome::Trial(trial)) => judge(check, &file, trial, started.elapsed()),
                Ok(Outcome::Family {
                    probes,
                    disagreements,
                }) => judge_family(check, probes, &disagreements, started.elapsed()),
                Err(e) if node_broke_down(&e) => broke_down(check, &e, started.elapsed()),
                Err(e) if setup_refused_by_node(&e) => setup_refused(check, &e, started.elapsed()),
                Err(e) => return Err(e),
            }
        };
        let _ = writeln!(
            log,
            "node: {} {} ({:.1} s)",
            result.state,
            check.id,
            started.elapsed().as_secs_f64()
        );
        results.push(result);
    }
    Ok(Run {
        implementation: format!("{} at {}", node.user_agent, options.p2p),
        results,
        aborted: None,
        elapsed: began.elapsed(),
        stale_expectations: Vec::new(),
        claimed: vec![OpName::Sequence],
        capabilities: Default::default(),
        warnings: options.selection.unmatched(&all),
        missing_operations: Vec::new(),
        allow_empty: false,
    })
}

/// Errors that are the node refusing what a check sets up (a transaction, a block, an RPC
/// call): that check fails with the node's reason, the run goes on.
fn setup_refused_by_node(e: &RegenError) -> bool {
    matches!(
        e,
        RegenError::TxRefused { .. } | RegenError::Setup { .. } | RegenError::RpcCall { .. }
    )
}

/// Errors that are the node's answer to a check (no answer in time, a malformed message, a
/// hang-up where a reply was due, a P2P port that no longer takes connections while RPC still
/// answers, as after a ban), not a failure of the harness or of the setup. The first connection
/// of a run is made before any check: a node unreachable there is a harness error.
fn node_broke_down(e: &RegenError) -> bool {
    matches!(
        e,
        RegenError::P2pTimeout { .. }
            | RegenError::P2pUnreachable { .. }
            | RegenError::P2pStalled { .. }
            | RegenError::P2pProtocol { .. }
            | RegenError::Disconnected { .. }
            | RegenError::ClosedBeforeVersion { .. }
    )
}

/// Funds the coins of the selected checks in one go (one coinbase matured by 100 blocks).
fn fund(
    link: &mut Link,
    fixtures: &mut Fixtures,
    selected: &[&Check],
    log: &mut dyn Write,
) -> Result<(), RegenError> {
    let ids: Vec<&str> = selected.iter().map(|c| c.id.as_str()).collect();
    if ids.contains(&"node/merkleblock/bit-positions") {
        fixtures.families.tests = crate::vector_set::load(None).map_err(|e| RegenError::Input {
            path: e.file.clone(),
            detail: e.to_string(),
        })?;
    }
    let (plain, one_push) = families::coins_needed(&ids, &fixtures.families.tests);
    let coins = chain::fund(&mut link.rpc, plain + PLAIN_COINS, one_push, RELAY_COINS)?;
    let _ = writeln!(
        log,
        "node: funded {} coins from a fresh coinbase",
        coins.len()
    );
    let of = |lock: Lock| coins.iter().filter(|c| c.lock == lock).copied().collect();
    link.coins = of(Lock::OpTrue);
    link.relay_coins = of(Lock::P2sh);
    fixtures.families.one_push = of(Lock::DropTrue);
    Ok(())
}
