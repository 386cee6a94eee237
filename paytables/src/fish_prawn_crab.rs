//! Peixe-camarão-caranguejo (`FishPrawnCrabPaytable`, Macau Despacho
//! 59/2004): the prizes are the text's (Art. 6) and not configurable; a
//! paytable sets the table's limits, its chips and the bets of Art. 5 it
//! offers. The exact figures enumerate the 216 throws for every place of
//! the cloth. The text pays six of its bets under the 80 % floor (M-17) —
//! three dice of a chosen colour 7/9, a chosen figure's triple 151/216,
//! any triple 25/36, the totals 4/17, 5/16 and 6/15 — and the compiler
//! refuses each of them by its line with its figure, so no table offers
//! them.
//!
//! ```ron
//! FishPrawnCrabPaytable(id: "pcc", name: "Peixe-Camarão-Caranguejo", minimum: 1, maximum: 100, chips: [1, 5],
//!     bets: [Small, Big, Figure, OneOfColour, TwoOfColour, ThreeSameColour, Total(7), Total(14)])
//! ```

use game_core::dice::every_throw;
use game_core::dice::fish_prawn_crab::{Bet, FishPrawnCrabGame, Spot};
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
pub struct FishPrawnCrabPaytable {
    pub id: String,
    pub name: String,
    /// The table minimum and maximum on a place, in credits.
    pub minimum: u64,
    pub maximum: u64,
    pub chips: Vec<u64>,
    /// The bets of Art. 5 the table offers.
    pub bets: Vec<Bet>,
}

fn ratio(n: u64, d: u64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d.max(1)))
}

/// What one credit on `spot` returns over the 216 throws, and how often it
/// wins.
fn figures_of(spot: Spot) -> (BigRational, BigRational) {
    let (back, wins) = every_throw().fold((0u64, 0u64), |(b, w), t| (b + spot.returned(1, &t), w + u64::from(spot.payout(&t) > 0)));
    (ratio(back, 216), ratio(wins, 216))
}

/// A bet's figures: every place of a bet returns the same (a figure or a
/// colour is any of them), so its first place stands for it.
pub fn bet_figures(bet: Bet) -> Option<TableBet> {
    let spot = *bet.spots().first()?;
    let (rtp, hit) = figures_of(spot);
    let mut pays: Vec<u64> = every_throw().map(|t| spot.payout(&t)).filter(|&p| p > 0).collect();
    pays.sort_unstable();
    pays.dedup();
    let pays = pays.iter().map(|p| format!("{p}:1")).collect::<Vec<_>>().join(" / ");
    Some(TableBet { name: format!("{} / {}", bet.name(true), bet.name(false)), pays, rtp, hit })
}

pub fn compile_fish_prawn_crab(file: &str, src: &str) -> Result<FishPrawnCrabGame, PaytableError> {
    let p: FishPrawnCrabPaytable = parse(file, src)?;
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let mut e = Problems::new(&r);
    let chips = check_limits(&mut e, &p.id, &p.name, p.minimum, p.maximum, &p.chips);
    if p.bets.is_empty() {
        e.at(Path::default().field("bets"), "the table offers no bet: name at least one bet of Art. 5");
    }
    let floor = Floor::legal_minimum();
    for (i, &bet) in p.bets.iter().enumerate() {
        let at = Path::default().field("bets").index(i);
        if p.bets[..i].contains(&bet) {
            e.at(at, format!("{} is offered twice", bet.name(false)));
            continue;
        }
        let Some(f) = bet_figures(bet).filter(|_| bet.in_the_text()) else {
            e.at(at, format!("{} is no bet of Art. 5 (the totals are 4 to 17)", bet.name(false)));
            continue;
        };
        // M-17: as the text pays it, the bet returns under the floor.
        if f.rtp < *floor.value() {
            e.at(at, format!("the bet {} returns {}% ({}), under the floor of {}% (M-17)", bet.name(false), pct(&f.rtp), f.rtp, pct(floor.value())));
        }
    }
    e.result(|| FishPrawnCrabGame { id: p.id.clone(), name: p.name.clone(), minimum: p.minimum, maximum: p.maximum, chips, bets: p.bets.clone() })
}

/// The figures of every bet the table offers.
pub fn fish_prawn_crab_figures(game: &FishPrawnCrabGame) -> Vec<TableBet> {
    game.bets.iter().filter_map(|&b| bet_figures(b)).collect()
}

