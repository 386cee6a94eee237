//! The key store in a TPM 2.0, through `tss-esapi` (7.7, for Debian 12's
//! libtss2 3.2).
//!
//! * **The key** is a primary HMAC-SHA256 object of the owner hierarchy:
//!   fixedTPM, fixedParent, sensitiveDataOrigin, so its secret is made by
//!   the chip from its owner seed and never leaves it. The same template
//!   gives the same key at every boot, so nothing of it is stored on disk;
//!   a TPM2_Clear (a new owner seed) makes it a different key, and every
//!   record MAC'd before no longer verifies.
//! * **The anchor** is an owner NV index of type counter, without the
//!   ORDERLY attribute: an orderly counter is kept in RAM and, after a power
//!   cut, jumps ahead by up to 255 (seen on swtpm: 3231 → 3327). Each
//!   increment is an NV write, so it is advanced at anchor events only.
//!
//! A connection is opened for each operation and closed after it: the TPM
//! is used a few times per boot and per anchor, and nothing holds it
//! between (another reader, such as a lab tool, may use it meanwhile).
//! On this libtss2, commands that need no authorisation run without a
//! session; the others with the empty owner password.

use std::str::FromStr;

use tss_esapi::attributes::{NvIndexAttributesBuilder, ObjectAttributesBuilder};
use tss_esapi::constants::CapabilityType;
use tss_esapi::constants::nv_index_type::NvIndexType;
use tss_esapi::handles::{NvIndexHandle, NvIndexTpmHandle, TpmHandle};
use tss_esapi::interface_types::algorithm::{HashingAlgorithm, PublicAlgorithm};
use tss_esapi::interface_types::resource_handles::{Hierarchy, NvAuth, Provision};
use tss_esapi::interface_types::session_handles::AuthSession;
use tss_esapi::structures::{CapabilityData, Digest, KeyedHashScheme, MaxBuffer, NvPublicBuilder, PublicBuilder, PublicKeyedHashParameters};
use tss_esapi::{Context, TctiNameConf};

use super::{KeyStore, KeyStoreError};

pub(crate) struct Tpm {
    tcti: String,
    nv_index: u32,
}

impl Tpm {
    pub(crate) fn new(tcti: &str, nv_index: u32) -> Result<Self, KeyStoreError> {
        let t = Self { tcti: tcti.into(), nv_index };
        // Owner NV indices (TPM 2.0 Part 2, 7.3: TPM_HT_NV_INDEX, owner range).
        if !(0x0100_0000..=0x01BF_FFFF).contains(&nv_index) {
            return Err(t.err(format!("NV index {nv_index:#010x} is outside the owner range 0x01000000..0x01BFFFFF")));
        }
        TctiNameConf::from_str(tcti).map_err(|e| t.err(format!("cannot read the TCTI {tcti:?}: {e}")))?;
        Ok(t)
    }

    fn err(&self, detail: impl ToString) -> KeyStoreError {
        KeyStoreError::Tpm { tcti: self.tcti.clone(), detail: detail.to_string() }
    }

    fn connect(&self) -> Result<Context, KeyStoreError> {
        let conf = TctiNameConf::from_str(&self.tcti).map_err(|e| self.err(e))?;
        Context::new(conf).map_err(|e| KeyStoreError::Unreachable { tcti: self.tcti.clone(), detail: e.to_string() })
    }

    fn index(&self) -> Result<NvIndexTpmHandle, KeyStoreError> {
        NvIndexTpmHandle::new(self.nv_index).map_err(|e| self.err(e))
    }

    /// The counter's handle and whether it has been written, or `None`
    /// when the index is not defined.
    fn find(&self, ctx: &mut Context) -> Result<Option<(NvIndexHandle, bool)>, KeyStoreError> {
        let index = self.index()?;
        // Listed first (no error logged by the TSS for a missing index).
        let (listed, _) = ctx.execute_without_session(|c| c.get_capability(CapabilityType::Handles, self.nv_index, 1)).map_err(|e| self.err(e))?;
        let defined = matches!(&listed, CapabilityData::Handles(list) if list.first() == Some(&TpmHandle::NvIndex(index)));
        if !defined {
            return Ok(None);
        }
        let handle = ctx.execute_without_session(|c| c.tr_from_tpm_public(TpmHandle::NvIndex(index))).map_err(|e| self.err(e))?;
        let handle = NvIndexHandle::from(handle);
        let (public, _) = ctx.execute_without_session(|c| c.nv_read_public(handle)).map_err(|e| self.err(e))?;
        let attributes = public.attributes();
        let index_type = attributes.index_type().map_err(|e| self.err(e))?;
        if index_type != NvIndexType::Counter || attributes.orderly() {
            return Err(self.err(format!(
                "NV index {:#010x} is not a non-orderly counter (type {:?}, orderly {}): it cannot anchor critical memory",
                self.nv_index,
                index_type,
                attributes.orderly()
            )));
        }
        Ok(Some((handle, attributes.written())))
    }

