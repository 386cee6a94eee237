//! The cabinet's protected key store and rollback anchor (issue 21; GLI-11
//! critical memory, NZ 2.4.7).
//!
//! Two things critical memory cannot keep for itself, because a copy of
//! every file is in an attacker's hands:
//!
//! * **the key** that MACs the journal. A TPM 2.0 derives it
//!   ([`tpm`]): an HMAC-SHA256 key made inside the chip (fixedTPM,
//!   fixedParent, sensitiveDataOrigin) MACs a label naming the machine, and
//!   the result is held in this process's memory only, never on disk. The
//!   per-round MACs stay in software (microseconds); the TPM is asked once
//!   per boot.
//! * **the anchor**: an NV index the journal's head is bound to, holding
//!   how many anchor events there have been and the chain digest of the
//!   records each one anchored ([`AnchorMark`]; issue 68, attack 1). A copy
//!   of the database restored from before the last anchor names an older
//!   mark and is refused, and so is a copy from another branch of history
//!   that reached the same count (see `anchor`).
//!
//! [`file`] is a stand-in that keeps both in files beside the database: for
//! development and labs only. The boot report says so, and production mode
//! refuses it.

pub(crate) mod file;
pub mod release;
pub(crate) mod tpm;

pub use release::{ReleaseError, ReleaseSignature};
pub use tpm::endorsement::manufacturer_roots;
pub use tpm::{CREDENTIAL_INDEX, EK_HANDLE, Endorsed, KEY_HANDLE, LAUNCHER_PCR, PLATFORM_PCRS, Trust};

use std::path::Path;

use serde::{Deserialize, Serialize};

/// The TPM a production cabinet uses (issue 68, attack 3): its platform's
/// own, through the kernel's resource manager. A production cabinet that
/// is not an evaluation cabinet refuses any other TCTI (another device, a
/// software TPM, a relay on the network) before speaking to it.
pub const CABINET_TCTI: &str = "device:/dev/tpmrm0";

/// Where the machine key and the anchor counter live (configuration).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum KeyStoreConfig {
    /// Files beside the database (`<db>.key`, `<db>.anchor`): development
    /// and labs only; production refuses it.
    #[default]
    FileStandIn,
    /// A TPM 2.0 through the TSS: `tcti` as the TSS names it
    /// (`device:/dev/tpmrm0` on a cabinet, `swtpm:host=127.0.0.1,port=2321`
    /// for a software TPM) and the owner NV index that holds the anchor
    /// counter (0x01000000 to 0x01BFFFFF).
    Tpm { tcti: String, nv_index: u32 },
}

impl KeyStoreConfig {
    /// What the boot report and the audit screen call it.
    pub fn describe(&self) -> String {
        match self {
            KeyStoreConfig::FileStandIn => "file stand-in (development and labs only: not a protected key store)".into(),
            KeyStoreConfig::Tpm { tcti, nv_index } => format!("TPM 2.0 ({tcti}), anchor counter at NV index {nv_index:#010x}"),
        }
    }

    pub fn is_stand_in(&self) -> bool {
        matches!(self, KeyStoreConfig::FileStandIn)
    }
}

