//! `regen`'s RPC client against hostile servers on 127.0.0.1: a call (connecting, sending
//! and reading the whole response) ends by its deadline whatever the server does, the head
//! and the body are bounded, and a server that is not HTTP (a node's P2P port) is refused at
//! its first bytes instead of after a wait for a newline.

mod regen_fakes;

use bip37_conform::regen::rpc::{RpcClient, RpcConfig, MAX_RESPONSE_BYTES};
use bip37_conform::regen::RegenError;
use regen_fakes::*;
use serde_json::json;
use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::thread;
use std::time::Duration;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const TIMEOUT: Duration = Duration::from_secs(1);

/// Calls `getblockcount` on a server that reads the request, then plays `script`.
fn call(script: impl FnOnce(TcpStream) + Send + 'static) -> RegenError {
    let address = serve_once(move |stream| {
        let _ = read_request(&mut BufReader::new(stream.try_clone().unwrap()));
        script(stream);
    });
    let mut client = RpcClient::new(RpcConfig {
        address,
        user: "u".into(),
        password: "p".into(),
        timeout: TIMEOUT,
        tls: None,
    });
    client.call("getblockcount", json!([])).unwrap_err()
}

/// Writes `piece` every `every` for 10 s, or until the client is gone.
fn repeat(stream: &mut TcpStream, piece: &[u8], every: Duration) {
    for _ in 0..(10_000 / every.as_millis().max(1)) {
        if stream.write_all(piece).is_err() {
            return;
        }
        thread::sleep(every);
    }
}

/// A call against `script` ends by its deadline, as a timeout.
fn times_out(script: impl FnOnce(TcpStream) + Send + 'static) {
    let err = within(TIMEOUT, || call(script));
    assert!(matches!(err, RegenError::RpcTimeout { .. }), "{err:?}");
}

#[test]
fn a_silent_server_ends_by_the_deadline() {
    times_out(|_s| thread::sleep(Duration::from_secs(5)));
}

#[test]
fn endless_slow_header_lines_end_by_the_deadline() {
    times_out(|mut s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\n");
        repeat(&mut s, b"X-Slow: 1\r\n", Duration::from_millis(50));
    });
}

#[test]
fn endless_fast_header_lines_stop_at_the_head_bound() {
    let _one = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let (err, grew) = peak_growth(|| {
        within(Duration::ZERO, || {
            call(|mut s| {
                let _ = s.write_all(b"HTTP/1.1 200 OK\r\n");
                repeat(
                    &mut s,
                    &b"X-Fast: 1\r\n".repeat(1000),
                    Duration::from_millis(1),
                );
            })
        })
    });
    assert!(
        matches!(&err, RegenError::RpcProtocol { detail, .. } if detail.contains("headers over")),
        "{err:?}"
    );
    assert!(grew < 1 << 20, "grew {grew} bytes");
}

#[test]
fn a_dripping_body_ends_by_the_deadline() {
    times_out(|mut s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");
        repeat(&mut s, b" ", Duration::from_millis(100));
    });
}

#[test]
fn endless_slow_chunks_end_by_the_deadline() {
    times_out(|mut s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        repeat(&mut s, b"1\r\n \r\n", Duration::from_millis(50));
    });
}

#[test]
fn endless_fast_chunks_stop_at_the_body_bound() {
    let _one = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let (err, grew) = peak_growth(|| {
        call(|mut s| {
            let _ = s.write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
            let chunk = format!("100000\r\n{}\r\n", " ".repeat(0x10_0000));
            repeat(&mut s, chunk.as_bytes(), Duration::from_millis(1));
        })
    });
    // The body bound or the deadline, whichever comes first on this machine; never more.
    assert!(
        matches!(&err, RegenError::RpcProtocol { detail, .. } if detail.contains("larger"))
            || matches!(err, RegenError::RpcTimeout { .. }),
        "{err:?}"
    );
    assert!(
        grew < 2 * MAX_RESPONSE_BYTES as usize + (4 << 20),
        "grew {grew} bytes"
    );
}

#[test]
fn a_p2p_port_is_refused_at_its_first_bytes() {
    // Bitcoin Core's P2P port takes an HTTP request for the start of a v2 (BIP 324)
    // handshake: it answers 64 bytes of key and waits; nothing there ends in a newline.
    let err = within(Duration::ZERO, || {
        call(|mut s| {
            let _ = s.write_all(&[0x9b; 64]);
            thread::sleep(Duration::from_secs(5));
        })
    });
    assert!(
        matches!(&err, RegenError::RpcProtocol { detail, .. } if detail.contains("not an HTTP response")),
        "{err:?}"
    );
    assert!(err.to_string().contains("P2P port"), "{err}");
}

#[test]
fn a_v1_p2p_port_that_hangs_up_is_refused_at_once() {
    // A v1-only node (the Bitcoin SV node) reads the request as a message with a wrong
    // magic and closes the connection.
    let err = within(Duration::ZERO, || call(drop));
    assert!(
        matches!(&err, RegenError::RpcProtocol { detail, .. } if detail.contains("not an HTTP response")),
        "{err:?}"
    );
}
