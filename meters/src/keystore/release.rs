//! The signed release (issue 68, "one measurement of everything the key
//! trusts … the manifest signed by the lab's key it names, and a release
//! moved to a new measurement only by a record the old key signs").
//!
//! Until now the machine key answered to one measurement of the launcher's
//! PCR, the release provisioning saw: a new release (a new paytable
//! included) could never take the key, so it was installed on a TPM
//! cleared after the meters were recorded. Now the key answers to **any
//! release the release-signing key named at provisioning has signed**
//! (TPM2_PolicyAuthorize), and to nothing else:
//!
//! * the lab (or, on an evaluation cabinet, the installation) holds an
//!   ECDSA P-256 release-signing key; the public half is named in the
//!   manifest ([`ReleaseSignature::signer`]) and bound into the machine
//!   key's policy when the TPM is provisioned (its TPM name, under
//!   PolicyAuthorize with [`POLICY_REF`]);
//! * for each release the lab signs [`signed_message`]: the policy digest
//!   of PolicyPCR over the launcher's PCR as the launcher leaves it after
//!   measuring that release ([`release_policy`]), then [`POLICY_REF`]. The
//!   digest is the same on every cabinet (the launcher's PCR starts from
//!   zeros each boot), so one signature serves a whole floor;
//! * to take the key, the certified program asserts PolicyPCR over the
//!   launcher's PCR, has the TPM verify the manifest's signature of that
//!   policy (TPM2_VerifySignature, a ticket), asserts PolicyAuthorize with
//!   the ticket, then PolicyPCR over the platform's PCRs (firmware, boot
//!   loader, secure boot: the cabinet's own, fixed at provisioning);
//! * which signed release a cabinet may run is the journal's (the record
//!   the old release makes, `Entry::ReleaseApproved`, with the logic door
//!   open): a release signed for the floor but not approved on this
//!   cabinet, or an older one, is refused after the key is taken and
//!   before anything is played (`BootError::ReleaseNotApproved`).
//!
//! The signature is checked here in software first ([`ReleaseSignature::verify`],
//! so that a bad one is named before the TPM is asked) and by the TPM
//! itself, which is what the key's policy trusts. The cabinet never holds
//! a signing key: [`sign`] is the lab's (`egm-lab sign-release`).

use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED, ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair as _, UnparsedPublicKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

/// The policyRef of every release signature: a signature made for
/// anything else the same key signs is not a release's.
pub const POLICY_REF: &[u8] = b"egm release v1";

/// TPM_CC_PolicyPCR (TPM 2.0 Part 2, 6.5.2).
const TPM_CC_POLICY_PCR: u32 = 0x0000_017F;

/// TPML_PCR_SELECTION of the launcher's PCR alone, marshalled: one
/// selection, SHA-256 (0x000B), three bytes of bitmap, PCR 15 = bit 7 of
/// byte 1.
const LAUNCHER_SELECTION: [u8; 10] = [0, 0, 0, 1, 0x00, 0x0B, 3, 0x00, 0x80, 0x00];

/// A P-256 public key, SEC1 uncompressed: 0x04, x, y.
const SIGNER_LEN: usize = 65;

/// ECDSA P-256 r ‖ s.
const SIGNATURE_LEN: usize = 64;

/// A release's signature as the manifest carries it (hex).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReleaseSignature {
    /// The release-signing key: P-256, SEC1 uncompressed (65 bytes).
    pub signer: String,
    /// ECDSA P-256 with SHA-256 over [`signed_message`], r ‖ s (64 bytes).
    pub signature: String,
}

/// What is wrong with a release's signature.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ReleaseError {
    #[error("the release signer {0:?} is not a P-256 public key (65 bytes, SEC1 uncompressed, in hex)")]
    Signer(String),
    #[error("the release signature is not 64 bytes of ECDSA P-256 r and s in hex")]
    Signature,
    #[error("the release signature does not verify: release {release} was not signed by {signer}")]
    Refused { release: String, signer: String },
    #[error("the release-signing key is not a P-256 PKCS#8 key: {0}")]
    SigningKey(String),
}

/// A release's signature read once (its hex decoded, its lengths and the
/// signer's form checked): what the software check verifies and what the
/// TPM is given are the same bytes.
pub(crate) struct Decoded {
    /// SEC1 uncompressed: 0x04, x, y.
    signer: [u8; SIGNER_LEN],
    /// r ‖ s.
    signature: [u8; SIGNATURE_LEN],
}

impl Decoded {
    /// The signer's key as a point: x and y.
    pub(crate) fn signer_point(&self) -> ([u8; 32], [u8; 32]) {
        halve(&self.signer[1..])
    }

    /// The signature's r and s.
    pub(crate) fn r_s(&self) -> ([u8; 32], [u8; 32]) {
        halve(&self.signature)
    }

    /// Whether the signer signed `release` ([`signed_message`]).
    fn verify(&self, release: &[u8; 32]) -> Result<(), ReleaseError> {
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, &self.signer[..])
            .verify(&signed_message(release), &self.signature)
            .map_err(|_| ReleaseError::Refused { release: hex::encode(release), signer: hex::encode(self.signer) })
    }
}

/// 64 bytes as two halves of 32 (the slices given are always 64 long).
fn halve(bytes: &[u8]) -> ([u8; 32], [u8; 32]) {
    let mut halves = ([0u8; 32], [0u8; 32]);
    halves.0.copy_from_slice(&bytes[..32]);
    halves.1.copy_from_slice(&bytes[32..64]);
    halves
}