/// What went wrong with the key store.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KeyStoreError {
    #[error("TPM ({tcti}): {detail}")]
    Tpm { tcti: String, detail: String },
    /// The TPM does not answer (issue 34, hole 10): not a lost key. The
    /// cabinet waits for it; nothing is cleared.
    #[error("the TPM ({tcti}) does not answer: {detail}; critical memory waits for it (this is not a lost key: restart when it answers)")]
    Unreachable { tcti: String, detail: String },
    #[error("key store file {path}: {detail}")]
    File { path: String, detail: String },
    #[error("the anchor read back {read} after it was written {written}")]
    ReadBack { written: String, read: String },
    /// The anchor does not read what the write was made for: another
    /// branch of history moved it (issue 68, attack 1).
    #[error("the anchor reads {read}, not {expected} that this advance was made from: nothing was written")]
    Moved { expected: String, read: String },
    /// The element holds no machine key (a TPM cleared or replaced, or
    /// never provisioned): the only case a key-lost clear is for.
    #[error("{detail}")]
    NoKey { detail: String },
    /// The TPM's dictionary-attack lockout (issue 34, hole 5): too many
    /// wrong PINs; no file restored undoes it.
    /// A PCR the key is bound to is at its reset value (issue 47, hole 1):
    /// the platform measured no boot, or the launcher did not run.
    #[error(
        "the TPM ({tcti}) reports no measured state: PCR {pcrs:?} at its reset value (a platform without measured boot, or a boot in which the cabinet's launcher did not measure the release); the machine key is neither made nor used there"
    )]
    Unmeasured { tcti: String, pcrs: Vec<u8> },
    /// Issue 68, attack 4: the program read another manifest than the
    /// launcher measured.
    #[error(
        "PCR {pcr} of the TPM ({tcti}) holds {measured}, not the release {read} of the manifest this program read (its programs and approved paytables): the manifest or a paytable was edited after the launcher measured it, or the configuration names another manifest than the launcher's; the machine key is not taken"
    )]
    OtherRelease { tcti: String, pcr: u8, measured: String, read: String },
    /// Issue 68, attack 3: the TPM is not one whose endorsement key the
    /// trusted roots certify (a floor cabinet's: a manufacturer's root this
    /// program carries), or it holds no endorsement key to seal to. Not a
    /// lost key: nothing secret was sent to it.
    #[error("the TPM ({tcti}) is not the platform's own certified TPM: {detail}; nothing secret is sent to it")]
    NotEndorsed { tcti: String, detail: String },
    #[error("the TPM ({tcti}) is in dictionary-attack lockout after too many wrong PINs: it accepts none until its recovery time has passed")]
    LockedOut { tcti: String },
    /// The TPM holds the machine key but refuses it in this state (issue
    /// 47, hole 2; issue 68): another measured state, a release its signer
    /// did not sign, a boot already capped. Not a lost key, not a fault of
    /// the files: the cabinet waits for its certified release.
    #[error("TPM ({tcti}): {detail}")]
    Refused { tcti: String, detail: String },
    /// Issue 68: the manifest's release signature is malformed or does not
    /// verify; the TPM is not asked.
    #[error("{0}; the machine key is not asked for")]
    Release(#[from] ReleaseError),
}

/// A release and its signature (issue 68; [`release`]): what the machine
/// key of a TPM provisioned for signed releases answers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedRelease {
    /// The release's digest (the manifest's programs and approved
    /// paytables), as the launcher measures it.
    pub digest: [u8; 32],
    /// The release-signing key's signature of it.
    pub signature: ReleaseSignature,
}

/// What the anchor's NV index holds (issue 68, attack 1): the number of
/// anchor events since the index was first written, and the chain digest
/// of the records they anchored, each `H(previous mark ‖ the record it
/// anchors)` ([`crate::store`] derives it under the machine key). A count
/// alone could not say which history advanced it: two copies forked from
/// one state, each cut between its pending record and the write, once
/// confirmed one ticket each at the same count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AnchorMark {
    pub(crate) value: u64,
    pub(crate) chain: [u8; 32],
}

impl AnchorMark {
    /// The index's 40 bytes: the value big-endian, then the chain.
    pub(crate) const LEN: usize = 40;

    pub(crate) fn to_bytes(self) -> [u8; Self::LEN] {
        let mut out = [0u8; Self::LEN];
        out[..8].copy_from_slice(&self.value.to_be_bytes());
        out[8..].copy_from_slice(&self.chain);
        out
    }

    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<AnchorMark> {
        if bytes.len() != Self::LEN {
            return None;
        }
        let mut value = [0u8; 8];
        value.copy_from_slice(&bytes[..8]);
        let mut chain = [0u8; 32];
        chain.copy_from_slice(&bytes[8..]);
        Some(AnchorMark { value: u64::from_be_bytes(value), chain })
    }
}

impl std::fmt::Display for AnchorMark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (chain ", self.value)?;
        for b in &self.chain[..4] {
            write!(f, "{b:02x}")?;
        }
        write!(f, "…)")
    }
}

