//! The host's message-shaped API: every action as a serialisable
//! `Command`, refused with a clear notice when it cannot be carried out.

use crate::test_config;

use game_host::boot::{BootOptions, boot};
use game_host::command::Command;
use game_host::kind::BetControl;
use game_host::round::Phase;
use game_host::session::{Lang, Session};
use meters::Door;

fn session(dir: &std::path::Path) -> Session {
    let config = test_config::config(dir, "");
    boot(&BootOptions { config, db: dir.join("egm.sqlite"), lab_seed: Some(2), demo: false }).unwrap()
}

fn index(s: &Session, id: &str) -> usize {
    s.games().iter().position(|g| g.id() == id).unwrap()
}

#[test]
fn every_command_travels_as_json() {
    let commands = vec![
        Command::InsertNote { cents: 500 },
        Command::InsertTicket { validation: "123".into() },
        Command::CashOut,
        Command::SelectGame { index: 2 },
        Command::StepGame { delta: -1 },
        Command::SelectDenomination { cents: 5 },
        Command::StepDenomination { delta: 1 },
        Command::AdjustBet { control: BetControl::Lines, delta: 1 },
        Command::MaxBet,
        Command::CycleBet { control: BetControl::Lines },
        Command::CycleDenomination,
        Command::Play,
        Command::Decide { decision: serde_json::json!({ "Toggle": 3 }) },
        Command::Revealed,
        Command::Gamble { colour: game_core::double_up::Colour::Black },
        Command::Collect,
        Command::Autoplay { rounds: 4 },
        Command::ToggleDoor { door: Door::Main },
        Command::AttendantClear,
        Command::Language { lang: Lang::En },
        Command::ShowCurrency { currency: false },
    ];
    for c in commands {
        let text = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<Command>(&text).unwrap(), c, "{text}");
    }
}

#[test]
fn a_stud_round_played_by_commands_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path());
    assert!(s.command(Command::InsertNote { cents: 1_000 }));
    assert!(s.command(Command::SelectGame { index: index(&s, "poquer-sem-descarte") }));
    assert!(s.command(Command::Play));
    assert_eq!(s.round_info().unwrap().phase, Phase::Decisions);
    // A decision of another kind is refused by name, and changes nothing.
    assert!(!s.command(Command::Decide { decision: serde_json::json!({ "Toggle": 1 }) }));
    s.command(Command::Language { lang: Lang::En });
    assert!(s.message_text().unwrap().starts_with("Not a decision of this game"), "{:?}", s.message_text());
    assert_eq!(s.round_info().unwrap().phase, Phase::Decisions);
    // The game is not changed in a round (M-9).
    assert!(s.command(Command::SelectGame { index: 0 }));
    assert_eq!(s.game().id(), "poquer-sem-descarte");
    assert!(s.command(Command::Decide { decision: serde_json::json!("Fold") }));
    let r = s.round_info().unwrap();
    assert_eq!((r.phase, r.settled_win), (Phase::Ended, Some(0)));
    // A fold loses the ante alone: 1 credit of the first denomination.
    let denom = r.denom;
    assert_eq!(s.machine().credit(), 1_000 - denom);
}

#[test]
fn refused_commands_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path());
    assert!(!s.command(Command::Play), "no credit");
    assert!(s.message_text().unwrap().starts_with("Crédito insuficiente"), "{:?}", s.message_text());
    assert!(!s.command(Command::InsertNote { cents: 333 }), "not a note the acceptor takes");
    assert!(s.message_text().unwrap().starts_with("Nota recusada"), "{:?}", s.message_text());
    assert!(s.command(Command::InsertNote { cents: 500 }));
    assert!(s.command(Command::ToggleDoor { door: Door::Main }));
    assert!(!s.command(Command::Play), "a door is open");
    assert!(s.message_text().unwrap().contains("PORTA ABERTA"), "{:?}", s.message_text());
    assert_eq!(s.machine().credit(), 500, "nothing moved");
    assert!(s.command(Command::ToggleDoor { door: Door::Main }));
    assert!(s.command(Command::Play));
}

