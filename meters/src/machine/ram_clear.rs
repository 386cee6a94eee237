//! The RAM clear (D-32; issue 21): authenticated against the machine's own
//! credential record, with the logic door open; an anchor event; the meters
//! before it recorded in a chain that survives the clear, and everything
//! owed carried into the new epoch (`crate::carry`). A lost key has its
//! own clear (`machine/key_lost.rs`).

use std::path::Path;

use super::{BootError, Machine, anchoring, open_critical_memory};
use crate::config::{MachineConfig, Mode};
use crate::credential::{CredentialRecord, LOCKOUT_SECONDS, MAX_FAILURES};
use crate::keystore::{self, KeyStore};
use crate::meters::Door;
use crate::state::CriticalState;
use crate::store::{Anchor, Store, StoreError};

impl Machine {
    /// Clear critical memory after a RAM error (D-32): authenticated, with
    /// the meters before it recorded in a chain that survives the clear.
    /// Returns the clear's number; boot again with [`Machine::open`].
    ///
    /// The PIN is checked against the machine's own credential record (an
    /// argon2id hash under the machine key's MAC), never against `config`'s;
    /// five failed tries lock clears out for fifteen minutes. The logic door
    /// must be open: `logic_door_open` is its sensor as the caller's device
    /// layer reads it, and a journal that can be read must agree.
    pub fn ram_clear(path: &Path, config: &MachineConfig, operator_id: &str, pin: &str, reason: &str, logic_door_open: bool) -> Result<u64, BootError> {
        if config.mode == Mode::Production && config.key_store.is_stand_in() {
            return Err(BootError::StandInRefused);
        }
        if !logic_door_open {
            return Err(BootError::LogicDoorClosed);
        }
        let (mut keys, mut store, _rebuilt) = open_critical_memory(path, config)?;
        // The meters before: as far as the journal can be read and trusted.
        let mut state = CriticalState::default();
        let readable = store.replay(|r| state.apply(&r.entry).map_err(|e| e.to_string()));
        if readable.is_ok() && !state.doors_open.contains(&Door::Logic) {
            return Err(BootError::LogicDoorClosed);
        }
        Self::authenticate(&mut store, &state, operator_id, pin)?;
        let writes = anchoring::lifetime_writes(&store, &state).saturating_add(1);
        let before = serde_json::json!({
            "verified": readable.is_ok(),
            "problem": readable.err().map(|e| e.to_string()),
            "entries_read": state.entries,
            "credit": state.credit,
            "meters": state.totals,
            "per_game": state.per_game,
            "per_denomination": state.per_denom,
            "anchor_writes": writes,
            // Everything owed is carried into the new epoch (crate::carry).
            "carried": crate::carry::Carried::owed_by(&state),
        });
        record_clear(keys.as_mut(), &mut store, operator_id, reason, &before)
    }

    /// Check the operator against the machine's own credential record,
    /// counting failures and locking out after [`MAX_FAILURES`].
    fn authenticate(store: &mut Store, state: &CriticalState, operator_id: &str, pin: &str) -> Result<(), BootError> {
        let mut record = match store.credential()? {
            Some(r) => r,
            // A file from before the record existed: the machine's own
            // journaled configuration, when it can be read.
            None => {
                CredentialRecord { credential: state.config.as_ref().map(|c| c.operator.clone()).ok_or(BootError::NoCredential)?, failures: 0, locked_until: 0 }
            }
        };
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        if now < record.locked_until {
            return Err(BootError::LockedOut { seconds: record.locked_until - now });
        }
        if record.credential.accepts(operator_id, pin) {
            record.failures = 0;
            record.locked_until = 0;
            store.set_credential(&record)?;
            return Ok(());
        }
        record.failures += 1;
        if record.failures >= MAX_FAILURES {
            record.failures = 0;
            record.locked_until = now + LOCKOUT_SECONDS;
        }
        store.set_credential(&record)?;
        Err(BootError::AuthenticationFailed)
    }
}

/// Record a RAM clear (the operator authenticated): an anchor event
/// (issue 21), so the new epoch's head is bound to the counter's next value
/// before the counter moves, then the advance is confirmed.
pub(super) fn record_clear(keys: &mut dyn KeyStore, store: &mut Store, operator_id: &str, reason: &str, before: &serde_json::Value) -> Result<u64, BootError> {
    let counter = keys.counter().map_err(StoreError::from)?;
    let pending = match counter {
        Some(c) => Anchor {
            value: c.checked_add(1).ok_or_else(|| StoreError::Io(std::io::Error::other("anchor counter exhausted")))?,
            pending: crate::store::Pending::Advance,
        },
        None => Anchor { value: 0, pending: crate::store::Pending::Genesis },
    };
    let n = store.ram_clear(operator_id, reason, &before.to_string(), pending)?;
    let value = keys.increment().map_err(StoreError::from)?;
    if pending.pending == crate::store::Pending::Advance && value != pending.value {
        return Err(StoreError::from(keystore::KeyStoreError::ReadBack { before: pending.value - 1, read: value }).into());
    }
    store.append_anchored(&[], Anchor { value, pending: crate::store::Pending::None })?;
    Ok(n)
}
