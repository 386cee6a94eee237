//! The operator credential for a RAM clear (D-32; issue 21).
//!
//! * The PIN is kept only as an **argon2id** hash (PHC string, random salt,
//!   19 MiB, 2 passes): no plaintext and no fast hash anywhere, journal
//!   included, so a copy of the files does not give the PIN away in
//!   milliseconds.
//! * A clear is checked against **the machine's own record**
//!   ([`CredentialRecord`], in critical memory under the machine key's MAC),
//!   never against a configuration the caller passes; failed tries are
//!   counted there and lock the clear out for a while.
//! * Production refuses the default credential (PIN 0000).
//! * **Production keeps the PIN in the TPM alone** (issue 47, hole 7): its
//!   configuration, and so its journal and its credential record, name the
//!   operator with [`HELD_BY_TPM`] in place of a hash; provisioning sets
//!   the PIN in the TPM's credential (under its dictionary-attack lockout)
//!   and nothing on the cabinet's files can be searched offline for it.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use serde::{Deserialize, Serialize};

/// The PIN every development configuration ships with, refused in production.
pub const DEFAULT_PIN: &str = "0000";

/// The fewest digits a new PIN may have (issue 34, hole 5). An offline
/// search tries every PIN against a copied hash at argon2id's cost (14 ms
/// a try on one core of these machines, `credential_check` in the commit
/// benchmark): 10^10 PINs take about 4.4 core-years, some 50 days on a
/// 32-core server; 10^8 would take 16 core-days (half a day on that
/// server), 10^6, as before, 4 hours, and 10^4 two minutes.
pub const MIN_PIN_DIGITS: usize = 10;

/// What a production credential holds in place of a hash: the PIN is
/// held by the TPM alone (issue 47, hole 7).
pub const HELD_BY_TPM: &str = "held-by-tpm";

/// Failed tries before the RAM clear locks out.
pub const MAX_FAILURES: u32 = 5;

/// How long a lockout lasts, in seconds.
pub const LOCKOUT_SECONDS: i64 = 15 * 60;

/// Who may clear critical memory, and the argon2id hash of their PIN.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperatorCredential {
    pub operator_id: String,
    /// The PIN's argon2id hash, as a PHC string (`$argon2id$v=19$…`).
    pub pin_argon2: String,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CredentialError {
    #[error("the operator credential names no operator")]
    NoOperator,
    #[error("the operator PIN hash is not an argon2id PHC string ({0}): make one with `egm-lab credential`")]
    NotArgon2id(String),
    #[error("the operator PIN must be 10 to 12 digits: a shorter one falls to an offline search of a copied file in less than days")]
    BadPin,
    #[error("the operator PIN could not be hashed: {0}")]
    Hash(String),
    /// Issue 47, hole 7: production keeps no hash of the PIN in any file.
    #[error(
        "production keeps the operator's PIN in the TPM alone: the configuration names the operator only (operator: (operator_id: \"…\", pin_argon2: \"held-by-tpm\")), never a hash an offline search of a copied file attacks"
    )]
    HashInFiles,
}

/// argon2id's memory cost, in KiB: OWASP's minimum.
const MEMORY_KIB: u32 = 19 * 1024;
/// argon2id's passes: OWASP's minimum.
const PASSES: u32 = 2;

/// Whether `pin` is one a new credential may have: 10 to 12 digits.
pub fn check_pin(pin: &str) -> Result<(), CredentialError> {
    if !(MIN_PIN_DIGITS..=12).contains(&pin.len()) || !pin.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CredentialError::BadPin);
    }
    Ok(())
}

fn argon2() -> Argon2<'static> {
    // OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane.
    let params = Params::new(MEMORY_KIB, PASSES, 1, Some(32)).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

