//! A cabinet's connection to the controller's service (issue 46): TLS
//! with the cabinet's certificate, one request and its answer at a time,
//! each bounded by [`LINK_TIMEOUT`].
//!
//! A service address is `egm://NAME@HOST:PORT?sslrootcert=CA&sslcert=CRT&sslkey=KEY`
//! (paths percent-encoded, as in a controller address): NAME is for the
//! reader; the certificate says who the cabinet is. HOST must be a name or
//! address the service's certificate carries.

use std::net::{TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::ServerName;
use rustls::{ClientConnection, StreamOwned};

use meters::Cents;

use crate::claim::Claimed;
use crate::controller::{LINK_TIMEOUT, LinkError, LinkedAward, LinkedLevel, Outcome};
use crate::service::protocol::{Answer, FrameError, MAX_ANSWER, Request, read_frame, write_frame};

/// A parsed service address.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Address {
    host: String,
    port: u16,
    ca: PathBuf,
    cert: PathBuf,
    key: PathBuf,
}

fn parse(address: &str) -> Result<Address, LinkError> {
    let bad = |why: &str| LinkError::Invalid(format!("the progressive service address {:?}: {why}", crate::service::prefix(address, 120)));
    let rest = address.strip_prefix("egm://").ok_or_else(|| bad("it does not begin with egm://"))?;
    let (authority, query) = rest.split_once('?').ok_or_else(|| bad("it names no sslrootcert, sslcert and sslkey"))?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    let (host, port) = host_port.rsplit_once(':').ok_or_else(|| bad("it names no port"))?;
    let port: u16 = port.parse().map_err(|_| bad("its port is not a number from 1 to 65535"))?;
    let (mut ca, mut cert, mut key) = (None, None, None);
    for kv in query.split('&') {
        let (k, v) = kv.split_once('=').ok_or_else(|| bad("a parameter has no value"))?;
        let v = percent_encoding::percent_decode_str(v).decode_utf8().map_err(|_| bad("a path is not UTF-8 once decoded"))?;
        let slot = match k {
            "sslrootcert" => &mut ca,
            "sslcert" => &mut cert,
            "sslkey" => &mut key,
            other => return Err(bad(&format!("unknown parameter {other:?}"))),
        };
        *slot = Some(PathBuf::from(v.into_owned()));
    }
    match (ca, cert, key) {
        (Some(ca), Some(cert), Some(key)) if !host.is_empty() => Ok(Address { host: host.trim_matches(['[', ']']).to_owned(), port, ca, cert, key }),
        _ => Err(bad("it needs a host and all of sslrootcert, sslcert and sslkey")),
    }
}

/// A cabinet's connection to the service.
pub struct CabinetClient {
    stream: StreamOwned<ClientConnection, TcpStream>,
}

impl CabinetClient {
    /// Connect and complete the TLS handshake within [`LINK_TIMEOUT`].
    pub fn connect(address: &str) -> Result<CabinetClient, LinkError> {
        let a = parse(address)?;
        let config = crate::service::certs::client(&a.ca, &a.cert, &a.key)?;
        let name = ServerName::try_from(a.host.clone()).map_err(|e| LinkError::Invalid(format!("the service's host {:?}: {e}", a.host)))?;
        let addr =
            (a.host.as_str(), a.port).to_socket_addrs().map_err(|e| LinkError::Tls(format!("{}:{}: {e}", a.host, a.port)))?.next().ok_or(LinkError::Down)?;
        let tcp = TcpStream::connect_timeout(&addr, LINK_TIMEOUT).map_err(|_| LinkError::Down)?;
        let _ = tcp.set_nodelay(true);
        tcp.set_read_timeout(Some(LINK_TIMEOUT)).map_err(|e| LinkError::Tls(e.to_string()))?;
        tcp.set_write_timeout(Some(LINK_TIMEOUT)).map_err(|e| LinkError::Tls(e.to_string()))?;
        let conn = ClientConnection::new(Arc::new(config), name).map_err(|e| LinkError::Tls(e.to_string()))?;
        let mut stream = StreamOwned::new(conn, tcp);
        while stream.conn.is_handshaking() {
            stream.conn.complete_io(&mut stream.sock).map_err(|e| LinkError::Tls(format!("the service's handshake: {e}")))?;
        }
        Ok(CabinetClient { stream })
    }

