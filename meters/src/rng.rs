//! The certified random number generator (certification.md §A).
//!
//! * Core: ChaCha20 (`rand_chacha`), a CSPRNG with a 256-bit key, 64-bit
//!   nonce-free stream and a period of 2^68 blocks of 64 bytes per key —
//!   vastly more than the combinations of any game (A-6).
//! * Seeding (A-5): SHA-256 of the carry persisted in critical memory by the
//!   previous boot, 32 bytes of operating-system entropy and the boot clock.
//!   The next carry is a one-way hash of the new seed, so reading critical
//!   memory never reveals the live key. A fixed, reproducible seed exists only
//!   in lab mode ([`SeedSource::Lab`]); production configuration refuses it.
//! * Background cycling (A-4): a thread discards outputs at random,
//!   sub-millisecond intervals, so the instant of a button press cannot select
//!   an outcome.
//! * Scaling (A-1, A-2, A-3): every game draws through [`GameRng`] only:
//!   `uniform(n)` by Lemire's multiply-and-reject (never `%` on raw output),
//!   weighted choice through cumulative integer weights, Fisher–Yates shuffle
//!   and draw without replacement built on `uniform`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// A word the scaling works on. Implemented for `u16` (the "small generator"
/// whose whole input space the tests enumerate), `u32` and `u64`.
pub trait Word: Copy + Ord + std::fmt::Debug {
    /// The full-width product `a × b` split into (high, low) words.
    fn wide_mul(a: Self, b: Self) -> (Self, Self);
    /// `2^bits mod n`, the number of low products to reject.
    fn reject_threshold(n: Self) -> Self;
    fn is_zero(self) -> bool;
}

macro_rules! impl_word {
    ($t:ty, $wide:ty) => {
        impl Word for $t {
            #[inline]
            fn wide_mul(a: Self, b: Self) -> (Self, Self) {
                let m = (a as $wide) * (b as $wide);
                ((m >> <$t>::BITS) as $t, m as $t)
            }
            #[inline]
            fn reject_threshold(n: Self) -> Self {
                n.wrapping_neg() % n
            }
            #[inline]
            fn is_zero(self) -> bool {
                self == 0
            }
        }
    };
}
impl_word!(u16, u32);
impl_word!(u32, u64);
impl_word!(u64, u128);

/// Lemire's mapping of one raw word `x` onto `0..n` (n > 0): `Some(value)`,
/// or `None` when `x` falls in the rejected zone and a fresh word is needed.
/// Exactly `⌊2^bits / n⌋` inputs map to each value, so accepted outputs are
/// exactly uniform; the tests enumerate every input to prove it (A-1).
#[inline]
pub fn lemire_map<W: Word>(x: W, n: W) -> Option<W> {
    let (hi, lo) = W::wide_mul(x, n);
    // lo >= n implies lo >= threshold (threshold < n): accept without dividing.
    if lo >= n || lo >= W::reject_threshold(n) { Some(hi) } else { None }
}

/// Cumulative integer weights for weighted choice (A-2): reel strips with
/// weights, weighted tables. Built once, drawn many times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightTable {
    cumulative: Vec<u64>,
    /// Every weight is 1: the ticket is the index (no search needed).
    uniform: bool,
}

/// Why a weight table cannot be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WeightError {
    #[error("a weight table needs at least one entry")]
    Empty,
    #[error("the weights of a table sum to zero")]
    ZeroTotal,
    #[error("the weights of a table overflow 64 bits")]
    Overflow,
}

impl WeightTable {
    pub fn new(weights: &[u64]) -> Result<Self, WeightError> {
        if weights.is_empty() {
            return Err(WeightError::Empty);
        }
        let mut total = 0u64;
        let mut cumulative = Vec::with_capacity(weights.len());
        for &w in weights {
            total = total.checked_add(w).ok_or(WeightError::Overflow)?;
            cumulative.push(total);
        }
        if total == 0 {
            return Err(WeightError::ZeroTotal);
        }
        let uniform = weights.iter().all(|&w| w == 1);
        Ok(Self { cumulative, uniform })
    }

