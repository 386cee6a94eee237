//! A host's messages, assembled from the wire's bytes (sas.md §1.3–§1.5):
//! a byte with the wake-up bit starts a message (a general poll, a sync
//! poll, a long poll to this address or a global one); the rest of a long
//! poll's frame comes from its command's shape; its CRC is checked. A
//! wake-up byte mid-frame aborts the frame and starts another; a gap over
//! 5 ms between the bytes of a message discards it; a command this EGM
//! does not know gets no reply ("the gaming machine will simply ignore
//! the request").

use crate::wire::WireByte;

/// The longest silence between two bytes of one host message.
pub const MAX_GAP_US: u64 = 5_000;

/// What the host sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// A general poll to this address: the next exception (or 00).
    GeneralPoll,
    /// A sync poll, or a poll to another address: no reply; an implied ACK
    /// of this EGM's last reply, and activity on the link.
    Elsewhere,
    /// A long poll to this address, its CRC checked (type R carries none):
    /// the bytes after the command, before the CRC.
    LongPoll { command: u8, data: Vec<u8> },
    /// A global long poll (address 0), its CRC checked: acted on, never
    /// answered.
    Global { command: u8, data: Vec<u8> },
    /// A long poll to this address whose CRC does not check: a NACK.
    BadCrc { command: u8 },
    /// A long poll this EGM does not implement: ignored.
    Unknown { command: u8 },
}

/// How a long poll's frame is laid out after its address and command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// `addr cmd`: no data, no CRC.
    Read,
    /// `addr cmd data… CRC`, this many bytes in all.
    Fixed(usize),
    /// `addr cmd len data[len] CRC`.
    Variable,
}

/// The shape of each long poll this EGM answers (sas.md §1.3, §4–§8; the
/// lengths as the digest gives them, from ARI's long-poll table).
fn shape(command: u8) -> Option<Shape> {
    Some(match command {
        // Meters, credits, identity, the last bill, game lists, the
        // validation and ticket-in status, the clock, progressive wins.
        0x0F..=0x1A
        | 0x1B
        | 0x1C
        | 0x1E
        | 0x1F
        | 0x20
        | 0x2A..=0x2C
        | 0x31..=0x45
        | 0x48
        | 0x51
        | 0x54..=0x57
        | 0x70
        | 0x7E
        | 0x84
        | 0x85
        | 0x87
        | 0xB1
        | 0xB2 => Shape::Read,
        // Shutdown, startup, sound, the bill acceptor, maintenance;
        // hand-pay reset.
        0x01..=0x07 | 0x0A | 0x0B | 0x94 => Shape::Fixed(4),
        // Real-time event reporting on/off; ticket history.
        0x0E | 0x4D => Shape::Fixed(5),
        // ROM signature (seed 2 LE); the game delay (2 BCD, 100 ms);
        // hand-paid credits, meters, configuration, features and extended
        // information of game N (2 BCD).
        0x21 | 0x2E | 0x2D | 0x52 | 0x53 | 0xA0 | 0xB5 => Shape::Fixed(6),
        // Game N enabled or disabled (2 BCD, 1).
        0x09 => Shape::Fixed(7),
        // The bill denominations (4) and the acceptor's action (1).
        0x08 => Shape::Fixed(9),
        // AFT lock (code, condition, timeout 2 BCD).
        0x74 => Shape::Fixed(8),
        // Secure-enhanced validation ID (machine ID 3, sequence 3).
        0x4C => Shape::Fixed(10),
        // Set the clock (date 4, time 3); a progressive level's amount.
        0x7F | 0x80 => Shape::Fixed(11),
        // The system validation number for a cash-out.
        0x58 => Shape::Fixed(13),
        // Selected and extended meters, ticket redemption, AFT transfer
        // and registration, multiple progressive levels, a denomination's
        // meters.
        // The extended validation status, the ticket data.
        0x2F | 0x6F | 0xAF | 0x71..=0x73 | 0x7B | 0x7D | 0x86 | 0xB0 => Shape::Variable,
        _ => return None,
    })
}