impl ReleaseSignature {
    /// The signature read once; what does not read is named.
    pub(crate) fn decode(&self) -> Result<Decoded, ReleaseError> {
        let signer: [u8; SIGNER_LEN] = hex::decode(&self.signer)
            .ok()
            .and_then(|b| b.try_into().ok())
            .filter(|b: &[u8; SIGNER_LEN]| b[0] == 0x04)
            .ok_or_else(|| ReleaseError::Signer(self.signer.clone()))?;
        let signature: [u8; SIGNATURE_LEN] = hex::decode(&self.signature).ok().and_then(|b| b.try_into().ok()).ok_or(ReleaseError::Signature)?;
        Ok(Decoded { signer, signature })
    }

    /// Whether the signer signed `release` ([`signed_message`]).
    pub fn verify(&self, release: &[u8; 32]) -> Result<(), ReleaseError> {
        self.decode()?.verify(release)
    }

    /// The signature read and checked against `release`: what the TPM is
    /// then asked to check itself.
    pub(crate) fn verified(&self, release: &[u8; 32]) -> Result<Decoded, ReleaseError> {
        let decoded = self.decode()?;
        decoded.verify(release)?;
        Ok(decoded)
    }
}

/// SHA-256 extend of a PCR holding `from`.
pub(crate) fn extended(from: &[u8], digest: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(from);
    h.update(digest);
    h.finalize().into()
}

/// The policy digest of TPM2_PolicyPCR over the launcher's PCR, from a
/// fresh session, when the PCR holds `release` as the launcher measured it
/// (extended once from zeros): `H(0³² ‖ TPM_CC_PolicyPCR ‖ selection ‖
/// H(PCR 15))` (TPM 2.0 Part 3, 23.7).
pub fn release_policy(release: &[u8; 32]) -> [u8; 32] {
    let pcr = extended(&[0; 32], release);
    let mut h = Sha256::new();
    h.update([0u8; 32]);
    h.update(TPM_CC_POLICY_PCR.to_be_bytes());
    h.update(LAUNCHER_SELECTION);
    h.update(Sha256::digest(pcr));
    h.finalize().into()
}

/// What the release-signing key signs for `release`: [`release_policy`]
/// then [`POLICY_REF`]; its SHA-256 is the aHash TPM2_PolicyAuthorize
/// checks.
pub fn signed_message(release: &[u8; 32]) -> Vec<u8> {
    let mut m = release_policy(release).to_vec();
    m.extend_from_slice(POLICY_REF);
    m
}

/// A new release-signing key, PKCS#8 (the lab's; kept off every cabinet).
pub fn new_signing_key() -> Result<Vec<u8>, ReleaseError> {
    EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &SystemRandom::new())
        .map(|k| k.as_ref().to_vec())
        .map_err(|e| ReleaseError::SigningKey(e.to_string()))
}

/// The lab's signature of `release` with the PKCS#8 key `pkcs8`.
pub fn sign(pkcs8: &[u8], release: &[u8; 32]) -> Result<ReleaseSignature, ReleaseError> {
    let rng = SystemRandom::new();
    let key = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8, &rng).map_err(|e| ReleaseError::SigningKey(e.to_string()))?;
    let signature = key.sign(&rng, &signed_message(release)).map_err(|e| ReleaseError::SigningKey(e.to_string()))?;
    Ok(ReleaseSignature { signer: hex::encode(key.public_key().as_ref()), signature: hex::encode(signature.as_ref()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_verifies_for_its_release_only() {
        let key = new_signing_key().unwrap();
        let signed = sign(&key, &[7; 32]).unwrap();
        assert_eq!(signed.verify(&[7; 32]), Ok(()));
        assert!(matches!(signed.verify(&[8; 32]), Err(ReleaseError::Refused { .. })));
        let other = sign(&new_signing_key().unwrap(), &[7; 32]).unwrap();
        let swapped = ReleaseSignature { signer: other.signer, signature: signed.signature.clone() };
        assert!(matches!(swapped.verify(&[7; 32]), Err(ReleaseError::Refused { .. })));
        let short = ReleaseSignature { signer: signed.signer.clone(), signature: signed.signature[..126].into() };
        assert_eq!(short.verify(&[7; 32]), Err(ReleaseError::Signature));
        let bad_signer = ReleaseSignature { signer: "04".into(), signature: signed.signature };
        assert_eq!(bad_signer.verify(&[7; 32]), Err(ReleaseError::Signer("04".into())));
    }

    /// The policy digest written out by hand for one release, so that a
    /// change of the marshalling shows (the TPM's own digest is compared
    /// in the swtpm tests: the key answers only when they agree).
    #[test]
    fn the_release_policy_is_policy_pcr_over_the_launchers_pcr() {
        let release = [0u8; 32];
        let pcr = Sha256::digest([0u8; 64]);
        let mut bytes = vec![0u8; 32];
        bytes.extend_from_slice(&[0x00, 0x00, 0x01, 0x7F, 0, 0, 0, 1, 0, 0x0B, 3, 0, 0x80, 0]);
        bytes.extend_from_slice(&Sha256::digest(pcr));
        assert_eq!(release_policy(&release), <[u8; 32]>::from(Sha256::digest(&bytes)));
    }
}
