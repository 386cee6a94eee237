//! What the compiler warns a draw-poker designer about without refusing
//! (issue 36, point 3): a hand order that pays a lower-ranked hand more.
//! A flush paying more than a full house is legal (each hand is paid as
//! the first entry it makes, M-13), but it is almost always a slip.
//!
//! Only the hands every deck ranks alike are compared: a natural royal
//! flush, a straight flush, four of a kind, a full house, a flush, a
//! straight, three of a kind, two pair, a pair. The wild-card hands (four
//! deuces, a wild royal, five of a kind) rank differently from one game to
//! the next (Joker Poker pays five of a kind above a wild royal, Deuces
//! Wild below) and are left out.

use crate::compile::without_bom;
use crate::format::{DrawPokerPaytable, HandSource};
use crate::locate::{Path, line_of};

/// The standard rank of a hand, higher is better; `None` for a hand the
/// decks rank differently.
fn rank(hand: &HandSource) -> Option<(u8, &'static str)> {
    Some(match hand {
        HandSource::RoyalFlush | HandSource::SequentialRoyalFlush { .. } => (9, "a royal flush"),
        HandSource::StraightFlush => (8, "a straight flush"),
        HandSource::FourOfAKind { .. } => (7, "four of a kind"),
        HandSource::FullHouse => (6, "a full house"),
        HandSource::Flush => (5, "a flush"),
        HandSource::Straight => (4, "a straight"),
        HandSource::ThreeOfAKind => (3, "three of a kind"),
        HandSource::TwoPair => (2, "two pair"),
        HandSource::Pair { .. } => (1, "a pair"),
        HandSource::FourWilds | HandSource::FourWildsWith { .. } | HandSource::WildRoyalFlush | HandSource::FiveOfAKind | HandSource::FiveOfAKindOf { .. } => {
            return None;
        }
    })
}

/// Every pair of entries where a lower-ranked hand pays more per coin than
/// a higher-ranked one, each named with its line in `file`.
pub fn draw_warnings(file: &str, src: &str, p: &DrawPokerPaytable) -> Vec<String> {
    let src = without_bom(src);
    let line = |i: usize| line_of(src, &Path::default().field("pays").index(i));
    let mut out = Vec::new();
    for (i, high) in p.pays.iter().enumerate() {
        let Some((hr, hname)) = rank(&high.hand) else { continue };
        for (j, low) in p.pays.iter().enumerate() {
            let Some((lr, lname)) = rank(&low.hand) else { continue };
            if lr < hr && low.pays > high.pays {
                out.push(format!(
                    "{file}:{}: warning: pays[{j}]: \"{}\" ({lname}) pays {} per coin, more than \"{}\" ({hname}, line {}) pays {}: a lower-ranked hand pays more",
                    line(j),
                    low.name,
                    low.pays,
                    high.name,
                    line(i),
                    high.pays
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warnings(src: &str) -> Vec<String> {
        let p: DrawPokerPaytable = ron::from_str(src).unwrap();
        draw_warnings("t.ron", src, &p)
    }

    #[test]
    fn a_flush_over_a_full_house_is_warned_with_both_lines() {
        let table = |full: u64, flush: u64| {
            format!(
                "DrawPokerPaytable(id: \"t\", name: \"T\", coins: [1],\n pays: [\n (hand: RoyalFlush, name: \"Royal\", pays: 250),\n (hand: FullHouse, name: \"Full House\", pays: {full}),\n (hand: Flush, name: \"Flush\", pays: {flush}),\n (hand: FourWilds, name: \"Four Deuces\", pays: 1),\n ],\n)"
            )
        };
        assert_eq!(
            warnings(&table(6, 7)),
            vec![
                "t.ron:5: warning: pays[2]: \"Flush\" (a flush) pays 7 per coin, more than \"Full House\" (a full house, line 4) pays 6: a lower-ranked hand pays more"
            ]
        );
        // Equal pays, the usual order, and a wild hand paying less than
        // anything: no word.
        assert!(warnings(&table(6, 6)).is_empty());
        assert!(warnings(&table(9, 6)).is_empty());
    }
}
