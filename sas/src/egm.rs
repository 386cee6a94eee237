//! One SAS port of the cabinet (sas.md §1): the wire's bytes in, the
//! replies out, the link's implied acknowledgements and its state (up
//! after a sync poll and a poll to this address; down after 5 s without a
//! poll, with the chirp every 200 ms), the exceptions, and every long poll
//! answered from the host's latest snapshot. Nothing here blocks or reads
//! critical memory: a reply is computed from what this struct holds when
//! the poll's last byte comes. What the host must act on (play disabled,
//! the clock set, a signature asked for) leaves as [`Event`]s.

use std::sync::Arc;

use crate::exceptions::{Exception, Exceptions};
use crate::frame::{Assembler, BadAddress, Frame};
use crate::link::{Answered, Implied, Link};
use crate::snapshot::Snapshot;
use crate::tickets::{Request, TicketIn, status};
use crate::wire::WireByte;

/// No valid poll for this long: the link is down and the EGM chirps
/// (sas.md §1.5, §1.6).
pub const SILENCE_US: u64 = 5_000_000;
/// The chirp's period while the link is down.
pub const CHIRP_US: u64 = 200_000;
/// No implied ACK for this long: the link is down (sas.md §1.4).
pub const NO_ACK_US: u64 = 30_000_000;

/// What the host's polls ask of the cabinet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// LP 01 (false) / 02 (true): the floor disables or enables play.
    PlayEnabled(bool),
    /// LP 7F: the floor set the cabinet's clock to this Unix time.
    ClockSet { unix: i64 },
    /// LP 21: compute the ROM signature from this seed and hand it to
    /// [`Egm::signature_ready`].
    SignatureAsked { seed: u16 },
    /// LP 0E: real-time event reporting on or off.
    RealTime(bool),
    /// The link came up (a sync poll, then a poll to this address) or
    /// went down (silence or no acknowledgement).
    LinkUp(bool),
    /// LP 71: the floor says redeem the ticket in escrow for `amount`
    /// cents of cashable credit. The game host commits it through the core
    /// (or refuses it) and calls [`Egm::ticket_done`].
    RedeemTicket { validation: String, amount: u64 },
    /// LP 72: the floor asks for a transfer: cashable credit in (`to_host`
    /// false) or out to it. The game host commits it through the core or
    /// refuses it, and calls [`Egm::aft_done`].
    AftTransfer { id: String, to_host: bool, cents: u64 },
    /// LP 74: the floor locked the cabinet for a transfer (play stops), or
    /// the lock ended (cancelled, timed out, the transfer made).
    AftLock(bool),
    /// LP 94: the floor reset hand-pay `id` (an attendant paid it): the
    /// game host pays it through the core, which journals it (52).
    HandpayReset { id: u64 },
    /// LP 58: the floor assigned the waiting cash-out's ticket this
    /// 18-digit validation number (system validation). The game host
    /// issues the ticket through the core, for `cents` (what LP 57 told
    /// the floor), or refuses it.
    TicketValidated { validation: String, cents: u64 },
    /// LP 58 with system ID 00: the floor will not validate the cash-out;
    /// nothing moves.
    ValidationDenied,
    /// LP 80/86: the progressive controller's levels for this cabinet's
    /// group changed (level → cents).
    ProgressiveLevels(std::collections::BTreeMap<u8, u64>),
    /// The progressive controller's broadcasts stopped for 5 s (53 told;
    /// G-49: no progressive bet), or resumed.
    ProgressiveHeard(bool),
    /// LP 71: the floor refused the ticket in escrow (its transfer code,
    /// 80–93), or asked for credit this cabinet does not hold (restricted):
    /// the ticket goes back to the player.
    TicketRefused { validation: String, code: u8 },
}

/// What the last general poll was answered with, until the host's next
/// poll says whether it arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InFlight {
    Nothing,
    Exception,
    Delayed,
}

/// The EGM end of one SAS link.
#[derive(Clone, Debug)]
pub struct Egm {
    assembler: Assembler,
    link: Link,
    exceptions: Exceptions,
    snapshot: Arc<Snapshot>,
    /// LP 01 (shutdown) clears it, LP 02 (startup) sets it.
    play_enabled: bool,
    /// LP 0E: general polls answered with the event's data.
    real_time: bool,
    /// A delayed reply (LP 21's signature), served before exceptions.
    delayed: Option<Vec<u8>>,
    in_flight: InFlight,
    events: Vec<Event>,
    /// The ticket-in cycle (LP 70/71).
    ticket: TicketIn,
    /// A cash-out waiting for the floor's validation number (LP 57/58):
    /// its amount.
    cash_out: Option<u64>,
    /// The SAS progressive group this cabinet is in, as last broadcast.
    progressive: Option<crate::progressive::Watch>,
    /// The last AFT transfer (LP 72), and the AFT lock's end (LP 74).
    transfer: Option<crate::aft::Transfer>,
    lock_until_us: Option<u64>,
    /// The clock: the wall's Unix seconds at the last tick, and what the
    /// floor's LP 7F moved it by.
    wall: i64,
    clock_offset: i64,
    /// The link's state and its clocks (microseconds).
    up: bool,
    sync_seen: bool,
    last_poll_us: u64,
    last_ack_us: u64,
    next_chirp_us: u64,
    now_us: u64,
}