    fn ask(&mut self, request: &Request) -> Result<Answer, LinkError> {
        write_frame(&mut self.stream, request).map_err(lost)?;
        match read_frame::<Answer>(&mut self.stream, MAX_ANSWER).map_err(lost)? {
            Answer::Refused(reason) => Err(LinkError::Refused(reason)),
            Answer::Unavailable(_) => Err(LinkError::Down),
            answer => Ok(answer),
        }
    }

    /// Deliver contributions (round, wager) of this cabinet's journal
    /// epoch; each row answered on its own.
    pub fn contribute(&mut self, pool: &str, epoch: &str, batch: &[(u64, Cents)]) -> Result<Vec<(u64, Outcome)>, LinkError> {
        match self.ask(&Request::Contribute { pool: pool.into(), epoch: epoch.into(), rows: batch.to_vec() })? {
            Answer::Contributed(rows) if rows.len() == batch.len() => Ok(rows),
            other => Err(unexpected(&other)),
        }
    }

    /// The award for a hit of `level` in `round`, claimed with the round's
    /// committed outcome (a [`crate::ReelClaim`] as JSON).
    pub fn award(&mut self, pool: &str, epoch: &str, round: u64, level: usize, outcome: &str) -> Result<Claimed, LinkError> {
        match self.ask(&Request::Award { pool: pool.into(), epoch: epoch.into(), round, level, outcome: outcome.into() })? {
            Answer::Claimed(c) => Ok(c),
            other => Err(unexpected(&other)),
        }
    }

    /// Issue 46: commit this cabinet's next `round` (SHA-256 of its key,
    /// hex) with `bet` before it is drawn; the controller's nonce (hex).
    pub fn commit(&mut self, pool: &str, epoch: &str, round: u64, commitment: &str, bet: &crate::ReelBet) -> Result<String, LinkError> {
        let request = Request::Commit { pool: pool.into(), epoch: epoch.into(), round, commitment: commitment.into(), bet: bet.clone() };
        match self.ask(&request)? {
            Answer::Nonce(n) => Ok(n),
            other => Err(unexpected(&other)),
        }
    }

    /// Issue 46: the award of `level` for committed `round`, revealing its
    /// key (hex).
    pub fn reveal(&mut self, pool: &str, epoch: &str, round: u64, level: usize, key: &str) -> Result<Claimed, LinkError> {
        match self.ask(&Request::Reveal { pool: pool.into(), epoch: epoch.into(), round, level, key: key.into() })? {
            Answer::Claimed(c) => Ok(c),
            other => Err(unexpected(&other)),
        }
    }

    /// A voided round: what it did to the pool undone; the awards' sum.
    pub fn return_round(&mut self, pool: &str, epoch: &str, round: u64) -> Result<Cents, LinkError> {
        match self.ask(&Request::Return { pool: pool.into(), epoch: epoch.into(), round })? {
            Answer::Returned(a) => Ok(a),
            other => Err(unexpected(&other)),
        }
    }

    /// Issue 46: report this cabinet's own meter of `pool` in `epoch`
    /// (from its journal), which the operator reconciles.
    pub fn report_meter(&mut self, pool: &str, epoch: &str, meter: crate::CabinetMeter) -> Result<(), LinkError> {
        match self.ask(&Request::Meter { pool: pool.into(), epoch: epoch.into(), meter })? {
            Answer::Recorded => Ok(()),
            other => Err(unexpected(&other)),
        }
    }

