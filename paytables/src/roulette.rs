//! Roulette tables: the designer's RON (`RoulettePaytable`), its
//! validation against the text (AR 3–4, AR 20–21, FR 19–20, decisions.md)
//! with errors that name the file and line, and the exact figures of
//! every chance and call bet, each an exact fraction held to the floor
//! (§3 of the digest: n·(P+1)/N).
//!
//! ```ron
//! RoulettePaytable(
//!     id: "roleta-francesa",
//!     name: "Roleta Francesa",
//!     wheel: French,            // French, American37 or American38
//!     minimum: 1,               // credits on a spot (FR 19)
//!     ratio_per_number: 30,     // maximum per number covered, × minimum (≤ 30, AR 21)
//!     chips: [1, 5, 10, 25, 100],
//!     top_line: false,          // 0-00-1-2-3 at 6:1 (American38 only)
//!     call_bets: true,          // French numbering only (AR 20)
//! )
//! ```

use game_core::roulette::{CallBet, Chance, MAX_RATIO_PER_NUMBER, RouletteGame, Spot, Wheel, inside_bets};
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};

use crate::compile::Problems;
use crate::error::{PaytableError, Reporter};
use crate::floor::{Floor, decimal};
use crate::locate::Path;
use crate::poker_compile::{check_name, parse};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoulettePaytable {
    pub id: String,
    pub name: String,
    pub wheel: Wheel,
    pub minimum: u64,
    #[serde(default = "thirty")]
    pub ratio_per_number: u64,
    pub chips: Vec<u64>,
    #[serde(default)]
    pub top_line: bool,
    #[serde(default)]
    pub call_bets: bool,
}

fn thirty() -> u64 {
    MAX_RATIO_PER_NUMBER
}

pub fn compile_roulette(file: &str, src: &str) -> Result<RouletteGame, PaytableError> {
    let p: RoulettePaytable = parse(file, src)?;
    validate(&Reporter { file, src: crate::compile::without_bom(src) }, &p)
}

pub fn validate(r: &Reporter<'_>, p: &RoulettePaytable) -> Result<RouletteGame, PaytableError> {
    let root = Path::default;
    let mut e = Problems::new(r);
    check_name(&mut e, &p.id, &p.name);
    if p.minimum == 0 {
        e.at(root().field("minimum"), "the table minimum must be at least 1 credit (FR 19)");
    }
    if !(1..=MAX_RATIO_PER_NUMBER).contains(&p.ratio_per_number) {
        e.at(
            root().field("ratio_per_number"),
            format!("the maximum per number covered is 1 to 30 times the minimum (AR 21, FR 20), not {}", p.ratio_per_number),
        );
    }
    let mut chips = p.chips.clone();
    chips.sort_unstable();
    chips.dedup();
    if chips.is_empty() {
        e.at(root().field("chips"), "at least one chip value is needed");
    }
    let straight_max = p.minimum.saturating_mul(p.ratio_per_number);
    for (i, &c) in p.chips.iter().enumerate() {
        // A zero minimum is refused by name above (issue 49).
        if p.minimum > 0 && (c < p.minimum || c > straight_max.saturating_mul(24)) {
            e.at(root().field("chips").index(i), format!("a chip of {c} credits is under the minimum ({}) or over the largest bet of the table", p.minimum));
        }
    }
    if p.top_line && p.wheel != Wheel::American38 {
        e.at(root().field("top_line"), "the 0-00-1-2-3 bet needs the 00 of the American 38-pocket wheel");
    }
    if p.call_bets && !p.wheel.call_bets_allowed() {
        e.at(root().field("call_bets"), "call bets are played only on a wheel of French numbering (AR 20, AR 3 a)");
    }
    e.result(|| RouletteGame {
        id: p.id.clone(),
        name: p.name.clone(),
        wheel: p.wheel,
        minimum: p.minimum,
        ratio_per_number: p.ratio_per_number,
        chips,
        top_line: p.top_line,
        call_bets: p.call_bets,
    })
}

