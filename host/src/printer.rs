//! The ticket printer on the game host's side (issue 70): the printer's
//! port is polled on a thread of its own (`peripherals::tcl`, every
//! `poll_ms`); here, after every command or on the screen's timer, the host
//! acts on what the printer said, through the core.
//!
//! A cash-out's ticket, step by step (ARCHITECTURE.md, "A ticket through
//! the printer"): the core moves the credit to the ticket first
//! (`TicketIssued`, unprinted); the host gives the oldest unprinted ticket
//! to the printer once it is ready; the core journals it printed
//! (`Machine::ticket_printed`) when the driver reports its validation
//! number on paper and the printer done with it. After a power cut the
//! link starts with the unprinted ticket in doubt, and the printer's flags
//! say whether it was printed (the driver's documentation says how no
//! ticket is printed twice unmarked).
//!
//! A printer that cannot print when the player cashes out keeps the credit
//! on the machine (nothing moves, ARCHITECTURE.md's decision); each fault
//! it reports is a tilt of its own (E-38) that the attendant's key clears
//! only once the printer reports it gone (E-36).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use meters::{PrinterFault, Tilt};
use peripherals::printer::{self as device, Event, TicketPrinter};
use peripherals::serial::SerialLine;
use peripherals::tcl;
use serde::{Deserialize, Serialize};

use crate::notice::Notice;
use crate::session::Session;

/// How long the host waits, with the printer ready and nothing said, before
/// it looks again for a ticket the core holds unprinted.
const LOOK_AGAIN: Duration = Duration::from_secs(1);

/// The language a printer speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PrinterProtocol {
    /// TCL (FutureLogic/JCM GEN2–GEN5, Nanoptix; 9,600 baud, 8N1).
    #[default]
    Tcl,
}

impl PrinterProtocol {
    /// A driver of this language, with the ticket the core holds
    /// unprinted, if any, in doubt.
    fn driver(self, resume: Option<device::Ticket>) -> Box<dyn TicketPrinter> {
        match self {
            PrinterProtocol::Tcl => Box::new(resume.map_or_else(tcl::Printer::new, tcl::Printer::resuming)),
        }
    }

    fn name(self) -> &'static str {
        match self {
            PrinterProtocol::Tcl => "TCL",
        }
    }
}

/// `printer: Some((port: "/dev/ttyUSB1"))` in the cabinet's configuration:
/// the ticket printer's port and protocol. Without it, tickets are written
/// as text files to `ticket_dir` (the evaluation printer).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrinterSetup {
    pub port: PathBuf,
    #[serde(default)]
    pub protocol: PrinterProtocol,
    /// Milliseconds between status requests.
    #[serde(default = "default_poll_ms")]
    pub poll_ms: u32,
    /// Days a ticket may be redeemed, printed as its expiry date.
    #[serde(default = "default_expiry_days")]
    pub expiry_days: u16,
}

fn default_poll_ms() -> u32 {
    200
}

fn default_expiry_days() -> u16 {
    30
}

impl PrinterSetup {
    /// What is wrong with this setup, if anything (the configuration's
    /// load refuses it, naming it).
    pub fn problem(&self) -> Option<String> {
        if !(10..=1_000).contains(&self.poll_ms) {
            return Some(format!("poll_ms {} is outside 10 to 1000", self.poll_ms));
        }
        (!(1..=3_650).contains(&self.expiry_days)).then(|| format!("expiry_days {} is outside 1 to 3650", self.expiry_days))
    }
}

/// What the host tells the printer's thread.
#[derive(Debug)]
enum Order {
    Print(device::Ticket),
    /// The core has journaled this ticket printed.
    Journaled(String),
}

/// What the printer's thread tells the host.
#[derive(Debug)]
enum Said {
    Event(Event),
    /// The driver would not take the ticket (a fault came first): it stays
    /// unprinted in the core and is given again once the printer is ready.
    Refused(String, String),
}

/// The printer's link: its poll thread and what the host knows of it.
pub struct PrinterLink {
    setup: PrinterSetup,
    orders: Sender<Order>,
    said: Receiver<Said>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    ready: bool,
    /// The validation number of the ticket the printer has in hand.
    printing: Option<String>,
    fault: Option<PrinterFault>,
    paper_low: bool,
    /// Whether a status has been read since the link started.
    heard: bool,
    /// The attendant asked to clear the printer's tilts: done once the
    /// printer reports its fault gone.
    clear_asked: bool,
    /// When the host last looked for a ticket to give, and how many tickets
    /// the core had issued then: it looks again only when the printer said
    /// something, a ticket was issued, or a second has passed — not every
    /// frame (`tend_printer`).
    looked: Option<(Instant, usize)>,
}

