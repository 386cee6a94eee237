//! Issue 45: screens over the game (help, the game menu, the history) stop
//! play in the host itself, whatever the cabinet sends; the attract loop
//! is due at start and again after the configured time with no credit and
//! no touch; a cash-out tells the player the ticket's amount.

use crate::tables::{open, select};
use crate::test_config;

use std::time::Duration;

use game_host::command::Command;
use game_host::kind::BetControl;
use game_host::round::Phase;
use game_host::session::{Controls, Lang, Overlay, Session};
use meters::inspect::Inspection;

fn overlay(s: &mut Session, o: Option<Overlay>) {
    assert!(s.command(Command::Overlay { overlay: o }));
    assert_eq!(s.overlay(), o);
}

fn played(dir: &std::path::Path) -> u64 {
    Inspection::open(&dir.join("egm.sqlite")).unwrap().state().totals.games.jogadas_efectuadas
}

#[test]
fn nothing_plays_bets_or_cashes_out_under_help() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 3);
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    let before = s.controls();
    assert!(before.play && before.bet_up && before.cash_out && before.game_menu, "{before:?}");
    overlay(&mut s, Some(Overlay::Help));
    // Only help (to close it) and the language work; the deck dims the rest.
    assert_eq!(s.controls(), Controls { help: true, language: true, ..Controls::default() });
    let bet = s.stake_credits();
    for (c, what) in [
        (Command::Play, "play"),
        (Command::AdjustBet { control: BetControl::Amount, delta: 1 }, "bet up"),
        (Command::MaxBet, "max bet"),
        (Command::CycleBet { control: BetControl::Lines }, "lines"),
        (Command::CashOut, "cash out"),
        (Command::Autoplay { rounds: 5 }, "autoplay"),
        (Command::StepDenomination { delta: 1 }, "denomination"),
        (Command::SelectGame { index: 1 }, "another game"),
    ] {
        assert!(!s.command(c), "{what} was taken under the help");
        assert_eq!(s.message_text().as_deref(), Some("Feche a ajuda para jogar"), "{what}");
    }
    s.command(Command::Language { lang: Lang::En });
    assert_eq!(s.message_text().as_deref(), Some("Close the help to play"));
    assert_eq!((s.machine().credit(), s.stake_credits(), s.game().id(), s.autoplay_left()), (2_000, bet, "classic-sevens", 0));
    assert!(!s.in_round());
    assert_eq!(played(dir.path()), 0, "a round was played behind the help");
    // Closed, the same play is taken.
    overlay(&mut s, None);
    assert!(s.command(Command::Play), "{:?}", s.message_text());
    assert!(s.in_round() || s.history().len() == 1, "the round did not start");
}

/// A round open when the help opens: its decisions wait until it closes.
#[test]
fn a_round_s_decisions_wait_under_the_help() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 3);
    select(&mut s, "jacks-or-better-9-6");
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    assert!(s.command(Command::Play));
    assert_eq!(s.round_info().unwrap().phase, Phase::Decisions);
    overlay(&mut s, Some(Overlay::Help));
    assert!(!s.controls().play);
    assert!(!s.command(Command::Decide { decision: serde_json::json!({ "Toggle": 0 }) }), "a hold was taken under the help");
    assert!(!s.command(Command::Play), "the draw was taken under the help");
    assert!(!s.command(Command::Collect));
    assert_eq!(s.round_info().unwrap().phase, Phase::Decisions);
    overlay(&mut s, None);
    assert!(s.command(Command::Play), "{:?}", s.message_text());
    assert_ne!(s.round_info().unwrap().phase, Phase::Decisions);
}

/// The game menu chooses a game and a denomination, and nothing else.
#[test]
fn the_game_menu_chooses_and_does_not_play() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 3);
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    overlay(&mut s, Some(Overlay::GameMenu));
    let c = s.controls();
    assert!(c.game_menu && c.denomination && !c.play && !c.cash_out && !c.bet_up, "{c:?}");
    assert!(s.command(Command::SelectDenomination { cents: 5 }), "{:?}", s.message_text());
    assert!(s.command(Command::SelectGame { index: 1 }), "{:?}", s.message_text());
    assert_eq!((s.selected(), s.denom()), (1, 5));
    assert!(!s.command(Command::Play));
    assert_eq!(s.message_text().as_deref(), Some("Escolha um jogo ou feche o menu para jogar"));
    overlay(&mut s, Some(Overlay::History));
    assert!(!s.command(Command::Play));
    assert!(!s.command(Command::SelectGame { index: 0 }));
    assert_eq!(s.message_text().as_deref(), Some("Feche o histórico para jogar"));
    assert_eq!(played(dir.path()), 0);
}

