//! The key store in a TPM 2.0, through `tss-esapi` (7.7, for Debian 12's
//! libtss2 3.2).
//!
//! Provisioning takes ownership of the TPM ([`ownership`]; issue 34,
//! holes 1, 2, 5 and 6): the owner, endorsement and lockout authorisations
//! are set to secrets derived from the operator's PIN (never stored on the
//! cabinet), and three things are made under the owner's authorisation,
//! which nothing else on the cabinet holds afterwards:
//!
//! * **the key**: a persistent HMAC-SHA256 object (fixedTPM, fixedParent,
//!   sensitiveDataOrigin; userWithAuth clear) whose authorisation policy is
//!   the measured state at provisioning ([`measured`]: the platform's
//!   measured boot and the launcher's measurement of the approved release):
//!   only the certified release, on the certified platform, before the
//!   cabinet caps the launcher's PCR, can use it. Its secret never leaves
//!   the chip; the journal key is its HMAC of a label, held in this process
//!   only.
//! * **the anchor**: an ordinary NV index of 40 bytes (never ORDERLY)
//!   holding the anchor's mark, the count and the chain digest of the
//!   records anchored ([`super::AnchorMark`]; issue 68, attack 1: a
//!   counter could not say which history advanced it). Its writes need an
//!   authorisation derived from the key ([`COUNTER_AUTH_LABEL`]; issue 47,
//!   hole 1), so only the certified program, in this boot's measured
//!   state, writes it, and it writes only the next link of the chain it
//!   reads (`KeyStore::advance`): the count never goes back and no branch
//!   of history is confirmed but the one each write was made for. Read by
//!   anyone. Each advance is one NV write: anchor events only.
//! * **the operator's credential**: an NV index whose authorisation value
//!   is derived from the PIN, subject to the TPM's dictionary-attack
//!   protection: a wrong PIN counts against the chip's own lockout, which
//!   no file restored undoes.
//!
//! Nothing secret crosses the bus in clear (issue 68, attack 3;
//! [`endorsement`]): the sessions that carry the key's answers, the
//! owner's secrets and the operator's credential are salted to the TPM's
//! endorsement key and encrypt their parameters, and a floor cabinet
//! seals them only to an endorsement key a manufacturer's root this
//! program carries certifies.
//!
//! A connection is opened for each operation and closed after it, every
//! session and transient object flushed: the TPM is used a few times per
//! boot and per anchor, and nothing holds it between.

mod authorize;
pub(crate) mod endorsement;
mod manufacturers;
mod measured;
mod ownership;

pub use endorsement::{EK_HANDLE, Endorsed, Trust};
pub use measured::{LAUNCHER_PCR, PLATFORM_PCRS};

use std::str::FromStr;

use tss_esapi::attributes::SessionAttributesBuilder;
use tss_esapi::constants::nv_index_type::NvIndexType;
use tss_esapi::constants::response_code::Tss2ResponseCodeKind;
use tss_esapi::constants::{CapabilityType, CommandCode, PropertyTag, SessionType};
use tss_esapi::handles::{KeyHandle, NvIndexHandle, NvIndexTpmHandle, ObjectHandle, PersistentTpmHandle, SessionHandle, TpmHandle};
use tss_esapi::interface_types::algorithm::HashingAlgorithm;
use tss_esapi::interface_types::resource_handles::NvAuth;
use tss_esapi::interface_types::session_handles::{AuthSession, PolicySession};
use tss_esapi::structures::{Auth, CapabilityData, Digest, MaxBuffer, MaxNvBuffer, SymmetricDefinition};
use tss_esapi::{Context, TctiNameConf};

use super::{AnchorMark, KeyStore, KeyStoreError, OperatorCheck, OwnerSecrets, expect_at};

/// What the machine key MACs to make the anchor counter's authorisation
/// (issue 47, hole 1): only a program that used the key in this boot's
/// measured state holds it.
const COUNTER_AUTH_LABEL: &[u8] = b"egm anchor counter authorisation v1";

/// Where provisioning keeps the machine key: a persistent handle of the
/// owner range (0x81000000..0x817FFFFF; "EG").
pub const KEY_HANDLE: u32 = 0x8100_4547;