/// `paytable simulate`: `games` throws of the production draw with one
/// credit on every place of the table's cloth; the exact RTP of that
/// layout beside.
pub fn simulate(game: &FishPrawnCrabGame, games: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> (crate::simulate::SimResult, BigRational) {
    let cloth = game.cloth();
    let round = |rng: &mut meters::StreamRng| -> u64 {
        let t = game_core::dice::throw(rng);
        cloth.iter().map(|s| s.returned(1, &t)).sum()
    };
    let r = crate::simulate::rounds(games, seed, threads, cloth.len() as u64, progress, round);
    let exact = cloth.iter().map(|&s| figures_of(s).0).fold(ratio(0, 1), |a, b| a + b) / ratio(cloth.len() as u64, 1);
    (r, exact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table_bet::{lowest, refusals};

    const SHIPPED: &str = "FishPrawnCrabPaytable(\n id: \"pcc\",\n name: \"PCC\",\n minimum: 1,\n maximum: 100,\n chips: [1, 5],\n bets: [Small, Big, Figure, OneOfColour, TwoOfColour, ThreeSameColour, Total(7), Total(8), Total(9), Total(10), Total(11), Total(12), Total(13), Total(14)],\n)";

    /// §2.7's figures through the compiler: the offered bets' exact
    /// returns, the lowest total 9 at 175/216 (81.02 %).
    #[test]
    fn the_offered_bets_return_the_digests_figures() {
        let g = compile_fish_prawn_crab("p.ron", SHIPPED).unwrap();
        assert_eq!(g.cloth().len(), 2 + 6 + 3 + 3 + 1 + 8);
        let f = fish_prawn_crab_figures(&g);
        let rtp = |name: &str| f.iter().find(|b| b.name.ends_with(name)).unwrap().rtp.clone();
        assert_eq!(rtp("/ small (4-10)"), ratio(35, 36));
        assert_eq!(rtp("/ chosen figure"), ratio(199, 216));
        assert_eq!(rtp("/ one die of a chosen colour"), ratio(8, 9));
        assert_eq!(rtp("/ two dice of a chosen colour"), ratio(8, 9));
        assert_eq!(rtp("/ three dice of one colour"), ratio(8, 9));
        assert_eq!(rtp("/ total 7"), ratio(195, 216));
        assert_eq!(rtp("/ total 10"), ratio(7, 8));
        assert_eq!(lowest(&f).unwrap().rtp, ratio(175, 216));
        assert_eq!(pct(&ratio(175, 216)), "81.0185");
        assert!(refusals("pcc", &f, &Floor::legal_minimum()).is_empty());
        assert_eq!(f.iter().find(|b| b.name.ends_with("/ chosen figure")).unwrap().pays, "1:1 / 2:1 / 3:1");
    }

    /// Issue 72: every bet of the text offered; the compiler refuses the
    /// nine under 80 % (three colour bets as one, its figure, by its line).
    #[test]
    fn the_bets_under_the_floor_are_refused_by_line_with_their_figure() {
        let all: Vec<String> = Bet::all().iter().map(|b| format!("{b:?}")).collect();
        let src = format!(
            "FishPrawnCrabPaytable(\n id: \"pcc\",\n name: \"PCC\",\n minimum: 1,\n maximum: 100,\n chips: [1],\n bets: [\n  {},\n ],\n)",
            all.join(",\n  ")
        );
        let e = compile_fish_prawn_crab("all.ron", &src).unwrap_err().to_string();
        let refused: Vec<&str> = e.lines().filter(|l| l.contains("(M-17)")).collect();
        let want = [
            (13, "three dice of a chosen colour returns 77.7778% (7/9)"),
            (15, "three dice of a chosen figure returns 69.9074% (151/216)"),
            (16, "any three equal figures returns 69.4444% (25/36)"),
            (17, "total 4 returns 70.8333% (17/24)"),
            (18, "total 5 returns 52.7778% (19/36)"),
            (19, "total 6 returns 69.4444% (25/36)"),
            (28, "total 15 returns 69.4444% (25/36)"),
            (29, "total 16 returns 52.7778% (19/36)"),
            (30, "total 17 returns 70.8333% (17/24)"),
        ];
        assert_eq!(refused.len(), want.len(), "{e}");
        for ((line, what), got) in want.iter().zip(&refused) {
            assert!(got.contains(&format!("all.ron:{line}:")) && got.contains(what), "{got} — wanted line {line}: {what}");
        }
    }

    #[test]
    fn tables_the_text_does_not_allow_are_refused_by_name() {
        let e = compile_fish_prawn_crab("p.ron", &SHIPPED.replace("Total(14)]", "Total(14), Total(3), Figure]")).unwrap_err().to_string();
        assert!(e.contains("p.ron:7:") && e.contains("total 3 is no bet of Art. 5") && e.contains("chosen figure is offered twice"), "{e}");
        let e = compile_fish_prawn_crab("p.ron", &SHIPPED.replace("bets: [Small", "bets: [Small, Pair")).unwrap_err().to_string();
        assert!(e.contains("Pair"), "{e}");
        let e = compile_fish_prawn_crab("p.ron", &SHIPPED.replace("maximum: 100", "maximum: 0")).unwrap_err().to_string();
        assert!(e.contains("p.ron:5: maximum") && e.contains("under the minimum"), "{e}");
        let none = SHIPPED.split("\n bets").next().unwrap().to_owned() + "\n bets: [],\n)";
        assert!(compile_fish_prawn_crab("p.ron", &none).unwrap_err().to_string().contains("offers no bet"));
    }

    #[test]
    fn the_simulation_agrees_with_the_exact_figure() {
        let g = compile_fish_prawn_crab("p.ron", SHIPPED).unwrap();
        let (r, exact) = simulate(&g, 200_000, 11, 2, &|_| {});
        let (lo, hi) = r.ci99();
        let e = num_traits::ToPrimitive::to_f64(&exact).unwrap();
        assert!(lo <= e && e <= hi, "{e} outside {lo}–{hi}");
    }
}