    /// The levels now.
    pub fn levels(&mut self, pool: &str) -> Result<Vec<LinkedLevel>, LinkError> {
        match self.ask(&Request::Levels { pool: pool.into() })? {
            Answer::Levels(l) => Ok(l),
            other => Err(unexpected(&other)),
        }
    }

    /// The latest `n` awards, newest first.
    pub fn last_awards(&mut self, pool: &str, n: u32) -> Result<Vec<LinkedAward>, LinkError> {
        match self.ask(&Request::LastAwards { pool: pool.into(), n })? {
            Answer::LastAwards(a) => Ok(a),
            other => Err(unexpected(&other)),
        }
    }

    /// Send raw bytes and read one answer: for the attack tests (what a
    /// hostile cabinet can put on the wire).
    pub fn raw(&mut self, bytes: &[u8]) -> Result<Answer, LinkError> {
        use std::io::Write;
        self.stream.write_all(bytes).map_err(|e| lost(FrameError::Io(e)))?;
        self.stream.flush().map_err(|e| lost(FrameError::Io(e)))?;
        read_frame::<Answer>(&mut self.stream, MAX_ANSWER).map_err(lost)
    }
}

fn lost(e: FrameError) -> LinkError {
    match e {
        FrameError::Io(_) => LinkError::Down,
        other => LinkError::Invalid(other.to_string()),
    }
}

fn unexpected(answer: &Answer) -> LinkError {
    LinkError::Invalid(format!("the service answered {}", crate::service::prefix(&format!("{answer:?}"), 200)))
}

/// M-22: a connection that watches the service for awards.
pub struct Listener {
    client: CabinetClient,
}

impl Listener {
    pub fn connect(address: &str) -> Result<Listener, LinkError> {
        let mut client = CabinetClient::connect(address)?;
        write_frame(&mut client.stream, &Request::Watch).map_err(lost)?;
        match read_frame::<Answer>(&mut client.stream, MAX_ANSWER).map_err(lost)? {
            Answer::Alive => Ok(Listener { client }),
            other => Err(unexpected(&other)),
        }
    }

    /// Wait up to `timeout` for an award; returns its pool, or nothing
    /// when none came. The service says it is alive each second in
    /// between. (A frame comes in one TLS record, so a timeout never falls
    /// inside one.)
    pub fn wait(&mut self, timeout: Duration) -> Result<Vec<String>, LinkError> {
        let end = std::time::Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Ok(Vec::new());
            }
            self.client.stream.sock.set_read_timeout(Some(left)).map_err(|_| LinkError::Down)?;
            match read_frame::<Answer>(&mut self.client.stream, MAX_ANSWER) {
                Ok(Answer::Awarded(pool)) => return Ok(vec![pool]),
                Ok(_) => {}
                Err(FrameError::Io(e)) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => return Ok(Vec::new()),
                Err(e) => return Err(lost(e)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_service_address_names_host_port_and_the_three_files() {
        let a = parse("egm://EGM-0001@127.0.0.1:7443?sslrootcert=/pki/ca.crt&sslcert=/pki/my%20cab.crt&sslkey=/pki/k.key").unwrap();
        assert_eq!(a, Address { host: "127.0.0.1".into(), port: 7443, ca: "/pki/ca.crt".into(), cert: "/pki/my cab.crt".into(), key: "/pki/k.key".into() });
        for (bad, why) in [
            ("postgres://EGM-0001@h:1?sslrootcert=a&sslcert=b&sslkey=c", "egm://"),
            ("egm://h:1", "names no sslrootcert"),
            ("egm://h?sslrootcert=a&sslcert=b&sslkey=c", "no port"),
            ("egm://h:99999?sslrootcert=a&sslcert=b&sslkey=c", "port is not a number"),
            ("egm://h:1?sslrootcert=a&sslcert=b", "all of sslrootcert"),
            ("egm://h:1?sslrootcert=a&sslcert=b&sslkey=c&user=x", "unknown parameter \"user\""),
        ] {
            let e = parse(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
