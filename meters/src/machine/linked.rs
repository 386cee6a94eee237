//! The machine's side of a linked pool (M-19; issue 13): joining it, the
//! journaled outbox of contributions owed to the controller, the
//! controller's acknowledgements and refusals, and the journal epoch's
//! random identifier the controller keys them by.

use super::{BootError, CoreError, Machine};
use crate::journal::Entry;
use crate::money::Cents;
use crate::rng::{CommittedStream, RngError};
use crate::state::LinkedCommitment;

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

    /// Issue 46: commit the next round to linked pool `pool`'s controller
    /// before it is drawn: its game, stake and the game's `bet` (JSON) are
    /// fixed, and a fresh 256-bit key is drawn from the certified generator
    /// and journaled. Returns the round and the commitment the controller
    /// is sent, SHA-256 of the key (hex). Asking again for the same bet
    /// returns the same commitment; another bet is refused until the
    /// committed round is played (`play_round_committed`).
    #[allow(clippy::too_many_arguments)]
    pub fn commit_linked_round(
        &mut self,
        pool: &str,
        game: &str,
        denom: Cents,
        stake: Cents,
        side_stake: Cents,
        bet: &str,
    ) -> Result<(u64, String), CoreError> {
        if let Some(c) = &self.state.linked_commitment {
            let same = c.pool == pool && c.game == game && c.denom == denom && c.stake == stake && c.side_stake == side_stake && c.bet == bet;
            if !same {
                return Err(CoreError::Progressive(format!("round {} is committed to pool {} with another bet: it is played first", c.round, c.pool)));
            }
            return Ok((c.round, commitment_of(c)?));
        }
        self.ensure_idle()?;
        self.check_round(game, denom, stake, side_stake)?;
        self.refuse_excessive_play(stake)?;
        if !self.state.linked.contains_key(pool) {
            return Err(CoreError::Progressive(format!("this machine has not joined linked pool {pool}")));
        }
        self.verify_before_money_moves()?;
        let mut key = [0u8; 32];
        self.rng.lock().fill_raw(&mut key);
        let round = self.state.last_round + 1;
        self.commit(vec![Entry::LinkedCommitted {
            pool: pool.to_owned(),
            round,
            game: game.to_owned(),
            denom,
            stake,
            side_stake,
            bet: bet.to_owned(),
            key: hex::encode(key),
        }])?;
        Ok((round, hex::encode(CommittedStream::commitment(&key))))
    }

    /// Issue 46: withdraw the pending commitment the controller refused
    /// (it issued no nonce, so no outcome of the round exists): journaled
    /// with the controller's reason; the stake never left the meter.
    pub fn withdraw_linked_commitment(&mut self, reason: &str) -> Result<(), CoreError> {
        let Some(c) = &self.state.linked_commitment else {
            return Err(CoreError::Progressive("no round is committed to a linked pool".into()));
        };
        let (pool, round) = (c.pool.clone(), c.round);
        self.commit(vec![Entry::LinkedWithdrawn { pool, round, reason: reason.chars().take(500).collect() }])
    }

    /// Issue 46: the round committed and waiting for its nonce, if any.
    pub fn linked_commitment(&self) -> Option<&LinkedCommitment> {
        self.state.linked_commitment.as_ref()
    }

    /// Issue 46, reconciliation: this epoch's own meter of linked pool
    /// `pool` — the last round, and the rounds up to it whose wager
    /// qualified with their sum — when every one of them is delivered and
    /// no round is open or committed (so the controller's books hold the
    /// same rounds); `None` otherwise.
    pub fn linked_meter(&self, pool: &str) -> Option<(u64, crate::state::LinkedOwed)> {
        let s = &self.state;
        let idle = s.open_round.is_none() && s.linked_commitment.is_none();
        let delivered = s.linked_pending.get(pool).is_none_or(|m| m.is_empty());
        (idle && delivered && s.linked.contains_key(pool)).then(|| (s.last_round, s.linked_owed.get(pool).copied().unwrap_or_default()))
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

/// The commitment of a pending round: SHA-256 of its key (hex).
fn commitment_of(c: &LinkedCommitment) -> Result<String, CoreError> {
    let key = super::rounds::hex32(&c.key).ok_or_else(|| CoreError::Progressive(format!("round {}'s committed key is not 32 bytes of hex", c.round)))?;
    Ok(hex::encode(CommittedStream::commitment(&key)))
}

/// A new journal epoch's identifier: 128 bits of OS entropy, in hex
/// (issue 13). Never from the game RNG, which a lab seed makes repeatable.
pub(super) fn new_epoch_id() -> Result<String, BootError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| BootError::Rng(RngError::Entropy(e.to_string())))?;
    Ok(hex::encode(bytes))
}