impl OperatorCredential {
    /// Hash `pin` for `operator_id` with a fresh random salt.
    pub fn new(operator_id: &str, pin: &str) -> Result<Self, CredentialError> {
        if operator_id.trim().is_empty() {
            return Err(CredentialError::NoOperator);
        }
        check_pin(pin)?;
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).map_err(|e| CredentialError::Hash(e.to_string()))?;
        let salt = SaltString::encode_b64(&salt).map_err(|e| CredentialError::Hash(e.to_string()))?;
        let hash = argon2().hash_password(pin.as_bytes(), &salt).map_err(|e| CredentialError::Hash(e.to_string()))?;
        Ok(Self { operator_id: operator_id.into(), pin_argon2: hash.to_string() })
    }

    /// A production credential (issue 47, hole 7): the operator, the PIN
    /// held by the TPM alone (provisioning sets it there).
    pub fn held_by_tpm(operator_id: &str) -> Result<Self, CredentialError> {
        if operator_id.trim().is_empty() {
            return Err(CredentialError::NoOperator);
        }
        Ok(Self { operator_id: operator_id.into(), pin_argon2: HELD_BY_TPM.into() })
    }

    /// Whether the PIN is held by the TPM alone (no hash in any file).
    pub fn is_held_by_tpm(&self) -> bool {
        self.pin_argon2 == HELD_BY_TPM
    }

    /// The hash parses as argon2id (or the PIN is held by the TPM).
    pub fn validate(&self) -> Result<(), CredentialError> {
        if self.operator_id.trim().is_empty() {
            return Err(CredentialError::NoOperator);
        }
        if self.is_held_by_tpm() {
            return Ok(());
        }
        let parsed = PasswordHash::new(&self.pin_argon2).map_err(|e| CredentialError::NotArgon2id(e.to_string()))?;
        if parsed.algorithm.as_str() != "argon2id" {
            return Err(CredentialError::NotArgon2id(format!("algorithm {}", parsed.algorithm)));
        }
        Ok(())
    }

    /// Whether `operator_id` and `pin` match (argon2's comparison is
    /// constant-time). A PIN held by the TPM is never accepted here: only
    /// the TPM checks it.
    pub fn accepts(&self, operator_id: &str, pin: &str) -> bool {
        if operator_id != self.operator_id || self.is_held_by_tpm() {
            return false;
        }
        match PasswordHash::new(&self.pin_argon2) {
            Ok(hash) => argon2().verify_password(pin.as_bytes(), &hash).is_ok(),
            Err(_) => false,
        }
    }

    /// Whether this is the default credential (its PIN is 0000).
    pub fn is_default(&self) -> bool {
        self.accepts(&self.operator_id, DEFAULT_PIN)
    }
}

/// A secret the TPM holds for this operator on this machine (issue 34,
/// holes 1, 5 and 6): argon2id of the PIN, salted by what it is for, the
/// machine and the operator. Never stored: provisioning sets it in the TPM,
/// and the PIN gives it again when the operator is present.
fn tpm_secret(purpose: &str, machine_id: &str, operator_id: &str, pin: &str) -> Result<[u8; 32], CredentialError> {
    use sha2::Digest as _;
    let salt = sha2::Sha256::new()
        .chain_update(b"egm tpm secret v1\0")
        .chain_update(purpose.as_bytes())
        .chain_update([0])
        .chain_update(machine_id.as_bytes())
        .chain_update([0])
        .chain_update(operator_id.as_bytes())
        .finalize();
    let mut out = [0u8; 32];
    argon2().hash_password_into(pin.as_bytes(), &salt[..16], &mut out).map_err(|e| CredentialError::Hash(e.to_string()))?;
    Ok(out)
}

/// The operator's credential secret in the TPM: what a RAM clear presents.
pub(crate) fn tpm_credential(machine_id: &str, operator_id: &str, pin: &str) -> Result<[u8; 32], CredentialError> {
    tpm_secret("operator credential", machine_id, operator_id, pin)
}

