//! What ID-003 frames say. The controller (the cabinet) sends commands:
//! status requests on its poll, operation commands (reset, stack, return,
//! hold, wait, and the ACK that answers a vend valid) and settings (which
//! denominations are taken, inhibit); the acceptor answers each with a
//! status, an ACK (0x50) or the setting echoed.
//!
//! A note's life as the acceptor tells it: idling → accepting → escrow
//! (with its denomination code, or 0x6F and a ticket's barcode) → the
//! controller says stack or return → stacking → vend valid (the note is
//! past the point of return: the controller ACKs it, and this is where a
//! credit is due) → stacked → idling. The codes are the protocol's; their
//! names and this table are the project's own words.

use super::frame::{Frame, FrameError};
pub use crate::acceptor::{Denomination, RejectReason};

/// The escrow code of a ticket (its barcode follows in the data).
pub const TICKET: u8 = 0x6F;

/// A command from the controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The poll: the acceptor answers with its status.
    StatusRequest,
    /// Start over (power-up statuses follow, then initialize).
    Reset,
    /// Stack the escrowed note or ticket (Stack-1; Stack-2 differs only in
    /// when the acceptor reports vend valid, and is not used here).
    Stack,
    /// Give the escrowed note or ticket back.
    Return,
    /// Keep it in escrow (the host is still deciding: a ticket's
    /// validation with the floor); sent again within the hold time.
    Hold,
    /// The controller's answer to a vend valid: the credit is taken.
    Ack,
    /// Which escrow codes the acceptor takes: bit `n` of the 16 set
    /// inhibits denomination code `0x61 + n` (the protocol's
    /// enable/disable setting: a set bit disables).
    Denominations { disabled: u16 },
    /// Inhibit (`true`: no note or ticket is taken) or enable the acceptor.
    Inhibit(bool),
}

impl Command {
    pub fn code(&self) -> u8 {
        match self {
            Command::StatusRequest => 0x11,
            Command::Reset => 0x40,
            Command::Stack => 0x41,
            Command::Return => 0x43,
            Command::Hold => 0x44,
            Command::Ack => 0x50,
            Command::Denominations { .. } => 0xC0,
            Command::Inhibit(_) => 0xC3,
        }
    }

    /// The frame on the wire.
    pub fn frame(&self) -> Frame {
        let data = match self {
            Command::Denominations { disabled } => disabled.to_le_bytes().to_vec(),
            Command::Inhibit(on) => vec![u8::from(*on)],
            _ => Vec::new(),
        };
        Frame { code: self.code(), data }
    }
}

impl RejectReason {
    fn of(code: u8) -> RejectReason {
        match code {
            0x71 => RejectReason::Insertion,
            0x72 => RejectReason::Magnetic,
            0x73 => RejectReason::ResidualAtHead,
            0x74 => RejectReason::Calibration,
            0x75 => RejectReason::Conveying,
            0x76 => RejectReason::Discrimination,
            0x77 => RejectReason::PhotoPattern,
            0x78 => RejectReason::PhotoLevel,
            0x79 => RejectReason::Inhibited,
            0x7B => RejectReason::Operation,
            0x7C => RejectReason::ResidualAtStacker,
            0x7D => RejectReason::Length,
            0x7E => RejectReason::PhotoPatternTwo,
            0x7F => RejectReason::Feature,
            other => RejectReason::Other(other),
        }
    }
}

/// A status from the acceptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Idling,
    Accepting,
    Escrow(Denomination),
    Stacking,
    /// The note is past the point of return: the controller ACKs it.
    VendValid,
    Stacked,
    Rejecting(RejectReason),
    Returning,
    Holding,
    /// Inhibited by the controller.
    Disabled,
    Initializing,
    PowerUp,
    /// Powered up with a note in the acceptor's path (it is returned).
    PowerUpNoteInAcceptor,
    /// Powered up with a note in the stacker's path (it is stacked: the
    /// controller learns whether it was credited from its own records).
    PowerUpNoteInStacker,
    StackerFull,
    StackerOpen,
    JamInAcceptor,
    JamInStacker,
    Pause,
    Cheated,
    Failure(u8),
    CommunicationError,
    InvalidCommand,
    /// The acceptor's ACK of an operation command.
    Ack,
    /// A setting echoed back (its code and data).
    Setting {
        code: u8,
        data: Vec<u8>,
    },
}

