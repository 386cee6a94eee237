//! The journal: every event the machine records, one entry per fact.
//!
//! Critical memory is this journal (append-only, MAC-chained, see
//! [`crate::store`]); the meters, the credit, the open game cycle, doors and
//! tilts are a pure fold over it ([`crate::state::CriticalState::apply`]).
//! Each command of [`crate::Machine`] appends its entries in one SQLite
//! transaction, so all the meters an event moves move together (C-23).

use serde::{Deserialize, Serialize};

use crate::config::MachineConfig;
use crate::meters::Door;
use crate::money::Cents;
use crate::progressive::PoolConfig;
use crate::rng::SeedSource;

/// A progressive level won in a round (M-21): paid in the round's own
/// settlement, with the value the level had.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgressiveAward {
    pub pool: String,
    pub level: usize,
    pub amount: Cents,
    /// Seconds since the Unix epoch (the hit's time in the last-25 list).
    pub time: i64,
    /// Awarded by the linked progressive controller (M-19), not a pool of
    /// this machine.
    #[serde(default)]
    pub linked: bool,
    /// A mystery level's next hidden value, drawn at this award.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_mystery_at: Option<Cents>,
    /// The share of the level awarded, in millionths: the whole level
    /// (absent) or a part of it (a stud side bet's straight flush takes 10%).
    #[serde(default = "whole_level", skip_serializing_if = "is_whole_level")]
    pub share_ppm: u32,
    /// Issue 48: a level of the floor's SAS progressive group (its number),
    /// won at the amount the floor's controller last broadcast. Never a
    /// pool of this machine nor a linked controller's award: the round's
    /// whole win is locked up for an attendant, who checks the amount
    /// against the controller before paying (sas.md §8; M-12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor_group: Option<u8>,
}

/// The whole of a level, in millionths.
pub const WHOLE_LEVEL: u32 = 1_000_000;

fn whole_level() -> u32 {
    WHOLE_LEVEL
}

fn is_whole_level(share: &u32) -> bool {
    *share == WHOLE_LEVEL
}

fn is_zero(x: &Cents) -> bool {
    *x == 0
}

/// Where a transfer out of a pool goes (M-23).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TransferTarget {
    /// A level of a pool of the same game model and bet type.
    Pool { pool: String, level: usize },
    /// Anything else needs the authority's reference.
    Authority { reference: String },
}

/// One recorded step of a game cycle: the outcome drawn, a decision, a
/// reveal. `data` is the game's own record (game-core serialises it); the
/// core keeps it for recall and recovery without interpreting it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub name: String,
    pub data: serde_json::Value,
}

impl Step {
    pub fn new(name: impl Into<String>, data: serde_json::Value) -> Self {
        Self { name: name.into(), data }
    }
}

/// A part of a round's win, for recall and PAR reconciliation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WinComponent {
    pub label: String,
    pub amount: Cents,
}

/// How a round's prize was paid (M-12, M-33).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WinPayment {
    /// Added to the credit meter; `jackpot` when at or above the jackpot
    /// threshold (M-25 g "prémios acumulados").
    Credited { jackpot: bool },
    /// Locked up for an attendant: at or above the hand-pay limit.
    Handpay { id: u64 },
}

/// Why a hand-pay lock-up happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HandpayKind {
    /// A win at or above the hand-pay limit (F-44).
    Jackpot { round: u64, game: String, denom: Cents },
    /// A cash-out above the ticket-out limit (F-43).
    CancelledCredits,
}