impl Egm {
    pub fn new(address: u8) -> Result<Egm, BadAddress> {
        Ok(Egm {
            assembler: Assembler::new(address)?,
            link: Link::new(),
            exceptions: Exceptions::new(),
            snapshot: Arc::new(Snapshot::default()),
            play_enabled: true,
            real_time: false,
            delayed: None,
            in_flight: InFlight::Nothing,
            events: Vec::new(),
            ticket: TicketIn::Idle,
            cash_out: None,
            progressive: None,
            transfer: None,
            lock_until_us: None,
            wall: 0,
            clock_offset: 0,
            up: false,
            sync_seen: false,
            last_poll_us: 0,
            last_ack_us: 0,
            next_chirp_us: SILENCE_US,
            now_us: 0,
        })
    }

    pub fn address(&self) -> u8 {
        self.assembler.address()
    }

    /// The host's meters after a commit.
    pub fn publish(&mut self, snapshot: Arc<Snapshot>) {
        self.snapshot = snapshot;
    }

    /// An event the floor is told of (sas.md §3's codes).
    pub fn raise(&mut self, exception: Exception) {
        self.exceptions.raise(exception);
    }

    /// Whether the host has left play enabled (LP 01 / 02).
    pub fn play_enabled(&self) -> bool {
        self.play_enabled
    }

    pub fn link_up(&self) -> bool {
        self.up
    }

    /// What the host must act on, since the last call.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// The journal sequence numbers of the events the host has taken.
    pub fn take_reported(&mut self) -> Vec<u64> {
        self.exceptions.take_reported()
    }

    /// The codes still to tell.
    pub fn pending_exceptions(&self) -> Vec<u8> {
        self.exceptions.pending()
    }

    /// A ticket this cabinet did not print is in escrow: the floor is
    /// asked (exception 67). False while another is in its cycle.
    pub fn ticket_inserted(&mut self, validation: &str) -> bool {
        if matches!(self.ticket, TicketIn::Escrow { .. } | TicketIn::Pending { .. }) {
            return false;
        }
        self.ticket = TicketIn::Escrow { validation: validation.to_owned() };
        self.exceptions.raise(Exception { code: 0x67, data: Vec::new(), source: None });
        true
    }

    /// The cabinet is in SAS progressive group `group`: its broadcasts
    /// are taken, and 53 told when they stop for 5 s.
    pub fn join_progressive_group(&mut self, group: u8) {
        self.progressive = Some(crate::progressive::Watch::new(group, self.now_us));
    }

    /// A progressive broadcast (LP 80 or 86, addressed or global): the
    /// levels taken when it is this cabinet's group. Whether it parsed.
    fn progressive_broadcast(&mut self, command: u8, data: &[u8]) -> bool {
        let parsed = if command == 0x80 { crate::progressive::parse_80(data) } else { crate::progressive::parse_86(data) };
        let Some((group, levels)) = parsed else { return false };
        let now = self.now_us;
        let changes = self.progressive.as_mut().map(|w| w.broadcast(group, &levels, now)).unwrap_or_default();
        self.progressive_changes(changes);
        true
    }

    fn progressive_changes(&mut self, changes: Vec<crate::progressive::Change>) {
        use crate::progressive::Change;
        for change in changes {
            match change {
                Change::Levels(levels) => self.events.push(Event::ProgressiveLevels(levels)),
                Change::Heard(heard) => {
                    if !heard {
                        self.exceptions.raise(Exception { code: 0x53, data: Vec::new(), source: None });
                    }
                    self.events.push(Event::ProgressiveHeard(heard));
                }
            }
        }
    }

    /// A cash-out of `cents` waits for the floor to assign its ticket's
    /// validation number (system validation): exception 57.
    pub fn validation_asked(&mut self, cents: u64) {
        self.cash_out = Some(cents);
        self.exceptions.raise(Exception { code: 0x57, data: Vec::new(), source: None });
    }

    /// The cash-out no longer waits (the game host gave up on the floor):
    /// a late LP 58 is told there is no cash-out.
    pub fn validation_ended(&mut self) {
        self.cash_out = None;
    }

