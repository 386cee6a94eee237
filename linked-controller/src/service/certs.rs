//! The service's TLS (rustls on ring): the site's CA, this end's
//! certificate and key, from PEM files; and the cabinet a certificate
//! names (its subject's CN).

use std::path::Path;
use std::sync::Arc;

use rustls::RootCertStore;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;

use crate::controller::LinkError;

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, LinkError> {
    let certs =
        CertificateDer::pem_file_iter(path).and_then(|it| it.collect::<Result<Vec<_>, _>>()).map_err(|e| LinkError::Tls(format!("{}: {e}", path.display())))?;
    if certs.is_empty() {
        return Err(LinkError::Tls(format!("{}: no certificate in the file", path.display())));
    }
    Ok(certs)
}

fn key(path: &Path) -> Result<PrivateKeyDer<'static>, LinkError> {
    PrivateKeyDer::from_pem_file(path).map_err(|e| LinkError::Tls(format!("{}: {e}", path.display())))
}

fn roots(ca: &Path) -> Result<RootCertStore, LinkError> {
    let mut roots = RootCertStore::empty();
    for cert in certificates(ca)? {
        roots.add(cert).map_err(|e| LinkError::Tls(format!("{}: {e}", ca.display())))?;
    }
    Ok(roots)
}

/// The service's side: its certificate, and every client's checked
/// against the site's CA (a connection without one is refused in the
/// handshake).
pub(crate) fn server(ca: &Path, cert: &Path, key_file: &Path) -> Result<rustls::ServerConfig, LinkError> {
    let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots(ca)?), provider())
        .build()
        .map_err(|e| LinkError::Tls(format!("the client certificate verifier: {e}")))?;
    rustls::ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| LinkError::Tls(e.to_string()))?
        .with_client_cert_verifier(verifier)
        .with_single_cert(certificates(cert)?, key(key_file)?)
        .map_err(|e| LinkError::Tls(format!("{}: {e}", cert.display())))
}

/// A cabinet's side: the service's certificate checked against the site's
/// CA and the address's name; this cabinet's certificate presented.
pub(crate) fn client(ca: &Path, cert: &Path, key_file: &Path) -> Result<rustls::ClientConfig, LinkError> {
    rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| LinkError::Tls(e.to_string()))?
        .with_root_certificates(roots(ca)?)
        .with_client_auth_cert(certificates(cert)?, key(key_file)?)
        .map_err(|e| LinkError::Tls(format!("{}: {e}", cert.display())))
}

/// The CN of a verified certificate's subject: the cabinet's machine ID.
pub(crate) fn common_name(cert: &CertificateDer<'_>) -> Option<String> {
    let x509 = openssl::x509::X509::from_der(cert.as_ref()).ok()?;
    let entry = x509.subject_name().entries_by_nid(openssl::nid::Nid::COMMONNAME).next()?;
    let name = String::from_utf8(entry.data().as_slice().to_vec()).ok()?;
    let well_formed = !name.is_empty() && name.len() <= 63 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    well_formed.then_some(name)
}