/// One bet's exact figures.
#[derive(Clone, Debug)]
pub struct BetFigures {
    /// The bet as the text names it (Portuguese / English).
    pub name: String,
    /// Numbers covered (a call bet: every number any of its chips covers).
    pub covered: u64,
    /// The payout, "P:1"; a call bet: its chips.
    pub pays: String,
    /// Exact RTP, by enumerating every pocket.
    pub rtp: BigRational,
    /// Probability that the bet wins something.
    pub hit: BigRational,
}

/// The whole table's exact figures.
#[derive(Clone, Debug)]
pub struct RouletteFigures {
    pub pockets: u64,
    pub chances: Vec<BetFigures>,
    pub call_bets: Vec<BetFigures>,
}

impl RouletteFigures {
    /// The lowest RTP of any bet: what any mix of bets returns at least.
    pub fn lowest(&self) -> Option<&BetFigures> {
        self.chances.iter().chain(&self.call_bets).min_by(|a, b| a.rtp.cmp(&b.rtp))
    }

    /// The RTP per number of numbers an inside or outside chance covers,
    /// as the artifact carries it (each held to the floor again at load).
    pub fn by_covered(&self) -> Vec<(u64, BigRational)> {
        let mut out: Vec<(u64, BigRational)> = Vec::new();
        for c in &self.chances {
            match out.iter_mut().find(|(n, _)| *n == c.covered) {
                Some((_, r)) if c.rtp < *r => *r = c.rtp.clone(),
                Some(_) => {}
                None => out.push((c.covered, c.rtp.clone())),
            }
        }
        out.sort_by_key(|(n, _)| *n);
        out
    }
}

/// The return of `chips` summed over every pocket, over the stake, and the
/// pockets where it wins: an enumeration of the wheel.
fn enumerate(wheel: Wheel, chips: &[(Spot, u64)]) -> (BigRational, BigRational) {
    let staked: u64 = chips.iter().map(|(_, u)| u).sum();
    let mut returned = 0u64;
    let mut hits = 0u64;
    for &p in wheel.sequence() {
        let r: u64 = chips.iter().map(|(s, u)| s.returned(*u, p)).sum();
        returned += r;
        hits += u64::from(r > 0);
    }
    let n = BigInt::from(wheel.pockets());
    (BigRational::new(BigInt::from(returned), n.clone() * BigInt::from(staked.max(1))), BigRational::new(BigInt::from(hits), n))
}

/// Every chance of the table (one representative spot each; every spot of a
/// chance has the same figures, as the cloth's tests enumerate) and every
/// call bet it offers, by enumerating the wheel with a stake of 2 (the ½:1
/// bets take even stakes).
pub fn figures(game: &RouletteGame) -> RouletteFigures {
    let wheel = game.wheel;
    let mut chances = Vec::new();
    for chance in Chance::ALL {
        let Some(spot) = game.representative_spot(chance) else { continue };
        let (rtp, hit) = enumerate(wheel, &[(spot.clone(), 2)]);
        let (pt, en) = chance.names();
        let (num, den) = chance.payout();
        let pays = if den == 1 { format!("{num}:1") } else { format!("{num}:{den}") };
        chances.push(BetFigures { name: format!("{pt} / {en}"), covered: spot.numbers_covered(), pays, rtp, hit });
    }
    let mut call_bets = Vec::new();
    if game.call_bets && wheel.call_bets_allowed() {
        let mut bets = vec![CallBet::Voisins, CallBet::Tiers, CallBet::Orphelins];
        bets.extend((1..=3).map(|each_side| CallBet::Neighbours { number: 0, each_side }));
        bets.extend([0, 7].map(|digit| CallBet::Finals { digit }));
        for bet in bets {
            let Some(chips) = bet.chips(wheel) else { continue };
            let (rtp, hit) = enumerate(wheel, &chips);
            let covered = wheel.sequence().iter().filter(|&&p| chips.iter().any(|(s, _)| s.covers(p))).count() as u64;
            let units: u64 = chips.iter().map(|(_, u)| u).sum();
            call_bets.push(BetFigures { name: format!("{} / {}", bet.name(true), bet.name(false)), covered, pays: format!("{units} chips"), rtp, hit });
        }
    }
    RouletteFigures { pockets: wheel.pockets(), chances, call_bets }
}

