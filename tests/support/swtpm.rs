//! A real software TPM 2.0 for tests (Debian's `swtpm`), one per test: its
//! own state folder and ports, started with the TPM already powered on,
//! cut off as a power cut would (`swtpm_ioctl -s`: no TPM2_Shutdown, so
//! anything the TPM kept in RAM is lost), and started again on the same
//! state.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct SoftwareTpm {
    state: PathBuf,
    port: u16,
    child: Option<Child>,
}

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
        let state = dir.join("swtpm-state");
        std::fs::create_dir_all(&state).unwrap();
        // A swtpm that could not bind its ports exits: tried again on others.
        for _ in 0..5 {
            let mut t = SoftwareTpm { state: state.clone(), port: free_ports(), child: None };
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
        Ok(())
    }

    /// tpm2-tools on this TPM, as any program on the cabinet may run them:
    /// their output, whether they succeeded or not.
    pub fn tools(&self, args: &[&str]) -> std::process::Output {
        Command::new(args[0]).args(&args[1..]).env("TPM2TOOLS_TCTI", self.tcti()).output().expect("tpm2-tools are not installed (tools/test.sh installs them)")
    }

    /// A measured boot's step: extend the measured PCR (15, SHA-256) with
    /// `digest_hex` (64 hex digits), as a boot chain does with the digest
    /// of the program it starts. PCR 15 is not resettable: only a power
    /// cycle brings it back to zero.
    pub fn measure(&self, digest_hex: &str) {
        let out = self.tools(&["tpm2_pcrextend", &format!("15:sha256={digest_hex}")]);
        assert!(out.status.success(), "tpm2_pcrextend: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Advance the counter at `nv_index` as the certified program does it:
    /// under a policy session that PolicyPCR over PCR 15 satisfies. Works
    /// only in the measured state the counter was provisioned in.
    pub fn increment_in_measured_state(&self, nv_index: u32) -> std::process::Output {
        let session = self.state.with_file_name(format!("session-{}.ctx", self.port));
        let s = session.to_str().unwrap();
        let index = format!("{nv_index:#010x}");
        let start = self.tools(&["tpm2_startauthsession", "--policy-session", "-S", s]);
        assert!(start.status.success(), "tpm2_startauthsession: {}", String::from_utf8_lossy(&start.stderr));
        let policy = self.tools(&["tpm2_policypcr", "-S", s, "-l", "sha256:15"]);
        assert!(policy.status.success(), "tpm2_policypcr: {}", String::from_utf8_lossy(&policy.stderr));
        let out = self.tools(&["tpm2_nvincrement", "-C", &index, "-P", &format!("session:{s}"), &index]);
        let _ = self.tools(&["tpm2_flushcontext", s]);
        out
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