impl PrinterLink {
    /// Opens the port (an absent port, or one that is not a serial line,
    /// is an error naming it) and starts polling, with the ticket the core
    /// holds unprinted, if any, in doubt.
    pub fn start(setup: &PrinterSetup, resume: Option<device::Ticket>, wake: crate::wake::Wake) -> Result<PrinterLink, String> {
        let printing = resume.as_ref().map(|t| t.validation.clone());
        let driver = setup.protocol.driver(resume);
        let line = driver.open(&setup.port).map_err(|e| format!("ticket printer ({}): {e}", setup.protocol.name()))?;
        let (orders, orders_in) = channel();
        let (said_out, said) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let poller = Poller { path: setup.port.clone(), line: Some(line), driver, period: Duration::from_millis(u64::from(setup.poll_ms)) };
        let thread = {
            let stop = stop.clone();
            std::thread::Builder::new()
                .name("ticket-printer".into())
                .spawn(move || poller.run(&orders_in, &said_out, &stop, &wake))
                .map_err(|e| format!("ticket printer: cannot start its thread: {e}"))?
        };
        Ok(PrinterLink {
            setup: setup.clone(),
            orders,
            said,
            stop,
            thread: Some(thread),
            ready: false,
            printing,
            fault: None,
            paper_low: false,
            heard: false,
            clear_asked: false,
            looked: None,
        })
    }

    /// Whether a ticket may be printed now.
    pub fn ready(&self) -> bool {
        self.ready && self.printing.is_none() && self.fault.is_none()
    }

    pub fn fault(&self) -> Option<PrinterFault> {
        self.fault
    }

    pub fn paper_low(&self) -> bool {
        self.paper_low
    }

    /// The validation number of the ticket the printer has in hand.
    pub fn printing(&self) -> Option<&str> {
        self.printing.as_deref()
    }
}

