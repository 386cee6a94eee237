//! `paytable check`: the exact figures of every bet configuration, and the
//! refusals the rules require (M-17, decisions.md "Return to player",
//! certification.md B-12, B-15).

use game_core::reels::ReelGame;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use serde::Serialize;

use crate::floor::decimal;
pub use crate::floor::{Floor, FloorError};
use crate::reel_math::{MathError, Method, ReelFigures, Work, analyse_with, default_threads};

/// The smallest per-game probability an advertised prize may have without
/// an odds disclosure (GLI-11 §4.8.2).
pub fn odds_limit() -> BigRational {
    BigRational::new(1.into(), BigInt::from(100_000_000u64))
}

#[derive(Clone, Debug, Serialize)]
pub struct ConfigReport {
    pub lines: u32,
    /// Exact RTP as a fraction `numerator/denominator`.
    pub rtp_exact: String,
    pub rtp_percent: String,
    /// The RTP's parts, in percentage points of the bet (issue 73: named
    /// as shares, so that only `rtp_exact` and `rtp_percent` read as the
    /// game's figure): the line wins, the scatter pays, the free games.
    pub share_lines_percent: String,
    pub share_scatter_percent: String,
    pub share_free_games_percent: String,
    /// None when the full cycle was too large to walk (`method`).
    pub hit_frequency_percent: Option<String>,
    pub hit_frequency_one_in: Option<f64>,
    /// Standard deviation of a round's win, in total bets.
    pub standard_deviation: f64,
    pub max_base_win_credits_per_line_credit: Option<u64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PrizeReport {
    pub prize: String,
    pub pays: String,
    /// Probability per game at the largest line count (from symbol counts:
    /// at least this, see `Method::SymbolCounts`).
    pub probability: f64,
    pub one_in: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    pub game: String,
    pub name: String,
    pub cycle: String,
    /// The combinations of the reels' distinct windows a full walk takes
    /// (`reel_math::work_size`); above `walk_limit` the figures come from
    /// symbol counts, without the hit frequency, the largest base win and
    /// the win distribution (issue 36).
    pub walk: String,
    pub walk_limit: String,
    /// How the figures were computed, and so which are exact.
    pub method: Method,
    pub floor_percent: String,
    pub configs: Vec<ConfigReport>,
    pub top_award: Option<PrizeReport>,
    pub prizes: Vec<PrizeReport>,
    pub free_games: Option<FreeGamesReport>,
    /// The hold-and-spin feature (issue 50).
    pub hold_and_spin: Option<HoldReport>,
    pub odds_disclosure: Option<String>,
}

/// A hold-and-spin feature's exact figures, at the largest bet
/// configuration (a ways game has one).
#[derive(Clone, Debug, Serialize)]
pub struct HoldReport {
    pub trigger_one_in: f64,
    pub rtp_percent: String,
    /// Per feature: a full screen (the grand), 1 in this many.
    pub full_screen_one_in: f64,
    /// Per feature: the mean win in total bets.
    pub mean_win_total_bets: f64,
    /// Each part of the feature's RTP: (jackpot level or "credits", %).
    pub rtp_levels: Vec<(String, String)>,
    /// Per feature: P(N = n) for the final count of held cells, in %.
    pub final_counts_percent: Vec<(usize, String)>,
    /// The grand is a progressive's (`grand_progressive`): the RTP counts
    /// it at its fixed value, the least it pays.
    pub grand_progressive: bool,
}

/// What the check and the PAR sheet say of a progressive grand.
pub const PROGRESSIVE_GRAND: &str =
    "the grand is paid by a progressive pool, at least its fixed value: the RTP above counts it at that value; the pool's growth returns more, on top";

#[derive(Clone, Debug, Serialize)]
pub struct FreeGamesReport {
    pub trigger_one_in: f64,
    pub mean_games_per_trigger: f64,
    pub retrigger_rate: f64,
    pub multiplier: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("{game} with {lines} lines returns {rtp}%, under the floor of {floor}% (M-17)")]
    UnderFloor { game: String, lines: u32, rtp: String, floor: String },
    #[error("{game} with {lines} lines returns {rtp}%, over 100% (certification.md B-12)")]
    Over100 { game: String, lines: u32, rtp: String },
    #[error(
        "{game}: the prize {prize} has a probability of {at_most}1 in {one_in:.0} per game, rarer than 1 in 100,000,000, and the paytable has no odds_disclosure (GLI-11 §4.8.2)"
    )]
    TooRare { game: String, prize: String, one_in: f64, at_most: &'static str },
}

/// A rational as a percentage with four decimals (exact rounding).
pub(crate) fn pct(x: &BigRational) -> String {
    decimal(&(x * BigRational::from_integer(100.into())), 4)
}

