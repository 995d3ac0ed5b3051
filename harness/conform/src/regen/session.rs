//! One `regen` run from start to end: check the node (regtest, bloom service, no ban on this
//! machine, RPC and P2P reaching the same node), fund coins, ask every probe, then write the
//! record (only if the node agreed with the reference, or with `force`) or compare it with the
//! committed one. Every precondition is checked before anything is mined or written.

use super::chain;
use super::error::RegenError;
use super::keep::{keep, RecordFile};
use super::network::{banned, network_info, TestChain};
use super::oracle::Oracle;
use super::payloads::NODE_BLOOM;
use super::peer::{PeerConfig, USER_AGENT};
use super::probes::{bits, limits, places, update, Findings};
use super::record::{compare, Difference, Provenance, Record, RECORD_FORMAT_VERSION, RECORD_KIND};
use super::rpc::{RpcClient, RpcConfig};
use super::{same_node, write};
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// Bitcoin Core's regtest network magic.
pub const CORE_REGTEST_MAGIC: [u8; 4] = [0xfa, 0xbf, 0xb5, 0xda];
/// The Bitcoin SV node's regtest network magic.
pub const SV_REGTEST_MAGIC: [u8; 4] = [0xda, 0xb5, 0xbf, 0xfa];

/// The regtest magic of the node whose user agent is `subversion`: Bitcoin SV's for it, Core's
/// for every other.
pub fn regtest_magic(subversion: &str) -> [u8; 4] {
    if subversion.contains("Bitcoin SV") {
        SV_REGTEST_MAGIC
    } else {
        CORE_REGTEST_MAGIC
    }
}

/// What a run needs.
#[derive(Debug, Clone)]
pub struct Options {
    pub rpc: RpcConfig,
    /// The node's P2P `host:port`.
    pub p2p: String,
    /// The network magic; guessed from the node's user agent when absent.
    pub magic: Option<[u8; 4]>,
    /// The longest any one P2P call may take (connecting, a send, a barrier).
    pub timeout: Duration,
    /// The vector directory whose elements are probed (default: the suite's own).
    pub vectors: Option<PathBuf>,
    /// The record file.
    pub record: PathBuf,
    /// Compare with the committed record instead of writing it.
    pub check: bool,
    /// Write the record even if the node disagreed with the reference (it then says so).
    pub force: bool,
}

/// What a run found.
#[derive(Debug)]
pub struct Outcome {
    pub record: Record,
    /// `--check` only: differences from the committed record.
    pub differences: Vec<Difference>,
    /// `--check` only: where this node's behaviours differ from those of the node the
    /// committed record was made with (printed, never counted: nodes may differ there).
    pub behaviour_differences: Vec<Difference>,
    /// `--check` only: the user agent of the node the committed record was made with.
    pub recorded_node: Option<String>,
    pub findings: Findings,
    /// Whether the record file was compared, written or left alone.
    pub record_file: RecordFile,
}

impl Outcome {
    /// Whether the run found nothing wrong.
    pub fn passed(&self) -> bool {
        self.differences.is_empty() && self.findings.disagreements.is_empty()
    }
}

struct NodeInfo {
    version: i64,
    subversion: String,
    chain: TestChain,
}

