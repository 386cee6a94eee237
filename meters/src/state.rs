//! The critical state: a pure fold over the journal, and the self-audit.
//!
//! [`CriticalState::apply`] is the only code that moves a meter. The same
//! function runs live (after an entry is durably committed) and at boot
//! (replaying the verified journal), so the state after a restart is by
//! construction the state before it. `apply` refuses an entry that does not
//! follow from the state (a settle without an open round, a credit that
//! would go negative): replay then reports the journal inconsistent.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::config::MachineConfig;
use crate::journal::TransferTarget;
use crate::journal::{Entry, HandpayKind, SoftwareOutcome, Tilt, Wager, WagerCategory, WinPayment};
use crate::meters::{Door, GameMeters, M25, MachineMeters};
use crate::money::Cents;
use crate::progressive::Pool;

/// A game cycle that has begun and not yet been settled or voided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenRound {
    pub round: u64,
    pub game: String,
    pub denom: Cents,
    /// Every stake of the round so far (base bet plus raises, doubles…).
    pub stake: Cents,
    pub credit_before: Cents,
    /// Steps recorded so far (the begin step counts as 1).
    pub steps: u32,
    /// The part of the opening stake that is a side bet.
    #[serde(default)]
    pub side_stake: Cents,
    /// What the round's wager contributed to each standalone pool, level by
    /// level: a void takes it back exactly.
    #[serde(default)]
    pub contributions: Vec<(String, Vec<crate::progressive::Contribution>)>,
    /// Issue 46: the round was drawn from its commitment to this linked
    /// pool: the key it reveals to claim an award, and the nonce.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub committed: Option<CommittedRound>,
    /// The linked pools the round's wager fed (its contribution queued for
    /// each): a void takes it back from each (issue 46, reconciliation).
    #[serde(default)]
    pub linked: Vec<String>,
    /// B-16: its wager category, metered when it settles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<WagerCategory>,
    /// B-16 (issue 77): its stake shared out by wager category, where it
    /// stakes on bets of several RTPs (`Entry::RoundBegun`'s `wagers`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wagers: Vec<Wager>,
    /// B-16 (issue 77): the extra stakes its steps placed on bets of their
    /// own (`Entry::RoundStep`'s `category`: blackjack's insurance), by
    /// category; the rest of its stake is its wagers'.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub step_wagers: Vec<Wager>,
}

/// B-16: one wager category's meters: its coin-in and its theoretical
/// payback, Σ stake × RTP, exact in millionths of a cent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryMeters {
    pub coin_in: Cents,
    #[serde(with = "crate::wire::decimal_u128")]
    pub theoretical_micro: u128,
    /// The category's RTP in millionths, as its last round was played.
    pub rtp_ppm: u32,
}

impl CategoryMeters {
    /// The theoretical payback in whole cents (rounded down).
    pub fn theoretical_cents(&self) -> u128 {
        self.theoretical_micro / 1_000_000
    }

    /// The weighted average theoretical payback (SAS meter 7F), in
    /// hundredths of a percent rounded down (9623 = 96.23%); None before
    /// any coin-in.
    pub fn weighted_basis_points(&self) -> Option<u128> {
        (self.coin_in > 0).then(|| self.theoretical_micro / u128::from(self.coin_in) / 100)
    }
}

/// Issue 46: what an epoch owed one linked pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkedOwed {
    pub rounds: u64,
    pub wagered: Cents,
}

/// Issue 46: a round drawn from a commitment (hex key and nonce).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommittedRound {
    pub pool: String,
    pub key: String,
    pub nonce: String,
}

/// Issue 46: the next round, committed to a linked pool's controller and
/// waiting for its nonce (`Entry::LinkedCommitted`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkedCommitment {
    pub pool: String,
    pub round: u64,
    pub game: String,
    pub denom: Cents,
    pub stake: Cents,
    pub side_stake: Cents,
    /// The game's bet, as JSON.
    pub bet: String,
    /// The round's key, hex.
    pub key: String,
}

/// A hand-pay waiting for an attendant (F-44: a persisted queue).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingHandpay {
    pub id: u64,
    pub handpay: HandpayKind,
    pub amount: Cents,
}

