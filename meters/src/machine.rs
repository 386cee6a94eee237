//! The machine: the only way anything reaches critical memory.
//!
//! Every command checks what the rules require, builds its journal entries,
//! commits them in one durable transaction and only then folds them into the
//! live state. A game's outcome is drawn by the core itself, under the RNG
//! lock, and committed with its stake and draw count in one call
//! ([`Machine::play_round`], [`Machine::draw_step`]) before anything is
//! shown; the cabinet only animates what is committed.

mod anchoring;
mod key_lost;
mod linked;
mod ram_clear;
pub use key_lost::KeyLostClear;

use std::path::Path;

pub use anchoring::AnchorWear;

use crate::anchor::AnchorReason;
use crate::config::{ConfigError, MachineConfig, Mode};
use crate::credential::CredentialRecord;
use crate::journal::{Entry, HandpayKind, ProgressiveAward, Step, Tilt, TransferTarget, WHOLE_LEVEL, WinComponent, WinPayment};
use crate::keystore::{self, KeyStore};
use crate::meters::Door;
use crate::money::Cents;
use crate::progressive::PoolConfig;
use crate::rng::{CoreRng, Draw, GameRng, RngError, SeedSource};
use crate::state::{AuditFailure, CriticalState, OpenRound, PendingHandpay};
use crate::store::{Anchor, IntegrityError, RamClearRecord, Record, Store, StoreError};
use crate::ticket::{self, Ticket};

/// How the live generator is seeded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedChoice {
    /// OS entropy mixed with the persisted carry: production.
    Entropy,
    /// A reproducible seed: refused unless the configuration is in lab
    /// mode; it exists only in the lab build.
    #[cfg(feature = "lab")]
    Lab(u64),
}

#[derive(Debug, thiserror::Error)]
pub enum BootError {
    #[error("invalid machine configuration: {0}")]
    Config(#[from] ConfigError),
    #[cfg(feature = "lab")]
    #[error("a reproducible RNG seed is refused in production mode; it exists only in lab configurations")]
    LabSeedRefused,
    #[error("critical memory fault (RAM error), play disabled: {0}")]
    RamError(IntegrityError),
    #[error("{0}")]
    Store(StoreError),
    #[error("{0}")]
    Rng(#[from] RngError),
    #[error("RAM clear refused: operator authentication failed")]
    AuthenticationFailed,
    #[error("RAM clear refused: too many failed tries, locked out for {seconds} s more")]
    LockedOut { seconds: i64 },
    #[error("RAM clear refused: the logic door must be open (D-32)")]
    LogicDoorClosed,
    #[error("RAM clear refused: this machine has no credential record, and its journal cannot say whose the machine is")]
    NoCredential,
    #[error("the operator credential can be changed only with the logic door open (the configuration names another than the machine's record)")]
    CredentialChangeRefused,
    #[error("this cabinet was never provisioned: production boots only a provisioned machine (`egm-lab provision`)")]
    NotProvisioned,
    #[error("critical memory is already provisioned (machine {0}): a machine is provisioned once")]
    AlreadyProvisioned(String),
    #[error("critical memory belongs to machine {journal}, the configuration names {config}")]
    ForeignMachine { journal: String, config: String },
    #[error("the file stand-in for the key store is for development and labs only: production needs a TPM (key_store: Tpm)")]
    StandInRefused,
    #[error("a key-lost RAM clear is refused: {0}")]
    KeyNotLost(String),
}

impl From<StoreError> for BootError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Integrity(i) => BootError::RamError(i),
            other => BootError::Store(other),
        }
    }
}

/// Why play (or money in, or cash-out) is refused right now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayBlock {
    #[error("critical memory fault: {0}")]
    CriticalMemory(String),
    #[error("door open: {0:?}")]
    DoorOpen(Door),
    #[error("tilt: {0:?}")]
    Tilt(Tilt),
    #[error("hand-pay {0} awaits an attendant")]
    HandpayPending(u64),
    #[error("round {0} is in progress")]
    RoundInProgress(u64),
}

#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    #[error("refused: {0}")]
    Blocked(#[from] PlayBlock),
    #[error("{0}")]
    SelfAudit(#[from] AuditFailure),
    #[error("critical memory fault: {0}")]
    CriticalMemory(String),
    #[error("insufficient credit: {credit} cents on the meter, {needed} needed")]
    InsufficientCredit { credit: Cents, needed: Cents },
    #[error("denomination {0} cents is not configured")]
    UnknownDenomination(Cents),
    #[error("stake {stake} cents is not a whole number of {denom}-cent credits")]
    StakeNotWholeCredits { stake: Cents, denom: Cents },
    #[error("a game needs a stake greater than zero")]
    ZeroStake,
    #[error("no round {0} is open")]
    NoSuchRound(u64),
    #[error("note refused: {0}")]
    NoteRejected(String),
    #[error("ticket refused: {0}")]
    TicketRejected(String),
    #[error("there is no credit to cash out")]
    NothingToCashOut,
    #[error("no hand-pay {0} is pending")]
    NoSuchHandpay(u64),
    #[error("{0:?} is not active")]
    TiltNotActive(Tilt),
    #[error("{0:?} clears only when its cause is gone")]
    TiltStillCaused(Tilt),
    #[error("random number generator: {0}")]
    Rng(#[from] RngError),
    #[error("progressive: {0}")]
    Progressive(String),
    #[error("no game named {0:?}")]
    UnknownGame(String),
    #[error("the game's draw failed: {0}")]
    DrawFailed(String),
    #[error("refused by critical memory: {0}")]
    Refused(String),
    #[error("a win of {win} cents is above the configured maximum of {max} cents: refused")]
    WinAboveMaximum { win: Cents, max: Cents },
    #[error("a side bet of {side_stake} cents needs a main wager beside it (stake {stake} cents)")]
    SideBetNotBeside { stake: Cents, side_stake: Cents },
}

/// What a settlement did with the win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    pub round: u64,
    pub win: Cents,
    pub payment: WinPayment,
    pub credit_after: Cents,
}

/// What a cash-out produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CashOut {
    /// A printed ticket (cancelamento de créditos, bilhetes codificados pagos).
    Ticket(Ticket),
    /// Above the ticket-out limit: locked up for an attendant (M-12).
    Handpay { id: u64, amount: Cents },
}