    /// LP 58: the floor's validation number for the waiting cash-out.
    fn validation(&mut self, data: &[u8]) -> Vec<u8> {
        use crate::validation::{Answer, status};
        let st = match (self.cash_out.take(), crate::validation::parse_58(data)) {
            (waiting, None) => {
                self.cash_out = waiting;
                status::REJECTED
            }
            (None, Some(_)) => status::NOT_IN_CASH_OUT,
            (Some(_), Some(Answer::Denied)) => {
                self.events.push(Event::ValidationDenied);
                status::ACKNOWLEDGED
            }
            (Some(cents), Some(Answer::Number(validation))) => {
                self.events.push(Event::TicketValidated { validation, cents });
                status::ACKNOWLEDGED
            }
        };
        vec![st]
    }

    /// The ticket's cycle ended (`status` as LP 71 reports it: 00
    /// redeemed, or why it was returned); the floor interrogates it with
    /// LP 71 FF after the game host's journal tells it 68.
    pub fn ticket_done(&mut self, validation: &str, amount: u64, status: u8) {
        self.ticket = TicketIn::Done { validation: validation.to_owned(), amount, status };
    }

    /// The AFT transfer's outcome, from the game host: `status` 00 when
    /// the core committed it (or had committed it under this id before),
    /// else why not. A transfer that failed is told at once (69); one that
    /// moved money is told from the journal.
    pub fn aft_done(&mut self, id: &str, status: u8, cents: u64, kind: u8) {
        let at = self.clock();
        match self.transfer.as_mut().filter(|t| t.id == id) {
            Some(t) => {
                t.status = status;
                t.cents = cents;
            }
            None => self.transfer = Some(crate::aft::Transfer { id: id.to_owned(), kind, cents, status, at }),
        }
        if status != crate::aft::status::FULL {
            self.exceptions.raise(Exception { code: 0x69, data: Vec::new(), source: None });
        }
        self.unlock();
    }

    fn unlock(&mut self) {
        if self.lock_until_us.take().is_some() {
            self.events.push(Event::AftLock(false));
        }
    }

    /// LP 74: lock (00) for a transfer within its timeout, cancel (80),
    /// or interrogate (FF). A lock is granted only with no round open.
    fn aft_lock(&mut self, data: &[u8]) -> Option<Vec<u8>> {
        let code = *data.first()?;
        let timeout = crate::bcd::decode(data.get(2..4)?).ok()?;
        match code {
            0x00 if self.snapshot.idle => {
                if self.lock_until_us.is_none() {
                    self.events.push(Event::AftLock(true));
                    self.exceptions.raise(Exception { code: 0x6F, data: Vec::new(), source: None });
                }
                self.lock_until_us = Some(self.now_us + timeout * 10_000);
            }
            0x80 => self.unlock(),
            _ => {}
        }
        Some(crate::aft::reply_74(self.lock_until_us.is_some(), &self.snapshot))
    }

    /// LP 72: a transfer asked for, or its status.
    fn aft_transfer(&mut self, data: &[u8]) -> Vec<u8> {
        use crate::aft::{IN_HOUSE_TO_EGM, IN_HOUSE_TO_HOST, Request, Transfer, status};
        let request = crate::aft::parse_72(data);
        let now = self.clock();
        let failed = |id: String, kind: u8, st: u8| Transfer { id, kind, cents: 0, status: st, at: now };
        let outcome = match request {
            Ok(Request::Interrogate | Request::Cancel) => None,
            // A malformed request: its status, the last transfer kept.
            Err(st) => return crate::aft::reply_72(Some(&failed(String::new(), 0, st)), &self.snapshot),
            // The last transfer's id again: its status, nothing moves.
            Ok(Request::Transfer { id, .. }) if self.transfer.as_ref().is_some_and(|t| t.id == id) => None,
            Ok(Request::Transfer { .. }) if self.transfer.as_ref().is_some_and(|t| t.status == status::PENDING) => {
                return crate::aft::reply_72(Some(&failed(String::new(), 0, status::NOT_COMPATIBLE)), &self.snapshot);
            }
            Ok(Request::Transfer { kind, id, .. }) if kind != IN_HOUSE_TO_EGM && kind != IN_HOUSE_TO_HOST => {
                Some(failed(id, kind, status::NOT_A_VALID_FUNCTION))
            }
            Ok(Request::Transfer { kind, id, cashable, restricted, nonrestricted, partial }) => {
                let credit = self.snapshot.credit;
                let cents = if kind == IN_HOUSE_TO_HOST && partial { cashable.min(credit) } else { cashable };
                if restricted != 0 || nonrestricted != 0 || cents == 0 || (kind == IN_HOUSE_TO_HOST && cents > credit) {
                    Some(failed(id, kind, status::NOT_A_VALID_AMOUNT))
                } else if !self.snapshot.idle {
                    Some(failed(id, kind, status::UNABLE_NOW))
                } else {
                    self.events.push(Event::AftTransfer { id: id.clone(), to_host: kind == IN_HOUSE_TO_HOST, cents });
                    Some(Transfer { id, kind, cents, status: status::PENDING, at: now })
                }
            }
        };
        if let Some(t) = outcome {
            if t.status != status::PENDING {
                self.exceptions.raise(Exception { code: 0x69, data: Vec::new(), source: None });
            }
            self.transfer = Some(t);
        }
        crate::aft::reply_72(self.transfer.as_ref(), &self.snapshot)
    }

