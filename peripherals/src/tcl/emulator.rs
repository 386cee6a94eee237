//! A TCL ticket printer in software (issue 70): what the driver's tests and
//! the pty emulator speak to. A ticket takes three status polls to print —
//! its top, then its validation number and barcode (the validation-done
//! flag), then the rest and the cut — so that a power cut, a jam or the
//! paper's end can fall at each step. What came out of it, whole or not,
//! is its record ([`Emulator::tickets`]): the truth a test sets the
//! cabinet's journal against.

use super::message::{Command, Flag, MessageError, Print, Status};
use super::ticket::{DUPLICATE, REGIONS, TEMPLATE};

/// A ticket that came out of the printer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paper {
    pub fields: Vec<String>,
    /// Its validation number and barcode are on it.
    pub validation_printed: bool,
    /// Printed to its end and cut.
    pub whole: bool,
}

impl Paper {
    /// The validation number it carries (the barcode region).
    pub fn validation(&self) -> &str {
        self.fields.get(2).map_or("", String::as_str)
    }

    /// It says it is a duplicate.
    pub fn duplicate(&self) -> bool {
        self.fields.get(9).is_some_and(|f| f == DUPLICATE)
    }
}

/// The emulated printer.
#[derive(Debug)]
pub struct Emulator {
    flags: Status,
    /// The ticket on its way out and the steps it has taken (1 to 3).
    printing: Option<u8>,
    /// Tickets the paper left makes.
    paper: u32,
    /// At or below this many, paper low.
    low_at: u32,
    jammed: bool,
    open: bool,
    pub tickets: Vec<Paper>,
    /// Status requests answered since it was made.
    answered: u64,
    cut_at: Option<u64>,
    /// The paper ends at this step of the next ticket.
    paper_ends_at: Option<u8>,
    /// The paper jams at this step of the next ticket.
    jam_at: Option<u8>,
    /// It answers nothing (its line cut, or it hangs).
    pub silent: bool,
    garbage_next: bool,
}

impl Default for Emulator {
    fn default() -> Self {
        Emulator::new()
    }
}

impl Emulator {
    /// A printer just powered on, with a full box of 500 tickets.
    pub fn new() -> Emulator {
        let mut flags = Status::new("EGM-TCL-EMU 1.0");
        flags.set(Flag::PowerUp, true);
        flags.set(Flag::TopOfForm, true);
        Emulator {
            flags,
            printing: None,
            paper: 500,
            low_at: 50,
            jammed: false,
            open: false,
            tickets: Vec::new(),
            answered: 0,
            cut_at: None,
            paper_ends_at: None,
            jam_at: None,
            silent: false,
            garbage_next: false,
        }
    }

    /// Status requests answered so far.
    pub fn answered(&self) -> u64 {
        self.answered
    }

    /// Lose power just before answering the `n`-th status request from now.
    pub fn power_cut_at(&mut self, n: u64) {
        self.cut_at = Some(self.answered + n);
    }

    /// Load `tickets` of paper (a new box).
    pub fn load_paper(&mut self, tickets: u32) {
        self.paper = tickets;
        self.refresh_paper();
    }

    /// The paper runs out at `step` (1 to 3) of the next ticket.
    pub fn paper_ends_at_step(&mut self, step: u8) {
        self.paper_ends_at = Some(step);
    }

    /// The paper jams at `step` (1 to 3) of the next ticket.
    pub fn jam_at_step(&mut self, step: u8) {
        self.jam_at = Some(step);
    }

    /// The attendant takes the jammed paper out.
    pub fn unjam(&mut self) {
        self.jammed = false;
        self.flags.set(Flag::PaperJam, false);
    }

    /// The printer's cover opened (`true`) or shut.
    pub fn set_open(&mut self, open: bool) {
        self.open = open;
        self.flags.set(Flag::PrinterOpen, open);
        self.flags.set(Flag::PlatenUp, open);
    }

    /// The next answer is preceded by bytes that start no message.
    pub fn garbage_next(&mut self) {
        self.garbage_next = true;
    }

    /// Its validation-done flag: the last print's validation number is on
    /// paper, and the cabinet has not cleared the flag since.
    pub fn validation_done(&self) -> bool {
        self.flags.has(Flag::ValidationDone)
    }

    /// A ticket is on its way out.
    pub fn busy(&self) -> bool {
        self.printing.is_some()
    }

    pub fn paper_left(&self) -> u32 {
        self.paper
    }

    fn refresh_paper(&mut self) {
        self.flags.set(Flag::PaperOut, self.paper == 0);
        self.flags.set(Flag::PaperLow, self.paper > 0 && self.paper <= self.low_at);
    }

