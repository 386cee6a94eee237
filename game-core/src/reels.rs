//! Reel slots (M-1, M-5, M-13, M-14; decisions.md "Games: Reels").
//!
//! A round is a pure function of the RNG draws: the stops of every reel are
//! drawn (uniformly, or by the strip's integer weights), the window is read
//! off the strips, and the wins follow:
//! * line wins, left to right from the first reel, the highest win per line
//!   (M-13) and every line's win summed (M-14); a wild substitutes for every
//!   regular symbol, with an optional multiplier when it takes part, and
//!   pays on its own when a run of wilds pays more;
//! * scatter pays on the total bet, wherever the scatters stand, added to
//!   the line wins;
//! * free games when enough scatters show, played on their own strips if
//!   the paytable gives them, with a win multiplier, and retriggered by
//!   scatters during free games.
//!
//! All free games of a round are drawn when the round is drawn, so the
//! whole outcome is committed before any reel moves.

use meters::{GameRng, WeightTable};
use serde::{Deserialize, Serialize};

pub use crate::double_up::DoubleUpRule;

pub mod cascade;
mod fast;
pub mod hold;
pub mod ways;
pub use cascade::{Cascade, CascadeRule};
pub use fast::FastReels;
pub use hold::{CashValue, HoldAndSpin, HoldAndSpinRule, Jackpots};
pub use ways::{WayWin, WildTable};

/// Index of a symbol in [`ReelGame::symbols`].
pub type SymbolId = u8;

/// The most reels a game may have.
pub const MAX_REELS: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SymbolKind {
    Regular,
    /// Substitutes for every regular symbol; a win it takes part in is
    /// multiplied by `multiplier` (1 for none).
    Wild {
        multiplier: u64,
        /// An expanding wild (issue 50, ways games): when it shows on a
        /// reel, it fills that reel's every row.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        expanding: bool,
        /// The regular symbols it stands for (issue 50, ways games with
        /// several wilds); every regular symbol when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        substitutes: Option<Vec<SymbolId>>,
        /// A sticky wild (issue 50, an expanding wild of a ways game):
        /// the reel it fills during free games stays filled, held, for
        /// the rest of them.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        sticky: bool,
    },
    /// Pays anywhere in the window, on the total bet.
    Scatter,
    /// The hold-and-spin feature's symbol (issue 50, [`hold`]): pays
    /// nothing by itself; enough of them start the feature.
    Bonus,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Symbol {
    pub id: String,
    pub name: String,
    pub kind: SymbolKind,
}

/// A reel strip: the symbol at each stop and, optionally, each stop's weight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strip {
    pub symbols: Vec<SymbolId>,
    pub weights: Option<Vec<u64>>,
}

impl Strip {
    #[inline]
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// The weight of stop `i` (1 on an unweighted strip).
    #[inline]
    pub fn weight(&self, i: usize) -> u64 {
        self.weights.as_ref().map_or(1, |w| w[i])
    }

    /// The sum of the stop weights: the strip's share of the game cycle.
    pub fn total_weight(&self) -> u64 {
        self.weights.as_ref().map_or(self.symbols.len() as u64, |w| w.iter().sum())
    }