    /// Where the ticket-in cycle stands.
    pub fn ticket(&self) -> &TicketIn {
        &self.ticket
    }

    /// LP 71: the floor's answer on the ticket in escrow, or its
    /// question on the last one.
    fn redemption(&mut self, data: &[u8]) -> Option<Vec<u8>> {
        let request = crate::tickets::parse_71(data)?;
        let (st, amount, validation) = match (&self.ticket, request) {
            (TicketIn::Idle, Request::Status) => (status::NONE, 0, String::new()),
            (TicketIn::Escrow { validation }, Request::Status) => (status::WAITING, 0, validation.clone()),
            (TicketIn::Pending { validation, amount }, Request::Status) => (status::PENDING, *amount, validation.clone()),
            (TicketIn::Done { validation, amount, status }, Request::Status) => (*status, *amount, validation.clone()),
            // The ticket keeps the number the reader read (the floor may
            // send it with fewer leading zeros).
            (TicketIn::Escrow { validation: v }, Request::Redeem { code: 0x00, amount, validation }) if crate::tickets::same(v, &validation) => {
                let v = v.clone();
                self.events.push(Event::RedeemTicket { validation: v.clone(), amount });
                self.ticket = TicketIn::Pending { validation: v.clone(), amount };
                (status::PENDING, amount, v)
            }
            (TicketIn::Escrow { validation: v }, Request::Redeem { validation, .. }) if crate::tickets::same(v, &validation) => {
                // Restricted and non-restricted credit: this cabinet holds
                // cashable credit only; the ticket goes back [R].
                let v = v.clone();
                self.events.push(Event::TicketRefused { validation: v.clone(), code: status::REJECTED_BY_EGM });
                self.ticket = TicketIn::Pending { validation: v.clone(), amount: 0 };
                (status::PENDING, 0, v)
            }
            (TicketIn::Escrow { validation: v }, Request::Reject { code, validation }) if crate::tickets::same(v, &validation) => {
                let v = v.clone();
                self.events.push(Event::TicketRefused { validation: v.clone(), code });
                self.ticket = TicketIn::Pending { validation: v.clone(), amount: 0 };
                (status::PENDING, 0, v)
            }
            // The same answer again (a retry after the cycle moved on):
            // where it stands, never a second redemption.
            (TicketIn::Pending { validation: v, amount }, Request::Redeem { validation, .. } | Request::Reject { validation, .. })
                if crate::tickets::same(v, &validation) =>
            {
                (status::PENDING, *amount, v.clone())
            }
            (TicketIn::Done { validation: v, amount, status }, Request::Redeem { validation, .. } | Request::Reject { validation, .. })
                if crate::tickets::same(v, &validation) =>
            {
                (*status, *amount, v.clone())
            }
            // An answer for no ticket in escrow here: not compatible with
            // the redemption cycle (C0) [R].
            (_, Request::Redeem { validation, .. } | Request::Reject { validation, .. }) => (0xC0, 0, validation),
        };
        Some(crate::tickets::reply_71(st, amount, &validation))
    }

    /// The signature LP 21 asked for, computed: served at the next general
    /// poll, before any exception.
    pub fn signature_ready(&mut self, signature: u16) {
        let [lo, hi] = signature.to_le_bytes();
        self.delayed = Some(crate::crc::sealed(&[self.address(), 0x21, lo, hi]));
    }

    /// The clocks now: monotonic microseconds and the wall's Unix seconds.
    /// Returns the chirp to send, when one is due (the address with its
    /// wake-up bit, sas.md §1.6).
    pub fn tick(&mut self, now_us: u64, wall: i64) -> Option<u8> {
        self.now_us = now_us;
        self.wall = wall;
        let silent = now_us.saturating_sub(self.last_poll_us) >= SILENCE_US;
        let unacked = now_us.saturating_sub(self.last_ack_us) >= NO_ACK_US;
        if self.up && (silent || unacked) {
            self.up = false;
            self.sync_seen = false;
            self.events.push(Event::LinkUp(false));
        }
        if self.lock_until_us.is_some_and(|until| now_us >= until) {
            self.unlock();
        }
        if let Some(change) = self.progressive.as_mut().and_then(|w| w.tick(now_us)) {
            self.progressive_changes(vec![change]);
        }
        if silent && now_us >= self.next_chirp_us {
            self.next_chirp_us = now_us + CHIRP_US;
            return Some(self.address());
        }
        None
    }

