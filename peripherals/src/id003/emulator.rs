//! An ID-003 acceptor in software (issue 70): what the driver's tests and
//! the pty emulator (`tools/`) speak to. It answers the controller's frames
//! as an acceptor does, and can be told to take a note or a ticket, jam,
//! fill its stacker or lose power at any step; what physically ends in its
//! stacker or back in the player's hand is its record, the truth a test
//! sets the cabinet's credits against.

use std::collections::VecDeque;

use super::frame::{Frame, FrameError};
use super::message::{Denomination, RejectReason, Status};

/// Where an escrowed note is in the emulated path.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// After power returns: the power-up status it reports until reset.
    PoweredUp(Status),
    Initializing,
    Idle,
    Escrow(Denomination),
    Holding(Denomination),
    Stacking(Denomination),
    /// Repeated until the controller's ACK.
    VendValid(Denomination),
    Stacked,
    Returning(Denomination),
    Rejecting(RejectReason),
    Fault(Status),
}

/// The emulated acceptor.
#[derive(Debug)]
pub struct Emulator {
    step: Step,
    inhibited: bool,
    /// Denomination codes disabled (bit n: code 0x61 + n).
    disabled: u16,
    /// What the player feeds next.
    inserted: VecDeque<Denomination>,
    /// What ended in the stacker, in order.
    pub stacked: Vec<Denomination>,
    /// What went back to the player.
    pub returned: Vec<Denomination>,
    /// Notes the stacker holds before it is full.
    capacity: usize,
    /// Frames answered since it was made.
    answered: u64,
    /// Lose power just before answering this frame (counted from 1).
    cut_at: Option<u64>,
    /// The stacker is out of the acceptor.
    stacker_out: bool,
    /// The next answer is preceded by bytes that start no frame.
    garbage_next: bool,
    /// The next answer goes out with its CRC broken.
    corrupt_next: bool,
    /// It answers nothing (its line cut, or it hangs).
    pub silent: bool,
}

impl Default for Emulator {
    fn default() -> Self {
        Emulator::new()
    }
}

impl Emulator {
    /// An acceptor just powered on, inhibited, its stacker empty.
    pub fn new() -> Emulator {
        Emulator {
            step: Step::PoweredUp(Status::PowerUp),
            inhibited: true,
            disabled: 0,
            inserted: VecDeque::new(),
            stacked: Vec::new(),
            returned: Vec::new(),
            capacity: 600,
            answered: 0,
            cut_at: None,
            stacker_out: false,
            garbage_next: false,
            corrupt_next: false,
            silent: false,
        }
    }

    /// Lose power just before answering the `n`-th frame from now.
    pub fn power_cut_at(&mut self, n: u64) {
        self.cut_at = Some(self.answered + n);
    }

    /// Whether the controller has inhibited it.
    pub fn inhibited(&self) -> bool {
        self.inhibited
    }

    /// Idle (or disabled), nothing in its path and nothing waiting to be
    /// fed: every note fed has ended stacked or given back.
    pub fn settled(&self) -> bool {
        self.step == Step::Idle && self.inserted.is_empty()
    }

    /// Frames answered so far.
    pub fn answered(&self) -> u64 {
        self.answered
    }

    /// The stacker taken out (`true`) or put back.
    pub fn stacker_out(&mut self, out: bool) {
        self.stacker_out = out;
    }

    /// Someone pulls the note in escrow back out (stringing): the acceptor
    /// detects it, keeps nothing, and stops until reset.
    pub fn cheat(&mut self) {
        if let Step::Escrow(d) | Step::Holding(d) = &self.step {
            self.returned.push(d.clone());
        }
        self.step = Step::Fault(Status::Cheated);
    }

    /// A failure of its own (a sensor, code `code`), until reset.
    pub fn fail(&mut self, code: u8) {
        if let Step::Escrow(d) | Step::Holding(d) = &self.step {
            self.returned.push(d.clone());
        }
        self.step = Step::Fault(Status::Failure(code));
    }

    /// Garbage before the next answer, once.
    pub fn garbage_next(&mut self) {
        self.garbage_next = true;
    }

    /// The next answer's CRC broken, once.
    pub fn corrupt_next(&mut self) {
        self.corrupt_next = true;
    }

