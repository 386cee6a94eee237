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

/// Take our three parameters out of a URL (`?a=b&…`, values
/// percent-encoded: a path with a space or an `&` is written `%20`, `%26`)
/// or key-value (`a=b c='d e'`, a value with spaces single-quoted, `\'` and
/// `\\` inside) connection string, as libpq reads them; the rest is
/// PostgreSQL's own, passed on as written.
fn split(address: &str) -> Result<(String, TlsFiles), LinkError> {
    let mut files = TlsFiles::default();
    let mut take = |k: &str, v: String| -> bool {
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
                let mut kept = Vec::new();
                for kv in query.split('&') {
                    let ours = match kv.split_once('=') {
                        Some((k, v)) if matches!(k, "sslrootcert" | "sslcert" | "sslkey") => {
                            let v = percent_encoding::percent_decode_str(v)
                                .decode_utf8()
                                .map_err(|_| LinkError::Invalid(format!("the controller address's {k} is not UTF-8 once decoded")))?;
                            take(k, v.into_owned())
                        }
                        _ => false,
                    };
                    if !ours {
                        kept.push(kv);
                    }
                }
                if kept.is_empty() { base.to_owned() } else { format!("{base}?{}", kept.join("&")) }
            }
        }
    } else {
        let mut kept = Vec::new();
        for (k, v, raw) in key_values(address)? {
            if !take(&k, v) {
                kept.push(raw);
            }
        }
        kept.join(" ")
    };
    Ok((rest, files))
}

/// The `key = value` pairs of a libpq key-value string, each with its text
/// as written.
fn key_values(s: &str) -> Result<Vec<(String, String, String)>, LinkError> {
    let bad = |why: &str| LinkError::Invalid(format!("the controller address {s:?}: {why}"));
    let mut out = Vec::new();
    let mut chars = s.char_indices().peekable();
    loop {
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let Some(&(start, _)) = chars.peek() else { return Ok(out) };
        let mut key = String::new();
        while let Some((_, c)) = chars.next_if(|(_, c)| *c != '=' && !c.is_whitespace()) {
            key.push(c);
        }
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        if chars.next_if(|(_, c)| *c == '=').is_none() {
            return Err(bad(&format!("{key} has no value")));
        }
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let mut value = String::new();
        if chars.next_if(|(_, c)| *c == '\'').is_some() {
            loop {
                match chars.next() {
                    None => return Err(bad(&format!("the value of {key} has no closing quote"))),
                    Some((_, '\'')) => break,
                    Some((_, '\\')) => value.push(chars.next().ok_or_else(|| bad(&format!("the value of {key} ends in a backslash")))?.1),
                    Some((_, c)) => value.push(c),
                }
            }
        } else {
            while let Some((_, c)) = chars.next_if(|(_, c)| !c.is_whitespace()) {
                if c == '\\' {
                    value.push(chars.next().ok_or_else(|| bad(&format!("the value of {key} ends in a backslash")))?.1);
                } else {
                    value.push(c);
                }
            }
        }
        let end = chars.peek().map_or(s.len(), |&(i, _)| i);
        out.push((key, value, s[start..end].trim_end().to_owned()));
    }
}

fn tls_error(what: &str, e: impl std::fmt::Display) -> LinkError {
    LinkError::Tls(format!("{what}: {e}"))
}

/// Connect to the controller at `address` (see the module's doc).
pub(crate) fn connect(address: &str) -> Result<Client, LinkError> {
    let (rest, files) = split(address)?;
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

    /// Paths with spaces and `&` are written as libpq reads them:
    /// percent-encoded in a URL, single-quoted in a key-value string.
    #[test]
    fn paths_with_spaces_and_ampersands_are_read_as_libpq_reads_them() {
        let (rest, f) =
            split("postgres://EGM-0001@h/db?sslrootcert=/site%20pki/ca%26root.crt&sslcert=/c/a.crt&sslkey=/c/%E2%82%ACa.key&sslmode=require").unwrap();
        assert_eq!(rest, "postgres://EGM-0001@h/db?sslmode=require");
        assert_eq!(f.ca, Some(PathBuf::from("/site pki/ca&root.crt")));
        assert_eq!(f.key, Some(PathBuf::from("/c/€a.key")));
        let (rest, f) = split(r"host=/run/pg  user=egm sslcert = '/site pki/it\'s.crt' sslkey=/a\ b.key dbname='my db'").unwrap();
        assert_eq!(rest, "host=/run/pg user=egm dbname='my db'");
        assert_eq!(f.cert, Some(PathBuf::from("/site pki/it's.crt")));
        assert_eq!(f.key, Some(PathBuf::from("/a b.key")));
        let e = split("host=h sslcert='/a.crt").unwrap_err().to_string();
        assert!(e.contains("sslcert has no closing quote"), "{e}");
        let e = split("host=h sslcert").unwrap_err().to_string();
        assert!(e.contains("sslcert has no value"), "{e}");
        let e = split("postgres://a@h/db?sslkey=%FF").unwrap_err().to_string();
        assert!(e.contains("sslkey is not UTF-8"), "{e}");
    }

    #[test]
    fn our_parameters_are_taken_out_of_urls_and_key_value_strings() {
        let (rest, f) = split("postgres://EGM-0001@127.0.0.1:5432/db?sslmode=require&sslrootcert=/c/ca.crt&sslcert=/c/a.crt&sslkey=/c/a.key").unwrap();
        assert_eq!(rest, "postgres://EGM-0001@127.0.0.1:5432/db?sslmode=require");
        assert_eq!(f.ca, Some(PathBuf::from("/c/ca.crt")));
        assert_eq!((f.cert, f.key), (Some(PathBuf::from("/c/a.crt")), Some(PathBuf::from("/c/a.key"))));
        let (rest, f) = split("host=/var/run/pg port=5432 user=egm sslcert=/x.crt dbname=db").unwrap();
        assert_eq!(rest, "host=/var/run/pg port=5432 user=egm dbname=db");
        assert_eq!(f.cert, Some(PathBuf::from("/x.crt")));
        assert_eq!(split("postgres://a@h/db").unwrap().0, "postgres://a@h/db");
    }

    #[test]
    fn a_network_address_without_certificates_is_refused_before_connecting() {
        let e = connect("postgres://EGM-0001@127.0.0.1:1/db").err().expect("a plain link was allowed");
        assert!(e.to_string().contains("must be TLS"), "{e}");
        let e = connect("postgres://EGM-0001@127.0.0.1:1/db?sslcert=/a.crt").err().expect("a half-configured link was allowed");
        assert!(e.to_string().contains("all required"), "{e}");
    }
}
