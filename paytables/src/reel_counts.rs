//! Exact moments of a reel spin from per-reel symbol counts, for strips of
//! any length (issue 18).
//!
//! A line sees one row of each reel, and the reels stop independently, so
//! the symbols under one line are independent across reels, each with the
//! weight its reel's stops give it on that row. Each line's expected pay
//! is therefore a walk over *symbols* rather than stops, reel by reel, with
//! the line's run states merged after each reel (every prefix with the same
//! future is one state; a run decided with no pay is dropped). By linearity
//! the spin's expected line win is the sum over its lines. Scatters depend
//! only on the scatter count each reel shows: the walk carries the count so
//! far, and a reel seen by no open line adds its own count distribution.
//!
//! The second moment needs pairs of lines: `E[W² | C = c]` is the sum over
//! every pair of lines of `E[X_l X_m; C = c]`, and a pair sees at most two
//! rows of each reel, so the pair is walked over the joint symbol counts of
//! those two rows (and over one row's counts once one of the two lines is
//! decided). Every sum is an integer in weight units, as in the full walk,
//! so the RTP and the variance are exact to the last digit; only what needs
//! the joint distribution of every line at once (hit frequency, the win
//! histogram, the probability of a prize on *any* line) is left to the full
//! walk where it is feasible.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use game_core::reels::{MAX_REELS, ReelGame, Strip, SymbolId};

use crate::reel_math::{LineRule, LineRun, MathError, Moments, Work, max_spin_win, panic_text, scatter_distribution};

/// What the walk over symbol counts gives for one set of strips.
#[derive(Clone, Debug, Default)]
pub struct CountStats {
    /// `by_scatters[config][c]`: exact weight, Σ win·weight and Σ win²·weight.
    pub by_scatters: Vec<Vec<Moments>>,
    /// Σ line wins · weight per config (without scatter pays).
    pub line_sum: Vec<u128>,
    /// (symbol, count, pay) → Σ over the played lines of the weight of
    /// spins where that line pays it, at the largest line count.
    pub combo_hits: BTreeMap<(SymbolId, u8, u64), u128>,
    /// (symbol, count) → the largest, over the played lines, weight of
    /// spins where that one line pays it: a lower bound of the weight of
    /// spins where it pays on any line.
    pub combo_line_max: BTreeMap<(SymbolId, u8), u128>,
    pub cycle: u128,
}

/// One reel seen through one or two rows: (symbol on the first line's
/// row, symbol on the second's, scatters in the window) → weight.
type Classes = Vec<(SymbolId, SymbolId, u8, u128)>;

fn classes(strip: &Strip, rows: usize, a: usize, b: usize, scatter: Option<SymbolId>) -> Classes {
    let mut m: BTreeMap<(SymbolId, SymbolId, u8), u128> = BTreeMap::new();
    for stop in 0..strip.len() {
        let w = u128::from(strip.weight(stop));
        if w == 0 {
            continue;
        }
        let scat = (0..rows).filter(|&r| Some(strip.at(stop, r)) == scatter).count() as u8;
        *m.entry((strip.at(stop, a), strip.at(stop, b), scat)).or_default() += w;
    }
    m.into_iter().map(|((x, y, c), w)| (x, y, c, w)).collect()
}

/// The per-reel tables a line or a pair of lines is walked over.
struct Tables<'a> {
    rule: LineRule<'a>,
    rows: usize,
    strips: &'a [Strip],
    scatter: Option<SymbolId>,
    /// `single[reel][row]`: one row's classes (both symbols equal).
    single: Vec<Vec<Classes>>,
    /// Scatter-count distribution of each reel alone (the walk folds the
    /// reels of decided lines in one at a time).
    scatters: Vec<Vec<u128>>,
}

impl Tables<'_> {
    fn pair(&self, reel: usize, a: usize, b: usize) -> Classes {
        if a == b { self.single[reel][a].clone() } else { classes(&self.strips[reel], self.rows, a, b, self.scatter) }
    }
}

/// The sums one walk collects, by scatter count `c` (weight units).
struct Acc {
    /// Σ weight · pay_a (· pay_b for a pair), by c.
    by_c: Vec<u128>,
    /// Σ weight · pay_a², by c (single lines only).
    sq_by_c: Vec<u128>,
    /// (pay, symbol, count) of line a → weight (single lines only).
    combos: BTreeMap<(u64, SymbolId, u8), u128>,
}

fn overflow() -> MathError {
    MathError::PaysTooLarge { what: "an exact sum over symbol counts does not fit 128 bits".into(), culprit: crate::reel_math::Culprit::LargestPay }
}

fn add(slot: &mut u128, x: u128) -> Result<(), MathError> {
    *slot = slot.checked_add(x).ok_or_else(overflow)?;
    Ok(())
}

