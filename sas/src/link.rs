//! The host never acknowledges; its next poll does (sas.md §1.4). After a
//! reply to a general poll, any other message (a long poll, a sync poll, a
//! poll to another address) is an implied ACK, and the same general poll
//! again is an implied NACK; after a reply to a long poll, a different
//! poll is an ACK and the same long poll again a NACK. On a NACK the
//! previous reply goes again, unchanged; what it carried (an exception, a
//! delayed result) leaves its queue only on the ACK.

use crate::frame::Frame;

/// Which poll a reply answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answered {
    GeneralPoll,
    LongPoll(u8),
}

/// What the host's latest message says of this EGM's last reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Implied {
    /// No reply was waiting on the host: answer the message as new.
    Nothing,
    /// The last reply arrived: what it carried may leave its queue; then
    /// answer the message as new.
    Ack(Answered),
    /// The host asks again: send these bytes again, unchanged, and nothing
    /// else.
    Resend(Vec<u8>),
}

/// The link's memory of the last reply.
#[derive(Clone, Debug, Default)]
pub struct Link {
    last: Option<(Answered, Vec<u8>)>,
}

impl Link {
    pub fn new() -> Link {
        Link::default()
    }

    /// The host's latest message, before it is answered.
    pub fn implied(&mut self, frame: &Frame) -> Implied {
        let Some((answered, reply)) = self.last.take() else { return Implied::Nothing };
        let same = match (answered, frame) {
            (Answered::GeneralPoll, Frame::GeneralPoll) => true,
            (Answered::LongPoll(c), Frame::LongPoll { command, .. } | Frame::BadCrc { command } | Frame::Unknown { command }) => c == *command,
            _ => false,
        };
        if same {
            self.last = Some((answered, reply.clone()));
            Implied::Resend(reply)
        } else {
            Implied::Ack(answered)
        }
    }

    /// This EGM answered `answered` with `reply` (a reply a repeat of the
    /// poll gets again). A poll answered with nothing (a global, an
    /// unknown command) leaves nothing to repeat.
    pub fn replied(&mut self, answered: Answered, reply: Vec<u8>) {
        self.last = Some((answered, reply));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lp(command: u8) -> Frame {
        Frame::LongPoll { command, data: vec![] }
    }

    #[test]
    fn the_same_poll_again_gets_the_same_reply_and_any_other_acknowledges() {
        let mut l = Link::new();
        assert_eq!(l.implied(&Frame::GeneralPoll), Implied::Nothing);
        l.replied(Answered::GeneralPoll, vec![0x51]);
        // The host did not hear it: the same general poll.
        assert_eq!(l.implied(&Frame::GeneralPoll), Implied::Resend(vec![0x51]));
        assert_eq!(l.implied(&Frame::GeneralPoll), Implied::Resend(vec![0x51]), "as often as it asks");
        // A long poll acknowledges it.
        assert_eq!(l.implied(&lp(0x1A)), Implied::Ack(Answered::GeneralPoll));
        l.replied(Answered::LongPoll(0x1A), vec![0x01, 0x1A, 0, 0, 0x12, 0x50, 0x67, 0x08]);
        // The same long poll again: the same bytes; a bad CRC on it is the
        // host asking again too.
        assert_eq!(l.implied(&lp(0x1A)), Implied::Resend(vec![0x01, 0x1A, 0, 0, 0x12, 0x50, 0x67, 0x08]));
        assert!(matches!(l.implied(&Frame::BadCrc { command: 0x1A }), Implied::Resend(_)));
        // Another long poll, a sync poll or a poll elsewhere: acknowledged.
        assert_eq!(l.implied(&lp(0x1F)), Implied::Ack(Answered::LongPoll(0x1A)));
        l.replied(Answered::GeneralPoll, vec![0x11]);
        assert_eq!(l.implied(&Frame::Elsewhere), Implied::Ack(Answered::GeneralPoll));
        assert_eq!(l.implied(&Frame::Elsewhere), Implied::Nothing, "acknowledged once");
    }
}
