//! The card games in the real cabinet, in a real window under Xvfb (issue
//! 5): draw poker (deal, hold with the hold buttons, draw, collect; Jacks
//! or Better and Deuces Wild), a
//! draw-poker round killed with SIGKILL after its deal and finished after
//! the restart with the cards committed at the deal, and póquer sem
//! descarte (ante, raise, settlement). Each round is checked against
//! game-core's own rules applied to the cards in critical memory, and
//! against the meters; the screenshots must show the cards.
#![allow(clippy::unwrap_used)]

mod rig;

use std::time::Duration;

use game_core::draw_poker::{Dealt, DrawPokerGame, Hold};
use game_core::stud_poker::{Decision, StudDeal, StudPokerGame};
use meters::RecallOutcome;
use paytables::artifact::{Artifact, CompiledGame};
use rig::{Rig, count_pixels, newest_png, workspace};

fn artifact(id: &str) -> CompiledGame {
    let bytes = std::fs::read(workspace().join(format!("assets/paytables/compiled/{id}.json"))).unwrap();
    serde_json::from_slice::<Artifact>(&bytes).unwrap().game
}

fn jacks_or_better() -> DrawPokerGame {
    match artifact("jacks-or-better-9-6") {
        CompiledGame::DrawPoker(g) => g,
        other => panic!("not draw poker: {other:?}"),
    }
}

fn stud() -> StudPokerGame {
    match artifact("poquer-sem-descarte") {
        CompiledGame::StudPoker(g) => g,
        other => panic!("not stud poker: {other:?}"),
    }
}

/// The white of card faces in the newest screenshot.
fn card_faces(rig: &Rig) -> usize {
    count_pixels(&newest_png(&rig.shots()), [255, 255, 255], 2)
}

/// Check a settled draw-poker round against game-core: the final hand is
/// the deal's cards under the holds, paid as the paytable says.
fn check_draw_round(rig: &Rig, hold: u8) -> (u64, u64) {
    let g = jacks_or_better();
    let i = rig.wait_for("the draw-poker round to settle", |i| i.state().open_round.is_none());
    let r = &i.recall(1).unwrap()[0];
    assert_eq!(r.game, "jacks-or-better-9-6");
    let names: Vec<&str> = r.steps.iter().map(|s| s.step.name.as_str()).collect();
    assert_eq!(&names[..2], ["deal", "draw"], "{names:?}");
    let dealt: Dealt = serde_json::from_value(r.steps[0].step.data["deal"].clone()).unwrap();
    let draw = &r.steps[1].step.data;
    assert_eq!(draw["hold"], serde_json::json!(hold), "the holds pressed are the holds committed");
    let hand = dealt.draw(Hold(hold));
    assert_eq!(serde_json::from_value::<[game_core::cards::Card; 5]>(draw["hand"].clone()).unwrap(), hand);
    let win = g.win(&hand, 5);
    assert_eq!(r.stake, 5, "five coins of 1 cent");
    let RecallOutcome::Settled { win: paid, .. } = r.outcome else { panic!("not settled: {:?}", r.outcome) };
    let gambled = names.contains(&"gamble");
    if !gambled {
        assert_eq!(paid, win, "the win is the paytable's for the final hand");
    }
    (r.round, paid)
}

