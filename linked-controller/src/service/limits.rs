//! What one certificate may use of the service (issue 46): connections at
//! once, requests and contributions a second, claims a second. Shared by
//! all of a cabinet's connections; what is over a limit is answered
//! [`crate::service::protocol::Answer::Unavailable`] and logged, never
//! queued.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::service::protocol::Request;

/// The service's bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connections one certificate may hold at once.
    pub connections_per_cabinet: usize,
    /// Authenticated connections at once, all cabinets together.
    pub connections: usize,
    /// Connections still in their TLS handshake at once: at the bound, the
    /// oldest is dropped for a new one (issue 69, `gate`).
    pub handshakes: usize,
    /// Connections still in their TLS handshake at once from one address.
    pub handshakes_per_address: usize,
    /// How long a handshake may take.
    pub handshake_timeout: Duration,
    /// How long a connection may stay silent between requests.
    pub idle_timeout: Duration,
    /// Requests a second per certificate (sustained; twice that at once).
    pub requests_per_second: u64,
    /// Contribution rows a second per certificate (sustained; one full
    /// request, [`crate::service::protocol::MAX_ROWS`], at once). A cabinet
    /// sends one row a round, and its rounds are paced at a few a second
    /// (issue 69: at 50,000 a second, 1,000-row requests from one
    /// certificate, each row checked by the database, cut an honest
    /// cabinet from 691 to 4 contributions a second).
    pub rows_per_second: u64,
    /// Award claims a second per certificate (sustained; twenty at once): a
    /// round takes seconds, so an honest cabinet claims far less.
    pub claims_per_second: u64,
    /// Meter reports a second per certificate (sustained; five seconds of
    /// it at once), held across the service's instances by the controller
    /// (issue 69: each report is a write, and 711 a second from one
    /// certificate once halved an honest cabinet's rate); an honest cabinet
    /// reports once a linked round at most.
    pub meters_per_second: u64,
    /// Rounds committed a second per certificate (sustained; twenty at
    /// once): a level cannot be won faster than play allows, and a reel
    /// round takes a cabinet well over a quarter of a second (issue 46).
    pub rounds_per_second: u64,
    /// Connections to the database the service keeps.
    pub database_connections: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections_per_cabinet: crate::controller::CABINET_CONNECTIONS as usize,
            connections: 512,
            handshakes: 1024,
            handshakes_per_address: 16,
            handshake_timeout: Duration::from_secs(5),
            idle_timeout: Duration::from_secs(30),
            requests_per_second: 1000,
            rows_per_second: 100,
            claims_per_second: 2,
            rounds_per_second: 4,
            meters_per_second: 5,
            database_connections: 8,
        }
    }
}

/// Claims one certificate may make at once.
const CLAIM_BURST: u64 = 20;
/// Requests over its limits within [`OVER_WINDOW`] after which a
/// certificate is barred (issue 69: a flood answered late still cost the
/// service an answer each).
const OVER_BEFORE_BAR: u32 = 50;
const OVER_WINDOW: Duration = Duration::from_secs(10);
/// How long a barred certificate's connections are closed and refused.
pub(crate) const BAR: Duration = Duration::from_secs(10);
/// Rounds one certificate may commit at once.
const ROUND_BURST: u64 = 20;

/// A token bucket, in millionths of a token.
#[derive(Debug)]
struct Bucket {
    micro: u128,
    at: Instant,
    rate: u128,
    burst: u128,
}

impl Bucket {
    fn new(rate: u64, burst: u64) -> Bucket {
        let burst = u128::from(burst) * 1_000_000;
        Bucket { micro: burst, at: Instant::now(), rate: u128::from(rate), burst }
    }

    fn take(&mut self, n: u64) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_micros().saturating_mul(self.rate);
        self.micro = self.micro.saturating_add(refill).min(self.burst);
        self.at = now;
        let want = u128::from(n) * 1_000_000;
        if self.micro >= want {
            self.micro -= want;
            true
        } else {
            false
        }
    }
}

#[derive(Debug)]
struct Cabinet {
    connections: usize,
    requests: Bucket,
    rows: Bucket,
    claims: Bucket,
    rounds: Bucket,
    /// Requests over a limit since `first_over`.
    over: u32,
    first_over: Option<Instant>,
    /// Refused until then: its connections closed, new ones not seated.
    barred_until: Option<Instant>,
}