/// Conditions that stop play until cleared (certification.md E-38).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Tilt {
    /// The self-audit found the meters inconsistent (C-25).
    SelfAudit,
    /// The logic door was opened: attendant clear and re-verification (E-37).
    LogicDoorAccess,
    /// A program, paytable or asset digest did not match the manifest (H-51).
    ProgramVerification,
    /// A device fault reported by the cabinet (printer, note acceptor).
    DeviceFault,
    /// The floor's slot management system disabled play (SAS LP 01, issue
    /// 48): play and the note acceptor stop until it enables play again
    /// (LP 02); an attendant cannot clear it.
    FloorDisabled,
    /// C-26: a play's coin-in or a note's bills-in at or above the
    /// configured increment: refused, and play stops until an attendant
    /// clears it.
    ExcessiveMeterIncrement,
    /// Issue 70, E-38: the note acceptor stopped. Play and notes stop
    /// until an attendant clears it, which the host asks only once the
    /// acceptor itself reports the fault gone (E-36).
    NoteAcceptor(AcceptorFault),
    /// Issue 70, E-38: the ticket printer stopped. Play and cash-out by
    /// ticket stop until an attendant clears it, which the host asks only
    /// once the printer itself reports the fault gone (E-36).
    Printer(PrinterFault),
    /// Issue 70, E-37: a door's switch and optic disagreed past the time
    /// the door takes to move (a switch held shut by hand, an optic
    /// blinded, a sensor failed). The door counts as open meanwhile; an
    /// attendant clears it once the host reads the two agreeing.
    DoorSensors(crate::meters::Door),
    /// Issue 71: the floor's slot management system put the cabinet in
    /// maintenance mode (SAS LP 0A): play stops until it takes it out (LP
    /// 0B), apart from its disabling play (LP 01); an attendant cannot
    /// clear it.
    FloorMaintenance,
}

/// Issue 70: why the ticket printer stopped (E-38).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PrinterFault {
    PaperOut,
    PaperJam,
    /// Its cover or print head is open.
    Open,
    /// A failure of its own: head, voltage, temperature, system.
    Failure,
    Offline,
    /// The printer stopped answering, or answers what does not read.
    CommunicationLost,
}

impl PrinterFault {
    pub const ALL: [PrinterFault; 6] =
        [PrinterFault::PaperOut, PrinterFault::PaperJam, PrinterFault::Open, PrinterFault::Failure, PrinterFault::Offline, PrinterFault::CommunicationLost];
}

/// Issue 70: why the note acceptor stopped (E-38), each told to the floor
/// by its own SAS exception.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum AcceptorFault {
    /// A note jammed in the acceptor's or the stacker's path.
    Jam,
    StackerFull,
    /// The stacker (the cash box) is out of the acceptor.
    StackerRemoved,
    /// The acceptor detected an attempt to pull a note back (stringing).
    Cheat,
    /// The acceptor reports a failure of its own (a sensor, a motor).
    Failure,
    /// The acceptor stopped answering, or answers what does not read.
    CommunicationLost,
}

impl AcceptorFault {
    pub const ALL: [AcceptorFault; 6] = [
        AcceptorFault::Jam,
        AcceptorFault::StackerFull,
        AcceptorFault::StackerRemoved,
        AcceptorFault::Cheat,
        AcceptorFault::Failure,
        AcceptorFault::CommunicationLost,
    ];
}

/// How far the floor's slot management system has taken this journal's
/// events (SAS exceptions, issue 48): every event up to `up_to`, and
/// these after it (taken out of order: the priority exceptions). After a
/// power cut the cabinet tells the floor exactly the events it has not
/// taken: a door opened while the cabinet was off is still reported.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloorCursor {
    pub up_to: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub above: Vec<u64>,
}

impl FloorCursor {
    /// Whether the floor has taken the event at `seq`.
    pub fn taken(&self, seq: u64) -> bool {
        seq <= self.up_to || self.above.contains(&seq)
    }
}

