//! A relay in front of a software TPM, standing for the TPM's bus: an
//! attacker (or a power cut) that cuts it at one command.

use super::swtpm::SoftwareTpm;

/// A relay in front of a software TPM's two ports (commands, control),
/// which the cabinet's key store is configured to reach. Armed, it cuts
/// every connection when a TPM2_NV_Write of the anchor comes (and until
/// disarmed takes none): the power cut between an anchor's pending commit
/// and its write (provisioning's first, hole 5; a cash-out's, issue 68
/// attack 1), at the one instant an attacker copies the files.
pub struct Relay {
    port: u16,
    armed: std::sync::Arc<std::sync::atomic::AtomicBool>,
    cut: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Cut after the TPM has made the write (its response lost) rather
    /// than before it reaches the TPM.
    after: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Every byte that crossed the bus, commands and responses, in order:
    /// what a listener on it reads.
    heard: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
}

pub const TPM2_CC_NV_WRITE: u32 = 0x0000_0137;

impl Relay {
    pub fn start(tpm: &SoftwareTpm) -> Relay {
        use std::net::{TcpListener, TcpStream};
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        let target: u16 = tpm.tcti().rsplit('=').next().unwrap().parse().unwrap();
        let (data, ctrl) =
            (20_000..32_000).step_by(2).find_map(|p| Some((TcpListener::bind(("127.0.0.1", p)).ok()?, TcpListener::bind(("127.0.0.1", p + 1)).ok()?))).unwrap();
        let port = data.local_addr().unwrap().port();
        let (armed, cut, after) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
        // The control channel: bytes both ways.
        std::thread::spawn(move || {
            for client in ctrl.incoming().map_while(Result::ok) {
                let Ok(tpm) = TcpStream::connect(("127.0.0.1", target + 1)) else { continue };
                // Either side closing closes both (swtpm serves one
                // control connection at a time).
                let (mut c_in, mut t_out) = (client.try_clone().unwrap(), tpm.try_clone().unwrap());
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut c_in, &mut t_out);
                    let _ = t_out.shutdown(std::net::Shutdown::Both);
                    let _ = c_in.shutdown(std::net::Shutdown::Both);
                });
                let (mut t_in, mut c_out) = (tpm, client);
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut t_in, &mut c_out);
                    let _ = c_out.shutdown(std::net::Shutdown::Both);
                    let _ = t_in.shutdown(std::net::Shutdown::Both);
                });
            }
        });
        // The command channel: a command at a time, its code read.
        let heard = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (a, k, f, h) = (armed.clone(), cut.clone(), after.clone(), heard.clone());
        std::thread::spawn(move || {
            for client in data.incoming().map_while(Result::ok) {
                if k.load(Ordering::SeqCst) {
                    continue;
                }
                let Ok(tpm) = TcpStream::connect(("127.0.0.1", target)) else { continue };
                let (a, k, f, h) = (a.clone(), k.clone(), f.clone(), h.clone());
                std::thread::spawn(move || relay_commands(client, tpm, &a, &k, &f, &h));
            }
        });
        Relay { port, armed, cut, after, heard }
    }

    pub fn tcti(&self) -> String {
        format!("swtpm:host=127.0.0.1,port={}", self.port)
    }

    /// Cut the anchor's next write after the TPM did it (`true`), or before it
    /// reaches the TPM (`false`, the default).
    pub fn cut_after(&self, after: bool) {
        self.after.store(after, std::sync::atomic::Ordering::SeqCst);
    }

    /// Every byte the bus carried so far.
    pub fn heard(&self) -> Vec<u8> {
        self.heard.lock().unwrap().clone()
    }

    pub fn arm(&self, on: bool) {
        self.armed.store(on, std::sync::atomic::Ordering::SeqCst);
        if !on {
            self.cut.store(false, std::sync::atomic::Ordering::SeqCst);
        }
    }
}

/// Relay one connection's commands and responses (a 10-byte header whose
/// bytes 2..6 are the size, 6..10 the command code, then the handles:
/// NV_Write's second is the index written), cutting it at a write of the
/// anchor while armed (before the TPM gets it, or after it did); the
/// operator credential's write at provisioning passes.
fn relay_commands(
    mut client: std::net::TcpStream,
    mut tpm: std::net::TcpStream,
    armed: &std::sync::atomic::AtomicBool,
    cut: &std::sync::atomic::AtomicBool,
    after: &std::sync::atomic::AtomicBool,
    heard: &std::sync::Mutex<Vec<u8>>,
) {
    use std::io::{Read, Write};
    let frame = |from: &mut std::net::TcpStream| -> Option<Vec<u8>> {
        let mut head = [0u8; 10];
        from.read_exact(&mut head).ok()?;
        let size = u32::from_be_bytes(head[2..6].try_into().ok()?) as usize;
        let mut body = vec![0u8; size.checked_sub(10)?];
        from.read_exact(&mut body).ok()?;
        Some([head.to_vec(), body].concat())
    };
    while let Some(command) = frame(&mut client) {
        let code = u32::from_be_bytes(command[6..10].try_into().unwrap());
        let index = command.get(14..18).and_then(|b| b.try_into().ok()).map(u32::from_be_bytes);
        if armed.load(std::sync::atomic::Ordering::SeqCst) && code == TPM2_CC_NV_WRITE && index == Some(super::production::NV_INDEX) {
            cut.store(true, std::sync::atomic::Ordering::SeqCst);
            if after.load(std::sync::atomic::Ordering::SeqCst) {
                // The TPM does it; its answer never comes back.
                let _ = tpm.write_all(&command);
                let _ = frame(&mut tpm);
            }
            let _ = client.shutdown(std::net::Shutdown::Both);
            let _ = tpm.shutdown(std::net::Shutdown::Both);
            return;
        }
        heard.lock().unwrap().extend_from_slice(&command);
        if tpm.write_all(&command).is_err() {
            return;
        }
        let Some(response) = frame(&mut tpm) else { return };
        heard.lock().unwrap().extend_from_slice(&response);
        if client.write_all(&response).is_err() {
            return;
        }
    }
}
