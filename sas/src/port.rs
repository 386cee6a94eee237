//! One SAS port on a thread of its own (issue 48): it reads the line,
//! answers every poll from the snapshot the game host last published, and
//! chirps while the link is silent. The game host never waits on it and
//! it never waits on the game host: the two meet in [`Shared`], whose
//! locks are held only to swap a pointer or move a short list, and the
//! port only ever *tries* them (issue 71): a host thread preempted while
//! it holds one (the renderer, a loaded machine) would otherwise hold up
//! the real-time port behind an ordinary thread — a priority inversion
//! that no scheduling can fix. What the port could not hand over or take
//! waits in the port for its next turn, a millisecond later; a poll is
//! answered from the snapshot the port holds. The ROM signature (LP 21)
//! is computed on a thread of its own, so a large image never delays a
//! reply.
//!
//! The port also keeps the link's timing (reply start after a poll's last
//! byte, the longest time a reply's write took) for the lab and the
//! benchmark.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::egm::{Egm, Event};
use crate::exceptions::Exception;
use crate::frame::BadAddress;
use crate::snapshot::Snapshot;
use crate::transport::SerialLine;
use crate::wire::Decoder;

/// How long a read waits before the port looks at its clocks again.
const READ_WAIT: Duration = Duration::from_millis(1);

/// The link's measured timing, microseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    /// Reply start (the reply written) after the poll's last byte was
    /// read, one entry per reply, the latest 100,000.
    pub reply_start_us: Vec<u64>,
    /// When each of those polls' last byte was read and its reply
    /// written, on the machine's monotonic clock
    /// ([`crate::scheduling::monotonic_us`]), for a bench to set beside
    /// its own times of the same polls; taken by [`Port::take_reply_times`].
    pub reply_times: Vec<(u64, u64)>,
    /// The longest a reply's write took: the bound on the gaps inside it.
    pub longest_write_us: u64,
    pub replies: u64,
    /// Bytes that broke the marked grammar (line faults).
    pub unmarked: u64,
    /// The port thread's scheduling, CPU and memory, as granted.
    pub placement: crate::scheduling::Placement,
}

impl Timing {
    /// Reply start in the port, microseconds: the median, the 99th
    /// percentile and the longest (zeros before any reply).
    pub fn reply_start_summary(&self) -> (u64, u64, u64) {
        let mut starts = self.reply_start_us.clone();
        starts.sort_unstable();
        let at = |p: usize| starts.get((starts.len() * p / 100).min(starts.len().saturating_sub(1))).copied().unwrap_or(0);
        (at(50), at(99), starts.last().copied().unwrap_or(0))
    }
}

/// What the game host tells the port's EGM.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Order {
    TicketInserted(String),
    TicketDone { validation: String, amount: u64, status: u8 },
    AftJournaled(String),
    AftDone { id: String, status: u8, cents: u64, kind: u8 },
    AftRefused { id: String, status: u8, kind: u8 },
    AftRegistrationRefused(crate::registration::Registration),
    ValidationAsked(u64),
    ValidationEnded,
    JoinProgressiveGroup(u8),
    ProgressiveWon(u8),
}

#[derive(Debug, Default)]
struct Shared {
    orders: Mutex<Vec<Order>>,
    snapshot: Mutex<Option<Arc<Snapshot>>>,
    inbox: Mutex<Vec<Exception>>,
    events: Mutex<Vec<Event>>,
    reported: Mutex<Vec<u64>>,
    timing: Mutex<Timing>,
    stop: AtomicBool,
    link_up: AtomicBool,
    /// Whether each reply's monotonic times are kept (a bench's).
    record_times: AtomicBool,
}

/// The game host's handle on a running port.
#[derive(Debug)]
pub struct Port {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Locks a mutex whose holder panicked too: the data is lists and
/// pointers, still whole.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Tries a mutex without waiting: `None` while another thread holds it
/// (a holder that panicked left whole data, as [`lock`] says).
fn try_lock<T>(m: &Mutex<T>) -> Option<std::sync::MutexGuard<'_, T>> {
    match m.try_lock() {
        Ok(g) => Some(g),
        Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => None,
    }
}

impl Port {
    /// Starts the port at `address` on `line`; `images` are LP 21's
    /// authenticated images in order (sas.md §5). `on_news` is called from
    /// the port's thread when the host asked something of the cabinet or
    /// took an event (the screen wakes to act on it).
    pub fn start(line: SerialLine, address: u8, images: Vec<PathBuf>, on_news: News) -> Result<Port, BadAddress> {
        let egm = Egm::new(address)?;
        let shared = Arc::new(Shared::default());
        let inner = shared.clone();
        let thread = std::thread::Builder::new()
            .name(format!("sas-{address}"))
            .spawn(move || run(egm, line, &images, &inner, &on_news))
            .map_err(|_| BadAddress(address))?;
        Ok(Port { shared, thread: Some(thread) })
    }

