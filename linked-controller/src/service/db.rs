//! The service's connections to the database: the only client of the
//! books besides operators (issue 46). Each request is one short call of
//! the service's own, on a connection no cabinet holds, made for the
//! cabinet the certificate named; the calls' statement and lock timeouts
//! are the service login's own.

use std::sync::{Arc, Mutex};

use tokio::sync::Semaphore;

use crate::controller::{Controller, LinkError};
use crate::service::prefix;
use crate::service::protocol::{Answer, MAX_ROWS, Request};

pub(crate) struct Db {
    url: String,
    idle: Mutex<Vec<Controller>>,
    slots: Semaphore,
}

impl Db {
    pub(crate) fn new(url: &str, connections: usize) -> Arc<Db> {
        Arc::new(Db { url: url.to_owned(), idle: Mutex::new(Vec::new()), slots: Semaphore::new(connections.max(1)) })
    }

    /// Serve `request` for `machine` on one of the service's connections.
    pub(crate) async fn serve(self: &Arc<Self>, machine: &str, request: Request) -> Answer {
        let Ok(_slot) = self.slots.acquire().await else { return Answer::Unavailable("the service is stopping".into()) };
        let (db, machine) = (self.clone(), machine.to_owned());
        tokio::task::spawn_blocking(move || db.serve_blocking(&machine, request))
            .await
            .unwrap_or_else(|e| Answer::Unavailable(format!("the service's call failed: {e}")))
    }

    fn serve_blocking(&self, machine: &str, request: Request) -> Answer {
        let taken = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let mut c = match taken {
            Some(c) => c,
            None => match Controller::connect(&self.url) {
                Ok(c) => c,
                Err(e) => {
                    tracing::error!("the controller's database is unreachable: {}", prefix(&e.to_string(), 300));
                    return Answer::Unavailable("the controller's database is unreachable".into());
                }
            },
        };
        let answer = c.act_for(machine).and_then(|()| call(&mut c, request));
        let (answer, keep) = match answer {
            Ok(a) => (a, true),
            Err(LinkError::Refused(reason)) => (Answer::Refused(prefix(&reason, 500)), true),
            // The controller refused the call (a pool this cabinet does not
            // play, a malformed argument): said as such.
            Err(LinkError::Db(e)) if refused(&e) => (Answer::Refused(prefix(&LinkError::Db(e).to_string(), 500)), true),
            Err(LinkError::Invalid(reason)) => (Answer::Refused(prefix(&reason, 500)), true),
            Err(e) => {
                tracing::error!("cabinet {machine}: the database did not answer: {}", prefix(&e.to_string(), 300));
                (Answer::Unavailable("the controller's database did not answer".into()), false)
            }
        };
        if keep && let Ok(mut idle) = self.idle.lock() {
            idle.push(c);
        }
        answer
    }
}

impl Drop for Db {
    /// The idle connections are closed on a thread of their own: a
    /// synchronous client may not be dropped inside the service's runtime.
    fn drop(&mut self) {
        let idle = self.idle.get_mut().map(std::mem::take).unwrap_or_default();
        if !idle.is_empty() {
            let _ = std::thread::Builder::new().name("egm-service-close".into()).spawn(move || drop(idle));
        }
    }
}

/// An error the database raised about the call itself (PL/pgSQL's raise,
/// data, integrity, syntax or access), not about the connection.
fn refused(e: &postgres::Error) -> bool {
    e.as_db_error().is_some_and(|d| ["P0", "22", "23", "42"].iter().any(|class| d.code().code().starts_with(class)))
}

fn call(c: &mut Controller, request: Request) -> Result<Answer, LinkError> {
    Ok(match request {
        Request::Contribute { rows, .. } if rows.len() > MAX_ROWS => {
            return Err(LinkError::Refused(format!("{} contributions in one request; at most {MAX_ROWS}", rows.len())));
        }
        Request::Contribute { pool, epoch, rows } => Answer::Contributed(c.contribute(&pool, &epoch, &rows)?),
        Request::Award { pool, epoch, round, level, outcome } => Answer::Claimed(c.award(&pool, &epoch, round, level, &outcome)?),
        Request::Commit { pool, epoch, round, commitment, bet } => Answer::Nonce(c.commit(&pool, &epoch, round, &commitment, &bet)?),
        Request::Reveal { pool, epoch, round, level, key } => Answer::Claimed(c.reveal(&pool, &epoch, round, level, &key)?),
        Request::Return { pool, epoch, round } => Answer::Returned(c.return_round(&pool, &epoch, round)?),
        Request::Levels { pool } => Answer::Levels(c.levels(&pool)?),
        Request::LastAwards { pool, n } => Answer::LastAwards(c.last_awards(&pool, i64::from(n.min(100)))?),
        Request::Watch => return Err(LinkError::Invalid("a watch is not a call".into())),
    })
}
