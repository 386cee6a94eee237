//! The machine: the only way anything reaches critical memory.
//!
//! Every command checks what the rules require, builds its journal entries,
//! commits them in one durable transaction and only then folds them into the
//! live state. A game's outcome is drawn by the core itself, under the RNG
//! lock, and committed with its stake and draw count in one call
//! ([`Machine::play_round`], [`Machine::draw_step`]) before anything is
//! shown; the cabinet only animates what is committed.
//!
//! Here: boot and recovery, the commit, the checks before money moves, and
//! reading. The commands live beside it, one concept each: money in and
//! out (`money`), the game cycle (`rounds`), standalone progressive pools
//! (`progressive`), doors, tilts and the attendant (`attendant`), recall
//! (`recall`), the anchor protocol (`anchoring`), the RAM clears
//! (`ram_clear`, `key_lost`) and the linked pools' outbox (`linked`).

mod aft;
mod anchoring;
mod attendant;
mod floor;
mod key_lost;
mod linked;
mod money;
mod progressive;
mod ram_clear;
mod recall;
mod rounds;
pub use key_lost::KeyLostClear;
pub use recall::{RecallOutcome, RecallStep, RoundRecall, recall_from};

use std::path::Path;

pub use anchoring::AnchorWear;

use crate::anchor::AnchorReason;
use crate::config::{ConfigError, MachineConfig, Mode};
use crate::credential::CredentialRecord;
use crate::journal::{Entry, Tilt, WinPayment};
use crate::keystore::{self, KeyStore, KeyStoreConfig};
use crate::meters::Door;
use crate::money::Cents;
use crate::rng::{CoreRng, RngError, SeedSource};
use crate::state::{AuditFailure, CriticalState, OpenRound};
use crate::store::{Anchor, AnchorStep, IntegrityError, RamClearRecord, Record, Store, StoreError};
use crate::ticket::Ticket;

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
    #[error("refused: operator authentication failed")]
    AuthenticationFailed,
    #[error("the operator credential: {0}")]
    Credential(#[from] crate::credential::CredentialError),
    #[error("RAM clear refused: too many failed tries, locked out for {seconds} s more")]
    LockedOut { seconds: i64 },
    #[error("refused: {0}")]
    CredentialLockedOut(String),
    #[error("RAM clear refused: the logic door must be open (D-32)")]
    LogicDoorClosed,
    #[error("RAM clear refused: this machine has no credential record, and its journal cannot say whose the machine is")]
    NoCredential,
    #[error("the operator credential can be changed only with the logic door open (the configuration names another than the machine's record)")]
    CredentialChangeRefused,
    #[error("the configuration differs from the machine's own ({0} changed): a configuration change only with the logic door open")]
    ConfigChangeRefused(String),
    #[error("this cabinet was never provisioned: production boots only a provisioned machine (`egm-lab provision`)")]
    NotProvisioned,
    #[error("critical memory is already provisioned (machine {0}): a machine is provisioned once")]
    AlreadyProvisioned(String),
    #[error("critical memory belongs to machine {journal}, the configuration names {config}")]
    ForeignMachine { journal: String, config: String },
    #[error("the file stand-in for the key store is for development and labs only: production needs a TPM (key_store: Tpm)")]
    StandInRefused,
    /// Issue 68, attack 3: the TPM is the one the platform has, named by
    /// the certified image, never by an editable file (a relay in front of
    /// it read the key's HMAC answers, and reported a chip's manufacturer).
    #[error(
        "the key store names the TPM {0}: a production cabinet uses its platform's TPM ({cabinet}) and no other; a cabinet on another TPM runs only as an evaluation cabinet (`evaluation: true`, shown on every screen)",
        cabinet = crate::keystore::CABINET_TCTI
    )]
    TctiRefused(String),
    /// Issue 68: a floor cabinet runs only a release its release-signing
    /// key signed, so that a new release can take the machine key without
    /// the TPM being cleared, and only a signed one can.
    #[error(
        "the manifest carries no release signature: a floor cabinet runs only a signed release (`egm-lab sign-release`); an unsigned one runs only as an evaluation cabinet"
    )]
    UnsignedRelease,
    /// D-28: a floor cabinet's two copies of critical memory stand on two
    /// physical disks, read from the kernel (`store::media`).
    #[error("{0}")]
    Media(#[from] crate::store::media::MediaError),
    #[error("a key-lost RAM clear is refused: {0}")]
    KeyNotLost(String),
    /// Issue 68, attack 3: the TPM that held the operator's PIN is gone
    /// and nothing can check one (a wrong PIN once cleared 15,000 c).
    #[error(
        "the operator's PIN cannot be checked: the TPM that held it was cleared or replaced, and no file holds anything to check it against; nothing is cleared on an unchecked PIN. The lab archives the files as evidence (`egm-lab archive-lost`) and the cabinet is provisioned again (`egm-lab provision`)"
    )]
    PinUnchecked,
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