    pub fn total(&self) -> u64 {
        self.cumulative.last().copied().unwrap_or(0)
    }

    pub fn len(&self) -> usize {
        self.cumulative.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cumulative.is_empty()
    }

    /// The entry whose cumulative interval contains `ticket` (0 ≤ ticket < total).
    /// Zero-weight entries are never chosen.
    #[inline]
    pub fn index_of(&self, ticket: u64) -> usize {
        if self.uniform {
            return ticket as usize;
        }
        self.cumulative.partition_point(|&c| c <= ticket)
    }
}

/// The seal on [`GameRng`]: only this crate's generators implement it, so no
/// implementor elsewhere can supply its own words or override the scaling.
mod sealed {
    pub trait Sealed {}
    impl Sealed for super::StreamRng {}
    impl Sealed for super::RngGuard<'_> {}
    impl Sealed for super::Draw<'_> {}
    impl Sealed for super::CommittedStream {}
}

/// The draw calls every game must use. Sealed: the core's generators supply
/// raw 64-bit words; the scaling is provided here and nowhere else.
///
/// No other crate can implement it, so none can feed a game its own
/// numbers or override the scaling:
///
/// ```compile_fail,E0277
/// struct Rigged;
/// impl meters::GameRng for Rigged {
///     fn next_raw(&mut self) -> u64 { 0 }
///     fn next_raw32(&mut self) -> u32 { 0 }
///     fn uniform(&mut self, _n: u64) -> u64 { 0 }
/// }
/// ```
/// Lemire-scaled `0..n` from a generator's raw words (0 for `n == 0`).
#[inline]
fn uniform_of<R: GameRng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    if n.is_zero() {
        return 0;
    }
    if let Ok(n32) = u32::try_from(n) {
        loop {
            if let Some(v) = lemire_map(rng.next_raw32(), n32) {
                return u64::from(v);
            }
        }
    }
    loop {
        if let Some(v) = lemire_map(rng.next_raw(), n) {
            return v;
        }
    }
}

pub trait GameRng: sealed::Sealed {
    /// One raw, unscaled 64-bit output of the generator.
    fn next_raw(&mut self) -> u64;

    /// One raw, unscaled 32-bit output of the generator.
    fn next_raw32(&mut self) -> u32;

    /// A uniformly distributed integer in `0..n`. `n == 0` is a game's
    /// error: it yields 0, and inside the core's draw the whole draw is
    /// discarded (`DrawDiscarded`), so no outcome built on it is committed.
    /// Ranges below 2^32 are scaled from 32-bit words (half the generator
    /// output), larger ones from 64-bit words; both by Lemire's exact
    /// rejection ([`lemire_map`]).
    #[inline]
    fn uniform(&mut self, n: u64) -> u64 {
        uniform_of(self, n)
    }

    /// A uniform index into a slice of length `len` (`len` > 0).
    #[inline]
    fn index(&mut self, len: usize) -> usize {
        self.uniform(len as u64) as usize
    }

    /// Weighted choice: the index of the chosen entry of `table`.
    #[inline]
    fn pick(&mut self, table: &WeightTable) -> usize {
        let ticket = self.uniform(table.total());
        table.index_of(ticket)
    }

    /// Fisher–Yates shuffle with unbiased `uniform` (A-3).
    fn shuffle<T>(&mut self, items: &mut [T])
    where
        Self: Sized,
    {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// `k` distinct indices from `0..n`, in draw order (a partial
    /// Fisher–Yates). Used for dealing cards and drawing balls.
    fn draw_without_replacement(&mut self, n: usize, k: usize) -> Vec<usize>
    where
        Self: Sized,
    {
        let k = k.min(n);
        let mut pool: Vec<usize> = (0..n).collect();
        for i in 0..k {
            let j = i + self.index(n - i);
            pool.swap(i, j);
        }
        pool.truncate(k);
        pool
    }
}

/// A plain ChaCha20 stream with the production scaling: for simulation, the
/// paytable tool and tests. It is the same generator and the same calls; it
/// only lacks the background cycling and the entropy seeding.
#[derive(Clone, Debug)]
pub struct StreamRng(ChaCha20Rng);

impl StreamRng {
    /// A reproducible stream from a 64-bit lab seed.
    pub fn from_seed(seed: u64) -> Self {
        Self(ChaCha20Rng::from_seed(lab_key(seed)))
    }

