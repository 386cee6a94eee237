//! The RAM clear (D-32; issue 21): authenticated against the machine's own
//! credential record, with the logic door open; an anchor event; the meters
//! before it recorded in a chain that survives the clear. A lost key has its
//! own clear (`machine/key_lost.rs`).
//!
//! Issue 34, holes 3 and 7: the clear verifies critical memory as a boot
//! does (the journal, the NVRAM mirror, the anchor) and carries into the new
//! epoch only what a *verified* state owes (`crate::carry`). A state that
//! does not verify (a copy restored from before the last anchor, a deleted
//! or stale mirror, a damaged journal, both copies damaged) is a **tamper
//! clear**: the evidence is archived as `<db>.tamper-<time>`, the detection
//! is recorded for ever in the clears' chain, nothing is carried (a restored
//! copy's credit would be paid twice), and the liabilities the files read
//! are reported, unverified, for the operator to reconcile by hand. The
//! counter moves forward as at every clear.

use std::path::Path;

use super::{BootError, Machine, anchoring, open_critical_memory};
use crate::config::MachineConfig;
use crate::credential::{CredentialRecord, LOCKOUT_SECONDS, MAX_FAILURES};
use crate::keystore::{self, KeyStore, KeyStoreError, OperatorCheck};
use crate::meters::Door;
use crate::state::CriticalState;
use crate::store::{self, AnchorStep, IntegrityError, Store, StoreError, key_lost};