/// Issue 46: how a committed round was drawn: the pool whose controller
/// answered, and its nonce (hex). With the round's key (its
/// `Entry::LinkedCommitted`) anyone recomputes the draw
/// (`rng::CommittedStream`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommittedDraw {
    pub pool: String,
    pub nonce: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// The first entry of a journal; after a RAM clear it names the clear.
    Genesis {
        machine_id: String,
        after_clear: Option<u64>,
        /// A random identifier of this journal's epoch, made at genesis and
        /// at each RAM clear (issue 13): the linked controller keys this
        /// machine's contributions and awards by it with the round, so a
        /// round number that restarts after a clear never repeats a key.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        epoch_id: String,
    },
    PowerUp {
        unclean_shutdown: bool,
        /// The window since the last anchor, as this power-up found it
        /// (issue 47, hole 3); none on a new machine's first boot and in
        /// journals of earlier versions.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        window: Option<crate::anchor::PowerUpWindow>,
    },
    PowerDown,
    /// The key store's counter was advanced and read back (issue 21): the
    /// journal is bound to `value`. `writes` counts the machine's NV writes
    /// over its life (the wear meter).
    Anchored {
        value: u64,
        reason: crate::anchor::AnchorReason,
        writes: u64,
    },
    /// What the machine owed at the RAM clear that began this epoch, right
    /// after its genesis (D-32; issue 21).
    CarriedOver {
        carried: Box<crate::carry::Carried>,
    },
    /// A copy of critical memory was rebuilt from the other at boot (D-28):
    /// a recoverable event, logged with why.
    CopyRebuilt {
        detail: String,
    },
    RngSeeded {
        source: SeedSource,
    },
    ConfigChanged {
        digest: String,
        config: Box<MachineConfig>,
    },
    NoteIn {
        value: Cents,
    },
    /// Issue 70: the host told the note acceptor to stack an escrowed note
    /// of `value`; its credit (a `NoteIn`) follows at the acceptor's vend
    /// valid, or at its power-up with the note in the stacker. Nothing is
    /// credited here.
    NoteStacking {
        value: Cents,
    },
    /// Issue 70: the note being stacked was given back instead (the
    /// acceptor powered up with it in its path): no credit.
    NoteReturned {
        value: Cents,
    },
    NoteRejected {
        value: Cents,
        reason: String,
    },
    /// Issue 70: the host told the acceptor to stack this machine's own
    /// ticket `validation` (checked as a ticket in is); its credit (a
    /// `TicketIn`) follows at the acceptor's vend valid, or at its power-up
    /// with the ticket in the stacker. Nothing is credited here.
    TicketStacking {
        validation: String,
    },
    /// Issue 70: the ticket being stacked was given back instead: no
    /// credit, and it stays unredeemed.
    TicketReturned {
        validation: String,
    },
    TicketIn {
        validation: String,
        value: Cents,
    },
    TicketRejected {
        validation: String,
        reason: String,
    },
    TicketOut {
        validation: String,
        value: Cents,
        /// When it was issued (UTC), printed on the ticket; absent in
        /// records written before tickets were issued in two steps.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        issued_utc: Option<String>,
        /// The secure-enhanced sequence number it was numbered with (SAS
        /// LP 4C, issue 48); absent for every other ticket.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sequence: Option<u32>,
    },
    /// The printer finished the ticket issued by `TicketOut` (issue 21: a
    /// ticket is issued in two journaled steps, so one the printer never
    /// finished is printed again after a restart).
    TicketPrinted {
        validation: String,
    },
    HandpayLocked {
        id: u64,
        handpay: HandpayKind,
        amount: Cents,
    },
    HandpayPaid {
        id: u64,
        attendant: String,
    },
    RoundBegun {
        round: u64,
        game: String,
        denom: Cents,
        stake: Cents,
        credit_before: Cents,
        step: Step,
        /// RNG values the core handed the game's draw for this step
        /// (`Machine::play_round`); absent in journals written before it.
        #[serde(default)]
        draws: u64,
        /// The part of `stake` that is a side bet: it feeds the side-bet
        /// pools alone, and the main wager is the rest (absent when zero).
        #[serde(default, skip_serializing_if = "is_zero")]
        side_stake: Cents,
        /// Issue 46: drawn from the round's commitment to a linked pool's
        /// controller (`Entry::LinkedCommitted`) and the controller's
        /// nonce, not from the live generator.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        committed: Option<CommittedDraw>,
        /// Issue 46: linked pools the round does not feed though its game
        /// and wager qualify: their controller was unreachable and the
        /// configuration plays on without linked eligibility.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        unlinked: Vec<String>,
        /// B-16: the wager category the round is played in and its
        /// theoretical payback (absent in journals written before it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        category: Option<WagerCategory>,
        /// B-16 (issue 77): a round that stakes on bets of several RTPs
        /// (a roulette cloth, a banca's chances) shares its stake out, each
        /// bet's part in its own category at the RTP the approved paytable
        /// proves for that bet; the parts sum to `stake`, and `category`
        /// is then absent. Empty: the whole stake is in `category`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        wagers: Vec<Wager>,
    },
    RoundStep {
        round: u64,
        step: Step,
        extra_stake: Cents,
        /// RNG values drawn for this step (0 for a decision that draws nothing).
        #[serde(default)]
        draws: u64,
        /// B-16 (issue 77): the wager category of `extra_stake` where it is
        /// a bet of its own, at the RTP the approved paytable proves for
        /// that bet (blackjack's insurance); absent, it is part of the
        /// round's first wager, the bet it is made on (a double, a split, a
        /// raise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        category: Option<WagerCategory>,
    },
    /// A game's draw failed after taking values from the RNG: nothing was
    /// committed for a round, but the values it took are on record.
    DrawDiscarded {
        game: String,
        draws: u64,
        reason: String,
    },
    RoundSettled {
        round: u64,
        win: Cents,
        components: Vec<WinComponent>,
        payment: WinPayment,
        credit_after: Cents,
        /// Progressive levels won (their amounts are part of `win`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        progressive: Vec<ProgressiveAward>,
    },
    /// A round voided and its stake refunded: written by earlier versions
    /// only (issue 47, hole 6: a round is always finished with its
    /// committed outcome); read for the journals that hold one.
    RoundVoided {
        round: u64,
        refund: Cents,
        reason: String,
        credit_after: Cents,
    },
    /// Logged when a round interrupted by a power loss is resumed (M-36).
    RoundResumed {
        round: u64,
        at_step: u32,
    },
    DoorOpened {
        door: Door,
    },
    DoorClosed {
        door: Door,
    },
    TiltSet {
        tilt: Tilt,
        detail: String,
    },
    TiltCleared {
        tilt: Tilt,
        by: String,
    },
    /// Program verification result (H-51), recorded by the cabinet.
    Verification {
        ok: bool,
        detail: String,
    },
    /// A displayed meter rolled over past 10^digits − 1 (C-21).
    MeterRollover {
        meter: String,
        count: u64,
    },
    /// A progressive pool set up on this machine (M-18), at its start values.
    PoolConfigured {
        pool: PoolConfig,
        /// The mystery levels' first hidden values, level by level.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        mystery_at: Vec<Option<Cents>>,
    },
    /// This machine joined a linked pool (M-19): wagers on `games` of at
    /// least `min_wager` contribute through the progressive controller.
    LinkedPoolJoined {
        pool: String,
        games: Vec<String>,
        min_wager: Cents,
    },
    /// The controller acknowledged these rounds' contributions.
    LinkedDelivered {
        pool: String,
        rounds: Vec<u64>,
    },
    /// The controller refused this round's contribution, for `reason`
    /// (issue 13: a wager over its bound, a key resent with another wager):
    /// it leaves the outbox, logged, and never blocks the rest.
    LinkedRefused {
        pool: String,
        round: u64,
        reason: String,
    },
    /// Issue 46: the next round is committed to a linked pool's controller:
    /// its game and stake are fixed (`bet`: the game's own bet, as JSON)
    /// and its key `k` drawn from the certified generator (hex); the
    /// controller is sent SHA-256(k) and answers its nonce, from which the
    /// round is drawn (`Machine::play_round_committed`). Until then no other
    /// round and no cash-out.
    LinkedCommitted {
        pool: String,
        round: u64,
        game: String,
        denom: Cents,
        stake: Cents,
        side_stake: Cents,
        bet: String,
        key: String,
    },
    /// Issue 46: the controller refused the pending commitment (it issued
    /// no nonce): withdrawn, with its reason.
    LinkedWithdrawn {
        pool: String,
        round: u64,
        reason: String,
    },
    /// Pool money moved out of a level (M-23), never to the operator.
    PoolTransfer {
        pool: String,
        level: usize,
        amount: Cents,
        to: TransferTarget,
        by: String,
    },
    /// A ticket another cabinet printed, redeemed here on the floor's
    /// authorisation (SAS system validation, LP 71; issue 48): credited
    /// once, never twice for the same validation number (M-25 f).
    FloorTicketIn {
        validation: String,
        value: Cents,
    },
    /// Issue 70: a ticket in the acceptor's escrow that the floor
    /// authorised for `value` (SAS LP 71), which the host is about to tell
    /// the acceptor to stack: checked as [`Entry::FloorTicketIn`] is, and
    /// credited by one (at the acceptor's vend valid, or its power-up with
    /// the ticket in the stacker) or ended by an
    /// [`Entry::FloorTicketRefused`] (given back). Nothing is credited here.
    FloorTicketStacking {
        validation: String,
        value: Cents,
    },
    /// A ticket the floor was asked about and that was returned: the floor
    /// refused it, did not answer in time, or the cabinet could not credit
    /// it. `status` is the machine status reported to the floor (SAS LP
    /// 71).
    FloorTicketRefused {
        validation: String,
        status: u8,
        reason: String,
    },
    /// Cashable credit the floor's system transferred to the credit meter
    /// (SAS AFT, LP 72, issue 48): once per transaction id.
    AftIn {
        transaction_id: String,
        value: Cents,
    },
    /// Credit the floor's system took from the credit meter (a cash-out to
    /// the host by AFT), anchored like every money-out.
    AftOut {
        transaction_id: String,
        value: Cents,
    },
    /// Issue 71: a transfer the floor asked for (in, or out to the host),
    /// journaled before the floor is told it is pending (SAS 40): made by
    /// the [`Entry::AftIn`] or [`Entry::AftOut`] of its id, or ended by an
    /// [`Entry::AftFailed`]; one at a time, and play waits for it.
    AftPending {
        transaction_id: String,
        to_host: bool,
        value: Cents,
    },
    /// The pending transfer was not made: `status` as reported to the
    /// floor (SAS LP 72), `reason` for the event log. Nothing moved.
    AftFailed {
        transaction_id: String,
        to_host: bool,
        status: u8,
        reason: String,
    },
    /// Issue 71: the floor's AFT registration of this machine changed
    /// (SAS LP 73: initialised, registered under a key, awaiting an
    /// operator, or cancelled), by the floor's host or at the machine.
    AftRegistration {
        registration: crate::registration::AftRegistration,
        by: String,
    },
    /// An operator at the machine acknowledged the registration the floor
    /// asked for (pending → ready).
    AftRegistrationAcknowledged {
        by: String,
    },
    /// An operator at the machine asked the floor to register it.
    AftRegistrationRequested {
        by: String,
    },
    /// The floor's slot management system took the events this cursor
    /// names (issue 48).
    FloorReported {
        cursor: FloorCursor,
    },
    /// The floor's system set this machine's secure-enhanced validation ID
    /// and sequence number (SAS LP 4C, issue 48): each ticket after it is
    /// numbered from the two, the sequence incremented first.
    ValidationIdSet {
        id: u32,
        sequence: u32,
    },
    /// An operator chose which approved RTP variant of a game this cabinet
    /// offers (issue 50), with the logic door open, between rounds.
    VariantChosen {
        /// The game whose variants these are.
        family: String,
        /// The variant offered from now on: an approved paytable's id.
        game: String,
        /// The approved digest of its compiled paytable.
        sha256: String,
        /// Who chose it.
        by: String,
    },
    /// H-53: a component of the software — the program, a paytable —
    /// found installed, replaced, refused or removed by a verification
    /// against the approved manifest (at boot), with its digests and on
    /// whose authority. The download/verification log the audit menu
    /// shows; the record's time is when it was found.
    SoftwareChanged {
        /// "program", or "paytable ID".
        component: String,
        file: String,
        /// The digest found (empty when removed).
        sha256: String,
        /// The last accepted digest, if there was one.
        previous: Option<String>,
        outcome: SoftwareOutcome,
        /// The verification that found it: against which manifest, for
        /// which release (the approver's signature).
        by: String,
    },
    /// Issue 70: the ticket printer's paper ran low (`low`, told to the
    /// floor: SAS 74), or was loaded again.
    PrinterPaper {
        low: bool,
    },
}

