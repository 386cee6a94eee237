//! A device's serial line (issue 70): a UART at the device's speed and
//! parity, raw, its reads bounded by a timeout. A pty (a test's, or the
//! emulators') takes the same settings and carries the bytes.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::termios::{BaudRate, ControlFlags, FlushArg, InputFlags, SetArg, SpecialCharacterIndices, cfmakeraw, tcflush, tcgetattr, tcsetattr};

/// Why a device's port cannot be used: a clear boot error naming it.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error("device port {path}: cannot open it: {source}")]
    Open { path: PathBuf, source: std::io::Error },
    #[error("device port {path}: not a serial line (termios refused: {source})")]
    NotSerial { path: PathBuf, source: nix::Error },
    #[error("device port {path}: cannot set {what}: {source}")]
    Settings { path: PathBuf, what: &'static str, source: nix::Error },
    #[error("device port {path}: cannot discard what was queued before it opened: {source}")]
    Flush { path: PathBuf, source: nix::Error },
}

/// A line's parity bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Parity {
    None,
    Even,
}

/// An open serial line.
#[derive(Debug)]
pub struct SerialLine {
    file: File,
}

impl SerialLine {
    /// Open `path` at 9,600 baud, 8 data bits, even parity, one stop bit
    /// (ID-003's line), raw.
    pub fn open_9600_8e1(path: &Path) -> Result<SerialLine, LineError> {
        SerialLine::open_9600(path, Parity::Even)
    }

    /// Open `path` at 9,600 baud, 8 data bits, no parity, one stop bit
    /// (a TCL printer's line as shipped), raw.
    pub fn open_9600_8n1(path: &Path) -> Result<SerialLine, LineError> {
        SerialLine::open_9600(path, Parity::None)
    }

    fn open_9600(path: &Path, parity: Parity) -> Result<SerialLine, LineError> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(nix::fcntl::OFlag::O_NOCTTY.bits())
            .open(path)
            .map_err(|source| LineError::Open { path: path.to_owned(), source })?;
        let mut t = tcgetattr(file.as_fd()).map_err(|source| LineError::NotSerial { path: path.to_owned(), source })?;
        cfmakeraw(&mut t);
        // The speed in the control flags' bits (as the SAS line sets it:
        // not through cfsetspeed's versioned symbol).
        t.control_flags.remove(ControlFlags::CBAUD | ControlFlags::CIBAUD);
        t.control_flags |= ControlFlags::from_bits_retain(BaudRate::B9600 as nix::libc::tcflag_t);
        t.control_flags |= ControlFlags::CS8 | ControlFlags::CREAD | ControlFlags::CLOCAL;
        t.control_flags.remove(ControlFlags::PARODD | ControlFlags::CSTOPB | ControlFlags::PARENB);
        // A pty carries bytes, not bits on a wire: it has no parity (the
        // kernel refuses PARENB once it has been set and dropped), so
        // even parity is set on a UART alone.
        if parity == Parity::Even && !is_pty(&file) {
            t.control_flags |= ControlFlags::PARENB;
        }
        // A byte with a parity error is dropped: its frame then fails its
        // length or CRC, and no step is taken on it.
        t.input_flags = InputFlags::INPCK | InputFlags::IGNPAR | InputFlags::IGNBRK;
        t.control_chars[SpecialCharacterIndices::VMIN as usize] = 0;
        t.control_chars[SpecialCharacterIndices::VTIME as usize] = 0;
        let what = if parity == Parity::Even { "9,600 baud, 8E1" } else { "9,600 baud, 8N1" };
        tcsetattr(file.as_fd(), SetArg::TCSANOW, &t).map_err(|source| LineError::Settings { path: path.to_owned(), what, source })?;
        // Bytes the device sent before the cabinet opened the line answer
        // nothing the cabinet asked: read as the reply to its first
        // command they would misstate the device. They are discarded.
        tcflush(file.as_fd(), FlushArg::TCIFLUSH).map_err(|source| LineError::Flush { path: path.to_owned(), source })?;
        Ok(SerialLine { file })
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
            let ready = {
                let mut fds = [PollFd::new(self.file.as_fd(), PollFlags::POLLIN)];
                poll(&mut fds, PollTimeout::try_from(left).unwrap_or(PollTimeout::MAX)).map_err(std::io::Error::from)?
            };
            if ready == 0 {
                break;
            }
            let n = match self.file.read(&mut buf[..(want - got.len()).min(256)]) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => 0,
                other => other?,
            };
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
