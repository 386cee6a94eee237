//! The SAS host's end, for labs and the tests (`egm-sas-host`): it sends
//! polls with the wake-up bit on their first byte, reads the EGM's reply
//! as one burst, checks its CRC, and keeps the host's half of the link
//! (a repeated poll is a retry; anything else acknowledges). It is written
//! from the digest, not from the EGM's code: framing, CRC and BCD are the
//! only parts it shares, and those are checked against the digest's
//! worked frames.

use std::time::{Duration, Instant};

use crate::transport::SerialLine;
use crate::wire::{Decoder, WireByte};

/// How long the host waits for a reply's first byte (hosts give up at
/// about 20 ms; a generous 100 ms here, so a slow test machine is not a
/// failure of the link) and the silence that ends a reply.
pub const FIRST_BYTE: Duration = Duration::from_millis(100);
pub const END_OF_REPLY: Duration = Duration::from_millis(10);

/// The reference host on one line.
#[derive(Debug)]
pub struct Host {
    line: SerialLine,
    decoder: Decoder,
    /// Chirps seen (bytes with the wake-up bit from the EGM).
    pub chirps: u64,
    /// How long the last reply took to start, microseconds.
    pub last_reply_start_us: Option<u64>,
    /// The longest silence between two bytes of the last reply, as read
    /// (bytes read together count as back to back), microseconds.
    pub last_reply_gap_us: u64,
    /// When the last message's last byte was written and its reply's first
    /// byte read, on the machine's monotonic clock (microseconds; the
    /// port's own times of the same poll compare with them).
    pub last_sent_at_us: u64,
    pub last_reply_at_us: Option<u64>,
}

/// What a poll got back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Nothing within the wait.
    None,
    /// Bytes (a one-byte exception, an ACK, a NACK, or a frame).
    Bytes(Vec<u8>),
}

impl Reply {
    pub fn bytes(&self) -> &[u8] {
        match self {
            Reply::None => &[],
            Reply::Bytes(b) => b,
        }
    }
}

impl Host {
    pub fn new(line: SerialLine) -> Host {
        Host { line, decoder: Decoder::new(), chirps: 0, last_reply_start_us: None, last_reply_gap_us: 0, last_sent_at_us: 0, last_reply_at_us: None }
    }

    /// Sends a message (its first byte marked) and reads the reply.
    pub fn send(&mut self, message: &[u8]) -> std::io::Result<Reply> {
        self.drain()?;
        self.line.send_message(message)?;
        let sent = Instant::now();
        self.last_sent_at_us = crate::scheduling::monotonic_us();
        self.last_reply_at_us = None;
        self.last_reply_start_us = None;
        self.last_reply_gap_us = 0;
        let mut got = Vec::new();
        let mut buf = [0u8; 256];
        let mut last = Instant::now();
        loop {
            let wait = if got.is_empty() { FIRST_BYTE.saturating_sub(sent.elapsed()) } else { END_OF_REPLY.saturating_sub(last.elapsed()) };
            if wait.is_zero() {
                break;
            }
            let n = self.line.read(&mut buf, wait.min(Duration::from_millis(2)))?;
            for &b in buf.get(..n).unwrap_or_default() {
                match self.decoder.push(b) {
                    Ok(Some(WireByte { wakeup: true, .. })) => self.chirps += 1,
                    Ok(Some(WireByte { value, .. })) => {
                        if got.is_empty() {
                            self.last_reply_at_us = Some(crate::scheduling::monotonic_us());
                            self.last_reply_start_us = Some(u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX));
                        } else {
                            self.last_reply_gap_us = self.last_reply_gap_us.max(u64::try_from(last.elapsed().as_micros()).unwrap_or(u64::MAX));
                        }
                        got.push(value);
                        last = Instant::now();
                    }
                    Ok(None) | Err(_) => {}
                }
            }
        }
        Ok(if got.is_empty() { Reply::None } else { Reply::Bytes(got) })
    }

    /// Whatever is waiting on the line (chirps, a late reply) is read
    /// and dropped.
    fn drain(&mut self) -> std::io::Result<()> {
        let mut buf = [0u8; 256];
        loop {
            let n = self.line.read(&mut buf, Duration::ZERO)?;
            if n == 0 {
                return Ok(());
            }
            for &b in buf.get(..n).unwrap_or_default() {
                if let Ok(Some(WireByte { wakeup: true, .. })) = self.decoder.push(b) {
                    self.chirps += 1;
                }
            }
        }
    }

    /// A sync poll: no reply expected.
    pub fn sync(&mut self) -> std::io::Result<()> {
        self.drain()?;
        self.line.send_message(&[0x80])
    }

    /// A general poll to `address`: the exception code (0 for none), or
    /// the frame of a delayed or real-time reply.
    pub fn general_poll(&mut self, address: u8) -> std::io::Result<Reply> {
        self.send(&[0x80 | address])
    }

    /// A global long poll (address 0: every EGM on the line acts on it,
    /// none answers), sealed with its CRC: a progressive broadcast (80,
    /// 86), the clock (7F).
    pub fn broadcast(&mut self, command: u8, data: &[u8]) -> std::io::Result<()> {
        self.drain()?;
        let mut frame = vec![0x00, command];
        frame.extend_from_slice(data);
        self.line.send_message(&crate::crc::sealed(&frame))
    }

    /// A long poll with no data and no CRC (type R).
    pub fn read_poll(&mut self, address: u8, command: u8) -> std::io::Result<Reply> {
        self.send(&[address, command])
    }

    /// A long poll with data, sealed with its CRC.
    pub fn long_poll(&mut self, address: u8, command: u8, data: &[u8]) -> std::io::Result<Reply> {
        let mut frame = vec![address, command];
        frame.extend_from_slice(data);
        self.send(&crate::crc::sealed(&frame))
    }

    /// A variable-length long poll: its length byte, then the data.
    pub fn variable_poll(&mut self, address: u8, command: u8, data: &[u8]) -> std::io::Result<Reply> {
        let len = u8::try_from(data.len()).map_err(|_| std::io::Error::other("a variable poll's data is at most 255 bytes"))?;
        let mut with_len = vec![len];
        with_len.extend_from_slice(data);
        self.long_poll(address, command, &with_len)
    }

    /// Every exception the EGM has, in the order it gives them, each
    /// acknowledged by a sync poll (the same general poll again would ask
    /// for it again).
    pub fn drain_exceptions(&mut self, address: u8) -> std::io::Result<Vec<u8>> {
        let mut codes = Vec::new();
        loop {
            let reply = self.general_poll(address)?;
            self.sync()?;
            match reply {
                Reply::Bytes(b) if b.len() == 1 && b[0] != 0 => codes.push(b[0]),
                Reply::Bytes(b) if b.len() > 1 && b.get(1) == Some(&0xFF) => codes.extend(b.get(2).copied()),
                _ => return Ok(codes),
            }
        }
    }
}
