//! A minimal JSON-RPC client for a node's RPC port: one HTTP/1.1 POST per call over a plain
//! `TcpStream`, or over TLS trusting one given certificate ([`super::tls`]: btcd's RPC server
//! speaks only TLS), basic authentication, and errors that name the cause and the fix.
//!
//! Only what `regen` needs: the node's RPC server (Bitcoin Core's or the Bitcoin SV node's
//! libevent server, btcd's Go server) answers `Connection: close` requests with a
//! `Content-Length` body.
//!
//! Each call is bounded whatever answers: connecting, sending and reading the whole response
//! end by one deadline ([`super::deadline`]); the status line and headers may not exceed
//! [`MAX_HEAD_BYTES`], the body [`MAX_RESPONSE_BYTES`]; and an answer that does not start
//! with `HTTP/` (a P2P port, say) is refused at its first bytes.

use super::deadline::{self, deadline_after, DeadlineStream};
use super::error::RegenError;
use super::tls::RpcTls;
use base64::Engine;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

/// The largest RPC response body read: far above what `regen` asks for (a few small blocks).
pub const MAX_RESPONSE_BYTES: u64 = 32 * 1024 * 1024;
/// The most bytes of status line and headers read (the node sends about 150).
pub const MAX_HEAD_BYTES: u64 = 64 * 1024;
/// The longest header line accepted.
const MAX_HEADER_LINE: u64 = 8 * 1024;

/// Where the RPC server is and how to log in.
#[derive(Debug, Clone)]
pub struct RpcConfig {
    /// `host:port`, e.g. `127.0.0.1:18443`.
    pub address: String,
    pub user: String,
    pub password: String,
    /// The longest one call may take, connecting, sending and reading included (mining a
    /// block can take a moment).
    pub timeout: Duration,
    /// TLS trusting the node's certificate (`--rpc-cert`); plain HTTP when absent.
    pub tls: Option<RpcTls>,
}

/// A client for one node.
#[derive(Debug, Clone)]
pub struct RpcClient {
    config: RpcConfig,
    next_id: u64,
}

/// What the server answered, before it is turned into a result or an error.
#[derive(Debug, PartialEq)]
pub struct HttpResponse {
    pub status: u16,
    pub body: Vec<u8>,
}

impl RpcClient {
    pub fn new(config: RpcConfig) -> Self {
        RpcClient { config, next_id: 1 }
    }

    /// Calls `method` with `params` and returns its `result`.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, RegenError> {
        let id = self.next_id;
        self.next_id += 1;
        let body = json!({"jsonrpc": "1.0", "id": id, "method": method, "params": params});
        let response = self.post(body.to_string().as_bytes())?;
        interpret(&self.config.address, method, response)
    }

    fn post(&self, body: &[u8]) -> Result<HttpResponse, RegenError> {
        let deadline = deadline_after(self.config.timeout);
        let address = resolve(&self.config.address)?;
        let stream = deadline::connect(&address, deadline).map_err(|e| self.io_error(e))?;
        let stream = DeadlineStream::new(stream, deadline);
        match &self.config.tls {
            None => self.exchange(stream, body),
            Some(tls) => {
                let stream = tls
                    .wrap(&address.ip().to_string(), stream)
                    .map_err(|detail| self.tls_error(tls, detail))?;
                self.exchange(stream, body)
            }
        }
    }

    /// Sends the request on `stream` and reads the response.
    fn exchange(
        &self,
        mut stream: impl Read + Write,
        body: &[u8],
    ) -> Result<HttpResponse, RegenError> {
        let auth = base64::engine::general_purpose::STANDARD
            .encode(format!("{}:{}", self.config.user, self.config.password));
        let head = format!(
            "POST / HTTP/1.1\r\nHost: {}\r\nAuthorization: Basic {auth}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.config.address,
            body.len()
        );
        stream
            .write_all(head.as_bytes())
            .and_then(|_| stream.write_all(body))
            .and_then(|_| stream.flush())
            .map_err(|e| self.io_error(e))?;
        read_response(&mut BufReader::new(stream)).map_err(|e| match e {
            ReadError::Io(e) => self.io_error(e),
            ReadError::Malformed(why) => RegenError::RpcProtocol {
                address: self.config.address.clone(),
                detail: why,
            },
        })
    }

    fn tls_error(&self, tls: &RpcTls, detail: String) -> RegenError {
        RegenError::RpcTls {
            address: self.config.address.clone(),
            cert_file: tls.cert_file.display().to_string(),
            detail,
        }
    }

    fn io_error(&self, e: std::io::Error) -> RegenError {
        let from_tls = e
            .get_ref()
            .is_some_and(|inner| inner.downcast_ref::<rustls::Error>().is_some());
        if let (Some(tls), true) = (&self.config.tls, from_tls) {
            return self.tls_error(tls, e.to_string());
        }
        if deadline::is_timeout(&e) {
            RegenError::RpcTimeout {
                address: self.config.address.clone(),
                timeout: self.config.timeout,
            }
        } else {
            RegenError::RpcUnreachable {
                address: self.config.address.clone(),
                detail: e.to_string(),
            }
        }
    }
}

