//! The rollback anchor (issue 21): when the key store's monotonic counter
//! is advanced, and what a boot does with the counter and the head.
//!
//! **Protocol** (`Machine::anchor`): commit the event's records durably with
//! the head bound, pending, to the anchor's next mark (the count plus one
//! and the next link of the chain, derived from the mark before and the
//! records just committed); write it into the key store's anchor where it
//! still reads the mark before; read it back and check it; commit an
//! [`Entry::Anchored`] record with the head no longer pending. A boot
//! finishes a pending advance only where the anchor reads exactly the mark
//! before, and confirms one only where it reads exactly its own link
//! (issue 68, attack 1: a count alone was confirmed by any history that
//! reached it). Only then does money leave (a
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

use crate::keystore::{AnchorMark, KeyStore};
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

/// What a boot does about the anchor, from the head, the key store's
/// anchor and whether the database is a new machine's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtBoot {
    /// The head and the anchor agree.
    Continue,
    /// A new machine: provision it (write the anchor the first time).
    Provision,
    /// The previous run committed the pending head but did not write the
    /// anchor, which still reads the mark the head advances from: write it.
    Advance,
    /// The previous run wrote the anchor for this very head but did not
    /// record it: record it.
    Confirm,
    /// A new machine's first write was interrupted before it was made.
    FinishGenesis,
}

/// Critical memory (already replayed) against the rest of the cabinet, as
/// boot, the RAM clear and `egm-lab verify` all check it (issue 34): the
/// NVRAM mirror, the head's anchor against the key store's, and the
/// anchor's binding. Returns what the boot does about the anchor.
pub(crate) fn verify(store: &Store, keys: &mut dyn KeyStore) -> Result<AtBoot, StoreError> {
    store.check_nvram()?;
    let at_boot = at_boot(store.is_virgin()?, store.anchor(), keys.counter()?)?;
    store.check_counter_binding(keys.counter_name()?.as_deref())?;
    Ok(at_boot)
}

