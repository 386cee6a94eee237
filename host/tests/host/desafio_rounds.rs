//! Desafio ao casino through the host's commands, headless on real SQLite
//! files (issue 72): every settled round checked against an independent
//! reading of DC-9…14 from the committed cards — the ranks compared as
//! the journal writes them, the war or the surrender as the player chose.

use crate::tables::{open, select};

use game_host::command::Command;
use game_host::kind::BetControl;
use game_host::picture::Scene;
use game_host::session::Lang;

/// A card's rank as the journal writes it ("Td", "As"): the ace highest
/// (DC-3), suits not counted.
fn rank(card: &str) -> usize {
    "23456789TJQKA".find(&card[..card.len() - 1]).unwrap()
}

#[test]
fn desafio_rounds_pay_as_dc_9_to_14_read_from_the_cards() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 47);
    select(&mut s, "desafio-ao-casino");
    s.insert_note(5_000);
    let denom = s.denom();
    // The second ante (4 credits) and the tie bet (1 credit) beside it.
    s.command(Command::AdjustBet { control: BetControl::Amount, delta: 1 });
    s.command(Command::AdjustBet { control: BetControl::SideBet, delta: 1 });
    let (mut ties, mut wars, mut won) = (0, 0, 0);
    for k in 0..400 {
        let credit = s.machine().credit();
        assert!(s.command(Command::Play), "{:?}", s.message_text());
        // On equal cards the round waits for the player: war on every
        // other tie, surrender on the rest.
        let war = ties % 2 == 0;
        if s.round_info().is_some_and(|r| r.phase == game_host::round::Phase::Decisions) {
            ties += 1;
            wars += usize::from(war);
            let decision = if war { "War" } else { "Surrender" };
            s.command(Command::Play);
            assert!(s.round_info().is_some_and(|r| r.phase == game_host::round::Phase::Decisions), "round {k}: play neither decides nor deals again");
            assert!(s.command(Command::Decide { decision: serde_json::json!(decision) }), "{:?}", s.message_text());
        }
        s.command(Command::Revealed);
        assert!(!s.in_round(), "round {k} is still open");
        let r = s.machine().recall(1).unwrap().remove(0);
        let meters::RecallOutcome::Settled { win, .. } = r.outcome else { panic!("not settled: {:?}", r.outcome) };
        let deal = &r.steps[0].step.data["deal"];
        let card = |name: &str| rank(deal[name].as_str().unwrap());
        let (p, h) = (card("player"), card("house"));
        assert_eq!(r.steps[0].step.data["bet"], serde_json::json!({ "ante": 4, "tie": true }));
        // In cents: the ante 4 credits, the tie bet 1, the raise 4.
        let (ante, tie) = (4 * denom, denom);
        let (stake, want) = if p > h {
            (ante + tie, 2 * ante)
        } else if p < h {
            (ante + tie, 0)
        } else if !war {
            (ante + tie, ante / 2 + 11 * tie)
        } else {
            // DC-14: the war cards are the sixth and the tenth dealt.
            let (pw, hw) = (card("player_war"), card("house_war"));
            let back = match pw.cmp(&hw) {
                std::cmp::Ordering::Greater => 3 * ante,
                std::cmp::Ordering::Equal => 4 * ante,
                std::cmp::Ordering::Less => 0,
            };
            (2 * ante + tie, back + 11 * tie)
        };
        assert_eq!((r.stake, win), (stake, want), "round {k}: {deal}");
        assert_eq!(s.machine().credit(), credit - stake + win);
        won += usize::from(win > stake);
        let picture = s.history().last().unwrap().picture(Lang::En);
        let Scene::Cards(hands) = &picture.scene else { panic!("the history draws the cards") };
        // After a war each side shows its first card and its war card.
        let shown = if p == h && war { 2 } else { 1 };
        assert!(hands.iter().all(|h| h.cards.len() == shown), "round {k}: {hands:?}");
    }
    // Ties come 23 times in 311 (7.4 %): 400 rounds give 29.6 on average.
    assert!((12..=50).contains(&ties), "{ties} ties in 400 rounds");
    assert!(wars >= ties / 2, "{wars} wars in {ties} ties");
    assert!((150..=250).contains(&won), "{won} rounds won in 400");
}
