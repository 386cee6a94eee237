//! Roda da sorte (`RodaDaSortePaytable`, RS-1…10): the payouts are the
//! text's (RS-10) and not configurable; a paytable sets the table's limits
//! and chips. The exact figures enumerate the 52 sections for a bet on each
//! symbol (`game_core::roda_da_sorte::Section::ALL`); every bet is held to
//! the floor — the 20 at 42/52 (80.77 %) is the lowest, the sun and moon
//! 46/52, the 10 44/52, the rest 48/52.
//!
//! ```ron
//! RodaDaSortePaytable(id: "roda-da-sorte", name: "Roda da Sorte", minimum: 1, maximum: 50, chips: [1, 5, 10])
//! ```

use game_core::roda_da_sorte::{RodaDaSorteGame, Section, WHEEL};
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
pub struct RodaDaSortePaytable {
    pub id: String,
    pub name: String,
    /// The table minimum and maximum on a symbol, in credits.
    pub minimum: u64,
    pub maximum: u64,
    pub chips: Vec<u64>,
}

pub fn compile_roda_da_sorte(file: &str, src: &str) -> Result<RodaDaSorteGame, PaytableError> {
    let p: RodaDaSortePaytable = parse(file, src)?;
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let mut e = Problems::new(&r);
    let chips = check_limits(&mut e, &p.id, &p.name, p.minimum, p.maximum, &p.chips);
    e.result(|| RodaDaSorteGame { id: p.id.clone(), name: p.name.clone(), minimum: p.minimum, maximum: p.maximum, chips })
}

/// A bet on each symbol over the 52 sections: what one credit returns
/// (the stake and its prize) and how often it wins.
pub fn roda_da_sorte_figures() -> Vec<TableBet> {
    let n = BigInt::from(WHEEL.len());
    Section::ALL
        .into_iter()
        .map(|s| {
            let back: u64 = WHEEL.iter().map(|&w| s.returned(1, w)).sum();
            let wins = WHEEL.iter().filter(|&&w| w == s).count();
            TableBet {
                name: format!("{} / {}", s.name(true), s.name(false)),
                pays: format!("{}:1", s.pays()),
                rtp: BigRational::new(BigInt::from(back), n.clone()),
                hit: BigRational::new(BigInt::from(wins), n.clone()),
            }
        })
        .collect()
}

/// `paytable simulate` for the wheel: `games` turns of the production
/// draw with one credit on every symbol; the exact RTP of that layout
/// beside.
pub fn simulate(games: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> (crate::simulate::SimResult, BigRational) {
    let bets = Section::ALL.len() as u64;
    let round = |rng: &mut meters::StreamRng| -> u64 {
        let stopped = WHEEL[game_core::roda_da_sorte::spin(rng)];
        Section::ALL.iter().map(|s| s.returned(1, stopped)).sum()
    };
    let r = crate::simulate::rounds(games, seed, threads, bets, progress, round);
    let exact = roda_da_sorte_figures().iter().map(|b| b.rtp.clone()).fold(BigRational::from_integer(0.into()), |a, b| a + b)
        / BigRational::from_integer(BigInt::from(bets));
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

    /// The digest's CALC (x:1, the stake returned): 92.3 % for 1, 3 and
    /// 5, 84.6 % for 10, 80.8 % for 20, 88.5 % for each single section;
    /// under an 85 % floor the 20 and the 10 are refused by name.
    #[test]
    fn every_bet_returns_the_digests_figure() {
        let f = roda_da_sorte_figures();
        let rtp: Vec<BigRational> = f.iter().map(|b| b.rtp.clone()).collect();
        assert_eq!(rtp, [48, 48, 48, 44, 42, 46, 46].map(|n| ratio(n, 52)));
        let pct: Vec<String> = f.iter().map(|b| crate::roulette::pct(&b.rtp)).collect();
        assert_eq!(pct, ["92.3077", "92.3077", "92.3077", "84.6154", "80.7692", "88.4615", "88.4615"]);
        assert_eq!(f[5].hit, ratio(1, 52));
        assert_eq!(lowest(&f).unwrap().rtp, ratio(42, 52));
        assert!(refusals("roda", &f, &Floor::legal_minimum()).is_empty());
        let r = refusals("roda", &f, &Floor::from_percent("85").unwrap());
        assert_eq!(r.len(), 2, "{r:?}");
        assert!(r[0].contains("the bet 10 / 10 returns 84.6154%") && r[1].contains("the bet 20 / 20 returns 80.7692%"), "{r:?}");
    }

    #[test]
    fn the_simulation_agrees_with_the_exact_figure() {
        let (r, exact) = simulate(200_000, 5, 2, &|_| {});
        let (lo, hi) = r.ci99();
        let e = num_traits::ToPrimitive::to_f64(&exact).unwrap();
        assert_eq!(exact, ratio(48 * 3 + 44 + 42 + 46 * 2, 52 * 7));
        assert!(lo <= e && e <= hi, "{e} outside {lo}–{hi}");
    }

    #[test]
    fn tables_the_text_does_not_allow_are_refused_by_name() {
        let ok = "RodaDaSortePaytable(\n id: \"roda\",\n name: \"Roda\",\n minimum: 2,\n maximum: 50,\n chips: [2, 10],\n)";
        assert_eq!(compile_roda_da_sorte("r.ron", ok).unwrap().chips, vec![2, 10]);
        let e = compile_roda_da_sorte("r.ron", &ok.replace("maximum: 50", "maximum: 1")).unwrap_err().to_string();
        assert!(e.contains("r.ron:5: maximum") && e.contains("under the minimum"), "{e}");
        let e = compile_roda_da_sorte("r.ron", &ok.replace("chips: [2, 10]", "chips: [1, 10]")).unwrap_err().to_string();
        assert!(e.contains("chip of 1 credits is under the minimum (2)"), "{e}");
        let e = compile_roda_da_sorte("r.ron", &ok.replace("chips: [2, 10],", "chips: [2, 10],\n sections: 54,")).unwrap_err().to_string();
        assert!(e.contains("sections"), "the wheel is the text's, not a field: {e}");
    }
}