    /// The player feeds a note or a ticket: taken in turn once the
    /// acceptor is enabled (a script that feeds before the cabinet enables
    /// it).
    pub fn insert(&mut self, what: Denomination) {
        self.inserted.push_back(what);
    }

    /// The player offers a note or a ticket now, as at a real acceptor: an
    /// inhibited acceptor does not draw it in (it is back in the player's
    /// hand at once, `returned`); an enabled one takes it in turn. Whether
    /// it was taken.
    pub fn offer(&mut self, what: Denomination) -> bool {
        if self.inhibited || matches!(self.step, Step::Fault(_)) {
            self.returned.push(what);
            false
        } else {
            self.inserted.push_back(what);
            true
        }
    }

    /// The path jams (until a reset clears it, the note returned).
    pub fn jam(&mut self) {
        if let Step::Escrow(d) | Step::Holding(d) = &self.step {
            self.returned.push(d.clone());
        }
        self.step = Step::Fault(Status::JamInAcceptor);
    }

    /// The stacker holds `n` more notes.
    pub fn stacker_room(&mut self, n: usize) {
        self.capacity = self.stacked.len() + n;
    }

    /// The note or ticket in the acceptor's path now, and whether it is
    /// past the point of return (being stacked, or its vend valid said):
    /// what a real acceptor keeps through its own power cut, and the pty
    /// emulator keeps in a file through its process's (`egm-acceptor
    /// --state`).
    pub fn in_path(&self) -> Option<(Denomination, bool)> {
        match &self.step {
            Step::Escrow(d) | Step::Holding(d) | Step::Returning(d) => Some((d.clone(), false)),
            Step::Stacking(d) | Step::VendValid(d) => Some((d.clone(), true)),
            _ => None,
        }
    }

    /// An acceptor that lost power with `note` in its path (as
    /// [`Emulator::in_path`] said it): it powers up saying where the note
    /// is, the note given back or stacked as [`Emulator::power_cut`] does.
    pub fn powered_up_with(note: Option<(Denomination, bool)>) -> Emulator {
        let mut e = Emulator::new();
        if let Some((d, past_return)) = note {
            e.step = if past_return { Step::Stacking(d) } else { Step::Escrow(d) };
            e.power_cut();
        }
        e
    }

    /// Power is lost and comes back: a note in the acceptor's path is
    /// returned at power-up, one past the point of return goes to the
    /// stacker; the acceptor says which until it is reset.
    pub fn power_cut(&mut self) {
        let status = match std::mem::replace(&mut self.step, Step::Idle) {
            Step::Escrow(d) | Step::Holding(d) | Step::Returning(d) => {
                self.returned.push(d);
                Status::PowerUpNoteInAcceptor
            }
            Step::Stacking(d) | Step::VendValid(d) => {
                self.stacked.push(d);
                Status::PowerUpNoteInStacker
            }
            _ => Status::PowerUp,
        };
        self.inhibited = true;
        self.step = Step::PoweredUp(status);
    }

    /// The status it reports now.
    fn status(&self) -> Status {
        match &self.step {
            Step::PoweredUp(s) => s.clone(),
            _ if self.stacker_out => Status::StackerOpen,
            Step::Fault(s) => s.clone(),
            Step::Initializing => Status::Initializing,
            Step::Idle if self.inhibited => Status::Disabled,
            Step::Idle => Status::Idling,
            Step::Escrow(d) => Status::Escrow(d.clone()),
            Step::Holding(_) => Status::Holding,
            Step::Stacking(_) => Status::Stacking,
            Step::VendValid(_) => Status::VendValid,
            Step::Stacked => Status::Stacked,
            Step::Returning(_) => Status::Returning,
            Step::Rejecting(r) => Status::Rejecting(*r),
        }
    }

    /// The step after reporting a status the controller read.
    fn advance(&mut self) {
        self.step = match std::mem::replace(&mut self.step, Step::Idle) {
            Step::Initializing | Step::Stacked => Step::Idle,
            Step::Stacking(d) => Step::VendValid(d),
            Step::Returning(d) => {
                self.returned.push(d);
                Step::Idle
            }
            Step::Rejecting(_) => Step::Idle,
            Step::Idle if !self.inhibited => match self.inserted.pop_front() {
                Some(Denomination::Note(code)) if !(0x61..=0x70).contains(&code) || self.disabled & (1 << (code - 0x61)) != 0 => {
                    self.returned.push(Denomination::Note(code));
                    Step::Rejecting(RejectReason::Inhibited)
                }
                Some(d) if self.stacked.len() >= self.capacity => {
                    self.returned.push(d);
                    Step::Fault(Status::StackerFull)
                }
                Some(d) => Step::Escrow(d),
                None => Step::Idle,
            },
            other => other,
        };
    }