    /// A stream keyed by 32 bytes of OS entropy.
    pub fn from_entropy() -> Result<Self, RngError> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| RngError::Entropy(e.to_string()))?;
        Ok(Self(ChaCha20Rng::from_seed(key)))
    }

    /// Raw generator output, before any scaling (lab collection tool A-8a).
    pub fn fill_raw(&mut self, buf: &mut [u8]) {
        self.0.fill_bytes(buf);
    }
}

impl GameRng for StreamRng {
    #[inline]
    fn next_raw(&mut self) -> u64 {
        self.0.next_u64()
    }

    #[inline]
    fn next_raw32(&mut self) -> u32 {
        self.0.next_u32()
    }
}

fn lab_key(seed: u64) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"egm lab seed v1");
    h.update(seed.to_le_bytes());
    h.finalize().into()
}

/// Where the live generator's key came from. Recorded in the event log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SeedSource {
    /// OS entropy mixed with the carry from the previous boot (production).
    Entropy,
    /// A reproducible seed: lab and test configurations only. Kept in the
    /// record format of every build, so that any build reads a lab
    /// journal; only the lab build can write it.
    Lab(u64),
}

#[derive(Debug, thiserror::Error)]
pub enum RngError {
    #[error("the operating system's entropy source failed: {0}")]
    Entropy(String),
    #[error("the background cycling thread could not be started: {0}")]
    Thread(String),
}

struct Shared {
    rng: Mutex<ChaCha20Rng>,
    advanced: AtomicU64,
    stop: AtomicBool,
}

/// The cabinet's live generator: shared, cycling in the background.
pub struct CoreRng {
    shared: Arc<Shared>,
    source: SeedSource,
    cycler: Option<JoinHandle<()>>,
}

/// Result of seeding at boot: the generator and the carry to persist.
pub struct Seeded {
    pub rng: CoreRng,
    pub next_carry: [u8; 32],
}

impl CoreRng {
    /// Production seeding: `SHA-256(domain ‖ carry ‖ OS entropy ‖ clock)`.
    /// Starts the background cycling thread.
    pub fn seed_from_entropy(carry: &[u8]) -> Result<Seeded, RngError> {
        let mut fresh = [0u8; 32];
        getrandom::fill(&mut fresh).map_err(|e| RngError::Entropy(e.to_string()))?;
        let clock = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let mut h = Sha256::new();
        h.update(b"egm rng seed v1");
        h.update(carry);
        h.update(fresh);
        h.update(clock.to_le_bytes());
        let key: [u8; 32] = h.finalize().into();
        let next_carry: [u8; 32] = Sha256::new().chain_update(b"egm rng carry v1").chain_update(key).finalize().into();
        let mut rng = Self::with_key(key, SeedSource::Entropy);
        rng.start_cycling()?;
        Ok(Seeded { rng, next_carry })
    }

    /// A reproducible generator for lab and test configurations. It does not
    /// cycle in the background: its stream must be repeatable. Lab build only.
    #[cfg(feature = "lab")]
    pub fn lab(seed: u64) -> Self {
        Self::with_key(lab_key(seed), SeedSource::Lab(seed))
    }

    fn with_key(key: [u8; 32], source: SeedSource) -> Self {
        Self {
            shared: Arc::new(Shared { rng: Mutex::new(ChaCha20Rng::from_seed(key)), advanced: AtomicU64::new(0), stop: AtomicBool::new(false) }),
            source,
            cycler: None,
        }
    }