    fn read(&self, ctx: &mut Context, handle: NvIndexHandle) -> Result<u64, KeyStoreError> {
        let data = ctx.execute_with_session(Some(AuthSession::Password), |c| c.nv_read(NvAuth::Owner, handle, 8, 0)).map_err(|e| self.err(e))?;
        let bytes: [u8; 8] = data.value().try_into().map_err(|_| self.err("the counter did not read as 8 bytes"))?;
        Ok(u64::from_be_bytes(bytes))
    }
}

impl KeyStore for Tpm {
    fn derive_key(&mut self, label: &[u8]) -> Result<[u8; 32], KeyStoreError> {
        let mut ctx = self.connect()?;
        let attributes = ObjectAttributesBuilder::new()
            .with_fixed_tpm(true)
            .with_fixed_parent(true)
            .with_sensitive_data_origin(true)
            .with_user_with_auth(true)
            .with_sign_encrypt(true)
            .build()
            .map_err(|e| self.err(e))?;
        // The unique field names the key's purpose: the same template gives
        // the same key on this TPM, and only on it.
        let unique = Digest::try_from(sha2_of(b"egm critical memory key v1").to_vec()).map_err(|e| self.err(e))?;
        let public = PublicBuilder::new()
            .with_public_algorithm(PublicAlgorithm::KeyedHash)
            .with_name_hashing_algorithm(HashingAlgorithm::Sha256)
            .with_object_attributes(attributes)
            .with_keyed_hash_parameters(PublicKeyedHashParameters::new(KeyedHashScheme::HMAC_SHA_256))
            .with_keyed_hash_unique_identifier(unique)
            .build()
            .map_err(|e| self.err(e))?;
        let input = MaxBuffer::try_from(label.to_vec()).map_err(|e| self.err(e))?;
        let derived = ctx.execute_with_session(Some(AuthSession::Password), |c| -> tss_esapi::Result<Digest> {
            let key = c.create_primary(Hierarchy::Owner, public, None, None, None, None)?;
            let mac = c.hmac(key.key_handle.into(), input, HashingAlgorithm::Sha256);
            c.flush_context(key.key_handle.into())?;
            mac
        });
        let derived = derived.map_err(|e| self.err(format!("cannot derive the machine key: {e}")))?;
        derived.value().try_into().map_err(|_| self.err("the derived key is not 32 bytes"))
    }

    fn make_secret_if_missing(&mut self) -> Result<(), KeyStoreError> {
        Ok(())
    }

    fn counter(&mut self) -> Result<Option<u64>, KeyStoreError> {
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

    fn increment(&mut self) -> Result<u64, KeyStoreError> {
        let mut ctx = self.connect()?;
        let handle = match self.find(&mut ctx)? {
            Some((handle, _)) => handle,
            None => {
                // Owner read and write; never ORDERLY (see the module doc).
                let attributes = NvIndexAttributesBuilder::new()
                    .with_owner_write(true)
                    .with_owner_read(true)
                    .with_nv_index_type(NvIndexType::Counter)
                    .build()
                    .map_err(|e| self.err(e))?;
                let public = NvPublicBuilder::new()
                    .with_nv_index(self.index()?)
                    .with_index_name_algorithm(HashingAlgorithm::Sha256)
                    .with_index_attributes(attributes)
                    .with_data_area_size(8)
                    .build()
                    .map_err(|e| self.err(e))?;
                ctx.execute_with_session(Some(AuthSession::Password), |c| c.nv_define_space(Provision::Owner, None, public))
                    .map_err(|e| self.err(format!("cannot define the anchor counter: {e}")))?
            }
        };
        ctx.execute_with_session(Some(AuthSession::Password), |c| c.nv_increment(NvAuth::Owner, handle))
            .map_err(|e| self.err(format!("cannot advance the anchor counter: {e}")))?;
        self.read(&mut ctx, handle)
    }
}

fn sha2_of(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes).into()
}