/// Autoplay (M-32) waits under an overlay, its count kept, and goes on
/// when it closes.
#[test]
fn autoplay_waits_under_an_overlay() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 3);
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    assert!(s.command(Command::Autoplay { rounds: 3 }));
    overlay(&mut s, Some(Overlay::Help));
    assert!(!s.autoplay_next());
    assert_eq!(s.autoplay_left(), 3);
    overlay(&mut s, None);
    assert!(s.autoplay_next(), "{:?}", s.message_text());
    assert_eq!(s.autoplay_left(), 2);
}

/// The attract loop: due at start, ended by a touch, due again after the
/// configured time with no credit and no touch; never with credit, in a
/// round or under an overlay.
#[test]
fn the_attract_loop_returns_after_the_idle_time_without_credit() {
    let dir = tempfile::tempdir().unwrap();
    let config = test_config::config(dir.path(), "");
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(text.contains("attract_after_s: 60"), "the shipped configuration sets it");
    std::fs::write(&config, text.replace("attract_after_s: 60", "attract_after_s: 1")).unwrap();
    let mut s = crate::tables::open_with(dir.path(), &config, 3);
    assert!(s.attract_due(), "attract at start");
    s.touch();
    assert!(!s.attract_due(), "a touch ends it");
    assert!(s.command(Command::InsertNote { cents: 500 }));
    std::thread::sleep(Duration::from_millis(1_100));
    assert!(!s.attract_due(), "never with credit");
    assert!(s.command(Command::CashOut));
    assert_eq!(s.machine().credit(), 0);
    assert!(!s.attract_due(), "the cash-out was a touch");
    std::thread::sleep(Duration::from_millis(1_100));
    assert!(s.attract_due(), "no credit and no touch for the configured time");
    overlay(&mut s, Some(Overlay::Help));
    std::thread::sleep(Duration::from_millis(1_100));
    assert!(!s.attract_due(), "never under an overlay");
    // The cash-out told the player the amount, not the printer's file.
    drop(s);
    let mut s = crate::tables::open_with(dir.path(), &config, 3);
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    assert!(s.command(Command::CashOut));
    let said = s.message_text().unwrap();
    let amount = s.machine().config().currency.format(2_000);
    assert_eq!(said, format!("Bilhete impresso: {amount} — retire o seu bilhete"));
    s.command(Command::Language { lang: Lang::En });
    assert_eq!(s.message_text().unwrap(), format!("Ticket printed: {amount} — please take your ticket"));
}

/// With the time set to 0 the attract loop runs at start only.
#[test]
fn attract_after_zero_means_at_start_only() {
    let dir = tempfile::tempdir().unwrap();
    let config = test_config::config(dir.path(), "");
    let text = std::fs::read_to_string(&config).unwrap().replace("attract_after_s: 60", "attract_after_s: 0");
    std::fs::write(&config, text).unwrap();
    let mut s = crate::tables::open_with(dir.path(), &config, 3);
    assert!(s.attract_due());
    s.touch();
    std::thread::sleep(Duration::from_millis(1_100));
    assert!(!s.attract_due());
}