    fn start_cycling(&mut self) -> Result<(), RngError> {
        let shared = Arc::clone(&self.shared);
        let handle = std::thread::Builder::new()
            .name("rng-cycler".into())
            .spawn(move || {
                while !shared.stop.load(Ordering::Relaxed) {
                    let (pause_us, skip) = {
                        let mut rng = shared.rng.lock().unwrap_or_else(PoisonError::into_inner);
                        let r = rng.next_u64();
                        let skip = 1 + (r & 7);
                        for _ in 0..skip {
                            rng.next_u64();
                        }
                        (200 + ((r >> 8) & 511), skip)
                    };
                    shared.advanced.fetch_add(skip + 1, Ordering::Relaxed);
                    std::thread::sleep(Duration::from_micros(pause_us));
                }
            })
            .map_err(|e| RngError::Thread(e.to_string()))?;
        self.cycler = Some(handle);
        Ok(())
    }

    pub fn source(&self) -> SeedSource {
        self.source
    }

    /// Whether the background cycling thread runs.
    pub fn is_cycling(&self) -> bool {
        self.cycler.is_some()
    }

    /// Outputs discarded by the background cycling so far.
    pub fn background_advances(&self) -> u64 {
        self.shared.advanced.load(Ordering::Relaxed)
    }

    /// Exclusive access for one game step: every draw of the step is taken
    /// under one lock, through the production scaling.
    pub fn lock(&self) -> RngGuard<'_> {
        RngGuard(self.shared.rng.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Drop for CoreRng {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.cycler.take() {
            let _ = h.join();
        }
    }
}

/// A locked handle on the live generator.
pub struct RngGuard<'a>(MutexGuard<'a, ChaCha20Rng>);

/// Issue 46: the stream a round committed to a linked controller is drawn
/// from. The core draws a fresh 256-bit key `k` from the certified
/// generator and the controller learns only its commitment SHA-256(k)
/// with the wager; the controller answers its own random nonce `n`; the
/// round is then drawn from ChaCha20 keyed by HMAC-SHA256(k, n), through
/// the same scaling as every draw. Neither side can choose the outcome:
/// the core's `k` is fixed before `n` is known, and `n` is chosen without
/// `k`; revealing `k` lets the controller recompute the round exactly.
/// `docs/rng.md` says how a lab checks it.
#[derive(Clone, Debug)]
pub struct CommittedStream(ChaCha20Rng);

impl CommittedStream {
    /// The stream of the round committed with `key` and answered `nonce`.
    pub fn new(key: &[u8; 32], nonce: &[u8; 32]) -> Self {
        use hmac::{Hmac, Mac};
        let seed: [u8; 32] = match <Hmac<Sha256> as Mac>::new_from_slice(key) {
            Ok(mut mac) => {
                mac.update(nonce);
                mac.finalize().into_bytes().into()
            }
            // HMAC takes a key of any length: unreachable, and never a
            // stream of zeros if it were.
            Err(_) => Sha256::new().chain_update(key).chain_update(nonce).finalize().into(),
        };
        Self(ChaCha20Rng::from_seed(seed))
    }

    /// The commitment a controller keeps of `key`: SHA-256(k).
    pub fn commitment(key: &[u8; 32]) -> [u8; 32] {
        Sha256::digest(key).into()
    }
}

impl GameRng for CommittedStream {
    #[inline]
    fn next_raw(&mut self) -> u64 {
        self.0.next_u64()
    }

    #[inline]
    fn next_raw32(&mut self) -> u32 {
        self.0.next_u32()
    }
}

/// Where a draw's values come from: the live generator, or a committed
/// round's stream.
enum Source<'a> {
    Live(RngGuard<'a>),
    Committed(Box<CommittedStream>),
}

