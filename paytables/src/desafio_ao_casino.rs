//! Desafio ao casino (`DesafioAoCasinoPaytable`, casino war, seed 000
//! DC-1…14): the prizes are the text's; a paytable sets the decks in the
//! shoe (DC-2), the antes and, where offered, the tie bet's stake. The
//! exact figures count the shoe with its removal (`game_core::
//! desafio_ao_casino::tie_odds`): the ante's return under each tie
//! decision — going to war is the better one for every shoe, and the
//! figure of record — returned over everything staked (the raise
//! included, as the meters count it), and the tie bet's 11 × P(tie). The
//! tie bet clears 80 % only from 6 decks: below, the compiler refuses it by
//! its line with its figure (M-17).
//!
//! ```ron
//! DesafioAoCasinoPaytable(id: "desafio", name: "Desafio ao Casino", decks: 6, antes: [2, 10], tie_bet: Some(1))
//! ```

use game_core::desafio_ao_casino::{DesafioAoCasinoGame, tie_odds};
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};

use crate::compile::Problems;
use crate::error::{PaytableError, Reporter};
use crate::floor::Floor;
use crate::locate::Path;
use crate::poker_compile::{check_name, parse};
use crate::roulette::pct;
use crate::table_bet::TableBet;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DesafioAoCasinoPaytable {
    pub id: String,
    pub name: String,
    /// The decks in the shoe, 1–8.
    pub decks: u8,
    /// The antes offered, in credits (even: a surrender returns half).
    pub antes: Vec<u64>,
    /// The tie bet's stake in credits, where the table offers it.
    #[serde(default)]
    pub tie_bet: Option<u64>,
}

fn ratio(n: u64, d: u64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d.max(1)))
}

/// The ante's figures when every tie is met by `war` (or surrendered):
/// what is returned over what is staked, per round, and how often the
/// round returns more than its stake.
pub fn ante_figures(decks: u8, war: bool) -> TableBet {
    let ((a, b), (c, d)) = tie_odds(u64::from(decks.max(1)));
    let (tie, war_tie) = (ratio(a, b), ratio(c, d));
    let one = ratio(1, 1);
    let no_tie = &one - &tie;
    // Half the rounds without a tie are won, returning two antes.
    let mut returned = no_tie.clone();
    let mut staked = one.clone();
    let mut hit = &no_tie / ratio(2, 1);
    if war {
        // War: won 3 antes back, tied 4, lost 0, on two antes staked.
        let won = (&one - &war_tie) / ratio(2, 1);
        returned += &tie * (&won * ratio(3, 1) + &war_tie * ratio(4, 1));
        staked += &tie;
        hit += &tie * (won + war_tie);
    } else {
        returned += &tie / ratio(2, 1);
    }
    let name = if war { "ante, going to war on ties / ante, war on ties" } else { "ante, surrendering on ties / ante, surrender on ties" };
    TableBet { name: name.into(), pays: "1:1".into(), rtp: returned / staked, hit }
}

/// The tie bet: 10:1 on equal first cards (DC-11).
pub fn tie_bet_figures(decks: u8) -> TableBet {
    let ((a, b), _) = tie_odds(u64::from(decks.max(1)));
    let tie = ratio(a, b);
    TableBet { name: "aposta de empate / tie bet".into(), pays: "10:1".into(), rtp: &tie * ratio(11, 1), hit: tie }
}

/// Every bet of the table.
pub fn desafio_figures(game: &DesafioAoCasinoGame) -> Vec<TableBet> {
    let mut v = vec![ante_figures(game.decks, true), ante_figures(game.decks, false)];
    if game.tie_bet.is_some() {
        v.push(tie_bet_figures(game.decks));
    }
    v
}

pub fn compile_desafio_ao_casino(file: &str, src: &str) -> Result<DesafioAoCasinoGame, PaytableError> {
    let p: DesafioAoCasinoPaytable = parse(file, src)?;
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let mut e = Problems::new(&r);
    check_name(&mut e, &p.id, &p.name);
    if !(1..=8).contains(&p.decks) {
        e.at(Path::default().field("decks"), format!("a shoe of {} decks: DC-2 takes one or more, and this table takes up to 8", p.decks));
    }
    if p.antes.is_empty() {
        e.at(Path::default().field("antes"), "at least one ante is needed");
    }
    for (i, &a) in p.antes.iter().enumerate() {
        if a == 0 || a % 2 == 1 {
            e.at(Path::default().field("antes").index(i), format!("an ante of {a} credits: antes are even, so that a surrender returns half (DC-12 a)"));
        }
    }
    let floor = Floor::legal_minimum();
    match p.tie_bet {
        Some(0) => e.at(Path::default().field("tie_bet"), "a tie bet of 0 credits stakes nothing"),
        Some(_) if (1..=8).contains(&p.decks) => {
            let f = tie_bet_figures(p.decks);
            if f.rtp < *floor.value() {
                e.at(
                    Path::default().field("tie_bet"),
                    format!(
                        "the tie bet returns {}% ({}) with {} decks, under the floor of {}% (M-17): it clears it from 6 decks",
                        pct(&f.rtp),
                        f.rtp,
                        p.decks,
                        pct(floor.value())
                    ),
                );
            }
        }
        _ => {}
    }
    let mut antes = p.antes.clone();
    antes.sort_unstable();
    antes.dedup();
    e.result(|| DesafioAoCasinoGame { id: p.id.clone(), name: p.name.clone(), decks: p.decks, antes, tie_bet: p.tie_bet })
}

