//! Boule (`BoulePaytable`, BO-1…15): the payouts are the text's (BO-8)
//! and not configurable; a paytable sets the table's limits and chips. The
//! exact figures enumerate the 25 compartments for every chance of the
//! cloth (`game_core::boule::Spot::all`); every chance is held to the
//! floor (each returns 24/25, 96 %).
//!
//! ```ron
//! BoulePaytable(id: "boule", name: "Boule", minimum: 1, maximum: 50, chips: [1, 5, 10, 25])
//! ```

use game_core::boule::{BouleGame, Spot, WHEEL};
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};

use crate::compile::Problems;
use crate::dice::check_limits;
use crate::error::{PaytableError, Reporter};
use crate::poker_compile::parse;
use crate::table_bet::TableBet;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoulePaytable {
    pub id: String,
    pub name: String,
    /// The table minimum and maximum on a chance, in credits.
    pub minimum: u64,
    pub maximum: u64,
    pub chips: Vec<u64>,
}

pub fn compile_boule(file: &str, src: &str) -> Result<BouleGame, PaytableError> {
    let p: BoulePaytable = parse(file, src)?;
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let mut e = Problems::new(&r);
    let chips = check_limits(&mut e, &p.id, &p.name, p.minimum, p.maximum, &p.chips);
    e.result(|| BouleGame { id: p.id.clone(), name: p.name.clone(), minimum: p.minimum, maximum: p.maximum, chips })
}

/// Every chance of the cloth over the 25 compartments: what one credit
/// returns (the stake and its prize) and how often it wins.
pub fn boule_figures() -> Vec<TableBet> {
    let n = BigInt::from(WHEEL.len());
    Spot::all()
        .into_iter()
        .map(|s| {
            let back: u64 = WHEEL.iter().map(|&c| s.returned(1, c)).sum();
            let wins = WHEEL.iter().filter(|&&c| s.wins(c)).count();
            TableBet {
                name: format!("{} / {}", s.name(true), s.name(false)),
                pays: format!("{}:1", s.pays()),
                rtp: BigRational::new(BigInt::from(back), n.clone()),
                hit: BigRational::new(BigInt::from(wins), n.clone()),
            }
        })
        .collect()
}

/// `paytable simulate` for boule: `games` throws of the production draw
/// with one credit on every chance of the cloth; the exact RTP of that
/// layout beside.
pub fn simulate(games: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> (crate::simulate::SimResult, BigRational) {
    let spots = Spot::all();
    let bets = spots.len() as u64;
    let round = |rng: &mut meters::StreamRng| -> u64 {
        let c = game_core::boule::spin(rng);
        spots.iter().map(|s| s.returned(1, c)).sum()
    };
    let r = crate::simulate::rounds(games, seed, threads, bets, progress, round);
    let exact =
        boule_figures().iter().map(|b| b.rtp.clone()).fold(BigRational::from_integer(0.into()), |a, b| a + b) / BigRational::from_integer(BigInt::from(bets));
    (r, exact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floor::Floor;
    use crate::table_bet::{lowest, refusals};

    fn ratio(n: u64, d: u64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    /// The digest's CALC: every chance returns 96.0 % — (23+1)/25 for a
    /// pleno, (1+1)×12/25 for a simple chance — and wins as often as the
    /// compartments it covers; the star only on itself.
    #[test]
    fn every_chance_returns_the_digests_96_percent() {
        let f = boule_figures();
        assert_eq!(f.len(), 100);
        assert!(f.iter().all(|b| b.rtp == ratio(24, 25)), "{:?}", f.iter().find(|b| b.rtp != ratio(24, 25)));
        let hit = |name: &str| f.iter().find(|b| b.name.ends_with(name)).unwrap().hit.clone();
        assert_eq!(hit("/ star"), ratio(1, 25));
        assert_eq!(hit("/ straight 7"), ratio(1, 25));
        assert_eq!(hit("/ numbers 1-2"), ratio(2, 25));
        assert_eq!(hit("/ row 8"), ratio(3, 25));
        assert_eq!(hit("/ numbers 1-2-4-5"), ratio(4, 25));
        assert_eq!(hit("/ rows 1-2"), ratio(6, 25));
        assert_eq!(hit("/ column 3"), ratio(8, 25));
        assert_eq!(hit("/ odd"), ratio(12, 25));
        assert_eq!(lowest(&f).unwrap().rtp, ratio(24, 25));
        assert!(refusals("boule", &f, &Floor::legal_minimum()).is_empty());
        // A floor above 96 % refuses every chance, each by name and figure.
        let r = refusals("boule", &f, &Floor::from_percent("97").unwrap());
        assert_eq!(r.len(), 100);
        assert!(r[0].contains("boule: the bet estrela / star returns 96") && r[0].contains("(M-17)"), "{r:?}");
    }

    #[test]
    fn the_simulation_agrees_with_the_exact_figure() {
        let (r, exact) = simulate(200_000, 5, 2, &|_| {});
        let (lo, hi) = r.ci99();
        let e = num_traits::ToPrimitive::to_f64(&exact).unwrap();
        assert_eq!(exact, ratio(24, 25));
        assert!(lo <= e && e <= hi, "{e} outside {lo}–{hi}");
    }

    #[test]
    fn tables_the_text_does_not_allow_are_refused_by_name() {
        let ok = "BoulePaytable(\n id: \"boule\",\n name: \"Boule\",\n minimum: 1,\n maximum: 50,\n chips: [1, 5],\n)";
        assert_eq!(compile_boule("b.ron", ok).unwrap().chips, vec![1, 5]);
        let e = compile_boule("b.ron", &ok.replace("maximum: 50", "maximum: 0")).unwrap_err().to_string();
        assert!(e.contains("b.ron:5: maximum") && e.contains("under the minimum"), "{e}");
        let e = compile_boule("b.ron", &ok.replace("minimum: 1", "minimum: 0")).unwrap_err().to_string();
        assert!(e.contains("b.ron:4: minimum") && e.contains("at least 1 credit"), "{e}");
        let e = compile_boule("b.ron", &ok.replace("chips: [1, 5]", "chips: [1, 500]")).unwrap_err().to_string();
        assert!(e.contains("chip of 500 credits is under the minimum (1) or over the largest bet (50)"), "{e}");
        let e = compile_boule("b.ron", &ok.replace("chips: [1, 5],", "chips: [1, 5],\n pays: 35,")).unwrap_err().to_string();
        assert!(e.contains("pays"), "the payouts are the text's, not a field: {e}");
    }
}
