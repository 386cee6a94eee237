//! One SAS port of the cabinet (sas.md §1): the wire's bytes in, the
//! replies out, the link's implied acknowledgements and its state (up
//! after a sync poll and a poll to this address; down after 5 s without a
//! poll, with the chirp every 200 ms), the exceptions, and every long poll
//! answered from the host's latest snapshot. Nothing here blocks or reads
//! critical memory: a reply is computed from what this struct holds when
//! the poll's last byte comes. What the host must act on (play disabled,
//! the clock set, a signature asked for) leaves as [`Event`]s.

mod aft;
mod progressive;
#[cfg(test)]
mod tests;
mod tickets;

use std::sync::Arc;

use crate::exceptions::{Exception, Exceptions};
use crate::frame::{Assembler, BadAddress, Frame};
use crate::link::{Answered, Implied, Link};
use crate::snapshot::Snapshot;
use crate::tickets::TicketIn;
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
    /// false) or out to it. The game host journals it pending
    /// ([`Egm::aft_journaled`]), then makes or fails it ([`Egm::aft_done`]),
    /// or refuses it ([`Egm::aft_refused`]).
    AftTransfer { id: String, to_host: bool, cents: u64 },
    /// LP 73: the floor changed the cabinet's AFT registration. The game
    /// host journals it in the core (answered from the snapshot then), or
    /// calls [`Egm::aft_registration_refused`].
    AftRegister(crate::registration::Registration),
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
    /// LP 4C: the floor set the secure-enhanced validation ID and sequence
    /// number; the game host records them through the core.
    ValidationIdSet { id: u32, sequence: u32 },
    /// LP 03 / 04 / 05: the floor turned the cabinet's sounds off, on, or
    /// off for the game's own (reels, cards, wins; alarms still heard).
    Sounds(Sounds),
    /// LP 06 (true) / 07 (false): the floor enables or disables the note
    /// acceptor (the cabinet's own conditions still apply when enabled).
    NoteAcceptor(bool),
    /// LP 0A (true) / 0B (false): the floor puts the cabinet in maintenance
    /// mode (play stops) or takes it out.
    Maintenance(bool),
    /// LP 08: the floor lets the note acceptor take only these note values
    /// (cents), and disables it after each note taken when
    /// `disable_after_each` (LP 06 enables it again).
    NoteValues { cents: Vec<u64>, disable_after_each: bool },
    /// LP 09: the floor disables (false) or enables game `game` (from 1).
    GameEnabled { game: u16, enabled: bool },
    /// LP 2E: the floor delays the start of the next game by this many
    /// milliseconds (0 ends a delay).
    GameDelay { ms: u64 },
    /// LP 7D: the floor's ticket data.
    TicketData(crate::ticket_data::TicketData),
}

/// What the floor lets the cabinet sound (LP 03, 04, 05).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sounds {
    /// Every sound (LP 04; the cabinet's default).
    #[default]
    All,
    /// None (LP 03).
    None,
    /// The game's own sounds off (reel stops, cards, wins), alarms and
    /// attendant calls heard (LP 05).
    NoGameSounds,
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
    /// The AFT registration the floor asked for (LP 73), not yet in the
    /// snapshot, and whether the core refused it.
    registering: Option<(crate::registration::Registration, bool)>,
    /// The floor has set its ticket data (LP 7D).
    ticket_data_set: bool,
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
            registering: None,
            ticket_data_set: false,
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
            // Issue 71: framed and never answered before; the digest
            // (sas.md §6) ACKs them, and the game host acts on each.
            0x03..=0x05 => {
                self.events.push(Event::Sounds(match command {
                    0x03 => Sounds::None,
                    0x04 => Sounds::All,
                    _ => Sounds::NoGameSounds,
                }));
                return Some(ack);
            }
            0x06 | 0x07 => {
                self.events.push(Event::NoteAcceptor(command == 0x06));
                return Some(ack);
            }
            0x0A | 0x0B => {
                self.events.push(Event::Maintenance(command == 0x0A));
                return Some(ack);
            }
            // Issue 71: the note values the acceptor takes (a 4-byte mask
            // and the action: 00 disable after each note, 01 stay enabled).
            0x08 => {
                let mask: [u8; 4] = data.get(..4)?.try_into().ok()?;
                let action = *data.get(4)?;
                if action > 0x01 {
                    return None;
                }
                self.events.push(Event::NoteValues { cents: crate::codes::bills_enabled(mask), disable_after_each: action == 0x00 });
                return Some(ack);
            }
            // Game N disabled (00) or enabled (01); a game the cabinet
            // does not have, or game 0, gets no ACK [R].
            0x09 => {
                let game = crate::meters::game_number(data)?;
                let enabled = match *data.get(2)? {
                    0x00 => false,
                    0x01 => true,
                    _ => return None,
                };
                self.snapshot.game(game)?;
                self.events.push(Event::GameEnabled { game, enabled });
                return Some(ack);
            }
            // The game delay, in units of 100 ms (2 BCD).
            0x2E => {
                let units = crate::bcd::decode(data.get(..2)?).ok()?;
                self.events.push(Event::GameDelay { ms: units * 100 });
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
            // The last SAS progressive level won here, of this group
            // (85 after exception 56; 84 the same [R]).
            0x84 | 0x85 => crate::progressive::reply_84(self.progressive.as_ref()?.group(), snapshot.progressive_win),
            0x58 => self.validation(data),
            0x4C => self.validation_id(data, &snapshot)?,
            0x72 => self.aft_transfer(data)?,
            0x74 => self.aft_lock(data)?,
            0x73 => self.aft_register(data)?,
            0x87 => crate::progressive::reply_87(self.progressive.as_ref()?.group(), snapshot.progressive_win),
            0x7B => crate::ticket_data::reply_7b(&snapshot),
            // The floor's ticket data: held (01) once read; the query
            // (length 0) says whether the floor has set it.
            0x7D => match crate::ticket_data::parse_7d(data) {
                Ok(Some(d)) => {
                    self.events.push(Event::TicketData(d));
                    self.ticket_data_set = true;
                    vec![0x01]
                }
                Ok(None) => vec![u8::from(self.ticket_data_set)],
                // Data the cabinet cannot read: not held (00).
                Err(_) => vec![0x00],
            },
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
