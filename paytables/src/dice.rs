//! The dice tables: banca francesa (`BancaFrancesaPaytable`, BF 1–43) and
//! cussec / sic bo (`SicBoPaytable`). The payouts are the text's and are
//! not configurable; a paytable sets the limits and the chips. The exact
//! figures enumerate the 216 throws: banca francesa over the 63 that
//! decide (a throw that decides nothing is thrown again, BF 13), sic bo
//! over all of them; every bet is held to the floor.
//!
//! ```ron
//! BancaFrancesaPaytable(id: "banca-francesa", name: "Banca Francesa", minimum: 1, chips: [1, 2, 5])
//! SicBoPaytable(id: "cussec", name: "Cussec", minimum: 1, maximum: 100, chips: [1, 5, 10, 25])
//! ```

use game_core::dice::banca_francesa::{self, BancaFrancesaGame, Chance};
use game_core::dice::sic_bo::{SicBoGame, Spot};
use game_core::dice::{Throw, every_throw};
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};

use crate::compile::Problems;
use crate::error::{PaytableError, Reporter};
use crate::locate::Path;
use crate::poker_compile::{check_name, parse};
use crate::table_bet::TableBet;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BancaFrancesaPaytable {
    pub id: String,
    pub name: String,
    pub minimum: u64,
    pub chips: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SicBoPaytable {
    pub id: String,
    pub name: String,
    pub minimum: u64,
    pub maximum: u64,
    pub chips: Vec<u64>,
}

/// The chips, sorted and checked: each at least the minimum and at most
/// the largest bet of the table.
pub(crate) fn chips(e: &mut Problems<'_>, chips: &[u64], minimum: u64, largest: u64) -> Vec<u64> {
    if chips.is_empty() {
        e.at(Path::default().field("chips"), "at least one chip value is needed");
    }
    // A zero minimum or a maximum under it is refused by name where it is
    // read; no chip is then measured against it (issue 49).
    let bounds_named = minimum == 0 || largest < minimum;
    for (i, &c) in chips.iter().enumerate() {
        if !bounds_named && (c < minimum || c > largest) {
            e.at(
                Path::default().field("chips").index(i),
                format!("a chip of {c} credits is under the minimum ({minimum}) or over the largest bet ({largest})"),
            );
        }
    }
    let mut v = chips.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

/// A table's name and its limits on a spot — a minimum of at least one
/// credit, a maximum not under it, chips between them — each refused by
/// its line; the chips sorted and checked (sic bo, boule, roda da sorte,
/// fantan).
pub(crate) fn check_limits(e: &mut Problems<'_>, id: &str, name: &str, minimum: u64, maximum: u64, offered: &[u64]) -> Vec<u64> {
    check_name(e, id, name);
    if minimum == 0 {
        e.at(Path::default().field("minimum"), "the table minimum must be at least 1 credit");
    }
    if maximum < minimum {
        e.at(Path::default().field("maximum"), format!("the maximum ({maximum}) is under the minimum ({minimum})"));
    }
    chips(e, offered, minimum, maximum)
}

pub fn compile_banca_francesa(file: &str, src: &str) -> Result<BancaFrancesaGame, PaytableError> {
    let p: BancaFrancesaPaytable = parse(file, src)?;
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let mut e = Problems::new(&r);
    check_name(&mut e, &p.id, &p.name);
    if p.minimum == 0 {
        e.at(Path::default().field("minimum"), "the table minimum must be at least 1 credit");
    }
    let chips = chips(&mut e, &p.chips, p.minimum, p.minimum.saturating_mul(Chance::Pequeno.max_ratio()));
    e.result(|| BancaFrancesaGame { id: p.id.clone(), name: p.name.clone(), minimum: p.minimum, chips })
}

pub fn compile_sic_bo(file: &str, src: &str) -> Result<SicBoGame, PaytableError> {
    let p: SicBoPaytable = parse(file, src)?;
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let mut e = Problems::new(&r);
    let chips = check_limits(&mut e, &p.id, &p.name, p.minimum, p.maximum, &p.chips);
    e.result(|| SicBoGame { id: p.id.clone(), name: p.name.clone(), minimum: p.minimum, maximum: p.maximum, chips })
}

fn ratio(n: u64, d: u64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d.max(1)))
}

/// Banca francesa: each chance over the 63 decisive throws (§5.6).
pub fn banca_francesa_figures() -> Vec<TableBet> {
    let decided: Vec<Chance> = every_throw().filter_map(|t| banca_francesa::decides(&t)).collect();
    let n = decided.len() as u64;
    Chance::ALL
        .iter()
        .map(|&c| {
            let back: u64 = decided.iter().map(|&d| banca_francesa::returned(c, 1, d)).sum();
            let wins = decided.iter().filter(|&&d| d == c).count() as u64;
            TableBet { name: format!("{} / {}", c.name(true), c.name(false)), pays: format!("{}:1", c.payout()), rtp: ratio(back, n), hit: ratio(wins, n) }
        })
        .collect()
}

