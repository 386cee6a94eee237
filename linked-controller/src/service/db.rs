//! The service's connections to the database: the only client of the
//! books besides operators (issue 46). Each request is one short call of
//! the service's own, on a connection no cabinet holds, made for the
//! cabinet the certificate named; the calls' statement and lock timeouts
//! are the service login's own.

use std::sync::{Arc, Condvar, Mutex};

use tokio::sync::{Semaphore, oneshot};

use meters::Cents;

use crate::controller::{Controller, LinkError, Outcome};
use crate::service::prefix;
use crate::service::protocol::{Answer, MAX_ROWS, Request};

pub(crate) struct Db {
    url: String,
    /// The service's paces per cabinet, which the controller holds across
    /// every instance (issue 69).
    paces: Paces,
    idle: Mutex<Vec<Controller>>,
    slots: Semaphore,
    /// Contributions waiting for the next group commit.
    queue: Arc<(Mutex<Queue>, Condvar)>,
}

/// What one cabinet may do a second, held by the controller across every
/// instance of the service (issue 69: each instance's own limits are per
/// process): committed rounds (a parameter of `egm.commit`), claims and
/// meter reports (settings of each connection, `egm.service_pace`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Paces {
    pub(crate) rounds: u64,
    pub(crate) claims: u64,
    pub(crate) meters: u64,
}

impl Paces {
    /// A connection to the controller's database that holds cabinets to
    /// these paces.
    fn connect(&self, url: &str) -> Result<Controller, LinkError> {
        let mut c = Controller::connect(url)?;
        c.set_paces(self.claims, self.meters)?;
        Ok(c)
    }
}

/// One cabinet's contributions, waiting to be committed with others'.
struct Queued {
    machine: String,
    pool: String,
    epoch: String,
    rows: Vec<(u64, Cents)>,
    answer: oneshot::Sender<Answer>,
}

#[derive(Default)]
struct Queue {
    waiting: Vec<Queued>,
    stopped: bool,
}

/// The most contributions' requests one group commit takes.
const GROUP: usize = 256;
/// Group commits under way at once, each on its own connection: while one
/// waits for its commit to reach the disk, the next group's rows are
/// already being written (both then add to the levels in the pools' order).
const GROUP_WORKERS: usize = 2;

impl Db {
    pub(crate) fn new(url: &str, connections: usize, paces: Paces) -> Arc<Db> {
        let queue = Arc::new((Mutex::new(Queue::default()), Condvar::new()));
        for i in 0..GROUP_WORKERS {
            let (worker_url, worker_queue) = (url.to_owned(), queue.clone());
            let _ = std::thread::Builder::new().name(format!("egm-service-contributions-{i}")).spawn(move || group_commits(&worker_url, paces, &worker_queue));
        }
        Arc::new(Db { url: url.to_owned(), paces, idle: Mutex::new(Vec::new()), slots: Semaphore::new(connections.max(1)), queue })
    }

    /// Serve `request` for `machine` on one of the service's connections;
    /// contributions go with every other cabinet's waiting then, in one
    /// transaction (a group commit: every contribution updates the same
    /// level rows, so one at a time they serialise on the row lock and the
    /// commit).
    pub(crate) async fn serve(self: &Arc<Self>, machine: &str, request: Request) -> Answer {
        if let Request::Contribute { pool, epoch, rows } = request {
            if rows.len() > MAX_ROWS {
                return Answer::Refused(format!("{} contributions in one request; at most {MAX_ROWS}", rows.len()));
            }
            let (answer, answered) = oneshot::channel();
            let (lock, ready) = &*self.queue;
            match lock.lock() {
                Ok(mut q) => q.waiting.push(Queued { machine: machine.to_owned(), pool, epoch, rows, answer }),
                Err(_) => return Answer::Unavailable("the service's queue is unavailable".into()),
            }
            ready.notify_one();
            return answered.await.unwrap_or_else(|_| Answer::Unavailable("the service stopped".into()));
        }
        self.serve_call(machine, request).await
    }