/// A rational as a float, for display only.
pub(crate) fn f(x: &BigRational) -> f64 {
    x.to_f64().unwrap_or(f64::NAN)
}

/// Every prize the paytable advertises, with its exact probability per game.
fn prizes(game: &ReelGame, fig: &ReelFigures) -> Vec<(String, String, BigRational, u64)> {
    let cycle = BigRational::from_integer(BigInt::from(fig.cycle));
    let mut out = Vec::new();
    for (sym, pays) in game.pays.iter().enumerate() {
        for (count, &pay) in pays.iter().enumerate() {
            if pay == 0 {
                continue;
            }
            let w = fig.combo_any.get(&(sym as u8, count as u8)).copied().unwrap_or(0);
            let p = BigRational::from_integer(BigInt::from(w)) / &cycle;
            out.push((
                format!("{} × {}", count, game.symbols[sym].name),
                format!("{pay} per {}", if game.ways { "way, per credit of the unit" } else { "line credit" }),
                p,
                pay,
            ));
        }
    }
    if let Some(sc) = &game.scatter {
        let name = &game.symbols[sc.symbol as usize].name;
        for (c, &pay) in sc.pays.iter().enumerate() {
            let awards = sc.free_games.as_ref().and_then(|f| f.awards.get(c)).copied().unwrap_or(0);
            if pay == 0 && awards == 0 {
                continue;
            }
            let w = fig.scatter_distribution.get(c).copied().unwrap_or(0);
            let p = BigRational::from_integer(BigInt::from(w)) / &cycle;
            let what = match (pay, awards) {
                (0, a) => format!("{a} free games"),
                (p, 0) => format!("{p} × total bet"),
                (p, a) => format!("{p} × total bet + {a} free games"),
            };
            out.push((format!("{c} × {name} (scatter)"), what, p, 0));
        }
    }
    out
}

/// The figures and the verdict: accepted when `refusals` is empty.
pub struct Checked {
    pub report: CheckReport,
    pub figures: ReelFigures,
    pub refusals: Vec<Refusal>,
}

impl Checked {
    pub fn accepted(&self) -> bool {
        self.refusals.is_empty()
    }
}

/// Compute the exact figures and judge them against the rules.
pub fn check(game: &ReelGame, floor: &Floor, odds_disclosure: Option<&str>) -> Result<Checked, MathError> {
    check_with(game, floor, odds_disclosure, &Work::unlimited())
}

/// [`check`], its analysis counted in `work` and stopped by its deadline.
pub fn check_with(game: &ReelGame, floor: &Floor, odds_disclosure: Option<&str>, work: &Work) -> Result<Checked, MathError> {
    let fig = analyse_with(game, default_threads(), work)?;
    let mut refusals = Vec::new();
    let one = BigRational::from_integer(1.into());
    let mut configs = Vec::new();
    for c in &fig.configs {
        if c.rtp < floor.0 {
            refusals.push(Refusal::UnderFloor { game: game.id.clone(), lines: c.lines, rtp: pct(&c.rtp), floor: pct(&floor.0) });
        }
        if c.rtp > one {
            refusals.push(Refusal::Over100 { game: game.id.clone(), lines: c.lines, rtp: pct(&c.rtp) });
        }
        configs.push(ConfigReport {
            lines: c.lines,
            rtp_exact: format!("{}/{}", c.rtp.numer(), c.rtp.denom()),
            rtp_percent: pct(&c.rtp),
            share_lines_percent: pct(&c.rtp_lines),
            share_scatter_percent: pct(&c.rtp_scatter),
            share_free_games_percent: pct(&c.rtp_free_games),
            hit_frequency_percent: c.hit_frequency.as_ref().map(pct),
            hit_frequency_one_in: c.hit_frequency.as_ref().map(|h| 1.0 / f(h)),
            standard_deviation: c.standard_deviation(),
            max_base_win_credits_per_line_credit: c.max_base_win,
        });
    }
    let all = prizes(game, &fig);
    let limit = odds_limit();
    for (prize, _, p, _) in &all {
        if !p.is_zero() && *p < limit && odds_disclosure.is_none() {
            // From symbol counts the probability is a lower bound: a prize
            // is then refused unless that bound already clears the limit.
            let at_most = if fig.method == Method::SymbolCounts { "at least " } else { "" };
            refusals.push(Refusal::TooRare { game: game.id.clone(), prize: prize.clone(), one_in: 1.0 / f(p), at_most });
        }
    }
    let report_prize = |(prize, pays, p, _): &(String, String, BigRational, u64)| PrizeReport {
        prize: prize.clone(),
        pays: pays.clone(),
        probability: f(p),
        one_in: 1.0 / f(p),
    };
    let top = all.iter().filter(|x| x.3 > 0).max_by_key(|x| x.3).map(report_prize);
    let free_games = fig.free_games.as_ref().map(|fg| FreeGamesReport {
        trigger_one_in: 1.0 / f(&fg.trigger_probability),
        mean_games_per_trigger: f(&fg.mean_games_per_trigger),
        retrigger_rate: f(&fg.retrigger_rate),
        multiplier: game.free_games().map_or(1, |g| g.multiplier),
    });
    let hold_and_spin = fig.hold.as_ref().zip(fig.configs.last()).map(|(h, c)| HoldReport {
        trigger_one_in: 1.0 / f(&h.trigger_probability),
        rtp_percent: pct(&c.rtp_hold),
        full_screen_one_in: 1.0 / f(&h.full_screen),
        mean_win_total_bets: f(&h.mean_win) / f64::from(c.lines),
        rtp_levels: h.rtp_levels.iter().map(|(name, x)| (name.clone(), pct(x))).collect(),
        final_counts_percent: h.final_counts.iter().enumerate().filter(|(_, p)| !p.is_zero()).map(|(n, p)| (n, pct(p))).collect(),
        grand_progressive: game.hold_and_spin.as_ref().is_some_and(|r| r.grand_progressive),
    });
    let report = CheckReport {
        game: game.id.clone(),
        name: game.name.clone(),
        cycle: fig.cycle.to_string(),
        walk: crate::reel_math::work_size(game).0.to_string(),
        walk_limit: crate::reel_math::FULL_CYCLE_LIMIT.to_string(),
        method: fig.method,
        floor_percent: pct(&floor.0),
        configs,
        top_award: top,
        prizes: all.iter().map(report_prize).collect(),
        free_games,
        hold_and_spin,
        odds_disclosure: odds_disclosure.map(str::to_owned),
    };
    Ok(Checked { report, figures: fig, refusals })
}

