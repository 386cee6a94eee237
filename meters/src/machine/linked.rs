//! The machine's side of a linked pool (M-19; issue 13): joining it, the
//! journaled outbox of contributions owed to the controller, the
//! controller's acknowledgements and refusals, and the journal epoch's
//! random identifier the controller keys them by.

use super::{BootError, CoreError, Machine};
use crate::journal::Entry;
use crate::money::Cents;
use crate::rng::RngError;

impl Machine {
    /// Join a linked pool (M-19): from now on, wagers on `games` of at least
    /// `min_wager` are journaled as contributions owed to the controller.
    pub fn join_linked_pool(&mut self, pool: &str, games: Vec<String>, min_wager: Cents) -> Result<(), CoreError> {
        if self.state.linked.contains_key(pool) {
            return Ok(());
        }
        self.commit(vec![Entry::LinkedPoolJoined { pool: pool.to_owned(), games, min_wager }])
    }

    /// The contributions the controller has not acknowledged: (pool, round, wager).
    pub fn linked_pending(&self) -> Vec<(String, u64, Cents)> {
        self.state.linked_pending.iter().flat_map(|(p, m)| m.iter().map(move |(r, w)| (p.clone(), *r, *w))).collect()
    }

    /// The random identifier of this journal's epoch, which the linked
    /// controller keys contributions and awards by (issue 13). Empty for a
    /// journal begun before it existed.
    pub fn epoch_id(&self) -> &str {
        &self.state.epoch_id
    }

    /// Record the controller's refusal of a round's contribution: it
    /// leaves the outbox, logged with the reason (issue 13).
    pub fn linked_refused(&mut self, pool: &str, round: u64, reason: &str) -> Result<(), CoreError> {
        if !self.state.linked_pending.get(pool).is_some_and(|m| m.contains_key(&round)) {
            return Err(CoreError::Progressive(format!("round {round} has no contribution to {pool} pending")));
        }
        self.commit(vec![Entry::LinkedRefused { pool: pool.to_owned(), round, reason: reason.to_owned() }])
    }

    /// Record the controller's acknowledgement of these rounds' contributions.
    pub fn linked_delivered(&mut self, pool: &str, rounds: Vec<u64>) -> Result<(), CoreError> {
        if rounds.is_empty() {
            return Ok(());
        }
        for r in &rounds {
            if !self.state.linked_pending.get(pool).is_some_and(|m| m.contains_key(r)) {
                return Err(CoreError::Progressive(format!("round {r} has no contribution to {pool} pending")));
            }
        }
        self.commit(vec![Entry::LinkedDelivered { pool: pool.to_owned(), rounds }])
    }
}

/// A new journal epoch's identifier: 128 bits of OS entropy, in hex
/// (issue 13). Never from the game RNG, which a lab seed makes repeatable.
pub(super) fn new_epoch_id() -> Result<String, BootError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| BootError::Rng(RngError::Entropy(e.to_string())))?;
    Ok(hex::encode(bytes))
}
