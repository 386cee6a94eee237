//! A production cabinet on a real software TPM, as the attack tests set
//! it up: production mode, the TPM key store, the operator's own
//! credential, both copies of critical memory and the NVRAM mirror.

use std::path::{Path, PathBuf};

use meters::{BootError, IntegrityError, KeyStoreConfig, Machine, MachineConfig, Mode, OperatorCredential, SeedChoice};

use super::copies::Snapshot;
use super::swtpm::SoftwareTpm;

/// The NV index the anchor counter lives at in these tests.
pub const NV_INDEX: u32 = 0x0150_0020;

/// The production configuration on this TPM and the NVRAM beside it: an
/// evaluation cabinet, since the TPM is a software one (a chip's cabinet
/// differs only in `evaluation` and in what its platform measures).
pub fn config(tpm: &SoftwareTpm) -> MachineConfig {
    MachineConfig {
        mode: Mode::Production,
        key_store: KeyStoreConfig::Tpm { tcti: tpm.tcti(), nv_index: NV_INDEX },
        operator: operator(),
        nvram_mirror: Some(tpm.nvram()),
        evaluation: true,
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

/// The operator's credential: the PIN held by the TPM alone (issue 47,
/// hole 7; provisioning sets it there).
pub fn operator() -> OperatorCredential {
    OperatorCredential::held_by_tpm("ana").unwrap()
}

/// The approved release's digest, as the cabinet's launcher measures it
/// (`egm-launch`: the approved manifest's programs).
pub const RELEASE: [u8; 32] = *b"egm release 2026.11 (test build)";

/// The launcher's step at a power-up (issue 47, hole 1): the product's own
/// `measure_release`, which measures once per boot of the TPM.
pub fn launch(tpm: &SoftwareTpm) {
    meters::keystore::measure_release(&config(tpm).key_store, &RELEASE).unwrap();
}

/// The cabinet's boot: launched, then opened.
pub fn boot(path: &Path, tpm: &SoftwareTpm) -> Result<Machine, BootError> {
    launch(tpm);
    Machine::open(path, config(tpm), SeedChoice::Entropy)
}

/// The cabinet's boot on `config`, launched on `tpm`.
pub fn boot_with(path: &Path, config: MachineConfig, tpm: &SoftwareTpm) -> Result<Machine, BootError> {
    launch(tpm);
    Machine::open(path, config, SeedChoice::Entropy)
}

/// A new cabinet: provisioned once, then booted.
pub fn provision_and_boot(path: &Path, tpm: &SoftwareTpm) -> Machine {
    provision_and_boot_with(path, config(tpm), tpm)
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

pub fn provision_and_boot_with(path: &Path, config: MachineConfig, tpm: &SoftwareTpm) -> Machine {
    launch(tpm);
    Machine::provision(path, config.clone(), PIN).unwrap();
    boot_with(path, config, tpm).unwrap()
}

pub fn ram_error(r: Result<Machine, BootError>) -> IntegrityError {
    match r {
        Err(BootError::RamError(e)) => e,
        Err(other) => panic!("expected a RAM error, got {other}"),
        Ok(_) => panic!("the boot was accepted"),
    }
}

/// The attacker's try at the machine key: a policy session over the PCRs
/// the key is bound to (PolicyPCR at their current values), then
/// TPM2_HMAC with the key's persistent handle, as `tpm2-tools` run by any
/// program on the cabinet do it. Whether the TPM gave the HMAC.
pub fn hmac_with_the_machine_key(tpm: &SoftwareTpm, dir: &Path) -> bool {
    hmac_under_policy_pcr(tpm, dir, "sha256:0,2,4,7,15")
}

/// TPM2_HMAC with the machine key under PolicyPCR over `pcrs` (as
/// `tpm2_policypcr -l` names them) at their current values.
pub fn hmac_under_policy_pcr(tpm: &SoftwareTpm, dir: &Path, pcrs: &str) -> bool {
    let session = dir.join("hmac-session.ctx");
    let input = dir.join("label");
    std::fs::write(&input, b"egm critical memory journal key v1").unwrap();
    let s = session.to_str().unwrap();
    assert!(tpm.tools(&["tpm2_startauthsession", "--policy-session", "-S", s]).status.success());
    assert!(tpm.tools(&["tpm2_policypcr", "-S", s, "-l", pcrs]).status.success());
    let key = format!("{:#010x}", meters::keystore::KEY_HANDLE);
    let out = tpm.tools(&["tpm2_hmac", "-c", &key, "-p", &format!("session:{s}"), "-g", "sha256", input.to_str().unwrap()]);
    let _ = tpm.tools(&["tpm2_flushcontext", s]);
    out.status.success()
}

/// The attacker's try at the anchor: TPM2_NV_Write of a mark of their own
/// (the count at 2^40, a chain of their choosing) with the empty
/// authorisation, and with a PolicyPCR session at the PCRs' current
/// values. Whether either wrote it.
pub fn increment_the_counter(tpm: &SoftwareTpm, dir: &Path) -> bool {
    let index = format!("{NV_INDEX:#010x}");
    let forged = dir.join("forged-mark");
    let mut mark = (1u64 << 40).to_be_bytes().to_vec();
    mark.extend_from_slice(&[0x5a; 32]);
    std::fs::write(&forged, &mark).unwrap();
    let input = forged.to_str().unwrap();
    if tpm.tools(&["tpm2_nvwrite", "-C", &index, "-i", input, &index]).status.success() {
        return true;
    }
    let session = dir.join("increment-session.ctx");
    let s = session.to_str().unwrap();
    assert!(tpm.tools(&["tpm2_startauthsession", "--policy-session", "-S", s]).status.success());
    assert!(tpm.tools(&["tpm2_policypcr", "-S", s, "-l", "sha256:0,2,4,7,15"]).status.success());
    let out = tpm.tools(&["tpm2_nvwrite", "-C", &index, "-P", &format!("session:{s}"), "-i", input, &index]);
    let _ = tpm.tools(&["tpm2_flushcontext", s]);
    out.status.success()
}
