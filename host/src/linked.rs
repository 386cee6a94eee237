//! The cabinet's side of a linked progressive pool (M-19, M-22, issue 6).
//!
//! Two connections to the progressive controller per pool:
//! - the session's own, on its link worker ([`LinkWorker`], issue 35: the
//!   session never waits on the network), for what moves money: delivering
//!   the journaled contributions, asking for an award, returning a voided
//!   round (the round stays open until the controller answers);
//! - a watcher thread that listens for awards ([`Listener`], M-22: every
//!   machine of the pool shows an award at once) and beats every second,
//!   fetching the levels and the latest award for the screen. When it has
//!   heard nothing for 5 seconds ([`LINK_TIMEOUT`]) the pool is unavailable
//!   and the session takes no progressive-eligible bet until it is back.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use linked_controller::{LINK_TIMEOUT, Link, LinkedAward, LinkedLevel, Listener};

pub use crate::link_worker::LinkWorker;

use crate::config::LinkedSetup;
use crate::wake::Wake;

/// What the watcher last heard from the controller.
#[derive(Clone, Debug, Default)]
pub struct LinkedView {
    pub last_answer: Option<Instant>,
    pub levels: Vec<LinkedLevel>,
    pub last_award: Option<LinkedAward>,
}

impl LinkedView {
    pub fn available(&self) -> bool {
        self.last_answer.is_some_and(|t| t.elapsed() < LINK_TIMEOUT)
    }
}

pub struct LinkedPool {
    pub setup: LinkedSetup,
    /// The session's calls: contributions, awards and returns.
    pub link: LinkWorker,
    view: Arc<Mutex<LinkedView>>,
    stop: Arc<AtomicBool>,
    watcher: Option<JoinHandle<()>>,
    /// The newest award already shown (M-22), by the controller's sequence.
    pub shown_award: Option<i64>,
    /// Whether the controller has answered once (its awards then are the baseline).
    pub heard: bool,
    /// An award of this pool waiting for an attendant's confirmation at
    /// the controller (M-12; issue 35, attack 1), in cents.
    pub confirming: Option<meters::Cents>,
    /// Issue 46: the meter of this cabinet's journal the controller last
    /// recorded (reconciliation), with its epoch.
    pub reported: Option<(String, linked_controller::CabinetMeter)>,
}

impl LinkedPool {
    /// Start the pool's link and its watcher, which calls `wake` when the
    /// screen has news: the levels or the latest award changed, or the
    /// controller answered again after silence.
    pub fn start(setup: LinkedSetup, wake: Wake) -> LinkedPool {
        let view = Arc::new(Mutex::new(LinkedView::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let watcher = {
            let (url, pool, view, stop) = (setup.controller.clone(), setup.pool.clone(), view.clone(), stop.clone());
            std::thread::Builder::new().name(format!("linked-{pool}")).spawn(move || watch(&url, &pool, &view, &stop, &wake)).ok()
        };
        let link = LinkWorker::start(&setup.controller, &setup.pool);
        LinkedPool { setup, link, view, stop, watcher, shown_award: None, heard: false, confirming: None, reported: None }
    }

    pub fn view(&self) -> LinkedView {
        self.view.lock().map(|v| v.clone()).unwrap_or_default()
    }

    /// Whether a wager of `stake` cents on `game` contributes to this pool.
    pub fn qualifies(&self, game: &str, stake: meters::Cents) -> bool {
        stake >= self.setup.min_wager && self.setup.games.iter().any(|g| g == game)
    }
}

impl Drop for LinkedPool {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(w) = self.watcher.take() {
            let _ = w.join();
        }
    }
}

/// The watcher: wake on an award notification or after a second, then ask
/// for the levels and the latest award; the screen is woken when what it
/// shows changed (issue 45).
fn watch(url: &str, pool: &str, view: &Mutex<LinkedView>, stop: &AtomicBool, wake: &Wake) {
    let mut link = Link::new(url);
    let mut listener: Option<Listener> = None;
    while !stop.load(Ordering::Relaxed) {
        if listener.is_none() {
            listener = Listener::connect(url).ok();
        }
        match listener.as_mut() {
            Some(l) => {
                if l.wait(Duration::from_secs(1)).is_err() {
                    listener = None;
                }
            }
            None => std::thread::sleep(Duration::from_secs(1)),
        }
        if let Ok((levels, last)) = link.call(|c| Ok((c.levels(pool)?, c.last_awards(pool, 1)?)))
            && let Ok(mut v) = view.lock()
        {
            let last = last.into_iter().next();
            let news = !v.available() || v.levels != levels || v.last_award != last;
            v.last_answer = Some(Instant::now());
            v.levels = levels;
            v.last_award = last;
            drop(v);
            if news {
                wake.wake();
            }
        }
    }
}
