//! A real software TPM 2.0 for tests (Debian's `swtpm`), one per test: its
//! own state folder and ports, started with the TPM already powered on,
//! cut off as a power cut would (`swtpm_ioctl -s`: no TPM2_Shutdown, so
//! anything the TPM kept in RAM is lost), and started again on the same
//! state.
//!
//! The TPM stands for the cabinet platform's chip: at every power-on the
//! platform's firmware measures its boot into PCRs 0, 2, 4 and 7 (issue 47,
//! hole 1; the README's platform requirements), done here with the digests
//! of one certified platform ([`PLATFORM_BOOT`]). swtpm has no firmware of
//! its own: this is the part of the platform the product requires, never
//! anything the product does itself (its launcher's PCR 15 is extended by
//! the product's own `meters::keystore::measure_release`, and only there).

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct SoftwareTpm {
    state: PathBuf,
    port: u16,
    child: Option<Child>,
    /// What the platform's firmware measures at each power-on: `None` for
    /// a platform without measured boot.
    platform: Option<&'static [(u8, &'static str)]>,
}

/// A certified platform's measured boot: the firmware's code (PCR 0), its
/// option ROMs and drivers (2), the unified kernel image of the certified
/// system (4), secure boot on with the platform's keys (7), as SHA-256
/// digests of what a firmware's event log names.
pub const PLATFORM_BOOT: &[(u8, &str)] = &[
    (0, "3f8a1c9e5b7d2f4a6c8e0b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a"),
    (2, "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"),
    (4, "5e0c1a7b9d3f2e4c6a8b0d1f3e5c7a9b2d4f6e8c0a1b3d5f7e9c2a4b6d8f0e1c"),
    (7, "c7d9e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b1c3d5e7f9a1b3c5d7e9f1a3b5c7d9"),
];

/// The attacker's own system booted on the same platform: the same
/// firmware, another boot loader (PCR 4).
pub const ATTACKER_BOOT: &[(u8, &str)] = &[
    (0, "3f8a1c9e5b7d2f4a6c8e0b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a"),
    (2, "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"),
    (4, "0000000000000000000000000000000000000000000000000000000000000bad"),
    (7, "c7d9e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b1c3d5e7f9a1b3c5d7e9f1a3b5c7d9"),
];

/// The ports the TPMs of this test process hold, on or off: a TPM powered
/// off for a power cut keeps its ports, and another test running beside it
/// must not take them (its swtpm would fail to bind while the probe of the
/// port answered from the other TPM).
static TAKEN: std::sync::Mutex<std::collections::BTreeSet<u16>> = std::sync::Mutex::new(std::collections::BTreeSet::new());

/// Two free consecutive loopback ports (the TPM's and its control channel),
/// kept for this TPM for as long as the process runs. Chosen below the
/// kernel's ephemeral range (32768 and up): a port from it, free when
/// probed, could be handed to another test's outgoing connection before
/// swtpm binds it, and swtpm then exits (a flake seen in CI).
fn free_ports() -> u16 {
    let mut taken = TAKEN.lock().unwrap_or_else(|e| e.into_inner());
    // A start that differs per process and per call, without a generator.
    let seed = u64::from(std::process::id()).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (taken.len() as u64 * 7_919);
    for i in 0..2_000u64 {
        let p = 20_000 + ((seed.wrapping_add(i * 2)) % 12_000) as u16;
        if !taken.contains(&p) && !taken.contains(&(p + 1)) && TcpListener::bind(("127.0.0.1", p)).is_ok() && TcpListener::bind(("127.0.0.1", p + 1)).is_ok() {
            taken.insert(p);
            taken.insert(p + 1);
            return p;
        }
    }
    panic!("no two free consecutive loopback ports for swtpm");
}

impl SoftwareTpm {
    /// Start a new TPM with its state under `dir`.
    pub fn start(dir: &Path) -> SoftwareTpm {
        Self::start_on(dir, Some(PLATFORM_BOOT))
    }

