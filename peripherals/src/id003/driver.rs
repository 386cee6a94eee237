//! The cabinet's side of ID-003 (issue 70): what to send at each poll and
//! what the acceptor's answers mean to the host, as [`Event`]s. It decides
//! nothing about money: an escrowed note waits for the host's decision
//! ([`Acceptor::stack`], [`Acceptor::give_back`]), and a vend valid — the
//! note past the point of return, where its credit is due — is ACKed only
//! once the host has committed the credit ([`Acceptor::credited`]). A
//! power cut anywhere in between is the host's to resolve from its
//! journal: the acceptor says at power-up where the note was
//! ([`NoteAt`]) until it is reset, and it is reset only once the host has
//! committed what that said ([`Acceptor::power_up_settled`]) — a reset
//! sent before, then a cut of the cabinet, left the host's next start an
//! idle acceptor and a note it had stacked ended as given back. A driver
//! started afresh reports a vend valid whose escrow it never saw as such
//! ([`Event::VendValid`] with `None`).

use std::collections::VecDeque;

use super::message::{Command, Denomination, MessageError, Status};
use crate::acceptor::Fault;
pub use crate::acceptor::{Event, NoteAt};

/// Consecutive answers that do not read before the line is said lost.
const UNREADABLE_BEFORE_LOST: u32 = 3;

/// The driver's state between polls.
#[derive(Debug, Default)]
pub struct Acceptor {
    /// Commands to send before the next status request.
    queue: VecDeque<Command>,
    /// The command the next answer answers.
    sent: Option<Command>,
    /// The last status read.
    last: Option<Status>,
    /// What is in escrow, as reported.
    escrow: Option<Denomination>,
    /// What the host gave back, until the acceptor is idle again.
    returning: Option<Denomination>,
    /// A vend valid reported and not yet ACKed: what it was, if known.
    vend: Option<Option<Denomination>>,
    /// Whether the host ACKs the vend valid (it has committed the credit).
    acked: bool,
    /// A power-up status reported and the acceptor not yet reset: it is
    /// reset once the host has committed where the note was.
    power_up: bool,
    /// Whether the host wants notes taken.
    enabled: bool,
    /// What the acceptor last echoed of its inhibit setting.
    inhibited: Option<bool>,
    /// The escrow codes the host takes none of (bit n: code 0x61 + n),
    /// and whether the acceptor has echoed that setting since it started.
    disabled_codes: u16,
    codes_set: bool,
    /// Whether the last status read was idle or disabled.
    idle: bool,
    fault: Option<Status>,
    unreadable: u32,
}

