//! The measured state the machine key answers to (issue 47, hole 1).
//!
//! Round two bound the key and the counter to PCR 15 alone, and nothing in
//! the product ever extended it: it read zero in every boot, the
//! attacker's own included, and a policy session over it gave anyone the
//! journal key. Now:
//!
//! * the key's policy is PolicyPCR over the platform's measured boot
//!   ([`PLATFORM_PCRS`]: the firmware's code (0), the option ROMs and
//!   drivers it loaded (2), the boot loader or unified kernel image (4),
//!   the secure-boot state and keys (7)) **and** [`LAUNCHER_PCR`], which the
//!   cabinet's launcher (`egm-launch`, part of the certified image) extends
//!   with the approved release's digest before it starts a certified
//!   program ([`extend_release`]). An attacker's own system measures another
//!   boot loader or secure-boot state; a program other than the approved
//!   release never gets the launcher's measurement;
//! * provisioning and every boot refuse a TPM whose selected PCRs are at
//!   their reset value ([`unmeasured`]): a platform with no measured boot,
//!   or a boot in which the launcher did not run, is named, never bound;
//! * a program caps [`LAUNCHER_PCR`] as soon as it has taken the key
//!   ([`cap`], in `Tpm::derive_key`): no later program in the same boot, the
//!   certified system's own included, can use the key again until the next
//!   power-up. The program keeps what it derived for its own life ([`keep`]:
//!   the cabinet opens critical memory again after a RAM clear from the
//!   audit menu); a certified program started after another in the same
//!   boot (the cabinet after provisioning) needs a power-up of its own;
//! * the anchor counter's increments need an authorisation derived from
//!   the key (`tpm::COUNTER_AUTH_LABEL`), sent under an HMAC session: only
//!   the program that took the key in this boot holds it. Anyone may read
//!   the counter (its read policy is TPM2_PolicyCommandCode(NV_Read)).

use sha2::{Digest as _, Sha256};

use crate::keystore::release::extended;
use tss_esapi::Context;
use tss_esapi::handles::PcrHandle;
use tss_esapi::interface_types::algorithm::HashingAlgorithm;
use tss_esapi::interface_types::session_handles::AuthSession;
use tss_esapi::structures::{Digest, DigestValues, PcrSelectionList, PcrSelectionListBuilder, PcrSlot};

/// The PCRs a measured boot of the platform extends before any program of
/// the cabinet runs (SHA-256 bank; TCG PC Client platform firmware
/// profile): firmware code, option ROMs, boot loader or UKI, secure boot.
pub const PLATFORM_PCRS: [u8; 4] = [0, 2, 4, 7];

/// The PCR the cabinet's launcher extends with the approved release's
/// digest, and the cabinet caps once it holds its key (SHA-256 bank; not
/// resettable: only a power cycle brings it back to zero).
pub const LAUNCHER_PCR: u8 = 15;

/// What the cabinet extends [`LAUNCHER_PCR`] with once it holds its key.
const CAP_LABEL: &[u8] = b"egm cabinet: the machine key is taken for this boot";

/// Every PCR the key's policy covers, in order.
pub(super) fn bound_pcrs() -> [u8; 5] {
    [PLATFORM_PCRS[0], PLATFORM_PCRS[1], PLATFORM_PCRS[2], PLATFORM_PCRS[3], LAUNCHER_PCR]
}

fn slot(pcr: u8) -> PcrSlot {
    match pcr {
        0 => PcrSlot::Slot0,
        2 => PcrSlot::Slot2,
        4 => PcrSlot::Slot4,
        7 => PcrSlot::Slot7,
        _ => PcrSlot::Slot15,
    }
}

/// The SHA-256 selection of [`bound_pcrs`].
pub(super) fn selection() -> tss_esapi::Result<PcrSelectionList> {
    selection_of(&bound_pcrs())
}

/// The SHA-256 selection of the platform's PCRs alone: what a signed
/// release's key answers to after PolicyAuthorize (`super::authorize`).
pub(super) fn platform_selection() -> tss_esapi::Result<PcrSelectionList> {
    selection_of(&PLATFORM_PCRS)
}

/// The SHA-256 selection of the launcher's PCR alone: the policy a
/// release's signature approves.
pub(super) fn launcher_selection() -> tss_esapi::Result<PcrSelectionList> {
    selection_of(&[LAUNCHER_PCR])
}

fn selection_of(pcrs: &[u8]) -> tss_esapi::Result<PcrSelectionList> {
    let slots: Vec<PcrSlot> = pcrs.iter().copied().map(slot).collect();
    PcrSelectionListBuilder::new().with_selection(HashingAlgorithm::Sha256, &slots).build()
}