    fn fault(&self) -> bool {
        self.jammed || self.open || self.paper == 0
    }

    /// Take one command; the answer to send back (empty but for a status
    /// request).
    pub fn answer(&mut self, command: &Command) -> Vec<u8> {
        match command {
            Command::Status => self.status(),
            Command::ClearFlags => {
                for f in [Flag::ValidationDone, Flag::PowerUp, Flag::CommandError] {
                    self.flags.set(f, false);
                }
                Vec::new()
            }
            Command::ClearJam => {
                // The flag follows the paper: only an emptied path clears.
                self.flags.set(Flag::PaperJam, self.jammed);
                Vec::new()
            }
            Command::Reset => {
                self.lose_power();
                Vec::new()
            }
            Command::Print(p) => {
                self.start(p);
                Vec::new()
            }
        }
    }

    /// Take the bytes of one command (the pty's side).
    pub fn answer_bytes(&mut self, bytes: &[u8]) -> Result<(Vec<u8>, usize), MessageError> {
        let (command, used) = Command::decode(bytes)?;
        Ok((self.answer(&command), used))
    }

    fn start(&mut self, p: &Print) {
        if self.printing.is_some() || self.fault() || p.template != TEMPLATE || p.fields.len() != REGIONS.len() {
            self.flags.set(Flag::CommandError, true);
            return;
        }
        self.flags.set(Flag::ValidationDone, false);
        self.flags.set(Flag::TopOfForm, false);
        self.flags.set(Flag::Busy, true);
        self.tickets.push(Paper { fields: p.fields.clone(), validation_printed: false, whole: false });
        self.printing = Some(0);
    }

    /// One step of the ticket on its way out.
    fn step(&mut self) {
        let Some(done) = self.printing else { return };
        let step = done + 1;
        if self.paper_ends_at == Some(step) {
            self.paper_ends_at = None;
            self.paper = 0;
            self.refresh_paper();
            self.stop();
            return;
        }
        if self.jam_at == Some(step) {
            self.jam_at = None;
            self.jammed = true;
            self.flags.set(Flag::PaperJam, true);
            self.stop();
            return;
        }
        let Some(ticket) = self.tickets.last_mut() else { return };
        match step {
            1 => {}
            2 => {
                ticket.validation_printed = true;
                self.flags.set(Flag::ValidationDone, true);
            }
            _ => {
                ticket.whole = true;
                self.paper = self.paper.saturating_sub(1);
                self.refresh_paper();
                self.flags.set(Flag::TopOfForm, true);
                self.flags.set(Flag::PaperInChute, true);
                self.stop();
                return;
            }
        }
        self.printing = Some(step);
    }

    fn stop(&mut self) {
        self.printing = None;
        self.flags.set(Flag::Busy, false);
    }

    fn lose_power(&mut self) {
        self.printing = None;
        let mut flags = Status::new(&self.flags.version);
        flags.set(Flag::PowerUp, true);
        flags.set(Flag::TopOfForm, true);
        self.flags = flags;
        self.flags.set(Flag::PaperJam, self.jammed);
        self.set_open(self.open);
        self.refresh_paper();
    }

    fn status(&mut self) -> Vec<u8> {
        self.answered += 1;
        if self.cut_at == Some(self.answered) {
            self.cut_at = None;
            self.lose_power();
            return Vec::new();
        }
        if self.silent {
            return Vec::new();
        }
        // The ticket the player took at the last answer has left the chute.
        if self.printing.is_none() {
            self.flags.set(Flag::PaperInChute, false);
        }
        self.step();
        let mut out = Vec::new();
        if std::mem::take(&mut self.garbage_next) {
            out.extend_from_slice(&[0x00, 0x13, b'#']);
        }
        out.extend(self.flags.encode());
        out
    }
}

/// Serve `emulator` on `line` (a pty's far end) until `stop`: each
/// command read is answered. What does not read is dropped byte by byte.
pub fn serve(line: std::fs::File, emulator: &std::sync::Mutex<Emulator>, stop: &std::sync::atomic::AtomicBool) -> std::io::Result<()> {
    use crate::far_end::{Reading, locked};
    crate::far_end::serve(line, stop, |pending| {
        Ok(match locked(emulator)?.answer_bytes(pending) {
            Ok((reply, used)) => Reading::Answered { used, reply },
            Err(MessageError::Truncated { .. }) => Reading::Incomplete,
            // Not a command here: drop to the next opening.
            Err(_) => Reading::Skip(pending.iter().skip(1).position(|&b| b == b'^').map_or(pending.len(), |p| p + 1)),
        })
    })
}