/// The assembler of one EGM address's messages.
#[derive(Clone, Debug)]
pub struct Assembler {
    address: u8,
    /// The frame so far (address first); empty between messages.
    frame: Vec<u8>,
    /// Bytes to the next wake-up byte are another address's, or the rest
    /// of a frame already refused.
    skipping: bool,
    /// When the last byte came, in microseconds.
    last_us: u64,
}

/// An address a SAS EGM cannot have.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("SAS address {0} is outside 1..=127 (0 is the hosts' broadcast)")]
pub struct BadAddress(pub u8);

impl Assembler {
    pub fn new(address: u8) -> Result<Assembler, BadAddress> {
        if !(1..=127).contains(&address) {
            return Err(BadAddress(address));
        }
        Ok(Assembler { address, frame: Vec::new(), skipping: true, last_us: 0 })
    }

    pub fn address(&self) -> u8 {
        self.address
    }

    /// The next byte from the wire, read at `at_us` microseconds: a whole
    /// message when this byte completes one.
    pub fn push(&mut self, byte: WireByte, at_us: u64) -> Option<Frame> {
        let gap = at_us.saturating_sub(self.last_us);
        self.last_us = at_us;
        if byte.wakeup {
            // A new message; whatever was being assembled is abandoned.
            self.frame.clear();
            self.skipping = false;
            return match byte.value {
                0x80 => self.elsewhere(),
                v if v & 0x80 != 0 && v & 0x7F == self.address => {
                    self.skipping = true;
                    Some(Frame::GeneralPoll)
                }
                v if v & 0x80 != 0 => self.elsewhere(),
                v if v == 0 || v == self.address => {
                    self.frame.push(v);
                    None
                }
                _ => self.elsewhere(),
            };
        }
        if self.skipping || self.frame.is_empty() {
            return None;
        }
        if gap > MAX_GAP_US {
            // sas.md §1.5: a message with a gap over 5 ms is discarded.
            self.frame.clear();
            self.skipping = true;
            return None;
        }
        self.frame.push(byte.value);
        self.complete()
    }

    fn elsewhere(&mut self) -> Option<Frame> {
        self.skipping = true;
        Some(Frame::Elsewhere)
    }

