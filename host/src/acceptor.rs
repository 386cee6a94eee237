//! The note acceptor on the game host's side (issue 70): the acceptor's
//! port is polled on a thread of its own (`peripherals::id003`, about
//! every 200 ms); here, after every command or on the screen's timer, the
//! host acts on what the acceptor said, through the core, and tells the
//! acceptor what it decided.
//!
//! A note, step by step (ARCHITECTURE.md, "A note through the acceptor"):
//!
//! 1. in escrow: the core decides ([`meters::Machine::stack_note`]): a
//!    note it refuses is journaled and given back; one it takes is
//!    journaled as being stacked *before* the stack command is sent;
//! 2. vend valid (past the point of return): the credit is committed
//!    ([`meters::Machine::note_vend_valid`]) and only then ACKed, so the
//!    acceptor repeats the vend valid until the credit is in critical
//!    memory;
//! 3. after a power cut of the cabinet, of the acceptor, or both, the
//!    acceptor says where the note is, and the core ends the note being
//!    stacked exactly once: credited when it is in the stacker's path or
//!    at its vend valid, given back (no credit) when it is in the
//!    acceptor's path or the acceptor is idle, stacked again when it is
//!    still in escrow; the acceptor is reset out of its power-up status
//!    only once that is committed.
//!
//! A fault the acceptor reports (jam, stacker full or removed, cheat,
//! failure, the line lost) is a tilt of its own (E-38) that stops play and
//! notes; the attendant's key clears it only once the acceptor reports it
//! gone (E-36), after a reset of the acceptor asked by that key.
//!
//! The acceptor is enabled only while the core would take a note: no door
//! open, no tilt, no hand-pay waiting, no round in play, the smallest note
//! it takes within the credit limit, and never in demonstration.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use meters::{AcceptorFault, Cents, CoreError, Tilt};
use peripherals::acceptor::{Denomination, Event, Fault, NoteAcceptor, NoteAt};
use peripherals::id003;
use peripherals::serial::SerialLine;
use serde::{Deserialize, Serialize};

use crate::notice::Notice;
use crate::session::Session;

/// The protocol an acceptor speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AcceptorProtocol {
    /// JCM's ID-003 (9,600 baud, 8E1).
    #[default]
    Id003,
}

impl AcceptorProtocol {
    /// A driver of this protocol, started afresh.
    fn driver(self) -> Box<dyn NoteAcceptor> {
        match self {
            AcceptorProtocol::Id003 => Box::new(id003::Acceptor::new()),
        }
    }

    fn name(self) -> &'static str {
        match self {
            AcceptorProtocol::Id003 => "ID-003",
        }
    }
}

/// One escrow code the acceptor reports and the note it stands for: the
/// codes of a unit depend on the currency it was set up for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoteCode {
    pub code: u8,
    pub cents: Cents,
}

/// `acceptor: Some((port: "/dev/ttyUSB0", notes: [(code: 0x62, cents:
/// 500), …]))` in the cabinet's configuration: the note acceptor's port,
/// its protocol, and the notes it takes (every other code is disabled in
/// the acceptor itself). No acceptor when absent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptorSetup {
    pub port: PathBuf,
    #[serde(default)]
    pub protocol: AcceptorProtocol,
    pub notes: Vec<NoteCode>,
    /// Milliseconds between polls (ID-003: 100 to 200).
    #[serde(default = "default_poll_ms")]
    pub poll_ms: u32,
    /// The control socket of the acceptor's emulator (`egm-acceptor
    /// --control`), when the port is one: the operator panel's notes and
    /// tickets and the lab build's keys are fed to it, and go the whole
    /// driver path. Only on a lab or evaluation cabinet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emulator: Option<PathBuf>,
}

fn default_poll_ms() -> u32 {
    200
}

