//! Exact mathematics of a reel game over its full cycle (certification.md
//! B-11, B-12, B-15; M-17).
//!
//! **Base game.** Every combination of stops is accounted for, weighted by
//! its stop weights, without visiting them one by one: the stops are
//! enumerated reel by reel, and a branch ends as soon as every played line
//! is decided (its left-to-right run is broken, so later reels cannot change
//! its pay). The reels after that point only matter through the number of
//! scatters they show, which is folded in from their exact scatter-count
//! distribution. The result is, for every scatter count `c`, the weight of
//! the combinations and the exact sums of the spin's win and of its square.
//!
//! **Free games.** A free game pays `X` and awards `R` more free games; each
//! of those is an independent copy. The total `G` of one free game and its
//! descendants satisfies `E[G] = E[X] / (1 − E[R])` and
//! `E[G²] = (E[X²] + 2 E[XR] E[G] + E[R(R−1)] E[G]²) / (1 − E[R])`, exact in
//! rationals; `E[R] < 1` is required (otherwise free games never end on
//! average). A trigger awarding `N` free games adds `N E[G]`, and
//! `N E[G²] + N(N−1) E[G]²` to the second moment.
//!
//! Everything is integer or rational arithmetic; floats only format output.

use std::collections::BTreeMap;

use game_core::reels::{MAX_REELS, ReelGame, Strip, SymbolId, SymbolKind};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// Per scatter count: weight, Σ win·weight, Σ win²·weight (win in credits
/// per credit per line, before any free-game multiplier).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moments {
    pub weight: u128,
    pub sum: u128,
    pub sum_sq: u128,
}

impl Moments {
    pub(crate) fn add(&mut self, win: u64, w: u128) {
        let x = u128::from(win);
        self.weight += w;
        self.sum += x * w;
        self.sum_sq += x * x * w;
    }
    pub(crate) fn merge(&mut self, o: &Moments) {
        self.weight += o.weight;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }
}

/// What the enumeration of one set of strips collects, for each line count.
#[derive(Clone, Debug, Default)]
pub struct SpinStats {
    /// `by_scatters[config][c]`.
    pub by_scatters: Vec<Vec<Moments>>,
    /// Σ line wins · weight per config (without scatter pays).
    pub line_sum: Vec<u128>,
    /// Weight of spins that pay anything or award free games, per config.
    pub hit_weight: Vec<u128>,
    /// Win → weight, per config.
    pub histogram: Vec<BTreeMap<u64, u128>>,
    /// (symbol, count) → weight of spins where it pays on at least one
    /// played line, at the largest line count.
    pub combo_any: BTreeMap<(SymbolId, u8), u128>,
    /// (symbol, count, pay) → Σ over the played lines of the weight of spins
    /// where that line pays it, at the largest line count.
    pub combo_hits: BTreeMap<(SymbolId, u8, u64), u128>,
    pub cycle: u128,
    /// Whether the joint distribution of the lines was walked (the full
    /// cycle): hit weights, histograms and `combo_any` are then exact;
    /// from symbol counts they are empty.
    pub joint: bool,
    /// (symbol, count) → the largest weight with which one line alone pays
    /// it (from symbol counts; empty after a full walk, where `combo_any`
    /// is exact).
    pub combo_line_max: BTreeMap<(SymbolId, u8), u128>,
}

impl From<crate::reel_counts::CountStats> for SpinStats {
    fn from(c: crate::reel_counts::CountStats) -> SpinStats {
        let configs = c.line_sum.len();
        SpinStats {
            by_scatters: c.by_scatters,
            line_sum: c.line_sum,
            hit_weight: vec![0; configs],
            histogram: vec![BTreeMap::new(); configs],
            combo_any: BTreeMap::new(),
            combo_hits: c.combo_hits,
            cycle: c.cycle,
            joint: false,
            combo_line_max: c.combo_line_max,
        }
    }
}

impl SpinStats {
    fn merge(&mut self, o: SpinStats) {
        for (a, b) in self.by_scatters.iter_mut().zip(&o.by_scatters) {
            for (x, y) in a.iter_mut().zip(b) {
                x.merge(y);
            }
        }
        for (a, b) in self.line_sum.iter_mut().zip(&o.line_sum) {
            *a += b;
        }
        for (a, b) in self.hit_weight.iter_mut().zip(&o.hit_weight) {
            *a += b;
        }
        for (a, b) in self.histogram.iter_mut().zip(o.histogram) {
            for (k, v) in b {
                *a.entry(k).or_default() += v;
            }
        }
        for (k, v) in o.combo_any {
            *self.combo_any.entry(k).or_default() += v;
        }
        for (k, v) in o.combo_hits {
            *self.combo_hits.entry(k).or_default() += v;
        }
    }
}

/// The value of a paytable an analysis refusal comes from, so that the
/// refusal names its line (issue 36; `compile::locate_math`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Culprit {
    /// The largest line pay.
    LargestPay,
    /// The largest line count the player may play (`bet.lines`).
    LargestLineCount,
    /// The base game's strips (their weights when given).
    Strips,
    /// The free games' strips (the base strips when they have none).
    FreeStrips,
    /// The free games' awards (retriggered).
    FreeGames,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MathError {
    #[error("the game cycle ({what}) is too large for exact enumeration")]
    CycleTooLarge { what: String, culprit: Culprit },
    /// A limit on lines: the analysis's own (64), or the game's.
    #[error("{lines} lines played, but {limit}")]
    TooManyLines { lines: usize, limit: String },
    #[error("free games retrigger {0} free games per free game on average: they would never end (it must be below 1)")]
    EndlessFreeGames(String),
    #[error("pays too large for an exact analysis: {what}")]
    PaysTooLarge { what: String, culprit: Culprit },
    #[error("the analysis failed in one of its workers ({0}); no figure is given")]
    WorkerFailed(String),
    #[error(
        "stopped after {seconds} s, {percent}% of the way ({done} of {total} parts of the walk): the exact analysis would take about {needed} s in all; allow that much time, or shorten the strips"
    )]
    Stopped { seconds: u64, done: u64, total: u64, percent: u64, needed: u64 },
}

