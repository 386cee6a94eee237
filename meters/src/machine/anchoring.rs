//! The machine's side of the rollback anchor (issue 21; the protocol and
//! the window are stated in [`crate::anchor`]): advancing the counter at
//! an anchor event, finishing an advance a power cut interrupted, the
//! periodic tick, and the wear meter.

use serde::Serialize;

use super::{BootError, CoreError, Machine};
use crate::anchor::{AnchorReason, AtBoot};
use crate::journal::Entry;
use crate::keystore::{self, KeyStoreError};
use crate::state::CriticalState;
use crate::store::{AnchorStep, Pending, Store, StoreError};

/// The anchor's wear meter, for the audit menu.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AnchorWear {
    /// What holds the key and the counter (a TPM, or the stand-in).
    pub key_store: String,
    pub stand_in: bool,
    /// The anchor's count critical memory is bound to.
    pub counter: u64,
    /// NV writes spent over the machine's life.
    pub writes: u64,
    /// The configured lifetime budget of NV writes.
    pub budget: u64,
}

impl AnchorWear {
    pub fn remaining(&self) -> u64 {
        self.budget.saturating_sub(self.writes)
    }

    /// Ticks stop in the last tenth of the budget, kept for the anchors
    /// that never wait (money-outs, RAM clears, power-ups).
    pub fn ticks_allowed(&self) -> bool {
        self.remaining() > self.budget / 10
    }
}

/// NV writes spent over the machine's life: from the journal's last anchor,
/// or, in the epoch a RAM clear began, from the clear's record.
pub(super) fn lifetime_writes(store: &Store, state: &CriticalState) -> u64 {
    if state.anchor.writes > 0 {
        return state.anchor.writes;
    }
    store
        .ram_clears()
        .ok()
        .and_then(|clears| clears.last().cloned())
        .and_then(|c| serde_json::from_str::<serde_json::Value>(&c.meters_before).ok())
        .and_then(|v| v.get("anchor_writes").and_then(serde_json::Value::as_u64))
        .unwrap_or(0)
}

impl Machine {
    /// An anchor event: commit `entries` with the head bound, pending, to
    /// the anchor's next mark, write it into the key store's anchor, read
    /// it back, and commit the [`Entry::Anchored`] record. Returns the new
    /// count. A key store that fails stops everything with a
    /// critical-memory fault; the next boot finishes the advance.
    pub(super) fn anchor(&mut self, reason: AnchorReason, entries: Vec<Entry>) -> Result<u64, CoreError> {
        let step = if reason == AnchorReason::Provisioned { AnchorStep::Genesis } else { AnchorStep::Begin };
        if step == AnchorStep::Begin && self.store.anchor().pending != Pending::None {
            return Err(self.fault_with("an earlier anchor is still pending: restart to finish it".into()));
        }
        let target = self.commit_anchored(entries, step)?;
        let written = match keystore::advance_to(self.keys.as_mut(), target.before(), target.mark()) {
            Ok(m) => m,
            Err(e @ KeyStoreError::ReadBack { .. }) => return Err(self.fault_with(e.to_string())),
            Err(e) => return Err(self.fault_with(format!("the anchor could not be advanced ({e}); restart to finish the anchor"))),
        };
        let writes = lifetime_writes(&self.store, &self.state).saturating_add(1);
        self.commit_anchored(vec![Entry::Anchored { value: written.value, reason, writes }], AnchorStep::Confirmed(written))?;
        self.anchored_at = std::time::Instant::now();
        Ok(written.value)
    }

    /// Finish what a power cut interrupted, before anything else is
    /// committed at boot (the decision is [`crate::anchor::at_boot`]'s).
    pub(super) fn finish_anchor_at_boot(&mut self, at_boot: AtBoot) -> Result<(), BootError> {
        let pending = self.store.anchor();
        let mark = match at_boot {
            AtBoot::Continue | AtBoot::Provision => return Ok(()),
            AtBoot::Confirm => pending.mark(),
            AtBoot::Advance | AtBoot::FinishGenesis => keystore::advance_to(self.keys.as_mut(), pending.before(), pending.mark()).map_err(StoreError::from)?,
        };
        // Logged when the journal has records; a fresh epoch's first record
        // must be its genesis, so there the head alone is rebound.
        let entries = if self.store.is_empty() {
            Vec::new()
        } else {
            vec![Entry::Anchored {
                value: mark.value,
                reason: AnchorReason::FinishedAtBoot,
                writes: lifetime_writes(&self.store, &self.state).saturating_add(1),
            }]
        };
        self.commit_anchored(entries, AnchorStep::Confirmed(mark)).map(|_| ()).map_err(super::boot_error)
    }

    /// The periodic tick: after `anchor_tick_wagered` wagered or
    /// `anchor_tick_minutes` of play since the last anchor, while the write
    /// budget allows. Returns whether it anchored.
    pub(super) fn tick_if_due(&mut self) -> Result<bool, CoreError> {
        let wagered = self.state.totals.games.creditos_jogados.saturating_sub(self.state.anchor.wagered_at_anchor);
        let minutes = self.anchored_at.elapsed().as_secs() / 60;
        if wagered < self.config.anchor_tick_wagered && minutes < u64::from(self.config.anchor_tick_minutes) {
            return Ok(false);
        }
        if !self.anchor_wear().ticks_allowed() {
            return Ok(false);
        }
        self.anchor(AnchorReason::Tick, Vec::new()).map(|_| true)
    }

    /// The wear meter and what holds the anchor (audit menu, boot report).
    pub fn anchor_wear(&self) -> AnchorWear {
        AnchorWear {
            key_store: self.config.key_store.describe(),
            stand_in: self.config.key_store.is_stand_in(),
            counter: self.store.anchor().value,
            writes: lifetime_writes(&self.store, &self.state),
            budget: self.config.anchor_write_budget,
        }
    }

    /// Stop everything with a critical-memory fault named `msg`.
    fn fault_with(&mut self, msg: String) -> CoreError {
        self.fault = Some(msg.clone());
        CoreError::CriticalMemory(msg)
    }
}