    /// The symbol at `row` of the window when the reel stops at `stop`.
    #[inline]
    pub fn at(&self, stop: usize, row: usize) -> SymbolId {
        self.symbols[(stop + row) % self.symbols.len()]
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FreeGamesRule {
    /// Free games awarded by scatter count (index = count).
    pub awards: Vec<u32>,
    /// Multiplier of every free-game win.
    pub multiplier: u64,
    /// Whether scatters during free games award more free games.
    pub retrigger: bool,
    /// Strips for free games; the base strips when absent.
    pub reels: Option<Vec<Strip>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScatterRule {
    pub symbol: SymbolId,
    /// Pay by scatter count (index = count), times the total bet.
    pub pays: Vec<u64>,
    pub free_games: Option<FreeGamesRule>,
}

/// The bets a player may choose: lines played × credits per line (M-31 b).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BetRules {
    pub lines: Vec<u32>,
    pub credits_per_line: Vec<u64>,
}

/// A reel game as the paytable compiler produces it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReelGame {
    pub id: String,
    pub name: String,
    pub symbols: Vec<Symbol>,
    /// The window's height: the tallest reel's rows.
    pub rows: u8,
    /// Each reel's rows when they differ (issue 50: 3-4-5-4-3 ways
    /// games); empty when every reel shows `rows`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reel_rows: Vec<u8>,
    pub reels: Vec<Strip>,
    /// Each payline: the row it crosses on each reel.
    pub lines: Vec<Vec<u8>>,
    /// Line pays by symbol and run length: `pays[symbol][count]`, in credits
    /// per credit bet on the line.
    pub pays: Vec<Vec<u64>>,
    pub scatter: Option<ScatterRule>,
    pub bet: BetRules,
    pub double_up: Option<DoubleUpRule>,
    /// Whether a line of wilds alone (the wild run) is multiplied by the
    /// wild's multiplier; by default it pays its own pay as written (the
    /// paytable's `line_rules.wild_only_multiplied`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wild_only_multiplied: bool,
    /// Ways pays in place of lines (issue 50, [`ways`]): `lines` is then
    /// empty and `bet.lines` holds the ways bet's cost in credits per unit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ways: bool,
    /// How the multipliers of several wilds in one way combine (issue
    /// 50): multiplied (the default) or added.
    #[serde(default, skip_serializing_if = "WildMultipliers::is_multiply")]
    pub wild_multipliers: WildMultipliers,
    /// The game this paytable is an RTP variant of (issue 50): its own
    /// strips or weights, proven and approved on its own; the operator
    /// chooses which variant of the game a cabinet offers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_of: Option<String>,
    /// The hold-and-spin feature (issue 50, [`hold`]; ways games without
    /// a scatter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold_and_spin: Option<Box<HoldAndSpinRule>>,
    /// Cascades (issue 50, [`cascade`]; ways games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cascade: Option<CascadeRule>,
}

/// How the multipliers of the wilds in one way combine (issue 50).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WildMultipliers {
    /// ×2 and ×3 in one way: ×6.
    #[default]
    Multiply,
    /// ×2 and ×3 in one way: ×5; a way without a wild: ×1.
    Add,
}

impl WildMultipliers {
    pub fn is_multiply(&self) -> bool {
        *self == WildMultipliers::Multiply
    }
}

/// What one line pays: the winning symbol, how many in a row, whether a
/// wild took part, and the pay per credit bet on the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinePay {
    pub symbol: SymbolId,
    pub count: u8,
    pub wild: bool,
    pub pay: u64,
}

/// A chosen bet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bet {
    pub lines: u32,
    pub credits_per_line: u64,
}

impl Bet {
    pub fn total_credits(&self) -> u64 {
        u64::from(self.lines) * self.credits_per_line
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BetError {
    #[error("{0} lines is not a bet this game offers")]
    Lines(u32),
    #[error("{0} credits per line is not a bet this game offers")]
    CreditsPerLine(u64),
}

/// A line win in a spin, in credits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineWin {
    /// 0-based payline index.
    pub line: u32,
    pub symbol: SymbolId,
    pub count: u8,
    pub wild: bool,
    pub win: u64,
}

/// One spin: where the reels stopped and what it paid, in credits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spin {
    pub free: bool,
    pub stops: Vec<u32>,
    pub line_wins: Vec<LineWin>,
    /// A ways game's wins ([`ways`]), in place of line wins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub way_wins: Vec<WayWin>,
    pub scatter_count: u8,
    pub scatter_win: u64,
    pub free_games_awarded: u32,
    /// The reels a sticky wild held filled as this free game began (issue
    /// 50), a bit per reel: they do not spin.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub held: u8,
    /// The cascades that followed the spin's window (issue 50).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cascades: Vec<Cascade>,
    /// Line and scatter wins, with the free-game multiplier applied.
    pub win: u64,
}

fn is_zero(x: &u8) -> bool {
    *x == 0
}

/// A whole round: the base spin and every free game it led to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReelRound {
    pub bet: Bet,
    pub base: Spin,
    pub free_spins: Vec<Spin>,
    /// The hold-and-spin feature the base spin started (issue 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold: Option<HoldAndSpin>,
    /// Total win of the round, in credits.
    pub win: u64,
}

impl ReelGame {
    pub fn reel_count(&self) -> usize {
        self.reels.len()
    }

    /// The multiplier wild `w` applies when it stands for `x`, or `None`
    /// when `w` is not a wild that substitutes `x`.
    #[inline]
    pub fn substitute(&self, w: SymbolId, x: SymbolId) -> Option<u64> {
        match &self.symbols.get(usize::from(w))?.kind {
            SymbolKind::Wild { multiplier, substitutes, .. } if substitutes.as_ref().is_none_or(|list| list.contains(&x)) => Some(*multiplier),
            _ => None,
        }
    }

