//! One SAS port of the cabinet (sas.md §1): the wire's bytes in, the
//! replies out, the link's implied acknowledgements, the exceptions and
//! the meters answered from the host's latest snapshot. Nothing here
//! blocks or reads critical memory: a reply is computed from what this
//! struct holds when the poll's last byte comes.

use crate::exceptions::Exceptions;
use crate::frame::{Assembler, BadAddress, Frame};
use crate::link::{Answered, Implied, Link};
use crate::meters::Snapshot;
use crate::wire::WireByte;

/// The EGM end of one SAS link.
#[derive(Clone, Debug)]
pub struct Egm {
    assembler: Assembler,
    link: Link,
    exceptions: Exceptions,
    snapshot: Snapshot,
    /// LP 01 (shutdown) clears it, LP 02 (startup) sets it: the host's
    /// word on whether the cabinet may be played.
    play_enabled: bool,
}

impl Egm {
    pub fn new(address: u8) -> Result<Egm, BadAddress> {
        Ok(Egm { assembler: Assembler::new(address)?, link: Link::new(), exceptions: Exceptions::new(), snapshot: Snapshot::default(), play_enabled: true })
    }

    /// The host's meters after a commit.
    pub fn publish(&mut self, snapshot: Snapshot) {
        self.snapshot = snapshot;
    }

    /// An event the floor is told of (sas.md §3's codes).
    pub fn raise(&mut self, code: u8) {
        self.exceptions.raise(code);
    }

    /// Whether the host has left play enabled (LP 01 / 02).
    pub fn play_enabled(&self) -> bool {
        self.play_enabled
    }

    /// What the general poll still has to tell (for critical memory).
    pub fn pending_exceptions(&self) -> Vec<u8> {
        self.exceptions.pending()
    }

    /// A byte from the wire at `at_us` microseconds: the reply to send,
    /// when it completes a poll that has one.
    pub fn on_byte(&mut self, byte: WireByte, at_us: u64) -> Option<Vec<u8>> {
        let frame = self.assembler.push(byte, at_us)?;
        self.on_frame(&frame)
    }

    fn on_frame(&mut self, frame: &Frame) -> Option<Vec<u8>> {
        match self.link.implied(frame) {
            Implied::Resend(reply) => return Some(reply),
            Implied::Ack(Answered::GeneralPoll) => self.exceptions.acked(),
            Implied::Ack(Answered::LongPoll(_)) | Implied::Nothing => {}
        }
        let address = self.assembler.address();
        match frame {
            Frame::GeneralPoll => {
                let reply = vec![self.exceptions.answer()];
                self.link.replied(Answered::GeneralPoll, reply.clone());
                Some(reply)
            }
            Frame::LongPoll { command, .. } => {
                let reply = match command {
                    // Shutdown and startup: an ACK (the address alone).
                    0x01 => {
                        self.play_enabled = false;
                        vec![address]
                    }
                    0x02 => {
                        self.play_enabled = true;
                        vec![address]
                    }
                    command => crate::meters::reply(address, *command, &self.snapshot)?,
                };
                self.link.replied(Answered::LongPoll(*command), reply.clone());
                Some(reply)
            }
            // A NACK: the address with its top bit.
            Frame::BadCrc { .. } => Some(vec![address | 0x80]),
            Frame::Elsewhere | Frame::Global { .. } | Frame::Unknown { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{Decoder, mark_message};

    /// A host writing into the test transport: each message in the marked
    /// grammar, its bytes 0.573 ms apart, messages 40 ms apart; what the
    /// EGM answered to each.
    struct Host {
        egm: Egm,
        decoder: Decoder,
        now_us: u64,
    }

    impl Host {
        fn send(&mut self, message: &[u8]) -> Option<Vec<u8>> {
            self.now_us += 40_000;
            let mut reply = None;
            for b in mark_message(message) {
                self.now_us += 573;
                if let Some(byte) = self.decoder.push(b).unwrap() {
                    reply = self.egm.on_byte(byte, self.now_us).or(reply);
                }
            }
            reply
        }
    }

    #[test]
    fn a_host_session_through_the_marked_transport() {
        let mut egm = Egm::new(1).unwrap();
        egm.publish(Snapshot { accounting_denom: 1, credit: 1_250, ..Snapshot::default() });
        egm.raise(0x11);
        egm.raise(0x51);
        let mut host = Host { egm, decoder: Decoder::new(), now_us: 0 };
        // The hand-pay pending flag first, again on a repeated poll.
        assert_eq!(host.send(&[0x81]), Some(vec![0x51]));
        assert_eq!(host.send(&[0x81]), Some(vec![0x51]), "an implied NACK: the same reply");
        // A long poll acknowledges it and is answered from the snapshot.
        assert_eq!(host.send(&[0x01, 0x1A]), Some(vec![0x01, 0x1A, 0x00, 0x00, 0x12, 0x50, 0x67, 0x08]));
        assert_eq!(host.send(&[0x81]), Some(vec![0x11]));
        // A sync poll acknowledges the door event; then nothing is left.
        assert_eq!(host.send(&[0x80]), None);
        assert_eq!(host.send(&[0x81]), Some(vec![0x00]));
        // Another address's polls get no reply.
        assert_eq!(host.send(&[0x82]), None);
        assert_eq!(host.send(&[0x02, 0x1A]), None);
        // Shutdown with its CRC: an ACK, and play disabled; startup again.
        assert_eq!(host.send(&crate::crc::sealed(&[0x01, 0x01])), Some(vec![0x01]));
        assert!(!host.egm.play_enabled());
        assert_eq!(host.send(&crate::crc::sealed(&[0x01, 0x02])), Some(vec![0x01]));
        assert!(host.egm.play_enabled());
        // A corrupted shutdown: a NACK, and play stays enabled.
        let mut bad = crate::crc::sealed(&[0x01, 0x01]);
        bad[3] ^= 0xFF;
        assert_eq!(host.send(&bad), Some(vec![0x81]));
        assert!(host.egm.play_enabled());
        // The next poll reads the snapshot the host published last.
        host.egm.publish(Snapshot { accounting_denom: 1, credit: 99_999_999, ..Snapshot::default() });
        assert_eq!(host.send(&[0x01, 0x1A]).map(|r| r[2..6].to_vec()), Some(vec![0x99, 0x99, 0x99, 0x99]));
        assert!(host.egm.pending_exceptions().is_empty());
    }
}
