//! Craps (`CrapsPaytable`, seed 000 L936–1194): the payouts are the
//! text's (rules 19–25, the stake kept) and not configurable; a paytable
//! sets the bar of don't pass (rule 20.2), the table's limits, its chips
//! and the spots it offers. The exact figures are game-core's
//! (`craps::figures`: a one-roll bet over the 36 rolls, big 6/8 and the
//! hardways against the 7, the line bets over the come-out and each
//! point's repeat against the 7), as exact rationals (the digest's table:
//! pass 488/495, don't pass 217/220, field 17/18). Every chance of the
//! text clears the 80 % floor (the lowest, under/over seven and total 7,
//! 5/6); the compiler still refuses any spot under it by its line (M-17).
//!
//! ```ron
//! CrapsPaytable(id: "craps", name: "Craps", bar: Twelve, minimum: 1, maximum: 100, chips: [1, 5],
//!     spots: [PassLine, DontPass, Field, Big(6), Big(8), Hard(4), Hard(6), Hard(8), Hard(10)])
//! ```

use game_core::dice::craps::{Bar, CrapsGame, FIGURES_OVER, Spot, figures, series};
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};

use crate::compile::Problems;
use crate::dice::check_limits;
use crate::error::{PaytableError, Reporter};
use crate::floor::Floor;
use crate::locate::Path;
use crate::poker_compile::parse;
use crate::roulette::pct;
use crate::table_bet::TableBet;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrapsPaytable {
    pub id: String,
    pub name: String,
    /// Don't pass's barred total: `Twelve` (the pair of sixes) or `Two`
    /// (the pair of aces).
    pub bar: Bar,
    /// The table minimum and maximum on a spot, in credits.
    pub minimum: u64,
    pub maximum: u64,
    pub chips: Vec<u64>,
    /// The spots the table offers.
    pub spots: Vec<Spot>,
}

fn ratio(n: u64, d: u64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d.max(1)))
}

/// A spot's exact figures (game-core's integers over 35,640): what one
/// credit returns per decided bet, and how often the bet wins.
pub fn spot_figures(spot: Spot, bar: Bar) -> TableBet {
    let (back, wins) = figures(spot, bar);
    TableBet { name: spot.name(false), pays: spot.pays().into(), rtp: ratio(back, FIGURES_OVER), hit: ratio(wins, FIGURES_OVER) }
}

pub fn compile_craps(file: &str, src: &str) -> Result<CrapsGame, PaytableError> {
    let p: CrapsPaytable = parse(file, src)?;
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let mut e = Problems::new(&r);
    let chips = check_limits(&mut e, &p.id, &p.name, p.minimum, p.maximum, &p.chips);
    if p.spots.is_empty() {
        e.at(Path::default().field("spots"), "the table offers no bet: name at least one spot of the cloth");
    }
    let floor = Floor::legal_minimum();
    for (i, &spot) in p.spots.iter().enumerate() {
        let at = Path::default().field("spots").index(i);
        if p.spots[..i].contains(&spot) {
            e.at(at, format!("{} is offered twice", spot.name(false)));
            continue;
        }
        if !spot.on_cloth() {
            e.at(at, format!("{spot:?} is no spot of the cloth (big 6 and 8; hard 4, 6, 8 and 10; totals 2, 3, 11 and 12; total 7 is AnySeven)"));
            continue;
        }
        let f = spot_figures(spot, p.bar);
        // M-17: as the text pays it, the bet returns under the floor.
        if f.rtp < *floor.value() {
            e.at(at, format!("the bet {} returns {}% ({}), under the floor of {}% (M-17)", spot.name(false), pct(&f.rtp), f.rtp, pct(floor.value())));
        }
    }
    e.result(|| CrapsGame { id: p.id.clone(), name: p.name.clone(), bar: p.bar, minimum: p.minimum, maximum: p.maximum, chips, spots: p.spots.clone() })
}

/// The figures of every spot the table offers.
pub fn craps_figures(game: &CrapsGame) -> Vec<TableBet> {
    game.spots.iter().map(|&s| spot_figures(s, game.bar)).collect()
}

