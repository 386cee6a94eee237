//! Card rounds played through the host's commands, headless: each settled
//! round read back from critical memory and checked against game-core's
//! own rules applied to the committed cards (draw poker: the holds sent are
//! the holds committed and the final hand is paid as the paytable says;
//! Deuces Wild with its wild deuces; stud: the raise and the fold with the
//! jackpot side bet).

use crate::tables::{open, select};
use crate::test_config;

use game_core::cards::Card;
use game_core::draw_poker::{Dealt, DrawPokerGame, Hold};
use game_core::stud_poker::{Decision, StudDeal, StudPokerGame};
use game_host::command::Command;
use game_host::kind::BetControl;
use game_host::picture::Scene;
use game_host::session::{Lang, Session};
use meters::inspect::Inspection;
use meters::{RecallOutcome, RoundRecall};
use paytables::artifact::{Artifact, CompiledGame};
use test_config::workspace;

fn artifact(id: &str) -> CompiledGame {
    let bytes = std::fs::read(workspace().join(format!("assets/paytables/compiled/{id}.json"))).unwrap();
    serde_json::from_slice::<Artifact>(&bytes).unwrap().game
}

fn draw_poker(id: &str) -> DrawPokerGame {
    match artifact(id) {
        CompiledGame::DrawPoker(g) => g,
        other => panic!("{id} is not draw poker: {other:?}"),
    }
}

fn stud() -> StudPokerGame {
    match artifact("poquer-sem-descarte") {
        CompiledGame::StudPoker(g) => g,
        other => panic!("not stud poker: {other:?}"),
    }
}

/// The round just settled, as critical memory recalls it.
fn last_round(dir: &std::path::Path) -> RoundRecall {
    let i = Inspection::open(&dir.join("egm.sqlite")).unwrap();
    assert!(i.state().open_round.is_none(), "the round is still open");
    i.self_audit().unwrap();
    i.recall(1).unwrap().remove(0)
}

fn settled_win(r: &RoundRecall) -> u64 {
    match r.outcome {
        RecallOutcome::Settled { win, .. } => win,
        ref other => panic!("round {} not settled: {other:?}", r.round),
    }
}

/// Collect the win (never gamble), so the win is the paytable's.
fn finish(s: &mut Session) {
    for _ in 0..10 {
        if !s.in_round() {
            return;
        }
        s.command(Command::Revealed);
        s.command(Command::Collect);
    }
    panic!("the round did not end");
}

/// One draw-poker round holding `hold` (a bit per card), checked.
fn draw_round(s: &mut Session, dir: &std::path::Path, id: &str, hold: u8) {
    assert!(s.command(Command::Play));
    for card in (0..5).filter(|c| hold & (1 << c) != 0) {
        assert!(s.command(Command::Decide { decision: serde_json::json!({ "Toggle": card }) }));
    }
    assert!(s.command(Command::Decide { decision: serde_json::json!("Draw") }));
    finish(s);
    let r = last_round(dir);
    assert_eq!(r.game, id);
    let names: Vec<&str> = r.steps.iter().map(|st| st.step.name.as_str()).collect();
    assert_eq!(names, ["deal", "draw"]);
    let dealt: Dealt = serde_json::from_value(r.steps[0].step.data["deal"].clone()).unwrap();
    let draw = &r.steps[1].step.data;
    assert_eq!(draw["hold"], serde_json::json!(hold), "the holds sent are the holds committed");
    let hand = dealt.draw(Hold(hold));
    assert_eq!(serde_json::from_value::<[Card; 5]>(draw["hand"].clone()).unwrap(), hand);
    assert_eq!(r.stake, 5, "five coins of 1 cent");
    assert_eq!(settled_win(&r), draw_poker(id).win(&hand, 5), "{id} pays {hand:?} as game-core does");
    // Issue 45, defect 4: the history draws the final hand with its name.
    let picture = s.history().last().unwrap().picture(Lang::Pt);
    let Scene::Cards(hands) = &picture.scene else { panic!("no cards in the history") };
    assert_eq!(hands.len(), 1);
    assert_eq!(hands[0].cards, hand);
    let game = draw_poker(id);
    let name = game.evaluate(&hand).map_or("", |e| game.entries[e].name_in(true));
    assert_eq!(hands[0].label, name);
}

