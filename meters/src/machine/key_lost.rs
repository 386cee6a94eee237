//! The RAM clear after the machine key was lost (issue 21): the TPM was
//! cleared or replaced, or the stand-in's key file is gone, and the key
//! store's key verifies nothing in critical memory (`store::key_lost`).
//!
//! * It is refused while the key verifies anything (the ordinary clear is
//!   the cure for a damaged journal) and when there is nothing to clear.
//! * The logic door must be open, and production refuses the file stand-in.
//! * The operator's PIN must be accepted both by the machine's credential
//!   record as the file holds it (its MAC can no longer be checked) and by
//!   the configuration's credential: without the key neither alone can be
//!   trusted, and an attacker needs the PIN either way. A file without the
//!   record refuses the clear (issue 47, hole 2). A PIN the TPM alone held
//!   (production), with that TPM gone, can be checked by nothing: the
//!   clear is refused (issue 68, attack 3), and the files are archived for
//!   the lab ([`Machine::archive_lost`]) before the cabinet is provisioned
//!   again.
//! * Nothing is carried across: what the journal says cannot be verified.
//!   The clear record keeps what it reads (credit, meters, tickets and
//!   hand-pays owed) marked unverified, for the operator to settle by hand,
//!   and the old file is archived beside the new one for the lab.
//! * The clear is an anchor event on the key store's counter (a new
//!   counter if the TPM lost it too), like any clear.

use std::path::{Path, PathBuf};

use super::ram_clear::{check_with_key_store, record_clear};
use super::{BootError, Machine, open_critical_memory};
use crate::config::{MachineConfig, Mode};
use crate::keystore;
use crate::state::CriticalState;
use crate::store::key_lost::{self, KeyCheck};
use crate::store::{self, StoreError};

/// What a key-lost RAM clear did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyLostClear {
    /// The RAM clear's number in the new critical memory.
    pub n: u64,
    /// Where the lost key's critical memory was archived.
    pub archive: PathBuf,
}

impl Machine {
    /// Issue 68, attack 3: critical memory whose key is lost, and whose
    /// operator's PIN nothing can check any more (the TPM that held it was
    /// cleared or replaced), archived for the lab as evidence,
    /// `<db>.key-lost-<time>`, both copies then removed: the cabinet is
    /// provisioned again, and nothing is cleared on an unchecked PIN.
    /// Refused while the key verifies anything, or the files are another
    /// machine's, as the key-lost clear is; the logic door must be open.
    pub fn archive_lost(path: &Path, config: &MachineConfig, logic_door_open: bool) -> Result<PathBuf, BootError> {
        let (lock, keys, _lost) = examine_lost(path, config, logic_door_open, "archive")?;
        drop(keys);
        let second = config.second_copy.path_for(path);
        let stamp = time::OffsetDateTime::now_utc().unix_timestamp();
        let archive = key_lost::archive(path, second.as_deref(), &stamp.to_string())?;
        drop(lock);
        Ok(archive)
    }