/// One game step's draw, as `Machine::play_round` and `Machine::draw_step`
/// hand it to the game: on the live generator, locked for the whole draw,
/// or (issue 46) on a committed round's stream; every raw value taken is
/// counted, and the count is journaled with the outcome.
pub struct Draw<'a> {
    source: Source<'a>,
    values: u64,
    misuse: Option<String>,
    /// Issue 51, lab mode only: every scaled draw the game made, (range,
    /// value) in order — the outcome as the game draws it.
    tap: Option<Vec<(u64, u64)>>,
}

impl<'a> Draw<'a> {
    pub(crate) fn new(guard: RngGuard<'a>) -> Self {
        Draw { source: Source::Live(guard), values: 0, misuse: None, tap: None }
    }

    pub(crate) fn committed(stream: CommittedStream) -> Draw<'static> {
        Draw { source: Source::Committed(Box::new(stream)), values: 0, misuse: None, tap: None }
    }

    /// Record every scaled draw (the lab's outcome collection).
    pub(crate) fn tapped(mut self) -> Self {
        self.tap = Some(Vec::new());
        self
    }

    /// The scaled draws recorded, if tapped.
    pub(crate) fn take_tap(&mut self) -> Option<Vec<(u64, u64)>> {
        self.tap.take()
    }

    /// Raw values taken so far.
    pub fn values(&self) -> u64 {
        self.values
    }

    /// How the game misused the generator, if it did: the draw is void.
    pub(crate) fn misuse(&self) -> Option<&str> {
        self.misuse.as_deref()
    }
}

impl GameRng for Draw<'_> {
    #[inline]
    fn next_raw(&mut self) -> u64 {
        self.values += 1;
        match &mut self.source {
            Source::Live(g) => g.next_raw(),
            Source::Committed(c) => c.next_raw(),
        }
    }

    /// As every generator scales, but an empty range marks the draw as
    /// failed (issue 21: `uniform(0)` silently returned 0).
    #[inline]
    fn uniform(&mut self, n: u64) -> u64 {
        if n == 0 && self.misuse.is_none() {
            self.misuse = Some("the game asked for a number in an empty range (uniform(0))".to_owned());
        }
        let v = uniform_of(self, n);
        if let Some(t) = &mut self.tap {
            t.push((n, v));
        }
        v
    }

    #[inline]
    fn next_raw32(&mut self) -> u32 {
        self.values += 1;
        match &mut self.source {
            Source::Live(g) => g.next_raw32(),
            Source::Committed(c) => c.next_raw32(),
        }
    }
}

impl RngGuard<'_> {
    /// Raw generator output, before any scaling (lab collection tool A-8a).
    pub fn fill_raw(&mut self, buf: &mut [u8]) {
        self.0.fill_bytes(buf);
    }
}

impl GameRng for RngGuard<'_> {
    #[inline]
    fn next_raw(&mut self) -> u64 {
        self.0.next_u64()
    }

    #[inline]
    fn next_raw32(&mut self) -> u32 {
        self.0.next_u32()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two generators with one key: the cycling one has moved on while idle,
    /// so a press at the same instant sees a different outcome (A-4).
    #[test]
    fn identical_press_timing_gives_different_outcomes_when_cycling() {
        let key = [9u8; 32];
        let mut cycling = CoreRng::with_key(key, SeedSource::Entropy);
        cycling.start_cycling().unwrap();
        let still = CoreRng::with_key(key, SeedSource::Entropy);
        std::thread::sleep(Duration::from_millis(30));
        let a: Vec<u64> = (0..4).map(|_| cycling.lock().uniform(1 << 40)).collect();
        let b: Vec<u64> = (0..4).map(|_| still.lock().uniform(1 << 40)).collect();
        assert_ne!(a, b);
        assert!(cycling.background_advances() > 0);
    }

    #[test]
    fn weight_table_rejects_bad_tables() {
        assert_eq!(WeightTable::new(&[]), Err(WeightError::Empty));
        assert_eq!(WeightTable::new(&[0, 0]), Err(WeightError::ZeroTotal));
        assert_eq!(WeightTable::new(&[u64::MAX, 1]), Err(WeightError::Overflow));
    }
}
