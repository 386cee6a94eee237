//! One poll of an ID-003 acceptor over its serial line (issue 70): the
//! driver's command out, the acceptor's frame back within the answer time,
//! read as far as its length says; anything else is an answer that does
//! not read, and the driver takes no step on it.

use std::time::Duration;

use super::driver::{Acceptor, Event};
use super::frame::{FrameError, SYNC};
use super::message::{MessageError, Status};
use crate::serial::SerialLine;

/// How long an acceptor has to answer a frame.
pub const ANSWER_TIME: Duration = Duration::from_millis(100);

/// Send the driver's next command and hand it the answer: the events.
pub fn poll(acceptor: &mut Acceptor, line: &mut SerialLine) -> std::io::Result<Vec<Event>> {
    let command = acceptor.next_command();
    line.send(&command.frame().encode())?;
    let head = line.receive(2, ANSWER_TIME)?;
    let answer = match head[..] {
        [] => None,
        [SYNC, length] => {
            let rest = line.receive(usize::from(length).saturating_sub(2), ANSWER_TIME)?;
            Some(Status::decode(&[&head[..], &rest[..]].concat()).map(|(s, _)| s))
        }
        [SYNC] => Some(Err(MessageError::Frame(FrameError::Truncated { have: 1, length: 5 }))),
        [other, ..] => {
            // Not a frame's start: what follows is read and dropped, so the
            // next poll starts clean.
            let _ = line.receive(256, ANSWER_TIME);
            Some(Err(MessageError::Frame(FrameError::NoSync(other))))
        }
    };
    Ok(acceptor.on_answer(answer))
}

/// ID-003 as the host's acceptor: its line 9,600 baud 8E1, one poll as
/// above, the host's orders as the driver's commands.
impl crate::acceptor::NoteAcceptor for Acceptor {
    fn open(&self, port: &std::path::Path) -> Result<SerialLine, crate::serial::LineError> {
        SerialLine::open_9600_8e1(port)
    }

    fn poll(&mut self, line: &mut SerialLine) -> std::io::Result<Vec<Event>> {
        poll(self, line)
    }

    fn line_failed(&mut self, why: &str) -> Vec<Event> {
        Acceptor::line_failed(self, why)
    }

    fn has_commands(&self) -> bool {
        Acceptor::has_commands(self)
    }

    fn take_only(&mut self, codes: &[u8]) {
        Acceptor::take_only(self, codes);
    }

    fn enable(&mut self, on: bool) {
        Acceptor::enable(self, on);
    }

    fn hold(&mut self) {
        Acceptor::hold(self);
    }

    fn stack(&mut self) {
        Acceptor::stack(self);
    }

    fn give_back(&mut self) {
        Acceptor::give_back(self);
    }

    fn credited(&mut self) {
        Acceptor::credited(self);
    }

    fn power_up_settled(&mut self) {
        Acceptor::power_up_settled(self);
    }

    fn reset(&mut self) {
        Acceptor::reset(self);
    }
}