impl Machine {
    /// Clear critical memory after a RAM error (D-32): authenticated, with
    /// the meters before it recorded in a chain that survives the clear.
    /// Returns the clear's number; boot again with [`Machine::open`].
    ///
    /// On a TPM the PIN is checked by the credential provisioning put in it
    /// (the TPM's own dictionary-attack lockout counts the failures; issue
    /// 34, hole 5); on the file stand-in against the machine's own
    /// credential record (an argon2id hash under the machine key's MAC),
    /// never against `config`'s, five failed tries locking clears out for
    /// fifteen minutes. The logic door
    /// must be open: `logic_door_open` is its sensor as the caller's device
    /// layer reads it, and a journal that can be read must agree. What is
    /// carried, and what a tamper clear does, is in the module's doc.
    pub fn ram_clear(path: &Path, config: &MachineConfig, operator_id: &str, pin: &str, reason: &str, logic_door_open: bool) -> Result<u64, BootError> {
        super::check_key_store(path, config)?;
        if !logic_door_open {
            return Err(BootError::LogicDoorClosed);
        }
        let (mut keys, mut store, _rebuilt) = match open_critical_memory(path, config) {
            Ok(opened) => opened,
            Err(BootError::RamError(problem)) => return clear_unopenable(path, config, operator_id, pin, reason, &problem),
            Err(e) => return Err(e),
        };
        // A clear never moves another counter than the one critical memory
        // was provisioned with (issue 34, hole 1): an edited configuration
        // is refused before anything is written.
        if let (Ok(Some(bound)), Some(name)) = (store.counter_binding(), keys.counter_name().map_err(StoreError::from)?)
            && bound != name
        {
            return Err(BootError::RamError(IntegrityError::CounterNotBound(
                "the configuration names another anchor counter than critical memory was provisioned with: clear with the configuration it was provisioned with".into(),
            )));
        }
        // The meters before: as far as the journal can be read and trusted.
        let mut state = CriticalState::default();
        let readable = store.replay(|r| state.apply(&r.entry).map_err(|e| e.to_string()));
        // Verified as a boot verifies it (hole 3).
        let verified = readable.and_then(|()| crate::anchor::verify(&store, keys.as_mut()).map(|_| ()));
        // A verified journal must agree with the door's sensor; one that
        // does not verify says nothing that can be trusted.
        if verified.is_ok() && !state.doors_open.contains(&Door::Logic) {
            return Err(BootError::LogicDoorClosed);
        }
        if check_with_key_store(keys.as_mut(), config, operator_id, pin)?.is_none() {
            Self::authenticate(&mut store, &state, operator_id, pin)?;
        }
        let writes = anchoring::lifetime_writes(&store, &state).saturating_add(1);
        let (reason, before) = match verified {
            Ok(()) => (
                reason.to_owned(),
                serde_json::json!({
                    "verified": true,
                    "entries_read": state.entries,
                    "credit": state.credit,
                    "meters": state.totals,
                    "per_game": state.per_game,
                    "per_denomination": state.per_denom,
                    "anchor_writes": writes,
                    // Everything owed is carried into the new epoch (crate::carry).
                    "carried": crate::carry::Carried::owed_by(&state),
                }),
            ),
            Err(problem) => {
                let archive = key_lost::archive_as(path, config.second_copy.path_for(path).as_deref(), "tamper", &stamp(), false)?;
                (format!("tamper: {reason}"), tamper_report(&problem.to_string(), &archive, &state, state.entries, 0, writes))
            }
        };
        record_clear(keys.as_mut(), &mut store, operator_id, &reason, &before)
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

fn stamp() -> String {
    time::OffsetDateTime::now_utc().unix_timestamp().to_string()
}

/// What a tamper clear records: the detection, where the evidence is, and
/// what the files read (unverified) for the operator's reconciliation.
fn tamper_report(detected: &str, archive: &Path, state: &CriticalState, entries_read: u64, undecodable: u64, writes: u64) -> serde_json::Value {
    serde_json::json!({
        "verified": false,
        "tamper": detected,
        "archived_as": archive.display().to_string(),
        "entries_read": entries_read,
        "undecodable": undecodable,
        "anchor": state.anchor,
        "credit": state.credit,
        "meters": state.totals,
        "per_game": state.per_game,
        "per_denomination": state.per_denom,
        // The liabilities the files read, for reconciliation by hand:
        // nothing unverified is carried into the new epoch.
        "owed_unverified": crate::carry::Carried::owed_by(state),
        "anchor_writes": writes,
    })
}

/// The tamper clear of critical memory that cannot even be opened (both
/// copies damaged; issue 34, hole 7): authenticated against the credential
/// record of a copy the machine key verifies, the files archived and
/// removed, a new epoch recorded on the counter.
fn clear_unopenable(path: &Path, config: &MachineConfig, operator_id: &str, pin: &str, reason: &str, problem: &IntegrityError) -> Result<u64, BootError> {
    let second = config.second_copy.path_for(path);
    let lock = store::lock(path)?;
    let mut keys = super::key_store(config, path).map_err(StoreError::from)?;
    // The TPM's own credential where it keeps one (holes 5, 6 and 7):
    // then neither a copy's record nor the files' being readable matters.
    let checked = check_with_key_store(keys.as_mut(), config, operator_id, pin)?.is_some();
    let key = store::machine_key(keys.as_mut())?;
    let (entries, undecodable) = match key_lost::read_damaged(path, second.as_deref(), &key)? {
        Some(damaged) => {
            if !checked && !damaged.credential.as_ref().ok_or(BootError::NoCredential)?.accepts(operator_id, pin) {
                return Err(BootError::AuthenticationFailed);
            }
            (damaged.entries, damaged.undecodable)
        }
        // Nothing verifies under the TPM's key, which it still holds:
        // foreign or forged files, read unverified for the report.
        None if checked => match key_lost::examine(path, second.as_deref(), keys.as_mut())? {
            key_lost::KeyCheck::Foreign(l) | key_lost::KeyCheck::Lost(l) => (l.entries, l.undecodable),
            key_lost::KeyCheck::Empty | key_lost::KeyCheck::Verifies => (Vec::new(), 0),
        },
        None => return Err(BootError::RamError(IntegrityError::KeyLost("the machine key verifies nothing in critical memory: use the key-lost clear".into()))),
    };
    let mut state = CriticalState::default();
    for e in &entries {
        if state.apply(e).is_err() {
            break;
        }
    }
    let writes = keys.counter().map_err(StoreError::from)?.map_or(0, |c| state.anchor.writes.max(c.value)).saturating_add(1);
    drop(keys);
    let archive = key_lost::archive_as(path, second.as_deref(), "tamper", &stamp(), true)?;
    let before = tamper_report(&problem.to_string(), &archive, &state, entries.len() as u64, undecodable, writes);
    drop(lock);
    let (mut keys, mut store, _rebuilt) = open_critical_memory(path, config)?;
    record_clear(keys.as_mut(), &mut store, operator_id, &format!("tamper: {reason}"), &before)
}

/// The operator's PIN checked by the credential the TPM keeps (issue 34,
/// holes 5 and 6): `Some(())` when it accepts it, `None` where the key
/// store keeps no credential (the file stand-in; a TPM cleared or
/// replaced), and the caller checks the machine's record. A wrong PIN
/// counts against the TPM's dictionary-attack lockout, which restoring
/// files does not undo.
pub(super) fn check_with_key_store(keys: &mut dyn KeyStore, config: &MachineConfig, operator_id: &str, pin: &str) -> Result<Option<()>, BootError> {
    if !keys.keeps_operator() {
        return Ok(None);
    }
    let secret = crate::credential::tpm_credential(&config.machine_id, operator_id, pin)?;
    match keys.check_operator(&secret) {
        Ok(OperatorCheck::Accepted) => Ok(Some(())),
        Ok(OperatorCheck::Refused) => Err(BootError::AuthenticationFailed),
        Ok(OperatorCheck::NotKept) => Ok(None),
        Err(e @ KeyStoreError::LockedOut { .. }) => Err(BootError::CredentialLockedOut(e.to_string())),
        Err(e) => Err(StoreError::from(e).into()),
    }
}

/// Record a RAM clear (the operator authenticated): an anchor event
/// (issue 21), so the new epoch's head is bound, pending, to the anchor's
/// next mark (derived from the clear's record and the mark the anchor reads
/// now) before the anchor is written, then the advance is confirmed.
pub(super) fn record_clear(keys: &mut dyn KeyStore, store: &mut Store, operator_id: &str, reason: &str, before: &serde_json::Value) -> Result<u64, BootError> {
    let now = keys.counter().map_err(StoreError::from)?;
    // A new file (after a key-lost or tamper clear) is bound to the
    // anchor before the anchor moves (issue 34, hole 1); an anchor never
    // written (a new TPM) once its first write has been made.
    // (An index defined but never written changes its name, WRITTEN being
    // part of it, at its first write: bound after that one.)
    let name = if now.is_some() { keys.counter_name().map_err(StoreError::from)? } else { None };
    if let Some(name) = &name {
        store.set_counter_binding(name)?;
    }
    let (n, pending) = store.ram_clear(operator_id, reason, &before.to_string(), now)?;
    let written = keystore::advance_to(keys, now, pending.mark()).map_err(StoreError::from)?;
    // (The head is still pending here.)
    if name.is_none()
        && let Some(name) = keys.counter_name().map_err(StoreError::from)?
    {
        store.set_counter_binding(&name)?;
    }
    store.append_anchored(&[], AnchorStep::Confirmed(written))?;
    Ok(n)
}
