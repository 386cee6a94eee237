//! The art kit (issue 29) is embedded in the cabinet: every SVG under
//! `assets/art` is listed here for `art.rs`, so the certified program
//! carries the art it shows and a studio replaces a file and rebuilds.

use std::path::{Path, PathBuf};

fn svgs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            svgs(&path, out);
        } else if path.extension().is_some_and(|e| e == "svg") {
            out.push(path);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.join("../assets/art");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    svgs(&root, &mut files);
    let mut listing = String::from("/// Every SVG of the art kit: its name under `assets/art`, its bytes.\npub(crate) static FILES: &[(&str, &[u8])] = &[\n");
    for path in &files {
        let name = path.strip_prefix(&root).expect("under the root").to_string_lossy().replace('\\', "/");
        listing.push_str(&format!("    ({name:?}, include_bytes!({:?})),\n", path.display().to_string()));
    }
    listing.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("art_files.rs");
    std::fs::write(out, listing).expect("the art listing is written");
}
