//! Read-only inspection of critical memory for meter readers and lab tools
//! (`egm-lab meters|recall|events|verify`): verifies the whole chain and
//! replays it (`verify`: the mirror and the anchor too, as a boot), and
//! never writes a byte.

use std::path::Path;

use crate::config::MachineConfig;
use crate::keystore::{self, KeyStoreConfig, Trust};
use crate::machine::{RoundRecall, recall_from};
use crate::state::{AuditFailure, CriticalState};
use crate::store::{RamClearRecord, Record, Store, StoreError};

pub struct Inspection {
    store: Store,
    state: CriticalState,
    records: u64,
}

impl Inspection {
    /// Verify and replay `path`, keyed by the file stand-in (development
    /// and lab files). The error names the first bad record.
    pub fn open(path: &Path) -> Result<Inspection, StoreError> {
        Self::open_with(path, &KeyStoreConfig::FileStandIn, Trust::Evaluation, None)
    }

    /// Verify and replay `path` with the key from the configured key store,
    /// a TPM's answers sealed to the endorsement keys `trust` accepts
    /// (issue 68, attack 3), the key asked under `release`'s signer where
    /// the TPM was provisioned for signed releases.
    pub fn open_with(path: &Path, key_store: &KeyStoreConfig, trust: Trust, release: Option<&keystore::SignedRelease>) -> Result<Inspection, StoreError> {
        let mut keys = keystore::open(key_store, path, trust, release)?;
        Self::replayed(Store::open_read_only(path, keys.as_mut())?)
    }

    /// Verify `path` as a boot does (issue 34, hole 9: `verify` once said
    /// OK of a rolled-back file): the chain and the replay, then the NVRAM
    /// mirror `config` names and the anchor against its key store's
    /// counter. Reads only: the counter is read, never advanced.
    pub fn verify_as_boot(path: &Path, config: &MachineConfig) -> Result<Inspection, StoreError> {
        let mut keys = crate::machine::key_store(config, path)?;
        let store = Store::open_read_only(path, keys.as_mut())?.with_nvram(config.nvram_mirror.as_deref());
        let inspection = Self::replayed(store)?;
        crate::anchor::verify(&inspection.store, keys.as_mut())?;
        Ok(inspection)
    }

    fn replayed(mut store: Store) -> Result<Inspection, StoreError> {
        let mut state = CriticalState::default();
        let mut records = 0u64;
        store.replay(|r| {
            records += 1;
            state.apply(&r.entry).map_err(|e| e.to_string())
        })?;
        Ok(Inspection { store, state, records })
    }

    pub fn state(&self) -> &CriticalState {
        &self.state
    }

    /// Records in the current journal.
    pub fn records(&self) -> u64 {
        self.records
    }

    pub fn self_audit(&self) -> Result<(), AuditFailure> {
        self.state.self_audit()
    }

    pub fn recall(&self, n: u64) -> Result<Vec<RoundRecall>, StoreError> {
        Ok(recall_from(&self.store.last_rounds(n)?))
    }

    pub fn events(&self, n: u64) -> Result<Vec<Record>, StoreError> {
        self.store.last_events(n)
    }

    pub fn ram_clears(&self) -> Result<Vec<RamClearRecord>, StoreError> {
        self.store.ram_clears()
    }
}