impl AcceptorSetup {
    /// What is wrong with this setup against the machine's notes, if
    /// anything (the configuration's load refuses it, naming it).
    pub fn problem(&self, accepted: &[Cents], machine: &meters::MachineConfig) -> Option<String> {
        if self.emulator.is_some() && !machine.mode.is_lab() && !machine.evaluation {
            return Some("an emulator's control socket is named on a floor cabinet: only a lab or evaluation cabinet runs an emulated acceptor".into());
        }
        if !(10..=1_000).contains(&self.poll_ms) {
            return Some(format!("poll_ms {} is outside 10 to 1000", self.poll_ms));
        }
        if self.notes.is_empty() {
            return Some("no note codes: name each escrow code the acceptor reports and its value".into());
        }
        let mut seen = std::collections::BTreeSet::new();
        for n in &self.notes {
            if !(0x61..=0x70).contains(&n.code) {
                return Some(format!("note code {:#04x} is not an ID-003 escrow code (0x61 to 0x70)", n.code));
            }
            if !seen.insert(n.code) {
                return Some(format!("note code {:#04x} is named twice", n.code));
            }
            if !accepted.contains(&n.cents) {
                return Some(format!("note code {:#04x} is {} cents, a note the machine does not accept (machine.accepted_notes)", n.code, n.cents));
            }
        }
        None
    }

    fn code(&self, cents: Cents) -> Option<u8> {
        self.notes.iter().find(|n| n.cents == cents).map(|n| n.code)
    }

    fn value(&self, code: u8) -> Option<Cents> {
        self.notes.iter().find(|n| n.code == code).map(|n| n.cents)
    }
}

/// What the host tells the acceptor's thread.
/// Where a note or a ticket from the operator panel or a key goes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Route {
    /// Credited by the core at once: a lab or evaluation cabinet with no
    /// acceptor configured, or the lab build's development keys standing
    /// in for one.
    Direct,
    /// Fed to the acceptor's emulator through its control socket.
    Emulator(PathBuf),
    /// Refused: the retail build's acceptor alone takes money in.
    Refused,
}

/// `floor`: a floor cabinet (production, not evaluation), whose money
/// comes in through its devices only (issue 68: the operator panel,
/// opened by an argument nothing measures, once credited a floor cabinet
/// with no acceptor fitted).
pub(crate) fn route(setup: Option<&AcceptorSetup>, lab: bool, floor: bool) -> Route {
    match setup {
        None if floor && !lab => Route::Refused,
        None => Route::Direct,
        Some(AcceptorSetup { emulator: Some(socket), .. }) => Route::Emulator(socket.clone()),
        Some(_) if lab => Route::Direct,
        Some(_) => Route::Refused,
    }
}

/// What the operator panel or a lab key feeds.
pub(crate) enum Feed<'a> {
    Note(Cents),
    Ticket(&'a str),
}

#[derive(Debug)]
enum Order {
    Enable(bool),
    /// Keep the ticket in escrow while the floor decides (LP 70/71).
    Hold,
    Stack,
    GiveBack,
    Credited,
    /// Where the acceptor said at power-up that the note was is committed.
    PowerUpSettled,
    Reset,
}

/// The acceptor's link: its poll thread and what the host knows of it.
pub struct AcceptorLink {
    setup: AcceptorSetup,
    orders: Sender<Order>,
    events: Receiver<Event>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    /// The last enable the host sent.
    enabled: Option<bool>,
    /// The fault the acceptor reports now, as it last said.
    fault: Option<AcceptorFault>,
    /// Whether a status has been read since the link started (a fault is
    /// re-checked before a standing tilt is cleared, E-36).
    heard: bool,
    /// The attendant asked to clear the acceptor's tilts: done once the
    /// acceptor reports its fault gone.
    clear_asked: bool,
    /// The ticket in escrow that the floor is deciding on (LP 70/71), and
    /// when the acceptor was last told to hold it.
    with_floor: Option<(String, Instant)>,
}

