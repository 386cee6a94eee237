//! What the rules pay for a round, read from its journal with game-core
//! alone: the independent reference the host's kill and power-cut tests
//! check every settled round against.
#![allow(clippy::unwrap_used, dead_code)]

use std::collections::BTreeMap;

use game_core::cards::Card;
use game_core::double_up::Gamble;
use game_core::draw_poker::{Dealt, DrawPokerGame};
use game_core::poker::{Category, evaluate};
use game_core::reels::{ReelGame, ReelRound};
use game_core::stud_poker::{Decision, StudDeal, StudPokerGame};
use game_host::kinds::draw_poker::DrawRecord;
use meters::RoundRecall;

use crate::test_config::workspace;

/// The games' rules, loaded from their approved artifacts.
pub struct Rules {
    pub reels: BTreeMap<String, ReelGame>,
    pub draw: BTreeMap<String, DrawPokerGame>,
    pub stud: StudPokerGame,
    pub blackjack: BTreeMap<String, game_core::blackjack::BlackjackGame>,
    pub bingo: BTreeMap<String, game_core::bingo::BingoGame>,
    pub baccarat: BTreeMap<String, game_core::baccarat::BaccaratGame>,
    pub desafio: game_core::desafio_ao_casino::DesafioAoCasinoGame,
}

/// A reel round's win in credits, worked out again from its journaled
/// stops with game-core: every spin evaluated anew, and the free games
/// exactly those the spins before them awarded.
pub fn reel_win(game: &ReelGame, round: &ReelRound) -> u64 {
    let base = game.evaluate(&round.base.stops, round.bet, false);
    let mut owed = base.free_games_awarded;
    let mut win = base.win;
    // A sticky wild's filled reels, from free game to free game (issue 50).
    let mut held = 0;
    for spin in &round.free_spins {
        assert!(owed > 0, "a free game no spin awarded");
        owed -= 1;
        let again = game.evaluate_held(&spin.stops, round.bet, true, held);
        owed += again.free_games_awarded;
        held = game.held_after(&again);
        win += again.win;
    }
    assert_eq!(owed, 0, "free games awarded but not played");
    // Issue 50: the hold-and-spin the base window started (its own draws,
    // committed): started exactly when the window shows enough bonus
    // symbols, paying its pearls' values and the grand of a full screen.
    if let Some(rule) = &game.hold_and_spin {
        let shown = game.window(&round.base.stops, false).iter().flatten().filter(|&&x| x == rule.symbol).count();
        assert_eq!(round.hold.is_some(), shown >= usize::from(rule.trigger), "a feature the window did not start, or one it did not play");
    }
    if let Some(h) = &round.hold {
        let rule = game.hold_and_spin.as_ref().expect("a feature in a game without one");
        assert!(h.held().all(|c| c.credits == rule.pay(c.value) * round.bet.credits_per_line));
        let grand = if h.full { rule.jackpots.grand * round.bet.credits_per_line } else { 0 };
        assert_eq!(h.win, h.held().map(|c| c.credits).sum::<u64>() + grand);
        win += h.win;
    }
    win
}

pub fn rules() -> Rules {
    let manifest = paytables::artifact::read_manifest(&workspace().join("assets/paytables/approved.ron")).unwrap();
    let load = |id: &str| {
        let path = workspace().join(format!("assets/paytables/compiled/{id}.json"));
        paytables::artifact::load_approved(&path, &manifest, &paytables::floor::Floor::legal_minimum()).unwrap()
    };
    let mut reels = BTreeMap::new();
    for id in ["classic-sevens", "ocean-treasure", "floresta-243", "dragao-1024", "minas-cascata"] {
        let paytables::artifact::CompiledGame::Reels(g) = load(id) else { panic!("{id} is not a reel game") };
        reels.insert(id.to_owned(), g);
    }
    let mut draw = BTreeMap::new();
    for id in ["jacks-or-better-9-6", "deuces-wild"] {
        let paytables::artifact::CompiledGame::DrawPoker(g) = load(id) else { panic!("{id} is not draw poker") };
        draw.insert(id.to_owned(), g);
    }
    let paytables::artifact::CompiledGame::StudPoker(stud) = load("poquer-sem-descarte") else { panic!("not a stud game") };
    let mut blackjack = BTreeMap::new();
    for id in ["blackjack", "blackjack-classico"] {
        let paytables::artifact::CompiledGame::Blackjack(g) = load(id) else { panic!("{id} is not blackjack") };
        blackjack.insert(id.to_owned(), g);
    }
    let mut bingo = BTreeMap::new();
    for id in ["bingo-30", "bingo-75", "bingo-80", "bingo-90"] {
        let paytables::artifact::CompiledGame::Bingo(g) = load(id) else { panic!("{id} is not bingo") };
        bingo.insert(id.to_owned(), g);
    }
    let mut baccarat = BTreeMap::new();
    for id in ["bacara", "bacara-6-sem-comissao", "bacara-macau", "bacara-ez", "bacara-empate-9"] {
        let paytables::artifact::CompiledGame::Baccarat(g) = load(id) else { panic!("{id} is not baccarat") };
        baccarat.insert(id.to_owned(), g);
    }
    let paytables::artifact::CompiledGame::DesafioAoCasino(desafio) = load("desafio-ao-casino") else { panic!("not a desafio ao casino table") };
    Rules { reels, draw, stud, blackjack, bingo, baccarat, desafio }
}