#[test]
fn card_games_in_a_real_window() {
    let rig = Rig::new();
    let mut cab = rig.launch();
    rig.key("3");
    rig.wait_for("the note", |i| i.state().credit == 2_000);

    // Draw poker: two games to the right of the first, 5 coins at 1 cent.
    rig.key("Right");
    rig.key("Right");
    rig.key("space");
    rig.wait_for("the deal to be committed", |i| i.state().open_round.as_ref().is_some_and(|o| o.game == "jacks-or-better-9-6"));
    std::thread::sleep(Duration::from_millis(800));
    rig.screenshot();
    std::thread::sleep(Duration::from_millis(700));
    assert!(card_faces(&rig) > 5 * 12_000, "five cards are not on screen");
    rig.key("F1");
    rig.key("F2");
    rig.screenshot();
    rig.key("space");
    std::thread::sleep(Duration::from_millis(800));
    rig.screenshot();
    rig.key("Return");
    let (first, _) = check_draw_round(&rig, 0b00011);

    // Killed after the deal: the restart resumes the round at its deal and
    // draws the cards committed then.
    rig.key("space");
    let i = rig.wait_for("the second deal", |i| i.state().open_round.as_ref().is_some_and(|o| o.round > first));
    let open = i.state().open_round.clone().unwrap();
    cab.kill().unwrap();
    cab.wait().unwrap();
    let mut cab = rig.launch();
    std::thread::sleep(Duration::from_millis(1_500));
    rig.screenshot();
    rig.key("F5");
    rig.key("space");
    std::thread::sleep(Duration::from_millis(800));
    rig.key("Return");
    let (round, _) = check_draw_round(&rig, 0b10000);
    // A tick for each deal and each draw (the first round's two, and this one's draw at least).
    let ticks = rig.log().matches("sound: card").count();
    assert!(ticks >= 3, "{ticks} card sounds");
    assert_eq!(round, open.round);
    let i = rig.wait_for("the resumed round", |i| i.state().open_round.is_none());
    assert!(!i.recall(1).unwrap()[0].resumed_at.is_empty(), "the resume is recorded (M-36)");
    rig.screenshot();

    // Deuces Wild, the next game: a round held on nothing, paid as game-core
    // pays the final hand with its wild deuces.
    rig.key("Right");
    rig.key("space");
    rig.wait_for("the Deuces Wild deal", |i| i.state().open_round.as_ref().is_some_and(|o| o.game == "deuces-wild"));
    std::thread::sleep(Duration::from_millis(500));
    rig.key("space");
    std::thread::sleep(Duration::from_millis(800));
    rig.key("Return");
    let i = rig.wait_for("the Deuces Wild round", |i| i.state().open_round.is_none() && i.state().per_game.contains_key("deuces-wild"));
    let r = &i.recall(1).unwrap()[0];
    let dealt: Dealt = serde_json::from_value(r.steps[0].step.data["deal"].clone()).unwrap();
    let deuces = match artifact("deuces-wild") {
        CompiledGame::DrawPoker(g) => g,
        other => panic!("{other:?}"),
    };
    let hand = dealt.draw(Hold(0));
    let RecallOutcome::Settled { win, .. } = r.outcome else { panic!("{:?}", r.outcome) };
    if !r.steps.iter().any(|s| s.step.name == "gamble") {
        assert_eq!(win, deuces.win(&hand, 5), "Deuces Wild pays {hand:?} as game-core does");
    }

    // Póquer sem descarte, the next game; ante 1, raise 2.
    rig.key("Right");
    rig.key("space");
    rig.wait_for("the stud deal", |i| i.state().open_round.as_ref().is_some_and(|o| o.game == "poquer-sem-descarte"));
    std::thread::sleep(Duration::from_millis(800));
    rig.screenshot();
    std::thread::sleep(Duration::from_millis(700));
    let backs = count_pixels(&newest_png(&rig.shots()), [20, 50, 140], 4);
    assert!(backs > 4 * 5_000, "the dealer's four hidden cards are not on screen ({backs})");
    rig.key("F1");
    let i = rig.wait_for("the stud round to settle", |i| i.state().open_round.is_none() && i.state().per_game.contains_key("poquer-sem-descarte"));
    let r = &i.recall(1).unwrap()[0];
    let names: Vec<&str> = r.steps.iter().map(|s| s.step.name.as_str()).collect();
    assert_eq!(names, ["stud-deal", "raise"]);
    assert_eq!(r.steps[1].extra_stake, 2, "the raise is twice the ante");
    let deal: StudDeal = serde_json::from_value(r.steps[0].step.data["deal"].clone()).unwrap();
    let expected = stud().settle(&deal, 1, Decision::Raise);
    let RecallOutcome::Settled { win, .. } = r.outcome else { panic!("{:?}", r.outcome) };
    assert_eq!(win, expected.returned, "the settlement is game-core's for the committed hands");
    let m = &i.state().per_game["poquer-sem-descarte"];
    assert_eq!((m.creditos_jogados, m.creditos_ganhos, m.jogadas_efectuadas), (3, expected.returned, 1));
    i.self_audit().unwrap();
    std::thread::sleep(Duration::from_millis(800));
    rig.screenshot();
    std::thread::sleep(Duration::from_millis(700));
    assert!(card_faces(&rig) > 10 * 12_000, "both hands are not shown after the settlement");

    // The jackpot side bet (J), then a fold: the side bet is staked beside
    // the ante and feeds the side-bet pool; a fold keeps it in play
    // (`pays_on_fold`), so a flush or better still wins its fixed sum.
    let round = r.round + 1;
    rig.key("j");
    rig.key("space");
    rig.wait_for("the stud deal with its side bet", |i| i.state().open_round.as_ref().is_some_and(|o| o.round == round));
    rig.key("F2");
    let i = rig.wait_for("the stud round with its side bet to settle", |i| i.state().open_round.is_none() && i.state().last_round == round);
    let r = &i.recall(1).unwrap()[0];
    assert_eq!(r.steps[0].step.data["bet"], serde_json::json!({ "ante": 1, "jackpot": true }));
    assert_eq!(r.stake, 2, "the ante and the side bet, 1 cent each");
    let deal: StudDeal = serde_json::from_value(r.steps[0].step.data["deal"].clone()).unwrap();
    let jackpot = stud().jackpot.unwrap();
    let fixed = match game_core::poker::evaluate(&deal.player).category() {
        game_core::poker::Category::FourOfAKind => jackpot.four_of_a_kind,
        game_core::poker::Category::FullHouse => jackpot.full_house,
        game_core::poker::Category::Flush => jackpot.flush,
        _ => 0,
    };
    let RecallOutcome::Settled { win, .. } = r.outcome else { panic!("{:?}", r.outcome) };
    assert_eq!(win, fixed, "a fold loses the ante; the side bet pays its fixed sum, if any");
    assert_eq!(i.state().pools["stud-jackpot"].levels[0].contributed_micro, 250_000, "25% of the 1-cent side bet, in millionths");
    i.self_audit().unwrap();

    let _ = cab.kill();
    let _ = cab.wait();
    rig.keep_screenshots("cards", 1);
}
