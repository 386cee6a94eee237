//! The serial line under a SAS port (sas.md §1.2, §1.7): one type, two
//! kinds, one byte grammar on receive.
//!
//! - [`Line::Uart`]: a real UART. 19,200 baud, 8 data bits, stick parity
//!   (`PARENB | CMSPAR`): SPACE for every reply, MARK for the one-byte
//!   chirp, drained before and after each parity change. On receive
//!   `INPCK | PARMRK` (`IGNPAR` and `ISTRIP` clear): a byte with the
//!   wake-up bit is a SPACE-parity error and reads `FF 00 b`, a data `FF`
//!   reads `FF FF`; `IGNBRK` keeps a break from reading as a wake-up 00.
//! - [`Line::Marked`]: a pty, which cannot carry a 9th bit: the bit is
//!   written in-band in the same grammar, both ways (`FF 00 b` a byte with
//!   the wake-up bit, `FF FF` a data `FF`). The EGM's replies go out with
//!   their `FF`s doubled, its chirp as `FF 00 address`.
//!
//! Either way what is read goes through the one [`crate::wire::Decoder`].

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::termios::{
    BaudRate, ControlFlags, FlushArg, InputFlags, SetArg, SpecialCharacterIndices, Termios, cfmakeraw, tcdrain, tcflush, tcgetattr, tcsetattr,
};

/// Which kind of line a port is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Line {
    /// A UART with stick parity carrying the wake-up bit.
    #[default]
    Uart,
    /// A pty (tests, labs, a bridge to a host library): the wake-up bit
    /// written in-band.
    Marked,
}

/// A port that cannot be used, named.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error("SAS port {path}: cannot open it: {source}")]
    Open { path: PathBuf, source: std::io::Error },
    #[error("SAS port {path}: not a serial line (termios refused: {source})")]
    NotSerial { path: PathBuf, source: nix::Error },
    #[error("SAS port {path}: cannot set 19,200 baud, 8 bits, stick parity: {source}")]
    Settings { path: PathBuf, source: nix::Error },
    #[error("SAS port {path}: cannot discard what was queued before it opened: {source}")]
    Flush { path: PathBuf, source: nix::Error },
}

/// One open serial line.
#[derive(Debug)]
pub struct SerialLine {
    file: File,
    line: Line,
    /// The line's settings (the UART flips PARODD around a chirp).
    termios: Option<Termios>,
}

