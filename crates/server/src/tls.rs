//! TLS to the server: rustls (with the `ring` provider) through `tokio-postgres-rustls`, and a
//! certificate verifier of our own. A Control server's certificate is self-signed (made by
//! `control-server.sh init`), so no authority vouches for it: what makes the link safe is the
//! certificate's SHA-256 fingerprint, pinned in the URL (`fingerprint=sha256:AB:CD…`) and
//! checked here against the certificate the server shows. Without a pin any certificate is
//! taken, as libpq's `sslmode=require` does: the link is encrypted, but a machine in between
//! could show its own.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};
use sha2::{Digest, Sha256};
use tokio_postgres_rustls::MakeRustlsConnect;

/// Words that start the refusal of a certificate that is not the pinned one (the caller adds
/// what to do).
pub const NOT_THE_PINNED_CERTIFICATE: &str = "the server's certificate is not the one pinned";

/// A certificate's fingerprint as `control-server.sh fingerprint` prints it.
pub fn fingerprint_of(der: &[u8]) -> String {
    let digest = Sha256::digest(der);
    let pairs: Vec<String> = digest.iter().map(|b| format!("{b:02X}")).collect();
    format!("sha256:{}", pairs.join(":"))
}

#[derive(Debug)]
struct Pinned {
    /// `sha256:AB:…`, canonical (see `location::parse_fingerprint`); None takes any.
    pin: Option<String>,
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
        let Some(pin) = &self.pin else {
            return Ok(ServerCertVerified::assertion());
        };
        let shown = fingerprint_of(end_entity.as_ref());
        if shown == *pin {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(format!(
                "{NOT_THE_PINNED_CERTIFICATE}: it has the fingerprint {shown}, the URL pins {pin}"
            )))
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

/// The TLS connector for a server: the certificate checked against `pin` when there is one.
pub fn connector(pin: Option<&str>) -> Result<MakeRustlsConnect, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = Pinned {
        pin: pin.map(str::to_string),
        provider: Arc::clone(&provider),
    };
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS cannot be set up: {e}"))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_are_sha256_in_upper_case_pairs() {
        let f = fingerprint_of(b"abc");
        assert_eq!(
            f,
            "sha256:BA:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD"
        );
        assert_eq!(
            umpire_core::game::journal::location::parse_fingerprint(&f.to_ascii_lowercase()),
            Ok(f)
        );
    }
}