/// Why a note or a ticket was refused, typed (issue 45): the journal keeps
/// its English text, a screen says it in the player's language.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoneyRefusal {
    /// The acceptor or reader is disabled while play is blocked.
    #[error("disabled ({0})")]
    Disabled(PlayBlock),
    /// A note of a value the configuration does not accept (cents).
    #[error("{0}-cent notes are not accepted")]
    NoteNotAccepted(Cents),
    /// The credit would pass the configured limit (cents).
    #[error("credit would exceed the limit of {0} cents")]
    CreditLimit(Cents),
    /// Not an 18-digit validation number.
    #[error("not a valid 18-digit validation number")]
    Malformed,
    /// No ticket of this machine has this validation number.
    #[error("unknown validation number")]
    UnknownTicket,
    #[error("ticket already redeemed")]
    AlreadyRedeemed,
    /// Above the configured ticket-in limit (cents).
    #[error("ticket above the limit of {0} cents")]
    AboveTicketLimit(Cents),
    /// The floor's system refused a ticket another cabinet printed (SAS LP
    /// 71: its transfer code, 80–93).
    #[error("refused by the floor's system (code {0:#04x})")]
    FloorRefused(u8),
    /// The floor's system did not answer in time: the ticket is returned.
    #[error("no answer from the floor's system in {0} s")]
    FloorNoAnswer(u32),
    /// A ticket for an amount the floor cannot give here (zero, or
    /// restricted credit this cabinet does not hold).
    #[error("the floor's amount cannot be credited here: {0}")]
    FloorAmount(String),
    /// This cabinet has been on a floor whose system validates tickets
    /// (SAS, issue 48): a ticket is redeemed only on the floor's word, so
    /// one the floor paid elsewhere is never paid here again.
    #[error("tickets are validated by the floor's system, which must redeem this one")]
    FloorValidates,
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
    NoteRejected(MoneyRefusal),
    /// Issue 70: one note at a time through the acceptor.
    #[error("a note of {0} cents is still being stacked: its credit or its return comes first")]
    NoteStillStacking(Cents),
    /// Issue 70: one ticket at a time through the acceptor.
    #[error("ticket {0} is still being stacked: its credit or its return comes first")]
    TicketStillStacking(String),
    #[error("ticket refused: {0}")]
    TicketRejected(MoneyRefusal),
    /// Issue 71: a transfer in from the floor (SAS AFT) refused for what
    /// it is, not for the moment (the floor is told its own status).
    #[error("AFT in refused: {0}")]
    TransferInRejected(MoneyRefusal),
    #[error("there is no credit to cash out")]
    NothingToCashOut,
    /// Issue 48: secure-enhanced validation, and the floor has not set
    /// this machine's validation ID (SAS LP 4C; the port raises 3F).
    #[error("no ticket can be numbered: the floor's system has not set this machine's validation ID (SAS LP 4C)")]
    ValidationIdNotSet,
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
    #[error("excessive meter increment (C-26): {0}; refused, and play stops until an attendant clears it")]
    ExcessiveIncrement(String),
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
    /// B-16: the wager categories of the next round of a game and each's
    /// part of its stake, set by the game host before it plays it
    /// ([`Machine::set_wager_category`], [`Machine::set_wagers`]).
    next_wagers: Option<(String, Vec<crate::journal::Wager>)>,
    /// Issue 51, lab mode: the scaled draws recorded for the lab's outcome
    /// collection ([`Machine::tap_draws`]); None when not tapping.
    tapped: Option<Vec<(u64, u64)>>,
}

