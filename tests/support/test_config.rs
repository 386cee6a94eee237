//! The embedded configuration, written with absolute paths into a test's
//! own folder: the one writer every crate's tests include
//! (`#[path = …] mod test_config;`).
#![allow(clippy::unwrap_used, dead_code)]

use std::path::{Path, PathBuf};

pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The shipped configuration's production machine: its TPM key store.
pub const SHIPPED_KEY_STORE: &str = "        key_store: Tpm(tcti: \"device:/dev/tpmrm0\", nv_index: 0x01500020),\n";

/// The shipped configuration's production credential: the PIN held by the
/// TPM alone (issue 47, hole 7).
pub const SHIPPED_OPERATOR: &str = "operator: (operator_id: \"operator\", pin_argon2: \"held-by-tpm\"),";

/// The shipped configuration (`assets/config/cabinet.ron`) as the lab build
/// runs it in tests: lab mode (reproducible seeds, PIN 0000 as an argon2id
/// hash, which only lab mode accepts) on the file stand-in for the TPM,
/// its paths made absolute and tickets printed into `dir`.
pub fn text(dir: &Path) -> String {
    let shipped = production_text(dir);
    assert!(
        shipped.contains("mode: Production,") && shipped.contains(SHIPPED_KEY_STORE) && shipped.contains(SHIPPED_OPERATOR),
        "the shipped configuration changed: update tests/support/test_config.rs"
    );
    shipped
        .replace("mode: Production,", "mode: Lab,")
        .replace(SHIPPED_KEY_STORE, "")
        .replace(SHIPPED_OPERATOR, &format!("operator: (operator_id: \"operator\", pin_argon2: {:?}),", meters::config::DEFAULT_OPERATOR_ARGON2))
}

/// The shipped configuration as it is (production, the cabinet's TPM),
/// its paths made absolute and tickets printed into `dir`.
pub fn production_text(dir: &Path) -> String {
    let ws = workspace();
    std::fs::read_to_string(ws.join("assets/config/cabinet.ron"))
        .unwrap()
        .replace("\"assets/paytables/compiled\"", &format!("{:?}", ws.join("assets/paytables/compiled").display().to_string()))
        .replace("\"assets/paytables/approved.ron\"", &format!("{:?}", ws.join("assets/paytables/approved.ron").display().to_string()))
        .replace("\"var/tickets\"", &format!("{:?}", dir.join("tickets").display().to_string()))
        .replace("\"var/egm-nvram\"", &format!("{:?}", dir.join("egm-nvram").display().to_string()))
}

/// Write `text` as `dir/cabinet.ron`.
pub fn write(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("cabinet.ron");
    std::fs::write(&path, text).unwrap();
    path
}

/// The embedded configuration in `dir`, with `progressives` (RON list
/// items) added to its standalone pools.
pub fn config(dir: &Path, progressives: &str) -> PathBuf {
    write(dir, &text(dir).replace("    progressives: [\n", &format!("    progressives: [\n{progressives}")))
}