    /// The cabinet's clock as the floor reads it (LP 7E).
    pub fn clock(&self) -> i64 {
        self.wall.saturating_add(self.clock_offset)
    }

    /// A byte from the wire at `at_us` microseconds: the reply to send,
    /// when it completes a poll that has one.
    pub fn on_byte(&mut self, byte: WireByte, at_us: u64) -> Option<Vec<u8>> {
        let frame = self.assembler.push(byte, at_us)?;
        self.on_frame(&frame, at_us)
    }

    /// The link's state after a message: any well-formed one is activity;
    /// a sync poll then a poll to this address brings the link up.
    fn liveness(&mut self, frame: &Frame, at_us: u64) {
        if matches!(frame, Frame::BadCrc { .. }) {
            return;
        }
        self.last_poll_us = at_us;
        self.next_chirp_us = at_us + SILENCE_US;
        match frame {
            Frame::Elsewhere => self.sync_seen = true,
            Frame::GeneralPoll | Frame::LongPoll { .. } if self.sync_seen && !self.up => {
                self.up = true;
                self.last_ack_us = at_us;
                self.events.push(Event::LinkUp(true));
            }
            _ => {}
        }
    }

    fn on_frame(&mut self, frame: &Frame, at_us: u64) -> Option<Vec<u8>> {
        self.liveness(frame, at_us);
        match self.link.implied(frame) {
            Implied::Resend(reply) => return Some(reply),
            Implied::Ack(answered) => {
                self.last_ack_us = at_us;
                if answered == Answered::GeneralPoll {
                    match std::mem::replace(&mut self.in_flight, InFlight::Nothing) {
                        InFlight::Exception => self.exceptions.acked(),
                        InFlight::Delayed => self.delayed = None,
                        InFlight::Nothing => {}
                    }
                }
            }
            Implied::Nothing => {}
        }
        let address = self.address();
        match frame {
            Frame::GeneralPoll => {
                let reply = self.general_poll();
                self.link.replied(Answered::GeneralPoll, reply.clone());
                Some(reply)
            }
            Frame::LongPoll { command, data } => {
                let reply = self.long_poll(*command, data)?;
                self.link.replied(Answered::LongPoll(*command), reply.clone());
                Some(reply)
            }
            Frame::Global { command, data } => {
                // Acted on, never answered: the clock (7F), a progressive
                // broadcast (80, 86).
                match *command {
                    0x7F => {
                        self.set_clock(data);
                    }
                    0x80 | 0x86 => {
                        self.progressive_broadcast(*command, data);
                    }
                    _ => {}
                }
                None
            }
            // A NACK: the address with its top bit.
            Frame::BadCrc { .. } => Some(vec![address | 0x80]),
            Frame::Elsewhere | Frame::Unknown { .. } => None,
        }
    }

    /// A general poll's answer: the delayed reply, else the next
    /// exception (with its data in real-time mode), else 00.
    fn general_poll(&mut self) -> Vec<u8> {
        if let Some(delayed) = &self.delayed {
            self.in_flight = InFlight::Delayed;
            return delayed.clone();
        }
        match self.exceptions.answer() {
            Some((code, data)) => {
                self.in_flight = InFlight::Exception;
                if self.real_time {
                    let mut frame = vec![self.address(), 0xFF, code];
                    frame.extend(data);
                    crate::crc::sealed(&frame)
                } else {
                    vec![code]
                }
            }
            None => {
                self.in_flight = InFlight::Nothing;
                vec![0x00]
            }
        }
    }

    fn set_clock(&mut self, data: &[u8]) -> bool {
        match crate::identity::parse_clock(data) {
            Some(unix) => {
                self.clock_offset = unix.saturating_sub(self.wall);
                self.events.push(Event::ClockSet { unix });
                true
            }
            None => false,
        }
    }

