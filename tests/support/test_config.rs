//! The embedded configuration, written with absolute paths into a test's
//! own folder: the one writer every crate's tests include
//! (`#[path = …] mod test_config;`).
#![allow(clippy::unwrap_used, dead_code)]

use std::path::{Path, PathBuf};

pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The embedded configuration (`assets/config/cabinet.ron`) with its
/// paths made absolute and tickets printed into `dir`.
pub fn text(dir: &Path) -> String {
    let ws = workspace();
    std::fs::read_to_string(ws.join("assets/config/cabinet.ron"))
        .unwrap()
        .replace("\"assets/paytables/compiled\"", &format!("{:?}", ws.join("assets/paytables/compiled").display().to_string()))
        .replace("\"assets/paytables/approved.ron\"", &format!("{:?}", ws.join("assets/paytables/approved.ron").display().to_string()))
        .replace("\"var/tickets\"", &format!("{:?}", dir.join("tickets").display().to_string()))
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
