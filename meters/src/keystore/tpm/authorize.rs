//! The machine key's policy under a signed release (issue 68;
//! [`crate::keystore::release`]): PolicyPCR over the launcher's PCR,
//! approved by the release-signing key (TPM2_VerifySignature, then
//! TPM2_PolicyAuthorize), then PolicyPCR over the platform's PCRs.
//!
//! The key made at provisioning answers to the digest this leaves in a
//! session; a release another key signed, a release the launcher did not
//! measure in this boot, a capped boot or another platform leaves another
//! digest, and the TPM refuses the key (`PolicyFail`).

use sha2::{Digest as _, Sha256};
use tss_esapi::Context;
use tss_esapi::handles::{KeyHandle, ObjectHandle};
use tss_esapi::interface_types::algorithm::{HashingAlgorithm, PublicAlgorithm};
use tss_esapi::interface_types::ecc::EccCurve;
use tss_esapi::interface_types::resource_handles::Hierarchy;
use tss_esapi::interface_types::session_handles::PolicySession;
use tss_esapi::structures::{
    Digest, EccParameter, EccPoint, EccScheme, EccSignature, HashScheme, Nonce, Public, PublicBuilder, PublicEccParametersBuilder, Signature,
};

use super::measured;
use crate::keystore::SignedRelease;
use crate::keystore::release::{POLICY_REF, ReleaseError};

/// A signed release, read once: the signer's point and the signature.
#[derive(Clone, Debug)]
pub(crate) struct Approval {
    x: [u8; 32],
    y: [u8; 32],
    r: [u8; 32],
    s: [u8; 32],
}

impl Approval {
    /// `release`, its signature checked in software first: a bad one is
    /// named before the TPM is asked.
    pub(crate) fn of(release: &SignedRelease) -> Result<Self, ReleaseError> {
        let decoded = release.signature.verified(&release.digest)?;
        let ((x, y), (r, s)) = (decoded.signer_point(), decoded.r_s());
        Ok(Self { x, y, r, s })
    }

    /// The signer as the TPM loads it: an unrestricted ECDSA P-256
    /// SHA-256 verification key (its TPM name is what the key's policy
    /// binds).
    fn signer(&self) -> tss_esapi::Result<Public> {
        let parameters =
            PublicEccParametersBuilder::new_unrestricted_signing_key(EccScheme::EcDsa(HashScheme::new(HashingAlgorithm::Sha256)), EccCurve::NistP256)
                .build()?;
        let attributes = tss_esapi::attributes::ObjectAttributesBuilder::new().with_sign_encrypt(true).with_user_with_auth(true).build()?;
        PublicBuilder::new()
            .with_public_algorithm(PublicAlgorithm::Ecc)
            .with_name_hashing_algorithm(HashingAlgorithm::Sha256)
            .with_object_attributes(attributes)
            .with_ecc_parameters(parameters)
            .with_ecc_unique_identifier(EccPoint::new(EccParameter::try_from(self.x.to_vec())?, EccParameter::try_from(self.y.to_vec())?))
            .build()
    }

    fn signature(&self) -> tss_esapi::Result<Signature> {
        Ok(Signature::EcDsa(EccSignature::create(
            HashingAlgorithm::Sha256,
            EccParameter::try_from(self.r.to_vec())?,
            EccParameter::try_from(self.s.to_vec())?,
        )?))
    }

    /// Assert in `policy` (a policy or trial session) the launcher's PCR
    /// approved by this signature, then the platform's PCRs.
    pub(super) fn assert(&self, ctx: &mut Context, policy: PolicySession) -> tss_esapi::Result<()> {
        ctx.execute_without_session(|c| c.policy_pcr(policy, Digest::default(), measured::launcher_selection()?))?;
        let approved = ctx.execute_without_session(|c| c.policy_get_digest(policy))?;
        let public = self.signer()?;
        // Public only: any hierarchy takes it; the owner's makes the
        // ticket one PolicyAuthorize accepts (a null hierarchy's is not).
        let signer: KeyHandle = ctx.execute_without_session(|c| c.load_external_public(public, Hierarchy::Owner))?;
        let r = self.approve(ctx, policy, signer, approved);
        let _ = ctx.flush_context(ObjectHandle::from(signer));
        r?;
        ctx.execute_without_session(|c| c.policy_pcr(policy, Digest::default(), measured::platform_selection()?))
    }

    fn approve(&self, ctx: &mut Context, policy: PolicySession, signer: KeyHandle, approved: Digest) -> tss_esapi::Result<()> {
        let name = ctx.tr_get_name(signer.into())?;
        let mut a_hash = Sha256::new();
        a_hash.update(approved.value());
        a_hash.update(POLICY_REF);
        let a_hash = Digest::try_from(a_hash.finalize().to_vec())?;
        let signature = self.signature()?;
        let ticket = ctx.execute_without_session(|c| c.verify_signature(signer, a_hash, signature))?;
        let policy_ref = Nonce::try_from(POLICY_REF.to_vec())?;
        ctx.execute_without_session(|c| c.policy_authorize(policy, approved, policy_ref, &name, ticket))
    }
}