/// How long a host name may take to resolve: the system resolver has no deadline of its own,
/// and a DNS server that never answers would hold a run forever.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(10);

/// The socket address of `host:port`: an IP address at once, a name through the system
/// resolver within [`RESOLVE_TIMEOUT`].
pub(super) fn resolve(address: &str) -> Result<SocketAddr, RegenError> {
    resolve_with(address, RESOLVE_TIMEOUT, |name| {
        name.to_socket_addrs().ok().and_then(|mut a| a.next())
    })
}

/// [`resolve`] with the resolver and its deadline given. A resolver still running at the
/// deadline is left to finish on its own thread; its answer is dropped.
fn resolve_with(
    address: &str,
    timeout: Duration,
    resolver: impl FnOnce(&str) -> Option<SocketAddr> + Send + 'static,
) -> Result<SocketAddr, RegenError> {
    if let Ok(literal) = address.parse::<SocketAddr>() {
        return Ok(literal);
    }
    let (sender, receiver) = std::sync::mpsc::channel();
    let name = address.to_string();
    std::thread::spawn(move || {
        let _ = sender.send(resolver(&name));
    });
    match receiver.recv_timeout(timeout) {
        Ok(Some(resolved)) => Ok(resolved),
        Ok(None) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            Err(RegenError::BadAddress(address.to_string()))
        }
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(RegenError::ResolveTimeout {
            address: address.to_string(),
            timeout,
        }),
    }
}

/// Why a response could not be read.
#[derive(Debug)]
pub enum ReadError {
    Io(std::io::Error),
    Malformed(String),
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// Reads one HTTP/1.1 response: status line, headers (at most [`MAX_HEAD_BYTES`] together),
/// then the body: `chunked` (the Bitcoin SV node streams large results that way),
/// `Content-Length`, or up to the end of the stream, never more than [`MAX_RESPONSE_BYTES`].
pub fn read_response(reader: &mut impl BufRead) -> Result<HttpResponse, ReadError> {
    let (status, content_length, chunked) = read_head(&mut reader.take(MAX_HEAD_BYTES))?;
    let body = if chunked {
        read_chunked(reader)?
    } else {
        read_sized(reader, content_length)?
    };
    Ok(HttpResponse { status, body })
}

/// The status code, `Content-Length` and whether the body is chunked.
fn read_head(reader: &mut impl BufRead) -> Result<(u16, Option<u64>, bool), ReadError> {
    // Checked first, alone: a server that is not HTTP (a P2P port answering with its own
    // handshake, or nothing and a close) is refused at once instead of waiting for a newline.
    let mut start = Vec::new();
    reader.take(5).read_to_end(&mut start)?;
    if start.is_empty() {
        return Err(ReadError::Malformed(
            "not an HTTP response: the connection closed without a byte".into(),
        ));
    }
    if start != b"HTTP/" {
        return Err(ReadError::Malformed(format!(
            "not an HTTP response: it starts with bytes {}",
            bip37_harness::hex::encode(&start)
        )));
    }
    let status_line = format!("HTTP/{}", read_line(reader)?);
    let mut parts = status_line.split_whitespace();
    let status = match (parts.next(), parts.next()) {
        (Some(version), Some(code)) if version.starts_with("HTTP/") => code
            .parse::<u16>()
            .map_err(|_| ReadError::Malformed(format!("bad status line {status_line:?}")))?,
        _ => {
            return Err(ReadError::Malformed(format!(
                "not an HTTP response: {status_line:?}"
            )))
        }
    };
    let mut content_length = None;
    let mut chunked = false;
    loop {
        let line = read_line(reader)?;
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            let (name, value) = (name.trim(), value.trim());
            if name.eq_ignore_ascii_case("content-length") {
                let length = value
                    .parse::<u64>()
                    .map_err(|_| ReadError::Malformed(format!("bad Content-Length {value:?}")))?;
                content_length = Some(length);
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                chunked = value.eq_ignore_ascii_case("chunked");
            }
        }
    }
    Ok((status, content_length, chunked))
}