/// Everything provisioning sets in the TPM for this operator.
pub(crate) fn owner_secrets(machine_id: &str, operator_id: &str, pin: &str) -> Result<crate::keystore::OwnerSecrets, CredentialError> {
    Ok(crate::keystore::OwnerSecrets {
        owner: tpm_secret("owner hierarchy", machine_id, operator_id, pin)?,
        endorsement: tpm_secret("endorsement hierarchy", machine_id, operator_id, pin)?,
        lockout: tpm_secret("lockout", machine_id, operator_id, pin)?,
        credential: tpm_credential(machine_id, operator_id, pin)?,
    })
}

/// The machine's own record of its credential, with the failed tries since
/// the last success and the end of a lockout (kept beside the journal,
/// under the machine key's MAC; it survives RAM clears).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CredentialRecord {
    pub(crate) credential: OperatorCredential,
    pub(crate) failures: u32,
    /// Unix seconds until which clears are refused.
    pub(crate) locked_until: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pin_is_kept_only_as_argon2id_and_checked() {
        let c = OperatorCredential::new("ana", "7391046285").unwrap();
        assert!(c.pin_argon2.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{}", c.pin_argon2);
        assert!(!c.pin_argon2.contains("7391046285"));
        assert_eq!(c.validate(), Ok(()));
        assert!(c.accepts("ana", "7391046285"));
        assert!(!c.accepts("ana", "7391046286"));
        assert!(!c.accepts("rui", "7391046285"));
        assert!(!c.is_default());
        assert!(crate::MachineConfig::default().operator.is_default());
        // Two hashes of one PIN differ (random salt).
        assert_ne!(OperatorCredential::new("ana", "7391046285").unwrap().pin_argon2, c.pin_argon2);
    }

    #[test]
    fn the_default_credential_is_pin_0000_hashed_with_argon2id() {
        let salt = SaltString::encode_b64(b"egm-default-salt").unwrap();
        let hash = argon2().hash_password(DEFAULT_PIN.as_bytes(), &salt).unwrap();
        assert_eq!(hash.to_string(), crate::config::DEFAULT_OPERATOR_ARGON2);
        assert!(crate::MachineConfig::default().operator.is_default());
    }

    #[test]
    fn bad_credentials_are_named() {
        assert_eq!(OperatorCredential::new("", "1234"), Err(CredentialError::NoOperator));
        assert_eq!(OperatorCredential::new("ana", "12a4"), Err(CredentialError::BadPin));
        assert_eq!(OperatorCredential::new("ana", "123"), Err(CredentialError::BadPin));
        // Issue 34, hole 5: a PIN an offline search breaks in hours is refused.
        assert_eq!(OperatorCredential::new("ana", "739104628"), Err(CredentialError::BadPin));
        assert_eq!(OperatorCredential::new("ana", "0000"), Err(CredentialError::BadPin));
        assert!(OperatorCredential::new("ana", "7391046285").is_ok());
        assert!(OperatorCredential::new("ana", "739104628512").is_ok());
        // A fast hash (the old salted SHA-256) is refused by name.
        let sha = OperatorCredential { operator_id: "ana".into(), pin_argon2: "0b9cb914ecc6e2f2d5a8101a402265dbe00d938f7ec5a182b0a9a397edc5b2f0".into() };
        assert!(matches!(sha.validate(), Err(CredentialError::NotArgon2id(_))));
        let bcryptish = OperatorCredential { operator_id: "ana".into(), pin_argon2: "$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA".into() };
        assert!(matches!(bcryptish.validate(), Err(CredentialError::NotArgon2id(_))));
    }

    /// Issue 47, hole 7: a production credential holds no hash; nothing in
    /// a file accepts any PIN for it.
    #[test]
    fn a_credential_held_by_the_tpm_accepts_no_pin_from_files() {
        let c = OperatorCredential::held_by_tpm("ana").unwrap();
        assert_eq!(c.validate(), Ok(()));
        assert!(c.is_held_by_tpm() && !c.is_default());
        for pin in ["7391046285", "0000", "", HELD_BY_TPM] {
            assert!(!c.accepts("ana", pin), "{pin}");
        }
        assert_eq!(OperatorCredential::held_by_tpm(" "), Err(CredentialError::NoOperator));
    }
}