    /// The first wild symbol and its multiplier, if the game has one (a
    /// payline game has at most one).
    pub fn wild(&self) -> Option<(SymbolId, u64)> {
        self.symbols.iter().enumerate().find_map(|(i, s)| match s.kind {
            SymbolKind::Wild { multiplier, .. } => Some((i as SymbolId, multiplier)),
            _ => None,
        })
    }

    /// The expanding wild, if the game's wild expands.
    pub fn expanding_wild(&self) -> Option<SymbolId> {
        self.symbols.iter().position(|s| matches!(s.kind, SymbolKind::Wild { expanding: true, .. })).map(|i| i as SymbolId)
    }

    /// The game this paytable is of: the game it is an RTP variant of, or
    /// itself (issue 50). Its art and its name are the game's.
    pub fn family(&self) -> &str {
        self.variant_of.as_deref().unwrap_or(&self.id)
    }

    /// The rows reel `reel` shows.
    #[inline]
    pub fn rows_of(&self, reel: usize) -> usize {
        usize::from(self.reel_rows.get(reel).copied().unwrap_or(self.rows))
    }

    /// The ways of a ways game's window: the product of the reels' rows.
    pub fn ways_count(&self) -> u64 {
        (0..self.reels.len()).map(|r| self.rows_of(r) as u64).product()
    }

    /// What reel `reel` shows when `strip` stops at `stop`, top row first:
    /// its rows, or, when the expanding wild shows, the wild on every row.
    /// The one reading of a reel's window: the round, the simulation and
    /// the paytable tool's mathematics all see the reel through it.
    pub fn reel_window(&self, reel: usize, strip: &Strip, stop: usize) -> Vec<SymbolId> {
        let mut shown: Vec<SymbolId> = (0..self.rows_of(reel)).map(|r| strip.at(stop, r)).collect();
        if let Some(w) = self.expanding_wild()
            && shown.contains(&w)
        {
            shown.fill(w);
        }
        shown
    }

    /// The symbol whose count in the window the game follows: the
    /// scatter, or the hold-and-spin's bonus symbol (a game has at most
    /// one of them).
    pub fn counted_symbol(&self) -> Option<SymbolId> {
        self.scatter.as_ref().map(|s| s.symbol).or(self.hold_and_spin.as_ref().map(|h| h.symbol))
    }

    /// Every cell of the window as (reel, row), reel by reel, top row
    /// first: the hold-and-spin's cells in draw order.
    pub fn cells(&self) -> Vec<(u8, u8)> {
        (0..self.reels.len()).flat_map(|r| (0..self.rows_of(r)).map(move |row| (r as u8, row as u8))).collect()
    }

    /// The strips of a spin: free-game strips when given.
    pub fn strips(&self, free: bool) -> &[Strip] {
        if free && let Some(r) = self.scatter.as_ref().and_then(|s| s.free_games.as_ref()).and_then(|f| f.reels.as_ref()) {
            return r;
        }
        &self.reels
    }

    /// The pay of one line holding `syms` (one symbol per reel), left to
    /// right: the highest of the wild run's own pay and the first regular
    /// symbol's run with wilds substituting (M-13). `None` when it pays nothing.
    #[inline]
    pub fn line_pay(&self, syms: &[SymbolId]) -> Option<LinePay> {
        let (wild, mult) = match self.wild() {
            Some((w, m)) => (Some(w), m),
            None => (None, 1),
        };
        self.line_pay_with(syms, wild, mult)
    }

    /// [`ReelGame::line_pay`] with the wild symbol and its multiplier
    /// already looked up (see [`ReelGame::wild`]): for hot loops.
    #[inline]
    pub fn line_pay_with(&self, syms: &[SymbolId], wild: Option<SymbolId>, mult: u64) -> Option<LinePay> {
        let n = syms.len();
        // A sentinel that matches no symbol when the game has no wild.
        let w = wild.unwrap_or(SymbolId::MAX);
        let mut leading = 0;
        while leading < n && syms[leading] == w {
            leading += 1;
        }
        let mut best: Option<LinePay> = None;
        if leading > 0 {
            let own = self.pays[w as usize][leading];
            let pay = if self.wild_only_multiplied { own * mult } else { own };
            if pay > 0 {
                best = Some(LinePay { symbol: w, count: leading as u8, wild: true, pay });
            }
        }
        if leading < n {
            let x = syms[leading];
            if !matches!(self.symbols[x as usize].kind, SymbolKind::Scatter) {
                let mut run = leading + 1;
                let mut wild_in_run = leading > 0;
                while run < n {
                    let s = syms[run];
                    if s == w {
                        wild_in_run = true;
                    } else if s != x {
                        break;
                    }
                    run += 1;
                }
                let base = self.pays[x as usize][run];
                let pay = if wild_in_run { base * mult } else { base };
                if pay > 0 && best.is_none_or(|b| pay > b.pay) {
                    best = Some(LinePay { symbol: x, count: run as u8, wild: wild_in_run, pay });
                }
            }
        }
        best
    }

