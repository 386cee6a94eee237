//! Póquer de 3 cartas (`Poquer3CartasPaytable`, seed 000 P3-1…29, banked
//! by the house): the ranking and the 5 % commission are the text's; a
//! paytable sets the antes offered. The exact figure counts every ordered
//! pair of disjoint hands (22,100 × 18,424): between two disjoint hands
//! the combination and then the best single card always decide (no two
//! hands share a card), so the player wins exactly half of the pairs that
//! P3-10 does not give the bank — those where both hands are zero without
//! pictures. The ante returns 39/20 on a win: RTP = 39/20 × P(win) =
//! 152401359/156604000 (97.3164 %).
//!
//! ```ron
//! Poquer3CartasPaytable(id: "poquer-3-cartas", name: "Póquer de 3 Cartas", antes: [20, 40, 100])
//! ```

use game_core::poquer_3_cartas::Poquer3CartasGame;
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
pub struct Poquer3CartasPaytable {
    pub id: String,
    pub name: String,
    /// The antes offered, in credits.
    pub antes: Vec<u64>,
}

pub fn compile_poquer_3_cartas(file: &str, src: &str) -> Result<Poquer3CartasGame, PaytableError> {
    let p: Poquer3CartasPaytable = parse(file, src)?;
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let mut e = Problems::new(&r);
    check_name(&mut e, &p.id, &p.name);
    if p.antes.is_empty() {
        e.at(Path::default().field("antes"), "at least one ante is needed");
    }
    for (i, &a) in p.antes.iter().enumerate() {
        if a == 0 {
            e.at(Path::default().field("antes").index(i), "an ante of 0 credits stakes nothing");
        }
    }
    let mut antes = p.antes.clone();
    antes.sort_unstable();
    antes.dedup();
    e.result(|| Poquer3CartasGame { id: p.id.clone(), name: p.name.clone(), antes })
}

fn ratio(n: u64, d: u64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d.max(1)))
}

/// The probability that the player wins a round, exact (game-core's
/// count over every ordered pair of disjoint hands).
pub fn player_wins() -> BigRational {
    let (wins, pairs) = game_core::poquer_3_cartas::player_wins_of_every_pair();
    ratio(wins, pairs)
}

/// The table's one bet, the ante: its exact return and how often it wins.
pub fn poquer_3_cartas_figures() -> Vec<TableBet> {
    let win = player_wins();
    vec![TableBet { name: "ante / ante".into(), pays: "1:1 −5%".into(), rtp: &win * ratio(39, 20), hit: win }]
}

/// `paytable simulate`: `games` rounds of the production deal with one
/// 20-cent step on the ante; the exact RTP beside.
pub fn simulate(games: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> (crate::simulate::SimResult, BigRational) {
    let table = Poquer3CartasGame { id: String::new(), name: String::new(), antes: vec![1] };
    let round = |rng: &mut meters::StreamRng| -> u64 {
        let d = table.deal(rng);
        let w = game_core::poquer_3_cartas::winner(&d.player, &d.bank);
        game_core::poquer_3_cartas::returned_cents(game_core::poquer_3_cartas::CENT_STEP, w).unwrap_or(0)
    };
    let r = crate::simulate::rounds(games, seed, threads, game_core::poquer_3_cartas::CENT_STEP, progress, round);
    (r, player_wins() * ratio(39, 20))
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::poquer_3_cartas::{Winner, winner};

    /// An independent brute force: every ordered pair of disjoint hands
    /// played through `winner` (P3-8…10 as game-core reads them), against
    /// the counting argument (pairs less both zero without pictures, halved).
    #[test]
    fn the_exact_figure_is_every_pair_of_hands_played() {
        let all = game_core::poquer_3_cartas::every_hand();
        let mut wins = 0u64;
        let mut pairs = 0u64;
        for (a, p) in &all {
            for (b, q) in &all {
                if a & b == 0 {
                    pairs += 1;
                    wins += u64::from(winner(p, q) == Winner::Player);
                }
            }
        }
        assert_eq!(pairs, 22_100 * 18_424);
        assert_eq!(player_wins(), ratio(wins, pairs));
        let f = poquer_3_cartas_figures();
        assert_eq!(f[0].rtp, ratio(152_401_359, 156_604_000));
        assert_eq!(crate::roulette::pct(&f[0].rtp), "97.3164");
    }

    #[test]
    fn the_simulation_agrees_with_the_exact_figure() {
        let (r, exact) = simulate(200_000, 3, 2, &|_| {});
        let (lo, hi) = r.ci99();
        let e = num_traits::ToPrimitive::to_f64(&exact).unwrap();
        assert!(lo <= e && e <= hi, "{e} outside {lo}–{hi}");
    }

    #[test]
    fn tables_the_text_does_not_allow_are_refused_by_line() {
        let ok = "Poquer3CartasPaytable(\n id: \"p3\",\n name: \"P3\",\n antes: [40, 20, 20],\n)";
        assert_eq!(compile_poquer_3_cartas("p.ron", ok).unwrap().antes, vec![20, 40]);
        let e = compile_poquer_3_cartas("p.ron", &ok.replace("[40, 20, 20]", "[40, 0]")).unwrap_err().to_string();
        assert!(e.contains("p.ron:4:") && e.contains("an ante of 0 credits"), "{e}");
        let e = compile_poquer_3_cartas("p.ron", &ok.replace("[40, 20, 20]", "[]")).unwrap_err().to_string();
        assert!(e.contains("at least one ante"), "{e}");
        let e = compile_poquer_3_cartas("p.ron", &ok.replace("antes", "commission: 5,\n antes")).unwrap_err().to_string();
        assert!(e.contains("commission"), "the 5% is the text's, not a field: {e}");
    }
}
