//! One P2P connection to the node, as a BIP 37 light client uses it: the `version`/`verack`
//! handshake, sending messages, and the `ping` barrier that ends every question.
//!
//! The node answers a `getdata` before it reads the next message, so everything received
//! between sending a `ping` and receiving its `pong` is the whole answer. `ping`s from the
//! node are answered; every other message the answer does not need (`sendcmpct`,
//! `wtxidrelay`, `sendaddrv2`, `feefilter`, `protoconf`, `inv`, ...) is dropped as it arrives.
//!
//! Every call is bounded whatever the node does: the connection and handshake, each `send`,
//! and each barrier (the `ping`, every message read and every `pong` written while waiting)
//! end by one deadline `timeout` after the call started ([`super::deadline`]), and the
//! messages kept for an answer may not exceed [`MAX_KEPT_BYTES`] in all.

use super::deadline::{self, deadline_after, DeadlineStream};
use super::error::RegenError;
use super::message::{read_message, Message, ReadError};
use super::payloads::{self, NodeVersion};
use super::rpc::resolve;
use std::io::{BufReader, Write};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How `regen` reaches the node over P2P.
#[derive(Debug, Clone)]
pub struct PeerConfig {
    /// `host:port`, e.g. `127.0.0.1:18444`.
    pub address: String,
    /// The network magic (Core regtest `fabfb5da`, Bitcoin SV regtest `dab5bffa`).
    pub magic: [u8; 4],
    /// The longest any one call may take: connecting with the handshake, a send, a barrier.
    pub timeout: Duration,
    /// The user agent sent in `version` (see [`super::same_node`]).
    pub user_agent: String,
    /// The last message any peer of this configuration sent (shared by its clones).
    pub last_sent: LastSent,
}

/// The last message sent to the node besides the handshake and the `ping` barriers, as
/// `command (N-byte payload)`: what a report names when the node stops answering after it.
#[derive(Debug, Clone, Default)]
pub struct LastSent(std::sync::Arc<std::sync::Mutex<Option<String>>>);

impl LastSent {
    fn record(&self, command: &str, payload_len: usize) {
        if let Ok(mut last) = self.0.lock() {
            *last = Some(format!("`{command}` ({payload_len}-byte payload)"));
        }
    }

    /// The last message recorded, if any.
    pub fn get(&self) -> Option<String> {
        self.0.lock().ok().and_then(|last| last.clone())
    }
}

/// The tool's name and version, as a user agent (BIP 14).
pub const USER_AGENT: &str = concat!("/bip37-conform:", env!("CARGO_PKG_VERSION"), "/");

/// The most payload bytes kept while waiting for one `pong`: the largest answer in a whole
/// run against the Bitcoin SV node counted 19,626 bytes here (the small blocks `regen` mines);
/// a node sending more is refused rather than held in memory.
pub const MAX_KEPT_BYTES: usize = 8 * 1024 * 1024;
/// What a kept message costs beyond its payload (the message and its command), so that a
/// flood of empty messages is bounded too.
const KEPT_OVERHEAD_BYTES: usize = 64;

/// A connected, handshaken peer.
pub struct Peer {
    config: PeerConfig,
    writer: DeadlineStream,
    reader: BufReader<DeadlineStream>,
    /// What the node said about itself.
    pub node: NodeVersion,
    next_nonce: u64,
}

/// What arrived before the `pong`, or that the node hung up first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The messages received before the `pong`, in order, other than those dropped.
    Answered(Vec<Message>),
    /// The node closed the connection before the `pong`.
    Disconnected,
}

/// The messages kept in a reply: the answer to a filtered-block `getdata`.
const KEPT: &[&str] = &["merkleblock", "tx", "notfound", "reject"];

impl Peer {
    /// Connects and completes the handshake, all within `config.timeout`.
    pub fn connect(config: &PeerConfig) -> Result<Peer, RegenError> {
        Peer::connect_relaying(config, false)
    }

