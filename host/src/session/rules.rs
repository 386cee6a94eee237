//! The session rules (M-35, M-38, M-39): inactivity, demonstration play,
//! the session's time and credit limits.

use std::time::{Duration, Instant};

use super::Session;
use crate::notice::{Notice, Warning};

/// How often the host tends what waits on a linked controller (an outbox
/// to deliver, a round to void) while nothing else happens.
const LINK_RETRY: Duration = Duration::from_secs(1);

/// How many seconds before the M-35 end of an idle session the M-38
/// warning starts: half the timeout, at most 30.
fn warning_lead(timeout_s: u64) -> u64 {
    (timeout_s / 2).min(30)
}

impl Session {
    /// The player pressed something: the inactivity clock restarts.
    pub fn touch(&mut self) {
        let now = std::time::Instant::now();
        self.last_activity = now;
        self.touched = Some(now);
    }

    /// Whether this is a demonstration cabinet (M-39).
    pub fn demo(&self) -> bool {
        self.config.demo
    }

    /// An evaluation cabinet's mark (issue 47, holes 2 and 8): production
    /// on a software TPM, shown on every player screen for as long as it
    /// runs so; `None` on a TPM chip and in lab mode.
    pub fn evaluation_mark(&self) -> Option<&'static str> {
        let m = self.machine.config();
        (m.mode == meters::Mode::Production && m.evaluation).then(|| self.t("AVALIAÇÃO: TPM DE SOFTWARE"))
    }

    /// What an evaluation cabinet cannot protect (the audit menu and the
    /// boot log say it in full).
    pub fn evaluation_limits(&self) -> Option<&'static str> {
        self.evaluation_mark().map(|_| {
            self.t("O estado do TPM de software é um ficheiro: quem o copia e repõe com os ficheiros do armário desfaz jogo e pagamentos, e a sua hierarquia de plataforma aberta apaga o que é devido. Não serve uma sala de jogo.")
        })
    }

    pub(super) fn refuse_in_demo(&mut self) -> bool {
        if self.demo() {
            self.fail(Notice::Demonstration);
        }
        self.demo()
    }

    /// Once a second: the M-38 warnings, and the end of an idle session
    /// (M-35: the operator may end it when no play is made in the set time;
    /// the credit is cashed out on a ticket).
    pub fn tend_session(&mut self) {
        let credit = self.machine.credit();
        if self.in_round() || credit == 0 {
            self.last_activity = std::time::Instant::now();
        }
        let timeout = u64::from(self.config.inactivity_timeout_s);
        let idle = self.last_activity.elapsed().as_secs();
        let lead = warning_lead(timeout);
        let mut warning = None;
        if timeout > 0 && credit > 0 && idle >= timeout {
            tracing::warn!("M-35 session ended: no play for {idle} s; credit {credit} cents cashed out");
            self.last_activity = std::time::Instant::now();
            if self.demo() {
                self.message = Some(Notice::DemonstrationEnded);
            } else {
                self.cash_out();
                let then = self.message.take().map(Box::new);
                self.message = Some(Notice::SessionEnded { then });
            }
        } else if timeout > 0 && credit > 0 && idle + lead >= timeout {
            warning = Some(Warning::SessionEnding { seconds: timeout - idle });
        } else if credit > 0 && credit < self.stake_cents() && !self.in_round() {
            warning = Some(Warning::CreditShort);
        } else if let Some(p) = self.linked.iter().find(|p| p.setup.games.iter().any(|g| g == self.game().id()) && !p.view().available()) {
            warning = Some(match p.setup.when_unreachable {
                crate::config::WhenUnreachable::Stop => Warning::LinkDown { pool: p.setup.pool.clone() },
                crate::config::WhenUnreachable::PlayUnlinked => Warning::PlayingUnlinked { pool: p.setup.pool.clone() },
            });
        }
        if let Some(w) = warning.as_ref().filter(|w| self.warning.as_ref() != Some(*w)) {
            tracing::info!("M-38 warning: {}", w.text(self.lang));
        }
        self.warning = warning;
    }
}

impl Session {
    /// How long until the host next has something to do or to show with
    /// nobody touching the cabinet (issue 45: a cabinet draws nothing while
    /// nothing moves, and sleeps until then): the attract loop falling due,
    /// an M-38 warning to start or count down, the M-35 end of an idle
    /// session, a linked outbox to deliver, a link to declare down (M-22).
    /// None: nothing falls due until something happens (a touch, money,
    /// news from a link, which wakes the screen itself).
    pub fn next_due(&self) -> Option<Duration> {
        let mut due: Option<Duration> = None;
        let mut at = |d: Duration| due = Some(due.map_or(d, |x| x.min(d)));
        let credit = self.machine.credit();
        let after = Duration::from_secs(u64::from(self.config.attract_after_s));
        if self.attract_may_come()
            && !after.is_zero()
            && let Some(touched) = self.touched
        {
            // A moment past the whole second the rule counts in.
            at(after.saturating_sub(touched.elapsed()) + Duration::from_millis(50));
        }
        let timeout = u64::from(self.config.inactivity_timeout_s);
        if credit > 0 && timeout > 0 && !self.in_round() {
            // The warning starts `lead` seconds before the end (tend_session)
            // and counts down each second from then.
            let warn_from = Duration::from_secs(timeout - warning_lead(timeout));
            let idle = self.last_activity.elapsed();
            at(if idle < warn_from { warn_from - idle + Duration::from_millis(50) } else { Duration::from_secs(1) });
        }
        let pending = if self.linked.is_empty() { Vec::new() } else { self.machine.linked_pending() };
        if self.linked.iter().any(|p| pending.iter().any(|(pool, _, _)| *pool == p.setup.pool)) {
            at(LINK_RETRY);
        }
        for pool in &self.linked {
            let view = pool.view();
            if let Some(heard) = view.last_answer.filter(|_| view.available()) {
                at((heard + linked_controller::LINK_TIMEOUT).saturating_duration_since(Instant::now()) + Duration::from_millis(50));
            }
        }
        due
    }

    /// Give the screen a waker for news from the host's own threads (the
    /// linked pools' watchers: a new value, an award, the link back).
    pub fn on_news(&mut self, waker: crate::wake::Waker) {
        self.wake.set(waker);
    }
}