/// `paytable simulate`: `games` series of the production draw with one
/// credit on every spot the table offers, rolled until all are decided;
/// the exact RTP of that layout beside.
pub fn simulate(game: &CrapsGame, games: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> (crate::simulate::SimResult, BigRational) {
    let spots = game.spots.clone();
    let bar = game.bar;
    let round = |rng: &mut meters::StreamRng| -> u64 {
        let Ok(rolls) = series(&spots, bar, rng) else { return 0 };
        spots.iter().filter_map(|s| s.verdict(&rolls, bar)).map(|v| v.returned).sum()
    };
    let r = crate::simulate::rounds(games, seed, threads, spots.len() as u64, progress, round);
    let exact = craps_figures(game).into_iter().map(|f| f.rtp).fold(ratio(0, 1), |a, b| a + b) / ratio(spots.len() as u64, 1);
    (r, exact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table_bet::lowest;

    const SHIPPED: &str = "CrapsPaytable(\n id: \"craps\",\n name: \"Craps\",\n bar: Twelve,\n minimum: 1,\n maximum: 100,\n chips: [1, 5],\n spots: [PassLine, DontPass, Field, Big(6), Big(8), UnderSeven, OverSeven, AnySeven, AnyCraps, Hard(4), Hard(6), Hard(8), Hard(10), Total(2), Total(3), Total(11), Total(12)],\n)";

    /// The digest's table (roulette-and-dice.md §7), every spot exact.
    #[test]
    fn every_spot_returns_the_digests_figure() {
        let g = compile_craps("c.ron", SHIPPED).unwrap();
        let f = craps_figures(&g);
        let rtp = |name: &str| f.iter().find(|b| b.name == name).unwrap().rtp.clone();
        let want = [
            ("pass line", (488, 495)),
            ("don't pass", (217, 220)),
            ("big 6", (10, 11)),
            ("big 8", (10, 11)),
            ("under seven", (5, 6)),
            ("over seven", (5, 6)),
            ("craps", (8, 9)),
            ("hard 4", (8, 9)),
            ("hard 10", (8, 9)),
            ("hard 6", (10, 11)),
            ("hard 8", (10, 11)),
            ("total 7", (5, 6)),
            ("total 2", (31, 36)),
            ("total 12", (31, 36)),
            ("total 3", (8, 9)),
            ("total 11", (8, 9)),
            ("field", (17, 18)),
        ];
        assert_eq!(f.len(), want.len());
        for (name, (n, d)) in want {
            assert_eq!(rtp(name), ratio(n, d), "{name}");
        }
        // Pass line wins 244 in 495; don't pass 949 in 1980, the bar 1 in 36.
        assert_eq!(f[0].hit, ratio(244, 495));
        assert_eq!(f[1].hit, ratio(949, 1980));
        assert_eq!(lowest(&f).unwrap().rtp, ratio(5, 6));
        // The bar on the aces: the same return.
        assert_eq!(spot_figures(Spot::DontPass, Bar::Two).rtp, ratio(217, 220));
    }

    #[test]
    fn spots_the_cloth_has_not_are_refused_by_line() {
        let e = compile_craps("c.ron", &SHIPPED.replace("Total(12)]", "Total(12), Total(7), Hard(5), Field]")).unwrap_err().to_string();
        assert!(
            e.contains("c.ron:8:")
                && e.contains("Total(7) is no spot of the cloth")
                && e.contains("Hard(5) is no spot")
                && e.contains("field is offered twice"),
            "{e}"
        );
        let none = SHIPPED.split("\n spots").next().unwrap().to_owned() + "\n spots: [],\n)";
        assert!(compile_craps("c.ron", &none).unwrap_err().to_string().contains("offers no bet"));
        let e = compile_craps("c.ron", &SHIPPED.replace("bar: Twelve", "bar: Three")).unwrap_err().to_string();
        assert!(e.contains("c.ron:4"), "{e}");
    }

    #[test]
    fn the_simulation_agrees_with_the_exact_figure() {
        let g = compile_craps("c.ron", SHIPPED).unwrap();
        let (r, exact) = simulate(&g, 200_000, 13, 2, &|_| {});
        let (lo, hi) = r.ci99();
        let e = num_traits::ToPrimitive::to_f64(&exact).unwrap();
        assert!(lo <= e && e <= hi, "{e} outside {lo}–{hi}");
    }
}