    /// [`Peer::connect`] with the `version`'s relay flag (`fRelay`) as given.
    pub fn connect_relaying(config: &PeerConfig, relay: bool) -> Result<Peer, RegenError> {
        let deadline = deadline_after(config.timeout);
        let address = resolve(&config.address)?;
        let unreachable = |e: std::io::Error| RegenError::P2pUnreachable {
            address: config.address.clone(),
            detail: e.to_string(),
        };
        let stream = deadline::connect(&address, deadline).map_err(unreachable)?;
        stream.set_nodelay(true).map_err(unreachable)?;
        let reader = BufReader::new(DeadlineStream::new(
            stream.try_clone().map_err(unreachable)?,
            deadline,
        ));
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        let mut peer = Peer {
            config: config.clone(),
            writer: DeadlineStream::new(stream, deadline),
            reader,
            node: NodeVersion {
                protocol_version: 0,
                services: 0,
                user_agent: String::new(),
                start_height: 0,
            },
            next_nonce: seed | 1,
        };
        peer.handshake(deadline, relay)?;
        Ok(peer)
    }

    fn handshake(&mut self, deadline: Instant, relay: bool) -> Result<(), RegenError> {
        let timestamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        let nonce = self.nonce();
        let version =
            payloads::version_payload_relaying(nonce, timestamp, &self.config.user_agent, relay);
        self.send_by("version", version, deadline)?;
        let mut have_version = false;
        loop {
            let message = match self.receive(deadline, "`version` and `verack`") {
                Err(RegenError::Disconnected { .. }) if !have_version => {
                    return Err(RegenError::ClosedBeforeVersion {
                        address: self.config.address.clone(),
                        magic: self.config.magic,
                    })
                }
                other => other?,
            };
            match message.command.as_str() {
                "version" => {
                    self.node = payloads::parse_version(&message.payload)
                        .map_err(|detail| RegenError::P2pProtocol { detail })?;
                    have_version = true;
                    self.send_by("verack", vec![], deadline)?;
                }
                "verack" if have_version => return Ok(()),
                _ => {}
            }
        }
    }

    fn nonce(&mut self) -> u64 {
        // A counter from a time seed: distinct per message, which is all a nonce needs here.
        self.next_nonce = self.next_nonce.wrapping_add(0x9e37_79b9_7f4a_7c15);
        self.next_nonce
    }

    /// Sends one message within `timeout`.
    pub fn send(&mut self, command: &str, payload: Vec<u8>) -> Result<(), RegenError> {
        self.send_by(command, payload, deadline_after(self.config.timeout))
    }

    fn send_by(
        &mut self,
        command: &str,
        payload: Vec<u8>,
        deadline: Instant,
    ) -> Result<(), RegenError> {
        if !matches!(command, "version" | "verack" | "ping" | "pong") {
            self.config.last_sent.record(command, payload.len());
        }
        let bytes = Message::new(command, payload).encode(self.config.magic);
        self.writer.set_deadline(deadline);
        self.writer.write_all(&bytes).map_err(|e| {
            if deadline::is_timeout(&e) {
                RegenError::P2pStalled {
                    command: command.to_string(),
                    timeout: self.config.timeout,
                }
            } else {
                RegenError::Disconnected {
                    during: format!("sending `{command}` ({e})"),
                }
            }
        })
    }

    /// Sends `ping` and collects the kept messages until its `pong`, all within `timeout`.
    /// A connection the node closes first is [`Reply::Disconnected`], not an error: limit
    /// probes expect it.
    pub fn barrier(&mut self) -> Result<Reply, RegenError> {
        self.barrier_keeping(KEPT)
    }