/// The work of an exact analysis, shared with whoever watches it: how far
/// it has come (in parts of the walk: first-reel stops of every strip set
/// in a full walk, lines and pairs of lines from symbol counts), and the
/// time by which it must stop.
#[derive(Debug)]
pub struct Work {
    done: std::sync::atomic::AtomicU64,
    total: std::sync::atomic::AtomicU64,
    started: std::time::Instant,
    deadline: Option<std::time::Instant>,
}

impl Work {
    /// Work with no time limit.
    pub fn unlimited() -> Work {
        Work::until(None)
    }

    /// Work that stops at `deadline`, with a clear error.
    pub fn until(deadline: Option<std::time::Instant>) -> Work {
        Work { done: std::sync::atomic::AtomicU64::new(0), total: std::sync::atomic::AtomicU64::new(0), started: std::time::Instant::now(), deadline }
    }

    /// (parts walked, parts to walk).
    pub fn progress(&self) -> (u64, u64) {
        (self.done.load(std::sync::atomic::Ordering::Relaxed), self.total.load(std::sync::atomic::Ordering::Relaxed))
    }

    pub(crate) fn plan(&self, stops: u64) {
        self.total.fetch_add(stops, std::sync::atomic::Ordering::Relaxed);
    }

    pub(crate) fn step(&self) {
        self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    pub(crate) fn over(&self) -> bool {
        self.deadline.is_some_and(|d| std::time::Instant::now() >= d)
    }

    pub(crate) fn stopped(&self) -> MathError {
        let (done, total) = self.progress();
        let seconds = self.started.elapsed().as_secs_f64();
        let fraction = if total == 0 { 1.0 } else { done as f64 / total as f64 };
        let needed = if fraction > 0.0 { seconds / fraction } else { f64::INFINITY };
        MathError::Stopped {
            seconds: seconds.round() as u64,
            done,
            total,
            percent: (fraction * 100.0).floor() as u64,
            needed: if needed.is_finite() { needed.ceil() as u64 } else { u64::MAX },
        }
    }
}

/// The size of the exact walk of `game`: combinations of the reels'
/// distinct windows (`reel_windows`) of the base strips and of the
/// free-game strips, if they are their own, and the first-reel windows the
/// walk is counted in.
pub fn work_size(game: &ReelGame) -> (u128, u64) {
    let mut sets = vec![game.reels.as_slice()];
    if game.free_games().is_some_and(|f| f.reels.is_some()) {
        sets.push(game.strips(true));
    }
    let rows = game.rows as usize;
    let scatter = game.scatter.as_ref().map(|s| s.symbol);
    let distinct = |strip: &Strip| crate::reel_windows::classes(strip, rows, scatter).len() as u128;
    let combos = sets.iter().map(|s| s.iter().map(distinct).product::<u128>()).sum();
    let first = sets.iter().map(|s| s.first().map_or(0, |r| distinct(r) as u64)).sum();
    (combos, first)
}

/// The most paylines the exact analysis handles.
pub const MAX_LINES: usize = 64;

/// One line's run as the reels are revealed left to right.
#[derive(Clone, Copy)]
pub(crate) struct LineRun {
    pub(crate) syms: [SymbolId; MAX_REELS],
    pub(crate) len: u8,
    /// `Some((pay, symbol, count))` once later reels cannot change the pay.
    pub(crate) decided: Option<(u64, SymbolId, u8)>,
}

impl LineRun {
    pub(crate) const EMPTY: LineRun = LineRun { syms: [0; MAX_REELS], len: 0, decided: None };
}

/// When a line's run is decided, and what it pays: the game's own rule
/// (`ReelGame::line_pay`), shared by the full-cycle walk and the walk over
/// symbol counts.
#[derive(Clone, Copy)]
pub(crate) struct LineRule<'a> {
    pub(crate) game: &'a ReelGame,
    pub(crate) n: usize,
    wild: Option<SymbolId>,
    wild_mult: u64,
    scatter: Option<SymbolId>,
}

impl<'a> LineRule<'a> {
    pub(crate) fn new(game: &'a ReelGame, n: usize) -> LineRule<'a> {
        LineRule {
            game,
            n,
            wild: game.symbols.iter().position(|s| matches!(s.kind, SymbolKind::Wild { .. })).map(|i| i as SymbolId),
            wild_mult: game.wild().map_or(1, |(_, m)| m),
            scatter: game.scatter.as_ref().map(|s| s.symbol),
        }
    }

    /// The wild symbol, if the game has one.
    pub(crate) fn wild(&self) -> Option<SymbolId> {
        self.wild
    }

    /// Decide the line once its run is broken (or the reels are done):
    /// later reels cannot change its pay then. The pay itself comes from the
    /// game's own rule, `ReelGame::line_pay`.
    pub(crate) fn decide(&self, run: &mut LineRun) {
        let k = run.len as usize;
        let syms = &run.syms[..k];
        let leading = syms.iter().take_while(|&&x| Some(x) == self.wild).count();
        let newest = syms[k - 1];
        let decided = k == self.n
            || (leading < k && {
                let x = syms[leading];
                // A scatter ends a wild run; otherwise a symbol that is
                // neither the run's symbol nor wild breaks it.
                Some(x) == self.scatter || (k - 1 > leading && newest != x && Some(newest) != self.wild)
            });
        if decided {
            // Fill the rest with the breaking symbol: it cannot extend the run.
            let mut full = [0 as SymbolId; MAX_REELS];
            full[..k].copy_from_slice(syms);
            for slot in full.iter_mut().take(self.n).skip(k) {
                *slot = newest;
            }
            run.decided = Some(match self.game.line_pay_with(&full[..self.n], self.wild, self.wild_mult) {
                Some(p) => (p.pay, p.symbol, p.count),
                None => (0, 0, 0),
            });
        }
    }
}

struct Walk<'a> {
    rule: LineRule<'a>,
    n: usize,
    rows: usize,
    /// `windows[reel][stop * rows + row]`.
    windows: Vec<Vec<SymbolId>>,
    weights: Vec<Vec<u64>>,
    scatters: Vec<Vec<u8>>,
    /// Scatter-count distribution of reels `k..n`, in weight units.
    suffix: Vec<Vec<u128>>,
    lines: Vec<Vec<u8>>,
    configs: Vec<usize>,
    scatter_pays: Vec<u64>,
    awards: Vec<u32>,
}