/// The decision, from the head's anchor and what the key store's anchor
/// reads (`None`: never written). A pending head is confirmed only where
/// the anchor holds the very link it was bound to, and its write made
/// only where the anchor still reads the link it was derived from (issue
/// 68, attack 1): of two copies forked from one state, each pending its
/// own advance, one at most is ever confirmed.
pub(crate) fn at_boot(virgin: bool, head: Anchor, anchor: Option<AnchorMark>) -> Result<AtBoot, IntegrityError> {
    let ahead = |anchor: Option<AnchorMark>| IntegrityError::AheadOfCounter { head: head.value, counter: crate::keystore::describe(anchor) };
    if virgin {
        return match anchor {
            None => Ok(AtBoot::Provision),
            Some(a) => Err(IntegrityError::Wiped { counter: a.value }),
        };
    }
    let Some(a) = anchor else {
        return match head.pending {
            Pending::Genesis => Ok(AtBoot::FinishGenesis),
            Pending::None | Pending::Advance => Err(ahead(None)),
        };
    };
    if a == head.mark() {
        return Ok(if head.pending == Pending::None { AtBoot::Continue } else { AtBoot::Confirm });
    }
    match head.pending {
        Pending::Advance if head.before() == Some(a) => Ok(AtBoot::Advance),
        // Issue 47, hole 5: never confirmed by a write made for another
        // (a copy from provisioning, restored at any later mark, booted
        // as a new machine with every meter gone).
        Pending::Genesis => Err(IntegrityError::GenesisUnconfirmed { counter: a.value }),
        _ if head.value < a.value => Err(IntegrityError::RolledBack { head: head.value, counter: a.value }),
        // The same count, or the count the head advances from, reached by
        // another history.
        Pending::None if head.value == a.value => Err(IntegrityError::Forked { head: head.value, counter: a.value }),
        Pending::Advance if head.value == a.value || head.value.checked_sub(1) == Some(a.value) => {
            Err(IntegrityError::Forked { head: head.value, counter: a.value })
        }
        _ => Err(ahead(Some(a))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(n: u8) -> [u8; 32] {
        [n; 32]
    }

    const fn mark(value: u64, chain: [u8; 32]) -> AnchorMark {
        AnchorMark { value, chain }
    }

    /// A head at `value`, its link `chain`, advancing from `previous`.
    fn head(value: u64, pending: Pending, link: u8, previous: u8) -> Anchor {
        Anchor { value, pending, chain: chain(link), previous: chain(previous) }
    }

    #[test]
    fn every_head_and_anchor_pair_has_one_named_outcome() {
        // A new machine.
        assert_eq!(at_boot(true, head(0, Pending::None, 0, 0), None), Ok(AtBoot::Provision));
        assert_eq!(at_boot(true, head(0, Pending::None, 0, 0), Some(mark(7, chain(7)))), Err(IntegrityError::Wiped { counter: 7 }));
        // Genesis interrupted before or after its write; another's write.
        assert_eq!(at_boot(false, head(1, Pending::Genesis, 1, 0), None), Ok(AtBoot::FinishGenesis));
        assert_eq!(at_boot(false, head(1, Pending::Genesis, 1, 0), Some(mark(1, chain(1)))), Ok(AtBoot::Confirm));
        assert_eq!(at_boot(false, head(1, Pending::Genesis, 1, 0), Some(mark(1, chain(9)))), Err(IntegrityError::GenesisUnconfirmed { counter: 1 }));
        assert_eq!(at_boot(false, head(1, Pending::Genesis, 1, 0), Some(mark(40, chain(9)))), Err(IntegrityError::GenesisUnconfirmed { counter: 40 }));
        // In step.
        assert_eq!(at_boot(false, head(41, Pending::None, 41, 0), Some(mark(41, chain(41)))), Ok(AtBoot::Continue));
        // Cut between the pending commit and the write, and after it.
        assert_eq!(at_boot(false, head(42, Pending::Advance, 42, 41), Some(mark(41, chain(41)))), Ok(AtBoot::Advance));
        assert_eq!(at_boot(false, head(42, Pending::Advance, 42, 41), Some(mark(42, chain(42)))), Ok(AtBoot::Confirm));
        // Issue 68, attack 1: the same counts reached by another branch.
        assert_eq!(at_boot(false, head(42, Pending::Advance, 42, 41), Some(mark(42, chain(99)))), Err(IntegrityError::Forked { head: 42, counter: 42 }));
        assert_eq!(at_boot(false, head(42, Pending::Advance, 42, 41), Some(mark(41, chain(99)))), Err(IntegrityError::Forked { head: 42, counter: 41 }));
        assert_eq!(at_boot(false, head(41, Pending::None, 41, 0), Some(mark(41, chain(99)))), Err(IntegrityError::Forked { head: 41, counter: 41 }));
        // Rolled back: an older copy, pending or not.
        assert_eq!(at_boot(false, head(40, Pending::None, 40, 0), Some(mark(41, chain(41)))), Err(IntegrityError::RolledBack { head: 40, counter: 41 }));
        assert_eq!(at_boot(false, head(41, Pending::Advance, 41, 40), Some(mark(44, chain(44)))), Err(IntegrityError::RolledBack { head: 41, counter: 44 }));
        // Ahead of the anchor: another machine's file, or a reset store.
        assert!(matches!(at_boot(false, head(45, Pending::None, 45, 0), Some(mark(41, chain(41)))), Err(IntegrityError::AheadOfCounter { head: 45, .. })));
        assert!(matches!(at_boot(false, head(45, Pending::Advance, 45, 44), Some(mark(41, chain(41)))), Err(IntegrityError::AheadOfCounter { head: 45, .. })));
        assert!(matches!(at_boot(false, head(3, Pending::None, 3, 0), None), Err(IntegrityError::AheadOfCounter { head: 3, .. })));
        assert!(matches!(at_boot(false, head(3, Pending::Advance, 3, 2), None), Err(IntegrityError::AheadOfCounter { head: 3, .. })));
    }
}