    /// A long poll's whole reply, `None` for one this EGM does not answer.
    fn long_poll(&mut self, command: u8, data: &[u8]) -> Option<Vec<u8>> {
        let address = self.address();
        let ack = vec![address];
        match command {
            // Shutdown and startup: an ACK (the address alone).
            0x01 | 0x02 => {
                self.play_enabled = command == 0x02;
                self.events.push(Event::PlayEnabled(self.play_enabled));
                return Some(ack);
            }
            0x0E => {
                let on = *data.first()? == 0x01;
                self.real_time = on;
                self.events.push(Event::RealTime(on));
                return Some(ack);
            }
            0x21 => {
                let seed = u16::from_le_bytes([*data.first()?, *data.get(1)?]);
                self.delayed = None;
                self.events.push(Event::SignatureAsked { seed });
                return Some(ack);
            }
            // A broadcast to this address: acknowledged when it parsed.
            0x80 | 0x86 => return self.progressive_broadcast(command, data).then_some(ack),
            // A clock that does not exist is refused with a NACK.
            0x7F => return Some(if self.set_clock(data) { ack } else { vec![address | 0x80] }),
            _ => {}
        }
        let snapshot = self.snapshot.clone();
        let body = match command {
            0xB0 => self.multi_denomination(data, &snapshot)?,
            0x70 => crate::tickets::reply_70(&self.ticket),
            0x57 => crate::validation::reply_57(self.cash_out),
            // No SAS progressive win is paid here yet: LP 84 reports none.
            0x84 => crate::progressive::reply_84(self.progressive.as_ref()?.group(), None),
            0x58 => self.validation(data),
            0x72 => self.aft_transfer(data),
            0x74 => self.aft_lock(data)?,
            0x4D => crate::cashout::reply_4d(*data.first()?, &snapshot),
            0x1B => crate::cashout::reply_1b(&snapshot),
            0x94 => {
                let (code, id) = crate::cashout::reply_94(&snapshot);
                if let Some(id) = id {
                    self.events.push(Event::HandpayReset { id });
                }
                vec![code]
            }
            0x71 => self.redemption(data)?,
            _ => crate::meters::reply_data(command, data, &snapshot).or_else(|| crate::identity::reply_data(command, data, &snapshot, self.clock()))?,
        };
        let mut frame = vec![address, command];
        frame.extend(body);
        Some(crate::crc::sealed(&frame))
    }