impl Walk<'_> {
    fn decide(&self, run: &mut LineRun) {
        self.rule.decide(run);
    }

    /// Walk reel `depth` onwards. `scratch[0]` holds this level's runs;
    /// the rest is handed down, so no node allocates or clears memory.
    fn rec(&self, depth: usize, runs: &[LineRun], scat: usize, w: u128, out: &mut Tally, scratch: &mut [Vec<LineRun>]) {
        let Some((next, deeper)) = scratch.split_first_mut() else { return };
        for stop in 0..self.weights[depth].len() {
            let sw = u128::from(self.weights[depth][stop]);
            if sw == 0 {
                continue;
            }
            next.copy_from_slice(runs);
            let mut all = true;
            for (l, run) in next.iter_mut().enumerate() {
                if run.decided.is_none() {
                    let row = self.lines[l][depth] as usize;
                    run.syms[depth] = self.windows[depth][stop * self.rows + row];
                    run.len = depth as u8 + 1;
                    self.decide(run);
                    all &= run.decided.is_some();
                }
            }
            let scat_here = scat + self.scatters[depth][stop] as usize;
            if all || depth + 1 == self.n {
                self.settle(next, scat_here, w * sw, depth + 1, out);
            } else {
                self.rec(depth + 1, next, scat_here, w * sw, out, deeper);
            }
        }
    }

    /// Every line is decided after `depth` reels: fold in the rest of the
    /// reels through their scatter-count distribution.
    fn settle(&self, runs: &[LineRun], scat: usize, w: u128, depth: usize, out: &mut Tally) {
        let nc = self.configs.len();
        // Line wins per config: prefix sums over the played lines.
        let mut line_win = std::mem::take(&mut out.line_win);
        let mut acc = 0u64;
        let mut j = 0;
        for (l, r) in runs.iter().enumerate() {
            acc += r.decided.map_or(0, |d| d.0);
            while j < nc && self.configs[j] == l + 1 {
                line_win[j] = acc;
                j += 1;
            }
        }
        // Paying combinations, once each, at the largest line count.
        let mut combos = std::mem::take(&mut out.combos);
        combos.clear();
        for r in runs {
            if let Some((pay, sym, count)) = r.decided.filter(|d| d.0 > 0) {
                let k = self.combo_index(sym, count);
                out.combo_hits_by_pay.push_hit(k, pay, 0);
                if !combos.contains(&k) {
                    combos.push(k);
                }
            }
        }
        let rest: &[u128] = if depth < self.n { &self.suffix[depth] } else { &[1] };
        let mut line_hits_weight = 0u128;
        for (c2, &cw) in rest.iter().enumerate() {
            if cw == 0 {
                continue;
            }
            let c = scat + c2;
            let weight = w * cw;
            line_hits_weight += weight;
            let spay = self.scatter_pays.get(c).copied().unwrap_or(0);
            let triggers = self.awards.get(c).copied().unwrap_or(0) > 0;
            for (j, &l) in self.configs.iter().enumerate() {
                let win = line_win[j] + spay * l as u64;
                out.stats.by_scatters[j][c].add(win, weight);
                out.stats.line_sum[j] += u128::from(line_win[j]) * weight;
                if win > 0 || triggers {
                    out.stats.hit_weight[j] += weight;
                }
                out.histograms[j].add(win, weight);
            }
            for &k in &combos {
                out.combo_any[k as usize] += weight;
            }
        }
        out.combo_hits_by_pay.scale_last(line_hits_weight);
        out.line_win = line_win;
        out.combos = combos;
    }

    fn combo_index(&self, sym: SymbolId, count: u8) -> u16 {
        sym as u16 * (MAX_REELS as u16 + 1) + count as u16
    }
}

impl Tally {
    fn into_stats(self, symbols: usize) -> SpinStats {
        let mut stats = self.stats;
        stats.histogram = self.histograms.into_iter().map(Histogram::into_map).collect();
        for sym in 0..symbols {
            for count in 0..=MAX_REELS {
                let w = self.combo_any[sym * (MAX_REELS + 1) + count];
                if w > 0 {
                    stats.combo_any.insert((sym as SymbolId, count as u8), w);
                }
            }
        }
        for ((k, pay), w) in self.combo_hits_by_pay.totals {
            let (sym, count) = (k / (MAX_REELS as u16 + 1), k % (MAX_REELS as u16 + 1));
            *stats.combo_hits.entry((sym as SymbolId, count as u8, pay)).or_default() += w;
        }
        stats
    }
}

/// A win histogram: dense when wins are small, a tree otherwise.
#[derive(Clone, Debug)]
enum Histogram {
    Dense(Vec<u128>),
    Sparse(BTreeMap<u64, u128>),
}