impl Cabinet {
    fn barred(&self, now: Instant) -> bool {
        self.barred_until.is_some_and(|t| now < t)
    }

    /// One more request over a limit; whether that bars the certificate.
    fn strike(&mut self, now: Instant) -> bool {
        if self.first_over.is_none_or(|f| now.duration_since(f) > OVER_WINDOW) {
            self.first_over = Some(now);
            self.over = 0;
        }
        self.over += 1;
        if self.over >= OVER_BEFORE_BAR {
            self.barred_until = Some(now + BAR);
            self.over = 0;
            self.first_over = None;
            return true;
        }
        false
    }
}

/// A request over a certificate's limits.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Over {
    pub(crate) limit: String,
    /// The certificate is barred for [`BAR`]: the connection is closed.
    pub(crate) barred: bool,
}

/// Every certificate's use of the service.
#[derive(Debug)]
pub(crate) struct Cabinets {
    limits: Limits,
    inner: Mutex<HashMap<String, Cabinet>>,
}

/// One of a cabinet's connections, counted while it lives.
#[derive(Debug)]
pub(crate) struct Seat {
    cabinets: Arc<Cabinets>,
    name: String,
}

impl Drop for Seat {
    fn drop(&mut self) {
        if let Ok(mut all) = self.cabinets.inner.lock()
            && let Some(c) = all.get_mut(&self.name)
        {
            c.connections = c.connections.saturating_sub(1);
        }
    }
}

impl Cabinets {
    pub(crate) fn new(limits: Limits) -> Arc<Cabinets> {
        Arc::new(Cabinets { limits, inner: Mutex::new(HashMap::new()) })
    }

    /// A seat for one more connection of `name`; `None` at its limit.
    pub(crate) fn seat(self: &Arc<Self>, name: &str) -> Option<Seat> {
        let l = &self.limits;
        let mut all = self.inner.lock().ok()?;
        let c = all.entry(name.to_owned()).or_insert_with(|| Cabinet {
            connections: 0,
            requests: Bucket::new(l.requests_per_second, l.requests_per_second.saturating_mul(2)),
            rows: Bucket::new(l.rows_per_second, l.rows_per_second.max(crate::service::protocol::MAX_ROWS as u64)),
            claims: Bucket::new(l.claims_per_second, CLAIM_BURST),
            rounds: Bucket::new(l.rounds_per_second, ROUND_BURST),
            over: 0,
            first_over: None,
            barred_until: None,
        });
        if c.connections >= l.connections_per_cabinet || c.barred(Instant::now()) {
            return None;
        }
        c.connections += 1;
        Some(Seat { cabinets: self.clone(), name: name.to_owned() })
    }