/// Every bet under the floor (M-17) or over 100 % (certification.md
/// B-12), named with its figure.
pub fn refusals(game: &RouletteGame, fig: &RouletteFigures, floor: &Floor) -> Vec<String> {
    let one = BigRational::from_integer(1.into());
    let mut out = Vec::new();
    for b in fig.chances.iter().chain(&fig.call_bets) {
        if b.rtp < *floor.value() {
            out.push(format!("{}: the bet {} returns {}%, under the floor of {}% (M-17)", game.id, b.name, pct(&b.rtp), pct(floor.value())));
        }
        if b.rtp > one {
            out.push(format!("{}: the bet {} returns {}%, over 100% (certification.md B-12)", game.id, b.name, pct(&b.rtp)));
        }
    }
    out
}

/// The layout `paytable simulate` plays: a chip of 2 credits on one spot of
/// every chance the table offers; and its exact RTP, by enumeration.
pub fn simulated_layout(game: &RouletteGame) -> (Vec<(Spot, u64)>, BigRational) {
    let mut layout: Vec<(Spot, u64)> = Vec::new();
    for chance in Chance::ALL {
        let spot = match chance {
            Chance::Dozen => Some(Spot::Dozen(2)),
            Chance::Column => Some(Spot::Column(3)),
            Chance::TwoDozens => Some(Spot::TwoDozens(2)),
            Chance::TwoColumns => Some(Spot::TwoColumns(1)),
            Chance::EvenChance => Some(Spot::Black),
            _ => inside_bets(game.wheel, game.top_line).into_iter().map(Spot::Numbers).filter(|s| s.chance() == chance).nth(3),
        };
        layout.extend(spot.map(|s| (s, 2)));
    }
    let exact = enumerate(game.wheel, &layout).0;
    (layout, exact)
}