/// Where provisioning keeps the operator's credential: an owner NV index.
pub const CREDENTIAL_INDEX: u32 = 0x01BF_4547;

/// The anchor index's size, as the TSS counts it.
const ANCHOR_LEN: u16 = AnchorMark::LEN as u16;

pub(crate) struct Tpm {
    tcti: String,
    nv_index: u32,
    /// Which endorsement keys this TPM's secrets are sealed to
    /// ([`endorsement`]; issue 68, attack 3).
    trust: Trust,
    /// The counter's authorisation, derived with the key in this boot
    /// ([`KeyStore::derive_key`]); `None` until then.
    counter_auth: Option<[u8; 32]>,
    /// The signed release this program runs (issue 68; `authorize`): the
    /// key is made for, and asked under, its signer's approval; `None`: a
    /// key bound to one measurement of the launcher's PCR (an unsigned
    /// evaluation or lab release).
    approval: Option<authorize::Approval>,
}

impl Tpm {
    /// A TPM whose secrets are sealed only to an endorsement key a
    /// manufacturer's root certifies ([`Trust::Manufacturers`]) until
    /// [`Tpm::trusting`] says otherwise.
    pub(crate) fn new(tcti: &str, nv_index: u32) -> Result<Self, KeyStoreError> {
        let t = Self { tcti: tcti.into(), nv_index, trust: Trust::Manufacturers, counter_auth: None, approval: None };
        // Owner NV indices (TPM 2.0 Part 2, 7.3: TPM_HT_NV_INDEX, owner
        // range).
        if !(0x0100_0000..=0x01BF_FFFF).contains(&nv_index) || nv_index == CREDENTIAL_INDEX {
            return Err(t.err(format!(
                "NV index {nv_index:#010x} is outside the owner range 0x01000000..0x01BFFFFF, or the operator credential's ({CREDENTIAL_INDEX:#010x})"
            )));
        }
        TctiNameConf::from_str(tcti).map_err(|e| t.err(format!("cannot read the TCTI {tcti:?}: {e}")))?;
        Ok(t)
    }

    /// The same TPM, its secrets sealed to the endorsement keys `trust`
    /// accepts.
    pub(crate) fn trusting(self, trust: Trust) -> Self {
        Self { trust, ..self }
    }

    /// The same TPM, its key made for and asked under `release`'s signer
    /// (issue 68), the signature checked here first.
    pub(crate) fn releasing(self, release: Option<&super::SignedRelease>) -> Result<Self, KeyStoreError> {
        let approval = release.map(authorize::Approval::of).transpose()?;
        Ok(Self { approval, ..self })
    }

    /// Assert in `policy` what the machine key answers to: the signed
    /// release's approval then the platform, or the whole measured state.
    fn assert_key_policy(&self, ctx: &mut Context, policy: PolicySession) -> tss_esapi::Result<()> {
        match &self.approval {
            Some(approval) => approval.assert(ctx, policy),
            None => ctx.execute_without_session(|c| c.policy_pcr(policy, Digest::default(), measured::selection()?)),
        }
    }

    /// The endorsement key this TPM's secrets are sealed to, checked
    /// against [`Tpm::trust`] before anything secret is sent
    /// ([`endorsement::endorsement_key`]).
    fn endorsement(&self, ctx: &mut Context) -> Result<(KeyHandle, Option<Endorsed>), KeyStoreError> {
        let mut listed = |c: &mut Context, handle: u32| self.listed(c, handle).map_err(|e| e.to_string());
        endorsement::endorsement_key(ctx, &self.trust, &mut listed).map_err(|detail| KeyStoreError::NotEndorsed { tcti: self.tcti.clone(), detail })
    }

    /// [`KeyStore::endorse`].
    pub(crate) fn endorsed(&self) -> Result<Option<Endorsed>, KeyStoreError> {
        let mut ctx = self.connect()?;
        let (ek, endorsed) = self.endorsement(&mut ctx)?;
        // The key answers a salted session: it holds the certificate's
        // private key (a relay that copied a chip's certificate does not).
        let session = endorsement::salted_session(&mut ctx, ek, SessionType::Hmac, false, false)
            .map_err(|e| KeyStoreError::NotEndorsed { tcti: self.tcti.clone(), detail: format!("its endorsement key does not open a salted session: {e}") })?;
        let _ = ctx.flush_context(ObjectHandle::from(SessionHandle::from(session)));
        Ok(endorsed)
    }

