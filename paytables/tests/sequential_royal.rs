//! Issue 18: the sequential royal flush, the one hand paid by the order
//! the cards are shown in. The exact analysis against the published
//! figures, against its own figures when the order pays nothing extra,
//! against enumeration of every ordered draw of single deals, and against
//! a brute force over every order of the deals where order can matter.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use game_core::cards::{Card, parse_hand};
use game_core::draw_poker::{DrawPokerGame, Hold};
use meters::StreamRng;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use paytables::draw_math::{DrawTables, analyse_deals, analyse_with, hold_values, suit_classes};
use paytables::poker_compile::compile_draw;
use paytables::reel_math::decimal;

fn asset(name: &str) -> (String, String) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables").join(name);
    (p.display().to_string(), std::fs::read_to_string(&p).unwrap())
}

/// The source of an asset with `entry` listed first and `edits` made.
fn source_with(name: &str, entry: &str, edits: &[(&str, &str)]) -> (String, String) {
    let (f, mut s) = asset(name);
    for (from, to) in edits {
        assert!(s.contains(from), "{from}");
        s = s.replace(from, to);
    }
    let at = s.find("(hand: RoyalFlush").unwrap();
    (f, format!("{}{entry},\n        {}", &s[..at], &s[at..]))
}

fn with_sequential(name: &str, entry: &str, edits: &[(&str, &str)]) -> DrawPokerGame {
    let (f, s) = source_with(name, entry, edits);
    compile_draw(&f, &s).unwrap().0
}

/// The usual sequential royal: 10,000 per coin at five coins, left to right.
const LEFT_TO_RIGHT: &str = r#"(hand: SequentialRoyalFlush(order: LeftToRight), name: "Sequential Royal", pays: 250, max_coin_pays: Some(10000))"#;

fn pays(game: &DrawPokerGame, coins: u32) -> Vec<u64> {
    (0..game.entries.len()).map(|e| game.pays_per_coin(e, coins)).collect()
}

/// The Wizard of Odds' sequential-royal table (10,000 per coin bet for a
/// T-J-Q-K-A shown left to right, optimal play including card order):
/// Jacks or Better 9-6 99.78%, 8-5 97.53%, Bonus Poker 8-5 99.40%. The
/// sequential royal comes about once in four million rounds.
#[test]
fn published_returns_with_a_sequential_royal() {
    let (f, s) = asset("jacks-or-better-sequential.ron");
    let sample = compile_draw(&f, &s).unwrap().0;
    for (game, expected) in [
        (sample, "0.9978"),
        (with_sequential("jacks-or-better-9-6.ron", LEFT_TO_RIGHT, &[("pays: 9)", "pays: 8)"), ("pays: 6)", "pays: 5)")]), "0.9753"),
        (with_sequential("bonus-poker-8-5.ron", LEFT_TO_RIGHT, &[]), "0.9940"),
    ] {
        let file = &game.name;
        let tables = DrawTables::build(&game, 2);
        let top = analyse_with(&game, &tables, 2).configs.pop().unwrap();
        assert_eq!(decimal(&top.rtp, 4), expected, "{file}");
        if expected == "0.9978" {
            // The same figures on any number of threads (issue 18).
            for threads in [1, 5] {
                let other = analyse_with(&game, &DrawTables::build(&game, threads), threads).configs.pop().unwrap();
                assert_eq!(
                    (&other.rtp, &other.entry_probability, &other.hold_value_second_moment),
                    (&top.rtp, &top.entry_probability, &top.hold_value_second_moment)
                );
            }
        }
        let one_in = 1.0 / num_traits::ToPrimitive::to_f64(&top.entry_probability[0]).unwrap();
        assert!((3.5e6..4.5e6).contains(&one_in), "{file}: a sequential royal 1 in {one_in}");
    }
}