fn mul(a: u128, b: u128) -> Result<u128, MathError> {
    a.checked_mul(b).ok_or_else(overflow)
}

/// A line's run as the walk over symbol counts keeps it: open (its
/// symbols so far, in a canonical form: every prefix with the same future
/// is merged into one), or decided with what it pays. A run decided with no
/// pay is dropped: it adds nothing to any sum the walk keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Run {
    Open([SymbolId; MAX_REELS], u8),
    Paid(u64, SymbolId, u8),
}

impl Tables<'_> {
    /// The run after reel `depth` shows `sym` on the line's row; None when
    /// it is decided and pays nothing.
    fn step(&self, run: Run, depth: usize, sym: SymbolId) -> Option<Run> {
        let Run::Open(syms, len) = run else { return Some(run) };
        let mut r = LineRun { syms, len, decided: None };
        r.syms[depth] = sym;
        r.len = depth as u8 + 1;
        self.rule.decide(&mut r);
        match r.decided {
            Some((0, _, _)) => None,
            Some((pay, s, c)) => Some(Run::Paid(pay, s, c)),
            None => Some(Run::Open(self.canonical(r.syms, r.len), r.len)),
        }
    }

    /// An open run's canonical prefix: its leading wilds, its symbol, a
    /// wild after it if any, and its symbol again to its length. What the
    /// run can still pay depends only on these (`ReelGame::line_pay`: the
    /// leading wilds, the run's symbol, its length, whether a wild is in it).
    fn canonical(&self, syms: [SymbolId; MAX_REELS], len: u8) -> [SymbolId; MAX_REELS] {
        let k = len as usize;
        let Some(w) = self.rule.wild() else { return syms };
        let leading = syms[..k].iter().take_while(|&&x| x == w).count();
        if leading == k {
            return syms;
        }
        let x = syms[leading];
        let wild_after = syms[leading + 1..k].contains(&w);
        let mut out = [0; MAX_REELS];
        for (i, slot) in out.iter_mut().enumerate().take(k) {
            *slot = if i < leading || (wild_after && i == leading + 1) { w } else { x };
        }
        out
    }

    /// Every run a line can be in, numbered, and where each symbol takes
    /// it: the same for every line (a run does not depend on the rows).
    fn automaton(&self) -> Result<Automaton, MathError> {
        let symbols = self.rule.game.symbols.len();
        let start = Run::Open([0; MAX_REELS], 0);
        let mut ids: FxHashMap<Run, u16> = FxHashMap::default();
        let mut runs = vec![start];
        ids.insert(start, 0);
        let mut next = Vec::new();
        let mut i = 0;
        while i < runs.len() {
            let run = runs[i];
            let mut row = vec![DEAD; symbols];
            if let Run::Open(_, len) = run
                && (len as usize) < self.rule.n
            {
                for (sym, slot) in row.iter_mut().enumerate() {
                    if let Some(to) = self.step(run, len as usize, sym as SymbolId) {
                        let id = match ids.get(&to) {
                            Some(&id) => id,
                            None => {
                                let id = u16::try_from(runs.len()).ok().filter(|&id| id != DEAD).ok_or_else(|| MathError::CycleTooLarge {
                                    what: "more line states than the walk over symbol counts can number".into(),
                                    culprit: crate::reel_math::Culprit::Strips,
                                })?;
                                ids.insert(to, id);
                                runs.push(to);
                                id
                            }
                        };
                        *slot = id;
                    }
                }
            }
            next.extend(row);
            i += 1;
        }
        Ok(Automaton { runs, next, symbols })
    }

    /// Lines `la` and `lb` (rows per reel; the same line for a single
    /// walk), reel by reel, their runs' states merged after each reel;
    /// `pair[reel]` holds the classes of their two rows on each reel.
    fn walk(&self, auto: &Automaton, pair: &[Classes], (la, lb): (&[usize], &[usize]), single: bool, acc: &mut Acc) -> Result<(), MathError> {
        let n = self.rule.n;
        let key = |a: u16, b: u16, c: u8| (u64::from(a) << 24) | (u64::from(b) << 8) | u64::from(c);
        let mut states: FxHashMap<u64, u128> = FxHashMap::default();
        states.insert(key(0, 0, 0), 1);
        for depth in 0..n {
            let mut next: FxHashMap<u64, u128> = FxHashMap::default();
            next.reserve(states.len() * 4);
            for (&k, &w) in &states {
                let (ra, rb, scat) = ((k >> 24) as u16, ((k >> 8) & 0xFFFF) as u16, (k & 0xFF) as u8);
                let a_open = auto.open(ra);
                let b_open = !single && auto.open(rb);
                let mut put = |na: u16, nb: u16, c: u8, cw: u128| -> Result<(), MathError> { add(next.entry(key(na, nb, scat + c)).or_default(), mul(w, cw)?) };
                match (a_open, b_open) {
                    (false, false) => {
                        for (c, &cw) in self.scatters[depth].iter().enumerate() {
                            if cw > 0 {
                                put(ra, rb, c as u8, cw)?;
                            }
                        }
                    }
                    (true, true) => {
                        for &(x, y, c, cw) in &pair[depth] {
                            let (na, nb) = (auto.step(ra, x), auto.step(rb, y));
                            if na != DEAD && nb != DEAD {
                                put(na, nb, c, cw)?;
                            }
                        }
                    }
                    (true, false) => {
                        let table = if single { &pair[depth] } else { &self.single[depth][la[depth]] };
                        for &(x, _, c, cw) in table {
                            let na = auto.step(ra, x);
                            if na != DEAD {
                                put(na, rb, c, cw)?;
                            }
                        }
                    }
                    (false, true) => {
                        for &(y, _, c, cw) in &self.single[depth][lb[depth]] {
                            let nb = auto.step(rb, y);
                            if nb != DEAD {
                                put(ra, nb, c, cw)?;
                            }
                        }
                    }
                }
            }
            states = next;
        }
        for (k, w) in states {
            let (ra, rb, c) = ((k >> 24) as u16, ((k >> 8) & 0xFFFF) as u16, (k & 0xFF) as usize);
            let Run::Paid(pa, sym, count) = auto.runs[ra as usize] else { continue };
            if single {
                let pa = u128::from(pa);
                add(&mut acc.by_c[c], mul(w, pa)?)?;
                add(&mut acc.sq_by_c[c], mul(w, mul(pa, pa)?)?)?;
                add(acc.combos.entry((pa as u64, sym, count)).or_default(), w)?;
            } else if let Run::Paid(pb, _, _) = auto.runs[rb as usize] {
                add(&mut acc.by_c[c], mul(w, mul(u128::from(pa), u128::from(pb))?)?)?;
            }
        }
        Ok(())
    }
}

