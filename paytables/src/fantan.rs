//! Fantan (`FantanPaytable`, Macau Despacho 58/2004): the prizes and the
//! bank's 5 % are the text's (Art. 7, 9) and not configurable; a paytable
//! sets the table's limits and chips. The exact figures enumerate the four
//! results for every chance (`game_core::fantan::Spot::all`), each return
//! a fraction of the stake in lowest terms; every chance is held to the
//! floor — fan 77/80 (96.25 %) the lowest, nim and kuoc 39/40, nga and
//! sé-sam-hong 79/80.
//!
//! ```ron
//! FantanPaytable(id: "fantan", name: "Fantan", minimum: 60, maximum: 6000, chips: [60, 120, 600])
//! ```

use game_core::fantan::{FantanGame, Spot};
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
pub struct FantanPaytable {
    pub id: String,
    pub name: String,
    /// The table minimum and maximum on a chance, in credits.
    pub minimum: u64,
    pub maximum: u64,
    pub chips: Vec<u64>,
}

pub fn compile_fantan(file: &str, src: &str) -> Result<FantanGame, PaytableError> {
    let p: FantanPaytable = parse(file, src)?;
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let mut e = Problems::new(&r);
    let chips = check_limits(&mut e, &p.id, &p.name, p.minimum, p.maximum, &p.chips);
    e.result(|| FantanGame { id: p.id.clone(), name: p.name.clone(), minimum: p.minimum, maximum: p.maximum, chips })
}

fn ratio(n: u64, d: u64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d.max(1)))
}

/// Every chance over the four results, each equally likely: what one
/// credit returns (the stake, the prize less the bank's 5 %, or the stake
/// alone on a tie) and how often it wins.
pub fn fantan_figures() -> Vec<TableBet> {
    Spot::all()
        .into_iter()
        .map(|s| {
            let back = (1..=4u8).map(|r| ratio(s.returns(r).0, s.returns(r).1)).fold(ratio(0, 1), |a, b| a + b);
            let wins = (1..=4u8).filter(|&r| s.wins(r)).count() as u64;
            let (p, q) = s.prize();
            let tie = if (1..=4u8).any(|r| s.ties(r)) { ", a tie" } else { "" };
            TableBet {
                name: format!("{} / {}", s.name(true), s.name(false)), pays: format!("{p}:{q} −5%{tie}"), rtp: back / ratio(4, 1), hit: ratio(wins, 4)
            }
        })
        .collect()
}

/// The stake on each chance in `simulate`: a multiple of every chance's
/// step (20, 10, 40, 60), so every return is whole.
const SIMULATED_STAKE: u64 = 120;

/// `paytable simulate` for fantan: `games` counts of the production draw
/// with 120 units on every chance; the exact RTP of that layout beside.
pub fn simulate(games: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> (crate::simulate::SimResult, BigRational) {
    let spots = Spot::all();
    let round = |rng: &mut meters::StreamRng| -> u64 {
        let r = game_core::fantan::count(rng);
        spots.iter().filter_map(|s| s.returned_cents(SIMULATED_STAKE, r)).sum()
    };
    let staked = spots.len() as u64 * SIMULATED_STAKE;
    let r = crate::simulate::rounds(games, seed, threads, staked, progress, round);
    let exact = fantan_figures().iter().map(|b| b.rtp.clone()).fold(ratio(0, 1), |a, b| a + b) / ratio(spots.len() as u64, 1);
    (r, exact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floor::Floor;
    use crate::table_bet::{lowest, refusals};

    /// The digest's figures (each result 1–4 equally likely): fan 96.25 %,
    /// nim 97.5 %, nga 98.75 %, sé-sam-hong 98.75 %, kuoc 97.5 %; under a
    /// 97 % floor the four fans are refused by name.
    #[test]
    fn every_chance_returns_the_digests_figure() {
        let f = fantan_figures();
        assert_eq!(f.len(), 38);
        let rtp = |name: &str| f.iter().find(|b| b.name.starts_with(name)).unwrap().rtp.clone();
        assert_eq!(rtp("fan 1"), ratio(77, 80));
        assert_eq!(rtp("nim 2 (empata 4)"), ratio(39, 40));
        assert_eq!(rtp("nga 1-3 (empata 2)"), ratio(79, 80));
        assert_eq!(rtp("sé-sam-hong 2-3-4"), ratio(79, 80));
        assert_eq!(rtp("kuoc 1-3"), ratio(39, 40));
        let pct: Vec<String> = [77, 78, 79].iter().map(|&n| crate::roulette::pct(&ratio(n, 80))).collect();
        assert_eq!(pct, ["96.2500", "97.5000", "98.7500"]);
        assert_eq!(lowest(&f).unwrap().rtp, ratio(77, 80));
        assert_eq!(f.iter().find(|b| b.name.starts_with("nga 1-2")).unwrap().hit, ratio(2, 4), "the tie is no win");
        assert!(refusals("fantan", &f, &Floor::legal_minimum()).is_empty());
        let r = refusals("fantan", &f, &Floor::from_percent("97").unwrap());
        assert_eq!(r.len(), 4, "{r:?}");
        assert!(r.iter().all(|m| m.contains("the bet fan ") && m.contains("returns 96.2500%")), "{r:?}");
    }

    #[test]
    fn the_simulation_agrees_with_the_exact_figure() {
        let (r, exact) = simulate(200_000, 5, 2, &|_| {});
        let (lo, hi) = r.ci99();
        let e = num_traits::ToPrimitive::to_f64(&exact).unwrap();
        // 4 fans, 12 nims, 12 ngas, 4 sé-sam-hongs, 6 kuocs over 38.
        assert_eq!(exact, (ratio(4 * 77, 80) + ratio(12 * 39, 40) + ratio(16 * 79, 80) + ratio(6 * 39, 40)) / ratio(38, 1));
        assert!(lo <= e && e <= hi, "{e} outside {lo}–{hi}");
    }

    #[test]
    fn tables_the_text_does_not_allow_are_refused_by_name() {
        let ok = "FantanPaytable(\n id: \"fantan\",\n name: \"Fantan\",\n minimum: 60,\n maximum: 6000,\n chips: [60, 600],\n)";
        assert_eq!(compile_fantan("f.ron", ok).unwrap().chips, vec![60, 600]);
        let e = compile_fantan("f.ron", &ok.replace("maximum: 6000", "maximum: 6")).unwrap_err().to_string();
        assert!(e.contains("f.ron:5: maximum") && e.contains("under the minimum"), "{e}");
        let e = compile_fantan("f.ron", &ok.replace("chips: [60, 600]", "chips: [1, 600]")).unwrap_err().to_string();
        assert!(e.contains("chip of 1 credits is under the minimum (60)"), "{e}");
        let e = compile_fantan("f.ron", &ok.replace("chips: [60, 600],", "chips: [60, 600],\n commission: 0,")).unwrap_err().to_string();
        assert!(e.contains("commission"), "the bank's 5% is the text's, not a field: {e}");
    }
}