/// Issue 29: the touch deck's buttons are enabled exactly as the host's
/// `controls()` says; here they follow the credit, the bet's options
/// (Ocean Treasure: lines 1, 5, 10, 15, 20 × 1, 2, 3, 5, 10 credits), the
/// round and a door, and the deck's own commands (max bet, the lines and
/// denomination buttons that wrap) do what they say.
#[test]
fn the_buttons_follow_the_credit_the_bet_the_round_and_the_doors() {
    use game_host::kinds::reels::Reels;
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path());
    assert!(s.command(Command::SelectGame { index: index(&s, "ocean-treasure") }));
    let c = s.controls();
    // No credit: nothing to play or cash out; the bet, the menu and the
    // denominations are free; the opening bet is every line at 1 credit.
    assert!(!c.play && !c.cash_out, "{c:?}");
    assert!(c.game_menu && c.denomination && c.help && c.language, "{c:?}");
    assert!(!c.bet_down && c.bet_up && c.lines && c.max_bet, "{c:?}");
    assert_eq!(s.stake_credits(), 20);
    assert!(s.command(Command::InsertNote { cents: 1_000 }));
    let c = s.controls();
    assert!(c.play && c.cash_out, "{c:?}");

    assert!(s.command(Command::MaxBet));
    assert_eq!(s.game().bet::<Reels>().map(|b| (b.lines, b.credits_per_line)), Some((20, 10)));
    let c = s.controls();
    assert!(c.bet_down && !c.bet_up && !c.max_bet, "{c:?}");
    // 200 credits at 1 cent: the 10 € note covers it; at 10 cents it does not.
    assert!(c.play);
    for _ in 0..3 {
        assert!(s.command(Command::CycleDenomination));
    }
    assert_eq!(s.denom(), 10);
    assert!(!s.controls().play, "200 credits × 10 cents is more than the 10 € credit");
    for _ in 0..5 {
        s.command(Command::CycleDenomination);
    }
    assert_eq!(s.denom(), 1, "the eighth press comes back to the first denomination");
    // The lines button from the last option wraps to the first.
    assert!(s.command(Command::CycleBet { control: BetControl::Lines }));
    assert_eq!(s.game().bet::<Reels>().map(|b| b.lines), Some(1));
    s.command(Command::CycleBet { control: BetControl::Lines });
    assert_eq!(s.game().bet::<Reels>().map(|b| b.lines), Some(5));

    // In a round: only play (show the outcome at once) is offered.
    assert!(s.command(Command::Play));
    assert_eq!(s.round_info().unwrap().phase, Phase::Presenting);
    let c = s.controls();
    assert!(c.play && !c.cash_out && !c.bet_up && !c.bet_down && !c.max_bet && !c.lines && !c.game_menu && !c.denomination, "{c:?}");
    assert!(c.help && c.language);
    // Play rounds until one wins: the double-up offered, the play button
    // takes the win (and nothing else is open to the player meanwhile).
    let mut won = false;
    for _ in 0..200 {
        if !s.in_round() {
            assert!(s.command(Command::Play));
        }
        s.command(Command::Revealed);
        if s.in_round() {
            assert_eq!(s.round_info().unwrap().phase, Phase::DoubleUp);
            let c = s.controls();
            assert!(c.play && !c.cash_out && !c.bet_up && !c.game_menu, "{c:?}");
            let at_stake = s.round_info().unwrap().at_stake;
            let credit = s.machine().credit();
            assert!(s.command(Command::Play), "play takes the win");
            assert!(!s.in_round());
            assert_eq!(s.machine().credit(), credit + at_stake * s.denom(), "the whole win is paid, not gambled");
            won = true;
            break;
        }
    }
    assert!(won, "no win in 200 rounds");
    assert!(s.controls().play);
    // A door open: nothing plays, nothing is cashed out.
    s.command(Command::ToggleDoor { door: Door::Main });
    let c = s.controls();
    assert!(!c.play && !c.cash_out && !c.bet_up && !c.game_menu, "{c:?}");
    s.command(Command::ToggleDoor { door: Door::Main });
    assert!(s.controls().play);
}
