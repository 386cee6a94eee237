//! `egm-lab launch`: the cabinet's launcher (issue 47, hole 1; issue 68,
//! attack 2). It measures the approved release into the TPM's launcher PCR
//! once per boot, runs the program, and stays in charge while it runs:
//!
//! * **the file it hashed is the file it runs**: the program is opened once,
//!   hashed from the open file and run through that same descriptor
//!   (`/proc/self/fd/N`, the kernel's `fexecve`); a name without a slash is
//!   that file in the working directory, never a search of `$PATH`, and a
//!   file replaced after the hash is not the one run;
//! * **a clean environment**: the program gets a fixed `PATH` and only the
//!   variables a display and a log need — no `LD_PRELOAD`, no
//!   `LD_LIBRARY_PATH`, no Vulkan loader variables (an ICD file names a
//!   library the loader maps in), nothing else the launcher was given;
//! * **the boot is capped when the program ends**, for whatever reason: a
//!   `--help`, a bad configuration, an early exit or a crash before it took
//!   the key once left the measured state open to any program in the same
//!   boot (the attacker's `tpm2_hmac` derived the journal key). The launcher
//!   waits for its program and caps the PCR itself before it exits.

use std::ffi::OsString;
use std::io::Read as _;
use std::os::fd::AsRawFd as _;
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

/// The `PATH` a launched program gets: the certified image's own folders.
pub const FIXED_PATH: &str = "/usr/bin:/bin";

/// The variables that pass to a launched program, when the launcher has
/// them: where the display is, and how to log. Nothing that names code to
/// load.
pub const PASSED: [&str; 9] = ["DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XAUTHORITY", "HOME", "LANG", "TZ", "RUST_LOG", "RUST_BACKTRACE"];

/// Measure, run, wait, cap; the program's exit status as this process's.
pub fn launch(config: &Path, manifest_path: &Path, program: &[OsString]) -> ExitCode {
    match run(config, manifest_path, program) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("egm-lab launch: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn run(config: &Path, manifest_path: &Path, program: &[OsString]) -> Result<ExitCode> {
    let config = super::machine_config(config)?;
    let manifest = paytables::artifact::read_manifest(manifest_path)?;
    let (file, args) = program.split_first().context("no program to launch")?;
    let path = Path::new(file);
    // Opened once: what is hashed and what runs are this one open file.
    let mut opened = std::fs::File::open(path).with_context(|| format!("opening the program {}", path.display()))?;
    let mut bytes = Vec::new();
    opened.read_to_end(&mut bytes).with_context(|| format!("reading the program {}", path.display()))?;
    let name = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let digest = paytables::artifact::sha256_hex(&bytes);
    match manifest.programs.iter().find(|e| e.file == name) {
        Some(e) if e.sha256 == digest => {}
        Some(e) => bail!("{}: SHA-256 {digest} is not the approved {} of {}: not launched", path.display(), e.sha256, manifest_path.display()),
        None => bail!("{}: not an approved program of {}: not launched", path.display(), manifest_path.display()),
    }
    let release = manifest.release_digest();
    // Issue 68: a signed manifest's signature is checked before it is
    // measured (the TPM checks it again when the key is asked); a floor
    // cabinet launches no unsigned release.
    match &manifest.signature {
        Some(signature) => signature.verify(&release).with_context(|| format!("{}: not launched", manifest_path.display()))?,
        None if config.mode == meters::Mode::Production && !config.evaluation => {
            bail!("{}: the release is not signed (`egm-lab sign-release`): a floor cabinet launches only a signed release", manifest_path.display())
        }
        None => {}
    }
    if meters::keystore::measure_release(&config.key_store, &release)? {
        eprintln!("egm-lab launch: release {} measured into PCR {}", hex::encode(release), meters::keystore::LAUNCHER_PCR);
    } else if !config.key_store.is_stand_in() {
        eprintln!("egm-lab launch: this boot is already measured (PCR {} is past its reset value)", meters::keystore::LAUNCHER_PCR);
    }
    let mut command = std::process::Command::new(format!("/proc/self/fd/{}", opened.as_raw_fd()));
    command.arg0(&name).args(args).env_clear().env("PATH", FIXED_PATH);
    for var in PASSED {
        if let Some(v) = std::env::var_os(var) {
            command.env(var, v);
        }
    }
    let started = command.spawn();
    drop(opened);
    // Whatever became of the program, nothing else in this boot takes the key.
    let status = started.with_context(|| format!("cannot run {}", path.display())).and_then(|mut child| Ok(child.wait()?));
    let capped = meters::keystore::cap_measurement(&config.key_store);
    let status = status?;
    capped.with_context(|| format!("{} ended, and the launcher could not cap PCR {}", name, meters::keystore::LAUNCHER_PCR))?;
    Ok(match (status.code(), status.signal()) {
        (Some(code), _) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        (None, Some(signal)) => ExitCode::from(u8::try_from(128 + signal).unwrap_or(1)),
        (None, None) => ExitCode::from(1),
    })
}