impl Drop for PrinterLink {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The poll thread's side.
struct Poller {
    path: PathBuf,
    line: Option<SerialLine>,
    driver: Box<dyn TicketPrinter>,
    period: Duration,
}

impl Poller {
    fn run(mut self, orders: &Receiver<Order>, said: &Sender<Said>, stop: &AtomicBool, wake: &crate::wake::Wake) {
        while !stop.load(Ordering::SeqCst) {
            loop {
                match orders.try_recv() {
                    Ok(order) => self.take(order, said),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => return,
                }
            }
            let events = self.poll();
            if !events.is_empty() {
                for e in events {
                    if said.send(Said::Event(e)).is_err() {
                        return;
                    }
                }
                wake.wake();
            }
            // A ticket given goes out at once, never after a period.
            match orders.recv_timeout(self.period) {
                Ok(order) => self.take(order, said),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    fn take(&mut self, order: Order, said: &Sender<Said>) {
        match order {
            Order::Print(ticket) => {
                let validation = ticket.validation.clone();
                if let Err(e) = self.driver.print(ticket) {
                    let _ = said.send(Said::Refused(validation, e.to_string()));
                }
            }
            Order::Journaled(validation) => self.driver.journaled(&validation),
        }
    }

    /// One poll; a line that failed is opened again at the next, and
    /// counts as an answer that did not come.
    fn poll(&mut self) -> Vec<Event> {
        let mut line = match self.line.take() {
            Some(line) => line,
            None => match self.driver.open(&self.path) {
                Ok(line) => line,
                Err(_) => return self.driver.no_answer(),
            },
        };
        match self.driver.poll(&mut line) {
            Ok(events) => {
                self.line = Some(line);
                events
            }
            Err(_) => self.driver.no_answer(),
        }
    }
}

/// The core's tilt for a driver's fault.
fn tilt_of(f: device::PrinterFault) -> PrinterFault {
    match f {
        device::PrinterFault::PaperOut => PrinterFault::PaperOut,
        device::PrinterFault::PaperJam => PrinterFault::PaperJam,
        device::PrinterFault::Open => PrinterFault::Open,
        device::PrinterFault::Failure => PrinterFault::Failure,
        device::PrinterFault::Offline => PrinterFault::Offline,
        device::PrinterFault::CommunicationLost => PrinterFault::CommunicationLost,
    }
}

/// The core's ticket as the printer's template lays it out: its date and
/// time (UTC, to the second) and the date it expires, `expiry_days` on.
pub(crate) fn ticket_to_print(t: &meters::ticket::Ticket, currency: &meters::Currency, expiry_days: u16) -> device::Ticket {
    let (date, time) = t.issued_utc.split_once(['T', ' ']).unwrap_or((t.issued_utc.as_str(), ""));
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let expiry = time::Date::parse(date, format)
        .ok()
        .and_then(|d| d.checked_add(time::Duration::days(i64::from(expiry_days))))
        .and_then(|d| d.format(format).ok())
        .map_or_else(String::new, |d| format!("VALIDO ATE {d}"));
    device::Ticket {
        validation: t.validation.clone(),
        amount: currency.format(t.value),
        amount_in_words: crate::ticket_printer::amount_in_words(t.value, currency),
        machine: t.machine_id.clone(),
        date: date.to_owned(),
        time: time.chars().take(8).collect(),
        expiry,
    }
}

impl Session {
    /// The printer's link after a command (or on the screen's timer): what
    /// it said acted on through the core; the oldest unprinted ticket given
    /// to it once it is ready. Without a printer, nothing.
    pub fn tend_printer(&mut self) {
        let Some(mut link) = self.printer.take() else { return };
        let mut heard = false;
        while let Ok(said) = link.said.try_recv() {
            heard = true;
            match said {
                Said::Event(e) => self.on_printer_event(&mut link, e),
                Said::Refused(validation, why) => {
                    tracing::warn!("ticket printer: ticket {validation} not taken: {why}");
                    link.printing = None;
                }
            }
        }
        let issued = self.machine.state().tickets.len();
        let stale = link.looked.is_none_or(|(at, seen)| seen != issued || at.elapsed() >= LOOK_AGAIN);
        if link.ready() && (heard || stale) {
            link.looked = Some((Instant::now(), issued));
            if let Some(t) = self.machine.unprinted_tickets().first() {
                link.printing = Some(t.validation.clone());
                // The thread ends only with the link.
                let _ = link.orders.send(Order::Print(ticket_to_print(t, &self.machine.config().currency, link.setup.expiry_days)));
            }
        }
        self.printer = Some(link);
    }

    fn on_printer_event(&mut self, link: &mut PrinterLink, event: Event) {
        if !matches!(event, Event::Unreadable(_)) {
            link.heard = true;
        }
        match event {
            Event::Printed(validation) => {
                link.printing = None;
                // Not ready again before the driver says so: until the
                // printer reads its flags clear, the flag that says this
                // ticket is on paper would be read, after a cut, as the
                // next ticket's (journaled printed with no paper).
                link.ready = false;
                let value = self.machine.unprinted_tickets().iter().find(|t| t.validation == validation).map(|t| t.value);
                match self.machine.ticket_printed(&validation) {
                    Ok(()) => {
                        tracing::info!("ticket {validation} printed on {}", link.setup.port.display());
                        // Only now may the printer forget it printed it:
                        // a cut before this line finds it said again.
                        let _ = link.orders.send(Order::Journaled(validation.clone()));
                        if let Some(value) = value {
                            self.message = Some(Notice::TicketPrinted { value });
                        }
                    }
                    Err(e) => self.fail(Notice::Core(e)),
                }
            }
            Event::Ready => link.ready = true,
            Event::Fault(f) => {
                let fault = tilt_of(f);
                link.fault = Some(fault);
                link.ready = false;
                let tilt = Tilt::Printer(fault);
                if !self.machine.state().tilts.contains(&tilt)
                    && let Err(e) = self.machine.set_tilt(tilt, &format!("{}: {f:?}", link.setup.port.display()))
                {
                    self.fail(Notice::Core(e));
                }
            }
            Event::Cleared => {
                link.fault = None;
                if std::mem::take(&mut link.clear_asked) {
                    self.clear_printer_tilts();
                }
            }
            Event::PaperLow(low) => {
                link.paper_low = low;
                tracing::warn!("ticket printer {}: paper {}", link.setup.port.display(), if low { "low" } else { "loaded" });
                // In the event log, and told to the floor when low (SAS 74).
                if let Err(e) = self.machine.printer_paper(low) {
                    self.fail(Notice::Core(e));
                }
            }
            Event::PoweredUp => tracing::info!("ticket printer {}: powered up", link.setup.port.display()),
            Event::Unreadable(why) => tracing::warn!("ticket printer {}: {why}", link.setup.port.display()),
        }
    }

    /// The attendant's key on the printer's tilts: cleared now when the
    /// printer has been heard and reports no fault; else once it does.
    pub(crate) fn attendant_clears_printer(&mut self) {
        let standing = self.machine.state().tilts.iter().any(|t| matches!(t, Tilt::Printer(_)));
        let Some(link) = self.printer.as_mut() else {
            if standing {
                self.clear_printer_tilts();
            }
            return;
        };
        if !standing {
            return;
        }
        if link.heard && link.fault.is_none() {
            self.clear_printer_tilts();
        } else {
            link.clear_asked = true;
        }
    }

    fn clear_printer_tilts(&mut self) {
        let standing: Vec<Tilt> = self.machine.state().tilts.iter().copied().filter(|t| matches!(t, Tilt::Printer(_))).collect();
        for t in standing {
            if let Err(e) = self.machine.clear_tilt(t, "attendant") {
                self.fail(Notice::Core(e));
            }
        }
    }

    /// Starts the printer's link from the configuration (boot), with the
    /// ticket the core holds unprinted in doubt.
    pub(crate) fn start_printer(&mut self) -> Result<(), String> {
        let Some(setup) = self.config.printer.clone() else { return Ok(()) };
        let resume = self.machine.unprinted_tickets().first().map(|t| ticket_to_print(t, &self.machine.config().currency, setup.expiry_days));
        self.printer = Some(PrinterLink::start(&setup, resume, self.wake.clone())?);
        Ok(())
    }

    /// The printer's link, when the cabinet has one.
    pub fn printer(&self) -> Option<&PrinterLink> {
        self.printer.as_ref()
    }
}