impl Histogram {
    fn new(max_win: u64) -> Self {
        if max_win < (1 << 20) { Histogram::Dense(vec![0; max_win as usize + 1]) } else { Histogram::Sparse(BTreeMap::new()) }
    }
    #[inline]
    fn add(&mut self, win: u64, w: u128) {
        match self {
            Histogram::Dense(v) => match v.get_mut(win as usize) {
                Some(x) => *x += w,
                None => unreachable!("a win above the computed maximum"),
            },
            Histogram::Sparse(m) => *m.entry(win).or_default() += w,
        }
    }
    fn into_map(self) -> BTreeMap<u64, u128> {
        match self {
            Histogram::Dense(v) => v.into_iter().enumerate().filter(|(_, w)| *w > 0).map(|(k, w)| (k as u64, w)).collect(),
            Histogram::Sparse(m) => m,
        }
    }
}

/// Line hits per (combination, pay): hits are pushed with weight 0 and
/// scaled by the leaf's total weight once its scatter fold is known.
#[derive(Clone, Debug, Default)]
struct HitLog {
    totals: BTreeMap<(u16, u64), u128>,
    pending: Vec<(u16, u64)>,
}

impl HitLog {
    #[inline]
    fn push_hit(&mut self, k: u16, pay: u64, _w: u128) {
        self.pending.push((k, pay));
    }
    #[inline]
    fn scale_last(&mut self, weight: u128) {
        for key in self.pending.drain(..) {
            *self.totals.entry(key).or_default() += weight;
        }
    }
}

/// A thread's running totals.
struct Tally {
    stats: SpinStats,
    histograms: Vec<Histogram>,
    combo_any: Vec<u128>,
    combo_hits_by_pay: HitLog,
    /// Scratch: line wins per config, paying combinations of a leaf.
    line_win: Vec<u64>,
    combos: Vec<u16>,
}

/// The exact distribution of scatters (or of a hold-and-spin's bonus
/// symbols) the base game's window shows, each reel read through
/// `ReelGame::reel_window` (its own rows; an expanding wild covers a
/// scatter), in weight units.
pub fn window_scatter_distribution(game: &ReelGame) -> Vec<u128> {
    let scatter = game.counted_symbol();
    let mut dist = vec![1u128];
    for (reel, s) in game.reels.iter().enumerate() {
        let mut per = vec![0u128; game.rows_of(reel) + 1];
        for stop in 0..s.len() {
            let c = game.reel_window(reel, s, stop).iter().filter(|&&x| Some(x) == scatter).count();
            per[c] += u128::from(s.weight(stop));
        }
        let mut next = vec![0u128; dist.len() + per.len() - 1];
        for (a, &x) in dist.iter().enumerate() {
            for (b, &y) in per.iter().enumerate() {
                next[a + b] += x * y;
            }
        }
        dist = next;
    }
    dist
}

/// The exact distribution of scatters shown by `strips`, in weight units.
pub fn scatter_distribution(strips: &[Strip], rows: usize, scatter: Option<SymbolId>) -> Vec<u128> {
    let mut dist = vec![1u128];
    for s in strips {
        let mut per = vec![0u128; rows + 1];
        for stop in 0..s.len() {
            let c = (0..rows).filter(|&r| Some(s.at(stop, r)) == scatter).count();
            per[c] += u128::from(s.weight(stop));
        }
        let mut next = vec![0u128; dist.len() + rows];
        for (a, &x) in dist.iter().enumerate() {
            for (b, &y) in per.iter().enumerate() {
                next[a + b] += x * y;
            }
        }
        dist = next;
    }
    dist
}

/// Enumerate the full cycle of `strips` for the line counts `configs`
/// (ascending). `free` marks free-game strips (for retrigger awards).
pub fn enumerate(game: &ReelGame, strips: &[Strip], configs: &[usize], free: bool) -> Result<SpinStats, MathError> {
    let work = Work::unlimited();
    work.plan(strips.first().map_or(0, |r| r.len() as u64));
    enumerate_on(game, strips, configs, free, default_threads(), &work)
}

/// The worker threads of an analysis: the machine's cores, at most 8.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(8)
}