/// Issue 45, defect 4: the history shows a reel round as the player saw
/// it, the window's symbols row by row, not stop numbers.
#[test]
fn the_history_shows_a_reel_window_s_symbols() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 3);
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    for _ in 0..5 {
        assert!(s.command(Command::Play), "{:?}", s.message_text());
        s.command(Command::Revealed);
        if s.in_round() {
            s.command(Command::Collect);
        }
    }
    let game = match s.game().rules::<game_host::kinds::reels::Reels>() {
        Some(r) => r.game.clone(),
        None => panic!("the first game is not a reel game"),
    };
    let recalled = s.machine().recall(5).unwrap();
    assert_eq!(s.history().len(), 5);
    for summary in s.history() {
        let r = recalled.iter().find(|r| r.round == summary.round).unwrap();
        let round: game_core::reels::ReelRound = serde_json::from_value(r.steps[0].step.data["deal"].clone()).unwrap();
        // Sevens Classic: one row of three reels, each showing its strip's
        // symbol at the committed stop.
        let ids: Vec<&str> =
            round.base.stops.iter().zip(&game.reels).map(|(&stop, strip)| game.symbols[usize::from(strip.symbols[stop as usize])].id.as_str()).collect();
        assert_eq!(summary.detail, ids.join(" "), "round {}", summary.round);
        // And the picture the history draws: the same symbols, one row.
        let rows = vec![ids.iter().map(|id| (*id).to_owned()).collect::<Vec<_>>()];
        assert_eq!(summary.picture(Lang::Pt).scene, game_host::picture::Scene::Reels { rows }, "round {}", summary.round);
    }
}

/// Issue 45, defect 10: English mode names every hosted game, reel symbol
/// and bingo pattern in English: the glossary holds every such name of
/// every approved paytable (a new game's names are added before it can
/// pass), and the session shows them so.
#[test]
fn every_name_of_every_approved_game_has_its_english() {
    use game_host::kinds::{bingo::Bingo, reels::Reels};

    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 3);
    let approved = std::fs::read_to_string(test_config::workspace().join("assets/paytables/approved.ron")).unwrap().matches("sha256:").count();
    // The menu's games and the RTP variants waiting aside (issue 50).
    assert_eq!(s.games().len() + s.variants_aside().len(), approved, "the shipped configuration hosts every approved game");
    let mut missing = Vec::new();
    let mut checked = 0;
    for g in s.games() {
        let mut names = vec![g.name().to_owned()];
        if let Some(r) = g.rules::<Reels>() {
            names.extend(r.game.symbols.iter().map(|x| x.name.clone()));
        }
        if let Some(b) = g.rules::<Bingo>() {
            names.extend(b.0.patterns.iter().map(|p| p.name.clone()));
        }
        for n in names {
            checked += 1;
            if game_host::texts::term_english(&n).is_none() {
                missing.push(format!("{}: {n:?}", g.id()));
            }
        }
    }
    assert!(missing.is_empty(), "names with no English in the glossary:\n{}", missing.join("\n"));
    // 30 games; Sevens Classic's 7 symbols, Ocean Treasure's 10,
    // Floresta Encantada's 11, Pérolas do Dragão's 11 and Minas de Ouro's
    // 10; the bingos' 3 + 4 + 5 + 2 patterns (counted in the paytables'
    // files).
    assert_eq!(checked, 30 + 7 + 10 + 11 + 11 + 10 + 3 + 4 + 5 + 2, "names checked");
    // The progressive levels' names (M-30) of every game, as shown.
    let mut levels = std::collections::BTreeSet::new();
    for g in 0..s.games().len() {
        assert!(s.command(Command::SelectGame { index: g }));
        levels.extend(s.progressives_shown().into_iter().map(|p| p.name));
    }
    assert!(levels.contains("Grande") && levels.contains("Mistério"), "{levels:?}");
    let untranslated: Vec<&String> = levels.iter().filter(|n| game_host::texts::term_english(n).is_none()).collect();
    assert!(untranslated.is_empty(), "levels with no English: {untranslated:?}");
    // The session names them in the player's language.
    select(&mut s, "ocean-treasure");
    assert_eq!(s.game().title(s.lang()), "Tesouro do Oceano");
    s.command(Command::Language { lang: Lang::En });
    assert_eq!(s.game().title(s.lang()), "Ocean Treasure");
    let symbols: Vec<&str> = s.game().rules::<Reels>().unwrap().game.symbols.iter().map(|x| Lang::En.term(&x.name)).collect();
    assert!(symbols.contains(&"Queen") && symbols.contains(&"Pearl (wild)") && !symbols.contains(&"Dama"), "{symbols:?}");
    select(&mut s, "classic-sevens");
    let shown: Vec<String> = s.progressives_shown().into_iter().map(|p| p.name).collect();
    assert_eq!(shown, ["Grand", "Mystery"]);
}
