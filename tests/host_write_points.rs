//! A power cut at each write point of a round, for every kind of game
//! (C-23, M-36), headless on real SQLite files.
//!
//! A scripted player plays one round of a game through the real
//! `Session`; the same round is then played again on a fresh critical
//! memory with the same lab seed and cut after each of the player's
//! actions (the session is leaked, as a power cut leaves it: no power-down
//! record). On the next boot the host resumes the round at its last
//! committed step, the player finishes it, and the round must be the one
//! the uninterrupted run drew (never drawn again), settled exactly once,
//! with a win that the rules give for its journaled outcome and decisions,
//! and credit that adds up to the cent.

use game_core::desafio_ao_casino::TieChoice;
use game_core::double_up::Colour;
use game_core::roulette::{CallBet, Spot};
use game_core::stud_poker::Decision;
use game_host::boot::{BootOptions, boot};
use game_host::command::Command;
use game_host::kind::BetControl;
use game_host::kinds::baccarat::Baccarat;
use game_host::kinds::banca_francesa::BancaFrancesa;
use game_host::kinds::boule::Boule;
use game_host::kinds::craps::Craps;
use game_host::kinds::desafio_ao_casino::DesafioAoCasino;
use game_host::kinds::draw_poker::{DrawDecision, DrawPoker};
use game_host::kinds::fantan::Fantan;
use game_host::kinds::fish_prawn_crab::FishPrawnCrab;
use game_host::kinds::roda_da_sorte::RodaDaSorte;
use game_host::kinds::roulette::{Roulette, RouletteEdit};
use game_host::kinds::sic_bo::SicBo;
use game_host::kinds::stud_poker::StudPoker;
use game_host::round::Phase;
use game_host::session::Session;
use meters::{RecallOutcome, RoundRecall};

use crate::journal_rules::{Rules, rules, rules_win};
use crate::test_config;

const NOTE: u64 = 5_000;

/// The player: one deterministic action for the round's phase, or None
/// when the round is over. Draw poker holds the first two cards; stud
/// raises; a win is gambled once on red, then collected.
fn act(s: &mut Session) -> Option<&'static str> {
    let r = s.round_info().filter(|r| r.phase != Phase::Ended)?;
    Some(match r.phase {
        Phase::Decisions if s.rules::<DrawPoker>().is_some() => {
            let hold = s.round::<DrawPoker>().map(|r| r.state.hold).unwrap_or_default();
            match (0..2).find(|&i| !hold.holds(i)) {
                Some(i) => {
                    assert!(s.decide::<DrawPoker>(DrawDecision::Toggle(i)));
                    "hold"
                }
                None => {
                    assert!(s.decide::<DrawPoker>(DrawDecision::Draw), "{:?}", s.message_text());
                    "draw"
                }
            }
        }
        Phase::Decisions if s.rules::<DesafioAoCasino>().is_some() => {
            assert!(s.decide::<DesafioAoCasino>(TieChoice::War), "{:?}", s.message_text());
            "war"
        }
        Phase::Decisions => {
            assert!(s.decide::<StudPoker>(Decision::Raise), "{:?}", s.message_text());
            "raise"
        }
        Phase::Presenting => {
            s.revealed();
            "revealed"
        }
        Phase::DoubleUp if r.gambles.is_empty() && s.double_up_offered() => {
            s.gamble(Colour::Red);
            "gamble"
        }
        Phase::DoubleUp | Phase::ProgressivePending => {
            s.collect();
            "collect"
        }
        Phase::Ended => return None,
    })
}

