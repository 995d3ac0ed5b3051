//! RPC over TLS, trusting exactly one given certificate: what btcd speaks by default.
//!
//! btcd serves JSON-RPC over TLS only, with a self-signed certificate it writes on first start
//! (`rpc.cert` in its home or `--rpccert`; an ECDSA P-521 key, marked as a CA). No public
//! authority signs it and it is its own issuer, so ordinary chain validation refuses it. The
//! suite trusts the certificate it is given instead (`--rpc-cert`, or `BIP37_REGEN_RPC_CERT`):
//! the server must present one of the file's certificates byte for byte and prove, by the TLS
//! handshake signature, that it holds its key. Names in the certificate are not consulted: the
//! pin is stronger than a name. Bitcoin Core's RPC is plain HTTP and stays the default.
//!
//! rustls with the aws-lc-rs provider: unlike *ring*, it verifies P-521 signatures, the curve
//! btcd's certificate uses.

use super::error::RegenError;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, ClientConnection, DigitallySignedStruct, SignatureScheme, StreamOwned};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest certificate file read (btcd's is about 1 KB).
const MAX_CERT_FILE_BYTES: u64 = 1024 * 1024;

/// How to reach an RPC server over TLS: the client configuration that trusts the given
/// certificates, and the file they came from (for messages).
#[derive(Debug, Clone)]
pub struct RpcTls {
    pub cert_file: PathBuf,
    config: Arc<ClientConfig>,
}

impl RpcTls {
    /// Trusts the certificates of the PEM file `path` (at least one).
    pub fn trusting(path: &Path) -> Result<RpcTls, RegenError> {
        let bad = |detail: String| RegenError::Input {
            path: path.display().to_string(),
            detail,
        };
        let text = bip37_harness::input_file::read_text(path, MAX_CERT_FILE_BYTES)
            .map_err(|e| bad(format!("{e} (btcd writes its RPC certificate to rpc.cert)")))?;
        let certs = CertificateDer::pem_slice_iter(text.as_bytes())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| bad(format!("not a PEM certificate file: {e}")))?;
        if certs.is_empty() {
            return Err(bad(
                "no `BEGIN CERTIFICATE` block: pass the node's RPC certificate (btcd's rpc.cert), \
                 not its key"
                    .into(),
            ));
        }
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let config = ClientConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| bad(format!("TLS setup: {e}")))?
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(Pinned { certs, provider }))
            .with_no_client_auth();
        Ok(RpcTls {
            cert_file: path.to_path_buf(),
            config: Arc::new(config),
        })
    }

    /// `stream` wrapped in a TLS client session with the server at `host`; the handshake
    /// happens on the first read or write.
    pub fn wrap<S: Read + Write>(
        &self,
        host: &str,
        stream: S,
    ) -> Result<StreamOwned<ClientConnection, S>, String> {
        let name = ServerName::try_from(host.to_string())
            .map_err(|e| format!("`{host}` is not a TLS server name: {e}"))?;
        let session = ClientConnection::new(self.config.clone(), name)
            .map_err(|e| format!("TLS session: {e}"))?;
        Ok(StreamOwned::new(session, stream))
    }
}

/// Accepts exactly the pinned certificates, and handshake signatures their keys made.
#[derive(Debug)]
struct Pinned {
    certs: Vec<CertificateDer<'static>>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if self.certs.iter().any(|c| c.as_ref() == end_entity.as_ref()) {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(
                "the server's certificate is not the one in --rpc-cert".into(),
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("tls-{name}-{}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_file_without_a_certificate_is_refused_with_the_reason() {
        let key = file(
            "key",
            "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n",
        );
        let err = RpcTls::trusting(&key).unwrap_err().to_string();
        assert!(err.contains("not its key"), "{err}");
        let missing = std::env::temp_dir().join("no-such-rpc.cert");
        let err = RpcTls::trusting(&missing).unwrap_err().to_string();
        assert!(err.contains("rpc.cert"), "{err}");
        std::fs::remove_file(key).unwrap();
    }
}
