//! The general poll's exceptions (sas.md §3): priority exceptions are
//! flags, never duplicated, served in a fixed order before anything else;
//! the others wait in a first-in, first-out queue 25 deep, and an
//! overflow drops the oldest and raises exception 70. An exception leaves
//! only when the host's next poll implies it was received (an implied
//! ACK); the same general poll again gets it again.
//!
//! Each exception carries the journal sequence number of the event that
//! raised it (its *source*). What the host has taken is reported back as
//! those sources ([`Exceptions::take_reported`]): the game host records
//! them in critical memory, and after a power cut raises again exactly
//! the events not reported, so the queue survives without a copy of its
//! own (a door opened while the cabinet was off is still told).

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

/// What an exception code means (sas.md §3's table), for a lab's eyes.
pub fn describe(code: u8) -> &'static str {
    match code {
        0x00 => "no activity",
        0x11 => "slot door opened",
        0x12 => "slot door closed",
        0x13 => "drop door opened",
        0x14 => "drop door closed",
        0x15 => "card cage opened",
        0x16 => "card cage closed",
        0x17 => "AC power applied",
        0x18 => "AC power lost",
        0x19 => "cash box door opened",
        0x1A => "cash box door closed",
        0x1B => "cash box removed",
        0x1C => "cash box installed",
        0x1D => "belly door opened",
        0x1E => "belly door closed",
        0x20 => "general tilt",
        0x31 => "NVRAM error, data recovered",
        0x3C => "operator changed options",
        0x3D => "cash-out ticket printed",
        0x47..=0x50 => "bill accepted",
        0x51 => "hand-pay pending",
        0x52 => "hand-pay reset",
        0x53 => "no progressive information for 5 seconds",
        0x54 => "progressive win",
        0x57 => "system validation request",
        0x67 => "ticket inserted",
        0x68 => "ticket transfer complete",
        0x69 => "AFT transfer complete",
        0x6F => "game locked",
        0x70 => "exception buffer overflow",
        0x7E => "game started",
        0x7F => "game ended",
        _ => "(see sas.md §3)",
    }
}

/// One event the floor is told of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exception {
    /// The exception code (sas.md §3's table).
    pub code: u8,
    /// What a real-time event carries after the code (LP 0E mode): 7E's
    /// wager and coin-in, 7F's win, a bill's value; empty for most.
    pub data: Vec<u8>,
    /// The journal sequence number of the event that raised it; `None`
    /// for one the link raised itself.
    pub source: Option<u64>,
}

impl Exception {
    pub fn new(code: u8, source: u64) -> Exception {
        Exception { code, data: Vec::new(), source: Some(source) }
    }

    pub fn with_data(mut self, data: Vec<u8>) -> Exception {
        self.data = data;
        self
    }
}

/// A raised priority flag and the events behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Flag {
    code: u8,
    data: Vec<u8>,
    sources: Vec<u64>,
}

/// What a general poll answers from, and what the host has taken.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exceptions {
    /// Raised priority exceptions (each once).
    flags: Vec<Flag>,
    fifo: VecDeque<Exception>,
    /// The exception the last general poll was answered with, until the
    /// host's next poll says whether it arrived.
    in_flight: Option<u8>,
    /// Sources the host has taken, or that an overflow dropped (told as
    /// 70 once 70 is taken), not yet handed to the game host.
    reported: Vec<u64>,
    /// Sources dropped by an overflow, reported when 70 is taken.
    dropped: Vec<u64>,
}

impl Exceptions {
    pub fn new() -> Exceptions {
        Exceptions::default()
    }

    /// An event the floor is told of. A priority code is a flag (raised
    /// once however often it happens); any other joins the queue, the
    /// oldest dropped and 70 raised when it is full.
    pub fn raise(&mut self, exception: Exception) {
        if exception.code == 0 {
            self.reported.extend(exception.source);
            return;
        }
        if PRIORITY.contains(&exception.code) {
            match self.flags.iter_mut().find(|f| f.code == exception.code) {
                Some(flag) => flag.sources.extend(exception.source),
                None => self.flags.push(Flag { code: exception.code, data: exception.data, sources: exception.source.into_iter().collect() }),
            }
            return;
        }
        if self.fifo.len() == DEPTH
            && let Some(oldest) = self.fifo.pop_front()
        {
            self.dropped.extend(oldest.source);
            self.raise(Exception { code: OVERFLOW, data: Vec::new(), source: None });
        }
        self.fifo.push_back(exception);
    }

