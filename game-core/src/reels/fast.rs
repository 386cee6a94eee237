//! The simulation's evaluator (`paytable simulate`, the tests'
//! statistical checks): whole rounds by the same rules and the same draws
//! in the same order as [`ReelGame::play`], without allocating.

use meters::GameRng;

use super::{MAX_REELS, ReelGame, StopTables, Strip, SymbolId};

/// A fast, allocation-free evaluator of whole rounds for simulation: the
/// same rules, the same draws in the same order as [`ReelGame::play`], with
/// the strips' windows laid out flat.
pub struct FastReels<'a> {
    game: &'a ReelGame,
    tables: &'a StopTables,
    wild: Option<SymbolId>,
    wild_mult: u64,
    /// Each payline's rows, as fixed arrays.
    lines: Vec<[u8; MAX_REELS]>,
    /// One-symbol line pays (`pays[symbol][1]`).
    pay1: Vec<u64>,
    /// Each reel's rows.
    reel_rows: [usize; MAX_REELS],
    /// The sticky wild (issue 50): an expanding one, so a reel showing it
    /// shows it in its first cell.
    sticky: Option<SymbolId>,
    /// The window's cells (the hold-and-spin's).
    cells: usize,
    /// The wilds, for a cascade's ways.
    wilds: super::WildTable,
    base: Layout,
    free: Layout,
}

struct Layout {
    /// `windows[reel][stop * rows + row]`.
    windows: Vec<Vec<SymbolId>>,
    /// Scatters (or a hold-and-spin's bonus symbols) in each reel's
    /// window at each stop.
    scatters: Vec<Vec<u8>>,
    /// For every stop combination of the first three reels, the lines that
    /// may pay: `candidates[(a·len1 + b)·len2 + c]`. A line left out pays
    /// nothing whatever the later reels show (its run is broken, and the
    /// broken run pays nothing). `None` when the table would be too large
    /// or the game has more than 64 lines.
    candidates: Option<Vec<u64>>,
}

/// The largest candidate table built (entries).
const MAX_CANDIDATE_TABLE: usize = 1 << 22;

impl Layout {
    fn new(game: &ReelGame, strips: &[Strip]) -> Self {
        let rows = game.rows as usize;
        let scatter = game.counted_symbol();
        let windows: Vec<Vec<SymbolId>> =
            strips.iter().enumerate().map(|(reel, s)| (0..s.len()).flat_map(|stop| game.reel_window(reel, s, stop)).collect()).collect();
        let scatters = windows
            .iter()
            .enumerate()
            .map(|(reel, w)| w.chunks(game.rows_of(reel).max(1)).map(|c| c.iter().filter(|&&x| Some(x) == scatter).count() as u8).collect())
            .collect();
        let entries = strips.iter().take(3).map(Strip::len).product::<usize>();
        let candidates = (game.lines.len() <= 64 && strips.len() > 3 && entries <= MAX_CANDIDATE_TABLE).then(|| {
            let (l0, l1, l2) = (strips[0].len(), strips[1].len(), strips[2].len());
            let mut table = vec![0u64; entries];
            for a in 0..l0 {
                for b in 0..l1 {
                    for c in 0..l2 {
                        let mut mask = 0u64;
                        for (i, line) in game.lines.iter().enumerate() {
                            let s = [windows[0][a * rows + line[0] as usize], windows[1][b * rows + line[1] as usize], windows[2][c * rows + line[2] as usize]];
                            if game.may_pay_after(&s) {
                                mask |= 1 << i;
                            }
                        }
                        table[(a * l1 + b) * l2 + c] = mask;
                    }
                }
            }
            table
        });
        Self { windows, scatters, candidates }
    }
}

impl<'a> FastReels<'a> {
    pub fn new(game: &'a ReelGame, tables: &'a StopTables) -> Self {
        let (wild, wild_mult) = match game.wild() {
            Some((w, m)) => (Some(w), m),
            None => (None, 1),
        };
        let lines = game
            .lines
            .iter()
            .map(|l| {
                let mut a = [0u8; MAX_REELS];
                a[..l.len()].copy_from_slice(l);
                a
            })
            .collect();
        Self {
            game,
            tables,
            wild,
            wild_mult,
            lines,
            pay1: game.pays.iter().map(|p| p.get(1).copied().unwrap_or(0)).collect(),
            reel_rows: std::array::from_fn(|r| game.rows_of(r)),
            sticky: game.sticky_wild(),
            cells: (0..game.reels.len()).map(|r| game.rows_of(r)).sum(),
            wilds: game.wild_table(),
            base: Layout::new(game, game.strips(false)),
            free: Layout::new(game, game.strips(true)),
        }
    }

