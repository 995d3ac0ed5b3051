//! `regen`'s P2P side against hostile peers on 127.0.0.1: every call ends by its deadline
//! (connecting with the handshake, a barrier with every `pong` written while waiting),
//! however slowly or endlessly the peer sends or refuses to read, and memory stays bounded
//! while a peer floods.

mod regen_fakes;

use bip37_conform::regen::message::{HEADER_BYTES, MAX_PAYLOAD_BYTES};
use bip37_conform::regen::peer::{Peer, PeerConfig, Reply, MAX_KEPT_BYTES, USER_AGENT};
use bip37_conform::regen::RegenError;
use regen_fakes::*;
use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const TIMEOUT: Duration = Duration::from_secs(1);

fn config(address: String) -> PeerConfig {
    PeerConfig {
        address,
        magic: MAGIC,
        timeout: TIMEOUT,
        user_agent: USER_AGENT.into(),
        last_sent: Default::default(),
    }
}

/// A header announcing `length` payload bytes of `command` (the checksum is never reached).
fn header(command: &str, length: u32) -> Vec<u8> {
    let mut bytes = bip37_conform::regen::message::Message::new(command, vec![]).encode(MAGIC);
    bytes[16..20].copy_from_slice(&length.to_le_bytes());
    bytes.truncate(HEADER_BYTES);
    bytes
}

/// Sends one byte every 200 ms for 10 s (each read alone well within the timeout).
fn drip(stream: &mut TcpStream) {
    for _ in 0..50 {
        if stream.write_all(&[0]).is_err() {
            return;
        }
        thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_version_header_announcing_3999999_bytes_then_dripping_ends_by_the_deadline() {
    let address = serve_once(|mut s| {
        let _ = read(&mut s);
        let _ = s.write_all(&header("version", 3_999_999));
        drip(&mut s);
    });
    let err = within(TIMEOUT, || Peer::connect(&config(address)))
        .err()
        .unwrap();
    assert!(matches!(err, RegenError::P2pTimeout { .. }), "{err:?}");
}

#[test]
fn an_answer_announcing_3999999_bytes_then_dripping_ends_by_the_deadline() {
    let address = serve_once(|mut s| {
        handshake(&mut s);
        let _ = read(&mut s); // the ping
        let _ = s.write_all(&header("tx", 3_999_999));
        drip(&mut s);
    });
    let mut peer = Peer::connect(&config(address)).unwrap();
    let err = within(TIMEOUT, || peer.barrier()).unwrap_err();
    assert!(matches!(err, RegenError::P2pTimeout { .. }), "{err:?}");
}

#[test]
fn an_announced_length_over_the_protocol_maximum_is_refused_unread() {
    let address = serve_once(|mut s| {
        handshake(&mut s);
        let _ = read(&mut s);
        let _ = s.write_all(&header("tx", MAX_PAYLOAD_BYTES + 1));
        thread::sleep(Duration::from_secs(5));
    });
    let mut peer = Peer::connect(&config(address)).unwrap();
    let (err, grew) = {
        let _one = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
        peak_growth(|| within(Duration::ZERO, || peer.barrier()).unwrap_err())
    };
    assert!(
        matches!(&err, RegenError::P2pProtocol { detail } if detail.contains("4000001")),
        "{err:?}"
    );
    assert!(grew < 1 << 20, "{grew} bytes");
}

#[test]
fn a_peer_that_pings_and_never_reads_cannot_block_the_pong() {
    let address = serve_once(|mut s| {
        handshake(&mut s);
        // Pings as fast as they go and not a byte read: regen's pongs fill this socket's
        // receive buffer and then regen's send buffer, and the next pong write would block.
        let ping = bip37_conform::regen::message::Message::new("ping", vec![1; 8]).encode(MAGIC);
        let batch = ping.repeat(4096);
        for _ in 0..2_000 {
            if s.write_all(&batch).is_err() {
                return;
            }
        }
    });
    let mut peer = Peer::connect(&config(address)).unwrap();
    let err = within(TIMEOUT, || peer.barrier()).unwrap_err();
    assert!(
        matches!(
            err,
            RegenError::P2pStalled { .. } | RegenError::P2pTimeout { .. }
        ),
        "{err:?}"
    );
}

/// Floods `command` messages of `size` bytes after the handshake and the ping, counting the
/// bytes sent, until the connection closes.
fn flood(command: &'static str, size: usize, sent: Arc<AtomicUsize>) -> String {
    serve_once(move |mut s| {
        handshake(&mut s);
        let _ = read(&mut s);
        let message =
            bip37_conform::regen::message::Message::new(command, vec![0x55; size]).encode(MAGIC);
        while s.write_all(&message).is_ok() {
            sent.fetch_add(message.len(), Ordering::Relaxed);
        }
    })
}

#[test]
fn unrelated_messages_flooded_while_waiting_are_dropped_not_kept() {
    let sent = Arc::new(AtomicUsize::new(0));
    let mut peer = Peer::connect(&config(flood("inv", 64 << 10, Arc::clone(&sent)))).unwrap();
    let (err, grew) = {
        let _one = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
        peak_growth(|| within(TIMEOUT, || peer.barrier()).unwrap_err())
    };
    assert!(matches!(err, RegenError::P2pTimeout { .. }), "{err:?}");
    let sent = sent.load(Ordering::Relaxed);
    // Kept, the flood would cost what was sent; dropped, it costs one message at a time.
    // (About 14 MB arrive in the second on an idle machine; 2 MiB leave room for a busy one.)
    assert!(sent >= 2 << 20, "the flood sent only {sent} bytes");
    assert!(
        grew < 512 << 10,
        "grew {grew} bytes while {sent} were flooded"
    );
}

#[test]
fn answer_messages_beyond_the_kept_bound_are_refused() {
    let sent = Arc::new(AtomicUsize::new(0));
    // A long timeout: the bound, not the deadline, must end this one (the debug build reads
    // about 12 MB/s, checksums included).
    let mut config = config(flood("tx", 1 << 20, Arc::clone(&sent)));
    config.timeout = Duration::from_secs(10);
    let mut peer = Peer::connect(&config).unwrap();
    let (err, grew) = {
        let _one = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
        peak_growth(|| within(config.timeout, || peer.barrier()).unwrap_err())
    };
    assert!(
        matches!(&err, RegenError::P2pProtocol { detail } if detail.contains("before the pong")),
        "{err:?}"
    );
    assert!(
        grew < MAX_KEPT_BYTES + (4 << 20),
        "grew {grew} bytes, bound {MAX_KEPT_BYTES}"
    );
}

#[test]
fn a_well_behaved_answer_still_arrives_whole() {
    let address = serve_once(|mut s| {
        handshake(&mut s);
        let ping = read(&mut s).unwrap();
        send(&mut s, "merkleblock", vec![7; 100]);
        send(&mut s, "inv", vec![0; 37]);
        send(&mut s, "pong", ping.payload);
        thread::sleep(Duration::from_secs(1));
    });
    let mut peer = Peer::connect(&config(address)).unwrap();
    let reply = within(Duration::ZERO, || peer.barrier()).unwrap();
    let Reply::Answered(messages) = reply else {
        panic!("{reply:?}")
    };
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].command, "merkleblock");
}