    /// Whether a line starting with `first` (the symbols of its first reels)
    /// may pay: true unless its run is already broken and the broken run
    /// pays nothing. Conservative: `true` never loses a win.
    pub fn may_pay_after(&self, first: &[SymbolId]) -> bool {
        let n = self.reels.len();
        if first.len() >= n {
            return self.line_pay(first).is_some();
        }
        let wild = self.wild().map(|(w, _)| w);
        let leading = first.iter().take_while(|&&x| Some(x) == wild).count();
        if leading == first.len() {
            return true;
        }
        let x = first[leading];
        let scatter_first = matches!(self.symbols[x as usize].kind, SymbolKind::Scatter);
        let broken_at =
            if scatter_first { Some(leading) } else { first[leading + 1..].iter().position(|&s| s != x && Some(s) != wild).map(|p| p + leading + 1) };
        match broken_at {
            None => true,
            Some(k) => {
                // Decided: the pay of the prefix, later reels cannot change it.
                let mut full = first[..=k].to_vec();
                full.resize(n, first[k]);
                self.line_pay(&full).is_some()
            }
        }
    }

    /// The symbols of payline `line` when the reels stop at `stops`.
    pub fn line_symbols(&self, stops: &[u32], line: usize, free: bool) -> Vec<SymbolId> {
        let strips = self.strips(free);
        self.lines[line].iter().zip(stops).zip(strips).map(|((&row, &stop), s)| s.at(stop as usize, row as usize)).collect()
    }

    /// The window: `window[reel][row]`.
    pub fn window(&self, stops: &[u32], free: bool) -> Vec<Vec<SymbolId>> {
        self.window_held(stops, free, 0)
    }

    /// The window with the reels of `held` (a bit per reel) filled by the
    /// sticky wild (issue 50).
    pub fn window_held(&self, stops: &[u32], free: bool, held: u8) -> Vec<Vec<SymbolId>> {
        let strips = self.strips(free);
        let sticky = self.sticky_wild();
        stops
            .iter()
            .zip(strips)
            .enumerate()
            .map(|(reel, (&stop, s))| match sticky {
                Some(w) if held >> reel & 1 == 1 => vec![w; self.rows_of(reel)],
                _ => self.reel_window(reel, s, stop as usize),
            })
            .collect()
    }

    /// The sticky wild, if the game has one (issue 50).
    pub fn sticky_wild(&self) -> Option<SymbolId> {
        self.symbols.iter().position(|s| matches!(s.kind, SymbolKind::Wild { sticky: true, .. })).map(|i| i as SymbolId)
    }

    /// The reels held filled after free game `spin`: those held as it
    /// began and those its window showed the sticky wild on (issue 50).
    /// The base game holds nothing.
    pub fn held_after(&self, spin: &Spin) -> u8 {
        let Some(w) = self.sticky_wild().filter(|_| spin.free) else { return 0 };
        self.window_held(&spin.stops, true, spin.held).iter().enumerate().filter(|(_, cells)| cells.contains(&w)).fold(spin.held, |m, (r, _)| m | 1 << r)
    }

    /// Evaluate a spin at `stops` for `bet`, in credits.
    pub fn evaluate(&self, stops: &[u32], bet: Bet, free: bool) -> Spin {
        self.evaluate_held(stops, bet, free, 0)
    }