/// No run: the line was decided and pays nothing.
const DEAD: u16 = u16::MAX;

/// The runs a line can be in and their transitions by symbol.
struct Automaton {
    runs: Vec<Run>,
    /// `next[run * symbols + symbol]`.
    next: Vec<u16>,
    symbols: usize,
}

impl Automaton {
    #[inline]
    fn open(&self, run: u16) -> bool {
        matches!(self.runs[run as usize], Run::Open(..))
    }

    #[inline]
    fn step(&self, run: u16, sym: SymbolId) -> u16 {
        self.next[run as usize * self.symbols + sym as usize]
    }
}

/// The exact moments of a spin of `strips` for the line counts `configs`
/// (ascending), from symbol counts. Free-game awards are applied by the
/// caller from the moments by scatter count, as after a full walk.
pub fn spin_by_counts(game: &ReelGame, strips: &[Strip], configs: &[usize], threads: usize, work: &Work) -> Result<CountStats, MathError> {
    let n = strips.len();
    let rows = game.rows as usize;
    let scatter = game.scatter.as_ref().map(|s| s.symbol);
    let max_lines = configs.last().copied().unwrap_or(0);
    if configs.is_empty() || max_lines > game.lines.len() {
        return Err(MathError::TooManyLines { lines: max_lines, limit: format!("the game has {}", game.lines.len()) });
    }
    let mut cycle: u128 = 1;
    for s in strips {
        cycle = cycle.checked_mul(u128::from(s.total_weight())).ok_or_else(|| MathError::CycleTooLarge {
            what: format!("{n} reels, their stops' weights multiplied past 2^128"),
            culprit: crate::reel_math::Culprit::Strips,
        })?;
    }
    // The same bound as the full walk: no pay times the wild's multiplier
    // may overflow in game-core's line rule, and every sum fits 128 bits.
    let scatter_pays: &[u64] = game.scatter.as_ref().map_or(&[], |s| &s.pays);
    max_spin_win(game, scatter_pays, max_lines, cycle)?;
    let tables = Tables {
        rule: LineRule::new(game, n),
        rows,
        strips,
        scatter,
        single: strips.iter().map(|s| (0..rows).map(|r| classes(s, rows, r, r, scatter)).collect()).collect(),
        scatters: strips.iter().map(|s| scatter_distribution(std::slice::from_ref(s), rows, scatter)).collect(),
    };
    let max_c = n * rows + 1;
    let lines: Vec<Vec<usize>> = game.lines.iter().take(max_lines).map(|l| l.iter().map(|&r| r as usize).collect()).collect();
    // Every walk: the single lines, then every pair l < m.
    let mut jobs: Vec<(usize, usize)> = (0..max_lines).map(|l| (l, l)).collect();
    jobs.extend((0..max_lines).flat_map(|l| (l + 1..max_lines).map(move |m| (l, m))));
    work.plan(jobs.len() as u64);
    let threads = threads.max(1);
    let auto = tables.automaton()?;
    let walker = Walker { tables: &tables, auto: &auto, lines: &lines, max_c };
    let parts: Vec<Part> = std::thread::scope(|scope| {
        let (walker, jobs) = (&walker, &jobs);
        let handles: Vec<_> = (0..threads).map(|t| scope.spawn(move || walker.share(jobs, t, threads, work))).collect();
        let mut parts = Vec::new();
        for h in handles {
            match h.join() {
                Ok(Ok(Some(p))) => parts.push(p),
                Ok(Ok(None)) => return Err(work.stopped()),
                Ok(Err(e)) => return Err(e),
                Err(panic) => return Err(MathError::WorkerFailed(panic_text(panic.as_ref()))),
            }
        }
        Ok(parts)
    })?;
    // Σ per line and per pair, by scatter count.
    let mut s1 = vec![vec![0u128; max_c]; max_lines];
    let mut s2 = vec![vec![0u128; max_c]; max_lines];
    let mut cross = vec![vec![vec![0u128; max_c]; max_lines]; max_lines];
    let mut stats = CountStats { cycle, ..CountStats::default() };
    let mut per_line: BTreeMap<(SymbolId, u8), Vec<u128>> = BTreeMap::new();
    for (l, m, acc) in parts.into_iter().flatten() {
        if l == m {
            s1[l] = acc.by_c;
            s2[l] = acc.sq_by_c;
            for ((pay, sym, count), w) in acc.combos {
                add(stats.combo_hits.entry((sym, count, pay)).or_default(), w)?;
                per_line.entry((sym, count)).or_insert_with(|| vec![0; max_lines])[l] += w;
            }
        } else {
            cross[l][m] = acc.by_c;
        }
    }
    stats.combo_line_max = per_line.into_iter().map(|(k, v)| (k, v.into_iter().max().unwrap_or(0))).collect();
    let dist = scatter_distribution(strips, rows, scatter);
    for &lines_played in configs {
        let mut by_c = vec![Moments::default(); max_c];
        let mut line_sum = 0u128;
        for (c, mo) in by_c.iter_mut().enumerate() {
            let weight = dist.get(c).copied().unwrap_or(0);
            if weight == 0 {
                continue;
            }
            let scatter_win = u128::from(scatter_pays.get(c).copied().unwrap_or(0)) * lines_played as u128;
            let mut sum = 0u128;
            let mut sq = 0u128;
            for l in 0..lines_played {
                add(&mut sum, s1[l][c])?;
                add(&mut sq, s2[l][c])?;
                for row in cross[l].iter().take(lines_played).skip(l + 1) {
                    add(&mut sq, mul(2, row[c])?)?;
                }
            }
            add(&mut line_sum, sum)?;
            // (lines + scatter)² = lines² + 2·scatter·lines + scatter².
            let mut sum_sq = sq;
            add(&mut sum_sq, mul(mul(2, scatter_win)?, sum)?)?;
            add(&mut sum_sq, mul(weight, mul(scatter_win, scatter_win)?)?)?;
            let mut total = sum;
            add(&mut total, mul(weight, scatter_win)?)?;
            *mo = Moments { weight, sum: total, sum_sq };
        }
        stats.by_scatters.push(by_c);
        stats.line_sum.push(line_sum);
    }
    Ok(stats)
}