impl Acceptor {
    /// A driver started afresh: inhibit first, until the host enables.
    pub fn new() -> Acceptor {
        Acceptor::default()
    }
    /// The command to send now.
    pub fn next_command(&mut self) -> Command {
        let command = self.queue.pop_front().unwrap_or(Command::StatusRequest);
        if command == Command::Reset {
            // A power-up status after a reset is a power-up of its own.
            self.last = None;
            self.power_up = false;
        }
        self.sent = Some(command.clone());
        command
    }
    /// The answer to the last command (`None`: none came in time).
    pub fn on_answer(&mut self, answer: Option<Result<Status, MessageError>>) -> Vec<Event> {
        let sent = self.sent.take();
        let status = match answer {
            // An ACK from the controller is not answered.
            None if sent == Some(Command::Ack) => return Vec::new(),
            None => return self.unreadable("no answer in time".into()),
            Some(Err(e)) => return self.unreadable(e.to_string()),
            Some(Ok(s)) => s,
        };
        self.unreadable = 0;
        match (&sent, status) {
            (Some(Command::Inhibit(_)), Status::Setting { code: 0xC3, data }) => {
                self.inhibited = Some(data.first().is_some_and(|b| *b != 0));
                Vec::new()
            }
            (Some(Command::Denominations { .. }), Status::Setting { code: 0xC0, data }) => {
                self.codes_set = data[..] == self.disabled_codes.to_le_bytes();
                Vec::new()
            }
            (Some(Command::StatusRequest) | None, status) => self.on_status(status),
            (_, Status::Ack | Status::Setting { .. }) => Vec::new(),
            (Some(c), Status::InvalidCommand) => vec![Event::Unreadable(format!("the acceptor refused {c:?}"))],
            (_, status) => self.on_status(status),
        }
    }
    fn unreadable(&mut self, why: String) -> Vec<Event> {
        self.unreadable += 1;
        let mut events = vec![Event::Unreadable(why)];
        if self.unreadable == UNREADABLE_BEFORE_LOST && self.fault.is_none() {
            self.fault = Some(Status::CommunicationError);
            events.push(Event::Fault(Fault::CommunicationLost));
        }
        events
    }
    fn on_status(&mut self, status: Status) -> Vec<Event> {
        let repeated = self.last.as_ref() == Some(&status);
        self.last = Some(status.clone());
        let was_idle = std::mem::replace(&mut self.idle, matches!(status, Status::Idling | Status::Disabled));
        // Idle or disabled says what the acceptor's inhibit is now, so an
        // inhibit lost on the line is sent again.
        if self.idle {
            self.inhibited = Some(status == Status::Disabled);
        }
        let mut events = Vec::new();
        if self.fault.is_some() && fault_of(&status).is_none() {
            self.fault = None;
            events.push(Event::Cleared);
        }
        match status {
            Status::PowerUp | Status::PowerUpNoteInAcceptor | Status::PowerUpNoteInStacker if !repeated => {
                let at = match status {
                    Status::PowerUpNoteInAcceptor => NoteAt::Acceptor,
                    Status::PowerUpNoteInStacker => NoteAt::Stacker,
                    _ => NoteAt::Nowhere,
                };
                // What this driver knew of a note is the past now.
                self.escrow = None;
                self.returning = None;
                self.vend = None;
                self.acked = false;
                self.inhibited = None;
                self.codes_set = false;
                self.queue.clear();
                self.power_up = true;
                events.push(Event::PoweredUp(at));
            }
            Status::Idling | Status::Disabled | Status::Initializing => {
                if let Some(d) = self.returning.take() {
                    events.push(Event::Returned(d));
                }
                self.escrow = None;
                if !self.codes_set && self.disabled_codes != 0 && !self.queue.iter().any(|c| matches!(c, Command::Denominations { .. })) {
                    self.queue.push_back(Command::Denominations { disabled: self.disabled_codes });
                }
                if self.inhibited != Some(!self.enabled) && !self.queue.iter().any(|c| matches!(c, Command::Inhibit(_))) {
                    self.queue.push_back(Command::Inhibit(!self.enabled));
                }
                if self.idle && !was_idle {
                    events.push(Event::Idle);
                }
            }
            // Holding what this driver never saw in escrow (the cabinet
            // restarted while the host waited on the floor): the holding
            // status does not say what it is, so it goes back; the host
            // ends what it had journaled at the acceptor's idle.
            Status::Holding if self.escrow.is_none() && self.returning.is_none() && !self.queue.contains(&Command::Return) => {
                self.queue.push_back(Command::Return);
            }
            Status::Escrow(d) if self.escrow.as_ref() != Some(&d) => {
                self.escrow = Some(d.clone());
                events.push(Event::Escrowed(d));
            }
            Status::VendValid if self.vend.is_none() => {
                let d = self.escrow.take();
                self.vend = Some(d.clone());
                self.acked = false;
                events.push(Event::VendValid(d));
            }
            Status::Stacked if self.vend.is_some() => {
                self.acked = false;
                events.push(Event::Stacked(self.vend.take().flatten()));
            }
            Status::Rejecting(r) if !repeated => events.push(Event::Rejected(r)),
            s if self.fault.as_ref() != Some(&s)
                && let Some(fault) = fault_of(&s) =>
            {
                self.fault = Some(s.clone());
                events.push(Event::Fault(fault));
            }
            _ => {}
        }
        events
    }
}