/// What the anchor reads, as an error says it.
pub(crate) fn describe(mark: Option<AnchorMark>) -> String {
    mark.map_or_else(|| "never written".into(), |m| m.to_string())
}

/// What every key store checks before it writes the anchor: it reads
/// `now` the mark the advance was made `from` (`None`: never written), or
/// nothing is written ([`KeyStoreError::Moved`]).
pub(crate) fn expect_at(now: Option<AnchorMark>, from: Option<AnchorMark>) -> Result<(), KeyStoreError> {
    if now == from { Ok(()) } else { Err(KeyStoreError::Moved { expected: describe(from), read: describe(now) }) }
}

/// Advance the anchor from `from` to `to` ([`KeyStore::advance`]) and
/// check that it reads `to` back ([`KeyStoreError::ReadBack`]).
pub(crate) fn advance_to(keys: &mut dyn KeyStore, from: Option<AnchorMark>, to: AnchorMark) -> Result<AnchorMark, KeyStoreError> {
    let read = keys.advance(from, to)?;
    if read != to {
        return Err(KeyStoreError::ReadBack { written: to.to_string(), read: read.to_string() });
    }
    Ok(read)
}

/// The secrets provisioning sets in the TPM, derived from the operator's
/// PIN (`credential::tpm_secrets`): never stored on the cabinet.
pub(crate) struct OwnerSecrets {
    pub(crate) owner: [u8; 32],
    pub(crate) endorsement: [u8; 32],
    pub(crate) lockout: [u8; 32],
    /// The authorisation of the operator's credential in the TPM.
    pub(crate) credential: [u8; 32],
}

/// What the key store says of an operator's PIN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OperatorCheck {
    /// The store keeps no credential (the file stand-in, or a TPM never
    /// provisioned or cleared): the caller checks the machine's record.
    NotKept,
    Accepted,
    /// Refused, and counted by the TPM's dictionary-attack protection.
    Refused,
}

/// The protected element: derives the machine key and keeps the anchor.
pub(crate) trait KeyStore: Send {
    /// The key that MACs critical memory, derived inside the element from
    /// its own secret and `label`. The same label gives the same key on the
    /// same element, and nothing else gives it. A TPM is capped at once
    /// after it (issue 47, hole 1): only this process has the key in this
    /// boot.
    fn derive_key(&mut self, label: &[u8]) -> Result<[u8; 32], KeyStoreError>;

    /// A new machine's first boot: make the element's secret if it has
    /// none (the file stand-in's; a TPM's key is the chip's own).
    fn make_secret_if_missing(&mut self) -> Result<(), KeyStoreError>;

    /// The anchor's mark, or `None` while it has never been written (a
    /// machine that was never provisioned).
    fn counter(&mut self) -> Result<Option<AnchorMark>, KeyStoreError>;

    /// Write `to` where the anchor reads `from` now (`None`: never
    /// written), and read it back; an anchor that reads anything else is
    /// refused unwritten ([`KeyStoreError::Moved`]). One NV write: callers
    /// keep to the anchor events.
    fn advance(&mut self, from: Option<AnchorMark>, to: AnchorMark) -> Result<AnchorMark, KeyStoreError>;

    /// The counter's TPM name (the digest of its NV public area: index,
    /// attributes, policy), which critical memory is bound to at
    /// provisioning (issue 34, hole 1); `None` while it is not defined, and
    /// for the file stand-in.
    fn counter_name(&mut self) -> Result<Option<Vec<u8>>, KeyStoreError>;

    /// Provisioning, with the operator present: take ownership of the
    /// element and make the key, the counter and the credential in it
    /// (issue 34, holes 1, 2, 5, 6). Nothing for the file stand-in.
    fn take_ownership(&mut self, secrets: &OwnerSecrets) -> Result<(), KeyStoreError>;

    /// Check an operator's derived credential secret against the one bound
    /// in the element at provisioning.
    fn check_operator(&mut self, credential: &[u8; 32]) -> Result<OperatorCheck, KeyStoreError>;

