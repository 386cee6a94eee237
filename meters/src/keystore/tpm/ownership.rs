//! Provisioning takes ownership of the TPM (issue 34, holes 1, 2, 5, 6).
//!
//! With the operator present, once per TPM: the owner, endorsement and
//! lockout authorisations are set (where still empty) to secrets derived
//! from the operator's PIN; then, under the owner's authorisation, the
//! machine key is made and made persistent, the anchor counter and the
//! operator's credential are defined. A second program on the cabinet can
//! then define no counter, make no key and delete nothing: it holds no
//! owner authorisation. Run again on a TPM that holds all three, it does
//! nothing; on one owned by another operator, it is refused by name.

use tss_esapi::Context;
use tss_esapi::attributes::{NvIndexAttributesBuilder, ObjectAttributesBuilder};
use tss_esapi::constants::nv_index_type::NvIndexType;
use tss_esapi::constants::response_code::Tss2ResponseCodeKind;
use tss_esapi::constants::{PropertyTag, SessionType};
use tss_esapi::handles::{AuthHandle, NvIndexTpmHandle, ObjectHandle, PersistentTpmHandle, SessionHandle};
use tss_esapi::interface_types::algorithm::{HashingAlgorithm, PublicAlgorithm};
use tss_esapi::interface_types::dynamic_handles::Persistent;
use tss_esapi::interface_types::resource_handles::{Hierarchy, NvAuth, Provision};
use tss_esapi::interface_types::session_handles::AuthSession;
use tss_esapi::structures::{Auth, Digest, KeyedHashScheme, MaxNvBuffer, NvPublicBuilder, PublicBuilder, PublicKeyedHashParameters};

use super::{Tpm, kind, pcr_policy_session, read_policy_session};
use crate::keystore::{KeyStoreError, OwnerSecrets};

/// TPMA_PERMANENT (TPM 2.0 Part 2, 8.6): which hierarchies' authorisations are set.
const OWNER_AUTH_SET: u32 = 1 << 0;
const ENDORSEMENT_AUTH_SET: u32 = 1 << 1;
const LOCKOUT_AUTH_SET: u32 = 1 << 2;

pub(super) fn take(tpm: &Tpm, secrets: &OwnerSecrets) -> Result<(), KeyStoreError> {
    let mut ctx = tpm.connect()?;
    let has_key = tpm.key(&mut ctx)?.is_some();
    let has_counter = tpm.find(&mut ctx)?.is_some();
    let has_credential = tpm.nv(&mut ctx, tpm.credential_index())?.is_some();
    if has_key && has_counter && has_credential {
        return Ok(());
    }
    // Issue 47, hole 1: nothing is bound to a state that measured nothing.
    tpm.require_measured(&mut ctx)?;
    let permanent = permanent(tpm, &mut ctx)?;
    for (bit, handle, object, secret) in [
        (LOCKOUT_AUTH_SET, AuthHandle::Lockout, ObjectHandle::Lockout, &secrets.lockout),
        (ENDORSEMENT_AUTH_SET, AuthHandle::Endorsement, ObjectHandle::Endorsement, &secrets.endorsement),
        (OWNER_AUTH_SET, AuthHandle::Owner, ObjectHandle::Owner, &secrets.owner),
    ] {
        let auth = Auth::try_from(secret.to_vec()).map_err(|e| tpm.err(e))?;
        if permanent & bit == 0 {
            ctx.execute_with_session(Some(AuthSession::Password), |c| c.hierarchy_change_auth(handle, auth.clone()))
                .map_err(|e| tpm.err(format!("cannot take ownership of the TPM: {e}")))?;
        }
        ctx.tr_set_auth(object, auth).map_err(|e| tpm.err(e))?;
    }
    let owner_refused = |e: tss_esapi::Error, what: &str| {
        match kind(&e) {
        Some(Tss2ResponseCodeKind::BadAuth | Tss2ResponseCodeKind::AuthFail) => tpm.err(format!(
            "the TPM is owned by someone else (its owner authorisation is not this operator's): {what} refused; clear the TPM from the firmware before provisioning"
        )),
        _ => tpm.err(format!("cannot {what}: {e}")),
    }
    };
    let policy = measured_state_policy(tpm, &mut ctx)?;
    if !has_key {
        make_key(tpm, &mut ctx, policy.clone()).map_err(|e| owner_refused(e, "make the machine key"))?;
    }
    if !has_counter {
        // Written only with the authorisation the key derives in the
        // measured state (issue 47, hole 1); read by anyone under its read
        // policy. Outside dictionary-attack protection (NO_DA): its
        // authorisation is 256 random-looking bits no guessing reaches,
        // and a program spending wrong guesses on it must not lock the
        // cabinet's own anchors out (a denial of play).
        let key = tpm.key(&mut ctx)?.ok_or_else(|| tpm.err("the machine key was not made"))?;
        let auth = Auth::try_from(tpm.hmac(&mut ctx, key, super::COUNTER_AUTH_LABEL)?.to_vec()).map_err(|e| tpm.err(e))?;
        let read_policy = read_policy(tpm, &mut ctx)?;
        let attributes = NvIndexAttributesBuilder::new()
            .with_auth_write(true)
            .with_auth_read(true)
            .with_policy_read(true)
            .with_no_da(true)
            .with_nv_index_type(NvIndexType::Ordinary)
            .build()
            .map_err(|e| tpm.err(e))?;
        let public = NvPublicBuilder::new()
            .with_nv_index(NvIndexTpmHandle::new(tpm.nv_index).map_err(|e| tpm.err(e))?)
            .with_index_name_algorithm(HashingAlgorithm::Sha256)
            .with_index_attributes(attributes)
            .with_index_auth_policy(read_policy)
            .with_data_area_size(crate::keystore::AnchorMark::LEN)
            .build()
            .map_err(|e| tpm.err(e))?;
        ctx.execute_with_session(Some(AuthSession::Password), |c| c.nv_define_space(Provision::Owner, Some(auth), public))
            .map_err(|e| owner_refused(e, "define the anchor"))?;
    }
    if !has_credential {
        // Subject to dictionary-attack protection (no NO_DA): every wrong
        // PIN counts against the TPM's own lockout.
        let attributes = NvIndexAttributesBuilder::new()
            .with_owner_write(true)
            .with_auth_read(true)
            .with_nv_index_type(NvIndexType::Ordinary)
            .build()
            .map_err(|e| tpm.err(e))?;
        let public = NvPublicBuilder::new()
            .with_nv_index(NvIndexTpmHandle::new(tpm.credential_index()).map_err(|e| tpm.err(e))?)
            .with_index_name_algorithm(HashingAlgorithm::Sha256)
            .with_index_attributes(attributes)
            .with_data_area_size(1)
            .build()
            .map_err(|e| tpm.err(e))?;
        let auth = Auth::try_from(secrets.credential.to_vec()).map_err(|e| tpm.err(e))?;
        let data = MaxNvBuffer::try_from(vec![1u8]).map_err(|e| tpm.err(e))?;
        ctx.execute_with_session(Some(AuthSession::Password), |c| {
            let handle = c.nv_define_space(Provision::Owner, Some(auth), public)?;
            c.nv_write(NvAuth::Owner, handle, data, 0)
        })
        .map_err(|e| owner_refused(e, "define the operator's credential"))?;
    }
    Ok(())
}