    fn err(&self, detail: impl ToString) -> KeyStoreError {
        KeyStoreError::Tpm { tcti: self.tcti.clone(), detail: detail.to_string() }
    }

    /// A connection to the TPM. A TPM busy with another client, or a
    /// software TPM still starting, refuses a connection for a moment: five
    /// tries 20, 40, 60 and 80 ms apart before it is said not to answer.
    fn connect(&self) -> Result<Context, KeyStoreError> {
        let conf = TctiNameConf::from_str(&self.tcti).map_err(|e| self.err(e))?;
        let mut tries = 0u64;
        loop {
            match Context::new(conf.clone()) {
                Ok(ctx) => return Ok(ctx),
                Err(e) if tries >= 4 => return Err(KeyStoreError::Unreachable { tcti: self.tcti.clone(), detail: e.to_string() }),
                Err(_) => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(20 * tries));
                }
            }
        }
    }

    /// The persistent handle of the machine key (fixed: a configuration
    /// that names another counter still meets this key and its binding).
    fn key_handle(&self) -> u32 {
        KEY_HANDLE
    }

    /// The NV index of the operator's credential (fixed, as the key).
    fn credential_index(&self) -> u32 {
        CREDENTIAL_INDEX
    }

    /// Whether `handle` is defined (listed first: the TSS logs no error
    /// for a missing handle then).
    fn listed(&self, ctx: &mut Context, handle: u32) -> Result<bool, KeyStoreError> {
        let (listed, _) = ctx.execute_without_session(|c| c.get_capability(CapabilityType::Handles, handle, 1)).map_err(|e| self.err(e))?;
        Ok(matches!(&listed, CapabilityData::Handles(list) if list.first().map(|h| u32::from(*h)) == Some(handle)))
    }

    fn nv(&self, ctx: &mut Context, index: u32) -> Result<Option<NvIndexHandle>, KeyStoreError> {
        if !self.listed(ctx, index)? {
            return Ok(None);
        }
        let tpm_handle = NvIndexTpmHandle::new(index).map_err(|e| self.err(e))?;
        let handle = ctx.execute_without_session(|c| c.tr_from_tpm_public(TpmHandle::NvIndex(tpm_handle))).map_err(|e| self.err(e))?;
        Ok(Some(NvIndexHandle::from(handle)))
    }

    /// The machine key, or `None` when the TPM holds none (never
    /// provisioned, cleared or replaced).
    fn key(&self, ctx: &mut Context) -> Result<Option<KeyHandle>, KeyStoreError> {
        if !self.listed(ctx, self.key_handle())? {
            return Ok(None);
        }
        let tpm_handle = PersistentTpmHandle::new(self.key_handle()).map_err(|e| self.err(e))?;
        let handle = ctx.execute_without_session(|c| c.tr_from_tpm_public(TpmHandle::Persistent(tpm_handle))).map_err(|e| self.err(e))?;
        Ok(Some(KeyHandle::from(handle)))
    }

    /// The counter's handle and whether it has been written, or `None`
    /// when the index is not defined.
    fn find(&self, ctx: &mut Context) -> Result<Option<(NvIndexHandle, bool)>, KeyStoreError> {
        let Some(handle) = self.nv(ctx, self.nv_index)? else { return Ok(None) };
        let (public, _) = ctx.execute_without_session(|c| c.nv_read_public(handle)).map_err(|e| self.err(e))?;
        let attributes = public.attributes();
        let index_type = attributes.index_type().map_err(|e| self.err(e))?;
        if index_type != NvIndexType::Ordinary
            || public.data_size() != AnchorMark::LEN
            || attributes.orderly()
            || !attributes.auth_write()
            || attributes.policy_write()
            || attributes.owner_write()
            || attributes.pp_write()
            || !attributes.policy_read()
            || !attributes.no_da()
            || attributes.platform_create()
        {
            return Err(self.err(format!(
                "NV index {:#010x} is not an anchor written only with the authorisation derived from the machine key (type {:?}, {} bytes, orderly {}, auth write {}, policy write {}, owner write {}): it cannot anchor critical memory (a TPM provisioned by an earlier release, whose anchor was a counter, is provisioned again)",
                self.nv_index,
                index_type,
                public.data_size(),
                attributes.orderly(),
                attributes.auth_write(),
                attributes.policy_write(),
                attributes.owner_write()
            )));
        }
        Ok(Some((handle, attributes.written())))
    }

    /// Read the anchor's mark: anyone may, under its read policy
    /// (TPM2_PolicyCommandCode(NV_Read)).
    fn read(&self, ctx: &mut Context, handle: NvIndexHandle) -> Result<AnchorMark, KeyStoreError> {
        let session = read_policy_session(ctx, SessionType::Policy).map_err(|e| self.err(e))?;
        let data = ctx.execute_with_session(Some(AuthSession::from(session)), |c| c.nv_read(NvAuth::NvIndex(handle), handle, ANCHOR_LEN, 0));
        let _ = ctx.flush_context(ObjectHandle::from(SessionHandle::from(session)));
        let data = data.map_err(|e| self.err(format!("cannot read the anchor: {e}")))?;
        AnchorMark::from_bytes(data.value()).ok_or_else(|| self.err("the anchor did not read as its 40 bytes"))
    }

    /// Refuse a boot with no measured state (issue 47, hole 1): a bound PCR
    /// at its reset value means a platform that measured nothing, or a
    /// boot in which the launcher did not run.
    fn require_measured(&self, ctx: &mut Context) -> Result<(), KeyStoreError> {
        let pcrs = measured::unmeasured(ctx).map_err(|e| self.err(format!("cannot read the measured state's PCRs: {e}")))?;
        if pcrs.is_empty() { Ok(()) } else { Err(KeyStoreError::Unmeasured { tcti: self.tcti.clone(), pcrs }) }
    }

    /// A fixed or variable TPM property (TPM2_GetCapability), `None` when
    /// the TPM does not report it.
    fn property(&self, ctx: &mut Context, tag: PropertyTag) -> Result<Option<u32>, KeyStoreError> {
        let (data, _) = ctx.execute_without_session(|c| c.get_capability(CapabilityType::TpmProperties, u32::from(tag), 1)).map_err(|e| self.err(e))?;
        Ok(match data {
            CapabilityData::TpmProperties(list) => list.find(tag).map(|p| p.value()),
            _ => None,
        })
    }

    /// The machine key's HMAC of each of `labels`, in the measured state:
    /// under one policy session satisfied by the measured state's current
    /// PCR values (asserted again before each use: a used policy session
    /// starts over), salted to the endorsement key `ek` and encrypting
    /// each answer (issue 68, attack 3: what the key derives never crosses
    /// the bus in clear; one salt for all, one RSA decryption in the TPM).
    /// A program in another measured state gets `PolicyFail`, named here.
    /// The caller has refused an unmeasured state first
    /// ([`Tpm::require_measured`]).
    fn hmacs<const N: usize>(&self, ctx: &mut Context, ek: KeyHandle, key: KeyHandle, labels: [&[u8]; N]) -> Result<[[u8; 32]; N], KeyStoreError> {
        let session = endorsement::salted_session(ctx, ek, SessionType::Policy, true, false).map_err(|e| self.err(e))?;
        let r = PolicySession::try_from(session).and_then(|policy| {
            let mut macs = [[0u8; 32]; N];
            for (mac, label) in macs.iter_mut().zip(labels) {
                let input = MaxBuffer::try_from(label.to_vec())?;
                self.assert_key_policy(ctx, policy)?;
                let answer = ctx.execute_with_session(Some(session), |c| c.hmac(key.into(), input, HashingAlgorithm::Sha256))?;
                *mac = answer.value().try_into().map_err(|_| tss_esapi::Error::WrapperError(tss_esapi::WrapperErrorKind::WrongValueFromTpm))?;
            }
            Ok(macs)
        });
        let _ = ctx.flush_context(ObjectHandle::from(SessionHandle::from(session)));
        r.map_err(|e| match kind(&e) {
            Some(Tss2ResponseCodeKind::PolicyFail) => KeyStoreError::Refused { tcti: self.tcti.clone(), detail: format!(
                "the TPM refuses to use the machine key in this measured state: PCRs {:?} are not what they were at provisioning (another platform, boot loader or release than the certified one, a boot the launcher did not measure, or a key already taken and capped in this boot), {}, or the object is not the one provisioning made",
                measured::bound_pcrs(),
                if self.approval.is_some() {
                    "or the key was provisioned for another release-signing key or for an unsigned release"
                } else {
                    "or the key was provisioned for signed releases and this release is unsigned"
                }
            ) },
            Some(Tss2ResponseCodeKind::Signature) => {
                KeyStoreError::Refused { tcti: self.tcti.clone(), detail: "the TPM refuses the release's signature: its signer did not sign this release".into() }
            }
            _ => self.err(format!("cannot use the machine key: {e}")),
        })
    }

    /// [`KeyStore::advance`]'s commands, under one HMAC session kept open
    /// between them (three commands where policy reads need seven).
    fn advance_in(
        &self,
        ctx: &mut Context,
        session: AuthSession,
        handle: NvIndexHandle,
        written: bool,
        from: Option<AnchorMark>,
        to: AnchorMark,
    ) -> Result<AnchorMark, KeyStoreError> {
        let refused = |e: tss_esapi::Error| match kind(&e) {
            Some(Tss2ResponseCodeKind::AuthFail | Tss2ResponseCodeKind::BadAuth) => {
                self.err("the TPM refuses the anchor's authorisation: the anchor is not the one this machine key's provisioning made")
            }
            Some(Tss2ResponseCodeKind::Lockout) => KeyStoreError::LockedOut { tcti: self.tcti.clone() },
            _ => self.err(format!("cannot write the anchor: {e}")),
        };
        let mark = |data: MaxNvBuffer| AnchorMark::from_bytes(data.value()).ok_or_else(|| self.err("the anchor did not read as its 40 bytes"));
        // Only the next link of the chain the index holds now (issue 68,
        // attack 1): a write made for another branch of history is never
        // made. One process writes (the store's lock), so nothing moves the
        // index between this read and the write.
        let now = if written {
            Some(mark(ctx.execute_with_session(Some(session), |c| c.nv_read(NvAuth::NvIndex(handle), handle, ANCHOR_LEN, 0)).map_err(refused)?)?)
        } else {
            None
        };
        expect_at(now, from)?;
        let data = MaxNvBuffer::try_from(to.to_bytes().to_vec()).map_err(|e| self.err(e))?;
        let back = ctx
            .execute_with_session(Some(session), |c| {
                c.nv_write(NvAuth::NvIndex(handle), handle, data, 0)?;
                c.nv_read(NvAuth::NvIndex(handle), handle, ANCHOR_LEN, 0)
            })
            .map_err(refused)?;
        mark(back)
    }

    /// The launcher's step (issue 47, hole 1): the approved release's
    /// digest into the launcher's PCR, before a certified program starts;
    /// once per boot (`false`: already measured, or capped, in this boot).
    pub(crate) fn measure_release(&self, release: &[u8; 32]) -> Result<bool, KeyStoreError> {
        let mut ctx = self.connect()?;
        measured::extend_release(&mut ctx, release).map_err(|e| self.err(format!("cannot extend PCR {LAUNCHER_PCR} with the release's digest: {e}")))
    }

    /// [`super::check_release`].
    pub(crate) fn check_release(&self, release: &[u8; 32]) -> Result<(), KeyStoreError> {
        let mut ctx = self.connect()?;
        let now = measured::launcher_value(&mut ctx).map_err(|e| self.err(e))?;
        if now.iter().all(|b| *b == 0) || measured::is_release(&now, release) {
            return Ok(());
        }
        Err(KeyStoreError::OtherRelease { tcti: self.tcti.clone(), pcr: LAUNCHER_PCR, measured: hex::encode(now), read: hex::encode(release) })
    }

    /// The launcher's last step (issue 68, attack 2): its program ended,
    /// whether or not it took the key; cap the launcher's PCR so that
    /// nothing else in this boot can.
    pub(crate) fn cap_measurement(&self) -> Result<(), KeyStoreError> {
        let mut ctx = self.connect()?;
        measured::cap(&mut ctx).map_err(|e| self.err(format!("cannot cap PCR {LAUNCHER_PCR}: {e}")))
    }
}