/// [`enumerate`] on `threads` worker threads, counted in `work` and
/// stopped by its deadline: the figures never depend on how many threads
/// there are.
pub fn enumerate_on(game: &ReelGame, strips: &[Strip], configs: &[usize], free: bool, threads: usize, work: &Work) -> Result<SpinStats, MathError> {
    let threads = threads.max(1);
    let n = strips.len();
    let rows = game.rows as usize;
    let scatter = game.scatter.as_ref().map(|s| s.symbol);
    let mut cycle: u128 = 1;
    for s in strips {
        cycle = cycle.checked_mul(u128::from(s.total_weight())).filter(|&c| c < (1u128 << 80)).ok_or_else(|| MathError::CycleTooLarge {
            what: format!("{n} reels, their stops' weights multiplied past 2^80"),
            culprit: if free { Culprit::FreeStrips } else { Culprit::Strips },
        })?;
    }
    // Each reel walked by its distinct windows (`reel_windows`): every
    // figure is the same as stop by stop.
    let classes: Vec<crate::reel_windows::Windows> = strips.iter().map(|s| crate::reel_windows::classes(s, rows, scatter)).collect();
    let first = classes.first().map_or(0, crate::reel_windows::Windows::len);
    let mut windows = Vec::with_capacity(n);
    let mut weights = Vec::with_capacity(n);
    let mut scatters = Vec::with_capacity(n);
    for c in classes {
        windows.push(c.symbols);
        weights.push(c.weights);
        scatters.push(c.scatters);
    }
    let suffix: Vec<Vec<u128>> = (0..=n).map(|k| scatter_distribution(&strips[k.min(n)..], rows, scatter)).collect();
    let (scatter_pays, awards) = match &game.scatter {
        None => (Vec::new(), Vec::new()),
        Some(sc) => {
            let awards = match &sc.free_games {
                Some(f) if !free || f.retrigger => f.awards.clone(),
                _ => Vec::new(),
            };
            (sc.pays.clone(), awards)
        }
    };
    let walk = Walk {
        rule: LineRule::new(game, n),
        n,
        rows,
        windows,
        weights,
        scatters,
        suffix,
        lines: game.lines.clone(),
        configs: configs.to_vec(),
        scatter_pays,
        awards,
    };
    let max_c = n * rows + 1;
    let empty = || SpinStats {
        by_scatters: vec![vec![Moments::default(); max_c]; configs.len()],
        line_sum: vec![0; configs.len()],
        hit_weight: vec![0; configs.len()],
        histogram: vec![BTreeMap::new(); configs.len()],
        combo_any: BTreeMap::new(),
        combo_hits: BTreeMap::new(),
        cycle,
        joint: true,
        combo_line_max: BTreeMap::new(),
    };
    let max_lines = *configs.last().unwrap_or(&0);
    if max_lines > MAX_LINES || configs.is_empty() {
        return Err(MathError::TooManyLines {
            lines: max_lines,
            limit: format!("the exact analysis handles at most {MAX_LINES} lines (its limit, not the game's)"),
        });
    }
    let max_win = max_spin_win(game, &walk.scatter_pays, max_lines, cycle)?;
    let combo_slots = game.symbols.len() * (MAX_REELS + 1);
    let tally = || Tally {
        stats: empty(),
        histograms: configs.iter().map(|_| Histogram::new(max_win)).collect(),
        combo_any: vec![0; combo_slots],
        combo_hits_by_pay: HitLog::default(),
        line_win: vec![0; configs.len()],
        combos: Vec::with_capacity(max_lines),
    };
    let start = vec![LineRun::EMPTY; max_lines];
    // Split the first reel's windows over the worker threads.
    let mut total = empty();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let walk = &walk;
                let start = &start;
                let mut part = tally();
                let mut scratch = vec![vec![LineRun::EMPTY; max_lines]; n];
                scope.spawn(move || {
                    for stop in (t..first).step_by(threads) {
                        if work.over() {
                            return None;
                        }
                        work.step();
                        let sw = u128::from(walk.weights[0][stop]);
                        if sw == 0 {
                            continue;
                        }
                        let mut runs = start.clone();
                        let mut all = true;
                        for (l, run) in runs.iter_mut().enumerate() {
                            run.syms[0] = walk.windows[0][stop * walk.rows + walk.lines[l][0] as usize];
                            run.len = 1;
                            walk.decide(run);
                            all &= run.decided.is_some();
                        }
                        let scat = walk.scatters[0][stop] as usize;
                        if all || walk.n == 1 {
                            walk.settle(&runs, scat, sw, 1, &mut part);
                        } else {
                            walk.rec(1, &runs, scat, sw, &mut part, &mut scratch[1..]);
                        }
                    }
                    Some(part.into_stats(game.symbols.len()))
                })
            })
            .collect();
        // A worker that fails fails the whole analysis: the other workers'
        // partial sums are never reported as the figure.
        let joined: Vec<_> = handles.into_iter().map(|h| h.join()).collect();
        for part in joined {
            match part {
                Ok(Some(part)) => total.merge(part),
                Ok(None) => return Err(work.stopped()),
                Err(panic) => return Err(MathError::WorkerFailed(panic_text(panic.as_ref()))),
            }
        }
        Ok(())
    })?;
    Ok(total)
}

/// The largest win of one spin, in credits per credit per line (every
/// line at its highest pay with the wild's multiplier, and the largest
/// scatter pay for every line), computed with checked arithmetic. Every sum
/// the walk keeps (Σ win·weight, Σ win²·weight over a cycle of `cycle`
/// combinations) is at most `max_win² × cycle`: the analysis refuses pays
/// for which that does not fit 128 bits, so no sum can ever wrap.
pub(crate) fn max_spin_win(game: &ReelGame, scatter_pays: &[u64], lines: usize, cycle: u128) -> Result<u64, MathError> {
    let too_large = |what: String| MathError::PaysTooLarge { what, culprit: Culprit::LargestPay };
    let mult = game.symbols.iter().map(|s| if let SymbolKind::Wild { multiplier, .. } = s.kind { multiplier } else { 1 }).max().unwrap_or(1);
    let max_pay = game.pays.iter().flatten().copied().max().unwrap_or(0);
    let lines = lines as u64;
    let line = max_pay.checked_mul(mult).ok_or_else(|| too_large(format!("the pay {max_pay} × the wild's multiplier {mult} does not fit 64 bits")))?;
    let scatter = scatter_pays.iter().copied().max().unwrap_or(0);
    let max_win = line.checked_add(scatter).and_then(|w| w.checked_mul(lines)).ok_or_else(|| MathError::PaysTooLarge {
        what: format!("a spin could win ({line} + scatter {scatter}) × {lines} lines, which does not fit 64 bits"),
        culprit: Culprit::LargestLineCount,
    })?;
    let w = u128::from(max_win);
    w.checked_mul(w).and_then(|sq| sq.checked_mul(cycle)).ok_or_else(|| {
        too_large(format!("a spin could win {max_win} credits per credit on a cycle of {cycle} combinations: the exact sums would exceed 128 bits"))
    })?;
    Ok(max_win)
}

