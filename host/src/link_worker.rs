//! The session's calls to a linked pool's controller, made on a worker
//! thread of their own (issue 35, attack 4): the session — and the screen
//! that drives it — never waits on the network. A call is sent once and
//! answered later; the session asks again at its next tending and takes
//! the answer when it is there. Every call is idempotent at the controller
//! (a contribution is keyed, an award asked again is the same award, a
//! commitment asked again is the same nonce), so a call sent twice, or an
//! answer never taken, does no harm.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

use linked_controller::{Claimed, Link, LinkError, Outcome};
use meters::{Cents, CoreError, Machine};

/// A call to the controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Call {
    Contribute {
        epoch: String,
        batch: Vec<(u64, Cents)>,
    },
    Award {
        epoch: String,
        round: u64,
        level: usize,
        claim: String,
    },
    /// Issue 46: commit the next round before it is drawn.
    Commit {
        epoch: String,
        round: u64,
        commitment: String,
        bet: linked_controller::ReelBet,
    },
    /// Issue 46: claim a committed round's level by revealing its key.
    Reveal {
        epoch: String,
        round: u64,
        level: usize,
        key: String,
    },
    /// Issue 46: this cabinet's own meter of the pool, for reconciliation.
    Meter {
        epoch: String,
        meter: linked_controller::CabinetMeter,
    },
}

/// The controller's answer to a delivery, row by row.
type Delivered = Result<Vec<(u64, Outcome)>, LinkError>;

/// The controller's answer, or why there is none.
#[derive(Debug)]
pub(crate) enum Answer {
    Contributed(Delivered),
    Awarded(Result<Claimed, LinkError>),
    /// The committed round's nonce (hex).
    Committed(Result<String, LinkError>),
    Recorded(Result<(), LinkError>),
}

/// One pool's worker: a thread with its own connection, its calls in
/// order.
pub struct LinkWorker {
    calls: Sender<Call>,
    answers: Arc<Mutex<Vec<(Call, Answer)>>>,
    /// Sent and not yet taken.
    asked: Vec<Call>,
}

impl LinkWorker {
    pub(crate) fn start(url: &str, pool: &str) -> LinkWorker {
        let (calls, rx) = channel();
        let answers = Arc::new(Mutex::new(Vec::new()));
        let (url, pool, out) = (url.to_owned(), pool.to_owned(), answers.clone());
        // Not joined on drop: a call in flight ends with its own timeouts.
        let _ = std::thread::Builder::new().name(format!("link-{pool}")).spawn(move || work(&url, &pool, &rx, &out));
        LinkWorker { calls, answers, asked: Vec::new() }
    }

    /// The answer to `call` when the worker has it; otherwise `call` is
    /// sent (unless it already is) and the answer is taken at a later ask.
    pub(crate) fn ask(&mut self, call: &Call) -> Option<Answer> {
        let taken = self.answers.lock().ok().and_then(|mut answers| answers.iter().position(|(c, _)| c == call).map(|i| answers.remove(i).1));
        if taken.is_some() {
            self.asked.retain(|c| c != call);
            return taken;
        }
        if !self.asked.contains(call) && self.calls.send(call.clone()).is_ok() {
            self.asked.push(call.clone());
        }
        None
    }

    /// Issue 46: report a meter of this cabinet's journal: the answer to
    /// the last meter sent when the worker has it (which meter, and
    /// whether it was recorded); `meter` is sent only while no other is in
    /// flight, so an answer is never left behind.
    pub(crate) fn report_meter(&mut self, epoch: &str, meter: linked_controller::CabinetMeter) -> Option<(Call, Result<(), LinkError>)> {
        let is_meter = |c: &Call| matches!(c, Call::Meter { .. });
        let taken = self.answers.lock().ok().and_then(|mut answers| {
            let i = answers.iter().position(|(c, _)| is_meter(c))?;
            match answers.remove(i) {
                (call, Answer::Recorded(r)) => Some((call, r)),
                _ => None,
            }
        });
        if let Some((call, _)) = &taken {
            self.asked.retain(|c| c != call);
        }
        if taken.is_none() && !self.asked.iter().any(is_meter) {
            let call = Call::Meter { epoch: epoch.to_owned(), meter };
            if self.calls.send(call.clone()).is_ok() {
                self.asked.push(call);
            }
        }
        taken
    }

    /// Every delivery's answer the worker has, whichever outbox it sent.
    fn take_contributions(&mut self) -> Vec<(Call, Delivered)> {
        let Ok(mut answers) = self.answers.lock() else { return Vec::new() };
        let mut taken = Vec::new();
        let mut i = 0;
        while i < answers.len() {
            if matches!(answers[i].1, Answer::Contributed(_)) {
                let (call, answer) = answers.remove(i);
                if let Answer::Contributed(a) = answer {
                    taken.push((call, a));
                }
            } else {
                i += 1;
            }
        }
        drop(answers);
        self.asked.retain(|c| !taken.iter().any(|(t, _)| t == c));
        taken
    }

    /// Deliver `pool`'s outbox without waiting: journal every answer the
    /// worker has (its rows still queued, of this epoch), then send what is
    /// still queued. `Ok(Some(0))` once nothing is queued; `Ok(None)`
    /// while something is (sent, or to be sent again).
    pub(crate) fn deliver(&mut self, machine: &mut Machine, pool: &str) -> Result<Option<usize>, CoreError> {
        for (call, answer) in self.take_contributions() {
            let Call::Contribute { epoch, .. } = call else { continue };
            if epoch != machine.epoch_id() {
                continue;
            }
            let queued: Vec<u64> = machine.linked_pending().into_iter().filter(|p| p.0 == pool).map(|p| p.1).collect();
            let answer = answer.map(|rows| rows.into_iter().filter(|(round, _)| queued.contains(round)).collect());
            linked_controller::journal_answer(machine, pool, answer)?;
        }
        match linked_controller::outbox(machine, pool)? {
            None => Ok(Some(0)),
            Some((epoch, batch)) => {
                // One delivery at a time: rows queued meanwhile go with the
                // next, after its answer.
                if !self.asked.iter().any(|c| matches!(c, Call::Contribute { .. })) {
                    self.ask(&Call::Contribute { epoch, batch });
                }
                Ok(None)
            }
        }
    }
}

fn work(url: &str, pool: &str, calls: &Receiver<Call>, answers: &Mutex<Vec<(Call, Answer)>>) {
    let mut link = Link::new(url);
    while let Ok(call) = calls.recv() {
        let answer = match &call {
            Call::Contribute { epoch, batch } => Answer::Contributed(link.call(|c| c.contribute(pool, epoch, batch))),
            Call::Award { epoch, round, level, claim } => Answer::Awarded(link.call(|c| c.award(pool, epoch, *round, *level, claim))),
            Call::Commit { epoch, round, commitment, bet } => Answer::Committed(link.call(|c| c.commit(pool, epoch, *round, commitment, bet))),
            Call::Reveal { epoch, round, level, key } => Answer::Awarded(link.call(|c| c.reveal(pool, epoch, *round, *level, key))),
            Call::Meter { epoch, meter } => Answer::Recorded(link.call(|c| c.report_meter(pool, epoch, *meter))),
        };
        // Kept until asked for: every call is the session's, one
        // delivery at a time, one award per level and round, one commitment.
        let Ok(mut kept) = answers.lock() else { return };
        kept.retain(|(c, _)| c != &call);
        kept.push((call, answer));
    }
}
