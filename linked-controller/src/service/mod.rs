//! The controller's service (issue 46): the only client of the pools'
//! database that a cabinet ever reaches. Cabinets connect over TLS with
//! their certificates (rustls); the certificate's CN is the cabinet, and
//! no request can say otherwise. The service owns the limits (connections
//! per certificate and in all, handshake and idle timeouts, requests,
//! contributions and claims a second, the request's size) and makes each
//! call as one short call of its own on the database, so no cabinet can
//! hold a lock, open a transaction, send SQL, notify a channel or fill the
//! database's log. The database listens on a local or private socket for
//! the service and the operators only; cabinets have no login there.
//!
//! The service keeps no state of its own between calls (the books are the
//! database's): two instances may serve one database.

pub(crate) mod certs;
mod db;
mod gate;
mod limits;
pub mod protocol;
mod server;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Semaphore, broadcast, watch};

pub use limits::Limits;

use crate::controller::LinkError;

/// The service's set-up.
#[derive(Clone, Debug)]
pub struct ServiceConfig {
    /// Where cabinets connect (a private address of the controller).
    pub listen: SocketAddr,
    /// The service's own database address (`Controller::connect`: its
    /// login's certificate, or the local socket).
    pub database: String,
    /// The site's CA, which signs every cabinet's certificate.
    pub ca: PathBuf,
    /// The service's certificate and key.
    pub cert: PathBuf,
    pub key: PathBuf,
    pub limits: Limits,
}

/// A running service: stops when dropped.
pub struct Service {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Service {
    /// Start the service on threads of its own; returns once it listens.
    pub fn start(config: ServiceConfig) -> Result<Service, LinkError> {
        let tls = certs::server(&config.ca, &config.cert, &config.key)?;
        let listener = std::net::TcpListener::bind(config.listen).map_err(|e| LinkError::Invalid(format!("listening on {}: {e}", config.listen)))?;
        let addr = listener.local_addr().map_err(|e| LinkError::Invalid(e.to_string()))?;
        listener.set_nonblocking(true).map_err(|e| LinkError::Invalid(e.to_string()))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("egm-service")
            .enable_all()
            .build()
            .map_err(|e| LinkError::Invalid(format!("the service's runtime: {e}")))?;
        let (awards, _) = broadcast::channel(256);
        let limits = config.limits.clone();
        let shared = Arc::new(server::Shared {
            acceptor: tokio_rustls::TlsAcceptor::from(Arc::new(tls)),
            db: db::Db::new(
                &config.database,
                limits.database_connections,
                db::Paces { rounds: limits.rounds_per_second, claims: limits.claims_per_second, meters: limits.meters_per_second },
            ),
            cabinets: limits::Cabinets::new(limits.clone()),
            gate: gate::Gate::new(limits.handshakes, limits.handshakes_per_address),
            connections: Semaphore::new(limits.connections),
            limits,
            awards: awards.clone(),
        });
        let (stop, stopped) = watch::channel(false);
        listen_for_awards(&config.database, awards, stopped.clone());
        let thread = std::thread::Builder::new()
            .name("egm-service".into())
            .spawn(move || {
                runtime.block_on(async move {
                    match tokio::net::TcpListener::from_std(listener) {
                        Ok(listener) => server::accept(listener, shared, stopped).await,
                        Err(e) => tracing::error!("the service's socket: {e}"),
                    }
                });
                runtime.shutdown_timeout(Duration::from_secs(1));
            })
            .map_err(|e| LinkError::Invalid(format!("the service's thread: {e}")))?;
        Ok(Service { addr, stop, thread: Some(thread) })
    }

    /// Where it listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Run until the process ends (`egm-progressive serve`).
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// M-22: the database's award notifications, passed to every watching
/// cabinet; reconnects while the service runs.
fn listen_for_awards(database: &str, awards: broadcast::Sender<String>, stop: watch::Receiver<bool>) {
    let database = database.to_owned();
    let _ = std::thread::Builder::new().name("egm-service-awards".into()).spawn(move || {
        let mut listener = None;
        while !*stop.borrow() {
            if listener.is_none() {
                listener = crate::listener::Listener::connect(&database).ok();
                if listener.is_none() {
                    std::thread::sleep(Duration::from_secs(1));
                    continue;
                }
            }
            match listener.as_mut().map(|l| l.wait(Duration::from_millis(500))) {
                Some(Ok(pools)) => {
                    for pool in pools {
                        let _ = awards.send(pool);
                    }
                }
                _ => listener = None,
            }
        }
    });
}

/// At most `n` characters of something a client sent, for a log line or
/// an answer (issue 46: a 32 MB statement once went to the log whole).
pub(crate) fn prefix(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}… ({} bytes in all)", &s[..i], s.len()),
        None => s.to_owned(),
    }
}
