//! One poll of a TCL printer over its serial line (issue 70): the driver's
//! command and status request out, the status answer back within the
//! answer time, read to its closing `|*`; anything else is an answer that
//! does not read, and the driver takes no step on it.

use std::time::{Duration, Instant};

use super::driver::{Event, Printer};
use super::message::{MessageError, Status};
use crate::serial::SerialLine;

/// How long a printer has to answer a status request.
pub const ANSWER_TIME: Duration = Duration::from_millis(100);

/// The longest status answer read (its text fields are short).
const LONGEST: usize = 96;

/// Send the driver's bytes and hand it the answer: the events.
pub fn poll(printer: &mut Printer, line: &mut SerialLine) -> std::io::Result<Vec<Event>> {
    line.send(&printer.next_bytes())?;
    let deadline = Instant::now() + ANSWER_TIME;
    let mut got = Vec::new();
    while got.len() < LONGEST && !got.ends_with(b"|*") {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let more = line.receive(1, left)?;
        if more.is_empty() {
            break;
        }
        got.extend(more);
    }
    let answer = match got.iter().position(|&b| b == b'*') {
        _ if got.is_empty() => None,
        // Bytes before the answer's opening start no message: named, and
        // the answer after them is not trusted either.
        Some(0) => Some(Status::decode(&got).map(|(s, _)| s)),
        Some(_) | None => Some(Err(MessageError::Opening { expected: '*', found: got[0] })),
    };
    Ok(printer.on_answer(answer))
}