/// Runs `regen`, printing progress to `log`.
pub fn run(options: &Options, log: &mut dyn Write) -> Result<Outcome, RegenError> {
    let mut rpc = RpcClient::new(options.rpc.clone());
    let node = check_node(&mut rpc)?;
    let magic = options
        .magic
        .unwrap_or_else(|| node.chain.magic(&node.subversion));
    let tests =
        crate::vector_set::load(options.vectors.as_deref()).map_err(|e| RegenError::Input {
            path: e.file.clone(),
            detail: e.to_string(),
        })?;
    let committed = if options.check {
        Some(write::read(&options.record)?)
    } else {
        None
    };
    let config = PeerConfig {
        address: options.p2p.clone(),
        magic,
        timeout: options.timeout,
        user_agent: same_node::user_agent(&same_node::run_token()),
        last_sent: Default::default(),
    };
    let mut oracle = Oracle::connect(&config)?;
    let version = oracle.peer().node.clone();
    same_node::check(
        &mut rpc,
        &options.rpc.address,
        &options.p2p,
        &config.user_agent,
        &version,
    )?;
    if version.services & NODE_BLOOM == 0 {
        return Err(RegenError::BloomDisabled {
            services: version.services,
        });
    }
    let say = |log: &mut dyn Write, text: String| {
        let _ = writeln!(log, "regen: {text}");
    };
    say(
        log,
        format!(
            "node {} (protocol {}) at {}, magic {}",
            version.user_agent,
            version.protocol_version,
            options.p2p,
            bip37_harness::hex::encode(magic)
        ),
    );

    let mut bit_probes = bits::from_vectors(&tests);
    let from_vectors = bit_probes.len();
    bit_probes.extend(bits::sweep());
    let plain_count = bit_probes.len() + places::OP_TRUE_COINS + update::OP_TRUE_COINS;
    let coins = chain::fund(&mut rpc, plain_count, places::DROP_TRUE_COINS, 0)?;
    let (mut plain, mut one_push): (Vec<_>, Vec<_>) = coins
        .into_iter()
        .partition(|c| c.lock == chain::Lock::OpTrue);
    say(
        log,
        format!(
            "funded {} coins from a fresh coinbase",
            plain.len() + one_push.len()
        ),
    );

    let mut findings = Findings::default();
    let (mut probes, places_block) = places::run(
        &mut rpc,
        &mut oracle,
        &mut plain,
        &mut one_push,
        &mut findings,
    )?;
    say(log, format!("{} place probes asked", probes.len()));
    probes.extend(update::run(
        &mut rpc,
        &mut oracle,
        &mut plain,
        &mut findings,
    )?);
    say(log, "update-mode probes asked".into());
    let (bit_records, mut node_behaviours) = bits::run(
        &mut rpc,
        &mut oracle,
        &bit_probes,
        &mut plain,
        &mut findings,
    )?;
    probes.extend(bit_records);
    say(
        log,
        format!(
            "{} bit-position probes asked ({from_vectors} from the elements of {} vector tests, \
             {} from the sweep)",
            bit_probes.len(),
            tests.len(),
            bit_probes.len() - from_vectors
        ),
    );
    let (limit_probes, limit_behaviours) =
        limits::run(&mut rpc, &config, &places_block, &mut findings)?;
    probes.extend(limit_probes);
    node_behaviours.extend(limit_behaviours);
    say(log, "limit probes asked".into());

    let mut record = Record {
        record: RECORD_KIND.into(),
        format_version: RECORD_FORMAT_VERSION,
        header: vec![
            "What a live regtest node answered to the questions of `bip37-conform regen`, next to \
             the reference's prediction. Made by `bip37-conform regen`; do not edit by hand."
                .into(),
            "`probes` must read the same for every conforming node (`regen --check` fails on a \
             difference); `nodeBehaviours` may legitimately differ between nodes."
                .into(),
        ],
        forced: None,
        provenance: Provenance {
            user_agent: version.user_agent.clone(),
            version: node.version,
            protocol_version: version.protocol_version,
            services: format!("{:x}", version.services),
            magic: bip37_harness::hex::encode(magic),
            date: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
            tool: USER_AGENT.trim_matches('/').replace(':', " "),
        },
        probes,
        node_behaviours,
    };
    let behaviour_differences = committed
        .as_ref()
        .map(|old| compare(&old.node_behaviours, &record.node_behaviours))
        .unwrap_or_default();
    let recorded_node = committed
        .as_ref()
        .map(|old| old.provenance.user_agent.clone());
    let (differences, record_file) = match &committed {
        Some(old) => (compare(&old.probes, &record.probes), RecordFile::Compared),
        None => {
            let kept = keep(&options.record, &mut record, &findings, options.force)?;
            if !matches!(kept, RecordFile::Refused { .. }) {
                say(log, format!("wrote {}", options.record.display()));
            }
            (Vec::new(), kept)
        }
    };
    Ok(Outcome {
        record,
        differences,
        behaviour_differences,
        recorded_node,
        findings,
        record_file,
    })
}

/// Regtest (or btcd's simnet), bloom service on, this machine not banned: checked over RPC
/// before any P2P, as far as the node's RPC tells (btcd's tells neither services nor bans; the
/// P2P `version` is checked for NODE_BLOOM in any case).
fn check_node(rpc: &mut RpcClient) -> Result<NodeInfo, RegenError> {
    let chain = TestChain::of(rpc)?;
    let info = network_info(rpc)?;
    if let Some(services) = info.services.filter(|s| s & NODE_BLOOM == 0) {
        return Err(RegenError::BloomDisabled { services });
    }
    if let Some(entries) = banned(rpc)?.filter(|a| !a.is_empty()) {
        let list: Vec<&str> = entries
            .iter()
            .filter_map(|e| e.get("address").and_then(Value::as_str))
            .collect();
        return Err(RegenError::Banned {
            entries: list.join(", "),
        });
    }
    Ok(NodeInfo {
        version: info.version,
        subversion: info.subversion,
        chain,
    })
}