/// A frame that is not a status this table reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    #[error(transparent)]
    Frame(#[from] FrameError),
    #[error("status {0:#04x} is not one the acceptor sends")]
    Unknown(u8),
    #[error("status {code:#04x} carries {len} bytes of data, where it carries {expected}")]
    Data { code: u8, len: usize, expected: &'static str },
    #[error("the escrowed ticket's barcode is not digits: {0:?}")]
    Barcode(Vec<u8>),
}

impl Status {
    /// Read a status frame.
    pub fn of(frame: &Frame) -> Result<Status, MessageError> {
        let data = frame.data.as_slice();
        let none = |s: Status| {
            if data.is_empty() { Ok(s) } else { Err(MessageError::Data { code: frame.code, len: data.len(), expected: "none" }) }
        };
        let one = |make: fn(u8) -> Status| match data {
            [b] => Ok(make(*b)),
            _ => Err(MessageError::Data { code: frame.code, len: data.len(), expected: "one" }),
        };
        match frame.code {
            0x11 => none(Status::Idling),
            0x12 => none(Status::Accepting),
            0x13 => match data {
                [TICKET, barcode @ ..] if !barcode.is_empty() => {
                    if barcode.iter().all(u8::is_ascii_digit) {
                        Ok(Status::Escrow(Denomination::Ticket(barcode.iter().map(|b| char::from(*b)).collect())))
                    } else {
                        Err(MessageError::Barcode(barcode.to_vec()))
                    }
                }
                [code] => Ok(Status::Escrow(Denomination::Note(*code))),
                _ => Err(MessageError::Data { code: frame.code, len: data.len(), expected: "a denomination code, or 0x6F and a barcode" }),
            },
            0x14 => none(Status::Stacking),
            0x15 => none(Status::VendValid),
            0x16 => none(Status::Stacked),
            0x17 => one(|b| Status::Rejecting(RejectReason::of(b))),
            0x18 => none(Status::Returning),
            0x19 => none(Status::Holding),
            0x1A => none(Status::Disabled),
            0x1B => none(Status::Initializing),
            0x40 => none(Status::PowerUp),
            0x41 => none(Status::PowerUpNoteInAcceptor),
            0x42 => none(Status::PowerUpNoteInStacker),
            0x43 => none(Status::StackerFull),
            0x44 => none(Status::StackerOpen),
            0x45 => none(Status::JamInAcceptor),
            0x46 => none(Status::JamInStacker),
            0x47 => none(Status::Pause),
            0x48 => none(Status::Cheated),
            0x49 => one(Status::Failure),
            0x4A => none(Status::CommunicationError),
            0x4B => none(Status::InvalidCommand),
            0x50 => none(Status::Ack),
            code @ 0xC0..=0xCF => Ok(Status::Setting { code, data: data.to_vec() }),
            code => Err(MessageError::Unknown(code)),
        }
    }

    /// The frame an acceptor sends for this status (the emulator's side).
    pub fn frame(&self) -> Frame {
        let (code, data): (u8, Vec<u8>) = match self {
            Status::Idling => (0x11, vec![]),
            Status::Accepting => (0x12, vec![]),
            Status::Escrow(Denomination::Note(c)) => (0x13, vec![*c]),
            Status::Escrow(Denomination::Ticket(b)) => (0x13, std::iter::once(TICKET).chain(b.bytes()).collect()),
            Status::Stacking => (0x14, vec![]),
            Status::VendValid => (0x15, vec![]),
            Status::Stacked => (0x16, vec![]),
            Status::Rejecting(r) => (0x17, vec![reject_code(*r)]),
            Status::Returning => (0x18, vec![]),
            Status::Holding => (0x19, vec![]),
            Status::Disabled => (0x1A, vec![]),
            Status::Initializing => (0x1B, vec![]),
            Status::PowerUp => (0x40, vec![]),
            Status::PowerUpNoteInAcceptor => (0x41, vec![]),
            Status::PowerUpNoteInStacker => (0x42, vec![]),
            Status::StackerFull => (0x43, vec![]),
            Status::StackerOpen => (0x44, vec![]),
            Status::JamInAcceptor => (0x45, vec![]),
            Status::JamInStacker => (0x46, vec![]),
            Status::Pause => (0x47, vec![]),
            Status::Cheated => (0x48, vec![]),
            Status::Failure(f) => (0x49, vec![*f]),
            Status::CommunicationError => (0x4A, vec![]),
            Status::InvalidCommand => (0x4B, vec![]),
            Status::Ack => (0x50, vec![]),
            Status::Setting { code, data } => (*code, data.clone()),
        };
        Frame { code, data }
    }

    /// Read a status from the bytes at the start of `bytes`: the status
    /// and how many bytes its frame took.
    pub fn decode(bytes: &[u8]) -> Result<(Status, usize), MessageError> {
        let (frame, n) = Frame::decode(bytes)?;
        Ok((Status::of(&frame)?, n))
    }
}

fn reject_code(r: RejectReason) -> u8 {
    match r {
        RejectReason::Insertion => 0x71,
        RejectReason::Magnetic => 0x72,
        RejectReason::ResidualAtHead => 0x73,
        RejectReason::Calibration => 0x74,
        RejectReason::Conveying => 0x75,
        RejectReason::Discrimination => 0x76,
        RejectReason::PhotoPattern => 0x77,
        RejectReason::PhotoLevel => 0x78,
        RejectReason::Inhibited => 0x79,
        RejectReason::Operation => 0x7B,
        RejectReason::ResidualAtStacker => 0x7C,
        RejectReason::Length => 0x7D,
        RejectReason::PhotoPatternTwo => 0x7E,
        RejectReason::Feature => 0x7F,
        RejectReason::Other(c) => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The commands' frames as the protocol prints them (an independent
    /// CRC computation gave the same bytes).
    #[test]
    fn commands_frame_as_the_protocol_prints_them() {
        assert_eq!(Command::StatusRequest.frame().encode(), [0xFC, 0x05, 0x11, 0x27, 0x56]);
        assert_eq!(Command::Reset.frame().encode(), [0xFC, 0x05, 0x40, 0x2B, 0x15]);
        assert_eq!(Command::Ack.frame().encode(), [0xFC, 0x05, 0x50, 0xAA, 0x05]);
        assert_eq!(Command::Inhibit(true).frame(), Frame { code: 0xC3, data: vec![1] });
        assert_eq!(Command::Denominations { disabled: 0xFF81 }.frame(), Frame { code: 0xC0, data: vec![0x81, 0xFF] });
    }

    /// Every status the table names reads back from its own frame.
    #[test]
    fn every_status_reads_back_from_its_frame() {
        let all = [
            Status::Idling,
            Status::Accepting,
            Status::Escrow(Denomination::Note(0x63)),
            Status::Escrow(Denomination::Ticket("001234567890123456".into())),
            Status::Stacking,
            Status::VendValid,
            Status::Stacked,
            Status::Rejecting(RejectReason::Discrimination),
            Status::Rejecting(RejectReason::Other(0x7A)),
            Status::Returning,
            Status::Holding,
            Status::Disabled,
            Status::Initializing,
            Status::PowerUp,
            Status::PowerUpNoteInAcceptor,
            Status::PowerUpNoteInStacker,
            Status::StackerFull,
            Status::StackerOpen,
            Status::JamInAcceptor,
            Status::JamInStacker,
            Status::Pause,
            Status::Cheated,
            Status::Failure(0xA2),
            Status::CommunicationError,
            Status::InvalidCommand,
            Status::Ack,
            Status::Setting { code: 0xC3, data: vec![1] },
        ];
        for s in all {
            let bytes = s.frame().encode();
            assert_eq!(Status::decode(&bytes), Ok((s.clone(), bytes.len())), "{s:?}");
        }
    }

    #[test]
    fn what_the_table_does_not_read_is_named() {
        assert_eq!(Status::of(&Frame::bare(0x9E)), Err(MessageError::Unknown(0x9E)));
        assert_eq!(Status::of(&Frame { code: 0x15, data: vec![1] }), Err(MessageError::Data { code: 0x15, len: 1, expected: "none" }));
        assert_eq!(Status::of(&Frame::bare(0x17)), Err(MessageError::Data { code: 0x17, len: 0, expected: "one" }));
        assert_eq!(Status::of(&Frame { code: 0x13, data: vec![TICKET, b'1', b'x'] }), Err(MessageError::Barcode(vec![b'1', b'x'])));
        assert!(matches!(Status::of(&Frame::bare(0x13)), Err(MessageError::Data { code: 0x13, len: 0, .. })));
        assert_eq!(Status::decode(&[0xFC, 0x05, 0x11, 0x00, 0x00]), Err(MessageError::Frame(FrameError::BadCrc { read: 0, computed: 0x5627 })));
    }
}