    async fn serve_call(self: &Arc<Self>, machine: &str, request: Request) -> Answer {
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
            None => match self.paces.connect(&self.url) {
                Ok(c) => c,
                Err(e) => {
                    tracing::error!("the controller's database is unreachable: {}", prefix(&e.to_string(), 300));
                    return Answer::Unavailable("the controller's database is unreachable".into());
                }
            },
        };
        let mut answer = c.act_for(machine).and_then(|()| call(&mut c, request.clone(), self.paces.rounds));
        // Issue 69: two instances deciding one claim at once — the loser's
        // insert meets the winner's row, or their transactions conflict.
        // Every call is idempotent (asked again, the same answer), so it is
        // asked again, twice at most; a raw database error never reaches a
        // cabinet.
        for _ in 0..2 {
            match &answer {
                Err(LinkError::Db(e)) if contended(e) => answer = call(&mut c, request.clone(), self.paces.rounds),
                _ => break,
            }
        }
        let (answer, keep) = match answer {
            Ok(a) => (a, true),
            Err(LinkError::Refused(reason)) => (Answer::Refused(prefix(&reason, 500)), true),
            // Issue 69: over the pace held across the service's instances:
            // asked again later, nothing was done.
            Err(LinkError::Db(e)) if paced(&e) => {
                let why = e.as_db_error().map_or_else(|| "over its pace".to_owned(), |d| d.message().to_owned());
                tracing::warn!(cabinet = %machine, reason = %prefix(&why, 300), "paced");
                (Answer::Unavailable(prefix(&why, 300)), true)
            }
            // The controller refused the call (a pool this cabinet does not
            // play, a malformed argument): said in its own words.
            Err(LinkError::Db(e)) if refused(&e) => (Answer::Refused(prefix(&refusal_of(&e), 500)), true),
            Err(LinkError::Invalid(reason)) => (Answer::Refused(prefix(&reason, 500)), true),
            Err(e) => {
                tracing::error!("cabinet {machine}: the database did not answer: {}", prefix(&e.to_string(), 300));
                (Answer::Unavailable("the controller's database did not answer".into()), false)
            }
        };
        // Issue 69: every refusal in the service's log, with its cabinet.
        if let Answer::Refused(reason) = &answer {
            tracing::warn!(cabinet = machine, reason = reason.as_str(), "refused");
        }
        if keep && let Ok(mut idle) = self.idle.lock() {
            idle.push(c);
        }
        answer
    }
}

impl Drop for Db {
    /// The idle connections are closed on a thread of their own: a
    /// synchronous client may not be dropped inside the service's runtime;
    /// the group-commit thread stops.
    fn drop(&mut self) {
        if let Ok(mut q) = self.queue.0.lock() {
            q.stopped = true;
        }
        self.queue.1.notify_all();
        let idle = self.idle.get_mut().map(std::mem::take).unwrap_or_default();
        if !idle.is_empty() {
            let _ = std::thread::Builder::new().name("egm-service-close".into()).spawn(move || drop(idle));
        }
    }
}