/// What production runs on (issues 21, 47 and 68): a TPM chip, never the
/// file stand-in, measured for the release the program read, and on a
/// floor cabinet the platform's own TPM (a software TPM or another TCTI
/// only on an evaluation cabinet) and two physical disks for the two
/// copies of critical memory (D-28; an evaluation cabinet may keep them
/// side by side). Lab mode runs on anything.
pub(crate) fn check_key_store(path: &Path, config: &MachineConfig) -> Result<(), BootError> {
    if config.mode != Mode::Production {
        return Ok(());
    }
    if config.key_store.is_stand_in() {
        return Err(BootError::StandInRefused);
    }
    // Before any TPM is spoken to: a floor cabinet's is the platform's own.
    if !config.evaluation
        && let KeyStoreConfig::Tpm { tcti, .. } = &config.key_store
        && tcti != keystore::CABINET_TCTI
    {
        return Err(BootError::TctiRefused(tcti.clone()));
    }
    if !config.evaluation && config.release_signature.is_none() {
        return Err(BootError::UnsignedRelease);
    }
    // Before any file is written or any TPM asked for a key: a disk's
    // death loses nothing (D-28).
    if !config.evaluation {
        crate::store::media::check_copies(path, config.second_copy.path_for(path).as_deref())?;
    }
    if let Some(release) = &config.release_read {
        keystore::check_release(&config.key_store, release).map_err(StoreError::from)?;
    }
    if config.evaluation {
        return Ok(());
    }
    // The platform's own TPM is the one whose endorsement key a
    // manufacturer's root this program carries certifies (issue 68,
    // attack 3), never what a TPM — or a relay in front of it — says of
    // itself: a software TPM's certificate is its own CA's.
    key_store(config, path).and_then(|mut keys| keys.endorse()).map_err(StoreError::from)?;
    Ok(())
}

/// Which endorsement keys a cabinet's TPM secrets are sealed to (issue 68,
/// attack 3): a floor cabinet's, one a manufacturer's root this program
/// carries certifies; an evaluation cabinet's or the lab's, whatever EK
/// its TPM holds (a listening relay still reads nothing).
pub(crate) fn trust(config: &MachineConfig) -> keystore::Trust {
    if config.mode == Mode::Production && !config.evaluation { keystore::Trust::Manufacturers } else { keystore::Trust::Evaluation }
}

/// The key store `config` names for the critical memory at `path`: a TPM
/// sealed to the endorsement keys the cabinet's kind trusts ([`trust`]),
/// its key asked under the release the program read where the TPM was
/// provisioned for signed releases (issue 68). The one way the core opens
/// it from a machine's configuration.
pub(crate) fn key_store(config: &MachineConfig, path: &Path) -> Result<Box<dyn KeyStore>, keystore::KeyStoreError> {
    keystore::open(&config.key_store, path, trust(config), config.signed_release().as_ref())
}

impl Machine {
    /// Boot: verify critical memory, replay it, seed the RNG, record the
    /// power-up (and the configuration when it changed), run the self-audit.
    ///
    /// On a TPM the key is taken once per boot (issue 47, hole 1): the
    /// measured state is capped as soon as this process has it, and no
    /// later program in this boot, the certified system's own included,
    /// can use it. A restart of the cabinet's program is a power-up of the
    /// cabinet.
    pub fn open(path: &Path, config: MachineConfig, seed: SeedChoice) -> Result<Machine, BootError> {
        Self::boot(path, config, seed, false)
    }

