//! The cabinet's serial lines (issue 70): a UART at its device's speed
//! and framing, raw, its reads bounded by a timeout; a pty (a test's, the
//! emulators', a lab's bridge) takes the same settings and carries the
//! bytes. The one place a serial line is opened: the devices' lines here
//! and the SAS port's (`sas::transport`, stick parity for the wake-up bit)
//! are set up by [`open_raw`], so a fix to how a line opens is made once.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::termios::{BaudRate, ControlFlags, FlushArg, InputFlags, SetArg, SpecialCharacterIndices, Termios, cfmakeraw, tcflush, tcgetattr, tcsetattr};

/// Why a port cannot be used: a clear boot error naming it (`role` says
/// what the port is for: "device port", "SAS port").
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error("{role} {path}: cannot open it: {source}")]
    Open { role: &'static str, path: PathBuf, source: std::io::Error },
    #[error("{role} {path}: not a serial line (termios refused: {source})")]
    NotSerial { role: &'static str, path: PathBuf, source: nix::Error },
    #[error("{role} {path}: cannot set {what}: {source}")]
    Settings { role: &'static str, path: PathBuf, what: &'static str, source: nix::Error },
    #[error("{role} {path}: cannot discard what was queued before it opened: {source}")]
    Flush { role: &'static str, path: PathBuf, source: nix::Error },
}

/// A line's parity bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parity {
    /// None (8N1).
    None,
    /// Even (8E1) on a UART; a pty has no parity to set and carries the
    /// bytes as they are.
    Even,
    /// Stick parity (`PARENB | CMSPAR`), SPACE as opened: SAS's wake-up
    /// bit on a UART (sas.md §1.2). A byte with the other bit reads as a
    /// parity error marked in the input (`INPCK | PARMRK`, `FF 00 b`; a
    /// data `FF` reads `FF FF`).
    Stick,
}

/// How a line is set: what it is for (named in its errors), its speed and
/// parity, and the settings in words (named when the port refuses them).
#[derive(Clone, Copy, Debug)]
pub struct Framing {
    pub role: &'static str,
    pub speed: BaudRate,
    pub parity: Parity,
    pub described: &'static str,
}

/// Opens `path` as a raw serial line with `framing`, 8 data bits, one
/// stop bit, reads returning at once (the caller waits with [`read_some`]),
/// and without whatever was queued on it before it opened. Returns the
/// line and the settings it holds (SAS flips the stick parity around its
/// wake-up bytes).
pub fn open_raw(path: &Path, framing: Framing) -> Result<(File, Termios), LineError> {
    let role = framing.role;
    let file = OpenOptions::new().read(true).write(true).custom_flags(nix::fcntl::OFlag::O_NOCTTY.bits()).open(path).map_err(|source| LineError::Open {
        role,
        path: path.to_owned(),
        source,
    })?;
    let mut t = tcgetattr(file.as_fd()).map_err(|source| LineError::NotSerial { role, path: path.to_owned(), source })?;
    cfmakeraw(&mut t);
    // The speed in the control flags' bits. Not through cfsetspeed(): the
    // `libc` crate binds it to the versioned symbol `cfsetspeed@GLIBC_2.2.5`,
    // which this toolchain's linker resolves to a call that crashes (seen
    // with glibc 2.36 and rust-lld). The input speed follows the output's.
    t.control_flags.remove(ControlFlags::CBAUD | ControlFlags::CIBAUD);
    t.control_flags |= ControlFlags::from_bits_retain(framing.speed as nix::libc::tcflag_t);
    t.control_flags |= ControlFlags::CS8 | ControlFlags::CREAD | ControlFlags::CLOCAL;
    // SPACE for stick parity; one stop bit.
    t.control_flags.remove(ControlFlags::PARODD | ControlFlags::CSTOPB | ControlFlags::PARENB | ControlFlags::CMSPAR);
    match framing.parity {
        Parity::None => t.input_flags = InputFlags::INPCK | InputFlags::IGNPAR | InputFlags::IGNBRK,
        // A pty carries bytes, not bits on a wire: it has no parity (the
        // kernel refuses PARENB once it has been set and dropped), so even
        // parity is set on a UART alone. A byte with a parity error is
        // dropped: its frame then fails its length or CRC, and no step is
        // taken on it.
        Parity::Even => {
            if !is_pty(&file) {
                t.control_flags |= ControlFlags::PARENB;
            }
            t.input_flags = InputFlags::INPCK | InputFlags::IGNPAR | InputFlags::IGNBRK;
        }
        // IGNPAR and ISTRIP clear: the wake-up bit is read as a marked
        // parity error, never dropped; IGNBRK keeps a break from reading
        // as a wake-up 00.
        Parity::Stick => {
            t.control_flags |= ControlFlags::PARENB | ControlFlags::CMSPAR;
            t.input_flags = InputFlags::INPCK | InputFlags::PARMRK | InputFlags::IGNBRK;
        }
    }
    t.control_chars[SpecialCharacterIndices::VMIN as usize] = 0;
    t.control_chars[SpecialCharacterIndices::VTIME as usize] = 0;
    tcsetattr(file.as_fd(), SetArg::TCSANOW, &t).map_err(|source| LineError::Settings { role, path: path.to_owned(), what: framing.described, source })?;
    // What the line queued before the cabinet listened answers nothing the
    // cabinet asked (a device's bytes before its first command; a floor's
    // polls while the cabinet was down, booting, or silent for failed
    // self-tests, H-55, which its host has long given up on): read now it
    // would run into the answer the other end waits on. It is discarded.
    tcflush(file.as_fd(), FlushArg::TCIFLUSH).map_err(|source| LineError::Flush { role, path: path.to_owned(), source })?;
    Ok((file, t))
}

/// Waits up to `timeout` for bytes on `file` and reads what is there into
/// `buf`: `None` when nothing came within it, else what was read (0 when
/// the line said it was ready and had nothing after all).
pub fn read_some(file: &mut File, buf: &mut [u8], timeout: Duration) -> std::io::Result<Option<usize>> {
    let ready = {
        let mut fds = [PollFd::new(file.as_fd(), PollFlags::POLLIN)];
        poll(&mut fds, PollTimeout::try_from(timeout).unwrap_or(PollTimeout::MAX)).map_err(std::io::Error::from)?
    };
    if ready == 0 {
        return Ok(None);
    }
    match file.read(buf) {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Ok(Some(0)),
        other => other.map(Some),
    }
}

/// A device's open serial line.
#[derive(Debug)]
pub struct SerialLine {
    file: File,
}

/// What the devices' lines are for, in their errors.
const DEVICE_PORT: &str = "device port";

impl SerialLine {
    /// Open `path` at 9,600 baud, 8 data bits, even parity, one stop bit
    /// (ID-003's line), raw.
    pub fn open_9600_8e1(path: &Path) -> Result<SerialLine, LineError> {
        let framing = Framing { role: DEVICE_PORT, speed: BaudRate::B9600, parity: Parity::Even, described: "9,600 baud, 8E1" };
        Ok(SerialLine { file: open_raw(path, framing)?.0 })
    }

    /// Open `path` at 9,600 baud, 8 data bits, no parity, one stop bit
    /// (a TCL printer's line as shipped), raw.
    pub fn open_9600_8n1(path: &Path) -> Result<SerialLine, LineError> {
        let framing = Framing { role: DEVICE_PORT, speed: BaudRate::B9600, parity: Parity::None, described: "9,600 baud, 8N1" };
        Ok(SerialLine { file: open_raw(path, framing)?.0 })
    }

    /// Write `bytes`.
    pub fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.file.write_all(bytes)?;
        self.file.flush()
    }

    /// Read what comes within `timeout`, up to `want` bytes in all
    /// (fewer when the time runs out).
    pub fn receive(&mut self, want: usize, timeout: Duration) -> std::io::Result<Vec<u8>> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::with_capacity(want);
        let mut buf = [0u8; 256];
        while got.len() < want {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            let Some(n) = read_some(&mut self.file, &mut buf[..(want - got.len()).min(256)], left)? else { break };
            got.extend_from_slice(&buf[..n]);
        }
        Ok(got)
    }
}