/// A ticket this machine printed, and whether it has come back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IssuedTicket {
    pub value: Cents,
    pub redeemed: bool,
    /// Whether the printer finished it (`TicketPrinted`).
    #[serde(default)]
    pub printed: bool,
    /// When it was issued, as printed on it.
    #[serde(default)]
    pub issued_utc: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriticalState {
    pub machine_id: String,
    /// The random identifier of this journal's epoch (issue 13).
    #[serde(default)]
    pub epoch_id: String,
    /// How many RAM clears came before this journal.
    pub clears: u64,
    pub config: Option<MachineConfig>,
    /// The credit meter, in cents: the only meter that may go down.
    pub credit: Cents,
    pub totals: MachineMeters,
    pub per_game: BTreeMap<String, GameMeters>,
    pub per_denom: BTreeMap<Cents, GameMeters>,
    pub open_round: Option<OpenRound>,
    pub last_round: u64,
    pub handpays: BTreeMap<u64, PendingHandpay>,
    pub last_handpay: u64,
    pub doors_open: BTreeSet<Door>,
    pub tilts: BTreeSet<Tilt>,
    pub tickets: BTreeMap<String, IssuedTicket>,
    /// Issue 70: a note the acceptor was told to stack and whose credit
    /// has not been committed (its vend valid, or its power-up in the
    /// stacker, credits it; a power-up in the acceptor's path gives it back).
    #[serde(default)]
    pub note_stacking: Option<Cents>,
    /// Issue 70: this machine's own ticket the acceptor was told to stack,
    /// its credit not yet committed (as `note_stacking`).
    #[serde(default)]
    pub ticket_stacking: Option<String>,
    /// Issue 70: a ticket the floor authorised (validation number, value)
    /// that the acceptor was told to stack, its credit not yet committed
    /// (as `note_stacking`).
    #[serde(default)]
    pub floor_ticket_stacking: Option<(String, Cents)>,
    /// Whether the last power-down was recorded (a clean shutdown).
    pub clean_shutdown: bool,
    pub games_since_power_up: u64,
    pub games_since_door_close: u64,
    /// Rollovers already logged per machine meter (C-21).
    pub rollovers_logged: BTreeMap<String, u64>,
    /// Progressive pools on this machine, by id (M-18 to M-24).
    #[serde(default)]
    pub pools: BTreeMap<String, Pool>,
    /// Linked pools this machine contributes to: (games, minimum wager).
    #[serde(default)]
    pub linked: BTreeMap<String, (Vec<String>, Cents)>,
    /// The linked-pool outbox: contributions journaled with their wager and
    /// not yet acknowledged by the controller: pool → round → wager.
    #[serde(default)]
    pub linked_pending: BTreeMap<String, BTreeMap<u64, Cents>>,
    /// Issue 46: the next round, committed and waiting for its nonce.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linked_commitment: Option<LinkedCommitment>,
    /// Issue 46, reconciliation: what this epoch owed each linked pool, by
    /// the journal: the rounds whose wager qualified and their sum (a
    /// voided round's taken back), which the controller's books are
    /// reconciled against.
    #[serde(default)]
    pub linked_owed: BTreeMap<String, LinkedOwed>,
    /// The RTP variant an operator chose for each game with variants
    /// (issue 50): family → the approved paytable offered.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub variants: BTreeMap<String, String>,
    /// B-16: per game, per wager category: coin-in and theoretical payback.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub categories: BTreeMap<String, BTreeMap<String, CategoryMeters>>,
    /// H-53: each component's last accepted digest (component → SHA-256).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub software: BTreeMap<String, String>,
    /// H-53: each component's last refused digest, logged once.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub refused_software: BTreeMap<String, String>,
    /// Journal entries folded so far.
    pub entries: u64,
    /// Owed before the RAM clear that began this epoch and carried over as
    /// hand-pays (the self-audit's money in from before the clear).
    #[serde(default)]
    pub carried_in: Cents,
    /// The rollback anchor (issue 21).
    #[serde(default)]
    pub anchor: crate::anchor::AnchorState,
    /// The window the last power-up found since its anchor (issue 47,
    /// hole 3): the audit menu shows it.
    #[serde(default)]
    pub last_window: Option<crate::anchor::PowerUpWindow>,
    /// How far the floor's slot management system has taken the journal's
    /// events (issue 48); none before it first connected in this epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor_reported: Option<crate::journal::FloorCursor>,
    /// Tickets of other cabinets redeemed here on the floor's word (issue
    /// 48): a validation number is credited once.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub floor_tickets: BTreeSet<String>,
    /// AFT transfers by transaction id (issue 48): in (true) or out, and
    /// the amount. An id moves money once.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub aft_transfers: BTreeMap<String, (bool, Cents)>,
    /// Issue 71: the transfer journaled pending, not yet made or failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aft_pending: Option<PendingAft>,
    /// Issue 71: the floor's AFT registration of this machine (SAS LP 73).
    #[serde(default, skip_serializing_if = "is_unregistered")]
    pub aft_registration: crate::registration::AftRegistration,
    /// The last level of the floor's SAS progressive group won here
    /// (issue 48: LP 84/85 report it, a hand-pay of its round is that
    /// level's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_floor_award: Option<FloorAward>,
    /// The secure-enhanced validation ID and the last sequence number used
    /// (SAS LP 4C, issue 48); none until the floor sets them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secure_validation: Option<SecureValidation>,
}

/// An AFT transfer journaled pending (issue 71): in, or out to the floor's
/// host, of `value` cents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingAft {
    pub transaction_id: String,
    pub to_host: bool,
    pub value: Cents,
}

/// A machine's secure-enhanced validation ID and its last sequence number
/// (24 bits each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecureValidation {
    pub id: u32,
    pub sequence: u32,
}

impl SecureValidation {
    /// The next ticket's sequence number (24 bits, wrapping) and the
    /// validation number the floor recomputes from it and the ID: the one
    /// rule the cash-out and the fold share.
    pub(crate) fn next(&self) -> (u32, String) {
        let sequence = self.sequence.wrapping_add(1) & crate::ticket::SECURE_ENHANCED_MAX;
        (sequence, crate::ticket::secure_enhanced_number(self.id, sequence))
    }
}

/// A level of the floor's SAS progressive group won in a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloorAward {
    pub round: u64,
    pub group: u8,
    pub level: u8,
    pub amount: Cents,
}

/// A SAS progressive group is 1–255 and its levels 01–20 hex (sas.md §8).
pub(crate) fn floor_level_valid(group: u8, level: u8) -> bool {
    group != 0 && (1..=0x20).contains(&level)
}

/// The journal does not follow from the state: an entry that could not
/// have been written by a correct machine.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{entry}: {problem}")]
pub struct Inconsistency {
    pub entry: &'static str,
    pub problem: String,
}

/// The self-audit failed (C-25): names the equation and both sides.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("self-audit failed: {equation}: {left} ≠ {right}")]
pub struct AuditFailure {
    pub equation: &'static str,
    pub left: u64,
    pub right: u64,
}

/// A machine never registered (serialized states stay as they were).
fn is_unregistered(r: &crate::registration::AftRegistration) -> bool {
    *r == crate::registration::AftRegistration::default()
}

fn fail(entry: &Entry, problem: impl Into<String>) -> Inconsistency {
    Inconsistency { entry: entry.kind(), problem: problem.into() }
}

impl CriticalState {
    /// Issue 71: a transfer made ends the one pending, which must be it
    /// (the same way and amount); none pending, it is made directly.
    fn aft_pending_made(&mut self, e: &Entry, transaction_id: &str, to_host: bool, value: Cents) -> Result<(), Inconsistency> {
        match self.aft_pending.take() {
            None => Ok(()),
            Some(p) if p.transaction_id == transaction_id && p.to_host == to_host && p.value == value => Ok(()),
            Some(p) => Err(fail(e, format!("AFT transfer {:?} is pending, not this one", p.transaction_id))),
        }
    }

