//! The command line of `bip37-conform regen`: its options and exit codes.
//!
//! Exit codes (the suite's, [`crate::exit`]): 0 the node agreed with the reference (and,
//! with `--check`, with the committed record); 1 a disagreement or a difference (printed);
//! 2 `regen` could not run (the message names the cause and the fix; nothing was written).

use super::error::RegenError;
use super::keep::RecordFile;
use super::record_path::default_record;
use super::rpc::RpcConfig;
use super::session::{self, Options};
use super::tls::RpcTls;
use crate::exit;
use std::path::PathBuf;
use std::time::Duration;

/// The largest `--timeout` in seconds (an hour per answer; RPC calls get four times as
/// long): a larger value is a usage error rather than a deadline past what a clock can hold.
pub const MAX_TIMEOUT_SECONDS: u64 = 60 * 60;
/// The largest cookie file read (a node's is `__cookie__:` and 64 hex digits).
const MAX_COOKIE_BYTES: u64 = 4096;

/// How a live regtest node is reached over RPC and P2P (shared by `regen` and `node`); each
/// option may come from the variable scripts/bcoin-node.sh sets (`BIP37_REGEN_RPC`, ...).
#[derive(Debug, Clone, clap::Args)]
pub struct NodeAddressArgs {
    /// The node's RPC server (its -rpcport): `host:port` or `http://[user:password@]host:port/`
    /// (`https://` with --rpc-cert).
    #[arg(long, env = "BIP37_REGEN_RPC", default_value = "127.0.0.1:18443")]
    pub rpc: String,
    /// RPC user (the node's -rpcuser).
    #[arg(long, env = "BIP37_REGEN_RPC_USER", default_value = "")]
    pub rpc_user: String,
    /// RPC password (the node's -rpcpassword).
    #[arg(
        long,
        env = "BIP37_REGEN_RPC_PASSWORD",
        hide_env_values = true,
        default_value = ""
    )]
    pub rpc_password: String,
    /// Speak RPC over TLS, trusting exactly the certificate(s) of this PEM file (btcd's
    /// rpc.cert: btcd's RPC is TLS only); plain HTTP without it (Bitcoin Core).
    #[arg(long, env = "BIP37_REGEN_RPC_CERT", value_name = "FILE")]
    pub rpc_cert: Option<PathBuf>,
    /// Read the RPC user and password from the node's cookie file instead.
    #[arg(long, conflicts_with_all = ["rpc_user", "rpc_password"])]
    pub rpc_cookie: Option<PathBuf>,
    /// The node's P2P address (its -port / -bind).
    #[arg(long, env = "BIP37_REGEN_P2P", default_value = "127.0.0.1:18444")]
    pub p2p: String,
    /// Network magic as 8 hex digits (Bitcoin Core regtest fabfb5da, Bitcoin SV regtest
    /// dab5bffa); by default chosen from the node's user agent.
    #[arg(long, env = "BIP37_NODE_MAGIC", value_parser = parse_magic)]
    pub magic: Option<[u8; 4]>,
    /// Seconds any one P2P exchange may take, from 1 to 3600 (an RPC call gets four times as
    /// long: mining); each bounds the whole exchange, however slowly the node sends.
    #[arg(long, default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=MAX_TIMEOUT_SECONDS))]
    pub timeout: u64,
}

/// Confirm or regenerate the vectors against a live regtest node (RPC and P2P).
#[derive(Debug, Clone, clap::Args)]
pub struct RegenArgs {
    #[command(flatten)]
    pub node: NodeAddressArgs,
    /// Confirm the elements of the `*_test.json` files of this directory instead of the
    /// suite's own vectors.
    #[arg(long, value_name = "DIR")]
    pub vectors: Option<PathBuf>,
    /// The record to write (or to compare with `--check`); by default
    /// `<--vectors>/live-node/record.json`, else `vectors/live-node/record.json` of the
    /// checkout the current directory is in.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Compare with the committed record instead of writing it; exit 1 on any difference.
    #[arg(long)]
    pub check: bool,
    /// Write the record even though the node disagreed with the reference (the record then
    /// says so in `forced`); without it such a run leaves the record as it was.
    #[arg(long, conflicts_with = "check")]
    pub force: bool,
}