    /// Whether `name` may make `request` now; otherwise which limit it is
    /// over, and whether that bars the certificate (after
    /// [`OVER_BEFORE_BAR`] within [`OVER_WINDOW`], for [`BAR`]).
    pub(crate) fn admit(&self, name: &str, request: &Request) -> Result<(), Over> {
        let unavailable = || Over { limit: "the service's limits are unavailable".to_owned(), barred: false };
        let mut all = self.inner.lock().map_err(|_| unavailable())?;
        let c = all.get_mut(name).ok_or_else(|| Over { limit: "no connection of this cabinet is counted".to_owned(), barred: false })?;
        let now = Instant::now();
        if c.barred(now) {
            return Err(Over { limit: format!("barred for {} s after {OVER_BEFORE_BAR} requests over its limits", BAR.as_secs()), barred: true });
        }
        let over = if !c.requests.take(1) {
            Some(format!("over {} requests a second", self.limits.requests_per_second))
        } else {
            match request {
                Request::Contribute { rows, .. } if !c.rows.take(rows.len() as u64) => {
                    Some(format!("over {} contributions a second", self.limits.rows_per_second))
                }
                Request::Award { .. } | Request::Reveal { .. } if !c.claims.take(1) => {
                    Some(format!("over {} award claims a second", self.limits.claims_per_second))
                }
                Request::Commit { .. } if !c.rounds.take(1) => Some(format!("over {} committed rounds a second", self.limits.rounds_per_second)),
                _ => None,
            }
        };
        match over {
            None => Ok(()),
            Some(limit) => {
                let barred = c.strike(now);
                Err(Over { limit, barred })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cabinet_holds_its_own_connections_only_and_claims_are_paced() {
        let limits = Limits { connections_per_cabinet: 2, ..Limits::default() };
        let cabinets = Cabinets::new(limits);
        let a1 = cabinets.seat("A").unwrap();
        let _a2 = cabinets.seat("A").unwrap();
        assert!(cabinets.seat("A").is_none());
        assert!(cabinets.seat("B").is_some());
        drop(a1);
        assert!(cabinets.seat("A").is_some());
        let claim = Request::Award { pool: "p".into(), epoch: "e".into(), round: 1, level: 0, outcome: String::new() };
        // Twenty at once, then two a second.
        for _ in 0..CLAIM_BURST {
            cabinets.admit("A", &claim).unwrap();
        }
        assert_eq!(cabinets.admit("A", &claim).unwrap_err().limit, "over 2 award claims a second");
        // Other requests are not claims.
        cabinets.admit("A", &Request::Levels { pool: "p".into() }).unwrap();
        // Twenty rounds committed at once, then four a second (issue 46).
        let bet = crate::ReelBet { game: "g".into(), lines: 1, credits_per_line: 1, denom: 1 };
        let commit = Request::Commit { pool: "p".into(), epoch: "e".into(), round: 1, commitment: String::new(), bet };
        for _ in 0..ROUND_BURST {
            cabinets.admit("A", &commit).unwrap();
        }
        assert_eq!(cabinets.admit("A", &commit).unwrap_err().limit, "over 4 committed rounds a second");
        // Another certificate's rounds are its own.
        cabinets.admit("B", &commit).unwrap();
    }

    /// Issue 69, availability: a certificate's contribution rows are held
    /// to what a cabinet plays — one full request (1,000 rows) at once,
    /// then a hundred a second — whatever the database would make of them.
    #[test]
    fn a_certificates_rows_are_one_full_request_at_once_then_a_hundred_a_second() {
        let cabinets = Cabinets::new(Limits::default());
        let _a = cabinets.seat("A").unwrap();
        let _b = cabinets.seat("B").unwrap();
        let rows = |n: u64| Request::Contribute { pool: "p".into(), epoch: "e".into(), rows: (1..=n).map(|r| (r, 100)).collect() };
        cabinets.admit("A", &rows(crate::service::protocol::MAX_ROWS as u64)).unwrap();
        assert_eq!(cabinets.admit("A", &rows(2)).unwrap_err().limit, "over 100 contributions a second");
        std::thread::sleep(Duration::from_millis(50));
        // 50 ms: five rows more (with a margin for a slow machine's clock).
        cabinets.admit("A", &rows(4)).unwrap();
        assert_eq!(cabinets.admit("A", &rows(500)).unwrap_err().limit, "over 100 contributions a second");
        // Another certificate's rows are its own.
        cabinets.admit("B", &rows(1_000)).unwrap();
    }

    /// Issue 69: a certificate that keeps going over its limits is barred
    /// for a while: every request refused, no connection seated; another
    /// certificate is not.
    #[test]
    fn a_certificate_over_its_limits_fifty_times_is_barred() {
        let cabinets = Cabinets::new(Limits::default());
        let _a = cabinets.seat("A").unwrap();
        let _b = cabinets.seat("B").unwrap();
        let claim = Request::Award { pool: "p".into(), epoch: "e".into(), round: 1, level: 0, outcome: String::new() };
        for _ in 0..CLAIM_BURST {
            cabinets.admit("A", &claim).unwrap();
        }
        for n in 1..OVER_BEFORE_BAR {
            assert_eq!(cabinets.admit("A", &claim).unwrap_err(), Over { limit: "over 2 award claims a second".into(), barred: false }, "{n}");
        }
        assert!(cabinets.admit("A", &claim).unwrap_err().barred);
        let levels = Request::Levels { pool: "p".into() };
        let refused = cabinets.admit("A", &levels).unwrap_err();
        assert!(refused.barred && refused.limit.starts_with("barred for 10 s"), "{refused:?}");
        assert!(cabinets.seat("A").is_none(), "a barred certificate was seated");
        cabinets.admit("B", &levels).unwrap();
        assert!(cabinets.seat("B").is_some());
    }
}