fn too_large(length: u64) -> ReadError {
    ReadError::Malformed(format!(
        "response of {length} bytes is larger than the {MAX_RESPONSE_BYTES} accepted"
    ))
}

fn read_sized(reader: &mut impl BufRead, length: Option<u64>) -> Result<Vec<u8>, ReadError> {
    let limit = length.unwrap_or(MAX_RESPONSE_BYTES);
    if limit > MAX_RESPONSE_BYTES {
        return Err(too_large(limit));
    }
    let mut body = Vec::new();
    reader.take(limit).read_to_end(&mut body)?;
    match length {
        Some(length) if body.len() as u64 != length => Err(ReadError::Malformed(format!(
            "body ended after {} of {length} bytes",
            body.len()
        ))),
        _ => Ok(body),
    }
}

/// A `chunked` body: hex size lines, each followed by that many bytes and CRLF, up to the
/// zero-size chunk and the trailer's empty line.
fn read_chunked(reader: &mut impl BufRead) -> Result<Vec<u8>, ReadError> {
    let mut body = Vec::new();
    loop {
        let line = read_line(reader)?;
        let size_text = line.split(';').next().unwrap_or("").trim();
        let size = u64::from_str_radix(size_text, 16)
            .map_err(|_| ReadError::Malformed(format!("bad chunk size line {line:?}")))?;
        if size == 0 {
            while !read_line(reader)?.is_empty() {}
            return Ok(body);
        }
        let total = body.len() as u64 + size;
        if total > MAX_RESPONSE_BYTES {
            return Err(too_large(total));
        }
        let before = body.len();
        reader.take(size).read_to_end(&mut body)?;
        if (body.len() - before) as u64 != size {
            return Err(ReadError::Malformed("a chunk ended early".into()));
        }
        if !read_line(reader)?.is_empty() {
            return Err(ReadError::Malformed(
                "a chunk is longer than its size".into(),
            ));
        }
    }
}

fn read_line(reader: &mut impl BufRead) -> Result<String, ReadError> {
    let mut line = Vec::new();
    reader.take(MAX_HEADER_LINE).read_until(b'\n', &mut line)?;
    if line.last() != Some(&b'\n') {
        return Err(ReadError::Malformed(format!(
            "a header line is missing its end (connection closed, line over {MAX_HEADER_LINE} \
             bytes or headers over {MAX_HEAD_BYTES} bytes)"
        )));
    }
    String::from_utf8(line)
        .map(|l| l.trim_end_matches(['\r', '\n']).to_string())
        .map_err(|_| ReadError::Malformed("header line is not UTF-8".into()))
}