/// What the rules pay (cents, before progressives) for the outcome and
/// decisions a settled round committed, read from its journal steps.
pub fn rules_win(r: &RoundRecall, rules: &Rules) -> u64 {
    let gambles: Vec<Gamble> = r.steps.iter().filter(|s| s.step.name == "gamble").map(|s| serde_json::from_value(s.step.data.clone()).unwrap()).collect();
    let first = &r.steps[0].step;
    let credits = match first.name.as_str() {
        "spin" => {
            let round: ReelRound = serde_json::from_value(first.data["deal"].clone()).unwrap();
            reel_win(&rules.reels[first.data["game"].as_str().unwrap()], &round)
        }
        "deal" => {
            let game = first.data["game"].as_str().unwrap();
            // One hand's bet is its coins; a multi-hand bet names its hands.
            let bet = &first.data["bet"];
            let coins = bet.as_u64().or_else(|| bet["coins"].as_u64()).unwrap() as u32;
            let dealt: Dealt = serde_json::from_value(first.data["deal"].clone()).unwrap();
            let more: Vec<[Card; 5]> = first.data["deal"].get("more").map(|m| serde_json::from_value(m.clone()).unwrap()).unwrap_or_default();
            assert_eq!(more.len() + 1, bet["hands"].as_u64().unwrap_or(1) as usize, "round {}: a deal for every hand", r.round);
            let draw = r.steps.iter().find(|s| s.step.name == "draw").expect("a settled draw-poker round has its draw");
            let draw: DrawRecord = serde_json::from_value(draw.step.data.clone()).unwrap();
            // The final hand is the committed deal with the committed holds;
            // each further hand, the dealt cards held and its own
            // replacements in order.
            assert_eq!(draw.hand, dealt.draw(draw.hold), "round {}: the drawn hand is not the committed one", r.round);
            assert_eq!(draw.more.len(), more.len());
            for (k, replacements) in more.iter().enumerate() {
                let mut cards = [Card::JOKER; 10];
                cards[..5].copy_from_slice(&dealt.hand());
                cards[5..].copy_from_slice(replacements);
                assert_eq!(draw.more[k], Dealt { cards }.draw(draw.hold), "round {}: hand {} is not the committed one", r.round, k + 2);
            }
            std::iter::once(&draw.hand).chain(&draw.more).map(|h| rules.draw[game].win(h, coins)).sum()
        }
        "stud-deal" => {
            let deal: StudDeal = serde_json::from_value(first.data["deal"].clone()).unwrap();
            let ante = first.data["bet"]["ante"].as_u64().unwrap();
            let jackpot = first.data["bet"]["jackpot"].as_bool().unwrap_or(false);
            let decision = if r.steps.iter().any(|s| s.step.name == "raise") { Decision::Raise } else { Decision::Fold };
            // The jackpot side bet's fixed sums (PSD 35–42); its royal and
            // straight flushes are progressive awards, counted apart.
            let side = match (&rules.stud.jackpot, jackpot) {
                (Some(j), true) if decision == Decision::Raise || j.pays_on_fold => match evaluate(&deal.player).category() {
                    Category::FourOfAKind | Category::FullHouse | Category::Flush => j.award(evaluate(&deal.player).category(), 0).amount,
                    _ => 0,
                },
                _ => 0,
            };
            rules.stud.settle(&deal, ante, decision).returned + side
        }
        "roulette-spin" => {
            // Every spot of the journaled layout, settled on the journaled
            // pocket (AR 42): the stake on each spot is the one the core took.
            let spots: Vec<(game_core::roulette::Spot, u64)> = serde_json::from_value(first.data["bet"]["spots"].clone()).unwrap();
            let pocket = first.data["deal"]["pocket"].as_u64().unwrap() as u8;
            let staked: u64 = spots.iter().map(|(_, s)| s).sum();
            assert_eq!(staked * r.denom, r.stake, "round {}: the stake is the layout's", r.round);
            game_core::roulette::RouletteGame::settle(&spots, pocket).iter().map(|(_, _, back)| back).sum()
        }
        "banca-golpe" => {
            // Every throw before the last decides nothing; the last decides
            // (BF 13), and settles each chance (BF 6, BF 26).
            let spots: Vec<(game_core::dice::banca_francesa::Chance, u64)> = serde_json::from_value(first.data["bet"]["spots"].clone()).unwrap();
            let throws: Vec<game_core::dice::Throw> = serde_json::from_value(first.data["deal"]["throws"].clone()).unwrap();
            let (last, before) = throws.split_last().expect("a golpe has a throw");
            assert!(before.iter().all(|t| game_core::dice::banca_francesa::decides(t).is_none()), "round {}: a decisive throw before the last", r.round);
            let decided = game_core::dice::banca_francesa::decides(last).expect("the last throw decides");
            spots.iter().map(|&(c, stake)| game_core::dice::banca_francesa::returned(c, stake, decided)).sum()
        }
        "sic-bo-throw" => {
            let spots: Vec<(game_core::dice::sic_bo::Spot, u64)> = serde_json::from_value(first.data["bet"]["spots"].clone()).unwrap();
            let dice: game_core::dice::Throw = serde_json::from_value(first.data["deal"]["dice"].clone()).unwrap();
            spots.iter().map(|&(s, stake)| s.returned(stake, &dice)).sum()
        }
        "poquer-3-cartas-deal" => {
            // P3-8…10 and P3-29: the better hand wins, the ante paid 1:1
            // less 5 % in cents (an ante on its 20-cent step): no double-up.
            let deal: game_core::poquer_3_cartas::Deal3 = serde_json::from_value(first.data["deal"].clone()).unwrap();
            let ante = first.data["bet"]["ante"].as_u64().unwrap();
            assert_eq!(ante * r.denom, r.stake, "round {}: the stake is the ante", r.round);
            assert!(gambles.is_empty(), "round {}: póquer de 3 cartas offers no double-up", r.round);
            let w = game_core::poquer_3_cartas::winner(&deal.player, &deal.bank);
            return game_core::poquer_3_cartas::returned_cents(ante * r.denom, w).expect("an ante on its cent step");
        }
        "craps-series" => {
            // Rules 20, 22 and 24 read from the totals alone: each spot on
            // the roll that decides it; no roll after the last decision.
            let spots: Vec<(game_core::dice::craps::Spot, u64)> = serde_json::from_value(first.data["bet"]["spots"].clone()).unwrap();
            let rolls: Vec<[u8; 2]> = serde_json::from_value(first.data["deal"]["rolls"].clone()).unwrap();
            let (back, last) = craps_settled(&spots, &rolls);
            assert_eq!(last + 1, rolls.len(), "round {}: a roll after every bet was decided", r.round);
            assert!(gambles.is_empty(), "round {}: craps offers no double-up", r.round);
            back
        }
        "war-deal" => {
            // DC-9…14: unequal first cards settle the ante; equal ones, the
            // decision committed after them (war with its raise, or
            // surrender); the tie bet settles on the first two (DC-11).
            use game_core::desafio_ao_casino::{TieChoice, WarDeal, settle};
            let deal: WarDeal = serde_json::from_value(first.data["deal"].clone()).unwrap();
            let ante = first.data["bet"]["ante"].as_u64().unwrap();
            let tie = if first.data["bet"]["tie"].as_bool().unwrap_or(false) { rules.desafio.tie_bet.expect("a tie bet the table offers") } else { 0 };
            let choice = r.steps[1..].iter().find_map(|s| match s.step.name.as_str() {
                "war" => Some(TieChoice::War),
                "surrender" => Some(TieChoice::Surrender),
                _ => None,
            });
            assert_eq!(choice.is_some(), deal.tied(), "round {}: a decision exactly when the first cards tie", r.round);
            let raise = if choice == Some(TieChoice::War) { ante } else { 0 };
            assert_eq!((ante + tie + raise) * r.denom, r.stake, "round {}: the ante, the tie bet and the raise", r.round);
            assert!(gambles.is_empty(), "round {}: desafio ao casino offers no double-up", r.round);
            let back = settle(&deal, choice);
            ante / 2 * back.half_antes + if deal.tied() { tie * back.tie_bets } else { 0 }
        }
        "fish-prawn-crab-throw" => {
            // Art. 6–7: the three figure dice settle every place offered.
            let spots: Vec<(game_core::dice::fish_prawn_crab::Spot, u64)> = serde_json::from_value(first.data["bet"]["spots"].clone()).unwrap();
            let dice: game_core::dice::Throw = serde_json::from_value(first.data["deal"]["dice"].clone()).unwrap();
            spots.iter().map(|&(s, stake)| s.returned(stake, &dice)).sum()
        }
        "boule-spin" => {
            // BO-8 and BO-9: the compartment the ball came to rest in
            // settles every chance (the star every other chance's loss).
            let spots: Vec<(game_core::boule::Spot, u64)> = serde_json::from_value(first.data["bet"]["spots"].clone()).unwrap();
            let compartment = first.data["deal"]["compartment"].as_u64().unwrap() as u8;
            assert!(game_core::boule::WHEEL.contains(&compartment), "round {}: no such compartment {compartment}", r.round);
            spots.iter().map(|&(s, stake)| s.returned(stake, compartment)).sum()
        }
        "roda-da-sorte-spin" => {
            // RS-5/RS-6: the section under the pointer pays its kind's odds.
            let spots: Vec<(game_core::roda_da_sorte::Section, u64)> = serde_json::from_value(first.data["bet"]["spots"].clone()).unwrap();
            let stop = first.data["deal"]["section"].as_u64().unwrap() as usize;
            let stopped = game_core::roda_da_sorte::WHEEL[stop];
            spots.iter().map(|&(s, stake)| s.returned(stake, stopped)).sum()
        }
        "fantan-count" => {
            // Art. 6–9: the remainder settles every chance, each prize less
            // the bank's 5 % in cents (a stake on its cent step): no
            // double-up follows.
            let spots: Vec<(game_core::fantan::Spot, u64)> = serde_json::from_value(first.data["bet"]["spots"].clone()).unwrap();
            let remainder = first.data["deal"]["remainder"].as_u64().unwrap() as u8;
            assert!((1..=4).contains(&remainder), "round {}: no remainder {remainder}", r.round);
            assert!(gambles.is_empty(), "round {}: fantan offers no double-up", r.round);
            return spots.iter().map(|&(s, stake)| s.returned_cents(stake * r.denom, remainder).expect("a stake on its cent step")).sum();
        }
        "baccarat-coup" => {
            // The coup played from the six journaled cards (PB 23, 25,
            // [002 Art. 9]), each spot settled in cents (a banca win at 5%
            // commission is not whole credits): no double-up follows.
            let spots: Vec<(game_core::baccarat::Spot, u64)> = serde_json::from_value(first.data["bet"]["spots"].clone()).unwrap();
            let cards: [Card; 6] = serde_json::from_value(first.data["deal"]["cards"].clone()).unwrap();
            let coup = game_core::baccarat::Coup::play(&cards);
            let commission = rules.baccarat[first.data["game"].as_str().unwrap()].payouts();
            assert!(gambles.is_empty(), "round {}: baccarat offers no double-up", r.round);
            return spots.iter().map(|&(s, stake)| s.returned_cents(stake * r.denom, &coup, commission).expect("a stake of whole cents")).sum();
        }
        "blackjack-deal" => {
            // The hand replayed from the journaled shoe and decisions
            // (BJ 20–50): every stake's return, insurance and the bonus.
            let game = &rules.blackjack[first.data["game"].as_str().unwrap()];
            let bet = first.data["bet"]["bet"].as_u64().unwrap();
            let shoe: Vec<Card> = serde_json::from_value(first.data["deal"]["cards"].clone()).unwrap();
            assert_eq!(shoe.len(), game.shoe_size(), "round {}: the whole shoe is committed", r.round);
            let decisions: Vec<game_core::blackjack::Action> =
                r.steps[1..].iter().filter(|s| s.step.name != "gamble").map(|s| serde_json::from_value(s.step.data["action"].clone()).unwrap()).collect();
            let round = game_core::blackjack::Round::replay(game.rules, bet, shoe, &decisions).unwrap();
            round.settlement().expect("a settled hand is done").returned()
        }
        "bingo-deal" => {
            // The cards and balls replayed with each purchase (M-13, M-14):
            // every card's highest pattern after the balls shown.
            let game = &rules.bingo[first.data["game"].as_str().unwrap()];
            let bet = first.data["bet"]["bet"].as_u64().unwrap();
            let cards: Vec<game_core::bingo::Card> = serde_json::from_value(first.data["deal"]["cards"].clone()).unwrap();
            let balls: Vec<u8> = serde_json::from_value(first.data["deal"]["balls"].clone()).unwrap();
            assert_eq!(balls.len(), game.sequence_len(), "round {}: the whole ball sequence is committed", r.round);
            let buys: Vec<bool> = r.steps[1..].iter().filter(|s| s.step.name != "gamble").map(|s| s.step.data["decision"] == "Buy").collect();
            game_core::bingo::Round::replay(game, bet, cards, balls, &buys).unwrap().win()
        }
        other => panic!("round {} began with an unknown step {other}", r.round),
    };
    // The double-up: each gamble stakes what the last one left.
    let mut at_stake = credits;
    for g in &gambles {
        assert_eq!(g.stake, at_stake, "round {}: a gamble staked another amount than was won", r.round);
        at_stake = g.result;
    }
    at_stake * r.denom
}

