//! `egm-progressive approve` weighs what it approves (issue 69): the
//! docs/install.md's approval once made one cherry on reel 1 win the 1,000 c Mini
//! at any bet, about once in 10.6 rounds — an honest player at 1 c took
//! some 9,400 % of the wager from the Mini, and the operator funded every
//! reset.
//!
//! For every game, every bet it offers (lines × credits per line, exact
//! odds from `paytables::trigger_odds`) and every denomination the pool's
//! cabinets offer, with `W` the wager, `P` a level's probability per
//! round (the sum of its triggers'), `R` its reset value, `C` its ceiling
//! (its reset value where it has none), `r` what each unit wagered pays
//! into the levels' reserves, `f` what it pays into the pool in all
//! (increments and reserves), and `b` the operator's stated seed budget:
//!
//! * the resets, `Σ P·R / W` per unit wagered, cost at most `r + b`: a
//!   level's growth above its reset value is its increment, paid by the
//!   wagers that win it, so what an award pays beyond the contributions
//!   is its reset value; the reserves and the budget fund that, and a
//!   certificate that commits rounds without playing them and claims the
//!   hits takes at most the budget's share of the wagers it commits;
//! * the awards at the ceilings, `Σ P·C / W`, are at most `f + b`;
//! * the game's RTP with the progressive lies in [80 %, 100 %]: at least
//!   the floor with the levels at their reset values (`RTP + Σ P·R / W`),
//!   at most 100 % with them at their ceilings, or, without one, at the
//!   steady state where the level's growth is its increment
//!   (`RTP + Σ P·R / W + increment`).
//!
//! Any bet that breaks a rule refuses the whole approval, each breach
//! named with its figure; nothing is approved. The figures, exact
//! fractions with their percentages, are printed and kept with the
//! approval (`egm.record_approval`), with the denominations they were
//! weighed at: the controller refuses a committed round at any other.

use anyhow::{Result, anyhow};
use game_core::reels::ReelGame;
use linked_controller::ApprovedTrigger;
use meters::PoolConfig;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use serde::Serialize;

/// One level's odds at one bet.
#[derive(Clone, Debug, Serialize)]
pub struct LevelOdds {
    pub level: usize,
    pub name: String,
    /// Per round, as an exact fraction.
    pub probability: String,
    /// Exact, or an upper bound (several triggers, or a bound from the
    /// analysis).
    pub exact: bool,
}

/// The figures of one game at one bet and denomination.
#[derive(Clone, Debug, Serialize)]
pub struct BetFigures {
    pub game: String,
    pub lines: u32,
    pub credits_per_line: u64,
    pub denomination: u64,
    /// Cents.
    pub wager: u64,
    pub levels: Vec<LevelOdds>,
    /// Per unit wagered, as percentages (exact fractions in `exact`).
    pub awards_at_reset_percent: f64,
    pub awards_at_ceiling_percent: f64,
    /// What the reserves and the seed budget fund, and the contributions
    /// in all with it.
    pub seeds_funded_percent: f64,
    pub funded_percent: f64,
    pub rtp_percent: f64,
    pub rtp_with_progressive_low_percent: f64,
    pub rtp_with_progressive_high_percent: f64,
    /// The same figures as exact fractions: awards at reset, at ceiling,
    /// seeds funded, funded, the RTP, and with the progressive low and high.
    pub exact: [String; 7],
}

/// What an approval weighed, and what it refuses.
#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    pub pool: String,
    pub denominations: Vec<u64>,
    pub seed_budget_ppm: u64,
    pub bets: Vec<BetFigures>,
    pub refusals: Vec<String>,
}

fn frac(n: u64, d: u64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d.max(1)))
}

fn percent(x: &BigRational) -> f64 {
    x.to_f64().unwrap_or(f64::NAN) * 100.0
}

fn text(x: &BigRational) -> String {
    format!("{}/{}", x.numer(), x.denom())
}

