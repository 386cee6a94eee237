//! The rollback anchor (issue 21): when the key store's monotonic counter
//! is advanced, and what a boot does with the counter and the head.
//!
//! **Protocol** (`Machine::anchor`): commit the event's records durably with
//! the head bound to the counter's next value and marked pending; advance
//! the counter; read it back and check it; commit an [`Entry::Anchored`]
//! record with the head no longer pending. Only then does money leave (a
//! ticket is printed after `cash_out` returns; an unprinted one is printed
//! again at boot with the same validation number, which redeems once).
//!
//! **Events** ([`AnchorReason`]): every money-out before the money leaves
//! (cash-out ticket, hand-pay, a pool transfer out), the RAM clear, power-up
//! after verification (which also covers a change of configuration or
//! software, recorded at boot), door close, and a periodic tick after a
//! configured amount wagered or time played since the last anchor. Never
//! per round: an NV write per round would wear a TPM out within a year.
//!
//! **The window.** A copy of critical memory taken after the last anchor
//! names the counter's current value, and boots. Since every money-out
//! anchors, such a copy holds every payment ever made: restoring it repays
//! nothing. What it can undo is the play since the copy: at most the wagers
//! since the last anchor, which a tick bounds (`anchor_tick_wagered`). A copy
//! from before the last anchor names an older value and is refused.
//!
//! [`Entry::Anchored`]: crate::journal::Entry::Anchored

use serde::{Deserialize, Serialize};

use crate::keystore::KeyStore;
use crate::money::Cents;
use crate::store::{Anchor, IntegrityError, Pending, Store, StoreError};

/// Why the counter was advanced (logged with every anchor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnchorReason {
    /// A new machine's first anchor.
    Provisioned,
    /// Power-up after verification (and a configuration or software change).
    PowerUp,
    /// A cash-out ticket, before it is printed.
    CashOut,
    /// A hand-pay, before the attendant pays it.
    Handpay,
    /// Money moved out of a progressive pool.
    TransferOut,
    /// Critical memory was cleared.
    RamClear,
    DoorClosed,
    /// The wager or play-time bound since the last anchor was reached.
    Tick,
    /// An anchor interrupted by a power cut, finished at the next boot.
    FinishedAtBoot,
}

/// The anchor as folded from the journal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnchorState {
    /// The counter value of the last anchor.
    pub value: u64,
    /// NV writes spent over the machine's life (the wear meter).
    pub writes: u64,
    /// Total wagered (créditos jogados) at the last anchor: the tick counts
    /// from here.
    pub wagered_at_anchor: Cents,
    /// The money meters at the last anchor (issue 47, hole 3).
    #[serde(default)]
    pub meters_at_anchor: WindowMeters,
}

/// The money meters a window is told in (issue 47, hole 3): the credit
/// meter and the lifetime meters of M-25 that money moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowMeters {
    pub credit: Cents,
    /// a) créditos jogados.
    pub wagered: Cents,
    /// b) créditos ganhos.
    pub won: Cents,
    /// e) + f): notes and tickets in.
    pub money_in: Cents,
    /// g): cash-outs by ticket and by hand-pay.
    pub money_out: Cents,
}

impl WindowMeters {
    pub(crate) fn of(state: &crate::state::CriticalState) -> WindowMeters {
        let t = &state.totals;
        WindowMeters {
            credit: state.credit,
            wagered: t.games.creditos_jogados,
            won: t.games.creditos_ganhos,
            money_in: t.dinheiro_entrado.saturating_add(t.bilhetes_codificados_entrados),
            money_out: t.cancelamento_creditos.saturating_add(t.cancelamento_creditos_manual),
        }
    }
}

/// What a power-up found since the last anchor (issue 47, hole 3): the
/// play a copy of every file, restored inside that window, could undo
/// without any check seeing it (at most the tick, 50.00 wagered in
/// production). Recorded with every power-up, for the floor to compare
/// with what its own systems saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PowerUpWindow {
    /// The counter value of the last anchor.
    pub anchor: u64,
    pub at_anchor: WindowMeters,
    pub at_power_up: WindowMeters,
}

/// What a boot does about the anchor, from the head, the counter and
/// whether the database is a new machine's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtBoot {
    /// The head and the counter agree.
    Continue,
    /// A new machine: provision it (write the counter the first time).
    Provision,
    /// The previous run committed the pending head but not the increment:
    /// make it (the counter must read `to` afterwards).
    Advance { to: u64 },
    /// The previous run made the increment but did not record it: the
    /// counter stands at `value`; record it.
    Confirm { value: u64 },
    /// A new machine's first increment was interrupted before it was made.
    FinishGenesis,
}