    /// A TPM as a manufacturer ships one (issue 68, attack 3): its RSA and
    /// ECC endorsement keys made persistent and their certificates in NV,
    /// issued by a certificate authority of its own under `dir`
    /// (`swtpm_setup --create-ek-cert` with `swtpm_localca`, as
    /// `tools/run-cabinet.sh` manufactures the evaluation cabinet's), then
    /// started. The CA's root and issuing certificates (DER) are
    /// [`SoftwareTpm::manufacturer_root`] and
    /// [`SoftwareTpm::manufacturer_issuer`].
    pub fn manufacture(dir: &Path) -> SoftwareTpm {
        let state = dir.join("swtpm-state");
        let ca = dir.join("swtpm-ca");
        std::fs::create_dir_all(&state).unwrap();
        std::fs::create_dir_all(&ca).unwrap();
        let localca = dir.join("swtpm-localca.conf");
        std::fs::write(
            &localca,
            format!("statedir = {ca}\nsigningkey = {ca}/signkey.pem\nissuercert = {ca}/issuercert.pem\ncertserial = {ca}/certserial\n", ca = ca.display()),
        )
        .unwrap();
        let setup = dir.join("swtpm_setup.conf");
        std::fs::write(
            &setup,
            format!(
                "create_certs_tool = /usr/bin/swtpm_localca\ncreate_certs_tool_config = {}\ncreate_certs_tool_options = /etc/swtpm-localca.options\nactive_pcr_banks = sha256\n",
                localca.display()
            ),
        )
        .unwrap();
        let out = Command::new("swtpm_setup")
            .args(["--tpm2", "--create-ek-cert", "--overwrite", "--config"])
            .arg(&setup)
            .arg("--tpmstate")
            .arg(&state)
            .output()
            .expect("swtpm_setup is not installed (tools/test.sh installs swtpm-tools)");
        assert!(out.status.success(), "swtpm_setup: {}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        Self::start(dir)
    }

    /// The root certificate (DER) of the CA [`SoftwareTpm::manufacture`]
    /// made under `dir`.
    pub fn manufacturer_root(dir: &Path) -> Vec<u8> {
        Self::der(&dir.join("swtpm-ca/swtpm-localca-rootca-cert.pem"))
    }

    /// The certificate (DER) of the CA's issuer, which signed the EK's.
    pub fn manufacturer_issuer(dir: &Path) -> Vec<u8> {
        Self::der(&dir.join("swtpm-ca/issuercert.pem"))
    }

    fn der(pem: &Path) -> Vec<u8> {
        let out = Command::new("openssl").args(["x509", "-outform", "der", "-in"]).arg(pem).output().unwrap();
        assert!(out.status.success(), "openssl x509 {}: {}", pem.display(), String::from_utf8_lossy(&out.stderr));
        out.stdout
    }

    /// A TPM on a platform whose firmware measures nothing (PCRs 0-7 stay
    /// at their reset value).
    pub fn start_unmeasured(dir: &Path) -> SoftwareTpm {
        Self::start_on(dir, None)
    }

    fn start_on(dir: &Path, platform: Option<&'static [(u8, &'static str)]>) -> SoftwareTpm {
        let state = dir.join("swtpm-state");
        std::fs::create_dir_all(&state).unwrap();
        // A swtpm that could not bind its ports exits: tried again on others.
        for _ in 0..5 {
            let mut t = SoftwareTpm { state: state.clone(), port: free_ports(), child: None, platform };
            match t.try_power_on() {
                Ok(()) => return t,
                Err(why) => eprintln!("{why}; trying other ports"),
            }
        }
        panic!("swtpm did not start on five pairs of ports");
    }

    /// The cabinet's battery-backed NVRAM beside this TPM (a file stands
    /// in for the device): the production configuration's mirror.
    pub fn nvram(&self) -> PathBuf {
        self.state.with_file_name("nvram.bin")
    }

    /// The TCTI the TSS connects with.
    pub fn tcti(&self) -> String {
        format!("swtpm:host=127.0.0.1,port={}", self.port)
    }

    pub fn power_on(&mut self) {
        if let Err(why) = self.try_power_on() {
            panic!("{why}");
        }
    }

    /// The next power-ons boot `platform` (the attacker's own system, or
    /// the certified one again).
    pub fn boot_next(&mut self, platform: &'static [(u8, &'static str)]) {
        self.platform = Some(platform);
    }

    /// The platform firmware's measurements at power-on.
    fn measure_platform(&self) -> Result<(), String> {
        let Some(platform) = self.platform else { return Ok(()) };
        let args: Vec<String> = platform.iter().map(|(pcr, digest)| format!("{pcr}:sha256={digest}")).collect();
        let mut command = vec!["tpm2_pcrextend"];
        command.extend(args.iter().map(String::as_str));
        let out = self.tools(&command);
        if out.status.success() { Ok(()) } else { Err(format!("tpm2_pcrextend (the platform's measured boot): {}", String::from_utf8_lossy(&out.stderr))) }
    }

    /// A PCR's SHA-256 value, as 64 hex digits.
    pub fn pcr(&self, pcr: u8) -> String {
        let out = self.tools(&["tpm2_pcrread", &format!("sha256:{pcr}")]);
        assert!(out.status.success(), "tpm2_pcrread: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        let value = text.lines().find_map(|l| l.trim().strip_prefix(&format!("{pcr}")).and_then(|r| r.trim().strip_prefix(':')).map(|v| v.trim().to_owned()));
        value.unwrap_or_else(|| panic!("tpm2_pcrread printed no PCR {pcr}: {text}")).trim_start_matches("0x").to_lowercase()
    }

    /// Start swtpm on this TPM's ports and wait until it listens; why not
    /// when it exits first or does not listen within 10 s.
    fn try_power_on(&mut self) -> Result<(), String> {
        assert!(self.child.is_none(), "the TPM is already on");
        let child = Command::new("swtpm")
            .args(["socket", "--tpm2", "--flags", "not-need-init,startup-clear"])
            .arg("--server")
            .arg(format!("type=tcp,bindaddr=127.0.0.1,port={}", self.port))
            .arg("--ctrl")
            .arg(format!("type=tcp,bindaddr=127.0.0.1,port={}", self.port + 1))
            .arg("--tpmstate")
            .arg(format!("dir={}", self.state.display()))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("swtpm is not installed (tools/test.sh installs it)");
        self.child = Some(child);
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            if let Some(c) = self.child.as_mut()
                && let Ok(Some(status)) = c.try_wait()
            {
                self.child = None;
                return Err(format!("swtpm on port {} exited at start ({status})", self.port));
            }
            if start.elapsed() > Duration::from_secs(10) {
                if let Some(mut c) = self.child.take() {
                    let _ = c.kill();
                    let _ = c.wait();
                }
                return Err(format!("swtpm did not start listening on port {}", self.port));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        // The port answers: from this swtpm, not from one that was already
        // there (this one would have failed to bind and exited).
        std::thread::sleep(Duration::from_millis(30));
        if let Some(c) = self.child.as_mut()
            && !matches!(c.try_wait(), Ok(None))
        {
            self.child = None;
            return Err(format!("swtpm on port {} exited at start (its port was taken)", self.port));
        }
        self.measure_platform()
    }

    /// tpm2-tools on this TPM, as any program on the cabinet may run them:
    /// their output, whether they succeeded or not.
    pub fn tools(&self, args: &[&str]) -> std::process::Output {
        Command::new(args[0]).args(&args[1..]).env("TPM2TOOLS_TCTI", self.tcti()).output().expect("tpm2-tools are not installed (tools/test.sh installs them)")
    }

    /// A power cut: the TPM stops with no TPM2_Shutdown.
    pub fn power_cut(&mut self) {
        let status = Command::new("swtpm_ioctl").arg("--tcp").arg(format!("127.0.0.1:{}", self.port + 1)).arg("-s").status().unwrap();
        assert!(status.success(), "swtpm_ioctl -s failed");
        if let Some(mut c) = self.child.take() {
            c.wait().unwrap();
        }
    }
}

impl Drop for SoftwareTpm {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}
