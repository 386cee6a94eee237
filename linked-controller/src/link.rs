//! A cabinet's side of the link: reconnection, availability (M-19: no
//! eligible bet after [`LINK_TIMEOUT`] without an answer) and the delivery
//! of the journaled outbox.

use std::time::Instant;

use meters::{Cents, CoreError, Machine};

use crate::cabinet::CabinetClient;
use crate::controller::{LINK_TIMEOUT, LinkError, LinkedLevel, Outcome};

/// A cabinet's link to the controller's service: reconnects, and knows
/// whether it has heard from the service within [`LINK_TIMEOUT`].
pub struct Link {
    url: String,
    controller: Option<CabinetClient>,
    last_ok: Option<Instant>,
    pub levels: Vec<LinkedLevel>,
}

impl Link {
    pub fn new(url: &str) -> Link {
        Link { url: url.to_owned(), controller: None, last_ok: None, levels: Vec::new() }
    }

    /// Whether progressive-eligible bets may be taken.
    pub fn available(&self) -> bool {
        self.last_ok.is_some_and(|t| t.elapsed() < LINK_TIMEOUT)
    }

    /// Run one call on the service, connecting first if needed; an error
    /// other than a refusal drops the connection (the next call reconnects).
    pub fn call<T>(&mut self, f: impl FnOnce(&mut CabinetClient) -> Result<T, LinkError>) -> Result<T, LinkError> {
        if self.controller.is_none() {
            self.controller = Some(CabinetClient::connect(&self.url)?);
        }
        let c = self.controller.as_mut().ok_or(LinkError::Down)?;
        match f(c) {
            Ok(v) => {
                self.last_ok = Some(Instant::now());
                Ok(v)
            }
            // The service answered: the connection is sound.
            Err(LinkError::Refused(reason)) => {
                self.last_ok = Some(Instant::now());
                Err(LinkError::Refused(reason))
            }
            Err(e) => {
                self.controller = None;
                Err(e)
            }
        }
    }

    /// The heartbeat: fetch the levels (and so learn the link is alive).
    pub fn heartbeat(&mut self, pool: &str) -> Result<(), LinkError> {
        let levels = self.call(|c| c.levels(pool))?;
        self.levels = levels;
        Ok(())
    }
}

/// Send a pool's journaled outbox (the contributions of this machine's
/// wagers, [`Machine::linked_pending`], keyed by its journal epoch) and
/// journal the controller's answer ([`journal_answer`]). `Ok(None)` when
/// the controller did not answer: the contributions stay queued for the
/// next try; `Ok(Some(n))` when it answered for `n`. This call waits for
/// the network: a cabinet's session makes it from its link worker instead
/// (`game_host::link_worker`).
pub fn deliver_outbox(machine: &mut Machine, link: &mut Link, pool: &str) -> Result<Option<usize>, CoreError> {
    let Some((epoch, pending)) = outbox(machine, pool)? else { return Ok(Some(0)) };
    journal_answer(machine, pool, link.call(|c| c.contribute(pool, &epoch, &pending)))
}

/// A pool's outbox as the controller takes it: this machine's journal
/// epoch and its queued (round, wager) rows.
pub type Outbox = (String, Vec<(u64, Cents)>);

/// A pool's [`Outbox`]; `None` when nothing is queued.
pub fn outbox(machine: &Machine, pool: &str) -> Result<Option<Outbox>, CoreError> {
    let pending: Vec<(u64, Cents)> = machine.linked_pending().into_iter().filter(|p| p.0 == pool).map(|p| (p.1, p.2)).collect();
    if pending.is_empty() {
        return Ok(None);
    }
    let epoch = machine.epoch_id().to_owned();
    if epoch.is_empty() {
        return Err(CoreError::Progressive("critical memory has no journal epoch identifier (it was begun before issue 13): a RAM clear starts one".into()));
    }
    Ok(Some((epoch, pending)))
}

/// Journal the controller's answer to a delivery of `pool`'s outbox:
/// acknowledged rows leave the outbox, and so do refused ones, each with
/// the controller's reason (issue 13: a bad row never blocks the rest).
/// `Ok(None)` when the controller did not answer.
pub fn journal_answer(machine: &mut Machine, pool: &str, answer: Result<Vec<(u64, Outcome)>, LinkError>) -> Result<Option<usize>, CoreError> {
    match answer {
        Ok(answers) => {
            let taken: Vec<u64> = answers.iter().filter(|a| !matches!(a.1, Outcome::Refused(_))).map(|a| a.0).collect();
            machine.linked_delivered(pool, taken)?;
            for (round, outcome) in &answers {
                if let Outcome::Refused(reason) = outcome {
                    machine.linked_refused(pool, *round, reason)?;
                }
            }
            Ok(Some(answers.len()))
        }
        // The controller answered, and refused the whole call (a pool it
        // does not have or this cabinet does not play, an epoch it does not
        // take): said as such, never taken for a controller that did not
        // answer. A service or database starting up or shutting down did
        // not answer.
        Err(LinkError::Refused(reason)) => Err(CoreError::Progressive(format!("the controller refused this cabinet's contributions to {pool}: {reason}"))),
        Err(_) => Ok(None),
    }
}