/// One round as recall shows it (M-15, M-34, E-33).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RoundRecall {
    pub round: u64,
    pub game: String,
    pub denom: Cents,
    pub started_utc: String,
    pub credit_before: Cents,
    pub stake: Cents,
    pub steps: Vec<RecallStep>,
    pub outcome: RecallOutcome,
    /// Steps at which the round was resumed after a power loss (M-36).
    pub resumed_at: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RecallStep {
    pub at_utc: String,
    pub step: Step,
    pub extra_stake: Cents,
    /// RNG values the core drew for this step.
    pub draws: u64,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum RecallOutcome {
    InProgress,
    Settled { win: Cents, components: Vec<WinComponent>, payment: WinPayment, credit_after: Cents },
    Voided { refund: Cents, reason: String, credit_after: Cents },
}

pub struct Machine {
    store: Store,
    state: CriticalState,
    config: MachineConfig,
    rng: CoreRng,
    /// A write to critical memory failed: nothing more is accepted until a
    /// restart re-verifies the file.
    fault: Option<String>,
    /// The key store: the journal key came from it; the anchor counter is
    /// in it.
    keys: Box<dyn KeyStore>,
    /// When the last anchor was made (the play-time tick counts from here).
    anchored_at: std::time::Instant,
}

impl Machine {
    /// Boot: verify critical memory, replay it, seed the RNG, record the
    /// power-up (and the configuration when it changed), run the self-audit.
    pub fn open(path: &Path, config: MachineConfig, seed: SeedChoice) -> Result<Machine, BootError> {
        Self::boot(path, config, seed, false)
    }

    /// Provision a new cabinet (issue 21): its first boot, which writes the
    /// anchor counter the first time and binds the configuration's machine
    /// ID into the genesis record and the first anchor. Refused on critical
    /// memory that already holds a machine. Returns the first anchor.
    pub fn provision(path: &Path, config: MachineConfig) -> Result<u64, BootError> {
        let m = Self::boot(path, config, SeedChoice::Entropy, true)?;
        let value = m.anchor_wear().counter;
        m.shutdown().map_err(boot_error)?;
        Ok(value)
    }

    /// [`Machine::boot_checked`], a RAM error refined: when the key store's
    /// key verifies nothing in critical memory the error says the key is
    /// lost (or the files another machine's), and how to get out.
    fn boot(path: &Path, config: MachineConfig, seed: SeedChoice, provisioning: bool) -> Result<Machine, BootError> {
        let key_store = config.key_store.clone();
        let second = config.second_copy.path_for(path);
        match Self::boot_checked(path, config, seed, provisioning) {
            Err(BootError::RamError(e)) => {
                let lost =
                    keystore::open(&key_store, path).ok().and_then(|mut keys| crate::store::key_lost::examine(path, second.as_deref(), keys.as_mut()).ok());
                match lost {
                    Some(crate::store::key_lost::KeyCheck::Lost(l)) => Err(BootError::RamError(IntegrityError::KeyLost(l.detail))),
                    _ => Err(BootError::RamError(e)),
                }
            }
            other => other,
        }
    }

    fn boot_checked(path: &Path, config: MachineConfig, seed: SeedChoice, provisioning: bool) -> Result<Machine, BootError> {
        config.validate()?;
        #[cfg(feature = "lab")]
        if matches!(seed, SeedChoice::Lab(_)) && config.mode != Mode::Lab {
            return Err(BootError::LabSeedRefused);
        }
        if config.mode == Mode::Production && config.key_store.is_stand_in() {
            return Err(BootError::StandInRefused);
        }
        let (mut keys, mut store, rebuilt) = open_critical_memory(path, &config)?;
        let virgin = store.is_virgin()?;
        let mut state = CriticalState::default();
        store.replay(|r| state.apply(&r.entry).map_err(|e| e.to_string()))?;
        store.check_nvram()?;
        if provisioning && !virgin {
            return Err(BootError::AlreadyProvisioned(state.machine_id.clone()));
        }
        // The anchor first (issue 21): a rolled-back, foreign or wiped file
        // is a RAM error before anything is added to it.
        let counter = keys.counter().map_err(StoreError::from)?;
        let at_boot = crate::anchor::at_boot(virgin, store.anchor(), counter).map_err(StoreError::from)?;
        // A production cabinet is provisioned once, on purpose: a new
        // database is never silently a new machine (issue 21).
        if at_boot == crate::anchor::AtBoot::Provision && config.mode == Mode::Production && !provisioning {
            return Err(BootError::NotProvisioned);
        }
        if !state.machine_id.is_empty() && state.machine_id != config.machine_id {
            return Err(BootError::ForeignMachine { journal: state.machine_id.clone(), config: config.machine_id.clone() });
        }
        // The machine's own record of its operator credential: made at the
        // first boot, changed only with the logic door open.
        match store.credential()? {
            Some(r) if r.credential == config.operator => {}
            Some(_) if !virgin && !state.doors_open.contains(&Door::Logic) => return Err(BootError::CredentialChangeRefused),
            previous => {
                let record = CredentialRecord {
                    credential: config.operator.clone(),
                    failures: previous.as_ref().map_or(0, |r| r.failures),
                    locked_until: previous.as_ref().map_or(0, |r| r.locked_until),
                };
                store.set_credential(&record)?;
            }
        }

        let mut boot = Vec::new();
        let fresh = store.is_empty();
        if fresh {
            let after_clear = (store.epoch() > 0).then_some(store.epoch());
            boot.push(Entry::Genesis { machine_id: config.machine_id.clone(), after_clear, epoch_id: linked::new_epoch_id()? });
            // What the clear carried across opens the new epoch.
            if let Some(carried) = after_clear.map(|_| carried_by_last_clear(&store)).transpose()?.flatten() {
                boot.push(Entry::CarriedOver { carried: Box::new(carried) });
            }
        }
        boot.push(Entry::PowerUp { unclean_shutdown: !fresh && !state.clean_shutdown });
        boot.extend(rebuilt.into_iter().map(|detail| Entry::CopyRebuilt { detail }));
        let rng = match seed {
            SeedChoice::Entropy => {
                let seeded = CoreRng::seed_from_entropy(&store.rng_carry()?)?;
                store.set_rng_carry(&seeded.next_carry)?;
                seeded.rng
            }
            #[cfg(feature = "lab")]
            SeedChoice::Lab(s) => CoreRng::lab(s),
        };
        boot.push(Entry::RngSeeded { source: rng.source() });
        let digest = config.digest();
        if state.config.as_ref().map(MachineConfig::digest) != Some(digest.clone()) {
            boot.push(Entry::ConfigChanged { digest, config: Box::new(config.clone()) });
        }
        let mut machine = Machine { store, state, config, rng, fault: None, keys, anchored_at: std::time::Instant::now() };
        machine.finish_anchor_at_boot(at_boot)?;
        // Power-up after verification is an anchor event; so is a new
        // machine's provisioning.
        let reason = if at_boot == crate::anchor::AtBoot::Provision { AnchorReason::Provisioned } else { AnchorReason::PowerUp };
        machine.anchor(reason, boot).map_err(boot_error)?;
        if let Err(failure) = machine.state.self_audit() {
            let _ = machine.commit(vec![Entry::TiltSet { tilt: Tilt::SelfAudit, detail: failure.to_string() }]);
        }
        Ok(machine)
    }

    /// Fold the entries into the state, and only when the fold takes every
    /// one of them append them to the journal (issue 21: a record the fold
    /// refuses was once committed first, and every later boot failed). A
    /// refused entry changes nothing: the state is folded again from the
    /// journal, which never saw it.
    fn commit(&mut self, entries: Vec<Entry>) -> Result<(), CoreError> {
        self.commit_anchored(entries, None)
    }

    /// [`Machine::commit`], binding the head to `anchor` when given (the
    /// anchor protocol's steps).
    fn commit_anchored(&mut self, entries: Vec<Entry>, anchor: Option<Anchor>) -> Result<(), CoreError> {
        if let Some(f) = &self.fault {
            return Err(CoreError::CriticalMemory(f.clone()));
        }
        for e in &entries {
            if let Err(x) = self.state.apply(e) {
                self.refold()?;
                return Err(CoreError::Refused(x.to_string()));
            }
        }
        let anchor = anchor.unwrap_or_else(|| self.store.anchor());
        if let Err(e) = self.store.append_anchored(&entries, anchor) {
            // The state is ahead of the journal: nothing more until a restart
            // folds the journal again.
            let msg = e.to_string();
            self.fault = Some(msg.clone());
            return Err(CoreError::CriticalMemory(msg));
        }
        let rollovers: Vec<Entry> =
            self.state.unlogged_rollovers(self.config.meter_digits).into_iter().map(|(meter, count)| Entry::MeterRollover { meter, count }).collect();
        if !rollovers.is_empty() {
            self.commit(rollovers)?;
        }
        Ok(())
    }

    /// The state folded again from the journal (after a refused entry).
    fn refold(&mut self) -> Result<(), CoreError> {
        let mut state = CriticalState::default();
        match self.store.replay(|r| state.apply(&r.entry).map_err(|e| e.to_string())) {
            Ok(_) => {
                self.state = state;
                Ok(())
            }
            Err(e) => {
                let msg = format!("critical memory cannot be folded again: {e}");
                self.fault = Some(msg.clone());
                Err(CoreError::CriticalMemory(msg))
            }
        }
    }

    /// The integrity check before each game and each cash-out (C-25, D-29):
    /// the end of the journal on disk, then the self-audit.
    fn verify_before_money_moves(&mut self) -> Result<(), CoreError> {
        if let Some(f) = &self.fault {
            return Err(CoreError::CriticalMemory(f.clone()));
        }
        if let Err(e) = self.store.check_end() {
            let msg = e.to_string();
            self.fault = Some(msg.clone());
            return Err(CoreError::CriticalMemory(msg));
        }
        if let Err(failure) = self.state.self_audit() {
            self.commit(vec![Entry::TiltSet { tilt: Tilt::SelfAudit, detail: failure.to_string() }])?;
            return Err(failure.into());
        }
        Ok(())
    }

    /// Before a committed step of the open round or its settlement: nothing
    /// blocks play (an open door, a tilt: the round waits, resumable, until
    /// it is cleared) and the journal on disk ends where this process left
    /// it, self-audited (issue 21: `record_step` and `settle_round` checked
    /// neither).
    fn verify_in_round(&mut self) -> Result<(), CoreError> {
        if let Some(b) = self.play_block() {
            return Err(b.into());
        }
        self.verify_before_money_moves()
    }

    /// Why play is refused now, if it is.
    pub fn play_block(&self) -> Option<PlayBlock> {
        if let Some(f) = &self.fault {
            return Some(PlayBlock::CriticalMemory(f.clone()));
        }
        if let Some(d) = self.state.doors_open.iter().next() {
            return Some(PlayBlock::DoorOpen(*d));
        }
        if let Some(t) = self.state.tilts.iter().next() {
            return Some(PlayBlock::Tilt(*t));
        }
        if let Some(h) = self.state.handpays.keys().next() {
            return Some(PlayBlock::HandpayPending(*h));
        }
        None
    }

    fn ensure_idle(&self) -> Result<(), CoreError> {
        if let Some(b) = self.play_block() {
            return Err(b.into());
        }
        if let Some(r) = &self.state.open_round {
            return Err(PlayBlock::RoundInProgress(r.round).into());
        }
        Ok(())
    }

    // ----- money in -------------------------------------------------------

    /// A note in the acceptor. Accepted notes credit the meter (M-25 e);
    /// refused notes are returned and logged.
    pub fn insert_note(&mut self, value: Cents) -> Result<Cents, CoreError> {
        let refusal = if let Some(b) = self.play_block() {
            Some(format!("acceptor disabled ({b})"))
        } else if !self.config.accepted_notes.contains(&value) {
            Some(format!("{value}-cent notes are not accepted"))
        } else if self.state.credit.saturating_add(value) > self.config.credit_limit {
            Some(format!("credit would exceed the limit of {} cents", self.config.credit_limit))
        } else {
            None
        };
        if let Some(reason) = refusal {
            self.commit(vec![Entry::NoteRejected { value, reason: reason.clone() }])?;
            return Err(CoreError::NoteRejected(reason));
        }
        // Money in is checked like money out: the journal's end (and so its
        // epoch: a RAM clear by another process) before the credit moves.
        self.verify_before_money_moves()?;
        self.commit(vec![Entry::NoteIn { value }])?;
        Ok(self.state.credit)
    }

    /// A ticket in the reader, by validation number (M-25 f). Without a
    /// ticket-validation host, the machine accepts only unredeemed tickets
    /// it printed itself.
    pub fn insert_ticket(&mut self, validation: &str) -> Result<Cents, CoreError> {
        let issued = self.state.tickets.get(validation).cloned();
        let refusal = if let Some(b) = self.play_block() {
            Some(format!("reader disabled ({b})"))
        } else if !ticket::is_well_formed(validation) {
            Some("not a valid 18-digit validation number".to_owned())
        } else {
            match issued {
                None => Some("unknown validation number".to_owned()),
                Some(t) if t.redeemed => Some("ticket already redeemed".to_owned()),
                Some(t) if t.value > self.config.ticket_in_limit => Some(format!("ticket above the limit of {} cents", self.config.ticket_in_limit)),
                Some(t) if self.state.credit.saturating_add(t.value) > self.config.credit_limit => {
                    Some(format!("credit would exceed the limit of {} cents", self.config.credit_limit))
                }
                Some(_) => None,
            }
        };
        if let Some(reason) = refusal {
            self.commit(vec![Entry::TicketRejected { validation: validation.to_owned(), reason: reason.clone() }])?;
            return Err(CoreError::TicketRejected(reason));
        }
        self.verify_before_money_moves()?;
        let value = self.state.tickets.get(validation).map_or(0, |t| t.value);
        self.commit(vec![Entry::TicketIn { validation: validation.to_owned(), value }])?;
        Ok(self.state.credit)
    }

    // ----- cash-out -------------------------------------------------------

    /// Cash out the whole credit meter, remainder cents included: a ticket,
    /// or a hand-pay lock-up above the ticket-out limit.
    pub fn cash_out(&mut self) -> Result<CashOut, CoreError> {
        self.ensure_idle()?;
        self.verify_before_money_moves()?;
        let amount = self.state.credit;
        if amount == 0 {
            return Err(CoreError::NothingToCashOut);
        }
        if amount > self.config.ticket_out_limit {
            let id = self.state.last_handpay + 1;
            // No money leaves yet: the attendant's payment anchors.
            self.commit(vec![Entry::HandpayLocked { id, handpay: HandpayKind::CancelledCredits, amount }])?;
            return Ok(CashOut::Handpay { id, amount });
        }
        let validation = loop {
            let v = ticket::new_validation_number()?;
            if !self.state.tickets.contains_key(&v) {
                break v;
            }
        };
        let issued_utc = time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)
            .map_err(|e| CoreError::CriticalMemory(format!("clock: {e}")))?;
        // A money-out: anchored before the ticket can be printed (issue 21).
        self.anchor(AnchorReason::CashOut, vec![Entry::TicketOut { validation: validation.clone(), value: amount, issued_utc: Some(issued_utc.clone()) }])?;
        Ok(CashOut::Ticket(Ticket { machine_id: self.config.machine_id.clone(), validation, value: amount, issued_utc }))
    }

    /// The printer finished `validation`'s ticket: the second step of its
    /// issue. Until then it is printed again after any restart (same
    /// validation number: it can be redeemed only once).
    pub fn ticket_printed(&mut self, validation: &str) -> Result<(), CoreError> {
        match self.state.tickets.get(validation) {
            None => Err(CoreError::TicketRejected(format!("no ticket {validation} was issued"))),
            Some(t) if t.printed => Ok(()),
            Some(_) => self.commit(vec![Entry::TicketPrinted { validation: validation.to_owned() }]),
        }
    }

    /// Tickets issued (their cash-out committed) that the printer never
    /// finished, oldest first: the host prints them again.
    pub fn unprinted_tickets(&self) -> Vec<Ticket> {
        self.state
            .tickets
            .iter()
            .filter(|(_, t)| !t.printed && !t.redeemed)
            .map(|(v, t)| Ticket { machine_id: self.config.machine_id.clone(), validation: v.clone(), value: t.value, issued_utc: t.issued_utc.clone() })
            .collect()
    }

    // ----- the game cycle -------------------------------------------------

    /// Play a round: the stake leaves the credit meter, the game's `draw`
    /// runs under the RNG lock, and its whole outcome is committed with the
    /// stake and the count of RNG values it took, in one transaction,
    /// before anything is shown. This is the only way a round begins: no
    /// host can commit an outcome drawn elsewhere.
    ///
    /// Every check (play block, denomination, stake, credit, the journal's
    /// end, the self-audit) runs before the draw. A draw that fails is
    /// recorded as `DrawDiscarded` with the values it took, and nothing else
    /// is committed.
    pub fn play_round<T, E>(
        &mut self,
        game: &str,
        denom: Cents,
        stake: Cents,
        step: &str,
        draw: impl FnOnce(&mut Draw<'_>) -> Result<T, E>,
    ) -> Result<(u64, T), CoreError>
    where
        T: serde::Serialize,
        E: std::fmt::Display,
    {
        self.play_round_with_side_bet(game, denom, stake, 0, step, draw)
    }

    /// [`Self::play_round`] where `side_stake` of the `stake` is a side bet
    /// (a stud jackpot bet, PSD 35–42): it feeds the side-bet pools alone,
    /// and the rest of the stake is the main wager.
    pub fn play_round_with_side_bet<T, E>(
        &mut self,
        game: &str,
        denom: Cents,
        stake: Cents,
        side_stake: Cents,
        step: &str,
        draw: impl FnOnce(&mut Draw<'_>) -> Result<T, E>,
    ) -> Result<(u64, T), CoreError>
    where
        T: serde::Serialize,
        E: std::fmt::Display,
    {
        self.ensure_idle()?;
        if side_stake > 0 && side_stake >= stake {
            return Err(CoreError::SideBetNotBeside { stake, side_stake });
        }
        if !side_stake.is_multiple_of(denom) {
            return Err(CoreError::StakeNotWholeCredits { stake: side_stake, denom });
        }
        if game.trim().is_empty() {
            return Err(CoreError::UnknownGame(game.to_owned()));
        }
        if !self.config.denominations.contains(&denom) {
            return Err(CoreError::UnknownDenomination(denom));
        }
        if stake == 0 {
            return Err(CoreError::ZeroStake);
        }
        if !stake.is_multiple_of(denom) {
            return Err(CoreError::StakeNotWholeCredits { stake, denom });
        }
        if stake > self.state.credit {
            return Err(CoreError::InsufficientCredit { credit: self.state.credit, needed: stake });
        }
        self.verify_before_money_moves()?;
        let (outcome, data, draws) = self.draw(game, draw)?;
        let round = self.state.last_round + 1;
        let step = Step::new(step, data);
        self.commit(vec![Entry::RoundBegun { round, game: game.to_owned(), denom, stake, credit_before: self.state.credit, step, draws, side_stake }])?;
        Ok((round, outcome))
    }

    /// Run a game's draw under the RNG lock and count what it took; a
    /// failed draw is journaled with its count.
    fn draw<T, E>(&mut self, game: &str, draw: impl FnOnce(&mut Draw<'_>) -> Result<T, E>) -> Result<(T, serde_json::Value, u64), CoreError>
    where
        T: serde::Serialize,
        E: std::fmt::Display,
    {
        let (result, draws, misuse) = {
            let mut d = Draw::new(self.rng.lock());
            let result = draw(&mut d);
            (result, d.values(), d.misuse().map(str::to_owned))
        };
        // A misused generator, a failed draw or an outcome that cannot be
        // recorded: the draw is journaled as discarded, nothing else.
        let recorded = match (misuse, result) {
            (Some(reason), _) => Err(reason),
            (None, Err(e)) => Err(e.to_string()),
            (None, Ok(outcome)) => serde_json::to_value(&outcome).map(|data| (outcome, data)).map_err(|e| format!("the outcome cannot be recorded: {e}")),
        };
        match recorded {
            Ok((outcome, data)) => Ok((outcome, data, draws)),
            Err(reason) => {
                self.commit(vec![Entry::DrawDiscarded { game: game.to_owned(), draws, reason: reason.clone() }])?;
                Err(CoreError::DrawFailed(reason))
            }
        }
    }

    /// Commit a further step of the open round that draws (a gamble, an
    /// extra ball, a hit card): `draw` runs under the RNG lock and its
    /// outcome is committed with its draw count and `extra_stake`, which
    /// leaves the credit meter with it.
    pub fn draw_step<T, E>(&mut self, round: u64, step: &str, extra_stake: Cents, draw: impl FnOnce(&mut Draw<'_>) -> Result<T, E>) -> Result<T, CoreError>
    where
        T: serde::Serialize,
        E: std::fmt::Display,
    {
        let open = self.check_step(round, extra_stake)?;
        self.verify_in_round()?;
        let (outcome, data, draws) = self.draw(&open.game, draw)?;
        self.commit(vec![Entry::RoundStep { round, step: Step::new(step, data), extra_stake, draws }])?;
        Ok(outcome)
    }

    /// Commit a decision of the open round that draws nothing (a hold, a
    /// raise or fold). `extra_stake` leaves the credit meter with it.
    pub fn record_step(&mut self, round: u64, step: Step, extra_stake: Cents) -> Result<(), CoreError> {
        self.check_step(round, extra_stake)?;
        self.verify_in_round()?;
        self.commit(vec![Entry::RoundStep { round, step, extra_stake, draws: 0 }])
    }

    fn check_step(&self, round: u64, extra_stake: Cents) -> Result<OpenRound, CoreError> {
        let open = self.open_round_checked(round)?;
        if !extra_stake.is_multiple_of(open.denom) {
            return Err(CoreError::StakeNotWholeCredits { stake: extra_stake, denom: open.denom });
        }
        if extra_stake > self.state.credit {
            return Err(CoreError::InsufficientCredit { credit: self.state.credit, needed: extra_stake });
        }
        Ok(open)
    }

    /// Settle the open round: the stake enters créditos jogados and the win
    /// créditos ganhos, and the win is paid at once (M-33) or locked up for
    /// a hand-pay at or above the limit (M-12, F-44).
    pub fn settle_round(&mut self, round: u64, win: Cents, components: Vec<WinComponent>) -> Result<Settled, CoreError> {
        self.settle_round_with_progressive(round, win, components, &[])
    }

    /// Settle a round whose outcome also hit progressive levels (`hits`:
    /// pool id and level). Each award is the level's whole value at this
    /// moment (M-21), paid in the same transaction as the round's base win
    /// and counted in "prémios acumulados progressivos"; the level restarts
    /// at its reset value.
    pub fn settle_round_with_progressive(
        &mut self,
        round: u64,
        base_win: Cents,
        components: Vec<WinComponent>,
        hits: &[(String, usize)],
    ) -> Result<Settled, CoreError> {
        self.settle_round_with_awards(round, base_win, components, hits, &[])
    }

    /// [`Self::settle_round_with_progressive`], also paying awards the
    /// linked progressive controller made for this round (`linked`: pool,
    /// level, amount).
    pub fn settle_round_with_awards(
        &mut self,
        round: u64,
        base_win: Cents,
        components: Vec<WinComponent>,
        hits: &[(String, usize)],
        linked: &[(String, usize, Cents)],
    ) -> Result<Settled, CoreError> {
        let hits: Vec<(String, usize, u32)> = hits.iter().map(|(p, l)| (p.clone(), *l, WHOLE_LEVEL)).collect();
        self.settle_round_with_shares(round, base_win, components, &hits, linked)
    }

    /// [`Self::settle_round_with_awards`] where each standalone hit takes a
    /// share of its level, in millionths (`WHOLE_LEVEL` for all of it): a
    /// stud side bet's straight flush takes 10% of the jackpot.
    pub fn settle_round_with_shares(
        &mut self,
        round: u64,
        base_win: Cents,
        mut components: Vec<WinComponent>,
        hits: &[(String, usize, u32)],
        linked: &[(String, usize, Cents)],
    ) -> Result<Settled, CoreError> {
        let open = self.open_round_checked(round)?;
        self.verify_in_round()?;
        let time = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        let mut progressive = Vec::new();
        // Award on a copy first: two hits of one level in a round get the
        // full value and then the reset value.
        let mut pools = self.state.pools.clone();
        let mut win = base_win;
        for (pool_id, level, amount) in linked {
            if !self.state.linked.contains_key(pool_id) {
                return Err(CoreError::Progressive(format!("this machine is not in linked pool {pool_id}")));
            }
            win = win.checked_add(*amount).ok_or_else(|| CoreError::CriticalMemory("win overflow".into()))?;
            components.push(WinComponent { label: format!("progressive {pool_id} level {level} (linked)"), amount: *amount });
            progressive.push(ProgressiveAward {
                pool: pool_id.clone(),
                level: *level,
                amount: *amount,
                time,
                linked: true,
                next_mystery_at: None,
                share_ppm: WHOLE_LEVEL,
            });
        }
        // Mystery levels this round's wager took past their hidden value.
        let mut hits: Vec<(String, usize, u32)> = hits.to_vec();
        let explicit = hits.len();
        for (id, pool) in &self.state.pools {
            for (l, level) in pool.levels.iter().enumerate() {
                if level.mystery_due == Some(round) && !hits.iter().any(|h| h.0 == *id && h.1 == l) {
                    hits.push((id.clone(), l, WHOLE_LEVEL));
                }
            }
        }
        for (nth, (pool_id, level, share_ppm)) in hits.iter().enumerate() {
            let pool = pools.get_mut(pool_id).ok_or_else(|| CoreError::Progressive(format!("no pool {pool_id}")))?;
            if !pool.qualifies(&open.game, pool.wager(open.stake, open.side_stake)) {
                return Err(CoreError::Progressive(format!("round {round} on {} does not qualify for pool {pool_id}", open.game)));
            }
            let amount = pool.award_share(*level, *share_ppm, time, &self.state.machine_id, round).map_err(|e| CoreError::Progressive(e.to_string()))?;
            let next_mystery_at = match pool.mystery_range(*level) {
                Some((lo, hi)) => Some(lo + self.rng.lock().uniform(hi - lo + 1)),
                None => None,
            };
            if next_mystery_at.is_some() {
                pool.set_mystery(*level, next_mystery_at).map_err(|e| CoreError::Progressive(e.to_string()))?;
            }
            win = win.checked_add(amount).ok_or_else(|| CoreError::CriticalMemory("win overflow".into()))?;
            let name = pool.config.levels.get(*level).map_or_else(String::new, |l| l.name.clone());
            let mystery = if nth >= explicit { " (mystery)" } else { "" };
            components.push(WinComponent { label: format!("progressive {pool_id} {name}{mystery}"), amount });
            progressive.push(ProgressiveAward { pool: pool_id.clone(), level: *level, amount, time, linked: false, next_mystery_at, share_ppm: *share_ppm });
        }
        if win > self.config.max_win {
            return Err(CoreError::WinAboveMaximum { win, max: self.config.max_win });
        }
        let mut entries = Vec::new();
        let payment = if win >= self.config.handpay_limit {
            let id = self.state.last_handpay + 1;
            entries.push(Entry::HandpayLocked { id, handpay: HandpayKind::Jackpot { round, game: open.game.clone(), denom: open.denom }, amount: win });
            WinPayment::Handpay { id }
        } else {
            WinPayment::Credited { jackpot: win > 0 && win >= self.config.jackpot_threshold }
        };
        let credit_after = match payment {
            WinPayment::Credited { .. } => self.state.credit.checked_add(win).ok_or_else(|| CoreError::CriticalMemory("credit meter overflow".into()))?,
            WinPayment::Handpay { .. } => self.state.credit,
        };
        entries.insert(0, Entry::RoundSettled { round, win, components, payment, credit_after, progressive });
        self.commit(entries)?;
        // The round is settled whatever the tick does; a tick that cannot
        // be made stops play with a critical-memory fault (see anchor).
        let _ = self.tick_if_due();
        Ok(Settled { round, win, payment, credit_after })
    }

    /// Set up a progressive pool on this machine (M-18), each level at its
    /// start value. A pool id is set up once: its money is never reset (M-20).
    pub fn configure_pool(&mut self, config: PoolConfig) -> Result<(), CoreError> {
        config.validate().map_err(|e| CoreError::Progressive(e.to_string()))?;
        if self.state.pools.contains_key(&config.id) {
            return Err(CoreError::Progressive(format!("pool {} already exists: its money cannot be reset (M-20)", config.id)));
        }
        // Mystery levels: their first hidden values, drawn now (journaled).
        let mut mystery_at = Vec::new();
        for l in &config.levels {
            mystery_at.push(match (l.mystery, l.ceiling) {
                (true, Some(hi)) => Some(l.reset_value.min(l.start_value) + self.rng.lock().uniform(hi - l.reset_value.min(l.start_value) + 1)),
                _ => None,
            });
        }
        if mystery_at.iter().all(Option::is_none) {
            mystery_at.clear();
        }
        self.commit(vec![Entry::PoolConfigured { pool: config, mystery_at }])
    }

    /// Move pool money out of a level (M-23): to a pool of the same game
    /// model and bet type, or to a target with an authority reference.
    pub fn transfer_pool(&mut self, pool: &str, level: usize, amount: Cents, to: TransferTarget, by: &str) -> Result<(), CoreError> {
        if by.trim().is_empty() {
            return Err(CoreError::Progressive("a transfer names the operator who makes it (M-23)".into()));
        }
        let entry = Entry::PoolTransfer { pool: pool.to_owned(), level, amount, to, by: by.to_owned() };
        // Check on a copy, so that a refused transfer is never journaled.
        let mut probe = self.state.clone();
        probe.apply(&entry).map_err(|e| CoreError::Progressive(e.problem))?;
        self.anchor(AnchorReason::TransferOut, vec![entry]).map(|_| ())
    }

    /// The pools and their levels, meters and last hits.
    pub fn pools(&self) -> &std::collections::BTreeMap<String, crate::progressive::Pool> {
        &self.state.pools
    }

    /// The liability report (M-24): every pool and level now.
    pub fn liability_report(&self) -> Vec<crate::progressive::LiabilityLine> {
        crate::progressive::liability_report(self.state.pools.values())
    }

    /// Void the open round and refund every stake (M-36): for a round the
    /// machine cannot finish.
    pub fn void_round(&mut self, round: u64, reason: &str) -> Result<Cents, CoreError> {
        let open = self.open_round_checked(round)?;
        let credit_after = self.state.credit + open.stake;
        self.commit(vec![Entry::RoundVoided { round, refund: open.stake, reason: reason.to_owned(), credit_after }])?;
        Ok(open.stake)
    }

    /// Record that an interrupted round is being resumed after a restart (M-36).
    pub fn resume_round(&mut self, round: u64) -> Result<(), CoreError> {
        let open = self.open_round_checked(round)?;
        self.commit(vec![Entry::RoundResumed { round, at_step: open.steps }])
    }

    fn open_round_checked(&self, round: u64) -> Result<OpenRound, CoreError> {
        if let Some(f) = &self.fault {
            return Err(CoreError::CriticalMemory(f.clone()));
        }
        match &self.state.open_round {
            Some(open) if open.round == round => Ok(open.clone()),
            _ => Err(CoreError::NoSuchRound(round)),
        }
    }

    // ----- doors, tilts, attendant ----------------------------------------

    /// A door opened (E-37): play, money in and cash-out stop while it is
    /// open. The logic door also sets a tilt that needs an attendant.
    pub fn open_door(&mut self, door: Door) -> Result<(), CoreError> {
        if self.state.doors_open.contains(&door) {
            return Ok(());
        }
        let mut entries = vec![Entry::DoorOpened { door }];
        if door == Door::Logic && !self.state.tilts.contains(&Tilt::LogicDoorAccess) {
            entries
                .push(Entry::TiltSet { tilt: Tilt::LogicDoorAccess, detail: "logic door opened: attendant clear and program re-verification required".into() });
        }
        self.commit(entries)
    }

    pub fn close_door(&mut self, door: Door) -> Result<(), CoreError> {
        if !self.state.doors_open.contains(&door) {
            return Ok(());
        }
        self.anchor(AnchorReason::DoorClosed, vec![Entry::DoorClosed { door }]).map(|_| ())
    }

    /// Set a tilt reported by the cabinet (device fault, verification).
    pub fn set_tilt(&mut self, tilt: Tilt, detail: &str) -> Result<(), CoreError> {
        self.commit(vec![Entry::TiltSet { tilt, detail: detail.to_owned() }])
    }

    /// An attendant clears a tilt. A self-audit tilt clears only when the
    /// audit now passes; the logic-door tilt only with every door closed.
    pub fn clear_tilt(&mut self, tilt: Tilt, attendant: &str) -> Result<(), CoreError> {
        if !self.state.tilts.contains(&tilt) {
            return Err(CoreError::TiltNotActive(tilt));
        }
        let still = match tilt {
            Tilt::SelfAudit => self.state.self_audit().is_err(),
            Tilt::LogicDoorAccess => self.state.doors_open.contains(&Door::Logic),
            _ => false,
        };
        if still {
            return Err(CoreError::TiltStillCaused(tilt));
        }
        self.commit(vec![Entry::TiltCleared { tilt, by: attendant.to_owned() }])
    }

    /// An attendant pays a hand-pay with the attendant key (M-12).
    pub fn pay_handpay(&mut self, id: u64, attendant: &str) -> Result<PendingHandpay, CoreError> {
        if attendant.trim().is_empty() {
            return Err(CoreError::Refused("a hand-pay names the attendant who pays it".into()));
        }
        let hp = self.state.handpays.get(&id).cloned().ok_or(CoreError::NoSuchHandpay(id))?;
        // A money-out: anchored before the attendant hands the money over.
        self.anchor(AnchorReason::Handpay, vec![Entry::HandpayPaid { id, attendant: attendant.to_owned() }])?;
        Ok(hp)
    }

    /// Record a program-verification result (H-51); a failure tilts.
    pub fn record_verification(&mut self, ok: bool, detail: &str) -> Result<(), CoreError> {
        let mut entries = vec![Entry::Verification { ok, detail: detail.to_owned() }];
        if !ok {
            entries.push(Entry::TiltSet { tilt: Tilt::ProgramVerification, detail: detail.to_owned() });
        }
        self.commit(entries)
    }

    /// A clean power-down.
    pub fn shutdown(mut self) -> Result<(), CoreError> {
        self.power_down()
    }

    /// Record a clean power-down without giving up the machine (the cabinet
    /// calls it as the application exits).
    pub fn power_down(&mut self) -> Result<(), CoreError> {
        if self.state.clean_shutdown {
            return Ok(());
        }
        self.commit(vec![Entry::PowerDown])
    }

    /// Power down and give critical memory up, for a RAM clear or another
    /// boot in this process: the lock is released and this machine refuses
    /// everything afterwards (it is a RAM error to use it).
    pub fn release(&mut self) -> Result<(), CoreError> {
        self.power_down()?;
        self.store.release();
        self.fault = Some("critical memory was released by this process (a RAM clear or a new boot)".into());
        Ok(())
    }

    // ----- reading --------------------------------------------------------

    pub fn state(&self) -> &CriticalState {
        &self.state
    }

    pub fn config(&self) -> &MachineConfig {
        &self.config
    }

    pub fn credit(&self) -> Cents {
        self.state.credit
    }

    pub fn open_round(&self) -> Option<&OpenRound> {
        self.state.open_round.as_ref()
    }

    /// Whether the live generator cycles in the background.
    pub fn rng_cycling(&self) -> bool {
        self.rng.is_cycling()
    }

    pub fn seed_source(&self) -> SeedSource {
        self.rng.source()
    }

    /// The last `n` rounds with every step, oldest first (recall).
    pub fn recall(&self, n: u64) -> Result<Vec<RoundRecall>, StoreError> {
        Ok(recall_from(&self.store.last_rounds(n)?))
    }

    /// The last `n` events, newest first.
    pub fn events(&self, n: u64) -> Result<Vec<Record>, StoreError> {
        self.store.last_events(n)
    }

    pub fn ram_clears(&self) -> Result<Vec<RamClearRecord>, StoreError> {
        self.store.ram_clears()
    }
}

/// The key store, critical memory, and what was rebuilt on opening it.
type Opened = (Box<dyn KeyStore>, Store, Vec<String>);

/// The configured key store and critical memory at `path` with its second
/// copy and NVRAM mirror, the copies made one (the events say what was
/// rebuilt).
fn open_critical_memory(path: &Path, config: &MachineConfig) -> Result<Opened, BootError> {
    let mut keys = keystore::open(&config.key_store, path).map_err(StoreError::from)?;
    let second = config.second_copy.path_for(path);
    let (store, rebuilt) = Store::open(path, second.as_deref(), config.nvram_mirror.as_deref(), keys.as_mut())?;
    Ok((keys, store, rebuilt))
}

/// A command's failure during a boot, reported as a boot error.
fn boot_error(e: CoreError) -> BootError {
    BootError::Store(StoreError::Io(std::io::Error::other(e.to_string())))
}

/// What the last RAM clear carried across, from its MAC-chained record.
fn carried_by_last_clear(store: &Store) -> Result<Option<crate::carry::Carried>, BootError> {
    let Some(clear) = store.ram_clears()?.pop() else { return Ok(None) };
    let before: serde_json::Value = serde_json::from_str(&clear.meters_before).map_err(StoreError::Json)?;
    match before.get("carried") {
        None => Ok(None),
        Some(c) => {
            let carried: crate::carry::Carried = serde_json::from_value(c.clone()).map_err(StoreError::Json)?;
            Ok((!carried.is_empty()).then_some(carried))
        }
    }
}

/// Group a round's journal records into recall entries.
pub fn recall_from(records: &[Record]) -> Vec<RoundRecall> {
    let mut out: Vec<RoundRecall> = Vec::new();
    for r in records {
        match &r.entry {
            Entry::RoundBegun { round, game, denom, stake, credit_before, step, draws, .. } => out.push(RoundRecall {
                round: *round,
                game: game.clone(),
                denom: *denom,
                started_utc: r.at_utc.clone(),
                credit_before: *credit_before,
                stake: *stake,
                steps: vec![RecallStep { at_utc: r.at_utc.clone(), step: step.clone(), extra_stake: 0, draws: *draws }],
                outcome: RecallOutcome::InProgress,
                resumed_at: Vec::new(),
            }),
            Entry::RoundStep { round, step, extra_stake, draws } => {
                if let Some(rr) = out.iter_mut().rev().find(|x| x.round == *round) {
                    rr.stake += extra_stake;
                    rr.steps.push(RecallStep { at_utc: r.at_utc.clone(), step: step.clone(), extra_stake: *extra_stake, draws: *draws });
                }
            }
            Entry::RoundResumed { round, at_step } => {
                if let Some(rr) = out.iter_mut().rev().find(|x| x.round == *round) {
                    rr.resumed_at.push(*at_step);
                }
            }
            Entry::RoundSettled { round, win, components, payment, credit_after, .. } => {
                if let Some(rr) = out.iter_mut().rev().find(|x| x.round == *round) {
                    rr.outcome = RecallOutcome::Settled { win: *win, components: components.clone(), payment: *payment, credit_after: *credit_after };
                }
            }
            Entry::RoundVoided { round, refund, reason, credit_after } => {
                if let Some(rr) = out.iter_mut().rev().find(|x| x.round == *round) {
                    rr.outcome = RecallOutcome::Voided { refund: *refund, reason: reason.clone(), credit_after: *credit_after };
                }
            }
            _ => {}
        }
    }
    out
}