/// Turns an HTTP response into the call's result or a named error.
pub fn interpret(address: &str, method: &str, response: HttpResponse) -> Result<Value, RegenError> {
    if response.status == 401 || response.status == 403 {
        return Err(RegenError::RpcCredentials {
            address: address.to_string(),
        });
    }
    let parsed: Value =
        serde_json::from_slice(&response.body).map_err(|e| RegenError::RpcProtocol {
            address: address.to_string(),
            detail: if String::from_utf8_lossy(&response.body).contains("HTTPS server") {
                // Go's HTTP server (btcd's RPC) answers a plain request on its TLS port so.
                format!(
                    "HTTP {}: the server speaks TLS only; pass --rpc-cert with its \
                     certificate (btcd: rpc.cert)",
                    response.status
                )
            } else {
                format!(
                    "HTTP {} with a body that is not JSON ({e})",
                    response.status
                )
            },
        })?;
    match parsed.get("error") {
        Some(error) if !error.is_null() => Err(RegenError::RpcCall {
            method: method.to_string(),
            code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("(no message)")
                .to_string(),
        }),
        _ => parsed
            .get("result")
            .cloned()
            .ok_or_else(|| RegenError::RpcProtocol {
                address: address.to_string(),
                detail: format!("HTTP {} answer without `result`", response.status),
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_that_does_not_resolve_in_time_is_named_not_waited_for() {
        let started = std::time::Instant::now();
        let err = resolve_with("node.invalid:18443", Duration::from_millis(100), |_| {
            std::thread::sleep(Duration::from_secs(5));
            None
        })
        .unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(matches!(err, RegenError::ResolveTimeout { .. }), "{err}");
        assert!(err.to_string().contains("node.invalid:18443"), "{err}");
    }

    #[test]
    fn an_ip_address_needs_no_resolver_and_a_name_without_answer_is_a_bad_address() {
        let never = |_: &str| -> Option<SocketAddr> { panic!("an IP address was resolved") };
        assert_eq!(
            resolve_with("127.0.0.1:18443", Duration::ZERO, never).unwrap(),
            "127.0.0.1:18443".parse::<SocketAddr>().unwrap()
        );
        let err = resolve_with("no-such-host:1", Duration::from_secs(1), |_| None).unwrap_err();
        assert!(matches!(err, RegenError::BadAddress(_)), "{err}");
    }

    fn read(bytes: &[u8]) -> Result<HttpResponse, ReadError> {
        read_response(&mut &bytes[..])
    }

    #[test]
    fn reads_a_captured_core_answer() {
        // `getblockcount` as the Bitcoin SV node's RPC server answered it.
        let captured = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nDate: Mon, 30 Nov 2026 01:16:23 GMT\r\nContent-Length: 33\r\n\r\n{\"result\":0,\"error\":null,\"id\":1}\n";
        let response = read(captured).unwrap();
        assert_eq!(response.status, 200);
        assert_eq!(interpret("a", "getblockcount", response).unwrap(), json!(0));
    }

    #[test]
    fn reads_a_captured_chunked_answer() {
        // `getblockheader <genesis> false` as the Bitcoin SV node's RPC server answered it.
        let captured = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nDate: Mon, 30 Nov 2026 01:24:43 GMT\r\nConnection: close\r\n\r\nc4\r\n{\"result\": \"0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4adae5494dffff7f2002000000\",\"error\": null,\"id\": 1}\r\n0\r\n\r\n";
        let result = interpret("a", "getblockheader", read(captured).unwrap()).unwrap();
        assert!(result.as_str().unwrap().ends_with("ffff7f2002000000"));
    }

    #[test]
    fn bad_chunks_are_errors() {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        for body in [
            "zz\r\n",
            "5\r\nab",
            "2\r\nabc\r\n0\r\n\r\n",
            "ffffffffff\r\n",
        ] {
            let bytes = format!("{head}{body}");
            assert!(read(bytes.as_bytes()).is_err(), "{body:?}");
        }
    }

    #[test]
    fn body_shorter_than_its_length_is_an_error() {
        let err = read(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}").unwrap_err();
        assert!(matches!(err, ReadError::Malformed(m) if m.contains("2 of 10")));
    }

    #[test]
    fn huge_length_is_refused_before_reading() {
        let err = read(b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n").unwrap_err();
        assert!(matches!(err, ReadError::Malformed(m) if m.contains("larger")));
    }

    #[test]
    fn not_http_is_an_error() {
        assert!(matches!(
            read(b"\xf9\xbe\xb4\xd9version\n"),
            Err(ReadError::Malformed(_))
        ));
        assert!(matches!(read(b""), Err(ReadError::Malformed(_))));
    }

    #[test]
    fn unauthorized_names_the_credentials() {
        let response = read(b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"jsonrpc\"\r\nContent-Length: 0\r\n\r\n").unwrap();
        let err = interpret("127.0.0.1:18443", "getblockcount", response).unwrap_err();
        assert!(matches!(err, RegenError::RpcCredentials { .. }));
        assert!(err.to_string().contains("--rpc-user"), "{err}");
    }

    #[test]
    fn rpc_error_carries_code_and_message() {
        // An unknown method, as the Bitcoin SV node answered it.
        let response = read(b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 76\r\n\r\n{\"result\":null,\"error\":{\"code\":-32601,\"message\":\"Method not found\"},\"id\":1}\n").unwrap();
        let err = interpret("a", "generateblock", response).unwrap_err();
        assert!(
            matches!(&err, RegenError::RpcCall { code: -32601, method, .. } if method == "generateblock"),
            "{err:?}"
        );
    }

    #[test]
    fn nothing_listening_is_unreachable() {
        // Bind then drop a listener: its port is free, so the connection is refused.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut client = RpcClient::new(RpcConfig {
            address: format!("127.0.0.1:{port}"),
            user: "u".into(),
            password: "p".into(),
            timeout: Duration::from_secs(2),
            tls: None,
        });
        let err = client.call("getblockcount", json!([])).unwrap_err();
        assert!(matches!(err, RegenError::RpcUnreachable { .. }), "{err:?}");
        assert!(err.to_string().contains("-rpcport"), "{err}");
    }
}