    /// B-16: a game's weighted average theoretical payback over all its
    /// wager categories (SAS meter 7F), Σ stake × RTP / Σ stake, in
    /// hundredths of a percent rounded down; None before any coin-in.
    pub fn game_weighted_basis_points(&self, game: &str) -> Option<u128> {
        let (coin_in, theoretical) = self
            .categories
            .get(game)?
            .values()
            .fold((0u128, 0u128), |(c, t), m| (c.saturating_add(u128::from(m.coin_in)), t.saturating_add(m.theoretical_micro)));
        (coin_in > 0).then(|| theoretical / coin_in / 100)
    }

    /// The ticket in the acceptor's path now, this machine's own or the
    /// floor's (issue 70): one at a time.
    pub fn ticket_being_stacked(&self) -> Option<&str> {
        self.ticket_stacking.as_deref().or(self.floor_ticket_stacking.as_ref().map(|(t, _)| t.as_str()))
    }

    /// The linked pools a round of `game` with main wager `main` feeds
    /// (M-19): those of the game whose minimum it reaches.
    fn linked_fed(&self, game: &str, main: Cents) -> Vec<String> {
        self.linked.iter().filter(|(_, (games, min))| main > 0 && main >= *min && games.iter().any(|g| g == game)).map(|(pool, _)| pool.clone()).collect()
    }

