//! Hostile and well-behaved fakes of a node for the `regen` tests, each on a loopback port of
//! its own and run by a thread: a P2P peer playing a script, an HTTP server playing a script,
//! and a JSON-RPC server answering by method. Plus the bounds the tests assert: elapsed time
//! and, through a counting allocator the test binary installs, peak heap growth.
#![allow(dead_code)] // each test binary uses its own part of this module

use bip37_conform::regen::message::{read_message, Message};
use bip37_conform::regen::payloads;
use serde_json::{json, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Bitcoin Core's regtest magic.
pub const MAGIC: [u8; 4] = [0xfa, 0xbf, 0xb5, 0xda];
/// What a bounded call may take beyond its timeout on a loaded 2-core machine.
pub const SLACK: Duration = Duration::from_millis(750);

/// Accepts one connection on a fresh loopback port and plays `script` on it.
pub fn serve_once(script: impl FnOnce(TcpStream) + Send + 'static) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    thread::spawn(move || {
        if let Ok((stream, _)) = listener.accept() {
            script(stream);
        }
    });
    address
}

/// Accepts every connection on a fresh loopback port and plays `script` on each.
pub fn serve_each(script: impl Fn(TcpStream) + Send + Sync + 'static) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let script = Arc::new(script);
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let script = Arc::clone(&script);
            thread::spawn(move || script(stream));
        }
    });
    address
}

/// Sends one P2P message; false once the connection is gone.
pub fn send(stream: &mut TcpStream, command: &str, payload: Vec<u8>) -> bool {
    stream
        .write_all(&Message::new(command, payload).encode(MAGIC))
        .is_ok()
}

/// Reads one P2P message.
pub fn read(stream: &mut TcpStream) -> Option<Message> {
    read_message(stream, MAGIC).ok()
}

/// The node's side of the handshake; returns `regen`'s `version` payload.
pub fn handshake(stream: &mut TcpStream) -> Vec<u8> {
    handshake_seeing(stream, |_| {})
}

/// [`handshake`], calling `seen` with `regen`'s `version` payload before answering it (as a
/// node takes note of its peer's user agent before it sends its own `version`).
pub fn handshake_seeing(stream: &mut TcpStream, seen: impl FnOnce(&[u8])) -> Vec<u8> {
    let version = read(stream).expect("regen's version");
    assert_eq!(version.command, "version");
    seen(&version.payload);
    let mut payload = payloads::version_payload(7, 0, "/Satoshi:30.99.0/");
    payload[4..12].copy_from_slice(&0xc0du64.to_le_bytes());
    send(stream, "version", payload);
    send(stream, "verack", vec![]);
    assert_eq!(read(stream).expect("regen's verack").command, "verack");
    version.payload
}

/// Reads an HTTP request (head and `Content-Length` body); returns the body.
pub fn read_request(reader: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if line == "\r\n" {
            break;
        }
        if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(body)
}

/// A JSON-RPC server answering each call with `answer(method)` (`Err` is an RPC error);
/// every method called is appended to the returned log.
pub fn rpc_server(
    answer: impl Fn(&str) -> Result<Value, String> + Send + Sync + 'static,
) -> (String, Arc<Mutex<Vec<String>>>) {
    let calls = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&calls);
    let address = serve_each(move |stream| {
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let Some(body) = read_request(&mut reader) else {
            return;
        };
        let request: Value = serde_json::from_slice(&body).unwrap();
        let method = request["method"].as_str().unwrap_or_default().to_string();
        log.lock().unwrap().push(method.clone());
        let reply = match answer(&method) {
            Ok(result) => json!({"result": result, "error": null, "id": request["id"]}),
            Err(message) => json!({"result": null, "error": {"code": -32601, "message": message}, "id": request["id"]}),
        }
        .to_string();
        let mut stream = stream;
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{reply}",
            reply.len()
        );
    });
    (address, calls)
}

/// Runs `f` and checks it took no longer than `bound` (plus [`SLACK`]).
pub fn within<T>(bound: Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let result = f();
    let took = start.elapsed();
    assert!(
        took <= bound + SLACK,
        "took {took:?}, bound {bound:?} + {SLACK:?}"
    );
    result
}

/// A global allocator that counts the bytes in use and their peak. A test binary that
/// measures memory installs it with `#[global_allocator]`.
pub struct CountingAllocator;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Memory-measuring tests run one at a time, so that their peaks do not add up.
pub static MEASURING: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let now = IN_USE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                - layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        } else {
            IN_USE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` and returns its result with the peak heap growth during it, in bytes.
pub fn peak_growth<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = IN_USE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let result = f();
    (result, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}