    /// Clear critical memory whose key is lost (see the module's doc). The
    /// clear record's reason starts with "key lost:".
    pub fn ram_clear_key_lost(
        path: &Path,
        config: &MachineConfig,
        operator_id: &str,
        pin: &str,
        reason: &str,
        logic_door_open: bool,
    ) -> Result<KeyLostClear, BootError> {
        let (lock, mut keys, lost) = examine_lost(path, config, logic_door_open, "clear")?;
        let second = config.second_copy.path_for(path);
        // The credential the TPM keeps where it still keeps one; a TPM
        // cleared or replaced keeps none.
        let mut operator_checked = "by the TPM's credential";
        if check_with_key_store(keys.as_mut(), config, operator_id, pin)?.is_none() {
            // Issue 47, hole 2: a missing record refuses the clear (its
            // absence once counted as accepted: the attacker deleted it).
            let record = lost.credential.as_ref().ok_or(BootError::NoCredential)?;
            if record.is_held_by_tpm() || config.operator.is_held_by_tpm() {
                // Issue 47, hole 7: the PIN was held by the TPM alone, which
                // is gone; no file holds anything that could check it (a
                // hash there is what an offline search attacks). Issue 68,
                // attack 3: nothing is cleared on an unchecked PIN (a wrong
                // one once erased 15,000 c and took the new TPM). The files
                // are archived for the lab and the cabinet provisioned
                // again ([`Machine::archive_lost`]).
                return Err(BootError::PinUnchecked);
            } else {
                // A lab cabinet's hash: the files' record and the
                // configuration must both accept the PIN.
                if !(record.accepts(operator_id, pin) && config.operator.accepts(operator_id, pin)) {
                    return Err(BootError::AuthenticationFailed);
                }
                operator_checked = "by the files' record and the configuration (lab)";
            }
        }
        // The TPM that lost the key is provisioned again for this operator
        // before anything is recorded on it (a new key, counter and
        // credential, bound to its measured state).
        if config.mode == Mode::Production {
            crate::credential::check_pin(pin)?;
        }
        let secrets = crate::credential::owner_secrets(&config.machine_id, operator_id, pin)?;
        keys.take_ownership(&secrets).map_err(StoreError::from)?;
        // What the journal says, unverified: folded as far as it goes.
        let mut state = CriticalState::default();
        let mut problem = None;
        for e in &lost.entries {
            if let Err(err) = state.apply(e) {
                problem = Some(err.to_string());
                break;
            }
        }
        let counter = keys.counter().map_err(StoreError::from)?;
        drop(keys);
        let stamp = time::OffsetDateTime::now_utc().unix_timestamp();
        let archive = key_lost::archive(path, second.as_deref(), &stamp.to_string())?;
        let before = serde_json::json!({
            "verified": false,
            "operator_pin": operator_checked,
            "key_lost": lost.detail,
            "archived_as": archive.display().to_string(),
            "problem": problem,
            "entries_read": lost.entries.len(),
            "undecodable": lost.undecodable,
            "machine_id": state.machine_id,
            "credit": state.credit,
            "meters": state.totals,
            "per_game": state.per_game,
            "per_denomination": state.per_denom,
            // Owed as the journal says, for the operator to settle by hand:
            // nothing unverified is carried into the new epoch.
            "owed_unverified": crate::carry::Carried::owed_by(&state),
            // The same part keeps its wear; a new TPM starts at none.
            "anchor_writes": counter.map_or(0, |c| state.anchor.writes.max(c.value)).saturating_add(1),
        });
        drop(lock);
        let (mut keys, mut store, _rebuilt) = open_critical_memory(path, config)?;
        let n = record_clear(keys.as_mut(), &mut store, operator_id, &format!("key lost: {reason}"), &before)?;
        Ok(KeyLostClear { n, archive })
    }
}

/// What a key-lost clear and an archive check first: the configuration,
/// the key store production runs on, the logic door, and that the key is
/// lost (not merely damaged files, nor another machine's), with the files
/// locked: no cabinet may hold them while they are examined and moved.
fn examine_lost(
    path: &Path,
    config: &MachineConfig,
    logic_door_open: bool,
    what: &str,
) -> Result<(std::fs::File, Box<dyn keystore::KeyStore>, key_lost::LostKey), BootError> {
    config.validate()?;
    super::check_key_store(path, config)?;
    if !logic_door_open {
        return Err(BootError::LogicDoorClosed);
    }
    let second = config.second_copy.path_for(path);
    let lock = store::lock(path)?;
    let mut keys = super::key_store(config, path).map_err(StoreError::from)?;
    let lost = match key_lost::examine(path, second.as_deref(), keys.as_mut())? {
        KeyCheck::Lost(l) => l,
        KeyCheck::Empty => return Err(BootError::KeyNotLost(format!("critical memory is empty: there is nothing to {what}"))),
        KeyCheck::Verifies => {
            return Err(BootError::KeyNotLost("the key store's key verifies critical memory: the key is not lost (use the ordinary RAM clear)".into()));
        }
        KeyCheck::Foreign(_) => {
            return Err(BootError::KeyNotLost(
                "the TPM still holds this cabinet's key, and it verifies nothing in these files: they are another machine's or forged, not a lost key; the tamper clear (`egm-lab ram-clear`, the PIN checked by the TPM) is the way out".into(),
            ));
        }
    };
    Ok((lock, keys, lost))
}