    /// The acceptor's answer to `bytes` from the controller: one frame in,
    /// its answer out (nothing for a frame it cannot read: the controller
    /// times out and asks again, as on a real line).
    pub fn answer(&mut self, bytes: &[u8]) -> Result<Vec<u8>, FrameError> {
        let (frame, _) = Frame::decode(bytes)?;
        self.answered += 1;
        if self.cut_at == Some(self.answered) {
            self.power_cut();
        }
        if self.silent {
            return Ok(Vec::new());
        }
        let reply = self.reply(&frame);
        // The controller's ACK is never answered.
        let mut reply = if frame.code == 0x50 { Vec::new() } else { reply.encode() };
        if reply.len() > 2 && std::mem::take(&mut self.corrupt_next) {
            let last = reply.len() - 1;
            reply[last] ^= 0xFF;
        }
        if !reply.is_empty() && std::mem::take(&mut self.garbage_next) {
            reply.splice(0..0, [0x00, 0x13, 0x37]);
        }
        Ok(reply)
    }

    fn reply(&mut self, frame: &Frame) -> Frame {
        match frame.code {
            0x11 => {
                let status = self.status();
                self.advance();
                status.frame()
            }
            0x40 => {
                if let Step::Escrow(d) | Step::Holding(d) = &self.step {
                    self.returned.push(d.clone());
                }
                self.step = Step::Initializing;
                Status::Ack.frame()
            }
            0x41 | 0x42 => match std::mem::replace(&mut self.step, Step::Idle) {
                Step::Escrow(d) | Step::Holding(d) => {
                    self.step = Step::Stacking(d);
                    Status::Ack.frame()
                }
                other => {
                    self.step = other;
                    Status::InvalidCommand.frame()
                }
            },
            0x43 => match std::mem::replace(&mut self.step, Step::Idle) {
                Step::Escrow(d) | Step::Holding(d) => {
                    self.step = Step::Returning(d);
                    Status::Ack.frame()
                }
                other => {
                    self.step = other;
                    Status::InvalidCommand.frame()
                }
            },
            0x44 => match std::mem::replace(&mut self.step, Step::Idle) {
                Step::Escrow(d) | Step::Holding(d) => {
                    self.step = Step::Holding(d);
                    Status::Ack.frame()
                }
                other => {
                    self.step = other;
                    Status::InvalidCommand.frame()
                }
            },
            // The controller's ACK of a vend valid: the note is stacked
            // (an ACK at any other time does nothing).
            0x50 => {
                if let Step::VendValid(d) = &self.step {
                    self.stacked.push(d.clone());
                    self.step = Step::Stacked;
                }
                Frame { code: 0x50, data: Vec::new() }
            }
            0xC0 => {
                if let [lo, hi] = frame.data[..] {
                    self.disabled = u16::from_le_bytes([lo, hi]);
                }
                Frame { code: 0xC0, data: frame.data.clone() }
            }
            0xC3 => {
                self.inhibited = frame.data.first().is_some_and(|b| *b != 0);
                Frame { code: 0xC3, data: frame.data.clone() }
            }
            _ => Status::InvalidCommand.frame(),
        }
    }
}

/// Serve `line` (a pty's master, or a UART) as the acceptor `emulator`:
/// every frame read is answered, bytes that start no frame are dropped.
/// Returns when `stop` is set, or with the error when the line fails (the
/// cabinet's end closed).
pub fn serve(line: std::fs::File, emulator: &std::sync::Mutex<Emulator>, stop: &std::sync::atomic::AtomicBool) -> std::io::Result<()> {
    use crate::far_end::{Reading, locked};
    crate::far_end::serve(line, stop, |pending| {
        Ok(match Frame::decode(pending) {
            Ok((frame, used)) => Reading::Answered { used, reply: locked(emulator)?.answer(&frame.encode()).unwrap_or_default() },
            Err(FrameError::Truncated { .. }) => Reading::Incomplete,
            // Not a frame here: drop a byte and look again.
            Err(_) => Reading::Skip(1),
        })
    })
}