/// A policy (or trial) session holding TPM2_PolicyCommandCode(NV_Read):
/// the anchor counter's read policy.
fn read_policy_session(ctx: &mut Context, kind: SessionType) -> tss_esapi::Result<PolicySession> {
    policy_session(ctx, kind, |c, policy| c.policy_command_code(policy, CommandCode::NvRead))
}

fn policy_session(
    ctx: &mut Context,
    kind: SessionType,
    assert: impl FnOnce(&mut Context, PolicySession) -> tss_esapi::Result<()>,
) -> tss_esapi::Result<PolicySession> {
    let session = ctx
        .start_auth_session(None, None, None, kind, SymmetricDefinition::Null, HashingAlgorithm::Sha256)?
        .ok_or(tss_esapi::Error::WrapperError(tss_esapi::WrapperErrorKind::WrongValueFromTpm))?;
    let policy = PolicySession::try_from(session)?;
    if let Err(e) = ctx.execute_without_session(|c| assert(c, policy)) {
        let _ = ctx.flush_context(ObjectHandle::from(SessionHandle::from(policy)));
        return Err(e);
    }
    Ok(policy)
}

/// An HMAC session (unbound, unsalted): the authorisation value it proves
/// is never sent in the clear on the TPM's bus.
fn hmac_session(ctx: &mut Context) -> tss_esapi::Result<AuthSession> {
    let session = ctx
        .start_auth_session(None, None, None, SessionType::Hmac, SymmetricDefinition::Null, HashingAlgorithm::Sha256)?
        .ok_or(tss_esapi::Error::WrapperError(tss_esapi::WrapperErrorKind::WrongValueFromTpm))?;
    let (attributes, mask) = SessionAttributesBuilder::new().with_continue_session(true).build();
    if let Err(e) = ctx.tr_sess_set_attributes(session, attributes, mask) {
        let _ = ctx.flush_context(ObjectHandle::from(SessionHandle::from(session)));
        return Err(e);
    }
    Ok(session)
}

