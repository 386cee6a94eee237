//! `paytable check` and `paytable simulate` for draw poker: the exact
//! optimal-strategy figures of every coin count, judged against the floor
//! (M-17), 100% (B-12), the odds-disclosure rule, and M-13 (an entry no
//! hand is ever paid as is refused).

use game_core::draw_poker::DrawPokerGame;
use meters::StreamRng;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use serde::Serialize;

use crate::check::{Floor, f, odds_limit, pct};
use crate::draw_math::{DrawFigures, DrawTables, analyse_with};
use crate::reel_math::decimal;
use crate::simulate::{SimResult, across_threads};

#[derive(Clone, Debug, Serialize)]
pub struct DrawConfigReport {
    pub coins: u32,
    pub rtp_exact: String,
    pub rtp_percent: String,
    /// Seven decimals of the return, as published analyses print it.
    pub rtp_decimal: String,
    pub hit_frequency_percent: String,
    pub standard_deviation: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct MultiHandReport {
    pub hands: u32,
    pub rtp_percent: String,
    pub standard_deviation: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct DrawEntryReport {
    pub hand: String,
    pub pays_per_coin: u64,
    pub max_coin_pays_per_coin: u64,
    /// Probability of ending a round on this hand at the most coins.
    pub probability: f64,
    pub one_in: f64,
    pub rtp_contribution_percent: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct DrawReport {
    pub game: String,
    pub name: String,
    pub deals: u64,
    pub suit_classes: usize,
    /// Whether the order the cards are shown in counts (a sequential
    /// royal): each deal is then solved in its 120 orders where it matters.
    pub card_order: bool,
    pub floor_percent: String,
    pub configs: Vec<DrawConfigReport>,
    /// Multi-hand play at the most coins: the same RTP for every hand
    /// count, and the standard deviation of a round in total bets.
    pub multi_hand: Vec<MultiHandReport>,
    pub hands: Vec<DrawEntryReport>,
    pub seconds: f64,
}

#[derive(Debug, thiserror::Error)]
pub enum DrawRefusal {
    #[error("{game} at {coins} coin(s) returns {rtp}% under optimal play, under the floor of {floor}% (M-17)")]
    UnderFloor { game: String, coins: u32, rtp: String, floor: String },
    #[error("{game} at {coins} coin(s) returns {rtp}%, over 100% (certification.md B-12)")]
    Over100 { game: String, coins: u32, rtp: String },
    #[error("{game}: {hand:?} is never paid: every hand that makes it is paid as a hand listed above it (M-13)")]
    NeverPaid { game: String, hand: String },
    #[error("{game}: {hand:?} comes 1 in {one_in:.0} rounds, rarer than 1 in 100,000,000, and the paytable has no odds_disclosure (GLI-11 §4.8.2)")]
    TooRare { game: String, hand: String, one_in: f64 },
}

pub struct DrawChecked {
    pub report: DrawReport,
    pub figures: DrawFigures,
    pub refusals: Vec<DrawRefusal>,
}

pub fn check(game: &DrawPokerGame, floor: &Floor, odds_disclosure: Option<&str>, threads: usize) -> DrawChecked {
    let started = std::time::Instant::now();
    let tables = DrawTables::build(game, threads);
    let figures = analyse_with(game, &tables, threads);
    let seconds = started.elapsed().as_secs_f64();
    let mut refusals = Vec::new();
    let one = BigRational::from_integer(BigInt::from(1));
    for c in &figures.configs {
        if c.rtp < *floor.value() {
            refusals.push(DrawRefusal::UnderFloor { game: game.id.clone(), coins: c.coins, rtp: pct(&c.rtp), floor: pct(floor.value()) });
        }
        if c.rtp > one {
            refusals.push(DrawRefusal::Over100 { game: game.id.clone(), coins: c.coins, rtp: pct(&c.rtp) });
        }
    }
    let mut hands = Vec::new();
    if let Some(top) = figures.configs.last() {
        for (i, e) in game.entries.iter().enumerate() {
            let p = &top.entry_probability[i];
            if p.is_zero() && !tables_can_pay(&tables, i) {
                refusals.push(DrawRefusal::NeverPaid { game: game.id.clone(), hand: e.name.clone() });
            } else if !p.is_zero() && *p < odds_limit() && odds_disclosure.is_none() {
                refusals.push(DrawRefusal::TooRare { game: game.id.clone(), hand: e.name.clone(), one_in: 1.0 / f(p) });
            }
            let pays = BigRational::from_integer(BigInt::from(top.pays[i]));
            hands.push(DrawEntryReport {
                hand: e.name.clone(),
                pays_per_coin: e.pays,
                max_coin_pays_per_coin: top.pays[i],
                probability: f(p),
                one_in: 1.0 / f(p),
                rtp_contribution_percent: pct(&(p * &pays)),
            });
        }
    }
    let report = DrawReport {
        game: game.id.clone(),
        name: game.name.clone(),
        deals: figures.deals,
        suit_classes: figures.suit_classes,
        card_order: game.entries.iter().any(|e| matches!(e.pattern, game_core::draw_poker::Pattern::SequentialRoyalFlush { .. })),
        floor_percent: pct(floor.value()),
        configs: figures
            .configs
            .iter()
            .map(|c| DrawConfigReport {
                coins: c.coins,
                rtp_exact: format!("{}/{}", c.rtp.numer(), c.rtp.denom()),
                rtp_percent: pct(&c.rtp),
                rtp_decimal: decimal(&c.rtp, 7),
                hit_frequency_percent: pct(&c.hit_frequency),
                standard_deviation: c.standard_deviation(),
            })
            .collect(),
        multi_hand: match figures.configs.last() {
            Some(top) if game.hands != [1] => game
                .hands
                .iter()
                .map(|&h| MultiHandReport { hands: h, rtp_percent: pct(&top.rtp), standard_deviation: top.standard_deviation_hands(h) })
                .collect(),
            _ => Vec::new(),
        },
        hands,
        seconds,
    };
    DrawChecked { report, figures, refusals }
}

/// Whether any dealt hand at all is paid as entry `i` (an entry with no
/// such hand is shadowed by those above it).
fn tables_can_pay(tables: &DrawTables, i: usize) -> bool {
    tables.hands_paid_as(i) > 0
}

impl std::fmt::Display for DrawReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} ({}) — optimal strategy over all {} deals ({} suit classes){} × 32 holds, floor {}%",
            self.name,
            self.game,
            self.deals,
            self.suit_classes,
            if self.card_order { " in each of their 120 orders where order can change the hold" } else { "" },
            self.floor_percent
        )?;
        writeln!(f, "{:>6} {:>10} {:>11} {:>10} {:>8}", "coins", "RTP %", "return", "hit %", "SD")?;
        for c in &self.configs {
            writeln!(f, "{:>6} {:>10} {:>11} {:>10} {:>8.4}", c.coins, c.rtp_percent, c.rtp_decimal, c.hit_frequency_percent, c.standard_deviation)?;
        }
        for m in &self.multi_hand {
            writeln!(f, "{:>3} hands from one deal: RTP {}% (as one hand), SD {:.4} total bets", m.hands, m.rtp_percent, m.standard_deviation)?;
        }
        writeln!(f, "{:<28} {:>6} {:>8} {:>14} {:>12} {:>10}", "final hand (most coins)", "pays", "max-coin", "probability", "1 in", "RTP %")?;
        for h in &self.hands {
            writeln!(
                f,
                "{:<28} {:>6} {:>8} {:>14.10} {:>12.1} {:>10}",
                h.hand, h.pays_per_coin, h.max_coin_pays_per_coin, h.probability, h.one_in, h.rtp_contribution_percent
            )?;
        }
        writeln!(f, "exact analysis: {:.3} s", self.seconds)
    }
}

/// Play `games` rounds with the optimal hold at `coins` coins, on
/// `threads` threads from `seed`: dealt by game-core, held by the tables.
pub fn simulate(game: &DrawPokerGame, tables: &DrawTables, coins: u32, games: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> SimResult {
    let pays: Vec<u64> = (0..game.entries.len()).map(|e| game.pays_per_coin(e, coins)).collect();
    let parts = across_threads(games, threads, |t, n| {
        let mut rng = StreamRng::from_seed(seed ^ (t.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
        let mut r = SimResult { games: n, lines: 1, total_win: 0, sum_sq: 0, hits: 0 };
        for i in 0..n {
            let dealt = game.deal(&mut rng);
            let hold = tables.best_hold(&dealt.hand(), &pays);
            let w = game.evaluate(&dealt.draw(hold)).map_or(0, |e| pays[e]);
            r.total_win += u128::from(w);
            r.sum_sq += u128::from(w) * u128::from(w);
            r.hits += u64::from(w > 0);
            if i % 65_536 == 65_535 {
                progress(65_536);
            }
        }
        r
    });
    let mut total = SimResult { games: 0, lines: 1, total_win: 0, sum_sq: 0, hits: 0 };
    for p in &parts {
        total.merge(p);
    }
    total
}
