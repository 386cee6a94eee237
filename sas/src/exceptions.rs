//! The general poll's exceptions (sas.md §3): priority exceptions are
//! flags, never duplicated, served in a fixed order before anything else;
//! the others wait in a first-in, first-out queue 25 deep, and an
//! overflow drops the oldest and raises exception 70. An exception leaves
//! only when the host's next poll implies it was received (an implied
//! ACK); the same general poll again gets it again. The queue's contents
//! survive a power cut: the host keeps them in critical memory
//! ([`Exceptions::pending`] and [`Exceptions::restore`]).

use std::collections::VecDeque;

/// The FIFO's depth (ARI holds 25; the spec's minimum is recalled as 20
/// [R]: 25 is kept).
pub const DEPTH: usize = 25;

/// Exception 70: the buffer overflowed.
pub const OVERFLOW: u8 = 0x70;

/// The priority exceptions, in the order a general poll serves them
/// (sas.md §3, the spec's §2.2.1 per ARI): system validation request,
/// ticket inserted, ticket transfer complete, validation ID not
/// configured, AFT host cash-out request and win, game locked, SAS
/// progressive level hit, cash-out ticket printed, hand-pay validated,
/// AFT transfer complete, AFT registration request and acknowledged,
/// hand-pay reset, hand-pay pending, "no progressive information",
/// buffer overflow.
pub const PRIORITY: [u8; 17] = [0x57, 0x67, 0x68, 0x3F, 0x6A, 0x6B, 0x6F, 0x56, 0x3D, 0x3E, 0x69, 0x6C, 0x6D, 0x52, 0x51, 0x8F, 0x70];

/// What a general poll answers from, and what the host has taken.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exceptions {
    /// Raised priority exceptions (each once).
    flags: Vec<u8>,
    fifo: VecDeque<u8>,
    /// The exception the last general poll was answered with, until the
    /// host's next poll says whether it arrived.
    in_flight: Option<u8>,
}

impl Exceptions {
    pub fn new() -> Exceptions {
        Exceptions::default()
    }

    /// An event the floor is told of. A priority code is a flag (raised
    /// once however often it happens); any other joins the queue, the
    /// oldest dropped and 70 raised when it is full.
    pub fn raise(&mut self, code: u8) {
        if code == 0 {
            return;
        }
        if PRIORITY.contains(&code) {
            if !self.flags.contains(&code) {
                self.flags.push(code);
            }
            return;
        }
        if self.fifo.len() == DEPTH {
            self.fifo.pop_front();
            self.raise(OVERFLOW);
        }
        self.fifo.push_back(code);
    }

    /// The answer to a general poll: the highest priority flag, else the
    /// queue's head, else 00. It stays until [`Exceptions::acked`].
    pub fn answer(&mut self) -> u8 {
        let code = PRIORITY.iter().copied().find(|c| self.flags.contains(c)).or_else(|| self.fifo.front().copied()).unwrap_or(0);
        self.in_flight = (code != 0).then_some(code);
        code
    }

    /// The host's next poll implied that the last answer arrived: it
    /// leaves (a flag is lowered, the queue's head goes).
    pub fn acked(&mut self) {
        let Some(code) = self.in_flight.take() else { return };
        if let Some(i) = self.flags.iter().position(|c| *c == code) {
            self.flags.remove(i);
        } else if self.fifo.front() == Some(&code) {
            self.fifo.pop_front();
        }
    }

    /// Everything not yet taken, flags first, for critical memory.
    pub fn pending(&self) -> Vec<u8> {
        let mut all: Vec<u8> = PRIORITY.iter().copied().filter(|c| self.flags.contains(c)).collect();
        all.extend(self.fifo.iter().copied());
        all
    }

    /// The queue as critical memory kept it across a power cut.
    pub fn restore(pending: &[u8]) -> Exceptions {
        let mut e = Exceptions::new();
        for code in pending {
            e.raise(*code);
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priority_flags_first_in_their_order_then_the_queue_in_order() {
        let mut e = Exceptions::new();
        e.answer();
        assert_eq!(e.answer(), 0, "nothing pending: 00");
        // Door open, bill accepted ($20), hand-pay pending, door closed,
        // ticket printed, hand-pay pending again (a flag: once).
        for code in [0x11, 0x4B, 0x51, 0x12, 0x3D, 0x51] {
            e.raise(code);
        }
        let mut served = Vec::new();
        loop {
            let code = e.answer();
            if code == 0 {
                break;
            }
            // The same poll again (an implied NACK) gets the same answer.
            assert_eq!(e.answer(), code);
            e.acked();
            served.push(code);
        }
        assert_eq!(served, [0x3D, 0x51, 0x11, 0x4B, 0x12]);
    }

    #[test]
    fn an_overflow_drops_the_oldest_and_raises_70_once() {
        let mut e = Exceptions::new();
        for i in 0..(DEPTH + 3) {
            e.raise(0x11 + (i % 2) as u8);
        }
        let pending = e.pending();
        assert_eq!(pending.len(), DEPTH + 1);
        assert_eq!(pending[0], OVERFLOW);
        assert_eq!(pending.iter().filter(|c| **c == OVERFLOW).count(), 1, "no duplicate 70");
        // The three oldest went: the queue starts at the fourth event.
        assert_eq!(pending[1], 0x12);
        assert_eq!(e.answer(), OVERFLOW);
    }

    #[test]
    fn what_was_not_taken_survives_a_power_cut() {
        let mut e = Exceptions::new();
        for code in [0x98, 0x51, 0x17] {
            e.raise(code);
        }
        assert_eq!(e.answer(), 0x51);
        // The power goes before the host's next poll: 51 was never acked.
        let mut after = Exceptions::restore(&e.pending());
        assert_eq!(after.pending(), [0x51, 0x98, 0x17]);
        assert_eq!(after.answer(), 0x51);
        after.acked();
        assert_eq!(after.answer(), 0x98);
    }
}