fn kind(e: &tss_esapi::Error) -> Option<Tss2ResponseCodeKind> {
    match e {
        tss_esapi::Error::Tss2Error(rc) => rc.kind(),
        tss_esapi::Error::WrapperError(_) => None,
    }
}

impl KeyStore for Tpm {
    fn derive_key(&mut self, label: &[u8]) -> Result<[u8; 32], KeyStoreError> {
        let mut ctx = self.connect()?;
        let Some(key) = self.key(&mut ctx)? else {
            return Err(KeyStoreError::NoKey {
                detail: format!(
                    "the TPM ({}) holds no machine key at {:#010x}: it was cleared or replaced, or never provisioned",
                    self.tcti,
                    self.key_handle()
                ),
            });
        };
        // What this process took before it capped this boot's measured
        // state (issue 47, hole 1): its own, nobody else's.
        let key_name = ctx.tr_get_name(key.into()).map_err(|e| self.err(e))?.value().to_vec();
        let launcher = measured::launcher_value(&mut ctx).map_err(|e| self.err(e))?;
        if let (Some(derived), Some(counter)) =
            (measured::recall(&self.tcti, &key_name, &launcher, label), measured::recall(&self.tcti, &key_name, &launcher, COUNTER_AUTH_LABEL))
        {
            self.counter_auth = Some(counter);
            return Ok(derived);
        }
        self.require_measured(&mut ctx)?;
        // Sealed to the platform's own TPM (issue 68, attack 3): both
        // answers come back encrypted under a session only the certified
        // endorsement key opens.
        let (ek, _) = self.endorsement(&mut ctx)?;
        // The journal key and the counter's authorisation, in the same
        // measured state.
        let [derived, counter] = self.hmacs(&mut ctx, ek, key, [label, COUNTER_AUTH_LABEL])?;
        // Then the state is capped at once: no later program in this boot,
        // the certified system's own included, can use the key. Nothing
        // derived is handed out unless the cap took.
        measured::cap(&mut ctx).map_err(|e| self.err(format!("cannot cap PCR {LAUNCHER_PCR} after taking the machine key: {e}")))?;
        let capped = measured::launcher_value(&mut ctx).map_err(|e| self.err(e))?;
        measured::keep(&self.tcti, &key_name, &capped, &[(label, derived), (COUNTER_AUTH_LABEL, counter)]);
        self.counter_auth = Some(counter);
        Ok(derived)
    }

