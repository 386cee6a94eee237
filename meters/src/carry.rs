//! What a RAM clear carries across (D-32; issue 21): everything the machine
//! owes survives the clear. The credit and the stake of an interrupted
//! round become a hand-pay for the attendant; pending hand-pays stay
//! pending; tickets issued and not redeemed stay redeemable once; the
//! progressive pools keep their money and liability (M-20); the linked
//! outbox keeps the contributions the controller has not acknowledged.
//!
//! The carry is kept in the clear's own MAC-chained record and opens the
//! new epoch as its second entry ([`Entry::CarriedOver`], after the genesis).
//! What is carried is the state as far as the journal could be read and
//! verified before the clear (the clear record says how far).
//!
//! [`Entry::CarriedOver`]: crate::journal::Entry::CarriedOver

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::money::Cents;
use crate::progressive::Pool;
use crate::state::{CriticalState, IssuedTicket};

/// What the machine owed at the clear.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Carried {
    /// Amounts owed through an attendant: each pending hand-pay, then the
    /// credit with the stake of an interrupted round.
    pub handpays: Vec<Cents>,
    /// Tickets issued and not yet redeemed, by validation number.
    pub tickets: BTreeMap<String, IssuedTicket>,
    pub pools: BTreeMap<String, Pool>,
    /// Linked pools joined: games and minimum wager.
    pub linked: BTreeMap<String, (Vec<String>, Cents)>,
    /// Contributions not yet acknowledged by the controller.
    #[serde(with = "crate::wire::pools_of_number_keys")]
    pub linked_pending: BTreeMap<String, BTreeMap<u64, Cents>>,
}

impl Carried {
    /// What `state` owes.
    pub(crate) fn owed_by(state: &CriticalState) -> Carried {
        let mut handpays: Vec<Cents> = state.handpays.values().map(|h| h.amount).collect();
        let credit = state.credit.saturating_add(state.open_round.as_ref().map_or(0, |r| r.stake));
        if credit > 0 {
            handpays.push(credit);
        }
        // An interrupted round is voided by the clear: its stake is owed
        // (above), and its contributions leave the pools and the outbox.
        let mut pools = state.pools.clone();
        let mut linked_pending = state.linked_pending.clone();
        if let Some(open) = &state.open_round {
            for (id, made) in &open.contributions {
                if let Some(pool) = pools.get_mut(id) {
                    // A contribution no longer in its level has been won:
                    // the pool keeps what it has.
                    let _ = pool.take_back(made);
                }
            }
            for pending in linked_pending.values_mut() {
                pending.remove(&open.round);
            }
        }
        Carried {
            handpays,
            tickets: state.tickets.iter().filter(|(_, t)| !t.redeemed).map(|(v, t)| (v.clone(), t.clone())).collect(),
            pools,
            linked: state.linked.clone(),
            linked_pending,
        }
    }

    /// The money owed through hand-pays.
    pub fn handpay_total(&self) -> Option<Cents> {
        self.handpays.iter().try_fold(0u64, |a, b| a.checked_add(*b))
    }

    pub fn is_empty(&self) -> bool {
        *self == Carried::default()
    }
}