    /// Fold one journal entry into the state.
    pub(crate) fn apply(&mut self, e: &Entry) -> Result<(), Inconsistency> {
        match e {
            Entry::Genesis { machine_id, after_clear, epoch_id } => {
                if self.entries != 0 {
                    return Err(fail(e, "genesis is not the first entry"));
                }
                self.machine_id = machine_id.clone();
                self.epoch_id = epoch_id.clone();
                self.clears = after_clear.unwrap_or(0);
                self.clean_shutdown = true;
            }
            Entry::PowerUp { window, .. } => {
                if window.is_some() {
                    self.last_window = *window;
                }
                self.totals.arranques += 1;
                self.games_since_power_up = 0;
                self.clean_shutdown = false;
            }
            Entry::PowerDown => self.clean_shutdown = true,
            Entry::RngSeeded { .. }
            | Entry::CopyRebuilt { .. }
            | Entry::DrawDiscarded { .. }
            | Entry::NoteRejected { .. }
            | Entry::TicketRejected { .. }
            | Entry::Verification { .. }
            | Entry::PrinterPaper { .. } => {}
            Entry::ConfigChanged { config, .. } => self.config = Some((**config).clone()),
            Entry::PoolConfigured { pool, mystery_at } => {
                if self.pools.contains_key(&pool.id) {
                    return Err(fail(e, format!("pool {} already exists: its money cannot be reset (M-20)", pool.id)));
                }
                let mut p = Pool::new(pool.clone()).map_err(|x| fail(e, x.to_string()))?;
                for (level, at) in mystery_at.iter().enumerate() {
                    p.set_mystery(level, *at).map_err(|x| fail(e, x.to_string()))?;
                }
                self.pools.insert(pool.id.clone(), p);
            }
            Entry::CarriedOver { carried } => {
                if self.entries != 1 || self.clears == 0 {
                    return Err(fail(e, "a carry-over only follows the genesis of an epoch after a RAM clear"));
                }
                for amount in &carried.handpays {
                    self.last_handpay += 1;
                    let id = self.last_handpay;
                    self.handpays.insert(id, PendingHandpay { id, handpay: HandpayKind::CancelledCredits, amount: *amount });
                    self.carried_in = add(e, self.carried_in, *amount)?;
                }
                self.tickets.extend(carried.tickets.iter().map(|(v, t)| (v.clone(), t.clone())));
                self.pools.extend(carried.pools.iter().map(|(id, p)| (id.clone(), p.clone())));
                self.linked.extend(carried.linked.iter().map(|(id, l)| (id.clone(), l.clone())));
                self.linked_pending.extend(carried.linked_pending.iter().map(|(id, p)| (id.clone(), p.clone())));
            }
            Entry::LinkedPoolJoined { pool, games, min_wager } => {
                self.linked.insert(pool.clone(), (games.clone(), *min_wager));
            }
            Entry::Anchored { value, writes, .. } => {
                // The counter only moves forward, and every anchor is a write.
                if self.anchor.writes != 0 && (*value <= self.anchor.value || *writes <= self.anchor.writes) {
                    return Err(fail(
                        e,
                        format!("anchor {value} (write {writes}) does not follow anchor {} (write {})", self.anchor.value, self.anchor.writes),
                    ));
                }
                self.anchor = crate::anchor::AnchorState {
                    value: *value,
                    writes: *writes,
                    wagered_at_anchor: self.totals.games.creditos_jogados,
                    meters_at_anchor: crate::anchor::WindowMeters::of(self),
                };
            }
            Entry::LinkedDelivered { pool, rounds } => {
                for r in rounds {
                    if self.linked_pending.get_mut(pool).and_then(|m| m.remove(r)).is_none() {
                        return Err(fail(e, format!("round {r} had no contribution to {pool} pending")));
                    }
                }
            }
            Entry::LinkedRefused { pool, round, .. } => {
                if self.linked_pending.get_mut(pool).and_then(|m| m.remove(round)).is_none() {
                    return Err(fail(e, format!("round {round} had no contribution to {pool} pending")));
                }
            }
            Entry::PoolTransfer { pool, level, amount, to, .. } => {
                let target_ok = match to {
                    TransferTarget::Authority { reference } => !reference.trim().is_empty(),
                    TransferTarget::Pool { pool: other, level: ol } => {
                        let from = self.pools.get(pool).ok_or_else(|| fail(e, format!("no pool {pool}")))?;
                        self.pools.get(other).is_some_and(|o| from.same_model(&o.config) && *ol < o.levels.len() && other != pool)
                    }
                };
                if !target_ok {
                    return Err(fail(e, "a transfer needs a pool of the same game model or an authority reference (M-23)"));
                }
                self.pools
                    .get_mut(pool)
                    .ok_or_else(|| fail(e, format!("no pool {pool}")))?
                    .transfer_out(*level, *amount)
                    .map_err(|x| fail(e, x.to_string()))?;
                if let TransferTarget::Pool { pool: other, level: ol } = to
                    && let Some(o) = self.pools.get_mut(other)
                {
                    o.transfer_in(*ol, *amount).map_err(|x| fail(e, x.to_string()))?;
                }
            }
            Entry::NoteStacking { value } => {
                if let Some(v) = self.note_stacking {
                    return Err(fail(e, format!("a note of {v} cents is already being stacked")));
                }
                if let Some(t) = self.ticket_being_stacked() {
                    return Err(fail(e, format!("ticket {t} is being stacked")));
                }
                self.note_stacking = Some(*value);
            }
            Entry::TicketStacking { validation } => {
                if let Some(v) = self.note_stacking {
                    return Err(fail(e, format!("a note of {v} cents is being stacked")));
                }
                if let Some(t) = self.ticket_being_stacked() {
                    return Err(fail(e, format!("ticket {t} is already being stacked")));
                }
                if self.tickets.get(validation).is_none_or(|t| t.redeemed) {
                    return Err(fail(e, format!("ticket {validation} is not an unredeemed ticket of this machine")));
                }
                self.ticket_stacking = Some(validation.clone());
            }
            Entry::TicketReturned { validation } => {
                if self.ticket_stacking.as_ref() != Some(validation) {
                    return Err(fail(e, format!("ticket {validation} was not being stacked")));
                }
                self.ticket_stacking = None;
            }
            Entry::NoteReturned { value } => {
                if self.note_stacking != Some(*value) {
                    return Err(fail(e, format!("no note of {value} cents was being stacked")));
                }
                self.note_stacking = None;
            }
            Entry::NoteIn { value } => {
                // Issue 70: the credit of the note being stacked, if it is
                // that one (a note credited at once is none's).
                if self.note_stacking == Some(*value) {
                    self.note_stacking = None;
                }
                self.credit = add(e, self.credit, *value)?;
                self.totals.dinheiro_entrado += value;
                *self.totals.notas_por_valor.entry(*value).or_default() += 1;
            }
            Entry::TicketIn { validation, value } => {
                // Issue 70: the credit of the ticket being stacked, if it
                // is that one.
                if self.ticket_stacking.as_ref() == Some(validation) {
                    self.ticket_stacking = None;
                }
                let t = self.tickets.get_mut(validation).ok_or_else(|| fail(e, format!("ticket {validation} was never issued")))?;
                if t.redeemed || t.value != *value {
                    return Err(fail(e, format!("ticket {validation} is redeemed or of another value")));
                }
                t.redeemed = true;
                self.credit = add(e, self.credit, *value)?;
                self.totals.bilhetes_codificados_entrados += value;
                self.totals.bilhetes_entrados_contagem += 1;
            }
            Entry::TicketOut { validation, value, issued_utc, sequence } => {
                // Issue 48: a secure-enhanced number is the one the floor
                // can recompute from the ID and the next sequence, no other.
                if let Some(sequence) = sequence {
                    let v = self.secure_validation.as_mut().ok_or_else(|| fail(e, "a secure-enhanced ticket without a validation ID set"))?;
                    let (next, number) = v.next();
                    if *sequence != next || *validation != number {
                        return Err(fail(e, format!("ticket {validation} is not ID {:06X}'s number for sequence {next}", v.id)));
                    }
                    v.sequence = next;
                }
                self.credit = sub(e, self.credit, *value)?;
                self.totals.cancelamento_creditos += value;
                self.totals.bilhetes_codificados_pagos += value;
                self.totals.bilhetes_pagos_contagem += 1;
                let ticket = IssuedTicket { value: *value, redeemed: false, printed: false, issued_utc: issued_utc.clone().unwrap_or_default() };
                if self.tickets.insert(validation.clone(), ticket).is_some() {
                    return Err(fail(e, format!("validation number {validation} issued twice")));
                }
            }
            Entry::TicketPrinted { validation } => {
                let t = self.tickets.get_mut(validation).ok_or_else(|| fail(e, format!("no ticket {validation} was issued")))?;
                if t.printed {
                    return Err(fail(e, format!("ticket {validation} is already printed")));
                }
                t.printed = true;
            }
            Entry::HandpayLocked { id, handpay, amount } => {
                if *id != self.last_handpay + 1 {
                    return Err(fail(e, format!("hand-pay {id} out of sequence")));
                }
                if let HandpayKind::CancelledCredits = handpay {
                    self.credit = sub(e, self.credit, *amount)?;
                }
                self.last_handpay = *id;
                self.handpays.insert(*id, PendingHandpay { id: *id, handpay: handpay.clone(), amount: *amount });
            }
            Entry::HandpayPaid { id, .. } => {
                let hp = self.handpays.remove(id).ok_or_else(|| fail(e, format!("no hand-pay {id}")))?;
                self.totals.pagamentos_manuais_contagem += 1;
                match hp.handpay {
                    HandpayKind::CancelledCredits => self.totals.cancelamento_creditos_manual += hp.amount,
                    HandpayKind::Jackpot { game, denom, .. } => {
                        for m in self.game_scopes(&game, denom) {
                            m.premio_acumulado_manual += hp.amount;
                        }
                    }
                }
            }
            Entry::RoundBegun { round, game, denom, stake, credit_before, side_stake, committed, unlinked, category, wagers, .. } => {
                if side_stake > stake {
                    return Err(fail(e, "the side bet exceeds the stake"));
                }
                if category.iter().chain(wagers.iter().map(|w| &w.category)).any(|c| !c.well_formed()) {
                    return Err(fail(e, "a wager category is named and returns at most 100%"));
                }
                // B-16: a stake shared out is shared out whole, once.
                if !wagers.is_empty() {
                    let shared = wagers.iter().try_fold(0u64, |t, w| t.checked_add(w.stake));
                    if category.is_some() || shared != Some(*stake) {
                        return Err(fail(e, "the wagers' stakes sum to the round's stake, and stand instead of its one category"));
                    }
                }
                if let Some(p) = unlinked.iter().find(|p| !self.linked.contains_key(*p) || committed.as_ref().is_some_and(|d| d.pool == **p)) {
                    return Err(fail(e, format!("round {round} cannot be played without linked pool {p}")));
                }
                // Issue 46: a committed round begins only as committed.
                let drawn_from = match (&self.linked_commitment, committed) {
                    (None, None) => None,
                    (Some(c), Some(d))
                        if c.round == *round
                            && c.pool == d.pool
                            && c.game == *game
                            && c.denom == *denom
                            && c.stake == *stake
                            && c.side_stake == *side_stake =>
                    {
                        Some(CommittedRound { pool: d.pool.clone(), key: c.key.clone(), nonce: d.nonce.clone() })
                    }
                    (Some(c), _) => return Err(fail(e, format!("round {} is committed to pool {}: only its committed draw begins it", c.round, c.pool))),
                    (None, Some(d)) => return Err(fail(e, format!("round {round} was not committed to pool {}", d.pool))),
                };
                if self.open_round.is_some() {
                    return Err(fail(e, "a round is already open"));
                }
                if *round != self.last_round + 1 {
                    return Err(fail(e, format!("round {round} out of sequence")));
                }
                if *credit_before != self.credit {
                    return Err(fail(e, "credit before the round does not match the meter"));
                }
                self.credit = sub(e, self.credit, *stake)?;
                // The wager's contributions, in its own record (M-21): a
                // side-bet pool takes the side bet, every other pool the
                // main wager.
                let mut contributions = Vec::new();
                for (id, pool) in self.pools.iter_mut() {
                    let wager = pool.wager(*stake, *side_stake);
                    if wager > 0 && pool.qualifies(game, wager) {
                        contributions.push((id.clone(), pool.contribute_for(wager, *round)));
                    }
                }
                let main = stake - side_stake;
                let linked: Vec<String> = self.linked_fed(game, main).into_iter().filter(|p| !unlinked.contains(p)).collect();
                for pool in linked.iter().cloned() {
                    self.linked_pending.entry(pool.clone()).or_default().insert(*round, main);
                    let owed = self.linked_owed.entry(pool).or_default();
                    owed.rounds = add(e, owed.rounds, 1)?;
                    owed.wagered = add(e, owed.wagered, main)?;
                }
                self.last_round = *round;
                self.open_round = Some(OpenRound {
                    round: *round,
                    game: game.clone(),
                    denom: *denom,
                    stake: *stake,
                    credit_before: *credit_before,
                    steps: 1,
                    side_stake: *side_stake,
                    contributions,
                    committed: drawn_from,
                    linked,
                    category: category.clone(),
                    wagers: wagers.clone(),
                    step_wagers: Vec::new(),
                });
                self.linked_commitment = None;
            }
            Entry::LinkedWithdrawn { pool, round, .. } => {
                if !self.linked_commitment.as_ref().is_some_and(|c| c.pool == *pool && c.round == *round) {
                    return Err(fail(e, format!("round {round} was not committed to pool {pool}")));
                }
                self.linked_commitment = None;
            }
            Entry::LinkedCommitted { pool, round, game, denom, stake, side_stake, bet, key } => {
                if self.open_round.is_some() || self.linked_commitment.is_some() {
                    return Err(fail(e, "a round is open or already committed"));
                }
                if *round != self.last_round + 1 {
                    return Err(fail(e, format!("round {round} out of sequence")));
                }
                if !self.linked.contains_key(pool) {
                    return Err(fail(e, format!("no linked pool {pool}")));
                }
                if *stake > self.credit || side_stake > stake {
                    return Err(fail(e, "the committed stake is not covered by the credit"));
                }
                self.linked_commitment = Some(LinkedCommitment {
                    pool: pool.clone(),
                    round: *round,
                    game: game.clone(),
                    denom: *denom,
                    stake: *stake,
                    side_stake: *side_stake,
                    bet: bet.clone(),
                    key: key.clone(),
                });
            }
            Entry::RoundStep { round, extra_stake, category, .. } => {
                let credit = sub(e, self.credit, *extra_stake)?;
                if category.as_ref().is_some_and(|c| !c.well_formed() || *extra_stake == 0) {
                    return Err(fail(e, "an extra stake's wager category is named, returns at most 100% and has a stake"));
                }
                let open = self.open_round_mut(e, *round)?;
                open.stake = add(e, open.stake, *extra_stake)?;
                open.steps += 1;
                if let Some(c) = category {
                    match open.step_wagers.iter_mut().find(|w| w.category == *c) {
                        Some(w) => w.stake = add(e, w.stake, *extra_stake)?,
                        None => open.step_wagers.push(Wager { category: c.clone(), stake: *extra_stake }),
                    }
                }
                self.credit = credit;
            }
            Entry::RoundResumed { round, .. } => {
                self.open_round_mut(e, *round)?;
            }
            Entry::RoundSettled { round, win, payment, credit_after, progressive, .. } => {
                let open = self.open_round_mut(e, *round)?.clone();
                let mut progressive_total: Cents = 0;
                for a in progressive {
                    if let Some(group) = a.floor_group {
                        let level = u8::try_from(a.level).ok().filter(|l| floor_level_valid(group, *l));
                        let Some(level) = level.filter(|_| !a.linked) else {
                            return Err(fail(e, format!("SAS group {group} level {} is not a floor progressive level", a.level)));
                        };
                        // Issue 48: the amount came over the floor's line,
                        // unsigned: an attendant checks it before it is paid.
                        if !matches!(payment, WinPayment::Handpay { .. }) {
                            return Err(fail(e, format!("SAS group {group} level {level} was credited without an attendant's hand-pay")));
                        }
                        progressive_total = add(e, progressive_total, a.amount)?;
                        self.last_floor_award = Some(FloorAward { round: *round, group, level, amount: a.amount });
                        continue;
                    }
                    if a.linked {
                        if !self.linked.contains_key(&a.pool) {
                            return Err(fail(e, format!("this machine is not in linked pool {}", a.pool)));
                        }
                        progressive_total = add(e, progressive_total, a.amount)?;
                        continue;
                    }
                    let machine = self.machine_id.clone();
                    let pool = self.pools.get_mut(&a.pool).ok_or_else(|| fail(e, format!("no pool {}", a.pool)))?;
                    if !pool.qualifies(&open.game, pool.wager(open.stake, open.side_stake)) {
                        return Err(fail(e, format!("round {round} does not qualify for pool {}", a.pool)));
                    }
                    let amount = pool.award_share(a.level, a.share_ppm, a.time, &machine, *round).map_err(|x| fail(e, x.to_string()))?;
                    if amount != a.amount {
                        return Err(fail(e, format!("pool {} level {} held {amount}, the record says {}", a.pool, a.level, a.amount)));
                    }
                    if pool.mystery_range(a.level).is_some() {
                        pool.set_mystery(a.level, a.next_mystery_at).map_err(|x| fail(e, x.to_string()))?;
                    }
                    progressive_total = add(e, progressive_total, amount)?;
                }
                // A mystery level this round's wager took past its hidden
                // value must be paid in this settlement.
                for (id, pool) in &self.pools {
                    if let Some(l) = pool.levels.iter().position(|l| l.mystery_due == Some(*round)) {
                        return Err(fail(e, format!("round {round} won the mystery level {l} of pool {id} and did not pay it")));
                    }
                }
                if progressive_total > *win {
                    return Err(fail(e, "progressive awards exceed the round's win"));
                }
                for m in self.game_scopes(&open.game, open.denom) {
                    m.premios_acumulados_progressivos = add(e, m.premios_acumulados_progressivos, progressive_total)?;
                }
                if let WinPayment::Credited { .. } = payment {
                    self.credit = add(e, self.credit, *win)?;
                    self.totals.ganhos_creditados = add(e, self.totals.ganhos_creditados, *win)?;
                }
                if *credit_after != self.credit {
                    return Err(fail(e, "credit after the round does not match the meter"));
                }
                // Checked: a meter never wraps (issue 21: a forged win once
                // took "créditos ganhos" down and the modular audit passed).
                for m in self.game_scopes(&open.game, open.denom) {
                    m.creditos_jogados = add(e, m.creditos_jogados, open.stake)?;
                    m.creditos_ganhos = add(e, m.creditos_ganhos, *win)?;
                    m.jogadas_efectuadas = add(e, m.jogadas_efectuadas, 1)?;
                    if *win > 0 {
                        m.jogadas_ganhas = add(e, m.jogadas_ganhas, 1)?;
                    } else {
                        m.jogadas_perdidas = add(e, m.jogadas_perdidas, 1)?;
                    }
                    if let WinPayment::Credited { jackpot: true } = payment {
                        m.premios_acumulados = add(e, m.premios_acumulados, *win)?;
                    }
                }
                // B-16: each category's coin-in and theoretical payback: the
                // one category the whole stake, or each wager its part; the
                // stakes the round's decisions added (a double, a raise)
                // are the first wager's, the bet they are made on, but for
                // those placed on a bet of its own (insurance), each in its
                // category.
                let own = open.step_wagers.iter().try_fold(0u64, |t, w| t.checked_add(w.stake)).ok_or_else(|| fail(e, "the extra stakes overflow"))?;
                let stake = sub(e, open.stake, own)?;
                let mut shares: Vec<(&WagerCategory, Cents)> = match (&open.category, open.wagers.split_first()) {
                    (Some(c), _) => vec![(c, stake)],
                    (None, Some((first, rest))) => {
                        let added = stake.saturating_sub(open.wagers.iter().fold(0, |t, w| t.saturating_add(w.stake)));
                        std::iter::once((&first.category, add(e, first.stake, added)?)).chain(rest.iter().map(|w| (&w.category, w.stake))).collect()
                    }
                    (None, None) => Vec::new(),
                };
                if !shares.is_empty() {
                    shares.extend(open.step_wagers.iter().map(|w| (&w.category, w.stake)));
                }
                for (c, stake) in shares {
                    let m = self.categories.entry(open.game.clone()).or_default().entry(c.name.clone()).or_default();
                    m.coin_in = add(e, m.coin_in, stake)?;
                    let theo = u128::from(stake) * u128::from(c.rtp_ppm);
                    m.theoretical_micro = m.theoretical_micro.checked_add(theo).ok_or_else(|| fail(e, "the theoretical payback meter would overflow"))?;
                    m.rtp_ppm = c.rtp_ppm;
                }
                self.games_since_power_up += 1;
                self.games_since_door_close += 1;
                self.open_round = None;
            }
            // Issue 47, hole 6: no longer written (a round's outcome is
            // committed when it begins, and it is always finished with
            // it); folded for the journals that hold one.
            Entry::RoundVoided { round, refund, credit_after, .. } => {
                let open = self.open_round_mut(e, *round)?.clone();
                if *refund != open.stake {
                    return Err(fail(e, "a void must refund the whole stake"));
                }
                // Issue 46: a round drawn from a linked controller's nonce
                // has an outcome the controller can draw again: it is
                // finished, never voided.
                if let Some(c) = &open.committed {
                    return Err(fail(e, format!("round {round} was drawn from pool {}'s nonce: its outcome exists, it is never voided", c.pool)));
                }
                self.credit = add(e, self.credit, *refund)?;
                if *credit_after != self.credit {
                    return Err(fail(e, "credit after the void does not match the meter"));
                }
                for m in self.game_scopes(&open.game, open.denom) {
                    m.jogadas_anuladas += 1;
                    m.reembolsos_anulacao += refund;
                }
                // The refunded wager leaves the pools it fed, and the
                // linked outbox if the controller has not taken it yet.
                for (id, made) in &open.contributions {
                    let pool = self.pools.get_mut(id).ok_or_else(|| fail(e, format!("the voided round fed pool {id}, which is gone")))?;
                    pool.take_back(made).map_err(|x| fail(e, x.to_string()))?;
                }
                for pending in self.linked_pending.values_mut() {
                    pending.remove(round);
                }
                let main = open.stake.saturating_sub(open.side_stake);
                for pool in open.linked.iter().cloned() {
                    let owed = self.linked_owed.entry(pool).or_default();
                    owed.rounds = sub(e, owed.rounds, 1)?;
                    owed.wagered = sub(e, owed.wagered, main)?;
                }
                self.open_round = None;
            }
            Entry::DoorOpened { door } => {
                self.doors_open.insert(*door);
                *self.totals.aberturas_porta.entry(*door).or_default() += 1;
            }
            Entry::DoorClosed { door } => {
                self.doors_open.remove(door);
                if self.doors_open.is_empty() {
                    self.games_since_door_close = 0;
                }
            }
            Entry::TiltSet { tilt, .. } => {
                self.tilts.insert(*tilt);
            }
            Entry::TiltCleared { tilt, .. } => {
                self.tilts.remove(tilt);
            }
            Entry::MeterRollover { meter, count } => {
                self.rollovers_logged.insert(meter.clone(), *count);
            }
            Entry::SoftwareChanged { component, sha256, outcome, .. } => {
                if component.is_empty() {
                    return Err(fail(e, "a software change names its component"));
                }
                match outcome {
                    SoftwareOutcome::Installed | SoftwareOutcome::Replaced => {
                        self.software.insert(component.clone(), sha256.clone());
                        self.refused_software.remove(component);
                    }
                    SoftwareOutcome::Removed => {
                        self.software.remove(component);
                        self.refused_software.remove(component);
                    }
                    SoftwareOutcome::Refused => {
                        self.refused_software.insert(component.clone(), sha256.clone());
                    }
                }
            }
            Entry::VariantChosen { family, game, .. } => {
                if family.is_empty() || game.is_empty() {
                    return Err(fail(e, "a variant choice names the game and the variant"));
                }
                self.variants.insert(family.clone(), game.clone());
            }
            Entry::ValidationIdSet { id, sequence } => {
                let max = crate::ticket::SECURE_ENHANCED_MAX;
                if *id == 0 || *id > max || *sequence > max {
                    return Err(fail(e, format!("validation ID {id} or sequence {sequence} is outside 1..=16777215")));
                }
                self.secure_validation = Some(SecureValidation { id: *id, sequence: *sequence });
            }
            Entry::FloorTicketStacking { validation, value } => {
                if let Some(v) = self.note_stacking {
                    return Err(fail(e, format!("a note of {v} cents is being stacked")));
                }
                if let Some(t) = self.ticket_being_stacked() {
                    return Err(fail(e, format!("ticket {t} is already being stacked")));
                }
                let own = self.tickets.get(validation);
                if self.floor_tickets.contains(validation) || own.is_some_and(|t| t.redeemed || t.value != *value) {
                    return Err(fail(e, format!("ticket {validation} is redeemed or of another value")));
                }
                self.floor_ticket_stacking = Some((validation.clone(), *value));
            }
            Entry::FloorTicketIn { validation, value } => {
                // Issue 70: the credit of the floor's ticket being stacked,
                // if it is that one.
                if let Some((v, amount)) = &self.floor_ticket_stacking
                    && v == validation
                {
                    if amount != value {
                        return Err(fail(e, format!("ticket {validation} was authorised for {amount} cents, not {value}")));
                    }
                    self.floor_ticket_stacking = None;
                }
                // One of this machine's tickets, redeemed through the floor
                // that validates every ticket; or another cabinet's.
                if let Some(t) = self.tickets.get_mut(validation) {
                    if t.redeemed || t.value != *value {
                        return Err(fail(e, format!("ticket {validation} is redeemed or of another value")));
                    }
                    t.redeemed = true;
                } else if !self.floor_tickets.insert(validation.clone()) {
                    return Err(fail(e, format!("ticket {validation} was redeemed already")));
                }
                self.credit = add(e, self.credit, *value)?;
                self.totals.bilhetes_codificados_entrados = add(e, self.totals.bilhetes_codificados_entrados, *value)?;
                self.totals.bilhetes_entrados_contagem += 1;
            }
            Entry::FloorTicketRefused { validation, .. } => {
                // Issue 70: the floor's ticket being stacked went back.
                if self.floor_ticket_stacking.as_ref().is_some_and(|(v, _)| v == validation) {
                    self.floor_ticket_stacking = None;
                }
            }
            Entry::AftPending { transaction_id, to_host, value } => {
                if let Some(p) = &self.aft_pending {
                    return Err(fail(e, format!("AFT transfer {:?} is pending already", p.transaction_id)));
                }
                if self.aft_transfers.contains_key(transaction_id) {
                    return Err(fail(e, format!("AFT transaction {transaction_id:?} moved money already")));
                }
                self.aft_pending = Some(PendingAft { transaction_id: transaction_id.clone(), to_host: *to_host, value: *value });
            }
            Entry::AftRegistration { registration, .. } => {
                if let Some(why) = self.aft_registration.refuses(registration) {
                    return Err(fail(e, why));
                }
                self.aft_registration = *registration;
            }
            Entry::AftRegistrationAcknowledged { .. } => {
                if self.aft_registration.status != crate::registration::RegistrationStatus::Pending {
                    return Err(fail(e, "no AFT registration awaits an operator's acknowledgement"));
                }
                self.aft_registration.status = crate::registration::RegistrationStatus::Ready;
            }
            Entry::AftRegistrationRequested { .. } => {}
            Entry::AftFailed { transaction_id, .. } => {
                if self.aft_pending.as_ref().is_none_or(|p| &p.transaction_id != transaction_id) {
                    return Err(fail(e, format!("AFT transfer {transaction_id:?} is not the one pending")));
                }
                self.aft_pending = None;
            }
            Entry::AftIn { transaction_id, value } => {
                self.aft_pending_made(e, transaction_id, false, *value)?;
                if self.aft_transfers.insert(transaction_id.clone(), (true, *value)).is_some() {
                    return Err(fail(e, format!("AFT transaction {transaction_id:?} moved money already")));
                }
                self.credit = add(e, self.credit, *value)?;
                self.totals.transferencias_entrada = add(e, self.totals.transferencias_entrada, *value)?;
                self.totals.transferencias_entrada_contagem += 1;
            }
            Entry::AftOut { transaction_id, value } => {
                self.aft_pending_made(e, transaction_id, true, *value)?;
                if self.aft_transfers.insert(transaction_id.clone(), (false, *value)).is_some() {
                    return Err(fail(e, format!("AFT transaction {transaction_id:?} moved money already")));
                }
                self.credit = sub(e, self.credit, *value)?;
                self.totals.transferencias_saida = add(e, self.totals.transferencias_saida, *value)?;
                self.totals.transferencias_saida_contagem += 1;
            }
            Entry::FloorReported { cursor } => {
                if let Some(old) = &self.floor_reported
                    && cursor.up_to < old.up_to
                {
                    return Err(fail(e, format!("the floor's cursor goes back from {} to {}", old.up_to, cursor.up_to)));
                }
                self.floor_reported = Some(cursor.clone());
            }
        }
        self.entries += 1;
        Ok(())
    }