/// `paytable simulate`: `games` rounds of the production deal with an
/// ante of 2 units, every tie met by war; the return per initial ante
/// (the raise not counted as staked), exact beside.
pub fn simulate(
    game: &DesafioAoCasinoGame,
    games: u64,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> (crate::simulate::SimResult, BigRational) {
    use game_core::desafio_ao_casino::{TieChoice, settle};
    let round = |rng: &mut meters::StreamRng| -> u64 {
        let d = game.deal(rng);
        settle(&d, d.tied().then_some(TieChoice::War)).half_antes
    };
    let r = crate::simulate::rounds(games, seed, threads, 2, progress, round);
    let ((a, b), _) = tie_odds(u64::from(game.decks.max(1)));
    (r, ante_figures(game.decks, true).rtp * (ratio(1, 1) + ratio(a, b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::desafio_ao_casino::{TieChoice, WarDeal, settle};

    /// An independent count: every sequence of the four cards that matter
    /// (the two first, the two war cards) from a 1-deck and a 2-deck shoe,
    /// settled by game-core, against the figures.
    #[test]
    fn the_figures_are_every_four_cards_of_the_shoe_played() {
        for decks in [1u8, 2] {
            let shoe: Vec<game_core::cards::Card> = (0..52 * u32::from(decks)).map(|i| game_core::cards::Card::from_index((i % 52) as u8).unwrap()).collect();
            let n = shoe.len();
            let (mut back, mut staked, mut back_s, mut ties, mut all) = (0u64, 0u64, 0u64, 0u64, 0u64);
            for i in 0..n {
                for j in (0..n).filter(|&j| j != i) {
                    if shoe[i].rank() != shoe[j].rank() {
                        // Not a tie: counted once for every pair of war cards.
                        let w = ((n - 2) * (n - 3)) as u64;
                        let r = settle(&WarDeal { player: shoe[i], house: shoe[j], burned: [shoe[i]; 6], player_war: shoe[i], house_war: shoe[j] }, None);
                        back += w * r.half_antes;
                        back_s += w * r.half_antes;
                        staked += w * 2;
                        all += w;
                        continue;
                    }
                    for k in (0..n).filter(|&k| k != i && k != j) {
                        for l in (0..n).filter(|&l| l != i && l != j && l != k) {
                            let d = WarDeal { player: shoe[i], house: shoe[j], burned: [shoe[i]; 6], player_war: shoe[k], house_war: shoe[l] };
                            let war = settle(&d, Some(TieChoice::War));
                            back += war.half_antes;
                            staked += 2 * war.antes_staked;
                            back_s += settle(&d, Some(TieChoice::Surrender)).half_antes;
                            ties += 1;
                            all += 1;
                        }
                    }
                }
            }
            assert_eq!(ante_figures(decks, true).rtp, ratio(back, staked), "{decks} decks, war");
            let surrender_staked = 2 * all;
            assert_eq!(ante_figures(decks, false).rtp, ratio(back_s, surrender_staked), "{decks} decks, surrender");
            assert_eq!(tie_bet_figures(decks).rtp, ratio(11 * ties, all), "{decks} decks, tie bet");
        }
    }

    /// The digest's approximations (infinite deck: the main game about
    /// 97.6 % per ante before the raise, the tie bet 84.6 %) approached by
    /// eight decks; war the better decision for every shoe; the tie bet
    /// 81.35 % at 6 decks.
    #[test]
    fn war_is_the_better_decision_and_the_tie_bet_clears_80_from_6_decks() {
        for decks in 1..=8 {
            assert!(ante_figures(decks, true).rtp > ante_figures(decks, false).rtp, "{decks} decks");
            // game-core's integers (what the help page shows) agree.
            for war in [true, false] {
                let (n, d) = game_core::desafio_ao_casino::ante_return(u64::from(decks), war);
                assert_eq!(BigRational::new(BigInt::from(n), BigInt::from(d)), ante_figures(decks, war).rtp, "{decks} decks, war {war}");
            }
        }
        assert_eq!(tie_bet_figures(6).rtp, ratio(253, 311));
        assert_eq!(pct(&tie_bet_figures(6).rtp), "81.3505");
        assert!(tie_bet_figures(4).rtp < *Floor::legal_minimum().value() && tie_bet_figures(6).rtp > *Floor::legal_minimum().value());
    }

    #[test]
    fn tables_the_text_does_not_allow_are_refused_by_line() {
        let ok = "DesafioAoCasinoPaytable(\n id: \"w\",\n name: \"W\",\n decks: 6,\n antes: [2, 10],\n tie_bet: Some(1),\n)";
        assert_eq!(compile_desafio_ao_casino("w.ron", ok).unwrap().decks, 6);
        let e = compile_desafio_ao_casino("w.ron", &ok.replace("decks: 6", "decks: 4")).unwrap_err().to_string();
        assert!(e.contains("w.ron:6:") && e.contains("the tie bet returns 79.7101% (55/69) with 4 decks") && e.contains("(M-17)"), "{e}");
        assert!(compile_desafio_ao_casino("w.ron", &ok.replace("decks: 6", "decks: 4").replace("tie_bet: Some(1),\n", "")).is_ok(), "no tie bet, no refusal");
        let e = compile_desafio_ao_casino("w.ron", &ok.replace("decks: 6", "decks: 9")).unwrap_err().to_string();
        assert!(e.contains("w.ron:4:") && e.contains("9 decks"), "{e}");
        let e = compile_desafio_ao_casino("w.ron", &ok.replace("[2, 10]", "[2, 5]")).unwrap_err().to_string();
        assert!(e.contains("w.ron:5:") && e.contains("ante of 5 credits"), "{e}");
    }
}