    /// Provision a new cabinet (issue 21): its first boot, which writes the
    /// anchor counter the first time and binds the configuration's machine
    /// ID into the genesis record and the first anchor. Refused on critical
    /// memory that already holds a machine. Returns the first anchor.
    ///
    /// The operator is present: `pin` is the PIN of the configuration's
    /// credential. On a TPM, provisioning first takes ownership of it
    /// (issue 34, holes 1, 2, 5 and 6; `keystore::tpm::ownership`): its
    /// hierarchies' authorisations become secrets derived from the PIN,
    /// and the machine key, the anchor counter and the operator's
    /// credential are made in it, bound to the measured state it boots in.
    pub fn provision(path: &Path, config: MachineConfig, pin: &str) -> Result<u64, BootError> {
        config.validate()?;
        let operator = &config.operator.operator_id;
        // Issue 47, hole 7: a production cabinet's PIN is one an offline
        // search cannot break in years (10 to 12 digits at argon2id's
        // cost), whatever hash the configuration holds.
        if config.mode == crate::config::Mode::Production {
            crate::credential::check_pin(pin)?;
        }
        // Issue 47, hole 7: a PIN held by the TPM is set there now (nothing
        // in a file checks it); a hash in the configuration (lab mode)
        // must accept it.
        if !config.operator.is_held_by_tpm() && !config.operator.accepts(operator, pin) {
            return Err(BootError::AuthenticationFailed);
        }
        check_key_store(path, &config)?;
        // A TPM that already holds a credential checks the PIN itself (its
        // lockout counts a wrong one): provisioning again never replaces it.
        {
            let mut keys = key_store(&config, path).map_err(StoreError::from)?;
            ram_clear::check_with_key_store(keys.as_mut(), &config, operator, pin)?;
        }
        let secrets = crate::credential::owner_secrets(&config.machine_id, operator, pin)?;
        key_store(&config, path).and_then(|mut keys| keys.take_ownership(&secrets)).map_err(StoreError::from)?;
        let m = Self::boot(path, config, SeedChoice::Entropy, true)?;
        let value = m.anchor_wear().counter;
        m.shutdown().map_err(boot_error)?;
        Ok(value)
    }

    /// [`Machine::boot_checked`], a RAM error refined: when the key store's
    /// key verifies nothing in critical memory the error says the key is
    /// lost (or the files another machine's), and how to get out.
    fn boot(path: &Path, config: MachineConfig, seed: SeedChoice, provisioning: bool) -> Result<Machine, BootError> {
        let kept = config.clone();
        let second = config.second_copy.path_for(path);
        match Self::boot_checked(path, config, seed, provisioning) {
            Err(BootError::RamError(e)) => {
                let lost = key_store(&kept, path).ok().and_then(|mut keys| crate::store::key_lost::examine(path, second.as_deref(), keys.as_mut()).ok());
                match lost {
                    Some(crate::store::key_lost::KeyCheck::Lost(l)) => Err(BootError::RamError(IntegrityError::KeyLost(l.detail))),
                    // A TPM with no key beside empty critical memory: a
                    // cabinet never provisioned.
                    Some(crate::store::key_lost::KeyCheck::Empty) if !provisioning && matches!(e, IntegrityError::KeyMissing(_)) => {
                        Err(BootError::NotProvisioned)
                    }
                    Some(crate::store::key_lost::KeyCheck::Foreign(l)) => Err(BootError::RamError(IntegrityError::NotThisMachines(l.detail))),
                    _ => Err(BootError::RamError(e)),
                }
            }
            other => other,
        }
    }