/// Critical memory (already replayed) against the rest of the cabinet, as
/// boot, the RAM clear and `egm-lab verify` all check it (issue 34): the
/// NVRAM mirror, the head's anchor against the key store's counter, and the
/// counter's binding. Returns what the boot does about the anchor.
pub(crate) fn verify(store: &Store, keys: &mut dyn KeyStore) -> Result<AtBoot, StoreError> {
    store.check_nvram()?;
    let at_boot = at_boot(store.is_virgin()?, store.anchor(), keys.counter()?)?;
    store.check_counter_binding(keys.counter_name()?.as_deref())?;
    Ok(at_boot)
}

pub(crate) fn at_boot(virgin: bool, head: Anchor, counter: Option<u64>) -> Result<AtBoot, IntegrityError> {
    let ahead =
        |counter: Option<u64>| IntegrityError::AheadOfCounter { head: head.value, counter: counter.map_or_else(|| "never written".into(), |c| c.to_string()) };
    if virgin {
        return match counter {
            None => Ok(AtBoot::Provision),
            Some(c) => Err(IntegrityError::Wiped { counter: c }),
        };
    }
    match (head.pending, counter) {
        (Pending::Genesis, None) => Ok(AtBoot::FinishGenesis),
        // Issue 47, hole 5: never confirmed at whatever the counter reads
        // (a copy from provisioning, restored at any later value, booted as
        // a new machine with every meter gone).
        (Pending::Genesis, Some(c)) => Err(IntegrityError::GenesisUnconfirmed { counter: c }),
        (_, None) => Err(ahead(None)),
        (Pending::None, Some(c)) if head.value == c => Ok(AtBoot::Continue),
        (Pending::Advance, Some(c)) if c.checked_add(1) == Some(head.value) => Ok(AtBoot::Advance { to: head.value }),
        (Pending::Advance, Some(c)) if head.value == c => Ok(AtBoot::Confirm { value: c }),
        (_, Some(c)) if head.value < c => Err(IntegrityError::RolledBack { head: head.value, counter: c }),
        (_, c) => Err(ahead(c)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn head(value: u64, pending: Pending) -> Anchor {
        Anchor { value, pending }
    }

    #[test]
    fn every_head_and_counter_pair_has_one_named_outcome() {
        // A new machine.
        assert_eq!(at_boot(true, head(0, Pending::None), None), Ok(AtBoot::Provision));
        assert_eq!(at_boot(true, head(0, Pending::None), Some(7)), Err(IntegrityError::Wiped { counter: 7 }));
        // Genesis interrupted before or after its increment.
        assert_eq!(at_boot(false, head(0, Pending::Genesis), None), Ok(AtBoot::FinishGenesis));
        assert_eq!(at_boot(false, head(0, Pending::Genesis), Some(40)), Err(IntegrityError::GenesisUnconfirmed { counter: 40 }));
        // In step.
        assert_eq!(at_boot(false, head(41, Pending::None), Some(41)), Ok(AtBoot::Continue));
        // Cut between the pending commit and the increment, and after it.
        assert_eq!(at_boot(false, head(42, Pending::Advance), Some(41)), Ok(AtBoot::Advance { to: 42 }));
        assert_eq!(at_boot(false, head(42, Pending::Advance), Some(42)), Ok(AtBoot::Confirm { value: 42 }));
        // Rolled back: an older copy, pending or not.
        assert_eq!(at_boot(false, head(40, Pending::None), Some(41)), Err(IntegrityError::RolledBack { head: 40, counter: 41 }));
        assert_eq!(at_boot(false, head(41, Pending::Advance), Some(44)), Err(IntegrityError::RolledBack { head: 41, counter: 44 }));
        // Ahead of the counter: another machine's file, or a reset store.
        assert!(matches!(at_boot(false, head(45, Pending::None), Some(41)), Err(IntegrityError::AheadOfCounter { head: 45, .. })));
        assert!(matches!(at_boot(false, head(45, Pending::Advance), Some(41)), Err(IntegrityError::AheadOfCounter { head: 45, .. })));
        assert!(matches!(at_boot(false, head(3, Pending::None), None), Err(IntegrityError::AheadOfCounter { head: 3, .. })));
    }
}