/// What a panicked worker said.
pub(crate) fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic.downcast_ref::<&str>().map(|s| (*s).to_owned()).or_else(|| panic.downcast_ref::<String>().cloned()).unwrap_or_else(|| "a panic".to_owned())
}

fn rat(x: u128) -> BigRational {
    BigRational::from_integer(BigInt::from(x))
}

fn int(x: u64) -> BigRational {
    BigRational::from_integer(BigInt::from(x))
}

/// Exact figures of one bet configuration (a line count). RTP does not
/// depend on credits per line: every pay scales with it.
#[derive(Clone, Debug)]
pub struct ConfigFigures {
    pub lines: u32,
    pub rtp: BigRational,
    pub rtp_lines: BigRational,
    pub rtp_scatter: BigRational,
    pub rtp_free_games: BigRational,
    /// The hold-and-spin feature's part (issue 50; zero without one).
    pub rtp_hold: BigRational,
    /// None when the full cycle was too large to walk (see [`Method`]).
    pub hit_frequency: Option<BigRational>,
    /// Variance of the round's win, in units of the total bet squared.
    pub variance: BigRational,
    /// The largest base-spin win, in credits per credit per line (None
    /// when the full cycle was too large to walk).
    pub max_base_win: Option<u64>,
    /// Base spin win (credits per credit per line) → weight in the cycle
    /// (None when the full cycle was too large to walk).
    pub histogram: Option<BTreeMap<u64, u128>>,
}

impl ConfigFigures {
    pub fn standard_deviation(&self) -> f64 {
        self.variance.to_f64().unwrap_or(f64::NAN).sqrt()
    }
}

/// The free-game feature's exact figures.
#[derive(Clone, Debug)]
pub struct FreeGameFigures {
    /// Probability that a base spin triggers free games.
    pub trigger_probability: BigRational,
    /// Mean free games played per trigger, retriggers included.
    pub mean_games_per_trigger: BigRational,
    /// Mean retriggered free games per free game, E[R].
    pub retrigger_rate: BigRational,
}

/// How the figures were computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Method {
    /// Every stop combination of the cycle accounted for: every figure is
    /// exact, the hit frequency and the prize table included.
    FullCycle,
    /// From per-reel symbol counts (lines by linearity, pairs of lines for
    /// the variance, scatters from their count distribution): the RTP, its
    /// parts and the standard deviation are exact; the hit frequency, the
    /// win histogram and each prize's probability on *any* line need the
    /// joint distribution of every line and are not computed (each prize
    /// gets a lower bound: its probability on the one line most likely to
    /// pay it).
    SymbolCounts,
    /// A ways game (issue 50; [`crate::ways_math`]): the RTP, its parts,
    /// the standard deviation and the hit frequency are exact over the
    /// full cycle by generating functions; the win histogram is not
    /// computed.
    Ways,
    /// A cascade game (issue 50; [`crate::cascade_math`]): the full
    /// cycle walked, each spin's whole cascade played by game-core: every
    /// figure exact, the hit frequency and the win distribution included.
    Cascade,
}

/// Window combinations ([`work_size`]) up to which `analyse` walks the full
/// cycle (a few seconds at most on these machines); beyond, it works from
/// symbol counts.
pub const FULL_CYCLE_LIMIT: u128 = 20_000_000;

/// The method `analyse` uses for `game`.
pub fn method_for(game: &ReelGame) -> Method {
    if game.cascade.is_some() {
        return Method::Cascade;
    }
    if game.ways {
        return Method::Ways;
    }
    if work_size(game).0 <= FULL_CYCLE_LIMIT { Method::FullCycle } else { Method::SymbolCounts }
}

#[derive(Clone, Debug)]
pub struct ReelFigures {
    pub method: Method,
    pub cycle: u128,
    pub configs: Vec<ConfigFigures>,
    pub free_games: Option<FreeGameFigures>,
    /// (symbol, count) → weight of base spins in which it pays on at least
    /// one line, at the largest line count (full cycle); from symbol counts,
    /// the lower bound described at [`Method::SymbolCounts`].
    pub combo_any: BTreeMap<(SymbolId, u8), u128>,
    /// (symbol, count, pay) → line hits in the base cycle at the largest
    /// line count.
    pub combo_hits: BTreeMap<(SymbolId, u8, u64), u128>,
    /// Scatter count → weight in the base cycle.
    pub scatter_distribution: Vec<u128>,
    /// The hold-and-spin feature's figures (issue 50).
    pub hold: Option<HoldFigures>,
}

/// A hold-and-spin feature's exact figures (issue 50; [`crate::hold_math`]).
#[derive(Clone, Debug)]
pub struct HoldFigures {
    /// Probability that a base spin starts the feature.
    pub trigger_probability: BigRational,
    /// Given a start, P(N = n) for the final count of held cells.
    pub final_counts: Vec<BigRational>,
    /// Given a start, the probability of a full screen.
    pub full_screen: BigRational,
    /// Given a start, the mean win, per credit of the unit.
    pub mean_win: BigRational,
    /// The RTP part of each jackpot level's symbols (mini, minor, major,
    /// grand), of the grand paid for a full screen, and of credit values.
    pub rtp_levels: Vec<(String, BigRational)>,
}

/// A session of free games' moments, per bet configuration.
enum FreeSessions {
    /// Independent free games (the branching process): one free game's
    /// descendants together have mean `eg` and second moment `eg2`; `er`
    /// free games are retriggered per free game.
    Independent { eg: BigRational, eg2: BigRational, er: BigRational },
    /// Free games with a sticky wild (`sticky_math`): E[T] and E[T²] of a
    /// session of `n` free games at index `n`.
    Chain(Vec<(BigRational, BigRational)>),
}

