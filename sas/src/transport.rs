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

use std::fs::File;
use std::io::Write;
use std::os::fd::AsFd;
use std::path::Path;
use std::time::Duration;

use nix::sys::termios::{BaudRate, ControlFlags, SetArg, Termios, tcdrain, tcsetattr};
use peripherals::serial::{Framing, Parity};
pub use peripherals::serial::{LineError, Pty};

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

/// What a SAS port is, in its errors.
const SAS_PORT: &str = "SAS port";

/// One open serial line.
#[derive(Debug)]
pub struct SerialLine {
    file: File,
    line: Line,
    /// The line's settings (the UART flips PARODD around a chirp).
    termios: Option<Termios>,
}

impl SerialLine {
    /// Opens `path` as a SAS line of kind `line`: 19,200 baud, 8 data
    /// bits, raw, through the cabinet's one way of opening a serial line
    /// (`peripherals::serial::open_raw`), which also discards what the
    /// port queued before this cabinet listened (sas.md §1.2: a host that
    /// got no reply in time has moved on; a poll addressed to the cabinet
    /// while it was down, booting or silent for failed self-tests, H-55,
    /// answered now, would run into the answer the host waits on).
    pub fn open(path: &Path, line: Line) -> Result<SerialLine, LineError> {
        let framing = match line {
            Line::Uart => Framing { role: SAS_PORT, speed: BaudRate::B19200, parity: Parity::Stick, described: "19,200 baud, 8 bits, stick parity" },
            // A pty cannot carry a 9th bit: the bit goes in-band.
            Line::Marked => Framing { role: SAS_PORT, speed: BaudRate::B19200, parity: Parity::None, described: "19,200 baud, 8 bits" },
        };
        let (file, t) = peripherals::serial::open_raw(path, framing)?;
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
        match peripherals::serial::read_some(&mut self.file, buf, timeout) {
            Ok(n) => Ok(n.unwrap_or(0)),
            // A pty whose other end is closed: nothing to read (the line
            // is pulled), not a fault of this port.
            Err(e) if e.raw_os_error() == Some(nix::libc::EIO) => {
                std::thread::sleep(timeout);
                Ok(0)
            }
            Err(e) => Err(e),
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