    /// [`Peer::barrier`] keeping the messages whose commands are in `kept` (the node suite
    /// also keeps `inv`).
    pub fn barrier_keeping(&mut self, kept_commands: &[&str]) -> Result<Reply, RegenError> {
        let deadline = deadline_after(self.config.timeout);
        let nonce = self.nonce();
        match self.send_by("ping", nonce.to_le_bytes().to_vec(), deadline) {
            Err(RegenError::Disconnected { .. }) => return Ok(Reply::Disconnected),
            other => other?,
        }
        let mut kept = Vec::new();
        let mut kept_bytes = 0;
        loop {
            let message = match self.receive(deadline, "`pong` (the end of an answer)") {
                Err(RegenError::Disconnected { .. }) => return Ok(Reply::Disconnected),
                other => other?,
            };
            match message.command.as_str() {
                "pong" if payloads::nonce(&message.payload) == Some(nonce) => {
                    return Ok(Reply::Answered(kept))
                }
                c if kept_commands.contains(&c) => {
                    kept_bytes += message.payload.capacity() + KEPT_OVERHEAD_BYTES;
                    if kept_bytes > MAX_KEPT_BYTES {
                        return Err(RegenError::P2pProtocol {
                            detail: format!(
                                "more than {MAX_KEPT_BYTES} bytes of {} before the pong, far \
                                 more than the answer to one filtered block",
                                kept_commands.join("/")
                            ),
                        });
                    }
                    kept.push(message)
                }
                _ => {}
            }
        }
    }

    /// Reads the next message that is not a `ping` (those are answered here), by `deadline`.
    pub fn receive(&mut self, deadline: Instant, waiting_for: &str) -> Result<Message, RegenError> {
        self.reader.get_mut().set_deadline(deadline);
        loop {
            let message = match read_message(&mut self.reader, self.config.magic) {
                Ok(m) => m,
                // An HTTP server answering the `version`: naming "HTTP" as a magic to pass
                // would send the maintainer the wrong way.
                Err(ReadError::WrongMagic(received)) if &received == b"HTTP" => {
                    return Err(RegenError::P2pProtocol {
                        detail: format!(
                            "{} answered in HTTP: --p2p names an RPC (HTTP) port, not the \
                             node's P2P port (-port)",
                            self.config.address
                        ),
                    })
                }
                Err(ReadError::WrongMagic(received)) => {
                    return Err(RegenError::WrongMagic {
                        expected: self.config.magic,
                        received,
                    })
                }
                Err(ReadError::Malformed(detail)) => {
                    return Err(RegenError::P2pProtocol { detail })
                }
                Err(ReadError::Io(e)) => {
                    return Err(if deadline::is_timeout(&e) {
                        self.timeout(waiting_for)
                    } else {
                        RegenError::Disconnected {
                            during: format!("waiting for {waiting_for} ({e})"),
                        }
                    })
                }
            };
            if message.command == "ping" {
                self.send_by("pong", message.payload, deadline)?;
                continue;
            }
            return Ok(message);
        }
    }

    fn timeout(&self, waiting_for: &str) -> RegenError {
        RegenError::P2pTimeout {
            waiting_for: waiting_for.to_string(),
            timeout: self.config.timeout,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{TcpListener, TcpStream};
    use std::thread;

    const MAGIC: [u8; 4] = [0xfa, 0xbf, 0xb5, 0xda];

    fn config(port: u16) -> PeerConfig {
        PeerConfig {
            address: format!("127.0.0.1:{port}"),
            magic: MAGIC,
            timeout: Duration::from_secs(5),
            user_agent: USER_AGENT.into(),
            last_sent: Default::default(),
        }
    }

    /// A scripted node on a loopback port: reads our version, then plays `script`.
    fn fake_node(script: impl FnOnce(TcpStream) + Send + 'static) -> u16 {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            script(stream);
        });
        port
    }

    fn node_version() -> Vec<u8> {
        let mut payload = payloads::version_payload(1, 0, "/Satoshi:30.99.0/");
        payload[4..12].copy_from_slice(&0xc0du64.to_le_bytes());
        payload
    }