impl FreeSessions {
    /// E[T] and E[T²] of the session that `n` awarded free games start.
    fn session(&self, n: u64) -> (BigRational, BigRational) {
        match self {
            FreeSessions::Independent { eg, eg2, .. } => {
                let nr = int(n);
                (&nr * eg, &nr * eg2 + &nr * (&nr - int(1)) * eg * eg)
            }
            FreeSessions::Chain(by_games) => by_games.get(n as usize).cloned().unwrap_or_else(|| (BigRational::zero(), BigRational::zero())),
        }
    }

    fn retrigger_rate(&self) -> BigRational {
        match self {
            FreeSessions::Independent { er, .. } => er.clone(),
            FreeSessions::Chain(_) => BigRational::zero(),
        }
    }
}

/// The exact figures of every bet configuration of `game`.
pub fn analyse(game: &ReelGame) -> Result<ReelFigures, MathError> {
    analyse_with(game, default_threads(), &Work::unlimited())
}

/// [`analyse`] on `threads` worker threads, counted in `work` and stopped
/// by its deadline.
pub fn analyse_with(game: &ReelGame, threads: usize, work: &Work) -> Result<ReelFigures, MathError> {
    analyse_by(game, method_for(game), threads, work)
}

/// One set of strips' spin statistics by `method`.
fn spin_stats(game: &ReelGame, strips: &[Strip], configs: &[usize], free: bool, method: Method, threads: usize, work: &Work) -> Result<SpinStats, MathError> {
    match method {
        Method::FullCycle => enumerate_on(game, strips, configs, free, threads, work),
        Method::SymbolCounts => crate::reel_counts::spin_by_counts(game, strips, configs, threads, work).map(SpinStats::from),
        Method::Ways => crate::ways_math::spin_stats(game, strips, configs, free),
        Method::Cascade => crate::cascade_math::spin_stats(game, strips, configs, threads),
    }
}

/// [`analyse_with`] by the given method.
pub fn analyse_by(game: &ReelGame, method: Method, threads: usize, work: &Work) -> Result<ReelFigures, MathError> {
    if method == Method::FullCycle {
        work.plan(work_size(game).1);
    }
    let configs: Vec<usize> = game.bet.lines.iter().map(|&l| l as usize).collect();
    let base = spin_stats(game, &game.reels, &configs, false, method, threads, work)?;
    let cycle = rat(base.cycle);

    // Free games: one free game's moments, then the branching process; or,
    // with a sticky wild, the chain of `sticky_math` (issue 50).
    let free = match game.free_games() {
        None => None,
        Some(f) if game.sticky_wild().is_some() && method == Method::Ways => {
            let most = f.awards.iter().copied().max().unwrap_or(0) as usize;
            let sessions = crate::sticky_math::sessions(game, &configs, most)?;
            Some((f.awards.clone(), sessions.into_iter().map(FreeSessions::Chain).collect::<Vec<_>>()))
        }
        Some(f) => {
            // On the base strips, a free spin's moments by scatter count are
            // the base spin's: only the awards differ, applied below.
            let own;
            let spin = if f.reels.is_some() {
                own = spin_stats(game, game.strips(true), &configs, true, method, threads, work)?;
                &own
            } else {
                &base
            };
            let fcycle = rat(spin.cycle);
            let m = int(f.multiplier);
            let mut per_config = Vec::new();
            for j in 0..configs.len() {
                let (mut ex, mut ex2, mut exr, mut er, mut err1) =
                    (BigRational::zero(), BigRational::zero(), BigRational::zero(), BigRational::zero(), BigRational::zero());
                for (c, mo) in spin.by_scatters[j].iter().enumerate() {
                    if mo.weight == 0 {
                        continue;
                    }
                    let r = if f.retrigger { u64::from(f.awards.get(c).copied().unwrap_or(0)) } else { 0 };
                    ex += rat(mo.sum) * &m;
                    ex2 += rat(mo.sum_sq) * &m * &m;
                    exr += rat(mo.sum) * &m * int(r);
                    er += rat(mo.weight) * int(r);
                    err1 += rat(mo.weight) * int(r * r.saturating_sub(1));
                }
                let (ex, ex2, exr, er, err1) = (ex / &fcycle, ex2 / &fcycle, exr / &fcycle, er / &fcycle, err1 / &fcycle);
                let one = BigRational::from_integer(1.into());
                if er >= one {
                    return Err(MathError::EndlessFreeGames(format!("{:.4}", er.to_f64().unwrap_or(f64::NAN))));
                }
                let eg = &ex / (&one - &er);
                let eg2 = (&ex2 + int(2) * &exr * &eg + &err1 * &eg * &eg) / (&one - &er);
                per_config.push(FreeSessions::Independent { eg, eg2, er });
            }
            Some((f.awards.clone(), per_config))
        }
    };

    // Issue 50: the hold-and-spin chain, by the count the base window
    // shows (the counted symbol of `by_scatters`).
    let hold = game.hold_and_spin.as_ref().map(|rule| (rule, crate::hold_math::analyse(rule, game.cells().len())));
    let mut hold_figs = None;
    let mut figures = Vec::new();
    let mut free_figs = None;
    for (j, &l) in configs.iter().enumerate() {
        let bet = int(l as u64);
        let (mut e1, mut e2) = (BigRational::zero(), BigRational::zero());
        let mut e_free = BigRational::zero();
        let mut scatter_sum = BigRational::zero();
        let mut trigger_w = BigRational::zero();
        let mut games = BigRational::zero();
        let mut e_hold = BigRational::zero();
        for (c, mo) in base.by_scatters[j].iter().enumerate() {
            if mo.weight == 0 {
                continue;
            }
            if let Some(from) = hold.as_ref().and_then(|(_, h)| h.by_start.get(c)).and_then(Option::as_ref) {
                // The base spin's win B and the feature's F are independent
                // given the count: 2 E[B·F] + E[F²] for this count.
                e_hold += rat(mo.weight) * &from.mean;
                e2 += int(2) * rat(mo.sum) * &from.mean;
                e2 += rat(mo.weight) * &from.second;
            }
            e1 += rat(mo.sum);
            e2 += rat(mo.sum_sq);
            let spay = game.scatter.as_ref().and_then(|s| s.pays.get(c)).copied().unwrap_or(0);
            scatter_sum += rat(mo.weight) * int(spay * l as u64);
            if let Some((awards, per)) = &free {
                let nn = u64::from(awards.get(c).copied().unwrap_or(0));
                if nn > 0 {
                    let (ef, ef2) = per[j].session(nn);
                    let nr = int(nn);
                    e_free += rat(mo.weight) * &ef;
                    // 2 E[B·F] + E[F²] for this scatter count.
                    e2 += int(2) * rat(mo.sum) * &ef;
                    e2 += rat(mo.weight) * ef2;
                    trigger_w += rat(mo.weight);
                    games += rat(mo.weight) * &nr;
                }
            }
        }
        let mean = (&e1 + &e_free + &e_hold) / &cycle;
        let second = &e2 / &cycle;
        let variance = (&second - &mean * &mean) / (&bet * &bet);
        let rtp_lines = rat(base.line_sum[j]) / &cycle / &bet;
        let rtp_scatter = &scatter_sum / &cycle / &bet;
        let rtp_free_games = &e_free / &cycle / &bet;
        let rtp_hold = &e_hold / &cycle / &bet;
        if let Some((rule, h)) = &hold
            && j + 1 == configs.len()
        {
            hold_figs = Some(hold_figures(rule, h, &base.by_scatters[j], &cycle, &bet));
        }
        if let Some((_, per)) = &free
            && j + 1 == configs.len()
            && !trigger_w.is_zero()
        {
            let er = per[j].retrigger_rate();
            let one = BigRational::from_integer(1.into());
            free_figs = Some(FreeGameFigures {
                trigger_probability: &trigger_w / &cycle,
                mean_games_per_trigger: &games / &trigger_w / (&one - &er),
                retrigger_rate: er,
            });
        }
        figures.push(ConfigFigures {
            lines: l as u32,
            rtp: &mean / &bet,
            rtp_lines,
            rtp_scatter,
            rtp_free_games,
            rtp_hold,
            hit_frequency: (base.joint || method == Method::Ways).then(|| rat(base.hit_weight[j]) / &cycle),
            variance,
            max_base_win: base.joint.then(|| base.histogram[j].keys().next_back().copied().unwrap_or(0)),
            histogram: base.joint.then(|| base.histogram[j].clone()),
        });
    }
    let scatter_distribution = window_scatter_distribution(game);
    let combo_any = if base.joint { base.combo_any } else { base.combo_line_max };
    Ok(ReelFigures {
        method,
        cycle: base.cycle,
        configs: figures,
        free_games: free_figs,
        combo_any,
        combo_hits: base.combo_hits,
        scatter_distribution,
        hold: hold_figs,
    })
}