/// ID-003 as the host's acceptor (`crate::acceptor::NoteAcceptor`): its
/// line 9,600 baud 8E1, one poll as `super::port` says, the host's orders
/// as the driver's commands.
impl crate::acceptor::NoteAcceptor for Acceptor {
    fn open(&self, port: &std::path::Path) -> Result<crate::serial::SerialLine, crate::serial::LineError> {
        crate::serial::SerialLine::open_9600_8e1(port)
    }

    fn poll(&mut self, line: &mut crate::serial::SerialLine) -> std::io::Result<Vec<Event>> {
        super::port::poll(self, line)
    }

    /// Whether a command waits to be sent (the next poll need not wait
    /// for the poll period).
    fn has_commands(&self) -> bool {
        !self.queue.is_empty()
    }
    /// The host wants notes taken (`true`) or none (doors open, a tilt, a
    /// hand-pay, the credit limit).
    fn enable(&mut self, on: bool) {
        self.enabled = on;
        if self.inhibited != Some(!on) {
            self.queue.push_back(Command::Inhibit(!on));
        }
    }
    /// The escrow codes the acceptor is to take: every other code from
    /// 0x61 to 0x70 is disabled (the protocol's denomination setting),
    /// set now and again after every power-up.
    fn take_only(&mut self, codes: &[u8]) {
        self.disabled_codes = (0u8..16).filter(|n| !codes.contains(&(0x61 + n))).fold(0u16, |bits, n| bits | (1 << n));
        self.codes_set = false;
        self.queue.push_back(Command::Denominations { disabled: self.disabled_codes });
    }
    /// The line itself failed (the port went away, a read or write
    /// error): an answer that did not come, said as such.
    fn line_failed(&mut self, why: &str) -> Vec<Event> {
        self.sent = None;
        self.unreadable(format!("the line failed: {why}"))
    }
    /// The host's decision on the escrow: stack it.
    fn stack(&mut self) {
        if self.escrow.is_some() {
            self.queue.push_back(Command::Stack);
        }
    }
    /// The host has not decided yet (a ticket's validation with the
    /// floor): the acceptor keeps what is in escrow. Sent again within the
    /// acceptor's hold time while the host waits.
    fn hold(&mut self) {
        if self.escrow.is_some() {
            self.queue.push_back(Command::Hold);
        }
    }
    /// The host's decision on the escrow: give it back.
    fn give_back(&mut self) {
        if let Some(d) = self.escrow.clone() {
            self.returning = Some(d);
            self.queue.push_back(Command::Return);
        }
    }
    /// Reset the acceptor (an attendant cleared a fault): it gives back
    /// whatever is in its path and starts over.
    fn reset(&mut self) {
        self.escrow = None;
        self.inhibited = None;
        self.queue.push_back(Command::Reset);
    }
    /// The host committed the vend valid's credit: ACK it, once.
    fn credited(&mut self) {
        if self.vend.is_some() && !self.acked {
            self.acked = true;
            self.queue.push_back(Command::Ack);
        }
    }
    /// The host has committed what the acceptor's power-up status said
    /// (the note being stacked credited or ended given back): reset it,
    /// once. Until then the acceptor keeps saying where the note was, to
    /// this driver and to the next one if the cabinet is cut meanwhile.
    fn power_up_settled(&mut self) {
        if std::mem::take(&mut self.power_up) {
            self.queue.push_back(Command::Reset);
        }
    }
}

/// The fault a status reports, in the host's terms.
fn fault_of(s: &Status) -> Option<Fault> {
    Some(match s {
        Status::StackerFull => Fault::StackerFull,
        Status::StackerOpen => Fault::StackerOpen,
        Status::JamInAcceptor => Fault::JamInAcceptor,
        Status::JamInStacker => Fault::JamInStacker,
        Status::Pause => Fault::Pause,
        Status::Cheated => Fault::Cheated,
        Status::Failure(code) => Fault::Failure(*code),
        Status::CommunicationError => Fault::CommunicationLost,
        _ => return None,
    })
}