    /// The cabinet's meters after a commit.
    pub fn publish(&self, snapshot: Snapshot) {
        *lock(&self.shared.snapshot) = Some(Arc::new(snapshot));
    }

    /// Events for the floor.
    pub fn raise(&self, exceptions: Vec<Exception>) {
        lock(&self.shared.inbox).extend(exceptions);
    }

    /// A ticket this cabinet did not print is in escrow: ask the floor.
    pub fn ticket_inserted(&self, validation: &str) {
        lock(&self.shared.orders).push(Order::TicketInserted(validation.to_owned()));
    }

    /// The ticket's cycle ended: redeemed (status 00) or returned.
    pub fn ticket_done(&self, validation: &str, amount: u64, status: u8) {
        lock(&self.shared.orders).push(Order::TicketDone { validation: validation.to_owned(), amount, status });
    }

    /// The core journaled the AFT transfer `id` pending (issue 71): the
    /// floor may now be told so.
    pub fn aft_journaled(&self, id: &str) {
        lock(&self.shared.orders).push(Order::AftJournaled(id.to_owned()));
    }

    /// An AFT transfer's outcome as the core journaled it: made (00) or
    /// failed (its status).
    pub fn aft_done(&self, id: &str, status: u8, cents: u64, kind: u8) {
        lock(&self.shared.orders).push(Order::AftDone { id: id.to_owned(), status, cents, kind });
    }

    /// An AFT transfer the core refused before journaling it: its status.
    pub fn aft_refused(&self, id: &str, status: u8, kind: u8) {
        lock(&self.shared.orders).push(Order::AftRefused { id: id.to_owned(), status, kind });
    }

    /// The AFT registration the floor asked for (LP 73) that the core
    /// refused.
    pub fn aft_registration_refused(&self, asked: crate::registration::Registration) {
        lock(&self.shared.orders).push(Order::AftRegistrationRefused(asked));
    }

    /// The cabinet is in SAS progressive group `group`.
    pub fn join_progressive_group(&self, group: u8) {
        lock(&self.shared.orders).push(Order::JoinProgressiveGroup(group));
    }

    /// A level of the cabinet's SAS progressive group was won: its amount
    /// is forgotten until the controller broadcasts it again.
    pub fn progressive_won(&self, level: u8) {
        lock(&self.shared.orders).push(Order::ProgressiveWon(level));
    }

    /// A cash-out of `cents` waits for the floor's validation number.
    pub fn validation_asked(&self, cents: u64) {
        lock(&self.shared.orders).push(Order::ValidationAsked(cents));
    }

    /// The cash-out no longer waits for the floor.
    pub fn validation_ended(&self) {
        lock(&self.shared.orders).push(Order::ValidationEnded);
    }

    /// What the host asked of the cabinet since the last call.
    pub fn take_events(&self) -> Vec<Event> {
        std::mem::take(&mut *lock(&self.shared.events))
    }

    /// The journal sequence numbers the host has taken since the last call.
    pub fn take_reported(&self) -> Vec<u64> {
        std::mem::take(&mut *lock(&self.shared.reported))
    }

    pub fn link_up(&self) -> bool {
        self.shared.link_up.load(Ordering::Relaxed)
    }

    /// The port thread's scheduling, CPU and memory, as granted.
    pub fn placement(&self) -> crate::scheduling::Placement {
        lock(&self.shared.timing).placement
    }

    /// Keep each reply's monotonic times from now on (a bench's; none by
    /// default), for [`Port::take_reply_times`].
    pub fn record_reply_times(&self) {
        self.shared.record_times.store(true, Ordering::Relaxed);
    }

    /// The replies' monotonic times since the last call (at most the
    /// latest 100,000), taken out of the port's timing.
    pub fn take_reply_times(&self) -> Vec<(u64, u64)> {
        std::mem::take(&mut lock(&self.shared.timing).reply_times)
    }

    pub fn timing(&self) -> Timing {
        lock(&self.shared.timing).clone()
    }
}