/// The group-commit thread: takes every contribution waiting, commits
/// them in one transaction on its own connection, and answers each. Should
/// one call fail inside it (a pool the cabinet does not play…), the
/// transaction is rolled back and each is made again in a transaction of
/// its own, so one cabinet's refusal is never another's.
fn group_commits(url: &str, paces: Paces, queue: &(Mutex<Queue>, Condvar)) {
    let (lock, ready) = queue;
    let mut conn: Option<Controller> = None;
    loop {
        let batch: Vec<Queued> = {
            let Ok(mut q) = lock.lock() else { return };
            while q.waiting.is_empty() && !q.stopped {
                q = match ready.wait(q) {
                    Ok(q) => q,
                    Err(_) => return,
                };
            }
            if q.stopped {
                return;
            }
            let n = q.waiting.len().min(GROUP);
            q.waiting.drain(..n).collect()
        };
        if conn.is_none() {
            conn = paces.connect(url).ok();
        }
        let Some(c) = conn.as_mut() else {
            for item in batch {
                let _ = item.answer.send(Answer::Unavailable("the controller's database is unreachable".into()));
            }
            continue;
        };
        match commit_group(c, &batch) {
            Ok(answers) => {
                for (item, answer) in batch.into_iter().zip(answers) {
                    let _ = item.answer.send(answer);
                }
            }
            Err(GroupFailed::Call) => {
                // One by one: each cabinet's own answer.
                for item in batch {
                    let answer = commit_group(c, std::slice::from_ref(&item)).map_or_else(
                        |e| match e {
                            GroupFailed::Call => single_refusal(c, &item),
                            GroupFailed::Connection => Answer::Unavailable("the controller's database did not answer".into()),
                        },
                        |mut a| a.pop().unwrap_or_else(|| Answer::Unavailable("no answer".into())),
                    );
                    let _ = item.answer.send(answer);
                }
            }
            Err(GroupFailed::Connection) => {
                conn = None;
                for item in batch {
                    let _ = item.answer.send(Answer::Unavailable("the controller's database did not answer".into()));
                }
            }
        }
    }
}

enum GroupFailed {
    /// A call raised: the transaction was rolled back.
    Call,
    /// The connection failed.
    Connection,
}

/// Every queued contribution in one call of one transaction
/// (`egm.contribute_group`); each one's answer.
fn commit_group(c: &mut Controller, batch: &[Queued]) -> Result<Vec<Answer>, GroupFailed> {
    let machines: Vec<&str> = batch.iter().map(|q| q.machine.as_str()).collect();
    let pools: Vec<&str> = batch.iter().map(|q| q.pool.as_str()).collect();
    let epochs: Vec<&str> = batch.iter().map(|q| q.epoch.as_str()).collect();
    let counts: Vec<i32> = batch.iter().map(|q| i32::try_from(q.rows.len()).unwrap_or(i32::MAX)).collect();
    // A round past i64 goes as -1, which the controller refuses (and logs).
    let rounds: Vec<i64> = batch.iter().flat_map(|q| q.rows.iter().map(|r| i64::try_from(r.0).unwrap_or(-1))).collect();
    let wagers: Vec<String> = batch.iter().flat_map(|q| q.rows.iter().map(|r| r.1.to_string())).collect();
    let rows = c
        .client()
        .query(
            "SELECT out_item, out_round, out_outcome, out_refusal FROM egm.contribute_group($1, $2, $3, $4, $5, $6)",
            &[&machines, &pools, &epochs, &counts, &rounds, &wagers],
        )
        .map_err(|e| if refused(&e) { GroupFailed::Call } else { GroupFailed::Connection })?;
    let mut answers: Vec<Answer> = batch.iter().map(|_| Answer::Contributed(Vec::new())).collect();
    for row in &rows {
        let item: i32 = row.get(0);
        let Some(answer) = usize::try_from(item).ok().and_then(|i| i.checked_sub(1)).and_then(|i| answers.get_mut(i)) else { continue };
        match (row.get::<_, Option<i64>>(1), row.get::<_, Option<String>>(2), row.get::<_, Option<String>>(3)) {
            (_, _, Some(reason)) => *answer = Answer::Refused(prefix(&reason, 500)),
            (Some(round), Some(outcome), None) => {
                if let Answer::Contributed(list) = answer {
                    let outcome = match outcome.as_str() {
                        "accepted" => Outcome::Accepted,
                        "duplicate" => Outcome::Duplicate,
                        other => Outcome::Refused(other.trim_start_matches("refused: ").to_owned()),
                    };
                    list.push((u64::try_from(round).unwrap_or(0), outcome));
                }
            }
            _ => *answer = Answer::Unavailable("the controller answered a row of nothing".into()),
        }
    }
    // Each answered row for row, in the order sent (the cabinet's rounds).
    for (answer, q) in answers.iter_mut().zip(batch) {
        if let Answer::Contributed(list) = answer {
            if list.len() != q.rows.len() {
                *answer = Answer::Unavailable(format!("the controller answered {} of {} contributions", list.len(), q.rows.len()));
            } else {
                for (row, sent) in list.iter_mut().zip(&q.rows) {
                    row.0 = sent.0;
                }
            }
        }
    }
    Ok(answers)
}