/// When the sequential royal pays what the royal does, no decision
/// changes: every figure is the game's without it, and the final royals
/// are shown in each of their 120 orders equally often, so 1 in 120 of
/// them (2 in 120 either way) is sequential, exactly.
#[test]
fn a_sequential_royal_paying_as_the_royal_changes_no_figure() {
    let (f, s) = asset("jacks-or-better-9-6.ron");
    let plain = compile_draw(&f, &s).unwrap().0;
    let plain_tables = DrawTables::build(&plain, 2);
    let plain_fig = analyse_with(&plain, &plain_tables, 2);
    for (order, ways) in [("LeftToRight", 1), ("EitherWay", 2)] {
        let entry = format!(r#"(hand: SequentialRoyalFlush(order: {order}), name: "Sequential Royal", pays: 250, max_coin_pays: Some(800))"#);
        let game = with_sequential("jacks-or-better-9-6.ron", &entry, &[]);
        let tables = DrawTables::build(&game, 2);
        let fig = analyse_with(&game, &tables, 2);
        assert_eq!(fig.configs.len(), plain_fig.configs.len());
        for (a, b) in fig.configs.iter().zip(&plain_fig.configs) {
            assert_eq!(a.rtp, b.rtp, "{order} {} coins", a.coins);
            assert_eq!(a.hit_frequency, b.hit_frequency);
            assert_eq!(a.second_moment, b.second_moment);
            assert_eq!(a.hold_value_second_moment, b.hold_value_second_moment);
            assert_eq!(&a.entry_probability[2..], &b.entry_probability[1..]);
            let royals = &b.entry_probability[0];
            assert!(!royals.is_zero());
            assert_eq!(&a.entry_probability[0] + &a.entry_probability[1], *royals);
            assert_eq!(a.entry_probability[0], royals * BigRational::new(BigInt::from(ways), BigInt::from(120)), "{order}");
        }
    }
}

/// Every hold's value from the tables equals the enumeration of every
/// ordered draw through game-core's evaluator, for deals whose royal cards
/// sit in their places, out of them, or both ways.
#[test]
fn hold_values_equal_enumeration_of_every_ordered_draw() {
    let either = r#"(hand: SequentialRoyalFlush(order: EitherWay), name: "Reversible Royal", pays: 250, max_coin_pays: Some(5000))"#;
    let h = |s: &str| parse_hand(&[s.to_owned()]).unwrap();
    let mut rng = StreamRng::from_seed(18);
    for (file, entry) in [("jacks-or-better-9-6.ron", LEFT_TO_RIGHT), ("deuces-wild.ron", either)] {
        let game = with_sequential(file, entry, &[]);
        let tables = DrawTables::build(&game, 2);
        let coins = game.max_coins();
        let pays = pays(&game, coins);
        let mut deals: Vec<[Card; 5]> =
            ["Ts Js Qs 4d Ks", "Js Ts Qs Ks 4d", "As Ks Qs 4d Jh", "4c Jd Qd 7h Ad", "Qh 4c 9d 2s 7c", "3c Ts 9h Ks Qs"].map(h).to_vec();
        deals.push(game.deal(&mut rng).hand());
        for deal in deals {
            let totals = tables.hold_totals(&deal, &pays);
            for (hold, ev) in hold_values(&game, &deal, coins) {
                let from_tables = BigRational::new(BigInt::from(totals[hold.0 as usize]), BigInt::from(tables.ordered_draws(hold.count())));
                assert_eq!(from_tables, ev, "{file} {deal:?} {hold:?}");
            }
        }
        // Four to the royal in its places: the draw is the sequential royal.
        assert_eq!(tables.best_hold(&h("Ts Js Qs 4d As"), &pays), Hold(0b10111));
    }
}

/// The analysis over deals where the order of the cards can matter (two or
/// more royal cards of a suit), and over a spread of others, equals a brute
/// force that solves each of the 120 orders of every such deal by itself:
/// the tables' hold values as shown (checked above against enumeration),
/// the greatest taken (first in the order of the cards ascending, as the
/// analysis breaks ties), each entry counted by its own indicator pays.
#[test]
fn every_order_of_a_deal_agrees_with_solving_each_order_alone() {
    let game = with_sequential("jacks-or-better-9-6.ron", LEFT_TO_RIGHT, &[]);
    let tables = DrawTables::build(&game, 2);
    let royal_cards = |cards: &[u8; 5]| (0..4u8).map(|s| cards.iter().filter(|&&x| x / 4 >= 8 && x % 4 == s).count()).max().unwrap_or(0);
    let sample: Vec<([u8; 5], u32)> = suit_classes(52)
        .into_iter()
        .enumerate()
        .filter(|(i, (c, _))| (royal_cards(c) >= 3 && (i % 3 == 0 || royal_cards(c) == 5)) || i % 997 == 0)
        .map(|(_, c)| c)
        .collect();
    assert!(sample.iter().filter(|(c, _)| royal_cards(c) >= 3).count() > 500, "the sample holds deals where order matters");
    let coins = game.max_coins();
    let top = analyse_deals(&game, &tables, &sample, 2).configs.pop().unwrap();
    let pays = pays(&game, coins);
    let entries = game.entries.len();
    let indicator = |e: usize| (0..entries).map(|i| u64::from(i == e)).collect::<Vec<u64>>();
    let orders = permutations();
    let mut rtp = BigRational::zero();
    let mut second = BigRational::zero();
    let mut prob = vec![BigRational::zero(); entries];
    let mut weights = 0u64;
    let mut dealt_in_sequence = 0u64;
    for (cards, weight) in &sample {
        weights += u64::from(*weight) * 120;
        let sorted = cards.map(|x| Card::from_index(x).unwrap());
        for order in &orders {
            let shown: [Card; 5] = std::array::from_fn(|i| sorted[order[i]]);
            let totals = tables.hold_totals(&shown, &pays);
            // Holds in the order of their sorted-card masks.
            let hold_of = |m: usize| Hold((0..5).filter(|&i| m & (1 << order[i]) != 0).fold(0u8, |h, i| h | 1 << i));
            let value = |m: usize| {
                let h = hold_of(m);
                BigRational::new(BigInt::from(totals[h.0 as usize]), BigInt::from(tables.ordered_draws(h.count())))
            };
            let best = (1..32).fold(0, |b, m| if value(m) > value(b) { m } else { b });
            let v = value(best);
            let w = BigRational::from_integer(BigInt::from(*weight));
            rtp += &v * &w;
            second += &v * &v * &w;
            let h = hold_of(best);
            for (e, p) in prob.iter_mut().enumerate() {
                let count = tables.hold_totals(&shown, &indicator(e))[h.0 as usize];
                *p += BigRational::new(BigInt::from(count), BigInt::from(tables.ordered_draws(h.count()))) * &w;
            }
            dealt_in_sequence += u64::from(h.count() == 5 && game.evaluate(&shown) == Some(0));
        }
    }
    let n = BigRational::from_integer(BigInt::from(weights));
    assert_eq!(top.rtp, &rtp / &n);
    assert_eq!(top.hold_value_second_moment, &second / &n);
    for (e, p) in prob.iter().enumerate() {
        assert_eq!(top.entry_probability[e], p / &n, "{}", game.entries[e].name);
    }
    assert!(!prob[0].is_zero(), "sequential royals are drawn");
    // The dealt royal flush is in the sample, kept, and in sequence in one
    // of its orders for each of its four suits.
    assert_eq!(dealt_in_sequence, 1, "one suit class stands for the four dealt royals");
}

/// The 120 orders of five cards: `order[i]` is the card shown at place `i`.
fn permutations() -> Vec<[usize; 5]> {
    let mut out = Vec::new();
    for a in 0..5 {
        for b in (0..5).filter(|&b| b != a) {
            for c in (0..5).filter(|&c| c != a && c != b) {
                for d in (0..5).filter(|&d| d != a && d != b && d != c) {
                    out.push([a, b, c, d, 10 - a - b - c - d]);
                }
            }
        }
    }
    out
}

/// The compiler refuses a sequential royal that could never be paid, or
/// that pays less than the royal it also is, or two of them, each named.
#[test]
fn a_sequential_royal_is_refused_where_it_would_mislead() {
    let err = |entry: &str, edits: &[(&str, &str)]| {
        let (f, s) = source_with("jacks-or-better-9-6.ron", entry, edits);
        compile_draw(&f, &s).unwrap_err().to_string()
    };
    let below = err(
        r#"(hand: StraightFlush, name: "Straight Flush", pays: 50)"#,
        &[(
            r#"(hand: StraightFlush, name: "Straight Flush", name_pt: Some("Sequência de cor"), pays: 50),"#,
            r#"(hand: SequentialRoyalFlush(order: LeftToRight), name: "Sequential Royal", pays: 4000),"#,
        )],
    );
    assert!(below.contains("would never be paid") && below.contains("\"Straight Flush\""), "{below}");
    let less = err(r#"(hand: SequentialRoyalFlush(order: LeftToRight), name: "Sequential Royal", pays: 100)"#, &[]);
    assert!(less.contains("M-13") && less.contains("\"Royal Flush\"") && less.contains("Sequential Royal"), "{less}");
    let two = err(
        r#"(hand: SequentialRoyalFlush(order: LeftToRight), name: "Sequential Royal", pays: 8000),
        (hand: SequentialRoyalFlush(order: EitherWay), name: "Reversible Royal", pays: 4000)"#,
        &[],
    );
    assert!(two.contains("at most one sequential royal"), "{two}");
    let huge = err(r#"(hand: SequentialRoyalFlush(order: LeftToRight), name: "Sequential Royal", pays: 1000000001)"#, &[]);
    assert!(huge.contains("over 1000000000 credits per coin"), "{huge}");
}