impl SerialLine {
    /// Opens `path` as a SAS line of kind `line`.
    pub fn open(path: &Path, line: Line) -> Result<SerialLine, LineError> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(nix::fcntl::OFlag::O_NOCTTY.bits())
            .open(path)
            .map_err(|source| LineError::Open { path: path.to_owned(), source })?;
        let mut t = tcgetattr(file.as_fd()).map_err(|source| LineError::NotSerial { path: path.to_owned(), source })?;
        cfmakeraw(&mut t);
        let settings = |source| LineError::Settings { path: path.to_owned(), source };
        // 19,200 baud in the control flags' speed bits. Not through
        // cfsetspeed(): the `libc` crate binds it to the versioned symbol
        // `cfsetspeed@GLIBC_2.2.5`, which this toolchain's linker resolves
        // to a call that crashes (seen with glibc 2.36 and rust-lld).
        t.control_flags.remove(ControlFlags::CBAUD);
        t.control_flags |= ControlFlags::from_bits_retain(BaudRate::B19200 as nix::libc::tcflag_t);
        // Reads return at once; the port's loop waits with poll().
        t.control_chars[SpecialCharacterIndices::VMIN as usize] = 0;
        t.control_chars[SpecialCharacterIndices::VTIME as usize] = 0;
        if line == Line::Uart {
            t.control_flags |= ControlFlags::CS8 | ControlFlags::CREAD | ControlFlags::CLOCAL | ControlFlags::PARENB | ControlFlags::CMSPAR;
            // SPACE: PARODD clear.
            t.control_flags.remove(ControlFlags::PARODD);
            t.input_flags = InputFlags::INPCK | InputFlags::PARMRK | InputFlags::IGNBRK;
        }
        tcsetattr(file.as_fd(), SetArg::TCSANOW, &t).map_err(settings)?;
        // What the port queued before this cabinet listened is discarded
        // (sas.md §1.2: a host that got no reply in time has moved on).
        // A poll addressed to the cabinet while it was down, booting or
        // silent for failed self-tests (H-55) is stale: answered now, its
        // replies would run into the answer to the poll the host is
        // waiting on, and a silent cabinet would speak after all.
        tcflush(file.as_fd(), FlushArg::TCIFLUSH).map_err(|source| LineError::Flush { path: path.to_owned(), source })?;
        Ok(SerialLine { file, line, termios: (line == Line::Uart).then_some(t) })
    }

    /// A line over an open pty master (the reference host's end, or a
    /// test's): marked.
    pub fn marked(file: File) -> SerialLine {
        SerialLine { file, line: Line::Marked, termios: None }
    }

    pub fn line(&self) -> Line {
        self.line
    }

    /// Waits up to `timeout` for bytes and reads what is there (0 when
    /// nothing came).
    pub fn read(&mut self, buf: &mut [u8], timeout: Duration) -> std::io::Result<usize> {
        let ms = PollTimeout::try_from(timeout).unwrap_or(PollTimeout::MAX);
        let ready = {
            let mut fds = [PollFd::new(self.file.as_fd(), PollFlags::POLLIN)];
            poll(&mut fds, ms).map_err(std::io::Error::from)?
        };
        if ready == 0 {
            return Ok(0);
        }
        match self.file.read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Ok(0),
            // A pty whose other end is closed: nothing to read (the line
            // is pulled), not a fault of this port.
            Err(e) if e.raw_os_error() == Some(nix::libc::EIO) => {
                std::thread::sleep(timeout);
                Ok(0)
            }
            other => other,
        }
    }

    /// Writes bytes exactly as given, in one burst.
    pub fn write_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.file.write_all(bytes)?;
        self.file.flush()
    }

    /// One reply, wake-up bit clear, in one burst.
    pub fn send(&mut self, reply: &[u8]) -> std::io::Result<()> {
        match self.line {
            Line::Uart => self.write_raw(reply),
            Line::Marked => self.write_raw(&escape(reply)),
        }
    }

    /// A host's message (the reference host's side of the line): its
    /// first byte with the wake-up bit (MARK on a UART, drained before the
    /// rest goes with SPACE; `FF 00 b` on a marked line), the rest without.
    pub fn send_message(&mut self, message: &[u8]) -> std::io::Result<()> {
        let Some((&first, rest)) = message.split_first() else { return Ok(()) };
        match (self.line, self.termios.clone()) {
            (Line::Uart, Some(mut t)) => {
                t.control_flags.insert(ControlFlags::PARODD);
                tcsetattr(self.file.as_fd(), SetArg::TCSANOW, &t).map_err(std::io::Error::from)?;
                self.file.write_all(&[first])?;
                tcdrain(self.file.as_fd()).map_err(std::io::Error::from)?;
                t.control_flags.remove(ControlFlags::PARODD);
                tcsetattr(self.file.as_fd(), SetArg::TCSANOW, &t).map_err(std::io::Error::from)?;
                self.write_raw(rest)
            }
            _ => self.write_raw(&crate::wire::mark_message(message)),
        }
    }

    /// The chirp: the address with the wake-up bit (MARK parity on a
    /// UART, drained before and after so no other byte leaves with it).
    pub fn chirp(&mut self, address: u8) -> std::io::Result<()> {
        match (self.line, self.termios.clone()) {
            (Line::Uart, Some(mut t)) => {
                let fd = self.file.as_fd();
                tcdrain(fd).map_err(std::io::Error::from)?;
                t.control_flags.insert(ControlFlags::PARODD);
                tcsetattr(fd, SetArg::TCSANOW, &t).map_err(std::io::Error::from)?;
                self.file.write_all(&[address])?;
                tcdrain(self.file.as_fd()).map_err(std::io::Error::from)?;
                t.control_flags.remove(ControlFlags::PARODD);
                tcsetattr(self.file.as_fd(), SetArg::TCSANOW, &t).map_err(std::io::Error::from)
            }
            _ => self.write_raw(&[0xFF, 0x00, address]),
        }
    }
}

/// Bytes without the wake-up bit in the marked grammar: `FF` doubled.
pub fn escape(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 2);
    for &b in bytes {
        out.push(b);
        if b == 0xFF {
            out.push(0xFF);
        }
    }
    out
}

/// A pty pair for a marked line: the master (the host's end, or a
/// test's) and the slave's path (the cabinet's `port`). The slave stays
/// open for the pair's life, raw, so bytes written before the cabinet
/// opens it are neither echoed nor cooked, and the master never reads EIO
/// while the cabinet restarts.
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

    /// Polls written while no cabinet listened (down, booting, or silent
    /// for failed self-tests, H-55) are not read by the line that opens
    /// after them; what comes after the open is read as sent.
    #[test]
    fn a_line_opens_without_what_was_queued_before_it() {
        let pty = Pty::open().unwrap();
        let mut host = SerialLine::marked(pty.master.try_clone().unwrap());
        for command in [0x11, 0x1F, 0x51, 0x54] {
            host.send_message(&[0x01, command]).unwrap();
        }
        let mut egm = SerialLine::open(&pty.path, Line::Marked).unwrap();
        let mut buf = [0u8; 64];
        assert_eq!(egm.read(&mut buf, Duration::from_millis(50)).unwrap(), 0, "a stale poll was read");
        host.send_message(&[0x01, 0x11]).unwrap();
        let n = egm.read(&mut buf, Duration::from_millis(500)).unwrap();
        assert_eq!(buf.get(..n), Some(&[0xFF, 0x00, 0x01, 0x11][..]));
    }
}