    fn send(stream: &mut TcpStream, command: &str, payload: Vec<u8>) {
        stream
            .write_all(&Message::new(command, payload).encode(MAGIC))
            .unwrap();
    }

    fn read(stream: &mut TcpStream) -> Message {
        read_message(stream, MAGIC).unwrap()
    }

    #[test]
    fn handshake_then_barrier_keeps_the_answer_and_drops_the_rest() {
        let port = fake_node(|mut s| {
            assert_eq!(read(&mut s).command, "version");
            send(&mut s, "version", node_version());
            send(&mut s, "wtxidrelay", vec![]);
            send(&mut s, "verack", vec![]);
            assert_eq!(read(&mut s).command, "verack");
            send(&mut s, "sendcmpct", vec![0; 9]);
            let ping = read(&mut s);
            assert_eq!(ping.command, "ping");
            send(&mut s, "ping", 42u64.to_le_bytes().to_vec());
            assert_eq!(
                read(&mut s),
                Message::new("pong", 42u64.to_le_bytes().to_vec())
            );
            send(&mut s, "merkleblock", vec![1, 2, 3]);
            send(&mut s, "feefilter", vec![0; 8]);
            send(&mut s, "tx", vec![4]);
            send(&mut s, "pong", ping.payload);
        });
        let mut peer = Peer::connect(&config(port)).unwrap();
        assert_eq!(peer.node.user_agent, "/Satoshi:30.99.0/");
        assert_eq!(peer.node.services, 0xc0d);
        assert_eq!(
            peer.barrier().unwrap(),
            Reply::Answered(vec![
                Message::new("merkleblock", vec![1, 2, 3]),
                Message::new("tx", vec![4])
            ])
        );
    }

    #[test]
    fn closed_before_version_suggests_the_magic() {
        let port = fake_node(|mut s| {
            let mut header = [0u8; 4];
            std::io::Read::read_exact(&mut s, &mut header).unwrap();
        });
        let err = Peer::connect(&config(port)).err().unwrap();
        assert!(
            matches!(err, RegenError::ClosedBeforeVersion { .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("--magic"));
    }

    #[test]
    fn other_magic_is_named() {
        let port = fake_node(|mut s| {
            let _ = read_message(&mut s, MAGIC);
            s.write_all(&Message::new("version", node_version()).encode([0xda, 0xb5, 0xbf, 0xfa]))
                .unwrap();
        });
        let err = Peer::connect(&config(port)).err().unwrap();
        assert!(err.to_string().contains("--magic dab5bffa"), "{err}");
    }

    #[test]
    fn an_http_server_is_not_taken_for_another_magic() {
        let port = fake_node(|mut s| {
            let _ = read_message(&mut s, MAGIC);
            s.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                .unwrap();
        });
        let err = Peer::connect(&config(port)).err().unwrap();
        assert!(err.to_string().contains("not the node's P2P port"), "{err}");
        assert!(!err.to_string().contains("--magic"), "{err}");
    }

    #[test]
    fn hang_up_before_pong_is_a_disconnect_reply() {
        let port = fake_node(|mut s| {
            let _ = read(&mut s);
            send(&mut s, "version", node_version());
            send(&mut s, "verack", vec![]);
            let _ = read(&mut s); // verack
            let _ = read(&mut s); // ping
        });
        let mut peer = Peer::connect(&config(port)).unwrap();
        assert_eq!(peer.barrier().unwrap(), Reply::Disconnected);
    }

    #[test]
    fn silence_is_a_timeout() {
        let port = fake_node(|mut s| {
            let _ = read(&mut s);
            thread::sleep(Duration::from_secs(3));
        });
        let mut cfg = config(port);
        cfg.timeout = Duration::from_secs(1);
        let err = Peer::connect(&cfg).err().unwrap();
        assert!(matches!(err, RegenError::P2pTimeout { .. }), "{err:?}");
    }
}
