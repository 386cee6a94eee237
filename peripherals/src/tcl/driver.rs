//! The cabinet's side of a TCL printer (issue 70): one ticket at a time,
//! printed once for the cash-out the core committed, as [`Event`]s for the
//! host, which journals the ticket printed at [`Event::Printed`].
//!
//! How a ticket is printed exactly once, through power cuts of the printer,
//! the cabinet or both. The printer's validation-done flag says the last
//! print's validation number is on paper; its power-up flag says it lost
//! power; both stay set until the cabinet clears them (a power-up loses
//! the first and sets the second). The cabinet clears them only with no
//! ticket in hand or before a ticket's first print, and sends that print
//! only once they read clear ([`Event::Ready`]). So while a ticket the core issued is
//! unprinted, the validation-done flag set means: this ticket is on paper.
//! It counts as printed once the printer is done with it as well (not
//! busy), and the flags stay set until the host says the core has
//! journaled it printed ([`Printer::journaled`]): a cabinet cut between
//! the driver's [`Event::Printed`] and the core's journal still finds the
//! flag that says the ticket is on paper, never a printer cleared behind
//! an unjournaled ticket (which would print it again, unmarked). A cabinet
//! restarted with an unprinted ticket
//! ([`Printer::resuming`]) reads the flags before it sends anything: done,
//! the ticket is printed; both clear, it never was, and it goes out now. A
//! printer that lost power with the ticket on its way out may have printed
//! its validation number before its flags were lost: the ticket goes out
//! again marked `DUPLICADO` with the same validation number (which the
//! floor and the core redeem once, whichever paper carries it), and the
//! power-up flag is left set until it is printed, so that a cabinet
//! restarted meanwhile reads the same.

use super::message::{Command, Flag, MessageError, Status};
use super::ticket::Ticket;
pub use crate::printer::{Event, PrintRefused, PrinterFault};

impl PrinterFault {
    pub const ALL: [PrinterFault; 6] =
        [PrinterFault::PaperOut, PrinterFault::PaperJam, PrinterFault::Open, PrinterFault::Failure, PrinterFault::Offline, PrinterFault::CommunicationLost];

    /// The fault a status shows, the most pressing first.
    fn of(s: &Status) -> Option<PrinterFault> {
        if s.has(Flag::PaperJam) {
            Some(PrinterFault::PaperJam)
        } else if s.has(Flag::PrinterOpen) || s.has(Flag::PlatenUp) {
            Some(PrinterFault::Open)
        } else if s.has(Flag::PaperOut) {
            Some(PrinterFault::PaperOut)
        } else if [Flag::HeadError, Flag::VoltageError, Flag::TemperatureError, Flag::SystemError].iter().any(|f| s.has(*f)) {
            Some(PrinterFault::Failure)
        } else if s.has(Flag::Offline) {
            Some(PrinterFault::Offline)
        } else {
            None
        }
    }
}

/// Where the ticket in hand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Its fate unread: a cabinet restarted with it unprinted.
    InDoubt,
    /// Not sent yet: the flags are cleared before it goes out.
    Unsent,
    /// Sent; polls since that found the printer neither busy nor done.
    Sent { idle_polls: u32 },
    /// Told printed ([`Event::Printed`]); its flags kept until the core
    /// has journaled it ([`Printer::journaled`]).
    Told,
}

/// Send the job's print (a duplicate's when it may be on paper already).
fn send(job: &mut Job, queued: &mut Option<Command>, events: &mut Vec<Event>) {
    match job.ticket.print(job.again) {
        Ok(print) => {
            *queued = Some(Command::Print(print));
            job.phase = Phase::Sent { idle_polls: 0 };
        }
        // Checked when the host gave it: cannot happen, and is named.
        Err(e) => events.push(Event::Unreadable(e.to_string())),
    }
}

#[derive(Debug)]
struct Job {
    ticket: Ticket,
    /// The printer may already have printed it.
    again: bool,
    phase: Phase,
}

/// Consecutive answers that do not read before the line is said lost.
const UNREADABLE_BEFORE_LOST: u32 = 3;
/// Polls that find a sent ticket neither printing nor printed before it
/// is sent again (the print was lost on the line or refused).
const IDLE_POLLS_BEFORE_RESEND: u32 = 2;

/// The driver's state between polls.
#[derive(Debug, Default)]
pub struct Printer {
    /// The command that goes out before the next status request.
    queued: Option<Command>,
    job: Option<Job>,
    last: Option<Status>,
    fault: Option<PrinterFault>,
    paper_low: bool,
    ready: bool,
    unreadable: u32,
}

impl Printer {
    /// A driver started with no ticket to finish.
    pub fn new() -> Printer {
        Printer::default()
    }

    /// A driver started with a ticket the core issued and never saw
    /// printed: its fate is read from the printer before anything is sent.
    pub fn resuming(ticket: Ticket) -> Printer {
        Printer { job: Some(Job { ticket, again: false, phase: Phase::InDoubt }), ..Printer::default() }
    }

    /// Whether a ticket may be given to it now.
    pub fn ready(&self) -> bool {
        self.ready
    }

    pub fn fault(&self) -> Option<PrinterFault> {
        self.fault
    }

    pub fn paper_low(&self) -> bool {
        self.paper_low
    }

    /// The validation number of the ticket in hand.
    pub fn printing(&self) -> Option<&str> {
        self.job.as_ref().map(|j| j.ticket.validation.as_str())
    }