    /// [`Self::evaluate`] of a free game that began with the reels of
    /// `held` filled by the sticky wild (issue 50).
    pub fn evaluate_held(&self, stops: &[u32], bet: Bet, free: bool, held: u8) -> Spin {
        let mult = if free { self.free_games().map_or(1, |f| f.multiplier) } else { 1 };
        let mut line_wins = Vec::new();
        let mut way_wins = Vec::new();
        let window = self.window_held(stops, free, held);
        let mut cascades = Vec::new();
        if self.ways && self.cascade.is_some() {
            // Issue 50: the window's wins and the cascades after them.
            let (first, more) = self.cascades(self.strips(free), stops, bet.credits_per_line * mult);
            way_wins = first;
            cascades = more;
        } else if self.ways {
            for (symbol, count, ways, pay) in self.way_pays(|r, row| window[r][row]) {
                way_wins.push(WayWin { symbol, count, ways, win: pay * bet.credits_per_line * mult });
            }
        } else {
            for line in 0..bet.lines as usize {
                if let Some(p) = self.line_pay(&self.line_symbols(stops, line, free)) {
                    line_wins.push(LineWin { line: line as u32, symbol: p.symbol, count: p.count, wild: p.wild, win: p.pay * bet.credits_per_line * mult });
                }
            }
        }
        let scatter_count = self.scatter.as_ref().map_or(0, |sc| window.iter().flatten().filter(|&&s| s == sc.symbol).count() as u8);
        let (scatter_win, free_games_awarded) = match &self.scatter {
            None => (0, 0),
            Some(sc) => {
                let pay = sc.pays.get(scatter_count as usize).copied().unwrap_or(0);
                let awarded = match &sc.free_games {
                    Some(f) if !free || f.retrigger => f.awards.get(scatter_count as usize).copied().unwrap_or(0),
                    _ => 0,
                };
                (pay * bet.total_credits() * mult, awarded)
            }
        };
        let win = line_wins.iter().map(|w| w.win).sum::<u64>()
            + way_wins.iter().map(|w| w.win).sum::<u64>()
            + cascades.iter().map(|c| c.win).sum::<u64>()
            + scatter_win;
        Spin { free, stops: stops.to_vec(), line_wins, way_wins, scatter_count, scatter_win, free_games_awarded, held, cascades, win }
    }

    pub fn free_games(&self) -> Option<&FreeGamesRule> {
        self.scatter.as_ref().and_then(|s| s.free_games.as_ref())
    }

    pub fn check_bet(&self, bet: Bet) -> Result<(), BetError> {
        if !self.bet.lines.contains(&bet.lines) {
            return Err(BetError::Lines(bet.lines));
        }
        if !self.bet.credits_per_line.contains(&bet.credits_per_line) {
            return Err(BetError::CreditsPerLine(bet.credits_per_line));
        }
        Ok(())
    }

    /// Draw a round: the base spin and every free game it leads to. The
    /// result is the whole outcome, to be committed before it is shown.
    pub fn play(&self, tables: &StopTables, rng: &mut impl GameRng, bet: Bet) -> Result<ReelRound, BetError> {
        self.check_bet(bet)?;
        let base = self.evaluate(&tables.draw(rng, false), bet, false);
        let mut owed = base.free_games_awarded;
        let mut free_spins = Vec::new();
        // Issue 50: the reels a sticky wild holds, from free game to free game.
        let mut held = 0;
        while owed > 0 {
            owed -= 1;
            let spin = self.evaluate_held(&tables.draw(rng, true), bet, true, held);
            owed += spin.free_games_awarded;
            held = self.held_after(&spin);
            free_spins.push(spin);
        }
        // Issue 50: the hold-and-spin feature, started by the base window.
        let hold = match (&self.hold_and_spin, &tables.hold) {
            (Some(rule), Some(t)) => {
                let window = self.window(&base.stops, false);
                let start: Vec<(u8, u8)> = self.cells().into_iter().filter(|&(r, row)| window[usize::from(r)][usize::from(row)] == rule.symbol).collect();
                (start.len() >= usize::from(rule.trigger)).then(|| hold::play(rule, t, rng, &self.cells(), &start, bet.credits_per_line))
            }
            _ => None,
        };
        let win = base.win + free_spins.iter().map(|s| s.win).sum::<u64>() + hold.as_ref().map_or(0, |h| h.win);
        Ok(ReelRound { bet, base, free_spins, hold, win })
    }
}

/// The weight tables of the strips, built once per game: every stop is
/// drawn through the core's weighted choice.
#[derive(Clone, Debug)]
pub struct StopTables {
    base: Vec<WeightTable>,
    free: Vec<WeightTable>,
    hold: Option<hold::HoldTables>,
}

impl StopTables {
    pub fn new(game: &ReelGame) -> Result<Self, meters::rng::WeightError> {
        let build = |strips: &[Strip]| -> Result<Vec<WeightTable>, meters::rng::WeightError> {
            strips
                .iter()
                .map(|s| match &s.weights {
                    Some(w) => WeightTable::new(w),
                    None => WeightTable::new(&vec![1; s.len()]),
                })
                .collect()
        };
        let hold = game.hold_and_spin.as_deref().map(hold::HoldTables::new).transpose()?;
        Ok(Self { base: build(game.strips(false))?, free: build(game.strips(true))?, hold })
    }

    /// Draw one stop per reel.
    pub fn draw(&self, rng: &mut impl GameRng, free: bool) -> Vec<u32> {
        let t = if free { &self.free } else { &self.base };
        t.iter().map(|w| rng.pick(w) as u32).collect()
    }
}