#[test]
fn draw_poker_rounds_are_paid_as_game_core_pays_the_final_hand() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 11);
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    select(&mut s, "jacks-or-better-9-6");
    for hold in [0b00011, 0b10000, 0b11111, 0] {
        draw_round(&mut s, dir.path(), "jacks-or-better-9-6", hold);
    }
    select(&mut s, "deuces-wild");
    for hold in [0, 0b01110] {
        draw_round(&mut s, dir.path(), "deuces-wild", hold);
    }
    let i = Inspection::open(&dir.path().join("egm.sqlite")).unwrap();
    assert_eq!(i.state().totals.games.jogadas_efectuadas, 6);
}

#[test]
fn stud_rounds_settle_as_game_core_settles_the_committed_hands() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 11);
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    select(&mut s, "poquer-sem-descarte");

    // Ante 1, raise 2.
    assert!(s.command(Command::Play));
    assert!(s.command(Command::Decide { decision: serde_json::json!("Raise") }));
    finish(&mut s);
    let r = last_round(dir.path());
    let names: Vec<&str> = r.steps.iter().map(|st| st.step.name.as_str()).collect();
    assert_eq!(names, ["stud-deal", "raise"]);
    assert_eq!(r.steps[1].extra_stake, 2, "the raise is twice the ante");
    let deal: StudDeal = serde_json::from_value(r.steps[0].step.data["deal"].clone()).unwrap();
    let expected = stud().settle(&deal, 1, Decision::Raise);
    // Issue 45, defect 4: the history draws both hands, the dealer's shown at the decision.
    let Scene::Cards(hands) = &s.history().last().unwrap().picture(Lang::Pt).scene else { panic!("no cards in the history") };
    assert_eq!(
        hands.iter().map(|h| (h.label.as_str(), h.cards.clone())).collect::<Vec<_>>(),
        [("JOGADOR", deal.player.to_vec()), ("BANCA", deal.dealer.to_vec())]
    );
    assert_eq!(settled_win(&r), expected.returned, "the settlement is game-core's for the committed hands");
    let i = Inspection::open(&dir.path().join("egm.sqlite")).unwrap();
    let m = &i.state().per_game["poquer-sem-descarte"];
    assert_eq!((m.creditos_jogados, m.creditos_ganhos, m.jogadas_efectuadas), (3, expected.returned, 1));

    // The jackpot side bet, then a fold: the side bet is staked beside the
    // ante and feeds its pool; a fold keeps it in play (`pays_on_fold`).
    s.command(Command::AdjustBet { control: BetControl::SideBet, delta: 1 });
    assert!(s.command(Command::Play));
    assert!(s.command(Command::Decide { decision: serde_json::json!("Fold") }));
    finish(&mut s);
    let r = last_round(dir.path());
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
    assert_eq!(settled_win(&r), fixed, "a fold loses the ante; the side bet pays its fixed sum, if any");
    let i = Inspection::open(&dir.path().join("egm.sqlite")).unwrap();
    assert_eq!(i.state().pools["stud-jackpot"].levels[0].contributed_micro, 250_000, "25% of the 1-cent side bet, in millionths");
    // B-16, issue 77 defect 5: the ante and the raise at the ante's RTP,
    // the jackpot bet at its own (the artifact's side-bet RTP, 7,465 /
    // 9,282 at the jackpot's start value), each in millionths rounded down.
    let c = &i.state().categories["poquer-sem-descarte"];
    assert_eq!(c.len(), 2, "{c:?}");
    let ante = &c["1 credits ante"];
    assert_eq!((ante.coin_in, ante.rtp_ppm), (3 + 1, (254_565_857_603u128 * 1_000_000 / 261_241_071_465) as u32));
    let side = &c["jackpot"];
    assert_eq!((side.coin_in, side.rtp_ppm), (1, (7_465u64 * 1_000_000 / 9_282) as u32));
    assert_eq!(side.theoretical_micro, 804_244);
}