/// Spin `games` times through the production draw (`RouletteGame::spin`)
/// from `seed` per thread, the layout of [`simulated_layout`] each round.
pub fn simulate(game: &RouletteGame, games: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> crate::simulate::SimResult {
    let (layout, _) = simulated_layout(game);
    let staked = RouletteGame::staked(&layout);
    crate::simulate::rounds(games, seed, threads, staked, progress, |rng| {
        let pocket = game.spin(rng);
        layout.iter().map(|(s, stake)| s.returned(*stake, pocket)).sum()
    })
}

pub fn pct(x: &BigRational) -> String {
    decimal(&(x * BigRational::from_integer(100.into())), 4)
}

/// The figures as `paytable check` prints them.
pub fn report(game: &RouletteGame, fig: &RouletteFigures) -> String {
    let mut out = format!(
        "{} ({}) — {:?} wheel, {} pockets; minimum {} credit(s) a spot, maximum {} × the minimum per number covered\n",
        game.name, game.id, game.wheel, fig.pockets, game.minimum, game.ratio_per_number
    );
    out.push_str(&format!("{:<54} {:>6} {:>8} {:>8} {:>9} {:>9}\n", "bet", "covers", "pays", "RTP exact", "RTP %", "hit %"));
    for b in fig.chances.iter().chain(&fig.call_bets) {
        out.push_str(&format!("{:<54} {:>6} {:>8} {:>8} {:>9} {:>9}\n", b.name, b.covered, b.pays, b.rtp.to_string(), pct(&b.rtp), pct(&b.hit)));
    }
    if let Some(low) = fig.lowest() {
        out.push_str(&format!("whole table: every mix of bets returns at least {}% ({}, {})\n", pct(&low.rtp), low.rtp, low.name));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRENCH: &str = "RoulettePaytable(\n id: \"fr\",\n name: \"Roleta\",\n wheel: French,\n minimum: 1,\n chips: [1, 5, 25],\n call_bets: true,\n)";

    /// §3: 36/37 for every chance and call bet on a single zero, 18/19 on
    /// 0 and 00, the top line 35/38 — each an exact fraction.
    #[test]
    fn every_bet_returns_the_texts_fraction() {
        let g = compile_roulette("fr.ron", FRENCH).unwrap();
        let f = figures(&g);
        assert_eq!(f.chances.len(), 10, "every chance but the top line");
        assert_eq!(f.call_bets.len(), 8);
        for b in f.chances.iter().chain(&f.call_bets) {
            assert_eq!(b.rtp, BigRational::new(36.into(), 37.into()), "{}", b.name);
        }
        let red = f.chances.iter().find(|b| b.name.contains("even chance")).unwrap();
        assert_eq!(red.hit, BigRational::new(18.into(), 37.into()));
        let american = compile_roulette("us.ron", &FRENCH.replace("French", "American38").replace("call_bets: true", "top_line: true")).unwrap();
        let f = figures(&american);
        let top = f.chances.iter().find(|b| b.covered == 5).unwrap();
        assert_eq!(top.rtp, BigRational::new(35.into(), 38.into()), "0-00-1-2-3 at 6:1");
        assert!(f.chances.iter().filter(|b| b.covered != 5).all(|b| b.rtp == BigRational::new(18.into(), 19.into())));
        assert_eq!(f.lowest().unwrap().covered, 5, "the top line is the table's lowest bet");
        assert_eq!(f.by_covered().iter().find(|(n, _)| *n == 5).unwrap().1, BigRational::new(35.into(), 38.into()));
        assert!(refusals(&american, &f, &Floor::legal_minimum()).is_empty());
        let high = Floor::from_percent("93").unwrap();
        let r = refusals(&american, &f, &high);
        assert_eq!(r.len(), 1, "{r:?}");
        assert!(r[0].contains("0-00-1-2-3") && r[0].contains("92.105"), "{r:?}");
    }

    /// The simulation of the production spin lands inside its 99%
    /// interval around the exact figure.
    #[test]
    fn the_simulation_agrees_with_the_exact_figure() {
        let g = compile_roulette("fr.ron", FRENCH).unwrap();
        let (layout, exact) = simulated_layout(&g);
        assert_eq!(layout.len(), 10);
        assert_eq!(exact, BigRational::new(36.into(), 37.into()));
        let r = simulate(&g, 400_000, 11, 2, &|_| {});
        assert_eq!(r.games, 400_000);
        let (lo, hi) = r.ci99();
        assert!(lo <= 36.0 / 37.0 && 36.0 / 37.0 <= hi, "{lo}–{hi}");
    }

    #[test]
    fn a_table_the_text_does_not_allow_is_refused_by_name() {
        let e = compile_roulette("x.ron", &FRENCH.replace("French", "American37")).unwrap_err().to_string();
        assert!(e.contains("call bets are played only on a wheel of French numbering") && e.starts_with("x.ron:7: call_bets:"), "{e}");
        let e = compile_roulette("x.ron", &FRENCH.replace("call_bets: true", "call_bets: true, ratio_per_number: 31")).unwrap_err().to_string();
        assert!(e.contains("1 to 30 times the minimum"), "{e}");
        let e = compile_roulette("x.ron", &FRENCH.replace("call_bets: true", "top_line: true")).unwrap_err().to_string();
        assert!(e.contains("0-00-1-2-3"), "{e}");
        let e = compile_roulette("x.ron", &FRENCH.replace("minimum: 1", "minimum: 0")).unwrap_err().to_string();
        assert!(e.contains("table minimum"), "{e}");
    }
}