/// Sic bo: every spot of the cloth over the 216 throws.
pub fn sic_bo_figures() -> Vec<TableBet> {
    let throws: Vec<Throw> = every_throw().collect();
    Spot::all()
        .into_iter()
        .map(|s| {
            let back: u64 = throws.iter().map(|t| s.returned(1, t)).sum();
            let wins = throws.iter().filter(|t| s.payout(t) > 0).count() as u64;
            let mut pays: Vec<u64> = throws.iter().map(|t| s.payout(t)).filter(|&p| p > 0).collect();
            pays.sort_unstable();
            pays.dedup();
            let pays = pays.iter().map(|p| format!("{p}:1")).collect::<Vec<_>>().join(" / ");
            TableBet { name: format!("{} / {}", s.name(true), s.name(false)), pays, rtp: ratio(back, 216), hit: ratio(wins, 216) }
        })
        .collect()
}

/// `paytable simulate` for a dice table: `games` rounds through the
/// production draw (a golpe of banca francesa, a throw of sic bo) with one
/// chip on every bet of the cloth; the exact RTP of that layout beside.
pub fn simulate(banca: bool, games: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> (crate::simulate::SimResult, BigRational) {
    let bets = if banca { Chance::ALL.len() as u64 } else { Spot::all().len() as u64 };
    let round = |rng: &mut meters::StreamRng| -> u64 {
        if banca {
            match banca_francesa::golpe(rng).ok().and_then(|g| g.last().and_then(banca_francesa::decides)) {
                Some(d) => Chance::ALL.iter().map(|&c| banca_francesa::returned(c, 1, d)).sum(),
                None => 0,
            }
        } else {
            let t = game_core::dice::throw(rng);
            Spot::all().iter().map(|s| s.returned(1, &t)).sum()
        }
    };
    let r = crate::simulate::rounds(games, seed, threads, bets, progress, round);
    let figures = if banca { banca_francesa_figures() } else { sic_bo_figures() };
    let exact = figures.iter().map(|b| b.rtp.clone()).fold(BigRational::from_integer(0.into()), |a, b| a + b) / BigRational::from_integer(BigInt::from(bets));
    (r, exact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floor::Floor;
    use crate::table_bet::{lowest, refusals};

    /// §5.6: 62/63 for every chance of banca francesa; §7: sic bo's figures,
    /// the lowest 5/6 (a two-dice combination).
    #[test]
    fn the_exact_figures_are_the_digests() {
        let bf = banca_francesa_figures();
        assert_eq!(bf.len(), 3);
        assert!(bf.iter().all(|b| b.rtp == ratio(62, 63)));
        assert_eq!(bf[0].hit, ratio(1, 63));
        let sb = sic_bo_figures();
        assert_eq!(sb.len(), 50);
        let rtp = |name: &str| sb.iter().find(|b| b.name.ends_with(name)).unwrap().rtp.clone();
        assert_eq!(rtp("/ small (4-10)"), ratio(35, 36));
        assert_eq!(rtp("/ number 3"), ratio(199, 216));
        assert_eq!(rtp("/ double 2-2"), ratio(49, 54));
        assert_eq!(rtp("/ triple 6-6-6"), ratio(191, 216));
        assert_eq!(rtp("/ any triple"), ratio(11, 12));
        assert_eq!(rtp("/ total 7"), ratio(65, 72));
        assert_eq!(lowest(&sb).unwrap().rtp, ratio(5, 6));
        assert!(refusals("cussec", &sb, &Floor::legal_minimum()).is_empty());
        let r = refusals("cussec", &sb, &Floor::from_percent("85").unwrap());
        assert_eq!(r.len(), 15, "the 15 two-dice combinations: {r:?}");
        assert!(r[0].contains("83.3333"), "{r:?}");
    }

    #[test]
    fn the_simulations_agree_with_the_exact_figures() {
        for banca in [true, false] {
            let (r, exact) = simulate(banca, 200_000, 9, 2, &|_| {});
            let (lo, hi) = r.ci99();
            let e = num_traits::ToPrimitive::to_f64(&exact).unwrap();
            assert!(lo <= e && e <= hi, "banca {banca}: {e} outside {lo}–{hi}");
        }
    }

    #[test]
    fn tables_the_text_does_not_allow_are_refused_by_name() {
        let ok = "SicBoPaytable(\n id: \"c\",\n name: \"C\",\n minimum: 1,\n maximum: 100,\n chips: [1, 5],\n)";
        assert!(compile_sic_bo("c.ron", ok).is_ok());
        let e = compile_sic_bo("c.ron", &ok.replace("maximum: 100", "maximum: 0")).unwrap_err().to_string();
        assert!(e.contains("c.ron:5: maximum") && e.contains("under the minimum"), "{e}");
        let bf = "BancaFrancesaPaytable(\n id: \"b\",\n name: \"B\",\n minimum: 2,\n chips: [1, 2],\n)";
        let e = compile_banca_francesa("b.ron", bf).unwrap_err().to_string();
        assert!(e.contains("chip of 1 credits is under the minimum (2)"), "{e}");
    }
}
