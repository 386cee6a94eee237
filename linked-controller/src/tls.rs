//! The link to the controller (issue 13): TLS with this end's client
//! certificate, the server's certificate checked against the site's CA and
//! its name. The controller's `pg_hba.conf` accepts nothing else over the
//! network (`hostssl … cert`): the certificate's CN is the PostgreSQL role,
//! so a cabinet is who its certificate says, never what a request claims.
//!
//! A controller address is a PostgreSQL URL or key-value string with three
//! more parameters, as libpq names them: `sslrootcert` (the CA),
//! `sslcert` and `sslkey` (this end's certificate and key), e.g.
//! `postgres://EGM-0001@10.0.0.5:5432/egm_progressive?sslrootcert=ca.crt&sslcert=EGM-0001.crt&sslkey=EGM-0001.key`.
//! Only the administrator's set-up connection, over the server's local
//! socket (a host that is a path), goes without TLS.

use std::path::PathBuf;
use std::time::Duration;

use openssl::ssl::{SslConnector, SslFiletype, SslMethod, SslVerifyMode};
use postgres::config::{Host, SslMode};
use postgres::{Client, NoTls};
use postgres_openssl::MakeTlsConnector;

use crate::controller::LinkError;

/// This end's TLS files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct TlsFiles {
    ca: Option<PathBuf>,
    cert: Option<PathBuf>,
    key: Option<PathBuf>,
}

/// Take our three parameters out of a URL (`?a=b&…`) or key-value
/// (`a=b c=d`) connection string; the rest is PostgreSQL's own.
fn split(address: &str) -> (String, TlsFiles) {
    let mut files = TlsFiles::default();
    let mut take = |k: &str, v: &str| -> bool {
        let slot = match k {
            "sslrootcert" => &mut files.ca,
            "sslcert" => &mut files.cert,
            "sslkey" => &mut files.key,
            _ => return false,
        };
        *slot = Some(PathBuf::from(v));
        true
    };
    let rest = if address.starts_with("postgres://") || address.starts_with("postgresql://") {
        match address.split_once('?') {
            None => address.to_owned(),
            Some((base, query)) => {
                let kept: Vec<&str> = query.split('&').filter(|kv| kv.split_once('=').is_none_or(|(k, v)| !take(k, v))).collect();
                if kept.is_empty() { base.to_owned() } else { format!("{base}?{}", kept.join("&")) }
            }
        }
    } else {
        let kept: Vec<&str> = address.split_whitespace().filter(|kv| kv.split_once('=').is_none_or(|(k, v)| !take(k, v))).collect();
        kept.join(" ")
    };
    (rest, files)
}

fn tls_error(what: &str, e: impl std::fmt::Display) -> LinkError {
    LinkError::Tls(format!("{what}: {e}"))
}

/// Connect to the controller at `address` (see the module's doc).
pub(crate) fn connect(address: &str) -> Result<Client, LinkError> {
    let (rest, files) = split(address);
    let mut config: postgres::Config = rest.parse()?;
    config.connect_timeout(Duration::from_secs(2));
    config.tcp_user_timeout(Duration::from_secs(3));
    let local = !config.get_hosts().is_empty() && config.get_hosts().iter().all(|h| matches!(h, Host::Unix(_)));
    match (files.ca, files.cert, files.key) {
        (Some(ca), Some(cert), Some(key)) => {
            let mut b = SslConnector::builder(SslMethod::tls_client()).map_err(|e| tls_error("TLS", e))?;
            b.set_ca_file(&ca).map_err(|e| tls_error(&format!("the CA {}", ca.display()), e))?;
            b.set_certificate_chain_file(&cert).map_err(|e| tls_error(&format!("the certificate {}", cert.display()), e))?;
            b.set_private_key_file(&key, SslFiletype::PEM).map_err(|e| tls_error(&format!("the key {}", key.display()), e))?;
            b.check_private_key().map_err(|e| tls_error(&format!("the key {} does not match {}", key.display(), cert.display()), e))?;
            b.set_verify(SslVerifyMode::PEER);
            config.ssl_mode(SslMode::Require);
            Ok(config.connect(MakeTlsConnector::new(b.build()))?)
        }
        (None, None, None) if local => Ok(config.connect(NoTls)?),
        _ => Err(LinkError::Tls("the link to the controller must be TLS with this end's certificate: sslrootcert, sslcert and sslkey are all required".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_parameters_are_taken_out_of_urls_and_key_value_strings() {
        let (rest, f) = split("postgres://EGM-0001@127.0.0.1:5432/db?sslmode=require&sslrootcert=/c/ca.crt&sslcert=/c/a.crt&sslkey=/c/a.key");
        assert_eq!(rest, "postgres://EGM-0001@127.0.0.1:5432/db?sslmode=require");
        assert_eq!(f.ca, Some(PathBuf::from("/c/ca.crt")));
        assert_eq!((f.cert, f.key), (Some(PathBuf::from("/c/a.crt")), Some(PathBuf::from("/c/a.key"))));
        let (rest, f) = split("host=/var/run/pg port=5432 user=egm sslcert=/x.crt dbname=db");
        assert_eq!(rest, "host=/var/run/pg port=5432 user=egm dbname=db");
        assert_eq!(f.cert, Some(PathBuf::from("/x.crt")));
        assert_eq!(split("postgres://a@h/db").0, "postgres://a@h/db");
    }

    #[test]
    fn a_network_address_without_certificates_is_refused_before_connecting() {
        let e = connect("postgres://EGM-0001@127.0.0.1:1/db").err().expect("a plain link was allowed");
        assert!(e.to_string().contains("must be TLS"), "{e}");
        let e = connect("postgres://EGM-0001@127.0.0.1:1/db?sslcert=/a.crt").err().expect("a half-configured link was allowed");
        assert!(e.to_string().contains("all required"), "{e}");
    }
}