/// The bound PCRs still at their reset value (all zeros): a platform that
/// measured nothing, or a boot the launcher did not measure.
pub(super) fn unmeasured(ctx: &mut Context) -> tss_esapi::Result<Vec<u8>> {
    let (_, _, digests) = ctx.execute_without_session(|c| c.pcr_read(selection()?))?;
    let values = digests.value();
    if values.len() != bound_pcrs().len() {
        return Err(tss_esapi::Error::WrapperError(tss_esapi::WrapperErrorKind::WrongValueFromTpm));
    }
    Ok(bound_pcrs().into_iter().zip(values).filter(|(_, v)| v.value().iter().all(|b| *b == 0)).map(|(p, _)| p).collect())
}

/// Extend [`LAUNCHER_PCR`] with `digest` (PCR 0..15 take the empty
/// authorisation at locality 0: anyone may extend, nobody may undo).
fn extend(ctx: &mut Context, digest: [u8; 32]) -> tss_esapi::Result<()> {
    let mut values = DigestValues::new();
    values.set(HashingAlgorithm::Sha256, Digest::try_from(digest.to_vec())?);
    ctx.execute_with_session(Some(AuthSession::Password), |c| c.pcr_extend(PcrHandle::Pcr15, values))
}

/// The launcher's step: the approved release's digest into
/// [`LAUNCHER_PCR`], once per boot (while it is at its reset value). Whether
/// it extended it now.
pub(super) fn extend_release(ctx: &mut Context, release: &[u8; 32]) -> tss_esapi::Result<bool> {
    if launcher_value(ctx)?.iter().any(|b| *b != 0) {
        return Ok(false);
    }
    extend(ctx, *release)?;
    Ok(true)
}

/// Cap [`LAUNCHER_PCR`]: the key's policy no longer holds in this boot.
pub(super) fn cap(ctx: &mut Context) -> tss_esapi::Result<()> {
    extend(ctx, Sha256::digest(CAP_LABEL).into())
}

/// Whether [`LAUNCHER_PCR`]'s value `now` is `release` as the launcher
/// measured it in this boot, or that measurement capped.
pub(super) fn is_release(now: &[u8], release: &[u8; 32]) -> bool {
    let measured = extended(&[0; 32], release);
    let capped = extended(&measured, &Sha256::digest(CAP_LABEL));
    now == measured || now == capped
}

/// [`LAUNCHER_PCR`]'s current value.
pub(super) fn launcher_value(ctx: &mut Context) -> tss_esapi::Result<Vec<u8>> {
    let selection = PcrSelectionListBuilder::new().with_selection(HashingAlgorithm::Sha256, &[slot(LAUNCHER_PCR)]).build()?;
    let (_, _, digests) = ctx.execute_without_session(|c| c.pcr_read(selection))?;
    digests.value().first().map(|d| d.value().to_vec()).ok_or(tss_esapi::Error::WrapperError(tss_esapi::WrapperErrorKind::WrongValueFromTpm))
}

/// What this process derived with the machine key in this boot, kept so
/// that the cabinet, once it has capped the measured state, can open its
/// critical memory again (a RAM clear from the audit menu, a reboot of the
/// machine after one) without the key: the key was in this process's
/// memory all along, and nothing else can have it. Valid while the
/// launcher's PCR holds the value it had when this process took or capped
/// it; a TPM power cycle, or anything extended since, ends it.
struct Held {
    key_name: Vec<u8>,
    launcher_value: Vec<u8>,
    derived: std::collections::BTreeMap<Vec<u8>, [u8; 32]>,
}

/// Per TPM (its TCTI), in this process only.
static HELD: std::sync::Mutex<std::collections::BTreeMap<String, Held>> = std::sync::Mutex::new(std::collections::BTreeMap::new());

fn held() -> std::sync::MutexGuard<'static, std::collections::BTreeMap<String, Held>> {
    HELD.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What this process derived of `label` with the key named `key_name`,
/// while the launcher's PCR still reads `launcher_value`.
pub(super) fn recall(tcti: &str, key_name: &[u8], launcher_value: &[u8], label: &[u8]) -> Option<[u8; 32]> {
    let held = held();
    let h = held.get(tcti)?;
    (h.key_name == key_name && h.launcher_value == launcher_value).then(|| h.derived.get(label).copied()).flatten()
}

/// Keep what was derived before the cap that left the launcher's PCR at
/// `launcher_value`.
pub(super) fn keep(tcti: &str, key_name: &[u8], launcher_value: &[u8], derived: &[(&[u8], [u8; 32])]) {
    let held_now =
        Held { key_name: key_name.to_vec(), launcher_value: launcher_value.to_vec(), derived: derived.iter().map(|(l, v)| (l.to_vec(), *v)).collect() };
    held().insert(tcti.to_owned(), held_now);
}