    /// Whether the element keeps the key and the credential itself, so
    /// that a key that verifies nothing means foreign or forged files, not
    /// a lost key (a TPM); the stand-in's key is a file.
    fn keeps_operator(&self) -> bool;

    /// The element's endorsement, checked as its secrets are sealed to it
    /// (issue 68, attack 3): what certified a TPM's endorsement key
    /// (`None` for an evaluation cabinet's, which nothing certifies, and
    /// for the file stand-in), else [`KeyStoreError::NotEndorsed`].
    fn endorse(&mut self) -> Result<Option<Endorsed>, KeyStoreError>;
}

/// The launcher's step (issue 47, hole 1): extend the TPM's launcher PCR
/// with the approved release's digest, before a certified program starts
/// (`egm-launch`), once per boot: `true` when it did it now, `false` when
/// this boot was already measured (a second certified program launched in
/// the same boot: provisioning, then the cabinet) or the file stand-in.
pub fn measure_release(config: &KeyStoreConfig, release: &[u8; 32]) -> Result<bool, KeyStoreError> {
    match config {
        KeyStoreConfig::FileStandIn => Ok(false),
        KeyStoreConfig::Tpm { tcti, nv_index } => tpm::Tpm::new(tcti, *nv_index)?.measure_release(release),
    }
}

/// What the program that reads the approved manifest checks before it
/// takes the key (issue 68, attack 4): the launcher's PCR holds `release`,
/// the digest of the manifest this program read (its programs and every
/// approved paytable), as the launcher measured it, or that measurement
/// capped by a program that took the key in this boot. A PCR still at its
/// reset value passes here (the key store names an unmeasured boot when
/// the key is asked for); anything else is another release than the one
/// read: a manifest or paytable edited after the launcher measured it, or
/// a configuration that names another manifest than the launcher's.
/// Nothing for the file stand-in.
pub fn check_release(config: &KeyStoreConfig, release: &[u8; 32]) -> Result<(), KeyStoreError> {
    match config {
        KeyStoreConfig::FileStandIn => Ok(()),
        KeyStoreConfig::Tpm { tcti, nv_index } => tpm::Tpm::new(tcti, *nv_index)?.check_release(release),
    }
}

/// The launcher's step after its program ended, for whatever reason
/// (issue 68, attack 2: a program that exits before it takes the key — a
/// `--help`, a bad configuration — left the measured state open to any
/// program in the same boot): cap the launcher's PCR. Nothing for the file
/// stand-in.
pub fn cap_measurement(config: &KeyStoreConfig) -> Result<(), KeyStoreError> {
    match config {
        KeyStoreConfig::FileStandIn => Ok(()),
        KeyStoreConfig::Tpm { tcti, nv_index } => tpm::Tpm::new(tcti, *nv_index)?.cap_measurement(),
    }
}

/// Open the configured key store for the database at `db`, a TPM's
/// secrets sealed to the endorsement keys `trust` accepts.
pub(crate) fn open(config: &KeyStoreConfig, db: &Path, trust: Trust, release: Option<&SignedRelease>) -> Result<Box<dyn KeyStore>, KeyStoreError> {
    Ok(match config {
        KeyStoreConfig::FileStandIn => Box::new(file::FileStandIn::new(db)),
        KeyStoreConfig::Tpm { tcti, nv_index } => Box::new(tpm::Tpm::new(tcti, *nv_index)?.trusting(trust).releasing(release)?),
    })
}

/// A TPM's endorsement checked against `trust` (issue 68, attack 3; a
/// lab's check of a TPM, `egm-lab endorsement`): what certified its
/// endorsement key, `None` where `trust` certifies none or for the file
/// stand-in. Sends nothing secret.
pub fn endorsement(config: &KeyStoreConfig, trust: Trust) -> Result<Option<Endorsed>, KeyStoreError> {
    match config {
        KeyStoreConfig::FileStandIn => Ok(None),
        KeyStoreConfig::Tpm { tcti, nv_index } => tpm::Tpm::new(tcti, *nv_index)?.trusting(trust).endorsed(),
    }
}
