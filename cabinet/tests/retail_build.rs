//! Attack 11 (issue 21): the retail cabinet contains no lab mode, no lab
//! seed and (issue 45) no development keys for the devices. `tools/test.sh` builds it first (`cargo build --workspace --lib --bins`, no
//! features) and names the binary in `EGM_RETAIL_CABINET`; these tests run
//! in the lab build, whose own cabinet is the control: every mark found in
//! the lab cabinet must be absent from the retail one.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::process::Command;

fn retail() -> PathBuf {
    let path = std::env::var_os("EGM_RETAIL_CABINET")
        .map(PathBuf::from)
        .expect("EGM_RETAIL_CABINET is not set: tools/test.sh builds the retail cabinet (cargo build --workspace --lib --bins) and names it there");
    assert!(path.is_file(), "the retail cabinet {} does not exist", path.display());
    path
}

fn lab() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_cabinet"))
}

/// What only the lab build compiles in: the boot report's warning, the
/// `--lab-seed` option, the core's refusal of a lab seed in production, and
/// the development keys that stand in for devices (issue 45).
const LAB_MARKS: [&str; 4] =
    [game_host::boot::LAB_BUILD, "lab-seed", "reproducible RNG seed is refused in production mode", "development keys stand in for the devices"];

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// I-56 (the build-artifact audit), E-40: the retail binary holds none of
/// the lab build's paths.
#[test]
fn the_retail_binary_contains_no_lab_mode_and_no_lab_seed() {
    let lab = std::fs::read(lab()).unwrap();
    let retail = std::fs::read(retail()).unwrap();
    assert_ne!(lab, retail, "the retail and lab cabinets are the same file");
    for mark in LAB_MARKS {
        assert!(contains(&lab, mark), "the control failed: the lab cabinet lacks {mark:?}, so its absence proves nothing");
        assert!(!contains(&retail, mark), "the retail cabinet contains the lab build's {mark:?}");
    }
}

#[test]
fn the_retail_cabinet_refuses_a_lab_seed_before_it_opens_anything() {
    let out = Command::new(retail()).args(["--windowed", "--lab-seed", "7", "--db", "/nonexistent/egm.sqlite"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("unexpected argument '--lab-seed'"), "{stderr}");

    let help = |exe: PathBuf| String::from_utf8(Command::new(exe).arg("--help").output().unwrap().stdout).unwrap();
    assert!(help(lab()).contains("--lab-seed"));
    assert!(!help(retail()).contains("seed"), "{}", help(retail()));
}

/// M-39: a demonstration is the lab build's (the operator's website
/// module); the retail cabinet has no such option, and its host refuses a
/// configuration that asks for one (`game_host::boot::DEMO_IN_RETAIL`).
#[test]
fn the_retail_cabinet_has_no_demonstration() {
    let out = Command::new(retail()).args(["--windowed", "--demo", "--db", "/nonexistent/egm.sqlite"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("unexpected argument '--demo'"), "{stderr}");
    let lab = String::from_utf8(Command::new(lab()).arg("--help").output().unwrap().stdout).unwrap();
    assert!(lab.contains("--demo"), "the control failed: the lab cabinet has no --demo");
    assert!(
        contains(&std::fs::read(retail()).unwrap(), game_host::boot::DEMO_IN_RETAIL),
        "the retail host's refusal of a demonstration is not in the retail cabinet"
    );
}