/// B-16 (certification.md 16): a wager category — a bet configuration the
/// approved paytable proves its own RTP for — and that theoretical
/// payback in millionths (962_345 = 96.2345%), as the game host reads it
/// from the approved artifact.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WagerCategory {
    pub name: String,
    pub rtp_ppm: u32,
}

impl WagerCategory {
    /// B-16: a category is named and returns at most 100 %; the core
    /// writes no other and the fold takes no other.
    pub(crate) fn well_formed(&self) -> bool {
        !self.name.is_empty() && self.rtp_ppm <= 1_000_000
    }
}

/// B-16: the part of a round's stake staked in one wager category.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wager {
    pub category: WagerCategory,
    pub stake: Cents,
}

/// What a verification found of a component (H-53).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SoftwareOutcome {
    /// New, and approved: its digest is the manifest's.
    Installed,
    /// Its digest changed, and the new one is approved.
    Replaced,
    /// Its digest is not the manifest's: refused (the cabinet tilts).
    Refused,
    /// Gone from the cabinet's configuration.
    Removed,
}

/// The kind of a round's first record (recall's walk back ends at it).
pub(crate) const ROUND_BEGUN: &str = "round_begun";

impl Entry {
    /// The kind column of the journal (the serde tag).
    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Genesis { .. } => "genesis",
            Entry::PowerUp { .. } => "power_up",
            Entry::PowerDown => "power_down",
            Entry::Anchored { .. } => "anchored",
            Entry::CopyRebuilt { .. } => "copy_rebuilt",
            Entry::CarriedOver { .. } => "carried_over",
            Entry::RngSeeded { .. } => "rng_seeded",
            Entry::ConfigChanged { .. } => "config_changed",
            Entry::NoteIn { .. } => "note_in",
            Entry::NoteRejected { .. } => "note_rejected",
            Entry::NoteStacking { .. } => "note_stacking",
            Entry::NoteReturned { .. } => "note_returned",
            Entry::TicketStacking { .. } => "ticket_stacking",
            Entry::TicketReturned { .. } => "ticket_returned",
            Entry::TicketIn { .. } => "ticket_in",
            Entry::TicketRejected { .. } => "ticket_rejected",
            Entry::TicketOut { .. } => "ticket_out",
            Entry::TicketPrinted { .. } => "ticket_printed",
            Entry::HandpayLocked { .. } => "handpay_locked",
            Entry::HandpayPaid { .. } => "handpay_paid",
            Entry::RoundBegun { .. } => ROUND_BEGUN,
            Entry::RoundStep { .. } => "round_step",
            Entry::DrawDiscarded { .. } => "draw_discarded",
            Entry::RoundSettled { .. } => "round_settled",
            Entry::RoundVoided { .. } => "round_voided",
            Entry::RoundResumed { .. } => "round_resumed",
            Entry::DoorOpened { .. } => "door_opened",
            Entry::DoorClosed { .. } => "door_closed",
            Entry::TiltSet { .. } => "tilt_set",
            Entry::TiltCleared { .. } => "tilt_cleared",
            Entry::Verification { .. } => "verification",
            Entry::MeterRollover { .. } => "meter_rollover",
            Entry::PoolConfigured { .. } => "pool_configured",
            Entry::PoolTransfer { .. } => "pool_transfer",
            Entry::FloorReported { .. } => "floor_reported",
            Entry::FloorTicketIn { .. } => "floor_ticket_in",
            Entry::FloorTicketStacking { .. } => "floor_ticket_stacking",
            Entry::AftIn { .. } => "aft_in",
            Entry::AftOut { .. } => "aft_out",
            Entry::AftPending { .. } => "aft_pending",
            Entry::AftFailed { .. } => "aft_failed",
            Entry::AftRegistration { .. } => "aft_registration",
            Entry::AftRegistrationAcknowledged { .. } => "aft_registration_acknowledged",
            Entry::AftRegistrationRequested { .. } => "aft_registration_requested",
            Entry::ValidationIdSet { .. } => "validation_id_set",
            Entry::VariantChosen { .. } => "variant_chosen",
            Entry::SoftwareChanged { .. } => "software_changed",
            Entry::FloorTicketRefused { .. } => "floor_ticket_refused",
            Entry::PrinterPaper { .. } => "printer_paper",
            Entry::LinkedPoolJoined { .. } => "linked_pool_joined",
            Entry::LinkedDelivered { .. } => "linked_delivered",
            Entry::LinkedRefused { .. } => "linked_refused",
            Entry::LinkedCommitted { .. } => "linked_committed",
            Entry::LinkedWithdrawn { .. } => "linked_withdrawn",
        }
    }

    /// The game round an entry belongs to, for recall.
    pub fn round(&self) -> Option<u64> {
        match self {
            Entry::RoundBegun { round, .. }
            | Entry::RoundStep { round, .. }
            | Entry::RoundSettled { round, .. }
            | Entry::RoundVoided { round, .. }
            | Entry::RoundResumed { round, .. } => Some(*round),
            Entry::HandpayLocked { handpay: HandpayKind::Jackpot { round, .. }, .. } => Some(*round),
            _ => None,
        }
    }

    /// Whether the entry belongs in the event log (certification.md E-39)
    /// rather than only in game recall.
    pub fn is_event(&self) -> bool {
        // Resumed and voided rounds are logged as events too (M-36).
        !matches!(self, Entry::RoundBegun { .. } | Entry::RoundStep { .. } | Entry::RoundSettled { .. })
    }
}
