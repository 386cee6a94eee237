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
use tss_esapi::attributes::{NvIndexAttributesBuilder, ObjectAttributesBuilder, SessionAttributesBuilder};
use tss_esapi::constants::nv_index_type::NvIndexType;
use tss_esapi::constants::response_code::Tss2ResponseCodeKind;
use tss_esapi::constants::{PropertyTag, SessionType};
use tss_esapi::handles::{AuthHandle, KeyHandle, NvIndexTpmHandle, ObjectHandle, PersistentTpmHandle, SessionHandle};
use tss_esapi::interface_types::algorithm::{AsymmetricAlgorithm, HashingAlgorithm, PublicAlgorithm};
use tss_esapi::interface_types::dynamic_handles::Persistent;
use tss_esapi::interface_types::resource_handles::{Hierarchy, NvAuth, Provision};
use tss_esapi::interface_types::session_handles::AuthSession;
use tss_esapi::structures::{Auth, Digest, KeyedHashScheme, MaxNvBuffer, NvPublicBuilder, PublicBuilder, PublicKeyedHashParameters};

use super::endorsement::{self, EK_HANDLE};
use super::{Tpm, hmac_session, kind, policy_session, read_policy_session};
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
    let has_ek = tpm.listed(&mut ctx, EK_HANDLE)?;
    if has_key && has_counter && has_credential && has_ek {
        return Ok(());
    }
    // Issue 47, hole 1: nothing is bound to a state that measured nothing.
    tpm.require_measured(&mut ctx)?;
    let permanent = permanent(tpm, &mut ctx)?;
    for (bit, _, object, secret) in hierarchies(secrets) {
        if permanent & bit != 0 {
            ctx.tr_set_auth(object, Auth::try_from(secret.to_vec()).map_err(|e| tpm.err(e))?).map_err(|e| tpm.err(e))?;
        }
    }
    let owner_refused = |e: tss_esapi::Error, what: &str| {
        match kind(&e) {
        Some(Tss2ResponseCodeKind::BadAuth | Tss2ResponseCodeKind::AuthFail) => tpm.err(format!(
            "the TPM is owned by someone else (its owner authorisation is not this operator's): {what} refused; clear the TPM from the firmware before provisioning"
        )),
        _ => tpm.err(format!("cannot {what}: {e}")),
    }
    };
    // The endorsement key every secret below is sealed to (issue 68,
    // attack 3): the platform's where it made one persistent, else made
    // here from the TCG's default template — the same key the chip's
    // certificate certifies, since an EK is derived from the endorsement
    // seed and its template. Nothing secret is sent to make it.
    if !has_ek {
        let session = hmac_session(&mut ctx).map_err(|e| tpm.err(e))?;
        let made = make_endorsement_key(&mut ctx, session);
        let _ = ctx.flush_context(ObjectHandle::from(SessionHandle::from(session)));
        made.map_err(|e| owner_refused(e, "make the endorsement key"))?;
    }
    let (ek, _) = tpm.endorsement(&mut ctx)?;
    let session = endorsement::salted_session(&mut ctx, ek, SessionType::Hmac, false, true).map_err(|e| tpm.err(e))?;
    let r = take_sealed(tpm, &mut ctx, secrets, session, ek, permanent, (has_key, has_counter, has_credential), &owner_refused);
    let _ = ctx.flush_context(ObjectHandle::from(SessionHandle::from(session)));
    r
}

/// The hierarchies provisioning owns: their TPMA_PERMANENT bit, handles
/// and the secret derived from the operator's PIN.
fn hierarchies(secrets: &OwnerSecrets) -> [(u32, AuthHandle, ObjectHandle, &[u8; 32]); 3] {
    [
        (LOCKOUT_AUTH_SET, AuthHandle::Lockout, ObjectHandle::Lockout, &secrets.lockout),
        (ENDORSEMENT_AUTH_SET, AuthHandle::Endorsement, ObjectHandle::Endorsement, &secrets.endorsement),
        (OWNER_AUTH_SET, AuthHandle::Owner, ObjectHandle::Owner, &secrets.owner),
    ]
}

/// Whether `session` encrypts its commands' first parameter.
fn set_decrypt(ctx: &mut Context, session: AuthSession, on: bool) -> tss_esapi::Result<()> {
    let (attributes, _) = SessionAttributesBuilder::new().with_decrypt(on).build();
    let (_, mask) = SessionAttributesBuilder::new().with_decrypt(true).build();
    ctx.tr_sess_set_attributes(session, attributes, mask)
}