/// Whether `file` is a pty's cabinet end (a Unix 98 pty slave: character
/// device majors 136 to 143).
fn is_pty(file: &File) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    file.metadata().is_ok_and(|m| m.file_type().is_char_device() && (136..=143).contains(&nix::sys::stat::major(m.rdev())))
}

/// A pty pair standing in for a serial cable: the master (the far end: a
/// SAS host, a device's emulator, a test) and the slave's path (the
/// cabinet's port). The slave stays open for the pair's life, raw, so
/// bytes written before the cabinet opens it are neither echoed nor
/// cooked, and the master never reads EIO while the cabinet restarts.
#[derive(Debug)]
pub struct Pty {
    pub master: File,
    pub path: PathBuf,
    _slave: OwnedFd,
}

impl Pty {
    pub fn open() -> std::io::Result<Pty> {
        let pair = nix::pty::openpty(None, None).map_err(std::io::Error::from)?;
        let path = nix::unistd::ttyname(pair.slave.as_fd()).map_err(std::io::Error::from)?;
        for fd in [pair.master.as_fd(), pair.slave.as_fd()] {
            let mut t = tcgetattr(fd).map_err(std::io::Error::from)?;
            cfmakeraw(&mut t);
            tcsetattr(fd, SetArg::TCSANOW, &t).map_err(std::io::Error::from)?;
        }
        Ok(Pty { master: File::from(pair.master), path, _slave: pair.slave })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framing(role: &'static str, speed: BaudRate, parity: Parity) -> Framing {
        Framing { role, speed, parity, described: "test settings" }
    }

    /// Every line the cabinet opens is raw, 8 data bits, one stop bit, at
    /// its speed, reads returning at once; the SAS UART's stick parity
    /// starts at SPACE and marks errors in the input instead of dropping
    /// them (read back from the kernel, not from what was asked, except
    /// the parity bits a pty does not hold).
    #[test]
    fn each_framing_is_what_the_kernel_holds_after_the_open() {
        for (speed, parity) in
            [(BaudRate::B9600, Parity::Even), (BaudRate::B9600, Parity::None), (BaudRate::B19200, Parity::Stick), (BaudRate::B19200, Parity::None)]
        {
            let pty = Pty::open().unwrap();
            let (file, kept) = open_raw(&pty.path, framing("device port", speed, parity)).unwrap();
            let t = tcgetattr(file.as_fd()).unwrap();
            let case = format!("{speed:?} {parity:?}");
            assert_eq!(t.control_flags.bits() & ControlFlags::CBAUD.bits(), speed as nix::libc::tcflag_t, "{case}");
            assert!(t.control_flags.contains(ControlFlags::CS8 | ControlFlags::CREAD | ControlFlags::CLOCAL), "{case}");
            assert!(!t.control_flags.intersects(ControlFlags::CSTOPB | ControlFlags::PARODD), "{case}");
            assert_eq!(t.control_chars[SpecialCharacterIndices::VMIN as usize], 0, "{case}");
            assert_eq!(t.control_chars[SpecialCharacterIndices::VTIME as usize], 0, "{case}");
            assert!(!t.local_flags.intersects(nix::sys::termios::LocalFlags::ICANON | nix::sys::termios::LocalFlags::ECHO), "{case}: not raw");
            match parity {
                // A pty holds no parity bits (its driver drops them): the
                // settings kept for the wake-up bit's flips carry them.
                Parity::Stick => {
                    assert!(kept.control_flags.contains(ControlFlags::PARENB | ControlFlags::CMSPAR), "{case}");
                    assert!(!kept.control_flags.contains(ControlFlags::PARODD), "{case}: SPACE first");
                    assert!(t.input_flags.contains(InputFlags::INPCK | InputFlags::PARMRK), "{case}");
                    assert!(!t.input_flags.intersects(InputFlags::IGNPAR | InputFlags::ISTRIP), "{case}: the wake-up bit would be lost");
                }
                // A pty has no parity to set: even parity is a UART's alone.
                Parity::Even | Parity::None => {
                    assert!(!t.control_flags.intersects(ControlFlags::PARENB | ControlFlags::CMSPAR), "{case}");
                    assert!(t.input_flags.contains(InputFlags::IGNPAR), "{case}");
                }
            }
        }
    }

    /// A port that is absent or not a serial line is named, with what it
    /// is for.
    #[test]
    fn a_port_that_cannot_be_a_line_is_named_with_its_role() {
        let missing = Path::new("/dev/no-such-port-here");
        let e = open_raw(missing, framing("SAS port", BaudRate::B19200, Parity::Stick)).unwrap_err();
        assert!(matches!(e, LineError::Open { .. }));
        assert!(e.to_string().starts_with("SAS port /dev/no-such-port-here: cannot open it"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("not-a-tty");
        std::fs::write(&file, b"x").unwrap();
        let e = open_raw(&file, framing("device port", BaudRate::B9600, Parity::Even)).unwrap_err();
        assert!(matches!(e, LineError::NotSerial { .. }));
        assert!(e.to_string().starts_with(&format!("device port {}: not a serial line", file.display())), "{e}");
    }
}