    fn boot_checked(path: &Path, mut config: MachineConfig, seed: SeedChoice, provisioning: bool) -> Result<Machine, BootError> {
        config.validate()?;
        #[cfg(feature = "lab")]
        if matches!(seed, SeedChoice::Lab(_)) && config.mode != Mode::Lab {
            return Err(BootError::LabSeedRefused);
        }
        check_key_store(path, &config)?;
        let (mut keys, mut store, rebuilt) = open_critical_memory(path, &config)?;
        let virgin = store.is_virgin()?;
        let mut state = CriticalState::default();
        store.replay(|r| state.apply(&r.entry).map_err(|e| e.to_string()))?;
        if provisioning && !virgin {
            return Err(BootError::AlreadyProvisioned(state.machine_id.clone()));
        }
        // The mirror, the anchor and the counter's binding first (issues 21
        // and 34): a restored, rolled-back, foreign or wiped file is a RAM
        // error before anything is added to it.
        let at_boot = crate::anchor::verify(&store, keys.as_mut())?;
        // A production cabinet is provisioned once, on purpose: a new
        // database is never silently a new machine (issue 21).
        if at_boot == crate::anchor::AtBoot::Provision && config.mode == Mode::Production && !provisioning {
            return Err(BootError::NotProvisioned);
        }
        if !state.machine_id.is_empty() && state.machine_id != config.machine_id {
            return Err(BootError::ForeignMachine { journal: state.machine_id.clone(), config: config.machine_id.clone() });
        }
        // A configuration change only with the logic door open (issue 34,
        // hole 8; issue 47, hole 4; issue 68, attack 4: every setting, each
        // change named).
        // The release is journaled with the configuration (issue 68): the
        // one this program read, never a file's; a program that read no
        // manifest keeps the journal's. A signed release takes the key on
        // any release its signer signed, so moving to another — a newer
        // one, or back to an older — is a change like any setting's: only
        // with the logic door open, recorded under the release that runs
        // now. A journal from before releases were recorded takes its first.
        // A lab machine's release is its developer's and is not journaled.
        let journaled_release = state.config.as_ref().and_then(|c| c.release.clone());
        config.release = if config.mode == Mode::Production { config.release_read.map(hex::encode).or_else(|| journaled_release.clone()) } else { None };
        if let Some(previous) = state.config.as_ref() {
            let mut previous = previous.clone();
            if journaled_release.is_none() {
                previous.release.clone_from(&config.release);
            }
            let changed = config.changes_from(&previous);
            if !changed.is_empty() && !state.doors_open.contains(&Door::Logic) {
                return Err(BootError::ConfigChangeRefused(changed.join(", ")));
            }
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
            // D-32: a clear is made with the logic door open (its sensor,
            // and the verified journal, said so): the new epoch opens with
            // it open, so play stays stopped until the door is closed and
            // the attendant clears (E-37), as before the clear (issue 74:
            // the new epoch read the door closed while it stood open).
            if after_clear.is_some() {
                boot.push(Entry::DoorOpened { door: Door::Logic });
                boot.push(Entry::TiltSet {
                    tilt: Tilt::LogicDoorAccess,
                    detail: "logic door open at the RAM clear: attendant clear and program re-verification required".into(),
                });
            }
        }
        // Issue 47, hole 3: what this power-up finds since the last anchor,
        // for the floor to see (a copy restored inside it is undetectable).
        let window = (!fresh && state.anchor.writes > 0).then(|| crate::anchor::PowerUpWindow {
            anchor: state.anchor.value,
            at_anchor: state.anchor.meters_at_anchor,
            at_power_up: crate::anchor::WindowMeters::of(&state),
        });
        boot.push(Entry::PowerUp { unclean_shutdown: !fresh && !state.clean_shutdown, window });
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
        let mut machine = Machine { store, state, config, rng, fault: None, keys, anchored_at: std::time::Instant::now(), next_wagers: None, tapped: None };
        machine.finish_anchor_at_boot(at_boot)?;
        // Power-up after verification is an anchor event; so is a new
        // machine's provisioning.
        let reason = if at_boot == crate::anchor::AtBoot::Provision { AnchorReason::Provisioned } else { AnchorReason::PowerUp };
        machine.anchor(reason, boot).map_err(boot_error)?;
        machine.bind_counter().map_err(boot_error)?;
        if let Err(failure) = machine.state.self_audit() {
            let _ = machine.commit(vec![Entry::TiltSet { tilt: Tilt::SelfAudit, detail: failure.to_string() }]);
        }
        Ok(machine)
    }

    /// Record the anchor counter critical memory is bound to when it has
    /// no record yet (a new machine's first anchor; issue 34, hole 1).
    /// The TPM is asked for the name only then, not at every boot.
    fn bind_counter(&mut self) -> Result<(), CoreError> {
        let fault = |e: StoreError| CoreError::CriticalMemory(e.to_string());
        if self.store.counter_binding().map_err(fault)?.is_some() {
            return Ok(());
        }
        match self.keys.counter_name().map_err(|e| fault(e.into()))? {
            Some(name) => self.store.set_counter_binding(&name).map_err(fault),
            None => Ok(()),
        }
    }

    /// Fold the entries into the state, and only when the fold takes every
    /// one of them append them to the journal (issue 21: a record the fold
    /// refuses was once committed first, and every later boot failed). A
    /// refused entry changes nothing: the state is folded again from the
    /// journal, which never saw it.
    fn commit(&mut self, entries: Vec<Entry>) -> Result<(), CoreError> {
        self.commit_anchored(entries, AnchorStep::Keep).map(|_| ())
    }

