//! The TPM's endorsement key (issue 68, attack 3): what recognises the
//! platform's own TPM, and what keeps the key's secrets off its bus.
//!
//! Round three recognised a software TPM by what the TPM said of itself
//! (its manufacturer ID), which a relay in front of it rewrites; and the
//! journal key and the anchor's authorisation crossed the bus in clear
//! HMAC answers, which a relay read. Now:
//!
//! * a TPM is the chip it claims only when its **endorsement key's
//!   certificate** (TCG EK Credential Profile: the RSA 2048 EK's at NV
//!   index 0x01C00002, any intermediates at 0x01C00100..0x01C001FF) chains
//!   to a manufacturer's root **this program carries**
//!   ([`super::manufacturers`], from Debian's tpm2-tss:
//!   `tools/tpm-manufacturers.sh`), and the EK the TPM holds at the TCG's
//!   handle is the certificate's key ([`Trust::Manufacturers`], a floor
//!   cabinet). A software TPM's certificate is its own CA's (swtpm's local
//!   CA), a relay's is a copy of a chip's whose key it does not hold;
//! * every session that carries a secret is **salted to that EK and
//!   encrypts its parameters** (AES-128-CFB; [`salted_session`]): the
//!   journal key and the anchor's authorisation come back encrypted, the
//!   owner's secrets and the operator's credential go in encrypted or
//!   never go at all (HMAC sessions). Only the holder of the EK's private
//!   key — the TPM the certificate names — derives the session key: a
//!   relay that listens reads nothing, and one that puts its own key in
//!   the EK's place is refused by the certificate before anything is sent.
//!
//! An evaluation cabinet (a software TPM by definition) salts its sessions
//! to whatever EK its TPM holds ([`Trust::Evaluation`]): a listening relay
//! still reads nothing, but nothing certifies that TPM.

use std::ops::RangeInclusive;

use picky_asn1_x509::{Certificate, PublicKey, SubjectPublicKeyInfo};
use rustls_pki_types::{CertificateDer, TrustAnchor, UnixTime};
use sha2::{Digest as _, Sha256};
use tss_esapi::Context;
use tss_esapi::attributes::SessionAttributesBuilder;
use tss_esapi::constants::SessionType;
use tss_esapi::handles::{KeyHandle, NvIndexTpmHandle, ObjectHandle, PersistentTpmHandle, SessionHandle, TpmHandle};
use tss_esapi::interface_types::algorithm::HashingAlgorithm;
use tss_esapi::interface_types::resource_handles::NvAuth;
use tss_esapi::interface_types::session_handles::AuthSession;
use tss_esapi::structures::{Public, SymmetricDefinition};
use tss_esapi::traits::Marshall;

use super::manufacturers::MANUFACTURER_ROOTS;

/// The TCG's persistent handle of the RSA 2048 endorsement key (TCG TPM
/// v2.0 Provisioning Guidance, 7.8): a platform's, or provisioning's where
/// the platform made none.
pub const EK_HANDLE: u32 = 0x8101_0001;

/// The RSA 2048 EK's certificate (TCG EK Credential Profile 2.0, 2.2.1.4).
const EK_CERTIFICATE: u32 = 0x01C0_0002;

/// The EK certificate chain's indices (the same profile, 2.2.1.5): the
/// intermediates a manufacturer stores on the chip, first to last.
const EK_CHAIN: RangeInclusive<u32> = 0x01C0_0100..=0x01C0_01FF;

/// tcg-kp-EKCertificate (2.23.133.8.1), DER content: an EK certificate's
/// extended key usage where it states one.
const TCG_KP_EK_CERTIFICATE: &[u8] = &[0x67, 0x81, 0x05, 0x08, 0x01];

/// Which endorsement keys a TPM's secrets are sealed to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trust {
    /// A floor cabinet: an EK certified by a manufacturer's root this
    /// program carries.
    Manufacturers,
    /// The roots a lab names (DER), checked as a floor cabinet's are: a
    /// lab's check of a TPM against its own CA.
    Roots(Vec<Vec<u8>>),
    /// An evaluation cabinet, or the lab: whatever EK the TPM holds,
    /// uncertified (its sessions are still salted to it).
    Evaluation,
}

/// What a verified endorsement says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endorsed {
    /// The EK certificate's issuer, as its subject names it.
    pub issuer: String,
    /// The root the chain ends at (its subject).
    pub root: String,
}

/// The roots of `trust`, DER (none for an evaluation cabinet).
fn roots(trust: &Trust) -> Vec<Vec<u8>> {
    match trust {
        Trust::Manufacturers => MANUFACTURER_ROOTS.iter().map(|(_, der)| der.to_vec()).collect(),
        Trust::Roots(roots) => roots.clone(),
        Trust::Evaluation => Vec::new(),
    }
}