    /// The core has journaled the ticket of `validation` printed: the
    /// printer's flags are cleared at the next poll and it is ready for the
    /// next ticket. Any other number, or a ticket not yet told printed,
    /// changes nothing.
    pub fn journaled(&mut self, validation: &str) {
        if self.job.as_ref().is_some_and(|j| j.phase == Phase::Told && j.ticket.validation == validation) {
            self.job = None;
            self.queued = Some(Command::ClearFlags);
        }
    }

    /// The bytes of this poll: the command waiting, if any, then the
    /// status request the printer answers.
    pub fn next_bytes(&mut self) -> Vec<u8> {
        let mut out = self.queued.take().map(|c| c.encode()).unwrap_or_default();
        out.extend(Command::Status.encode());
        out
    }

    /// The printer's answer to this poll (`None`: nothing came).
    pub fn on_answer(&mut self, answer: Option<Result<Status, MessageError>>) -> Vec<Event> {
        let mut events = Vec::new();
        let s = match answer {
            Some(Ok(s)) => s,
            other => {
                if let Some(Err(e)) = other {
                    events.push(Event::Unreadable(e.to_string()));
                }
                self.unreadable += 1;
                self.ready = false;
                if self.unreadable >= UNREADABLE_BEFORE_LOST && self.fault != Some(PrinterFault::CommunicationLost) {
                    self.fault = Some(PrinterFault::CommunicationLost);
                    events.push(Event::Fault(PrinterFault::CommunicationLost));
                }
                return events;
            }
        };
        self.unreadable = 0;
        let powered_up = s.has(Flag::PowerUp);
        if powered_up && !self.last.as_ref().is_some_and(|l| l.has(Flag::PowerUp)) {
            events.push(Event::PoweredUp);
        }
        let fault = PrinterFault::of(&s);
        if fault != self.fault {
            events.push(match fault {
                Some(f) => Event::Fault(f),
                None => Event::Cleared,
            });
            self.fault = fault;
        }
        if s.has(Flag::PaperLow) != self.paper_low {
            self.paper_low = s.has(Flag::PaperLow);
            events.push(Event::PaperLow(self.paper_low));
        }
        let busy = s.has(Flag::Busy);
        let done = s.has(Flag::ValidationDone);
        let flags_clear = !done && !powered_up;
        match self.job.as_mut() {
            None => {
                if !flags_clear {
                    self.queued = Some(Command::ClearFlags);
                }
            }
            // Nothing is sent, nothing cleared, until the core's journal says
            // printed: the flags are the only record of it on paper.
            Some(Job { phase: Phase::Told, .. }) => {}
            Some(job) => {
                if busy {
                    if let Phase::Sent { .. } = job.phase {
                        job.phase = Phase::Sent { idle_polls: 0 };
                    }
                } else if done && job.phase != Phase::Unsent {
                    // Only this ticket's print set the flag since it was
                    // last cleared (or since the printer last lost power).
                    events.push(Event::Printed(job.ticket.validation.clone()));
                    job.phase = Phase::Told;
                } else if job.phase == Phase::Unsent {
                    // Nothing of it went out: the flags are cleared first.
                    if !flags_clear {
                        self.queued = Some(Command::ClearFlags);
                    } else if fault.is_none() {
                        send(job, &mut self.queued, &mut events);
                    }
                } else if fault.is_some() {
                    job.phase = if job.phase == Phase::InDoubt { Phase::InDoubt } else { Phase::Sent { idle_polls: 0 } };
                } else {
                    // Not busy, not done, no fault. Lost power since the
                    // flags were cleared: whether its validation number
                    // reached paper went with the flags, so it goes out
                    // marked as a duplicate (the power-up flag is left set
                    // until it is printed, so a cabinet restarted meanwhile
                    // reads the same). Otherwise its print never started or
                    // stopped short of the validation number: nothing of it
                    // is valid and it goes out as itself.
                    job.again |= powered_up;
                    match job.phase {
                        Phase::Sent { idle_polls } if idle_polls + 1 < IDLE_POLLS_BEFORE_RESEND => job.phase = Phase::Sent { idle_polls: idle_polls + 1 },
                        _ => send(job, &mut self.queued, &mut events),
                    }
                }
            }
        }
        let ready = self.job.is_none() && fault.is_none() && !busy && flags_clear;
        if ready && !self.ready {
            events.push(Event::Ready);
        }
        self.ready = ready;
        self.last = Some(s);
        events
    }
}

/// TCL as the host's printer (`crate::printer::TicketPrinter`): its line
/// 9,600 baud 8N1, one poll as `super::port` says.
impl crate::printer::TicketPrinter for Printer {
    fn open(&self, port: &std::path::Path) -> Result<crate::serial::SerialLine, crate::serial::LineError> {
        crate::serial::SerialLine::open_9600_8n1(port)
    }

    fn poll(&mut self, line: &mut crate::serial::SerialLine) -> std::io::Result<Vec<Event>> {
        super::port::poll(self, line)
    }

    fn no_answer(&mut self) -> Vec<Event> {
        self.on_answer(None)
    }

    fn journaled(&mut self, validation: &str) {
        Printer::journaled(self, validation);
    }

    /// Print `ticket` (the core has committed its cash-out).
    fn print(&mut self, ticket: Ticket) -> Result<(), PrintRefused> {
        if let Some(j) = &self.job {
            return Err(PrintRefused::Busy(j.ticket.validation.clone()));
        }
        if let Some(f) = self.fault {
            return Err(PrintRefused::Fault(f));
        }
        ticket.print(false).map_err(|e| PrintRefused::Ticket(e.to_string()))?;
        self.job = Some(Job { ticket, again: false, phase: Phase::Unsent });
        self.ready = false;
        Ok(())
    }
}
