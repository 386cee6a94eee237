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
