//! Card values and the drawing tableau of punto banco. The Cape Verde and
//! Portuguese texts lost their table (PB 25, seed 003 §13: "ver documento
//! original"); the tableau is Macau's [002 Bacará Art. 9], the universal
//! one (card-games.md §3.4, BAC-T4).

use crate::cards::{ACE, Card, TEN};

/// A card's points: ace 1, 2–9 their pips, ten and the court cards 0
/// (PB 9, BAC-T3).
pub fn points(card: Card) -> u8 {
    match card.rank() {
        ACE => 1,
        r if r >= TEN => 0,
        // Ranks 0–7 are the deuce to the nine.
        r => r + 2,
    }
}

/// A hand's total: its points modulo 10 (PB 10).
pub fn total(cards: &[Card]) -> u8 {
    cards.iter().map(|&c| points(c)).sum::<u8>() % 10
}

/// A natural: 8 or 9 on the first two cards. Neither hand draws when
/// either has one [002 Art. 9 4)(6)].
pub fn natural(two_card_total: u8) -> bool {
    two_card_total >= 8
}

/// The player ("ponto") draws a third card on 0–5 and stands on 6–7
/// [002 Art. 9 1), 2)], when neither hand has a natural.
pub fn player_draws(player_total: u8) -> bool {
    player_total <= 5
}

/// Whether the banker ("banca") draws, by its two-card total and the
/// points of the player's third card (None when the player stood), when
/// neither hand has a natural [002 Art. 9 3)]:
///
/// | banker | player stood | draws when the player's third card is |
/// |---|---|---|
/// | 0–2 | draws | any |
/// | 3 | draws | anything but 8 |
/// | 4 | draws | 2–7 |
/// | 5 | draws | 4–7 |
/// | 6 | stands | 6–7 |
/// | 7–9 | stands | never |
pub fn banker_draws(banker_total: u8, player_third: Option<u8>) -> bool {
    match (banker_total, player_third) {
        (0..=2, _) => true,
        (3..=5, None) => true,
        (6.., None) => false,
        (3, Some(p)) => p != 8,
        (4, Some(p)) => (2..=7).contains(&p),
        (5, Some(p)) => (4..=7).contains(&p),
        (6, Some(p)) => p == 6 || p == 7,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of PB 9 for every rank.
    #[test]
    fn every_rank_counts_its_points() {
        let want = [2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 1];
        for rank in 0..13u8 {
            for suit in 0..4 {
                assert_eq!(points(Card::new(rank, suit)), want[usize::from(rank)], "{}", Card::new(rank, suit));
            }
        }
        let h = |s: &str| s.split(' ').map(|c| c.parse::<Card>().unwrap()).collect::<Vec<_>>();
        assert_eq!(total(&h("9s 8h")), 7);
        assert_eq!(total(&h("Ks Qh")), 0);
        assert_eq!(total(&h("As 9h 5d")), 5);
    }

    /// Every line of §3.4's tableau, written out cell by cell as the text
    /// lays it: the banker's total down, the player's third card (10 for a
    /// zero-point card, as seed 002 writes it) across; `S` for "player
    /// stood". D draws, . stands.
    #[test]
    fn every_line_of_the_drawing_tableau() {
        //                 third:  S  1  2  3  4  5  6  7  8  9 10
        let table: [(u8, &str); 10] = [
            (0, "D D D D D D D D D D D"),
            (1, "D D D D D D D D D D D"),
            (2, "D D D D D D D D D D D"),
            (3, "D D D D D D D D . D D"),
            (4, "D . D D D D D D . . ."),
            (5, "D . . . D D D D . . ."),
            (6, ". . . . . . D D . . ."),
            (7, ". . . . . . . . . . ."),
            (8, ". . . . . . . . . . ."),
            (9, ". . . . . . . . . . ."),
        ];
        for (banker, line) in table {
            let cells: Vec<bool> = line.split(' ').map(|c| c == "D").collect();
            assert_eq!(banker_draws(banker, None), cells[0], "banker {banker}, player stood");
            for third in 1..=10u8 {
                let p = third % 10;
                assert_eq!(banker_draws(banker, Some(p)), cells[usize::from(third)], "banker {banker}, player's third {third}");
            }
        }
        for t in 0..=9 {
            assert_eq!(player_draws(t), t <= 5, "player {t}");
            assert_eq!(natural(t), t >= 8);
        }
    }
}