/// The hold-and-spin's figures over the base cycle's start counts.
fn hold_figures(
    rule: &game_core::reels::HoldAndSpinRule,
    h: &crate::hold_math::HoldMath,
    by_count: &[Moments],
    cycle: &BigRational,
    bet: &BigRational,
) -> HoldFigures {
    use game_core::reels::CashValue;
    let mut trigger = BigRational::zero();
    let mut counts = vec![BigRational::zero(); h.cells + 1];
    let (mut mean_win, mut held) = (BigRational::zero(), BigRational::zero());
    for (c, mo) in by_count.iter().enumerate() {
        let Some(from) = h.by_start.get(c).and_then(Option::as_ref) else { continue };
        let w = rat(mo.weight);
        trigger += &w;
        for (n, p) in from.final_counts.iter().enumerate() {
            counts[n] += &w * p;
        }
        mean_win += &w * &from.mean;
        held += &w * &from.mean_count;
    }
    if trigger.is_zero() {
        return HoldFigures { trigger_probability: trigger, final_counts: counts, full_screen: BigRational::zero(), mean_win, rtp_levels: vec![] };
    }
    let final_counts: Vec<BigRational> = counts.iter().map(|x| x / &trigger).collect();
    let full_screen = final_counts[h.cells].clone();
    let total = int(rule.values.iter().map(|v| v.1).sum());
    // Per round: E[symbols of the values `of`] = Σ_c P(c) E[N | c] × their
    // weights' share, each paying its pay.
    let per_round = |of: &dyn Fn(CashValue) -> bool| -> BigRational {
        let w = rule.values.iter().filter(|x| of(x.0)).map(|x| x.1 * rule.pay(x.0)).sum::<u64>();
        &held * int(w) / &total / cycle / bet
    };
    let rtp_levels = vec![
        ("mini".to_owned(), per_round(&|v| v == CashValue::Mini)),
        ("minor".to_owned(), per_round(&|v| v == CashValue::Minor)),
        ("major".to_owned(), per_round(&|v| v == CashValue::Major)),
        ("grand".to_owned(), per_round(&|v| v == CashValue::Grand)),
        ("grand (full screen)".to_owned(), &trigger * &full_screen * int(rule.jackpots.grand) / cycle / bet),
        ("credits".to_owned(), per_round(&|v| matches!(v, CashValue::Credits(_)))),
    ];
    HoldFigures { trigger_probability: &trigger / cycle, final_counts, full_screen, mean_win: mean_win / &trigger, rtp_levels }
}

pub use crate::floor::decimal;