/// How often a ticket the floor is deciding on is held again: within the
/// escrow hold time of ID-003 acceptors (about 10 s).
const HOLD_AGAIN: Duration = Duration::from_secs(5);

impl AcceptorLink {
    /// Opens the port (an absent port, or one that is not a serial line,
    /// is an error naming it) and starts polling.
    pub fn start(setup: &AcceptorSetup, wake: crate::wake::Wake) -> Result<AcceptorLink, String> {
        let mut driver = setup.protocol.driver();
        let line = driver.open(&setup.port).map_err(|e| format!("note acceptor ({}): {e}", setup.protocol.name()))?;
        let (orders, orders_in) = channel();
        let (events_out, events) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        driver.take_only(&setup.notes.iter().map(|n| n.code).collect::<Vec<_>>());
        let port = Poller { path: setup.port.clone(), line: Some(line), driver, period: Duration::from_millis(u64::from(setup.poll_ms)) };
        let thread = {
            let stop = stop.clone();
            std::thread::Builder::new()
                .name("note-acceptor".into())
                .spawn(move || port.run(&orders_in, &events_out, &stop, &wake))
                .map_err(|e| format!("note acceptor: cannot start its thread: {e}"))?
        };
        Ok(AcceptorLink {
            setup: setup.clone(),
            orders,
            events,
            stop,
            thread: Some(thread),
            enabled: None,
            fault: None,
            heard: false,
            clear_asked: false,
            with_floor: None,
        })
    }

    fn order(&self, order: Order) {
        // The thread ends only with the link.
        let _ = self.orders.send(order);
    }

    /// Whether the acceptor holds the floor's ticket `validation` in
    /// escrow; if so the floor's wait for it ends here.
    fn take_held(&mut self, validation: &str) -> bool {
        if self.with_floor.as_ref().is_none_or(|(v, _)| v != validation) {
            return false;
        }
        self.with_floor = None;
        true
    }

    /// The fault the acceptor reports now.
    pub fn fault(&self) -> Option<AcceptorFault> {
        self.fault
    }
}