    fn open_round_mut(&mut self, e: &Entry, round: u64) -> Result<&mut OpenRound, Inconsistency> {
        match self.open_round.as_mut() {
            Some(open) if open.round == round => Ok(open),
            _ => Err(fail(e, format!("round {round} is not the open round"))),
        }
    }

    /// The three game-meter sets an event of `game` at `denom` moves:
    /// machine totals, the game's and the denomination's.
    fn game_scopes(&mut self, game: &str, denom: Cents) -> [&mut GameMeters; 3] {
        [&mut self.totals.games, self.per_game.entry(game.to_owned()).or_default(), self.per_denom.entry(denom).or_default()]
    }

    /// Stakes of the open round, held outside the credit meter.
    pub fn stake_in_play(&self) -> Cents {
        self.open_round.as_ref().map_or(0, |r| r.stake)
    }

    fn pending_handpays(&self, cancelled_credits: bool) -> Cents {
        self.handpays.values().filter(|h| matches!(h.handpay, HandpayKind::CancelledCredits) == cancelled_credits).map(|h| h.amount).sum()
    }

    /// The self-audit (decisions.md "Meters", C-25), in modular arithmetic:
    /// 1. credit = money in + tickets in + prizes credited − wagers − stake
    ///    in play − cash-outs (ticket, hand-paid and awaiting hand-pay);
    /// 2. créditos ganhos = prizes credited + hand-paid jackpots + jackpots
    ///    awaiting hand-pay;
    /// 3. per-game and per-denomination meters each sum to the totals.
    pub fn self_audit(&self) -> Result<(), AuditFailure> {
        let t = &self.totals;
        let g = &t.games;
        let left = self
            .credit
            .wrapping_add(g.creditos_jogados)
            .wrapping_add(self.stake_in_play())
            .wrapping_add(t.cancelamento_creditos)
            .wrapping_add(t.cancelamento_creditos_manual)
            .wrapping_add(t.transferencias_saida)
            .wrapping_add(self.pending_handpays(true));
        let right = t
            .dinheiro_entrado
            .wrapping_add(t.bilhetes_codificados_entrados)
            .wrapping_add(t.transferencias_entrada)
            .wrapping_add(t.ganhos_creditados)
            .wrapping_add(self.carried_in);
        if left != right {
            return Err(AuditFailure {
                equation: "credit + wagers + stake in play + cash-outs + transfers out = money in + tickets in + transfers in + prizes credited + owed from before a RAM clear",
                left,
                right,
            });
        }
        let left = g.creditos_ganhos;
        let right = t.ganhos_creditados.wrapping_add(g.premio_acumulado_manual).wrapping_add(self.pending_handpays(false));
        if left != right {
            return Err(AuditFailure { equation: "créditos ganhos = prizes credited + hand-paid and pending jackpots", left, right });
        }
        if t.bilhetes_codificados_pagos != t.cancelamento_creditos {
            return Err(AuditFailure {
                equation: "bilhetes codificados pagos = cancelamento de créditos",
                left: t.bilhetes_codificados_pagos,
                right: t.cancelamento_creditos,
            });
        }
        let notes: u64 = t.notas_por_valor.iter().map(|(v, n)| v.wrapping_mul(*n)).sum();
        if notes != t.dinheiro_entrado {
            return Err(AuditFailure { equation: "Σ notes per value = dinheiro entrado", left: notes, right: t.dinheiro_entrado });
        }
        for (scope, sets) in [
            ("per-game meters sum to the totals", GameMeters::sum(self.per_game.values())),
            ("per-denomination meters sum to the totals", GameMeters::sum(self.per_denom.values())),
        ] {
            if sets != *g {
                return Err(AuditFailure { equation: scope, left: sets.creditos_jogados, right: g.creditos_jogados });
            }
        }
        Ok(())
    }

    /// Machine meters whose display rolled over more often than logged:
    /// `(meter key, rollover count)` pairs to record (C-21).
    pub(crate) fn unlogged_rollovers(&self, digits: u8) -> Vec<(String, u64)> {
        M25::ALL
            .iter()
            .filter_map(|m| Some((m.key(), m.machine_value(&self.totals)?)))
            .filter_map(|(key, value)| {
                let n = crate::meters::rollovers(value, digits);
                let logged = self.rollovers_logged.get(key).copied().unwrap_or(0);
                (n > logged).then(|| (key.to_owned(), n))
            })
            .collect()
    }
}

fn add(e: &Entry, a: Cents, b: Cents) -> Result<Cents, Inconsistency> {
    a.checked_add(b).ok_or_else(|| fail(e, "credit meter overflow"))
}

fn sub(e: &Entry, a: Cents, b: Cents) -> Result<Cents, Inconsistency> {
    a.checked_sub(b).ok_or_else(|| fail(e, format!("credit {a} cannot pay {b}")))
}