    /// One spin's line + scatter win per credit per line (before the free
    /// multiplier), the free games it awards and the symbols counted
    /// ([`ReelGame::counted_symbol`]); `held`, the reels a sticky wild
    /// holds filled (issue 50), updated for the next free game.
    #[inline]
    fn spin(&self, rng: &mut impl GameRng, lines: usize, free: bool, held: &mut u8) -> (u64, u32, u8) {
        let g = self.game;
        let layout = if free { &self.free } else { &self.base };
        let tables = if free { &self.tables.free } else { &self.tables.base };
        let rows = g.rows as usize;
        let n = g.reels.len();
        let mut stops = [0usize; MAX_REELS];
        let mut scatters = 0u8;
        let was = *held;
        for r in 0..n {
            let s = rng.pick(&tables[r]);
            // Each reel's window starts at its stop times its own rows.
            stops[r] = s * self.reel_rows[r];
            if was >> r & 1 == 0 {
                scatters += layout.scatters[r][s];
            }
        }
        let mut syms = [0 as SymbolId; MAX_REELS];
        let mut win = 0u64;
        if g.ways && g.cascade.is_some() {
            // Issue 50: a cascade game's spin through the one rule of
            // `cascade` (no new draws: it follows from the stops).
            let stops: [u32; MAX_REELS] = std::array::from_fn(|r| if r < n { (stops[r] / self.reel_rows[r].max(1)) as u32 } else { 0 });
            g.fall(g.strips(free), &stops[..n], &self.wilds, |w| win += w.pays.iter().map(|p| p.3).sum::<u64>() * w.multiplier);
            return self.scatter_part(win, scatters, lines, free);
        }
        if g.ways {
            match self.sticky.filter(|_| free) {
                // A filled reel shows the sticky wild on its every cell.
                Some(w) => {
                    win = g.way_pay_total(|r, row| if was >> r & 1 == 1 { w } else { layout.windows[r][stops[r] + row] });
                    for (r, (window, &at)) in layout.windows.iter().zip(&stops).enumerate().take(n) {
                        if window[at] == w {
                            *held |= 1 << r;
                        }
                    }
                }
                None => win = g.way_pay_total(|r, row| layout.windows[r][stops[r] + row]),
            }
            return self.scatter_part(win, scatters, lines, free);
        }
        if let Some(table) = &layout.candidates {
            let (l1, l2) = (layout.scatters[1].len(), layout.scatters[2].len());
            let key = ((stops[0] / rows) * l1 + stops[1] / rows) * l2 + stops[2] / rows;
            let played = if lines >= 64 { u64::MAX } else { (1u64 << lines) - 1 };
            let mut mask = table[key] & played;
            while mask != 0 {
                let i = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let line = &self.lines[i];
                for r in 0..n {
                    syms[r] = layout.windows[r][stops[r] + line[r] as usize];
                }
                if let Some(p) = g.line_pay_with(&syms[..n], self.wild, self.wild_mult) {
                    win += p.pay;
                }
            }
            return self.scatter_part(win, scatters, lines, free);
        }
        let w = self.wild.unwrap_or(SymbolId::MAX);
        let (w0, w1) = (&layout.windows[0][stops[0]..], &layout.windows[1][stops[1]..]);
        for line in &self.lines[..lines] {
            let s0 = w0[line[0] as usize];
            let s1 = w1[line[1] as usize];
            // The run stops at the first reel: only a one-symbol pay is
            // possible (the same answer `line_pay` gives, without the walk).
            if s0 != w && s1 != s0 && s1 != w {
                win += self.pay1[s0 as usize];
                continue;
            }
            syms[0] = s0;
            syms[1] = s1;
            for r in 2..n {
                syms[r] = layout.windows[r][stops[r] + line[r] as usize];
            }
            if let Some(p) = g.line_pay_with(&syms[..n], self.wild, self.wild_mult) {
                win += p.pay;
            }
        }
        self.scatter_part(win, scatters, lines, free)
    }

    /// Add the scatter pay and the free games awarded.
    #[inline]
    fn scatter_part(&self, mut win: u64, scatters: u8, lines: usize, free: bool) -> (u64, u32, u8) {
        let g = self.game;
        let mut awarded = 0;
        if let Some(sc) = &g.scatter {
            win += sc.pays.get(scatters as usize).copied().unwrap_or(0) * lines as u64;
            if let Some(f) = &sc.free_games
                && (!free || f.retrigger)
            {
                awarded = f.awards.get(scatters as usize).copied().unwrap_or(0);
            }
        }
        (win, awarded, scatters)
    }

    /// One whole round's win, in credits per credit per line.
    #[inline]
    pub fn round(&self, rng: &mut impl GameRng, lines: usize) -> u64 {
        let mut held = 0;
        let (mut win, mut owed, counted) = self.spin(rng, lines, false, &mut held);
        if owed > 0 {
            let mult = self.game.free_games().map_or(1, |f| f.multiplier);
            while owed > 0 {
                owed -= 1;
                let (w, a, _) = self.spin(rng, lines, true, &mut held);
                win += w * mult;
                owed += a;
            }
        }
        // Issue 50: the hold-and-spin feature, from the counts alone.
        if let (Some(rule), Some(t)) = (&self.game.hold_and_spin, &self.tables.hold)
            && counted >= rule.trigger
        {
            win += super::hold::pay_from_counts(rule, t, rng, self.cells, usize::from(counted));
        }
        win
    }
}