/// The names of the manufacturers' roots this program carries.
pub fn manufacturer_roots() -> Vec<&'static str> {
    MANUFACTURER_ROOTS.iter().map(|(name, _)| *name).collect()
}

fn parse(der: &[u8]) -> Result<Certificate, String> {
    picky_asn1_der::from_bytes::<Certificate>(der).map_err(|e| format!("not an X.509 certificate ({e})"))
}

/// Check the EK certificate `cert` (DER), with the intermediates `chain`,
/// against the roots `roots` (DER): its issuer and root, and its subject
/// public key. The time is now (an EK certificate's validity is the
/// chip's life; a cabinet's clock before the manufacturer's issue date
/// refuses it, by name).
pub(crate) fn verify(cert: &[u8], chain: &[Vec<u8>], roots: &[Vec<u8>]) -> Result<(Endorsed, SubjectPublicKeyInfo), String> {
    let parsed = parse(cert)?;
    let issuer = parsed.tbs_certificate.issuer.to_string();
    let anchors = roots
        .iter()
        .map(|der| {
            let der = CertificateDer::from(der.as_slice());
            webpki::anchor_from_trusted_cert(&der).map(|a| a.to_owned()).map_err(|e| format!("a root this program carries is not a CA certificate ({e:?})"))
        })
        .collect::<Result<Vec<TrustAnchor<'static>>, String>>()?;
    let der = CertificateDer::from(cert);
    let end_entity = webpki::EndEntityCert::try_from(&der).map_err(|e| format!("the EK certificate does not parse as X.509 ({e:?})"))?;
    let intermediates: Vec<CertificateDer<'_>> = chain.iter().map(|c| CertificateDer::from(c.as_slice())).collect();
    let path = end_entity
        .verify_for_usage(
            webpki::ALL_VERIFICATION_ALGS,
            &anchors,
            &intermediates,
            UnixTime::now(),
            webpki::KeyUsage::required_if_present(TCG_KP_EK_CERTIFICATE),
            None,
            None,
        )
        .map_err(|e| match e {
            webpki::Error::UnknownIssuer => format!(
                "its EK certificate (issued by {issuer}) does not chain to a TPM manufacturer's root this program carries: a software TPM, or a relay presenting a chip's certificate"
            ),
            e => format!("its EK certificate (issued by {issuer}) does not verify: {e:?}"),
        })?;
    // The root the path ends at, named by its certificate's subject.
    let root = anchors
        .iter()
        .position(|a| a.subject == path.anchor().subject)
        .and_then(|i| parse(&roots[i]).ok())
        .map_or_else(|| "a carried root".into(), |c| c.tbs_certificate.subject.to_string());
    Ok((Endorsed { issuer, root }, parsed.tbs_certificate.subject_public_key_info))
}

/// A public key's numbers, leading zeros stripped: an RSA key's modulus
/// and exponent, an EC key's point.
fn numbers(key: &PublicKey) -> Option<(Vec<u8>, Vec<u8>)> {
    let strip = |b: &[u8]| b.iter().skip_while(|x| **x == 0).copied().collect::<Vec<u8>>();
    match key {
        PublicKey::Rsa(rsa) => Some((strip(rsa.0.modulus.as_unsigned_bytes_be()), strip(rsa.0.public_exponent.as_unsigned_bytes_be()))),
        PublicKey::Ec(point) => Some((point.0.payload_view().to_vec(), Vec::new())),
        _ => None,
    }
}

/// A TPM object's name: its name algorithm (SHA-256) and the digest of
/// its public area.
fn name_of(public: &Public) -> tss_esapi::Result<Vec<u8>> {
    let mut name = vec![0x00, 0x0B];
    name.extend_from_slice(&Sha256::digest(public.marshall()?));
    Ok(name)
}

/// What an endorsement check found wrong: said by the caller with its TPM.
type Refusal = String;

/// Read a whole NV index with its own (empty) authorisation, as any
/// program may read an EK certificate.
fn read_nv(ctx: &mut Context, index: u32) -> tss_esapi::Result<Vec<u8>> {
    let handle = NvIndexTpmHandle::new(index)?;
    let object = ctx.execute_without_session(|c| c.tr_from_tpm_public(TpmHandle::NvIndex(handle)))?;
    ctx.execute_with_session(Some(AuthSession::Password), |c| tss_esapi::abstraction::nv::read_full(c, NvAuth::NvIndex(object.into()), handle))
}