    /// The frame, when its shape says it is whole.
    fn complete(&mut self) -> Option<Frame> {
        let command = self.frame[1];
        let global = self.frame[0] == 0;
        let Some(shape) = shape(command) else {
            self.skipping = true;
            self.frame.clear();
            return (!global).then_some(Frame::Unknown { command });
        };
        let total = match shape {
            Shape::Read if global => {
                // A read poll has no broadcast form.
                self.skipping = true;
                self.frame.clear();
                return None;
            }
            Shape::Read => 2,
            Shape::Fixed(n) => n,
            Shape::Variable => match self.frame.get(2) {
                Some(len) => 3 + usize::from(*len) + 2,
                None => return None,
            },
        };
        if self.frame.len() < total {
            return None;
        }
        let frame = std::mem::take(&mut self.frame);
        self.skipping = true;
        if shape == Shape::Read {
            return Some(Frame::LongPoll { command, data: Vec::new() });
        }
        if !crate::crc::checks(&frame) {
            // A bad global is dropped silently; our own is NACKed.
            return (!global).then_some(Frame::BadCrc { command });
        }
        let data = frame[2..frame.len() - 2].to_vec();
        Some(if global { Frame::Global { command, data } } else { Frame::LongPoll { command, data } })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host's bytes, 0.573 ms apart (one 11-bit character at 19,200
    /// baud), the first with its wake-up bit, from `start_us`.
    fn feed(a: &mut Assembler, bytes: &[u8], start_us: u64) -> Vec<Frame> {
        bytes.iter().enumerate().filter_map(|(i, &value)| a.push(WireByte { value, wakeup: i == 0 }, start_us + 573 * i as u64)).collect()
    }

    #[test]
    fn polls_to_this_address_and_to_others() {
        let mut a = Assembler::new(1).unwrap();
        assert_eq!(feed(&mut a, &[0x81], 0), [Frame::GeneralPoll]);
        assert_eq!(feed(&mut a, &[0x80], 10_000), [Frame::Elsewhere], "a sync poll");
        assert_eq!(feed(&mut a, &[0x82], 20_000), [Frame::Elsewhere], "another address's general poll");
        // Another address's long poll: its bytes are not ours, whatever they hold.
        assert_eq!(feed(&mut a, &[0x02, 0x1A], 30_000), [Frame::Elsewhere]);
        assert_eq!(feed(&mut a, &[0x01, 0x1A], 40_000), [Frame::LongPoll { command: 0x1A, data: vec![] }]);
        assert_eq!(Assembler::new(0).err(), Some(BadAddress(0)));
        assert_eq!(Assembler::new(128).err(), Some(BadAddress(128)));
    }

    #[test]
    fn a_long_poll_is_framed_by_its_shape_and_its_crc_checked() {
        let mut a = Assembler::new(1).unwrap();
        // sas.md §2: LP 2F, game 0000, meters 00 01 05 (variable).
        let lp2f = [0x01, 0x2F, 0x05, 0x00, 0x00, 0x00, 0x01, 0x05, 0x3A, 0xA1];
        assert_eq!(feed(&mut a, &lp2f, 0), [Frame::LongPoll { command: 0x2F, data: vec![0x05, 0x00, 0x00, 0x00, 0x01, 0x05] }]);
        // LP 21 with seed 0x1234 (fixed, 6 bytes).
        assert_eq!(feed(&mut a, &[0x01, 0x21, 0x34, 0x12, 0x0D, 0xA7], 20_000), [Frame::LongPoll { command: 0x21, data: vec![0x34, 0x12] }]);
        // One bit off in the CRC: a NACK.
        assert_eq!(feed(&mut a, &[0x01, 0x21, 0x34, 0x12, 0x0C, 0xA7], 40_000), [Frame::BadCrc { command: 0x21 }]);
        // The global LP 80 of the digest; a bad one is dropped silently.
        let lp80 = [0x00, 0x80, 0x01, 0x01, 0x00, 0x00, 0x12, 0x34, 0x56, 0x40, 0x86];
        assert_eq!(feed(&mut a, &lp80, 60_000), [Frame::Global { command: 0x80, data: vec![0x01, 0x01, 0x00, 0x00, 0x12, 0x34, 0x56] }]);
        let mut bad = lp80;
        bad[10] ^= 0x40;
        assert_eq!(feed(&mut a, &bad, 80_000), []);
        // An unknown command: no reply, and its bytes are skipped.
        assert_eq!(feed(&mut a, &[0x01, 0xE7, 0x01, 0x02], 100_000), [Frame::Unknown { command: 0xE7 }]);
        assert_eq!(feed(&mut a, &[0x81], 120_000), [Frame::GeneralPoll], "the link goes on");
    }

    #[test]
    fn a_wake_up_byte_aborts_a_frame_and_a_gap_over_5_ms_discards_it() {
        let mut a = Assembler::new(1).unwrap();
        // LP 21 cut after its seed's first byte by a general poll.
        let mut frames = feed(&mut a, &[0x01, 0x21, 0x34], 0);
        frames.extend(feed(&mut a, &[0x81], 2_000));
        assert_eq!(frames, [Frame::GeneralPoll]);
        // A gap of 5.1 ms inside a frame: discarded, nothing answered.
        assert_eq!(a.push(WireByte { value: 0x01, wakeup: true }, 10_000), None);
        assert_eq!(a.push(WireByte { value: 0x21, wakeup: false }, 10_573), None);
        assert_eq!(a.push(WireByte { value: 0x34, wakeup: false }, 15_700), None);
        assert_eq!(a.push(WireByte { value: 0x12, wakeup: false }, 16_273), None);
        assert_eq!(a.push(WireByte { value: 0x0D, wakeup: false }, 16_846), None);
        assert_eq!(a.push(WireByte { value: 0xA7, wakeup: false }, 17_419), None);
        // Exactly 5 ms is within the rule.
        assert_eq!(a.push(WireByte { value: 0x01, wakeup: true }, 30_000), None);
        assert_eq!(a.push(WireByte { value: 0x1A, wakeup: false }, 35_000), Some(Frame::LongPoll { command: 0x1A, data: vec![] }));
    }
}