impl std::fmt::Display for CheckReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{} ({}) — full cycle {} stop combinations, floor {}%", self.name, self.game, self.cycle, self.floor_percent)?;
        if self.method == Method::SymbolCounts {
            writeln!(
                f,
                "exact from symbol counts: RTP and SD exact. The hit frequency, the largest base win and the win distribution need every line of a spin at once, that is a walk over every combination of the reels' distinct windows, {} here, past the limit of {} (a few seconds): they are not given; prize odds are lower bounds (one line)",
                self.walk, self.walk_limit
            )?;
        }
        if self.method == Method::Ways {
            writeln!(
                f,
                "ways pays: RTP, its parts, SD, the hit frequency and each prize's odds exact over the full cycle (generating functions over the reels); the largest base win and the win distribution are not computed; \"lines\" is the ways bet's cost in credits"
            )?;
        }
        if self.method == Method::Cascade {
            writeln!(
                f,
                "cascades: every stop combination walked with its whole cascade (game-core's rule): RTP, its parts, SD, the hit frequency, the largest win and the win distribution exact; \"lines\" is the ways bet's cost in credits"
            )?;
        }
        writeln!(f, "{:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9} {:>10}", "lines", "RTP %", "lines %", "scatter %", "free %", "hit %", "SD", "max base")?;
        for c in &self.configs {
            writeln!(
                f,
                "{:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9.3} {:>10}",
                c.lines,
                c.rtp_percent,
                c.share_lines_percent,
                c.share_scatter_percent,
                c.share_free_games_percent,
                c.hit_frequency_percent.as_deref().unwrap_or("—"),
                c.standard_deviation,
                c.max_base_win_credits_per_line_credit.map_or_else(|| "—".to_owned(), |m| m.to_string())
            )?;
        }
        if let Some(t) = &self.top_award {
            let bound = if self.method == Method::SymbolCounts { "at most " } else { "" };
            writeln!(f, "top award: {} pays {} — {bound}1 in {:.0} games", t.prize, t.pays, t.one_in)?;
        }
        if let Some(fg) = &self.free_games {
            writeln!(
                f,
                "free games: triggered 1 in {:.1} games, {:.3} games per trigger (retriggers {:.5} per game), wins ×{}",
                fg.trigger_one_in, fg.mean_games_per_trigger, fg.retrigger_rate, fg.multiplier
            )?;
        }
        if let Some(h) = &self.hold_and_spin {
            writeln!(
                f,
                "hold-and-spin (exact, a Markov chain): started 1 in {:.1} games, {}% of RTP; per feature a mean win of {:.2} total bets, a full screen 1 in {:.0}",
                h.trigger_one_in, h.rtp_percent, h.mean_win_total_bets, h.full_screen_one_in
            )?;
            writeln!(f, "  RTP by part: {}", h.rtp_levels.iter().map(|(n, x)| format!("{n} {x}%")).collect::<Vec<_>>().join(", "))?;
            if h.grand_progressive {
                writeln!(f, "  {PROGRESSIVE_GRAND}")?;
            }
        }
        Ok(())
    }
}