fn parse_magic(text: &str) -> Result<[u8; 4], String> {
    let bytes = bip37_harness::hex::Hex::parse(text)?.0;
    <[u8; 4]>::try_from(bytes)
        .map_err(|_| "the magic is 4 bytes: 8 hex digits such as fabfb5da".to_string())
}

/// The `host:port` of `--rpc` and the user and password a URL form carries; `tls` says whether
/// `--rpc-cert` was given, which an `https://` URL needs and an `http://` one refuses.
fn rpc_address(rpc: &str, tls: bool) -> Result<(String, Option<(String, String)>), RegenError> {
    let rest = match (rpc.split_once("://"), tls) {
        (None, _) => return Ok((rpc.to_string(), None)),
        (Some(("http", rest)), false) | (Some(("https", rest)), true) => rest.trim_end_matches('/'),
        (Some(("http", _)), true) => {
            return Err(RegenError::BadAddress(format!(
                "{rpc} (--rpc-cert speaks TLS: write https://, or drop --rpc-cert)"
            )))
        }
        (Some(("https", _)), false) => {
            return Err(RegenError::BadAddress(format!(
                "{rpc} (https:// needs the server's certificate: pass --rpc-cert FILE)"
            )))
        }
        (Some(_), _) => {
            return Err(RegenError::BadAddress(format!(
                "{rpc} (only http:// and https:// are spoken)"
            )))
        }
    };
    match rest.rsplit_once('@') {
        None => Ok((rest.to_string(), None)),
        Some((login, address)) => {
            let (user, password) = login.split_once(':').unwrap_or((login, ""));
            Ok((
                address.to_string(),
                Some((user.to_string(), password.to_string())),
            ))
        }
    }
}

fn credentials(
    args: &NodeAddressArgs,
    from_url: Option<(String, String)>,
) -> Result<(String, String), RegenError> {
    let Some(path) = &args.rpc_cookie else {
        return Ok(from_url.unwrap_or((args.rpc_user.clone(), args.rpc_password.clone())));
    };
    let text = bip37_harness::input_file::read_text(path, MAX_COOKIE_BYTES).map_err(|e| {
        RegenError::Input {
            path: path.display().to_string(),
            detail: format!("{e} (the cookie is <datadir>/regtest/.cookie while the node runs)"),
        }
    })?;
    text.trim()
        .split_once(':')
        .map(|(u, p)| (u.to_string(), p.to_string()))
        .ok_or_else(|| RegenError::Input {
            path: path.display().to_string(),
            detail: "not a `user:password` cookie".into(),
        })
}

/// Runs `regen` with `args`, reports to stdout / stderr, and returns the exit code.
pub fn main(args: &RegenArgs) -> u8 {
    match run(args) {
        Ok(true) => exit::CONFORMANT,
        Ok(false) => exit::FAILURES,
        Err(e) => {
            bip37_harness::say!("bip37-conform regen: {e}");
            exit::HARNESS_ERROR
        }
    }
}

impl NodeAddressArgs {
    /// The RPC configuration these options name (an RPC call gets four times `--timeout`).
    pub fn rpc_config(&self) -> Result<RpcConfig, RegenError> {
        let (address, from_url) = rpc_address(&self.rpc, self.rpc_cert.is_some())?;
        let (user, password) = credentials(self, from_url)?;
        let tls = match &self.rpc_cert {
            Some(path) => Some(RpcTls::trusting(path)?),
            None => None,
        };
        Ok(RpcConfig {
            address,
            user,
            password,
            timeout: Duration::from_secs(self.timeout.saturating_mul(4)),
            tls,
        })
    }
}

