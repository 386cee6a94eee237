//! A production cabinet on a real software TPM, as the attack tests set
//! it up: production mode, the TPM key store, the operator's own
//! credential, both copies of critical memory and the NVRAM mirror.

use std::path::{Path, PathBuf};

use meters::{BootError, IntegrityError, KeyStoreConfig, Machine, MachineConfig, Mode, OperatorCredential, SeedChoice};

use super::copies::Snapshot;
use super::swtpm::SoftwareTpm;

/// The NV index the anchor counter lives at in these tests.
pub const NV_INDEX: u32 = 0x0150_0020;

/// The production configuration on this TPM and the NVRAM beside it.
pub fn config(tpm: &SoftwareTpm) -> MachineConfig {
    MachineConfig {
        mode: Mode::Production,
        key_store: KeyStoreConfig::Tpm { tcti: tpm.tcti(), nv_index: NV_INDEX },
        operator: operator(),
        nvram_mirror: Some(tpm.nvram()),
        ..MachineConfig::default()
    }
}

/// Every file an attacker copies: both copies of critical memory and the
/// NVRAM mirror.
pub fn snapshot(db: &Path, tpm: &SoftwareTpm) -> Snapshot {
    Snapshot::take_with(db, &[&tpm.nvram()])
}

/// The operator's PIN.
pub const PIN: &str = "7391046285";

/// The operator's own credential (production refuses the default), made
/// once: argon2id is slow on purpose.
pub fn operator() -> OperatorCredential {
    static OPERATOR: std::sync::OnceLock<OperatorCredential> = std::sync::OnceLock::new();
    OPERATOR.get_or_init(|| OperatorCredential::new("ana", PIN).unwrap()).clone()
}

pub fn boot(path: &Path, tpm: &SoftwareTpm) -> Result<Machine, BootError> {
    Machine::open(path, config(tpm), SeedChoice::Entropy)
}

pub fn boot_with(path: &Path, config: MachineConfig) -> Result<Machine, BootError> {
    Machine::open(path, config, SeedChoice::Entropy)
}

/// A new cabinet: provisioned once, then booted.
pub fn provision_and_boot(path: &Path, tpm: &SoftwareTpm) -> Machine {
    provision_and_boot_with(path, config(tpm))
}

/// A new production cabinet in a folder of its own, on a TPM of its own,
/// provisioned and booted: the folder, the TPM, critical memory's path and
/// the machine (bound in this order, the TPM stops before the folder goes).
pub fn provisioned_cabinet() -> (tempfile::TempDir, SoftwareTpm, PathBuf, Machine) {
    let dir = tempfile::tempdir().unwrap();
    let tpm = SoftwareTpm::start(dir.path());
    let db = dir.path().join("egm.sqlite");
    let m = provision_and_boot(&db, &tpm);
    (dir, tpm, db, m)
}

pub fn provision_and_boot_with(path: &Path, config: MachineConfig) -> Machine {
    Machine::provision(path, config.clone(), PIN).unwrap();
    boot_with(path, config).unwrap()
}

pub fn ram_error(r: Result<Machine, BootError>) -> IntegrityError {
    match r {
        Err(BootError::RamError(e)) => e,
        Err(other) => panic!("expected a RAM error, got {other}"),
        Ok(_) => panic!("the boot was accepted"),
    }
}