/// [`take`]'s steps that carry secrets, under `session` (salted to the
/// endorsement key `ek`; the first parameter of each command encrypted
/// where the command has one to encrypt).
#[allow(clippy::too_many_arguments)]
fn take_sealed(
    tpm: &Tpm,
    ctx: &mut Context,
    secrets: &OwnerSecrets,
    session: AuthSession,
    ek: KeyHandle,
    permanent: u32,
    (has_key, has_counter, has_credential): (bool, bool, bool),
    owner_refused: &dyn Fn(tss_esapi::Error, &str) -> KeyStoreError,
) -> Result<(), KeyStoreError> {
    for (bit, handle, object, secret) in hierarchies(secrets) {
        if permanent & bit == 0 {
            let auth = Auth::try_from(secret.to_vec()).map_err(|e| tpm.err(e))?;
            // The new authorisation is the command's first parameter:
            // encrypted on the bus.
            ctx.execute_with_session(Some(session), |c| c.hierarchy_change_auth(handle, auth.clone()))
                .map_err(|e| tpm.err(format!("cannot take ownership of the TPM: {e}")))?;
            ctx.tr_set_auth(object, auth).map_err(|e| tpm.err(e))?;
        }
    }
    let policy = measured_state_policy(tpm, ctx)?;
    if !has_key {
        make_key(tpm, ctx, session, policy.clone()).map_err(|e| owner_refused(e, "make the machine key"))?;
    }
    if !has_counter {
        // Written only with the authorisation the key derives in the
        // measured state (issue 47, hole 1); read by anyone under its read
        // policy. Outside dictionary-attack protection (NO_DA): its
        // authorisation is 256 random-looking bits no guessing reaches,
        // and a program spending wrong guesses on it must not lock the
        // cabinet's own anchors out (a denial of play).
        let key = tpm.key(ctx)?.ok_or_else(|| tpm.err("the machine key was not made"))?;
        let auth = Auth::try_from(tpm.hmacs(ctx, ek, key, [super::COUNTER_AUTH_LABEL])?[0].to_vec()).map_err(|e| tpm.err(e))?;
        let read_policy = read_policy(tpm, ctx)?;
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
        // The authorisation is the command's first parameter: encrypted.
        ctx.execute_with_session(Some(session), |c| c.nv_define_space(Provision::Owner, Some(auth), public))
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
        ctx.execute_with_session(Some(session), |c| {
            let handle = c.nv_define_space(Provision::Owner, Some(auth), public)?;
            c.nv_write(NvAuth::Owner, handle, data, 0)
        })
        .map_err(|e| owner_refused(e, "define the operator's credential"))?;
    }
    Ok(())
}

/// The RSA 2048 endorsement key from the TCG's default template (EK
/// Credential Profile, template L-1), made persistent at [`EK_HANDLE`]
/// under the endorsement and owner authorisations `session` proves.
fn make_endorsement_key(ctx: &mut Context, session: AuthSession) -> tss_esapi::Result<()> {
    let public = tss_esapi::abstraction::ek::create_ek_public_from_default_template(AsymmetricAlgorithm::Rsa, None)?;
    let persistent = Persistent::Persistent(PersistentTpmHandle::new(EK_HANDLE)?);
    ctx.execute_with_session(Some(session), |c| {
        let key = c.create_primary(Hierarchy::Endorsement, public, None, None, None, None)?;
        let made = c.evict_control(Provision::Owner, key.key_handle.into(), persistent);
        c.flush_context(key.key_handle.into())?;
        made.map(|_| ())
    })
}

/// TPM_PT_PERMANENT.
fn permanent(tpm: &Tpm, ctx: &mut Context) -> Result<u32, KeyStoreError> {
    tpm.property(ctx, PropertyTag::Permanent)?.ok_or_else(|| tpm.err("the TPM does not report TPM_PT_PERMANENT"))
}

/// The policy digest of what the key will answer to, in the measured state
/// as it is now (a trial session): PolicyPCR over the measured state's
/// PCRs, or, for a signed release, its signer's approval then the
/// platform's PCRs (issue 68).
fn measured_state_policy(tpm: &Tpm, ctx: &mut Context) -> Result<Digest, KeyStoreError> {
    let trial = policy_session(ctx, SessionType::Trial, |c, policy| tpm.assert_key_policy(c, policy)).map_err(|e| tpm.err(e))?;
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
fn make_key(tpm: &Tpm, ctx: &mut Context, session: AuthSession, policy: Digest) -> tss_esapi::Result<()> {
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
    ctx.execute_with_session(Some(session), |c| {
        let key = c.create_primary(Hierarchy::Owner, public, None, None, None, None)?;
        // EvictControl's first parameter is a handle: nothing to encrypt,
        // and a session asking to would be refused.
        set_decrypt(c, session, false)?;
        let made = c.evict_control(Provision::Owner, key.key_handle.into(), persistent);
        set_decrypt(c, session, true)?;
        c.flush_context(key.key_handle.into())?;
        made.map(|_| ())
    })
}