    /// [`Machine::commit`], taking the head's anchor one `step` (the
    /// anchor protocol's steps): returns the anchor the head is bound to.
    fn commit_anchored(&mut self, entries: Vec<Entry>, step: AnchorStep) -> Result<Anchor, CoreError> {
        if let Some(f) = &self.fault {
            return Err(CoreError::CriticalMemory(f.clone()));
        }
        let before = (self.stake_open(), self.state.totals.dinheiro_entrado);
        for e in &entries {
            if let Err(x) = self.state.apply(e) {
                self.refold()?;
                return Err(CoreError::Refused(x.to_string()));
            }
        }
        // C-26, at the one place every increment passes: what the entries
        // would do, judged before they are written.
        if let Some(why) = self.excessive_increment(before) {
            self.refold()?;
            self.commit(vec![Entry::TiltSet { tilt: Tilt::ExcessiveMeterIncrement, detail: why.clone() }])?;
            return Err(CoreError::ExcessiveIncrement(why));
        }
        let anchor = match self.store.append_anchored(&entries, step) {
            Ok(a) => a,
            Err(e) => {
                // The state is ahead of the journal: nothing more until a
                // restart folds the journal again.
                let msg = e.to_string();
                self.fault = Some(msg.clone());
                return Err(CoreError::CriticalMemory(msg));
            }
        };
        let rollovers: Vec<Entry> =
            self.state.unlogged_rollovers(self.config.meter_digits).into_iter().map(|(meter, count)| Entry::MeterRollover { meter, count }).collect();
        if !rollovers.is_empty() {
            self.commit(rollovers)?;
        }
        Ok(anchor)
    }

    /// The open round and its stakes so far.
    fn stake_open(&self) -> Option<(u64, Cents)> {
        self.state.open_round.as_ref().map(|o| (o.round, o.stake))
    }

    /// C-26: a stake that takes the open round's stakes (one play's
    /// coin-in, which its settlement meters) to the configured increment or
    /// above, or a bills-in (one note) at or above its own, since `before`
    /// (the open round and its stakes, the bills-in). Only an increment is
    /// judged: a round staked before a lower limit was configured settles.
    fn excessive_increment(&self, before: (Option<(u64, Cents)>, Cents)) -> Option<String> {
        let limits = self.config.excessive_increment;
        let (open_before, bills_before) = before;
        // A stake added to the open round (a new round's, or a raise).
        let staked = self.stake_open().filter(|now| now.1 > open_before.filter(|b| b.0 == now.0).map_or(0, |b| b.1));
        let bills = self.state.totals.dinheiro_entrado.saturating_sub(bills_before);
        if let Some(why) = staked.and_then(|(_, play)| self.excessive_coin_in(play)) {
            return Some(why);
        }
        (bills >= limits.bills_in).then(|| format!("a bills-in of {bills} cents reaches the limit of {} cents", limits.bills_in))
    }

    /// C-26: why a play whose stakes come to `play` is excessive, if it is.
    pub(crate) fn excessive_coin_in(&self, play: Cents) -> Option<String> {
        let limit = self.config.excessive_increment.coin_in;
        (play >= limit).then(|| format!("a play's coin-in of {play} cents reaches the limit of {limit} cents"))
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
        self.ensure_idle_but_aft(None)
    }

    /// [`Machine::ensure_idle`], the AFT transfer pending under `aft` let
    /// through (it is the one being made or failed). Issue 71: a transfer
    /// journaled pending stops play and every other money movement until
    /// it is made or failed.
    fn ensure_idle_but_aft(&self, aft: Option<&str>) -> Result<(), CoreError> {
        if let Some(p) = &self.state.aft_pending
            && Some(p.transaction_id.as_str()) != aft
        {
            return Err(CoreError::Refused(format!("AFT transfer {:?} is pending", p.transaction_id)));
        }
        if let Some(b) = self.play_block() {
            return Err(b.into());
        }
        if let Some(r) = &self.state.open_round {
            return Err(PlayBlock::RoundInProgress(r.round).into());
        }
        // Issue 46: a round committed to a linked controller is in
        // progress from its commitment: its stake stays on the credit meter
        // until its draw, and nothing else may take it.
        if let Some(c) = &self.state.linked_commitment {
            return Err(PlayBlock::RoundInProgress(c.round).into());
        }
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

    /// H-53: the download/verification log (`Entry::SoftwareChanged`),
    /// newest first, each record verified.
    pub fn software_log(&self) -> Result<Vec<Record>, StoreError> {
        self.store.software_log()
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
    let mut keys = key_store(config, path).map_err(StoreError::from)?;
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