/// Craps read again from the rolls' totals, written from the text (seed
/// 000 rules 20, 22, 24, 25) without game-core's settlement: what the
/// layout returns (the bar is the shipped table's 12) and the roll at which
/// its last bet was decided.
pub fn craps_settled(spots: &[(game_core::dice::craps::Spot, u64)], rolls: &[[u8; 2]]) -> (u64, usize) {
    use game_core::dice::craps::Spot;
    let totals: Vec<u8> = rolls.iter().map(|r| r[0] + r[1]).collect();
    let first = totals[0];
    // The first roll at which `hit` or a 7 comes, from `from`.
    let until = |from: usize, hit: &dyn Fn(usize) -> bool| (from..totals.len()).find(|&k| totals[k] == 7 || hit(k)).expect("decided within the series");
    let (mut back, mut last) = (0, 0);
    for &(spot, stake) in spots {
        let (at, times) = match spot {
            Spot::PassLine | Spot::DontPass => {
                let pass = spot == Spot::PassLine;
                match first {
                    7 | 11 => (0, if pass { 2 } else { 0 }),
                    12 if !pass => (0, 1),
                    2 | 3 | 12 => (0, if pass { 0 } else { 2 }),
                    point => {
                        let k = until(1, &|k| totals[k] == point);
                        (k, if (totals[k] == point) == pass { 2 } else { 0 })
                    }
                }
            }
            Spot::Big(n) => {
                let k = until(0, &|k| totals[k] == n);
                (k, if totals[k] == n { 2 } else { 0 })
            }
            Spot::Hard(n) => {
                let k = until(0, &|k| totals[k] == n);
                let hard = totals[k] == n && rolls[k][0] == rolls[k][1];
                (k, if hard { if n == 4 || n == 10 { 8 } else { 10 } } else { 0 })
            }
            Spot::UnderSeven => (0, if first < 7 { 2 } else { 0 }),
            Spot::OverSeven => (0, if first > 7 { 2 } else { 0 }),
            Spot::AnySeven => (0, if first == 7 { 5 } else { 0 }),
            Spot::AnyCraps => (0, if matches!(first, 2 | 3 | 12) { 8 } else { 0 }),
            Spot::Total(n) => (
                0,
                if first != n {
                    0
                } else if n == 2 || n == 12 {
                    31
                } else {
                    16
                },
            ),
            Spot::Field => (
                0,
                match first {
                    2 | 12 => 3,
                    3 | 4 | 9 | 10 | 11 => 2,
                    _ => 0,
                },
            ),
        };
        back += stake * times;
        last = last.max(at);
    }
    (back, last)
}