/// The controller's refusal of one cabinet's call, said again on its own.
fn single_refusal(c: &mut Controller, item: &Queued) -> Answer {
    match c.contribute_as(Some(&item.machine), &item.pool, &item.epoch, &item.rows) {
        Ok(rows) => Answer::Contributed(rows),
        Err(LinkError::Db(e)) if refused(&e) => Answer::Refused(prefix(&refusal_of(&e), 500)),
        Err(e) => Answer::Refused(prefix(&e.to_string(), 500)),
    }
}

/// An error the database raised about the call itself (PL/pgSQL's raise,
/// data, integrity, syntax or access), not about the connection.
fn refused(e: &postgres::Error) -> bool {
    e.as_db_error().is_some_and(|d| ["P0", "22", "23", "42"].iter().any(|class| d.code().code().starts_with(class)))
}

/// A cabinet over the pace the controller holds across instances
/// (SQLSTATE 53400, configuration_limit_exceeded).
fn paced(e: &postgres::Error) -> bool {
    e.as_db_error().is_some_and(|d| d.code().code() == "53400")
}

/// A call that lost a race with the same call on another connection: a
/// unique violation (the other's row is there now), a serialization
/// failure or a deadlock. Asked again, it answers as the winner did.
fn contended(e: &postgres::Error) -> bool {
    e.as_db_error().is_some_and(|d| ["23505", "40001", "40P01"].contains(&d.code().code()))
}

/// A refusal in the controller's own words: the reason a PL/pgSQL check
/// raised; for any other database error its class alone, never the
/// database's text (a constraint's name, a value, a statement).
fn refusal_of(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(d) if d.code().code().starts_with("P0") => format!("progressive controller: {}", d.message()),
        Some(d) if d.code().code().starts_with("22") => "the controller refused the call: a value is out of range or malformed".into(),
        Some(d) if d.code().code().starts_with("23") => "the controller refused the call: it contradicts what the controller holds".into(),
        Some(_) => "the controller refused the call".into(),
        None => "the controller refused the call".into(),
    }
}

fn call(c: &mut Controller, request: Request, pace: u64) -> Result<Answer, LinkError> {
    Ok(match request {
        // Contributions go to the group commit (`Db::serve`), never here.
        Request::Contribute { .. } => return Err(LinkError::Invalid("contributions are committed in groups".into())),
        Request::Award { pool, epoch, round, level, outcome } => Answer::Claimed(c.plain_award(&pool, &epoch, round, level, &outcome)?),
        Request::Commit { pool, epoch, round, commitment, bet } => Answer::Nonce(c.commit(&pool, &epoch, round, &commitment, &bet, pace)?),
        Request::Reveal { pool, epoch, round, level, key } => Answer::Claimed(c.reveal(&pool, &epoch, round, level, &key)?),
        Request::Return { pool, epoch, round } => Answer::Returned(c.return_round(&pool, &epoch, round)?),
        Request::Meter { pool, epoch, meter } => {
            c.report_meter(&pool, &epoch, &meter)?;
            Answer::Recorded
        }
        // Issue 69: only a pool assigned to the cabinet is read for it.
        Request::Levels { pool } => {
            c.check_assigned(&pool)?;
            Answer::Levels(c.levels(&pool)?)
        }
        Request::LastAwards { pool, n } => {
            c.check_assigned(&pool)?;
            Answer::LastAwards(c.last_awards(&pool, i64::from(n.min(100)))?)
        }
        Request::Watch => return Err(LinkError::Invalid("a watch is not a call".into())),
    })
}