/// The bet: stud's side bet when asked; on a roulette table a straight, a
/// split, an even chance and a call bet; on a dice table or a wheel a few
/// of its chances.
fn place_bet(s: &mut Session, side_bet: bool) {
    if side_bet {
        s.adjust_bet(BetControl::SideBet, 1);
    }
    for spot in [serde_json::json!("Pequeno"), serde_json::json!("Ases")] {
        if s.rules::<BancaFrancesa>().is_some() {
            assert!(s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": spot } } }) }), "{:?}", s.message_text());
        }
    }
    for spot in [serde_json::json!("Small"), serde_json::json!({ "Single": 4 }), serde_json::json!({ "Total": 10 })] {
        if s.rules::<SicBo>().is_some() {
            assert!(s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": spot } } }) }), "{:?}", s.message_text());
        }
    }
    for spot in [serde_json::json!("Star"), serde_json::json!({ "Four": 8 }), serde_json::json!("Red")] {
        if s.rules::<Boule>().is_some() {
            assert!(s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": spot } } }) }), "{:?}", s.message_text());
        }
    }
    for spot in [serde_json::json!("One"), serde_json::json!("Moon")] {
        if s.rules::<RodaDaSorte>().is_some() {
            assert!(s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": spot } } }) }), "{:?}", s.message_text());
        }
    }
    for spot in [serde_json::json!("Small"), serde_json::json!({ "Figure": 5 }), serde_json::json!({ "TwoOfColour": "Blue" })] {
        if s.rules::<FishPrawnCrab>().is_some() {
            assert!(s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": spot } } }) }), "{:?}", s.message_text());
        }
    }
    for spot in [serde_json::json!("PassLine"), serde_json::json!({ "Hard": 6 })] {
        if s.rules::<Craps>().is_some() {
            assert!(s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": spot } } }) }), "{:?}", s.message_text());
        }
    }
    for spot in [serde_json::json!({ "Fan": 2 }), serde_json::json!({ "Kuoc": [3, 4] })] {
        if s.rules::<Fantan>().is_some() {
            assert!(s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": spot } } }) }), "{:?}", s.message_text());
        }
    }
    if s.rules::<Baccarat>().is_some() {
        // Ponto, empate, and 20 credits on banca (its 5% whole cents).
        let place = |s: &mut Session, spot: &str| s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": spot } } }) });
        assert!(place(s, "Player") && place(s, "Tie"), "{:?}", s.message_text());
        // One chip of 20 (the fourth chip): chips of 1 on banca are off its
        // 20-cent step and refused when placed (issue 45).
        s.command(Command::AdjustBet { control: game_host::kind::BetControl::Amount, delta: 3 });
        assert!(place(s, "Banker"), "{:?}", s.message_text());
        s.command(Command::AdjustBet { control: game_host::kind::BetControl::Amount, delta: -3 });
    }
    if s.rules::<Roulette>().is_some() {
        for edit in [
            RouletteEdit::Place { spot: Spot::Numbers(vec![17]) },
            RouletteEdit::Place { spot: Spot::Numbers(vec![14, 17]) },
            RouletteEdit::Place { spot: Spot::Red },
            RouletteEdit::Call { bet: CallBet::Voisins },
        ] {
            assert!(s.command(Command::EditBet { edit: serde_json::json!({ "Kind": edit }) }), "{:?}", s.message_text());
        }
    }
}

/// Boot on `db` with the lab seed, choose `game` when idle.
fn open(dir: &std::path::Path, config: &std::path::Path, game: &str, seed: u64) -> Session {
    let options = BootOptions { config: config.to_owned(), db: dir.join("egm.sqlite"), lab_seed: Some(seed), demo: false };
    let mut s = boot(&options).unwrap();
    if !s.in_round() {
        let i = s.games().iter().position(|g| g.id() == game).unwrap();
        s.choose_game(i);
    }
    s
}

/// The one round in critical memory, settled, checked against the rules
/// and the credit meter.
fn check_settled(s: &Session, rules: &Rules) -> RoundRecall {
    let rounds = s.machine().recall(10).unwrap();
    assert_eq!(rounds.len(), 1, "one round, never a second draw");
    let r = rounds.into_iter().next().unwrap();
    let RecallOutcome::Settled { win, .. } = r.outcome else { panic!("round {} not settled: {:?}", r.round, r.outcome) };
    assert_eq!(win, rules_win(&r, rules), "round {}: the win is not what the rules pay", r.round);
    let staked = r.stake; // the opening stake and every extra (recall adds them)
    assert_eq!(s.machine().credit(), NOTE - staked + win, "credit after the round");
    let t = &s.machine().state().totals.games;
    assert_eq!((t.jogadas_efectuadas, t.creditos_jogados, t.creditos_ganhos), (1, staked, win));
    r
}

/// Play `game`'s round uninterrupted with lab seed `seed`: the player's
/// actions and the settled round.
fn whole_round(dir: &std::path::Path, config: &std::path::Path, game: &str, seed: u64, side_bet: bool, rules: &Rules) -> (Vec<&'static str>, RoundRecall) {
    let here = dir.join(format!("whole{seed}"));
    std::fs::create_dir_all(&here).unwrap();
    let mut s = open(&here, config, game, seed);
    place_bet(&mut s, side_bet);
    s.insert_note(NOTE);
    assert!(s.play(), "{:?}", s.message_text());
    let mut actions = vec!["play"];
    while let Some(a) = act(&mut s) {
        actions.push(a);
        assert!(actions.len() < 20, "the round does not end: {actions:?}");
    }
    (actions, check_settled(&s, rules))
}

/// Play `game`'s round uninterrupted, then cut it after each action. With
/// `gamble`, the first lab seed whose round wins (and so is gambled) is
/// taken, so that the double-up's write points are cut too.
fn cut_at_every_write_point(game: &str, gamble: bool, side_bet: bool) {
    cut_after_each_action(game, if gamble { Some("gamble") } else { None }, side_bet);
}

/// As [`cut_at_every_write_point`], on the first lab seed whose round
/// takes the action `wanted` (a gamble, a war).
fn cut_after_each_action(game: &str, wanted: Option<&str>, side_bet: bool) {
    let rules = rules();
    let dir = tempfile::tempdir().unwrap();
    let config = test_config::config(dir.path(), "");
    let (seed, actions, reference) = (1..80)
        .map(|seed| {
            let (actions, reference) = whole_round(dir.path(), &config, game, seed, side_bet, &rules);
            (seed, actions, reference)
        })
        .find(|(_, actions, _)| wanted.is_none_or(|w| actions.contains(&w)))
        .expect("a seed whose round takes the action wanted");
    let bet = &reference.steps[0].step.data["bet"];
    assert_eq!(bet["jackpot"].as_bool().or(bet["tie"].as_bool()).unwrap_or(false), side_bet, "the side bet as asked");
    // The same round, cut after each action in turn.
    for cut in 1..=actions.len() {
        let here = dir.path().join(format!("cut{cut}"));
        std::fs::create_dir_all(&here).unwrap();
        let mut s = open(&here, &config, game, seed);
        place_bet(&mut s, side_bet);
        s.insert_note(NOTE);
        assert!(s.play());
        for _ in 1..cut {
            act(&mut s);
        }
        let was_open = s.in_round();
        s.power_cut(); // no power-down record
        let mut s = open(&here, &config, game, seed);
        if was_open {
            assert!(s.message_text().is_some(), "cut after {:?}: the resume is told", &actions[..cut]);
        }
        while act(&mut s).is_some() {}
        let r = check_settled(&s, &rules);
        assert_eq!(r.steps[0].step, reference.steps[0].step, "cut after {:?}: the outcome was drawn again", &actions[..cut]);
        assert_eq!(r.steps[0].draws, reference.steps[0].draws);
        assert_eq!(!r.resumed_at.is_empty(), was_open, "cut after {:?}: resume recorded only for an open round", &actions[..cut]);
        let gambles = r.steps.iter().filter(|s| s.step.name == "gamble").count();
        assert!(gambles <= 1, "cut after {:?}: a gamble repeated", &actions[..cut]);
    }
}

/// C-23 (every write point cut) and A-7 (a cut after the outcome is
/// committed, while it is shown: the same outcome after the boot, never
/// drawn again), on the reels.
#[test]
fn a_reel_round_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("classic-sevens", true, false);
}

#[test]
fn a_draw_poker_round_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("jacks-or-better-9-6", true, false);
}

#[test]
fn a_stud_round_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("poquer-sem-descarte", false, false);
}

#[test]
fn a_stud_round_with_its_jackpot_side_bet_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("poquer-sem-descarte", false, true);
}

#[test]
fn a_roulette_round_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("roleta-francesa", false, false);
}

#[test]
fn a_banca_francesa_golpe_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("banca-francesa", false, false);
}

#[test]
fn a_sic_bo_throw_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("cussec", false, false);
}

#[test]
fn a_fish_prawn_crab_throw_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("peixe-camarao-caranguejo", false, false);
}

/// DC-12…14: a tie, the tie bet on, the war committed with its raise: cut
/// after the deal, after the war, after the reveal.
#[test]
fn a_desafio_ao_casino_war_survives_a_cut_at_each_write_point() {
    cut_after_each_action("desafio-ao-casino", Some("war"), true);
}

/// A craps series of several rolls (pass line and hard 6 staked).
#[test]
fn a_craps_series_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("craps", false, false);
}

#[test]
fn a_poquer_3_cartas_deal_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("poquer-3-cartas", false, false);
}

#[test]
fn a_boule_spin_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("boule", false, false);
}

#[test]
fn a_wheel_of_fortune_spin_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("roda-da-sorte", false, false);
}

#[test]
fn a_fantan_count_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("fantan", false, false);
}

#[test]
fn a_baccarat_coup_survives_a_cut_at_each_write_point() {
    cut_at_every_write_point("bacara", false, false);
}
