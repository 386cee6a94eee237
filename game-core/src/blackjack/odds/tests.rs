use super::*;
use crate::blackjack::tests::standard;

/// The published check of issue 32: 6 decks, S17, peek, 3:2, double any
/// two, DAS, resplit to 4 (not aces), one card to split aces, no
/// surrender: house edge 0.4026 %.
#[test]
fn the_standard_game_matches_the_published_house_edge() {
    let f = analyse(&standard());
    let edge = (1.0 - f.rtp) * 100.0;
    assert!((edge - 0.4026).abs() < 0.003, "house edge {edge:.5} %");
}

/// The seed game (decisions.md): its return, the bonus's part (the
/// digest's model: +0.10 pp), and insurance, which returns 3 × P(ten) =
/// 3 × 96/311 whatever the player holds (the hole card is any of the 311
/// cards the ace leaves: card-games.md §C.2's −7.40 %).
#[test]
fn the_seed_game() {
    let f = analyse(&Rules::seed());
    assert!((f.rtp - 0.997999).abs() < 5e-7, "seed RTP {:.7}", f.rtp);
    assert!((f.bonus - 0.0010).abs() < 0.0001, "bonus {:.6}", f.bonus);
    assert!((f.insurance.unwrap() - 288.0 / 311.0).abs() < 1e-12);
}

/// The standard game's optimal decisions against the published basic
/// strategy for 6 decks, S17, DAS, peek (two-card hands).
#[test]
fn the_standard_strategy_is_the_published_basic_strategy() {
    let f = analyse(&standard());
    // Classes: 0 ace, 1–8 the values 2–9, 9 the tens.
    let first = |up: u8, a: u8, b: u8| f.strategy.first[&(up, a.min(b), a.max(b), false)];
    let cases = [
        (9, 9, 5, Action::Hit, "T-6 v T"),
        (5, 4, 5, Action::Double, "5-6 v 6"),
        (9, 7, 7, Action::Split, "8-8 v T"),
        (0, 0, 0, Action::Split, "A-A v A"),
        (5, 9, 9, Action::Stand, "T-T v 6"),
        (3, 8, 2, Action::Stand, "9-3 v 4"),
        // The composition-dependent exception of multi-deck tables: T-2
        // hits a 4 (stand -0.21112, hit -0.21036).
        (3, 9, 1, Action::Hit, "T-2 v 4"),
        (1, 9, 1, Action::Hit, "T-2 v 2"),
        (8, 0, 6, Action::Hit, "A-7 v 9"),
        (2, 0, 6, Action::Double, "A-7 v 3"),
        (1, 4, 3, Action::Hit, "5-4 v 2"),
        (2, 4, 3, Action::Double, "5-4 v 3"),
        (9, 9, 9, Action::Stand, "T-T v T"),
        (6, 8, 8, Action::Stand, "9-9 v 7"),
        (7, 8, 8, Action::Split, "9-9 v 8"),
    ];
    for (up, a, b, want, what) in cases {
        assert_eq!(first(up, a, b), want, "{what}");
    }
}