    /// The next exception a general poll answers with: the highest
    /// priority flag, else the queue's head, else `None` (00). It stays
    /// until [`Exceptions::acked`].
    pub fn answer(&mut self) -> Option<(u8, Vec<u8>)> {
        let flag = PRIORITY.iter().find_map(|c| self.flags.iter().find(|f| f.code == *c));
        let next = flag.map(|f| (f.code, f.data.clone())).or_else(|| self.fifo.front().map(|e| (e.code, e.data.clone())));
        self.in_flight = next.as_ref().map(|(code, _)| *code);
        next
    }

    /// The host's next poll implied that the last answer arrived: it
    /// leaves (a flag is lowered, the queue's head goes) and its sources
    /// are reported.
    pub fn acked(&mut self) {
        let Some(code) = self.in_flight.take() else { return };
        if let Some(i) = self.flags.iter().position(|f| f.code == code) {
            let flag = self.flags.remove(i);
            self.reported.extend(flag.sources);
            if code == OVERFLOW {
                self.reported.append(&mut self.dropped);
            }
        } else if self.fifo.front().is_some_and(|e| e.code == code)
            && let Some(e) = self.fifo.pop_front()
        {
            self.reported.extend(e.source);
        }
    }

    /// The sources taken since the last call, for critical memory.
    pub fn take_reported(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.reported)
    }

    /// The codes still to tell, flags first in their order.
    pub fn pending(&self) -> Vec<u8> {
        let mut all: Vec<u8> = PRIORITY.iter().copied().filter(|c| self.flags.iter().any(|f| f.code == *c)).collect();
        all.extend(self.fifo.iter().map(|e| e.code));
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raise_all(e: &mut Exceptions, codes: &[u8]) {
        for (seq, code) in codes.iter().enumerate() {
            e.raise(Exception::new(*code, seq as u64 + 1));
        }
    }

    fn code(answer: Option<(u8, Vec<u8>)>) -> u8 {
        answer.map_or(0, |(c, _)| c)
    }

    #[test]
    fn priority_flags_first_in_their_order_then_the_queue_in_order() {
        let mut e = Exceptions::new();
        assert_eq!(e.answer(), None, "nothing pending: 00");
        // Door open, bill accepted ($20), hand-pay pending, door closed,
        // ticket printed, hand-pay pending again (a flag: once).
        raise_all(&mut e, &[0x11, 0x4B, 0x51, 0x12, 0x3D, 0x51]);
        let mut served = Vec::new();
        loop {
            let c = code(e.answer());
            if c == 0 {
                break;
            }
            // The same poll again (an implied NACK) gets the same answer.
            assert_eq!(code(e.answer()), c);
            e.acked();
            served.push(c);
        }
        assert_eq!(served, [0x3D, 0x51, 0x11, 0x4B, 0x12]);
        // Every event was reported once: the flag 51 for both of its events.
        let mut reported = e.take_reported();
        reported.sort_unstable();
        assert_eq!(reported, [1, 2, 3, 4, 5, 6]);
        assert!(e.take_reported().is_empty());
    }

    #[test]
    fn an_overflow_drops_the_oldest_and_raises_70_once() {
        let mut e = Exceptions::new();
        let codes: Vec<u8> = (0..(DEPTH + 3)).map(|i| 0x11 + (i % 2) as u8).collect();
        raise_all(&mut e, &codes);
        let pending = e.pending();
        assert_eq!(pending.len(), DEPTH + 1);
        assert_eq!(pending[0], OVERFLOW);
        assert_eq!(pending.iter().filter(|c| **c == OVERFLOW).count(), 1, "no duplicate 70");
        // The three oldest went: the queue starts at the fourth event.
        assert_eq!(pending[1], 0x12);
        assert_eq!(code(e.answer()), OVERFLOW);
        // Taking 70 reports the three dropped events (told as the overflow).
        e.acked();
        assert_eq!(e.take_reported(), [1, 2, 3]);
    }

    #[test]
    fn an_answer_not_acknowledged_is_not_reported() {
        let mut e = Exceptions::new();
        raise_all(&mut e, &[0x98, 0x51, 0x17]);
        assert_eq!(code(e.answer()), 0x51);
        // The power goes before the host's next poll: nothing reported, so
        // the game host raises all three again at the next boot.
        assert!(e.take_reported().is_empty());
        e.acked();
        assert_eq!(e.take_reported(), [2]);
        assert_eq!(code(e.answer()), 0x98);
    }
}