    fn make_secret_if_missing(&mut self) -> Result<(), KeyStoreError> {
        Ok(())
    }

    fn counter(&mut self) -> Result<Option<AnchorMark>, KeyStoreError> {
        let mut ctx = self.connect()?;
        match self.find(&mut ctx)? {
            Some((handle, true)) => self.read(&mut ctx, handle).map(Some),
            Some((_, false)) | None => Ok(None),
        }
    }

    fn counter_name(&mut self) -> Result<Option<Vec<u8>>, KeyStoreError> {
        let mut ctx = self.connect()?;
        let Some((handle, _)) = self.find(&mut ctx)? else { return Ok(None) };
        let (_, name) = ctx.execute_without_session(|c| c.nv_read_public(handle)).map_err(|e| self.err(e))?;
        Ok(Some(name.value().to_vec()))
    }

    fn advance(&mut self, from: Option<AnchorMark>, to: AnchorMark) -> Result<AnchorMark, KeyStoreError> {
        let mut ctx = self.connect()?;
        let Some((handle, written)) = self.find(&mut ctx)? else {
            return Err(
                self.err(format!("the anchor at {:#010x} is not defined: the TPM was not provisioned for this cabinet (`egm-lab provision`)", self.nv_index))
            );
        };
        let Some(auth) = self.counter_auth else {
            return Err(self.err("the anchor's authorisation is derived with the machine key, which this program has not taken in this boot"));
        };
        let auth = Auth::try_from(auth.to_vec()).map_err(|e| self.err(e))?;
        ctx.tr_set_auth(handle.into(), auth).map_err(|e| self.err(e))?;
        let session = hmac_session(&mut ctx).map_err(|e| self.err(e))?;
        let r = self.advance_in(&mut ctx, session, handle, written, from, to);
        let _ = ctx.flush_context(ObjectHandle::from(SessionHandle::from(session)));
        r
    }