fn run(args: &RegenArgs) -> Result<bool, RegenError> {
    let rpc = args.node.rpc_config()?;
    let record = match &args.record {
        Some(path) => path.clone(),
        None => {
            let here = std::env::current_dir().map_err(|e| RegenError::Input {
                path: ".".into(),
                detail: format!("the current directory: {e}"),
            })?;
            default_record(args.vectors.as_deref(), &here)?
        }
    };
    bip37_harness::say!("regen: record {}", record.display());
    let options = Options {
        rpc,
        p2p: args.node.p2p.clone(),
        magic: args.node.magic,
        timeout: Duration::from_secs(args.node.timeout),
        vectors: args.vectors.clone(),
        record,
        check: args.check,
        force: args.force,
    };
    let outcome = session::run(&options, &mut std::io::stderr())?;
    for note in &outcome.findings.notes {
        bip37_harness::say_out!("note: {note}");
    }
    for behaviour in &outcome.record.node_behaviours {
        bip37_harness::say_out!(
            "node behaviour (recorded, not counted) {}: {}",
            behaviour.id,
            behaviour.observed
        );
    }
    for line in &outcome.findings.disagreements {
        bip37_harness::say_out!("DISAGREES WITH THE REFERENCE {line}");
    }
    for difference in &outcome.differences {
        bip37_harness::say_out!("{difference}");
    }
    // A behaviour nodes may legitimately differ on, other than the recorded node's: one line
    // per probe starting with its id (a script compares the list with a node's known ones).
    let recorded = outcome.recorded_node.as_deref().unwrap_or("?");
    for difference in &outcome.behaviour_differences {
        bip37_harness::say_out!(
            "NODE BEHAVIOUR OTHER THAN THE RECORD'S ({recorded}) {}: not counted\n{difference}",
            difference.id()
        );
    }
    match outcome.record_file {
        RecordFile::Refused { disagreements } => bip37_harness::say_out!(
            "{} NOT written: the node disagreed with the reference {disagreements} times \
             (--force writes it anyway, marked as forced)",
            options.record.display()
        ),
        RecordFile::Forced { disagreements } => bip37_harness::say_out!(
            "{} written with --force despite {disagreements} disagreements (its `forced` field \
             says so)",
            options.record.display()
        ),
        RecordFile::Compared | RecordFile::Written => {}
    }
    let p = &outcome.record.provenance;
    bip37_harness::say_out!(
        "{} probes against {} (version {}, protocol {}): {} disagreements with the reference{}",
        outcome.record.probes.len(),
        p.user_agent,
        p.version,
        p.protocol_version,
        outcome.findings.disagreements.len(),
        if options.check {
            format!(
                ", {} differences from {} ({} node behaviours other than its node's, not \
                 counted)",
                outcome.differences.len(),
                options.record.display(),
                outcome.behaviour_differences.len()
            )
        } else {
            String::new()
        }
    );
    Ok(outcome.passed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rpc_takes_an_address_or_an_http_url() {
        assert_eq!(
            rpc_address("127.0.0.1:18443", false).unwrap(),
            ("127.0.0.1:18443".into(), None)
        );
        assert_eq!(
            rpc_address("http://127.0.0.1:18443/", false).unwrap().0,
            "127.0.0.1:18443"
        );
        assert_eq!(
            rpc_address("http://u:p@127.0.0.1:18443", false).unwrap(),
            ("127.0.0.1:18443".into(), Some(("u".into(), "p".into())))
        );
        assert!(rpc_address("https://127.0.0.1:18443", false).is_err());
        assert!(rpc_address("http://127.0.0.1:18443", true).is_err());
        assert!(rpc_address("ftp://127.0.0.1:18443", true).is_err());
        assert_eq!(
            rpc_address("https://u:p@127.0.0.1:18334/", true).unwrap(),
            ("127.0.0.1:18334".into(), Some(("u".into(), "p".into())))
        );
    }

    #[test]
    fn magic_is_four_hex_bytes() {
        assert_eq!(parse_magic("dab5bffa").unwrap(), [0xda, 0xb5, 0xbf, 0xfa]);
        assert!(parse_magic("dab5bf").is_err());
        assert!(parse_magic("zz").is_err());
    }

    #[test]
    fn cookie_is_user_colon_password() {
        let path = std::env::temp_dir().join(format!("regen-cookie-{}", std::process::id()));
        std::fs::write(&path, "__cookie__:secret\n").unwrap();
        let args = NodeAddressArgs {
            rpc: String::new(),
            rpc_user: String::new(),
            rpc_password: String::new(),
            rpc_cookie: Some(path.clone()),
            rpc_cert: None,
            p2p: String::new(),
            magic: None,
            timeout: 1,
        };
        assert_eq!(
            credentials(&args, None).unwrap(),
            ("__cookie__".to_string(), "secret".to_string())
        );
        std::fs::remove_file(path).unwrap();
    }
}