    /// LP B0: `len denomination-code command request…` → `len
    /// denomination-code command reply…` [R: layout], for the meter polls
    /// a denomination has.
    fn multi_denomination(&self, data: &[u8], s: &Snapshot) -> Option<Vec<u8>> {
        let (&code, rest) = data.get(1..)?.split_first()?;
        let (&command, request) = rest.split_first()?;
        let cents = crate::codes::denomination_cents(code)?;
        if !s.player_denoms.contains(&cents) {
            return None;
        }
        let reply = crate::meters::denomination_reply_data(command, request, cents, s)?;
        let mut out = vec![0, code, command];
        out.extend(reply);
        out[0] = u8::try_from(out.len() - 1).ok()?;
        Some(out)
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
        fn new(egm: Egm) -> Host {
            Host { egm, decoder: Decoder::new(), now_us: 0 }
        }

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

    fn with_credit(credit: u64) -> Arc<Snapshot> {
        Arc::new(Snapshot { accounting_denom: 1, credit, ..Snapshot::default() })
    }

    #[test]
    fn a_host_session_through_the_marked_transport() {
        let mut egm = Egm::new(1).unwrap();
        egm.publish(with_credit(1_250));
        egm.raise(Exception::new(0x11, 7));
        egm.raise(Exception::new(0x51, 8));
        let mut host = Host::new(egm);
        // The hand-pay pending flag first, again on a repeated poll.
        assert_eq!(host.send(&[0x81]), Some(vec![0x51]));
        assert_eq!(host.send(&[0x81]), Some(vec![0x51]), "an implied NACK: the same reply");
        assert!(host.egm.take_reported().is_empty());
        // A long poll acknowledges it and is answered from the snapshot.
        assert_eq!(host.send(&[0x01, 0x1A]), Some(vec![0x01, 0x1A, 0x00, 0x00, 0x12, 0x50, 0x67, 0x08]));
        assert_eq!(host.egm.take_reported(), [8]);
        assert_eq!(host.send(&[0x81]), Some(vec![0x11]));
        // A sync poll acknowledges the door event; then nothing is left.
        assert_eq!(host.send(&[0x80]), None);
        assert_eq!(host.egm.take_reported(), [7]);
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
        let events = host.egm.take_events();
        assert_eq!(
            events.iter().filter(|e| matches!(e, Event::PlayEnabled(_))).cloned().collect::<Vec<_>>(),
            [Event::PlayEnabled(false), Event::PlayEnabled(true)]
        );
        // The next poll reads the snapshot the host published last.
        host.egm.publish(with_credit(99_999_999));
        assert_eq!(host.send(&[0x01, 0x1A]).map(|r| r[2..6].to_vec()), Some(vec![0x99, 0x99, 0x99, 0x99]));
        assert!(host.egm.pending_exceptions().is_empty());
    }

    #[test]
    fn the_rom_signature_is_acked_then_served_at_a_general_poll_before_exceptions() {
        let mut host = Host::new(Egm::new(1).unwrap());
        host.egm.raise(Exception::new(0x11, 1));
        // sas.md §2's frame: LP 21, seed 0x1234.
        assert_eq!(host.send(&[0x01, 0x21, 0x34, 0x12, 0x0D, 0xA7]), Some(vec![0x01]));
        assert_eq!(host.egm.take_events(), [Event::SignatureAsked { seed: 0x1234 }]);
        let signature = crate::signature::of_images(0x1234, &[b"IMAGE-A", b"IMAGE-B"]);
        host.egm.signature_ready(signature);
        let delayed = crate::crc::sealed(&[0x01, 0x21, 0x79, 0xC5]);
        assert_eq!(host.send(&[0x81]), Some(delayed.clone()));
        assert_eq!(host.send(&[0x81]), Some(delayed), "not taken: again");
        assert_eq!(host.send(&[0x80]), None);
        assert_eq!(host.send(&[0x81]), Some(vec![0x11]), "taken: the exceptions follow");
    }

    #[test]
    fn real_time_mode_sends_the_events_data_in_a_frame() {
        let mut host = Host::new(Egm::new(3).unwrap());
        assert_eq!(host.send(&crate::crc::sealed(&[0x03, 0x0E, 0x01])), Some(vec![0x03]));
        // Game ended, 12.50 won at the cent: 7F with its 4-BCD win.
        host.egm.raise(Exception::new(0x7F, 9).with_data(vec![0x00, 0x00, 0x12, 0x50]));
        let reply = host.send(&[0x83]).unwrap();
        assert_eq!(reply, crate::crc::sealed(&[0x03, 0xFF, 0x7F, 0x00, 0x00, 0x12, 0x50]));
        assert_eq!(host.send(&[0x80]), None);
        assert_eq!(host.send(&[0x83]), Some(vec![0x00]));
        assert_eq!(host.egm.take_reported(), [9]);
    }

    #[test]
    fn the_clock_is_set_by_7f_and_read_by_7e() {
        let mut host = Host::new(Egm::new(1).unwrap());
        host.egm.tick(0, 1_000_000_000);
        let set = crate::crc::sealed(&[0x01, 0x7F, 0x11, 0x27, 0x20, 0x26, 0x17, 0x56, 0x19]);
        assert_eq!(host.send(&set), Some(vec![0x01]));
        assert!(host.egm.take_events().contains(&Event::ClockSet { unix: 1_795_802_179 }));
        // Ten seconds later by the wall, the floor's clock has moved ten.
        host.egm.tick(host.now_us, 1_000_000_010);
        let read = host.send(&[0x01, 0x7E]).unwrap();
        assert_eq!(&read[2..9], [0x11, 0x27, 0x20, 0x26, 0x17, 0x56, 0x29]);
        // A date that does not exist: a NACK, the clock unchanged.
        let bad = crate::crc::sealed(&[0x01, 0x7F, 0x02, 0x30, 0x20, 0x26, 0x00, 0x00, 0x00]);
        assert_eq!(host.send(&bad), Some(vec![0x81]));
    }

    #[test]
    fn the_link_comes_up_on_sync_then_poll_and_chirps_after_five_silent_seconds() {
        let mut host = Host::new(Egm::new(1).unwrap());
        assert_eq!(host.send(&[0x81]), Some(vec![0x00]));
        assert!(!host.egm.link_up(), "a poll alone after boot does not bring it up");
        host.send(&[0x80]);
        host.send(&[0x81]);
        assert!(host.egm.link_up());
        assert_eq!(host.egm.take_events(), [Event::LinkUp(true)]);
        let last = host.now_us;
        // Silence: no chirp before 5 s, then one every 200 ms, and down.
        assert_eq!(host.egm.tick(last + 4_999_000, 0), None);
        assert!(host.egm.link_up());
        assert_eq!(host.egm.tick(last + 5_000_000, 0), Some(0x01));
        assert!(!host.egm.link_up());
        assert_eq!(host.egm.take_events(), [Event::LinkUp(false)]);
        assert_eq!(host.egm.tick(last + 5_100_000, 0), None);
        assert_eq!(host.egm.tick(last + 5_200_000, 0), Some(0x01));
        // Polls again: the chirps stop, the link comes back up.
        host.now_us = last + 6_000_000;
        host.send(&[0x80]);
        host.send(&[0x81]);
        assert!(host.egm.link_up());
        assert_eq!(host.egm.tick(host.now_us + 1_000_000, 0), None);
    }

    /// LP 71 as a floor sends it: transfer code, amount, parsing code 00,
    /// the validation as 9 BCD bytes.
    fn lp71(code: u8, amount: u64, validation: &str) -> Vec<u8> {
        let mut d = vec![code];
        d.extend(crate::bcd::encode(amount, 5));
        d.push(0x00);
        d.extend(crate::tickets::validation_bcd(validation));
        let mut m = vec![0x01, 0x71, d.len() as u8];
        m.extend(d);
        crate::crc::sealed(&m)
    }

    fn status_of(reply: &[u8]) -> u8 {
        reply[3]
    }

    #[test]
    fn a_ticket_is_redeemed_once_on_the_floors_word() {
        let v = "001234567890123456";
        let mut host = Host::new(Egm::new(1).unwrap());
        assert!(host.egm.ticket_inserted(v));
        assert!(!host.egm.ticket_inserted("9"), "one ticket at a time");
        // 67, the floor reads the ticket (LP 70: in escrow, its number).
        assert_eq!(host.send(&[0x81]), Some(vec![0x67]));
        let r70 = host.send(&[0x01, 0x70]).unwrap();
        assert_eq!(&r70[2..5], [0x10, 0x00, 0x00], "len 16, in escrow, amount 0…");
        assert_eq!(&r70[10..19], crate::tickets::validation_bcd(v).as_slice());
        // Redeem 25.00: pending, and the game host is asked once, however
        // often the floor repeats it.
        assert_eq!(status_of(&host.send(&lp71(0x00, 2_500, v)).unwrap()), status::PENDING);
        assert_eq!(status_of(&host.send(&lp71(0x00, 2_500, v)).unwrap()), status::PENDING, "the same poll again: resent");
        host.send(&[0x80]);
        assert_eq!(status_of(&host.send(&lp71(0x00, 2_500, v)).unwrap()), status::PENDING, "a retry: no second event");
        let asked: Vec<Event> = host.egm.take_events().into_iter().filter(|e| matches!(e, Event::RedeemTicket { .. })).collect();
        assert_eq!(asked, [Event::RedeemTicket { validation: v.into(), amount: 2_500 }]);
        // Committed: LP 71 FF reports it redeemed; an accept again gets the
        // same status and no second event.
        host.egm.ticket_done(v, 2_500, status::REDEEMED);
        host.send(&[0x80]);
        let st = host.send(&crate::crc::sealed(&[0x01, 0x71, 0x01, 0xFF])).unwrap();
        assert_eq!((status_of(&st), crate::bcd::decode(&st[4..9]).unwrap()), (status::REDEEMED, 2_500));
        assert_eq!(status_of(&host.send(&lp71(0x00, 2_500, v)).unwrap()), status::REDEEMED);
        assert!(host.egm.take_events().is_empty());
        // An answer for a ticket not in escrow: C0, nothing asked.
        host.send(&[0x80]);
        assert_eq!(status_of(&host.send(&lp71(0x00, 100, "000000000000000077")).unwrap()), 0xC0);
        assert!(host.egm.take_events().is_empty());
    }

    #[test]
    fn a_ticket_the_floor_refuses_goes_back_with_its_reason() {
        let v = "000000000000000042";
        let mut host = Host::new(Egm::new(1).unwrap());
        host.egm.ticket_inserted(v);
        assert_eq!(status_of(&host.send(&lp71(0x84, 0, v)).unwrap()), status::PENDING);
        assert_eq!(host.egm.take_events(), [Event::TicketRefused { validation: v.into(), code: 0x84 }]);
        // Restricted credit is not held here: refused by the cabinet.
        host.egm.ticket_done(v, 0, 0x84);
        host.egm.ticket_inserted("000000000000000005");
        host.send(&[0x80]);
        host.send(&lp71(0x01, 500, "0000000000000005"));
        let events: Vec<Event> = host.egm.take_events().into_iter().filter(|e| !matches!(e, Event::LinkUp(_))).collect();
        assert_eq!(events, [Event::TicketRefused { validation: "000000000000000005".into(), code: status::REJECTED_BY_EGM }]);
    }

    #[test]
    fn b0_reads_one_denominations_meters() {
        let mut s = Snapshot { accounting_denom: 1, player_denoms: vec![1, 5], ..Snapshot::default() };
        s.denominations.insert(5, crate::snapshot::Scope { coin_in: 4_000, ..Default::default() });
        let mut host = Host::new(Egm::new(1).unwrap());
        host.egm.publish(Arc::new(s));
        // B0, the nickel (code 02), LP 11: the nickel's coin in.
        let reply = host.send(&crate::crc::sealed(&[0x01, 0xB0, 0x02, 0x02, 0x11])).unwrap();
        assert_eq!(reply, crate::crc::sealed(&[0x01, 0xB0, 0x06, 0x02, 0x11, 0x00, 0x00, 0x40, 0x00]));
        // A denomination the cabinet does not offer: no reply.
        host.send(&[0x80]);
        assert_eq!(host.send(&crate::crc::sealed(&[0x01, 0xB0, 0x02, 0x04, 0x11])), None);
    }
}