/// Weigh `games` with `triggers` for `pool` at `denominations`, with the
/// operator's seed budget in millionths of each wager.
pub fn weigh(pool: &PoolConfig, games: &[ReelGame], triggers: &[ApprovedTrigger], denominations: &[u64], seed_budget_ppm: u64) -> Result<Figures> {
    if denominations.is_empty() || denominations.contains(&0) {
        return Err(anyhow!("--denominations: the cents each of the pool's cabinets may play at, none of them zero"));
    }
    for t in triggers {
        if t.level >= pool.levels.len() {
            return Err(anyhow!("a trigger names level {}, and pool {} has {} level(s)", t.level, pool.id, pool.levels.len()));
        }
    }
    let floor = paytables::floor::Floor::legal_minimum();
    let contributions: u64 = pool.levels.iter().map(|l| u64::from(l.increment_ppm) + u64::from(l.reserve_ppm)).sum();
    let reserves: u64 = pool.levels.iter().map(|l| u64::from(l.reserve_ppm)).sum();
    let funded = frac(contributions + seed_budget_ppm, 1_000_000);
    let seeds_funded = frac(reserves + seed_budget_ppm, 1_000_000);
    let mut figures = Figures { pool: pool.id.clone(), denominations: denominations.to_vec(), seed_budget_ppm, bets: Vec::new(), refusals: Vec::new() };
    for game in games {
        let analysis = paytables::reel_math::analyse(game).map_err(|e| anyhow!("game {}: {e}", game.id))?;
        // Each level's odds at each bet: the sum of its triggers' (an upper
        // bound where it has several).
        let mut by_level: Vec<Option<Vec<paytables::trigger_odds::BetOdds>>> = vec![None; pool.levels.len()];
        for t in triggers {
            let odds = paytables::trigger_odds::trigger_odds(game, &t.trigger())?;
            by_level[t.level] = Some(match by_level[t.level].take() {
                None => odds,
                Some(mut sum) => {
                    for (s, o) in sum.iter_mut().zip(&odds) {
                        s.probability += &o.probability;
                        s.exact = false;
                    }
                    sum
                }
            });
        }
        for (i, bet) in game.bet.lines.iter().flat_map(|&l| game.bet.credits_per_line.iter().map(move |&c| (l, c))).enumerate() {
            let (lines, credits_per_line) = bet;
            let rtp = analysis
                .configs
                .iter()
                .find(|c| c.lines == lines)
                .map(|c| c.rtp.clone())
                .ok_or_else(|| anyhow!("game {}: no figures at {lines} lines", game.id))?;
            for &denomination in denominations {
                let wager = u64::from(lines).saturating_mul(credits_per_line).saturating_mul(denomination);
                let w = frac(wager, 1);
                let (mut at_reset, mut at_ceiling, mut high) = (BigRational::zero(), BigRational::zero(), BigRational::zero());
                let mut levels = Vec::new();
                for (level, config) in pool.levels.iter().enumerate() {
                    let Some(odds) = by_level[level].as_ref().and_then(|o| o.get(i)) else { continue };
                    let p = &odds.probability;
                    let reset = p * frac(config.reset_value, 1) / &w;
                    let ceiling = p * frac(config.ceiling.unwrap_or(config.reset_value), 1) / &w;
                    high += match config.ceiling {
                        Some(_) => ceiling.clone(),
                        None if p.is_zero() => BigRational::zero(),
                        None => &reset + frac(u64::from(config.increment_ppm), 1_000_000),
                    };
                    at_reset += reset;
                    at_ceiling += ceiling;
                    levels.push(LevelOdds { level, name: config.name.clone(), probability: text(p), exact: odds.exact });
                }
                let low = &rtp + &at_reset;
                let high = &rtp + high;
                let here = format!("game {} at {lines} line(s) × {credits_per_line} credit(s) at {denomination} c (a {wager} c wager)", game.id);
                if at_reset > seeds_funded {
                    figures.refusals.push(format!(
                        "{here}: the levels' resets cost {:.2} % of the wager, and the reserves and the seed budget fund {:.2} %",
                        percent(&at_reset),
                        percent(&seeds_funded)
                    ));
                }
                if at_ceiling > funded && at_ceiling != at_reset {
                    figures.refusals.push(format!(
                        "{here}: the levels' awards at their ceilings are {:.2} % of the wager, and the contributions and the seed budget fund {:.2} %",
                        percent(&at_ceiling),
                        percent(&funded)
                    ));
                }
                if &low < floor.value() {
                    figures
                        .refusals
                        .push(format!("{here}: the RTP with the progressive at its reset values is {:.2} %, under the floor of 80 % (M-17)", percent(&low)));
                }
                if high > frac(1, 1) {
                    figures
                        .refusals
                        .push(format!("{here}: the RTP with the progressive at its ceilings (or its steady growth) is {:.2} %, over 100 %", percent(&high)));
                }
                figures.bets.push(BetFigures {
                    game: game.id.clone(),
                    lines,
                    credits_per_line,
                    denomination,
                    wager,
                    levels,
                    awards_at_reset_percent: percent(&at_reset),
                    awards_at_ceiling_percent: percent(&at_ceiling),
                    seeds_funded_percent: percent(&seeds_funded),
                    funded_percent: percent(&funded),
                    rtp_percent: percent(&rtp),
                    rtp_with_progressive_low_percent: percent(&low),
                    rtp_with_progressive_high_percent: percent(&high),
                    exact: [text(&at_reset), text(&at_ceiling), text(&seeds_funded), text(&funded), text(&rtp), text(&low), text(&high)],
                });
            }
        }
    }
    Ok(figures)
}