/// The EK as the TPM holds it at [`EK_HANDLE`], checked against `trust`:
/// the handle for salting, and what certified it (`None` on an evaluation
/// cabinet). `listed` says whether a handle is defined.
pub(crate) fn endorsement_key(
    ctx: &mut Context,
    trust: &Trust,
    listed: &mut dyn FnMut(&mut Context, u32) -> Result<bool, Refusal>,
) -> Result<(KeyHandle, Option<Endorsed>), Refusal> {
    if !listed(ctx, EK_HANDLE)? {
        return Err(format!(
            "it holds no endorsement key at {EK_HANDLE:#010x} (a TPM provisioned by an earlier release, or a platform that made none: provisioning makes it)"
        ));
    }
    let tpm_handle = PersistentTpmHandle::new(EK_HANDLE).map_err(|e| e.to_string())?;
    let ek = ctx.execute_without_session(|c| c.tr_from_tpm_public(TpmHandle::Persistent(tpm_handle))).map_err(|e| e.to_string())?;
    let ek = KeyHandle::from(ek);
    if *trust == Trust::Evaluation {
        return Ok((ek, None));
    }
    if !listed(ctx, EK_CERTIFICATE)? {
        return Err(format!("it holds no EK certificate at {EK_CERTIFICATE:#010x}: no manufacturer vouches for it"));
    }
    let cert = read_nv(ctx, EK_CERTIFICATE).map_err(|e| format!("cannot read its EK certificate: {e}"))?;
    let mut chain = Vec::new();
    for index in EK_CHAIN {
        if !listed(ctx, index)? {
            break;
        }
        chain.push(read_nv(ctx, index).map_err(|e| format!("cannot read its EK certificate chain at {index:#010x}: {e}"))?);
    }
    let (endorsed, spki) = verify(&cert, &chain, &roots(trust))?;
    // The key this process salts to is the one the TSS holds for the
    // handle; its public area must be the certificate's key, and the name
    // the TSS checked it by must be that area's.
    let (public, _, _) = ctx.read_public(ek).map_err(|e| e.to_string())?;
    let held = SubjectPublicKeyInfo::try_from(public.clone()).map_err(|e| format!("its EK is not an RSA or ECC key ({e})"))?;
    let name = ctx.tr_get_name(ek.into()).map_err(|e| e.to_string())?;
    if numbers(&held.subject_public_key).is_none()
        || numbers(&held.subject_public_key) != numbers(&spki.subject_public_key)
        || name_of(&public).map_err(|e| e.to_string())? != name.value()
    {
        return Err(format!(
            "the endorsement key it holds at {EK_HANDLE:#010x} is not the key its certificate (issued by {}) certifies: a relay or another TPM presenting a chip's certificate",
            endorsed.issuer
        ));
    }
    Ok((ek, Some(endorsed)))
}

/// A session salted to the EK `ek`, kept open between commands, of `kind`
/// (HMAC or policy): its answers' first parameter encrypted (AES-128-CFB)
/// when `encrypt`, its commands' when `decrypt`. Only the holder of the
/// EK's private key derives its session key.
pub(crate) fn salted_session(ctx: &mut Context, ek: KeyHandle, kind: SessionType, encrypt: bool, decrypt: bool) -> tss_esapi::Result<AuthSession> {
    let session = ctx
        .start_auth_session(Some(ek), None, None, kind, SymmetricDefinition::AES_128_CFB, HashingAlgorithm::Sha256)?
        .ok_or(tss_esapi::Error::WrapperError(tss_esapi::WrapperErrorKind::WrongValueFromTpm))?;
    let (attributes, mask) = SessionAttributesBuilder::new().with_continue_session(true).with_encrypt(encrypt).with_decrypt(decrypt).build();
    if let Err(e) = ctx.tr_sess_set_attributes(session, attributes, mask) {
        let _ = ctx.flush_context(ObjectHandle::from(SessionHandle::from(session)));
        return Err(e);
    }
    Ok(session)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every root this program carries is a certificate webpki takes as a
    /// trust anchor, each a different subject: a root that did not parse
    /// would silently certify nothing. (tpm2-tss's list holds 20
    /// self-issued roots and STMicroelectronics' two, RSA and ECC, as
    /// GlobalSign signed them.)
    #[test]
    fn every_carried_root_is_a_trust_anchor() {
        assert_eq!(MANUFACTURER_ROOTS.len(), 22);
        let mut subjects = std::collections::BTreeSet::new();
        let mut self_issued = 0;
        for (name, der) in MANUFACTURER_ROOTS {
            let cert = CertificateDer::from(der);
            assert!(webpki::anchor_from_trusted_cert(&cert).is_ok(), "{name} is not a trust anchor");
            let parsed = parse(der).unwrap();
            let subject = parsed.tbs_certificate.subject.to_string();
            self_issued += usize::from(subject == parsed.tbs_certificate.issuer.to_string());
            assert!(subjects.insert(subject), "{name} is carried twice");
        }
        assert_eq!(self_issued, 20);
    }

    #[test]
    fn what_is_not_a_certificate_is_refused_by_name() {
        let refused = verify(b"not a certificate", &[], &roots(&Trust::Manufacturers)).unwrap_err();
        assert!(refused.contains("not an X.509 certificate"), "{refused}");
    }
}