    fn take_ownership(&mut self, secrets: &OwnerSecrets) -> Result<(), KeyStoreError> {
        ownership::take(self, secrets)
    }

    fn check_operator(&mut self, credential: &[u8; 32]) -> Result<OperatorCheck, KeyStoreError> {
        let mut ctx = self.connect()?;
        let Some(handle) = self.nv(&mut ctx, self.credential_index())? else { return Ok(OperatorCheck::NotKept) };
        let auth = Auth::try_from(credential.to_vec()).map_err(|e| self.err(e))?;
        ctx.tr_set_auth(handle.into(), auth).map_err(|e| self.err(e))?;
        // Proved under an HMAC session salted to the endorsement key
        // (issue 68, attack 3): the credential never crosses the bus, and
        // no recording of it gives a guess to check offline.
        let (ek, _) = self.endorsement(&mut ctx)?;
        let session = endorsement::salted_session(&mut ctx, ek, SessionType::Hmac, false, false).map_err(|e| self.err(e))?;
        let read = ctx.execute_with_session(Some(session), |c| c.nv_read(NvAuth::NvIndex(handle), handle, 1, 0));
        let _ = ctx.flush_context(ObjectHandle::from(SessionHandle::from(session)));
        match read {
            Ok(_) => Ok(OperatorCheck::Accepted),
            Err(e) => match kind(&e) {
                Some(Tss2ResponseCodeKind::AuthFail | Tss2ResponseCodeKind::BadAuth) => Ok(OperatorCheck::Refused),
                Some(Tss2ResponseCodeKind::Lockout) => Err(KeyStoreError::LockedOut { tcti: self.tcti.clone() }),
                _ => Err(self.err(format!("cannot check the operator's credential: {e}"))),
            },
        }
    }

    fn keeps_operator(&self) -> bool {
        true
    }

    fn endorse(&mut self) -> Result<Option<Endorsed>, KeyStoreError> {
        self.endorsed()
    }
}