/// One line per bet, for the operator.
pub fn print(figures: &Figures) {
    for b in &figures.bets {
        let odds: Vec<String> = b
            .levels
            .iter()
            .map(|l| {
                let p: BigRational = l.probability.parse().unwrap_or_else(|_| BigRational::zero());
                let one_in = if p.is_zero() {
                    "never".to_owned()
                } else {
                    format!("1 in {:.1}", (BigRational::from_integer(BigInt::from(1)) / p).to_f64().unwrap_or(f64::NAN))
                };
                format!("{} {one_in}{}", l.name, if l.exact { "" } else { " (at most)" })
            })
            .collect();
        println!(
            "{} {}×{} at {} c ({} c): {}; resets {:.2} % (reserves and budget {:.2} %), awards at ceilings {:.2} % (funded {:.2} %); RTP {:.2} %, with the progressive {:.2} – {:.2} %",
            b.game,
            b.lines,
            b.credits_per_line,
            b.denomination,
            b.wager,
            odds.join(", "),
            b.awards_at_reset_percent,
            b.seeds_funded_percent,
            b.awards_at_ceiling_percent,
            b.funded_percent,
            b.rtp_percent,
            b.rtp_with_progressive_low_percent,
            b.rtp_with_progressive_high_percent
        );
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn workspace(path: &str) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
    }

    fn sevens() -> (PoolConfig, ReelGame) {
        let pool: PoolConfig = ron::from_str(&std::fs::read_to_string(workspace("assets/progressive/linked-sevens.ron")).unwrap()).unwrap();
        (pool, paytables::load(&workspace("assets/paytables/classic-sevens.ron")).unwrap())
    }

    fn trigger(level: usize, symbol: &str, count: u8, max_bet_only: bool) -> ApprovedTrigger {
        ApprovedTrigger { level, symbol: symbol.into(), count, max_bet_only, hold_and_spin_grand: false }
    }

    /// An independent reference: the cycle walked with game-core's own
    /// `spin_hits` (what the controller judges a claim by) at `bet`.
    fn walked(game: &ReelGame, t: &ApprovedTrigger, credits_per_line: u64) -> BigRational {
        let bet = game_core::reels::Bet { lines: 1, credits_per_line };
        let (mut hits, mut cycle) = (0u128, 0u128);
        each_stop(game, bet, |w, spin| {
            cycle += w;
            if w > 0 && game_core::progressive::spin_hits(game, bet, spin, &t.trigger()) {
                hits += w;
            }
        });
        BigRational::new(BigInt::from(hits), BigInt::from(cycle))
    }

    /// Every stop combination of the three-reel `game` at `bet`: its weight
    /// and its spin.
    fn each_stop(game: &ReelGame, bet: game_core::reels::Bet, mut f: impl FnMut(u128, &game_core::reels::Spin)) {
        let n = |r: usize| game.reels[r].len();
        for a in 0..n(0) {
            for b in 0..n(1) {
                for c in 0..n(2) {
                    let w = u128::from(game.reels[0].weight(a)) * u128::from(game.reels[1].weight(b)) * u128::from(game.reels[2].weight(c));
                    f(w, &game.evaluate(&[a as u32, b as u32, c as u32], bet, false));
                }
            }
        }
    }

    /// docs/install.md's approval until issue 69: one cherry wins the Mini at
    /// any bet. At 1 c the Mini alone takes some 9,400 % of the wager (the
    /// cycle walked: P(cherry) × 1,000 c / 1 c); the approval is refused,
    /// the figure named, at every bet.
    #[test]
    fn the_cherry_mini_at_one_cent_is_refused_with_its_figure() {
        let (pool, game) = sevens();
        let triggers = [trigger(0, "7", 3, true), trigger(1, "CH", 1, false)];
        let f = weigh(&pool, std::slice::from_ref(&game), &triggers, &[1], 0).unwrap();
        let p = walked(&game, &triggers[1], 1);
        let expected = percent(&(p * frac(1_000, 1)));
        assert!((9_400.0..9_500.0).contains(&expected), "{expected}");
        let first = format!(
            "game classic-sevens at 1 line(s) × 1 credit(s) at 1 c (a 1 c wager): the levels' resets cost {expected:.2} % of the wager, and the reserves and the seed budget fund 0.10 %"
        );
        assert_eq!(figures_first(&f), first);
        // Every bet breaks a rule: three bets, each refused.
        for cpl in 1..=3 {
            assert!(f.refusals.iter().any(|r| r.contains(&format!("× {cpl} credit(s) at 1 c"))), "{:#?}", f.refusals);
        }
        assert_eq!(f.bets.len(), 3);
    }

    /// B-17: the RTP an approval weighs is the base game's plus the
    /// progressive's — each level's reset value at its odds (the low
    /// figure, held to the 80 % floor) and, for a level without a ceiling,
    /// its increment on top (the steady state, held to 100 %) — exactly,
    /// against the cycle walked here: the base RTP from every stop
    /// combination's win, each level's odds from `spin_hits`.
    #[test]
    fn the_rtp_weighed_is_the_base_games_plus_the_resets_and_increments() {
        let (pool, game) = sevens();
        let triggers = [trigger(0, "W", 3, true), trigger(1, "7", 3, true)];
        let f = weigh(&pool, std::slice::from_ref(&game), &triggers, &[20], 10_000).unwrap();
        let bet = f.bets.iter().find(|b| b.credits_per_line == 3 && b.lines == 1).unwrap();
        assert_eq!(bet.wager, 60);
        // The base game's RTP, walked: every combination's win over the cycle.
        let played = game_core::reels::Bet { lines: 1, credits_per_line: 3 };
        let (mut won, mut cycle) = (0u128, 0u128);
        each_stop(&game, played, |w, spin| {
            assert_eq!(spin.free_games_awarded, 0, "a base game without features");
            cycle += w;
            won += w * u128::from(spin.win);
        });
        let rtp = BigRational::new(BigInt::from(won), BigInt::from(cycle * 3));
        let (grande, mini) = (walked(&game, &triggers[0], 3), walked(&game, &triggers[1], 3));
        let wager = frac(60, 1);
        let resets = (&grande * frac(100_000, 1) + &mini * frac(1_000, 1)) / &wager;
        // The Grande has no ceiling: its steady state adds its increment
        // (0.5 %); the Mini stops at 5,000 c.
        let high = &rtp + &grande * frac(100_000, 1) / &wager + frac(5_000, 1_000_000) + &mini * frac(5_000, 1) / &wager;
        assert_eq!(bet.exact[4], text(&rtp), "the base RTP");
        assert_eq!(bet.exact[5], text(&(&rtp + &resets)), "the RTP with the levels at their resets");
        assert_eq!(bet.exact[6], text(&high), "the RTP at the ceilings and the Grande's steady growth");
        assert!(frac(80, 100) <= rtp && rtp < &rtp + &resets && &rtp + &resets < high && high < frac(1, 1));
        assert!(f.refusals.is_empty(), "{:#?}", f.refusals);
    }

    fn figures_first(f: &Figures) -> &str {
        f.refusals.first().map_or("", String::as_str)
    }

    /// docs/install.md's approval since issue 69: three wilds win the Grande and
    /// three sevens the Mini, both at the largest bet, at 20 c and up, with
    /// a seed budget of 1 %. It passes there; without the budget the
    /// resets cost more than the reserves fund at 20 c (by the figure the
    /// cycle walked gives); at 5 c even the budget does not cover them.
    #[test]
    fn the_readmes_approval_passes_where_the_wagers_and_the_budget_fund_it_and_not_below() {
        let (pool, game) = sevens();
        let triggers = [trigger(0, "W", 3, true), trigger(1, "7", 3, true)];
        let f = weigh(&pool, std::slice::from_ref(&game), &triggers, &[20, 50, 100, 200], 10_000).unwrap();
        assert!(f.refusals.is_empty(), "{:#?}", f.refusals);
        assert_eq!(f.bets.len(), 12);
        let (grande, mini) = (walked(&game, &triggers[0], 3), walked(&game, &triggers[1], 3));
        let resets = |wager: u64| (grande.clone() * frac(100_000, 1) + mini.clone() * frac(1_000, 1)) / frac(wager, 1);
        let unfunded = weigh(&pool, std::slice::from_ref(&game), &triggers, &[20], 0).unwrap();
        assert_eq!(
            figures_first(&unfunded),
            format!(
                "game classic-sevens at 1 line(s) × 3 credit(s) at 20 c (a 60 c wager): the levels' resets cost {:.2} % of the wager, and the reserves and the seed budget fund 0.10 %",
                percent(&resets(60))
            )
        );
        let at5 = weigh(&pool, std::slice::from_ref(&game), &triggers, &[5], 10_000).unwrap();
        assert_eq!(
            figures_first(&at5),
            format!(
                "game classic-sevens at 1 line(s) × 3 credit(s) at 5 c (a 15 c wager): the levels' resets cost {:.2} % of the wager, and the reserves and the seed budget fund 1.10 %",
                percent(&resets(15))
            )
        );
        // Below the largest bet neither level can be won, and nothing is owed.
        assert!(at5.bets.iter().filter(|b| b.credits_per_line < 3).all(|b| b.awards_at_reset_percent == 0.0));
        // A budget that pays for the resets never pays for an RTP over
        // 100 % with the Mini at its ceiling.
        let funded = weigh(&pool, std::slice::from_ref(&game), &triggers, &[5], 40_000).unwrap();
        assert_eq!(funded.refusals.len(), 1, "{:#?}", funded.refusals);
        assert!(funded.refusals[0].contains("at its ceilings (or its steady growth) is 101.72 %, over 100 %"), "{:#?}", funded.refusals);
    }
}