impl Drop for AcceptorLink {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The pause between an answer and a command that waits (ID-003 leaves
/// the controller free to send as soon as the answer is in).
const COMMAND_GAP: Duration = Duration::from_millis(10);

/// The poll thread's side.
struct Poller {
    path: PathBuf,
    line: Option<SerialLine>,
    driver: Box<dyn NoteAcceptor>,
    period: Duration,
}

impl Poller {
    fn run(mut self, orders: &Receiver<Order>, events: &Sender<Event>, stop: &AtomicBool, wake: &crate::wake::Wake) {
        while !stop.load(Ordering::SeqCst) {
            loop {
                match orders.try_recv() {
                    Ok(order) => self.take(order),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => return,
                }
            }
            let said = self.poll();
            if !said.is_empty() {
                for e in said {
                    if events.send(e).is_err() {
                        return;
                    }
                }
                wake.wake();
            }
            // The next poll: a command waiting goes after a frame's gap;
            // else the status is asked again after the poll period, or as
            // soon as the host decides something (a stack, an ACK), so a
            // decision never waits a period.
            if self.driver.has_commands() {
                std::thread::sleep(COMMAND_GAP);
                continue;
            }
            match orders.recv_timeout(self.period) {
                Ok(order) => self.take(order),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    fn take(&mut self, order: Order) {
        match order {
            Order::Enable(on) => self.driver.enable(on),
            Order::Hold => self.driver.hold(),
            Order::Stack => self.driver.stack(),
            Order::GiveBack => self.driver.give_back(),
            Order::Credited => self.driver.credited(),
            Order::PowerUpSettled => self.driver.power_up_settled(),
            Order::Reset => self.driver.reset(),
        }
    }

    /// One poll; a line that failed is opened again at the next.
    fn poll(&mut self) -> Vec<Event> {
        let mut line = match self.line.take() {
            Some(line) => line,
            None => match self.driver.open(&self.path) {
                Ok(line) => line,
                Err(e) => return self.driver.line_failed(&e.to_string()),
            },
        };
        match self.driver.poll(&mut line) {
            Ok(said) => {
                self.line = Some(line);
                said
            }
            Err(e) => self.driver.line_failed(&format!("{}: {e}", self.path.display())),
        }
    }
}

/// The tilt of an acceptor's fault (a pause — a second note fed while
/// one is handled — is not one).
fn tilt_of(fault: Fault) -> Option<AcceptorFault> {
    Some(match fault {
        Fault::JamInAcceptor | Fault::JamInStacker => AcceptorFault::Jam,
        Fault::StackerFull => AcceptorFault::StackerFull,
        Fault::StackerOpen => AcceptorFault::StackerRemoved,
        Fault::Cheated => AcceptorFault::Cheat,
        Fault::Failure(_) => AcceptorFault::Failure,
        Fault::CommunicationLost => AcceptorFault::CommunicationLost,
        Fault::Pause => return None,
    })
}

impl Session {
    /// The acceptor's link after a command (or on the screen's timer):
    /// what it said acted on through the core, its enable kept to what
    /// the core would take. Without an acceptor, nothing.
    pub fn tend_acceptor(&mut self) {
        let Some(mut link) = self.acceptor.take() else { return };
        while let Ok(event) = link.events.try_recv() {
            self.on_acceptor_event(&mut link, event);
        }
        if let Some((_, held)) = link.with_floor.as_mut()
            && held.elapsed() >= HOLD_AGAIN
        {
            *held = Instant::now();
            link.order(Order::Hold);
        }
        let on = self.takes_notes(&link.setup);
        if link.enabled != Some(on) {
            link.enabled = Some(on);
            link.order(Order::Enable(on));
        }
        self.acceptor = Some(link);
    }

    /// Whether the core would take a note now.
    fn takes_notes(&self, setup: &AcceptorSetup) -> bool {
        let smallest = setup.notes.iter().map(|n| n.cents).min().unwrap_or(Cents::MAX);
        let state = self.machine.state();
        !self.config.demo
            && self.machine.play_block().is_none()
            && state.credit.saturating_add(smallest) <= self.machine.config().credit_limit
            // Issue 71: the floor's system disabled it (SAS LP 07).
            && self.floor().is_none_or(crate::floor::FloorLink::notes_enabled)
    }

    fn on_acceptor_event(&mut self, link: &mut AcceptorLink, event: Event) {
        if !matches!(event, Event::Unreadable(_)) {
            link.heard = true;
        }
        match event {
            Event::PoweredUp(at) => {
                // A ticket the floor was still deciding on went back.
                self.floor_ticket_back_from_acceptor(link);
                // The acceptor is reset only once where it says the note
                // was is committed: it says so again after a cut here.
                if self.end_stacking(at == NoteAt::Stacker) {
                    link.order(Order::PowerUpSettled);
                }
            }
            Event::Escrowed(Denomination::Note(code)) => {
                let Some(cents) = link.setup.value(code) else {
                    tracing::warn!("note acceptor: escrow code {code:#04x} is not in the configuration: given back");
                    link.order(Order::GiveBack);
                    return;
                };
                // Issue 71: a value the floor does not let it take (LP 08).
                if self.floor().is_some_and(|f| !f.takes_note(cents)) {
                    link.order(Order::GiveBack);
                    self.fail(Notice::NoteOffByFloor { value: cents });
                    return;
                }
                match self.machine.stack_note(cents) {
                    Ok(()) => link.order(Order::Stack),
                    // The note journaled as being stacked is still in
                    // escrow (the cabinet restarted before the stack
                    // command reached the acceptor): stack it now.
                    Err(CoreError::NoteStillStacking(v)) if v == cents => link.order(Order::Stack),
                    Err(e) => {
                        link.order(Order::GiveBack);
                        self.fail(Notice::Core(e));
                    }
                }
            }
            // This machine's own ticket (M-25 f): checked and journaled
            // as being stacked, credited at vend valid as a note is. On a
            // floor, its system validates every ticket (LP 70/71): the
            // acceptor holds it while the floor decides, and the floor's
            // answer stacks it at the floor's amount or gives it back
            // (`floor::requests`).
            Event::Escrowed(Denomination::Ticket(validation)) => {
                // The floor's ticket journaled as being stacked is still in
                // escrow (the cabinet restarted before the stack command
                // reached the acceptor): stack it now, the floor's word
                // already on record.
                if self.machine.floor_ticket_stacking().is_some_and(|(v, _)| v == validation) {
                    link.order(Order::Stack);
                    return;
                }
                if let Some(floor) = self.floor.as_mut() {
                    if floor.ticket_inserted(&validation) {
                        link.with_floor = Some((validation, Instant::now()));
                        link.order(Order::Hold);
                        self.message = Some(Notice::TicketWithFloor);
                    } else {
                        link.order(Order::GiveBack);
                    }
                    return;
                }
                match self.machine.stack_ticket(&validation) {
                    Ok(_) => link.order(Order::Stack),
                    Err(CoreError::TicketStillStacking(v)) if v == validation => link.order(Order::Stack),
                    Err(e) => {
                        link.order(Order::GiveBack);
                        self.fail(Notice::Core(e));
                    }
                }
            }
            Event::VendValid(_) => match self.credit_vend_valid() {
                // Credited now, or nothing was being stacked (credited
                // before a restart, or never asked): ACKed either way.
                Ok(()) => {
                    link.order(Order::Credited);
                }
                // Not ACKed: the acceptor repeats its vend valid, and the
                // credit is committed when the core can.
                Err(e) => self.fail(Notice::Core(e)),
            },
            Event::Idle => {
                self.floor_ticket_back_from_acceptor(link);
                if self.machine.note_stacking().is_some() || self.machine.ticket_stacking().is_some() || self.machine.floor_ticket_stacking().is_some() {
                    self.end_stacking(false);
                }
            }
            Event::Fault(reported) => {
                let Some(fault) = tilt_of(reported) else { return };
                link.fault = Some(fault);
                let tilt = Tilt::NoteAcceptor(fault);
                if !self.machine.state().tilts.contains(&tilt)
                    && let Err(e) = self.machine.set_tilt(tilt, &format!("{}: {reported:?}", link.setup.port.display()))
                {
                    self.fail(Notice::Core(e));
                }
            }
            Event::Cleared => {
                link.fault = None;
                if std::mem::take(&mut link.clear_asked) {
                    self.clear_acceptor_tilts();
                }
            }
            Event::Unreadable(why) => tracing::warn!("note acceptor {}: {why}", link.setup.port.display()),
            Event::Stacked(_) | Event::Returned(_) | Event::Rejected(_) => {}
        }
    }

    /// The acceptor's vend valid: the credit of what is being stacked,
    /// committed; a floor's ticket's told to the floor as redeemed.
    fn credit_vend_valid(&mut self) -> Result<(), CoreError> {
        let floor_ticket = self.machine.floor_ticket_stacking().map(|(v, _)| v.to_owned());
        let credited = self.machine.note_vend_valid()?;
        if let (Some(v), Some(floor)) = (floor_ticket, self.floor.as_mut()) {
            floor.ticket_ended(&v, credited);
            if let Some(value) = credited {
                self.message = Some(Notice::TicketRedeemed { value });
                return Ok(());
            }
        }
        self.message = None;
        Ok(())
    }

    /// What was being stacked when the acceptor powered up or went idle,
    /// ended: credited when it is in the stacker, else given back; a
    /// floor's ticket's fate told to the floor. False when the core could
    /// not commit it (the failure shown).
    fn end_stacking(&mut self, in_stacker: bool) -> bool {
        let floor_ticket = self.machine.floor_ticket_stacking().map(|(v, _)| v.to_owned());
        match self.machine.note_at_power_up(in_stacker) {
            Ok(credited) => {
                if let (Some(v), Some(floor)) = (floor_ticket, self.floor.as_mut()) {
                    floor.ticket_ended(&v, credited);
                }
                true
            }
            Err(e) => {
                self.fail(Notice::Core(e));
                false
            }
        }
    }

    /// The ticket the floor was deciding on is no longer in escrow (the
    /// acceptor powered up, or went idle: given back): journaled as given
    /// back, and the floor told.
    fn floor_ticket_back_from_acceptor(&mut self, link: &mut AcceptorLink) {
        let Some((validation, _)) = link.with_floor.take() else { return };
        if let Some(floor) = self.floor.as_mut() {
            floor.ticket_given_back(&validation);
        }
        if let Err(e) = self.machine.floor_ticket_given_back(&validation) {
            self.fail(Notice::Core(e));
        }
    }

    /// Issue 70: the floor authorised the ticket the acceptor holds for
    /// `amount` (LP 71): journaled as being stacked at that amount and
    /// stacked, its credit at the vend valid; refused by the core (a
    /// limit, a door), given back and the floor told. False when the
    /// acceptor holds no such ticket (the ticket came by another reader).
    pub(crate) fn floor_redeems_held_ticket(&mut self, floor: &mut crate::floor::FloorLink, validation: &str, amount: Cents) -> bool {
        let Some(link) = self.acceptor.as_mut() else { return false };
        if !link.take_held(validation) {
            return false;
        }
        match self.machine.stack_floor_ticket(validation, amount) {
            Ok(()) => link.order(Order::Stack),
            Err(e) => {
                link.order(Order::GiveBack);
                floor.ticket_ended(validation, None);
                self.fail(Notice::Core(e));
            }
        }
        true
    }

    /// Issue 70: the floor refused the ticket the acceptor holds, or did
    /// not answer in time: given back. False when the acceptor holds no
    /// such ticket.
    pub(crate) fn give_back_held_ticket(&mut self, validation: &str) -> bool {
        let Some(link) = self.acceptor.as_mut() else { return false };
        if !link.take_held(validation) {
            return false;
        }
        link.order(Order::GiveBack);
        true
    }

    /// The attendant's key on the acceptor's tilts: cleared now when the
    /// acceptor has been heard and reports no fault; else the acceptor is
    /// reset, and they clear once it reports the fault gone.
    pub(crate) fn attendant_clears_acceptor(&mut self) {
        let standing = self.machine.state().tilts.iter().any(|t| matches!(t, Tilt::NoteAcceptor(_)));
        let Some(link) = self.acceptor.as_mut() else {
            // No acceptor configured any more: nothing can re-check it.
            if standing {
                self.clear_acceptor_tilts();
            }
            return;
        };
        if !standing {
            return;
        }
        if link.heard && link.fault.is_none() {
            self.clear_acceptor_tilts();
        } else {
            link.clear_asked = true;
            link.order(Order::Reset);
        }
    }

    fn clear_acceptor_tilts(&mut self) {
        let standing: Vec<Tilt> = self.machine.state().tilts.iter().copied().filter(|t| matches!(t, Tilt::NoteAcceptor(_))).collect();
        for t in standing {
            if let Err(e) = self.machine.clear_tilt(t, "attendant") {
                self.fail(Notice::Core(e));
            }
        }
    }

    /// Starts the acceptor's link from the configuration (boot).
    pub(crate) fn start_acceptor(&mut self) -> Result<(), String> {
        let Some(setup) = self.config.acceptor.clone() else { return Ok(()) };
        self.acceptor = Some(AcceptorLink::start(&setup, self.wake.clone())?);
        Ok(())
    }

    /// Issue 70: a note or a ticket from the operator panel or the lab
    /// build's keys on a cabinet with an acceptor ([`route`]): fed to the
    /// acceptor's emulator, when the configuration names one, so it goes
    /// the whole driver path; refused on the retail build otherwise — with
    /// an acceptor fitted, money comes in through it alone. False when the
    /// caller is to credit it as the keys always did.
    pub(crate) fn feed_acceptor(&mut self, what: Feed<'_>) -> bool {
        let machine = self.machine.config();
        let floor = machine.mode == meters::Mode::Production && !machine.evaluation;
        let socket = match route(self.acceptor.as_ref().map(|l| &l.setup), cfg!(feature = "lab"), floor) {
            Route::Direct => return false,
            Route::Refused => {
                self.fail(Notice::ThroughAcceptor);
                return true;
            }
            Route::Emulator(socket) => socket,
        };
        let Some(link) = self.acceptor.as_ref() else { return false };
        let line = match what {
            Feed::Note(cents) => match link.setup.code(cents) {
                Some(code) => format!("note {code:#04x}\n"),
                None => {
                    self.fail(Notice::AcceptorEmulator(format!("no escrow code is configured for {cents} cents")));
                    return true;
                }
            },
            Feed::Ticket(v) => format!("ticket {v}\n"),
        };
        let sent = std::os::unix::net::UnixStream::connect(&socket).and_then(|mut s| std::io::Write::write_all(&mut s, line.as_bytes()));
        if let Err(e) = sent {
            self.fail(Notice::AcceptorEmulator(format!("{}: {e}", socket.display())));
        }
        true
    }

    /// The acceptor's link, when the cabinet has one.
    pub fn acceptor(&self) -> Option<&AcceptorLink> {
        self.acceptor.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 70: with an acceptor fitted, the retail build's operator panel
    /// puts no money in by itself; an emulated acceptor is fed; the lab
    /// build's keys stand in for an acceptor with no emulator.
    #[test]
    fn money_from_the_panel_goes_through_the_acceptor_when_one_is_fitted() {
        let fitted = AcceptorSetup { port: "/dev/ttyUSB0".into(), protocol: AcceptorProtocol::Id003, notes: vec![], poll_ms: 200, emulator: None };
        let emulated = AcceptorSetup { emulator: Some("var/acceptor.sock".into()), ..fitted.clone() };
        assert_eq!(route(None, false, false), Route::Direct);
        assert_eq!(route(Some(&fitted), false, false), Route::Refused);
        assert_eq!(route(Some(&fitted), true, false), Route::Direct);
        assert_eq!(route(Some(&emulated), false, false), Route::Emulator("var/acceptor.sock".into()));
        assert_eq!(route(Some(&emulated), true, false), Route::Emulator("var/acceptor.sock".into()));
        // Issue 68: a floor cabinet with no acceptor takes no money from the
        // panel at all (the retail build); with one, only through it.
        assert_eq!(route(None, false, true), Route::Refused);
        assert_eq!(route(Some(&fitted), false, true), Route::Refused);
    }

    #[test]
    fn an_emulator_on_a_floor_cabinet_is_refused() {
        let emulated = AcceptorSetup {
            port: "var/acceptor".into(),
            protocol: AcceptorProtocol::Id003,
            notes: vec![NoteCode { code: 0x62, cents: 500 }],
            poll_ms: 200,
            emulator: Some("var/acceptor.sock".into()),
        };
        let floor = meters::MachineConfig { mode: meters::Mode::Production, evaluation: false, ..meters::MachineConfig::default() };
        let problem = emulated.problem(&[500], &floor).unwrap_or_default();
        assert!(problem.contains("only a lab or evaluation cabinet"), "{problem:?}");
        let evaluation = meters::MachineConfig { evaluation: true, ..floor };
        assert_eq!(emulated.problem(&[500], &evaluation), None);
    }
}
