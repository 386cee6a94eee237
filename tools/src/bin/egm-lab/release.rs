//! The release-signing key (issue 68): `egm-lab release-key` makes one,
//! `egm-lab sign-release` signs a manifest's release with it. The lab
//! keeps the key (an evaluation installation keeps its own under `var/`);
//! a cabinet holds only the public half, named in the manifest and bound
//! into its machine key when its TPM is provisioned.

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

use anyhow::{Context, Result, bail};

/// Write a new P-256 release-signing key (PKCS#8, readable by its owner
/// only) to `out`, never over an existing file; print its public half.
pub fn new_key(out: &Path) -> Result<()> {
    let pkcs8 = meters::keystore::release::new_signing_key()?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(out)
        .with_context(|| format!("{}: cannot create the key (an existing key is never replaced)", out.display()))?;
    file.write_all(&pkcs8).with_context(|| format!("writing {}", out.display()))?;
    // The public half, as a signature names it.
    let named = meters::keystore::release::sign(&pkcs8, &[0; 32])?;
    println!("release-signing key written to {}; its public key: {}", out.display(), named.signer);
    Ok(())
}

/// Sign `manifest`'s release with the key in `key`; the signature is
/// written into the manifest. A key other than the one a manifest's
/// earlier signature names is refused unless `new_signer`: a cabinet
/// provisioned for that signer would take no key from it.
pub fn sign(key: &Path, manifest: &Path, new_signer: bool) -> Result<()> {
    let pkcs8 = std::fs::read(key).with_context(|| format!("reading the release-signing key {}", key.display()))?;
    let mut m = paytables::artifact::read_manifest(manifest)?;
    let release = m.release_digest();
    let signature = meters::keystore::release::sign(&pkcs8, &release).with_context(|| key.display().to_string())?;
    if let Some(before) = &m.signature
        && before.signer != signature.signer
        && !new_signer
    {
        bail!(
            "{}: signed by {}, not by this key ({}): a cabinet provisioned for that signer takes no key from another's release (--new-signer to sign anyway)",
            manifest.display(),
            before.signer,
            signature.signer
        );
    }
    signature.verify(&release)?;
    m.signature = Some(signature);
    let text = ron::ser::to_string_pretty(&m, ron::ser::PrettyConfig::default())?;
    std::fs::write(manifest, text + "\n").with_context(|| format!("writing {}", manifest.display()))?;
    println!("release {} of {} signed", hex::encode(release), manifest.display());
    Ok(())
}
