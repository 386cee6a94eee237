//! Póquer de 3 cartas through the host's commands, headless on real
//! SQLite files (issue 72): every settled round checked against an
//! independent reading of P3-4…P3-10 and P3-29 from the committed cards.

use crate::tables::{open, play_layout as play, select};

use game_host::command::Command;
use game_host::kind::BetControl;
use game_host::picture::Scene;
use game_host::session::Lang;

/// A card as the journal writes it ("Td", "Ks"): its place in P3-5's order
/// (the ace lowest, the king highest), its suit's in P3-6's (diamonds
/// lowest, spades highest), its points and whether it is a picture.
fn read(card: &str) -> (u8, u8, u8, bool) {
    let (rank, suit) = card.split_at(card.len() - 1);
    let order = "A23456789TJQK".find(rank).unwrap() as u8;
    let suit = "dchs".find(suit).unwrap() as u8;
    let points = match rank {
        "A" => 1,
        "T" | "J" | "Q" | "K" => 0,
        r => r.parse().unwrap(),
    };
    (order, suit, points, matches!(rank, "J" | "Q" | "K"))
}

/// P3-7's number of a hand: 1 for three pictures, then 9 with two, one
/// and no pictures (2, 3, 4) … 0 without pictures (31).
fn rank(hand: &[String]) -> u8 {
    let cards: Vec<_> = hand.iter().map(|c| read(c)).collect();
    let pictures = cards.iter().filter(|c| c.3).count() as u8;
    let points = cards.iter().map(|c| c.2).sum::<u8>() % 10;
    if pictures == 3 { 1 } else { 2 + 3 * (9 - points) + (2 - pictures) }
}

fn best(hand: &[String]) -> (u8, u8) {
    hand.iter().map(|c| read(c)).map(|(o, s, _, _)| (o, s)).max().unwrap()
}

/// Whether the player wins: the better combination; equal ones, the
/// better single card; two zeros without pictures, the bank (P3-8…10).
fn player_wins(player: &[String], bank: &[String]) -> bool {
    let (p, b) = (rank(player), rank(bank));
    if p == 31 && b == 31 {
        return false;
    }
    p < b || (p == b && best(player) > best(bank))
}

#[test]
fn poquer_3_cartas_rounds_pay_the_better_hand_1_to_1_less_5_percent() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 31);
    select(&mut s, "poquer-3-cartas");
    s.insert_note(5_000);
    let denom = s.denom();
    // The second ante of the table: 40 credits.
    s.command(Command::AdjustBet { control: BetControl::Amount, delta: 1 });
    let mut wins = 0;
    for _ in 0..300 {
        let credit = s.machine().credit();
        let (round, win, stake) = play(&mut s);
        assert_eq!(round["bet"]["ante"], 40);
        let player: Vec<String> = serde_json::from_value(round["deal"]["player"].clone()).unwrap();
        let bank: Vec<String> = serde_json::from_value(round["deal"]["bank"].clone()).unwrap();
        let mut all = player.clone();
        all.extend(bank.clone());
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 6, "six cards of one deck: {player:?} {bank:?}");
        assert_eq!(stake, 40 * denom);
        // P3-29: the ante back and its prize less 5%, in cents.
        let want = if player_wins(&player, &bank) { 40 * denom * 39 / 20 } else { 0 };
        assert_eq!(win, want, "{player:?} against {bank:?}");
        assert_eq!(s.machine().credit(), credit - stake + win);
        wins += usize::from(win > 0);
        let picture = s.history().last().unwrap().picture(Lang::En);
        let Scene::Cards(hands) = &picture.scene else { panic!("the history draws the cards") };
        assert_eq!(hands.len(), 2);
        assert!(picture.caption.starts_with(if win > 0 { "THE PLAYER WINS" } else { "THE BANK WINS" }), "{}", picture.caption);
    }
    // About half the rounds are won (49.9 %): 300 rounds within ±4.5 σ.
    assert!((100..=200).contains(&wins), "{wins} wins in 300 rounds");
}
