//! RPC over TLS as btcd serves it: a self-signed ECDSA P-521 certificate (btcd's
//! `btcutil.NewTLSCertPair` curve), marked as a CA. The client trusts exactly the certificate it
//! is given: the right one answers, another server's certificate is refused by name of the file
//! to fix, and plain HTTP to the TLS port is refused with a pointer to `--rpc-cert`.

use bip37_conform::regen::error::RegenError;
use bip37_conform::regen::rpc::{RpcClient, RpcConfig};
use bip37_conform::regen::tls::RpcTls;
use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair, PKCS_ECDSA_P521_SHA512};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// A btcd-like certificate: P-521, self-signed, a CA, for localhost and 127.0.0.1.
fn certificate() -> (String, String) {
    let key = KeyPair::generate_for(&PKCS_ECDSA_P521_SHA512).unwrap();
    let mut params =
        CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()]).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let cert = params.self_signed(&key).unwrap();
    (cert.pem(), key.serialize_pem())
}

/// A TLS JSON-RPC server answering every call with `result` 7, serving `cert_pem`.
fn tls_server(cert_pem: &str, key_pem: &str) -> String {
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    let certs = vec![CertificateDer::from_pem_slice(cert_pem.as_bytes()).unwrap()];
    let key = PrivateKeyDer::from_pem_slice(key_pem.as_bytes()).unwrap();
    let config = Arc::new(
        rustls::ServerConfig::builder()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap(),
    );
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let config = config.clone();
            thread::spawn(move || {
                let session = rustls::ServerConnection::new(config).unwrap();
                let mut tls = rustls::StreamOwned::new(session, stream);
                let mut reader = BufReader::new(&mut tls);
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    if line == "\r\n" {
                        break;
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap();
                    }
                }
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let reply = r#"{"result":7,"error":null,"id":1}"#;
                let _ = write!(
                    tls,
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{reply}",
                    reply.len()
                );
                tls.conn.send_close_notify();
                let _ = tls.flush();
            });
        }
    });
    address
}

fn pem_file(name: &str, pem: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("regen-tls-{name}-{}.cert", std::process::id()));
    std::fs::write(&path, pem).unwrap();
    path
}

fn call(address: &str, tls: Option<RpcTls>) -> Result<serde_json::Value, RegenError> {
    RpcClient::new(RpcConfig {
        address: address.to_string(),
        user: "u".into(),
        password: "p".into(),
        timeout: Duration::from_secs(5),
        tls,
    })
    .call("getblockcount", json!([]))
}

#[test]
fn the_given_certificate_is_trusted_and_no_other() {
    let (cert, key) = certificate();
    let server = tls_server(&cert, &key);
    let right = pem_file("right", &cert);
    let answer = call(&server, Some(RpcTls::trusting(&right).unwrap())).unwrap();
    assert_eq!(answer, json!(7));

    let (other, _) = certificate();
    let wrong = pem_file("wrong", &other);
    let err = call(&server, Some(RpcTls::trusting(&wrong).unwrap())).unwrap_err();
    assert!(matches!(err, RegenError::RpcTls { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains(&wrong.display().to_string()), "{text}");
    assert!(text.contains("not the one in --rpc-cert"), "{text}");

    // Plain HTTP to the TLS port: no answer that passes for a result.
    assert!(call(&server, None).is_err());
    for path in [right, wrong] {
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn tls_to_a_plain_http_server_names_the_fix() {
    let (cert, _) = certificate();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    thread::spawn(move || {
        if let Ok((mut stream, _)) = listener.accept() {
            let mut buf = [0u8; 512];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        }
    });
    let path = pem_file("plain", &cert);
    let err = call(&address, Some(RpcTls::trusting(&path).unwrap())).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, RegenError::RpcTls { .. }), "{err:?}");
    assert!(text.contains("drop --rpc-cert"), "{text}");
    std::fs::remove_file(path).unwrap();
}