/// TPM_PT_PERMANENT.
fn permanent(tpm: &Tpm, ctx: &mut Context) -> Result<u32, KeyStoreError> {
    tpm.property(ctx, PropertyTag::Permanent)?.ok_or_else(|| tpm.err("the TPM does not report TPM_PT_PERMANENT"))
}

/// The policy digest of PolicyPCR over the measured state's PCRs as they are now (a
/// trial session): what the key and the counter answer to.
fn measured_state_policy(tpm: &Tpm, ctx: &mut Context) -> Result<Digest, KeyStoreError> {
    let trial = pcr_policy_session(ctx, SessionType::Trial).map_err(|e| tpm.err(e))?;
    let digest = ctx.execute_without_session(|c| c.policy_get_digest(trial));
    let _ = ctx.flush_context(ObjectHandle::from(SessionHandle::from(trial)));
    digest.map_err(|e| tpm.err(e))
}

/// The anchor counter's read policy: TPM2_PolicyCommandCode(NV_Read).
fn read_policy(tpm: &Tpm, ctx: &mut Context) -> Result<Digest, KeyStoreError> {
    let trial = read_policy_session(ctx, SessionType::Trial).map_err(|e| tpm.err(e))?;
    let digest = ctx.execute_without_session(|c| c.policy_get_digest(trial));
    let _ = ctx.flush_context(ObjectHandle::from(SessionHandle::from(trial)));
    digest.map_err(|e| tpm.err(e))
}

/// The machine key: a primary HMAC key of the owner hierarchy under the
/// measured-state policy, made persistent.
fn make_key(tpm: &Tpm, ctx: &mut Context, policy: Digest) -> tss_esapi::Result<()> {
    let attributes = ObjectAttributesBuilder::new()
        .with_fixed_tpm(true)
        .with_fixed_parent(true)
        .with_sensitive_data_origin(true)
        .with_user_with_auth(false)
        .with_sign_encrypt(true)
        .build()?;
    let public = PublicBuilder::new()
        .with_public_algorithm(PublicAlgorithm::KeyedHash)
        .with_name_hashing_algorithm(HashingAlgorithm::Sha256)
        .with_object_attributes(attributes)
        .with_auth_policy(policy)
        .with_keyed_hash_parameters(PublicKeyedHashParameters::new(KeyedHashScheme::HMAC_SHA_256))
        .with_keyed_hash_unique_identifier(Digest::default())
        .build()?;
    let persistent = Persistent::Persistent(PersistentTpmHandle::new(tpm.key_handle())?);
    ctx.execute_with_session(Some(AuthSession::Password), |c| {
        let key = c.create_primary(Hierarchy::Owner, public, None, None, None, None)?;
        let made = c.evict_control(Provision::Owner, key.key_handle.into(), persistent);
        c.flush_context(key.key_handle.into())?;
        made.map(|_| ())
    })
}