/// What one worker hands back: per job (line l, line m), its sums.
type Part = Vec<(usize, usize, Acc)>;

/// What every worker shares.
struct Walker<'a> {
    tables: &'a Tables<'a>,
    auto: &'a Automaton,
    /// Each played line's row per reel.
    lines: &'a [Vec<usize>],
    /// Scatter counts 0..max_c.
    max_c: usize,
}

impl Walker<'_> {
    /// One worker's share of the walks: every `threads`-th job from `t`;
    /// None when the work's deadline passed.
    fn share(&self, jobs: &[(usize, usize)], t: usize, threads: usize, work: &Work) -> Result<Option<Part>, MathError> {
        let n = self.tables.rule.n;
        let mut out = Vec::new();
        for &(l, m) in jobs.iter().skip(t).step_by(threads) {
            if work.over() {
                return Ok(None);
            }
            work.step();
            let mut acc = Acc { by_c: vec![0; self.max_c], sq_by_c: vec![0; self.max_c], combos: BTreeMap::new() };
            let (la, lb) = (&self.lines[l], &self.lines[m]);
            let pair: Vec<Classes> = (0..n).map(|i| self.tables.pair(i, la[i], lb[i])).collect();
            self.tables.walk(self.auto, &pair, (la, lb), l == m, &mut acc)?;
            out.push((l, m, acc));
        }
        Ok(Some(out))
    }
}