impl Drop for Port {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What the port calls when it has news for the game host.
pub type News = Box<dyn Fn() + Send>;

/// What the port has for the game host and could not hand over yet (the
/// host held the lock at that moment).
#[derive(Default)]
struct Outbox {
    events: Vec<Event>,
    reported: Vec<u64>,
    reply_start_us: Vec<u64>,
    reply_times: Vec<(u64, u64)>,
    longest_write_us: u64,
    replies: u64,
    unmarked: u64,
}

impl Outbox {
    /// Hands over what the host's locks let it, never waiting; whether
    /// anything new reached the host.
    fn hand_over(&mut self, shared: &Shared) -> bool {
        let mut news = false;
        if !self.events.is_empty()
            && let Some(mut events) = try_lock(&shared.events)
        {
            events.append(&mut self.events);
            news = true;
        }
        if !self.reported.is_empty()
            && let Some(mut reported) = try_lock(&shared.reported)
        {
            reported.append(&mut self.reported);
            news = true;
        }
        if (self.replies > 0 || self.unmarked > 0)
            && let Some(mut t) = try_lock(&shared.timing)
        {
            let room = 100_000usize.saturating_sub(t.reply_start_us.len());
            t.reply_start_us.extend(self.reply_start_us.drain(..).take(room));
            let room = 100_000usize.saturating_sub(t.reply_times.len());
            t.reply_times.extend(self.reply_times.drain(..).take(room));
            t.longest_write_us = t.longest_write_us.max(self.longest_write_us);
            t.replies += std::mem::take(&mut self.replies);
            t.unmarked += std::mem::take(&mut self.unmarked);
        }
        news
    }
}

fn run(mut egm: Egm, mut line: SerialLine, images: &[PathBuf], shared: &Shared, on_news: &News) {
    lock(&shared.timing).placement = crate::scheduling::place_current_thread(crate::scheduling::Cpu::Last);
    let start = Instant::now();
    let mut decoder = Decoder::new();
    let mut buf = [0u8; 256];
    let mut signature: Option<Receiver<Result<u16, String>>> = None;
    let mut outbox = Outbox::default();
    while !shared.stop.load(Ordering::Relaxed) {
        let n = line.read(&mut buf, READ_WAIT).unwrap_or(0);
        // What the game host handed over, taken after the read: whatever it
        // handed before the floor's bytes arrived is seen by them. Tried,
        // never waited for (a lock the host holds now is tried again next
        // turn).
        if let Some(mut snapshot) = try_lock(&shared.snapshot)
            && let Some(s) = snapshot.take()
        {
            drop(snapshot);
            egm.publish(s);
        }
        if let Some(mut inbox) = try_lock(&shared.inbox) {
            let raised = std::mem::take(&mut *inbox);
            drop(inbox);
            for e in raised {
                egm.raise(e);
            }
        }
        let orders = try_lock(&shared.orders).map(|mut o| std::mem::take(&mut *o)).unwrap_or_default();
        for order in orders {
            match order {
                Order::TicketInserted(v) => {
                    egm.ticket_inserted(&v);
                }
                Order::TicketDone { validation, amount, status } => egm.ticket_done(&validation, amount, status),
                Order::AftJournaled(id) => egm.aft_journaled(&id),
                Order::AftDone { id, status, cents, kind } => egm.aft_done(&id, status, cents, kind),
                Order::AftRefused { id, status, kind } => egm.aft_refused(&id, status, kind),
                Order::AftRegistrationRefused(asked) => egm.aft_registration_refused(asked),
                Order::ValidationAsked(cents) => egm.validation_asked(cents),
                Order::ValidationEnded => egm.validation_ended(),
                Order::JoinProgressiveGroup(group) => egm.join_progressive_group(group),
                Order::ProgressiveWon(level) => egm.progressive_won(level),
            }
        }
        let at = start.elapsed();
        let at_us = micros(at);
        let read_at = if n > 0 { crate::scheduling::monotonic_us() } else { 0 };
        for &b in buf.get(..n).unwrap_or_default() {
            match decoder.push(b) {
                Ok(Some(byte)) => {
                    if let Some(reply) = egm.on_byte(byte, at_us) {
                        let before = start.elapsed();
                        let written_at = crate::scheduling::monotonic_us();
                        // A line that fails mid-reply: the host polls again.
                        let _ = line.send(&reply);
                        let after = start.elapsed();
                        outbox.reply_start_us.push(micros(before.saturating_sub(at)));
                        if shared.record_times.load(Ordering::Relaxed) {
                            outbox.reply_times.push((read_at, written_at));
                        }
                        outbox.longest_write_us = outbox.longest_write_us.max(micros(after.saturating_sub(before)));
                        outbox.replies += 1;
                    }
                }
                Ok(None) => {}
                Err(_) => outbox.unmarked += 1,
            }
        }
        let wall = time::OffsetDateTime::now_utc().unix_timestamp();
        if let Some(address) = egm.tick(micros(start.elapsed()), wall) {
            let _ = line.chirp(address);
        }
        if let Some(rx) = &signature
            && let Ok(result) = rx.try_recv()
        {
            // An image that cannot be read leaves the request unanswered:
            // no signature rather than a wrong one.
            if let Ok(value) = result {
                egm.signature_ready(value);
            }
            signature = None;
        }
        let events = egm.take_events();
        for e in &events {
            match e {
                Event::SignatureAsked { seed } => {
                    let (tx, rx) = channel();
                    let (seed, images) = (*seed, images.to_vec());
                    let _ = std::thread::Builder::new().name("sas-signature".into()).spawn(move || {
                        let _ = tx.send(crate::signature::of_files(seed, &images));
                    });
                    signature = Some(rx);
                }
                Event::LinkUp(up) => shared.link_up.store(*up, Ordering::Relaxed),
                _ => {}
            }
        }
        outbox.events.extend(events);
        outbox.reported.extend(egm.take_reported());
        if outbox.hand_over(shared) {
            on_news();
        }
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}
