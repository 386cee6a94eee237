//! Video bingo's rules against the text and independent brute forces.

use meters::rng::StreamRng;

use super::extra::extra_figures;
use super::odds::{Geometry, card_odds, choose};
use super::*;

fn pattern(name: &str, shape: Shape, variant: Variant, pays: u64) -> Pattern {
    Pattern { name: name.into(), masks: shape.masks(variant).unwrap(), pays }
}

fn line() -> Shape {
    Shape::Line { rows: true, columns: true, diagonals: true }
}

/// A small game of each variant: line, four corners (not 90), full card.
pub(super) fn game(variant: Variant, balls: u8) -> BingoGame {
    let mut patterns =
        vec![pattern("linha", if variant == Variant::Ninety { Shape::Line { rows: true, columns: false, diagonals: false } } else { line() }, variant, 2)];
    if variant != Variant::Ninety {
        patterns.push(pattern("quatro cantos", Shape::FourCorners, variant, 5));
    }
    patterns.push(pattern("bingo", Shape::FullCard, variant, 100));
    BingoGame {
        id: format!("bingo-{}", variant.name()),
        name: "Bingo".into(),
        variant,
        balls,
        most_cards: 4,
        patterns,
        extra: Some(ExtraBalls { most: 3, margin_bp: 1000, offer_floor_bp: 8000 }),
        minimum: 1,
        maximum: 10,
        symbols: Vec::new(),
    }
}

/// B-14, B-64/B-65, B-70 to B-72, B-81/B-82 on 10^6 generated cards: every
/// card valid, every number of each column's range used.
#[test]
fn a_million_generated_cards_keep_their_layouts() {
    let mut rng = StreamRng::from_seed(1);
    for variant in Variant::ALL {
        let mut seen = 0u128;
        let mut blanks = std::collections::HashSet::new();
        for _ in 0..250_000 {
            let card = Card::generate(variant, &mut rng);
            card.check(variant).unwrap_or_else(|e| panic!("{variant:?}: {e}: {card:?}"));
            assert_eq!(card.numbers().count(), variant.numbers());
            seen |= card.numbers().fold(0u128, |m, n| m | 1u128 << n);
            blanks.insert(card.free_mask());
        }
        assert_eq!(seen, ((1u128 << variant.balls()) - 1) << 1, "{variant:?}: every ball on some card");
        // 90-ball: many layouts of the blanks; the others: only the centre.
        if variant == Variant::Ninety {
            assert!(blanks.len() > 1000, "{} layouts", blanks.len());
        } else {
            assert_eq!(blanks.len(), 1);
        }
    }
}

#[test]
fn a_card_breaking_its_layout_is_named() {
    let mut rng = StreamRng::from_seed(2);
    let good = Card::generate(Variant::SeventyFive, &mut rng);
    let mut bad = good.clone();
    bad.cells[0] = 16;
    assert!(matches!(bad.check(Variant::SeventyFive), Err(card::LayoutError::Column { cell: 0, .. }) | Err(card::LayoutError::Repeated { .. })));
    let mut bad = good.clone();
    bad.cells[12] = 33;
    assert!(bad.check(Variant::SeventyFive).is_err(), "the centre is free (B-70)");
    let mut bad = Card::generate(Variant::Ninety, &mut rng);
    let at = bad.cells.iter().position(|&n| n == 0).unwrap();
    let (lo, _) = Variant::Ninety.column_range(at % 9);
    bad.cells[at] = lo;
    assert!(bad.check(Variant::Ninety).is_err());
}

/// B-38 c and B-14: four cards of a round all different, no line's
/// combination on two of them.
#[test]
fn the_cards_of_a_round_differ_and_repeat_no_line() {
    let mut rng = StreamRng::from_seed(3);
    for variant in Variant::ALL {
        let lines = Card::line_masks(variant);
        for _ in 0..2_000 {
            let cards = Card::generate_set(variant, 4, &lines, &mut rng);
            assert_eq!(cards.len(), 4);
            let mut combos = std::collections::HashSet::new();
            for c in &cards {
                for &m in &lines {
                    let mut v: Vec<u8> = (0..variant.cells()).filter(|i| m >> i & 1 == 1).map(|i| c.cells[i]).filter(|&n| n != 0).collect();
                    v.sort_unstable();
                    assert!(combos.insert(v), "{variant:?}: a line repeated");
                }
            }
        }
    }
}

/// The independent reading of a card: its rows, columns and diagonals as
/// lists of numbers (0 free), a pattern complete when all its numbers are
/// drawn; the highest paying pattern.
fn brute_pays(variant: Variant, card: &Card, drawn: &[u8]) -> u64 {
    let (r, c) = (variant.rows(), variant.columns());
    let at = |i: usize, j: usize| card.cells[i * c + j];
    let hit = |n: u8| n == 0 || drawn.contains(&n);
    let mut lines: Vec<Vec<u8>> = (0..r).map(|i| (0..c).map(|j| at(i, j)).collect()).collect();
    if variant != Variant::Ninety {
        lines.extend((0..c).map(|j| (0..r).map(|i| at(i, j)).collect()));
        lines.push((0..r).map(|i| at(i, i)).collect());
        lines.push((0..r).map(|i| at(i, r - 1 - i)).collect());
    }
    if card.cells.iter().all(|&n| hit(n)) {
        100
    } else if variant != Variant::Ninety && [at(0, 0), at(0, c - 1), at(r - 1, 0), at(r - 1, c - 1)].iter().all(|&n| hit(n)) {
        5
    } else if lines.iter().any(|l| l.iter().all(|&n| hit(n))) {
        2
    } else {
        0
    }
}

fn each_draw(n: u8, d: usize, f: &mut impl FnMut(&[u8])) {
    fn go(n: u8, d: usize, from: u8, acc: &mut Vec<u8>, f: &mut impl FnMut(&[u8])) {
        if acc.len() == d {
            f(acc);
            return;
        }
        for b in from..=n {
            acc.push(b);
            go(n, d, b + 1, acc, f);
            acc.pop();
        }
    }
    go(n, d, 1, &mut Vec::new(), f);
}

/// The exact pattern probabilities against every draw, one by one, on a
/// generated card: 30-ball with 7 balls and with 12 (C(30, 12) is too
/// many: 12 is checked by the complement, drawing the 18 balls left),
/// and 75-ball with 4.
#[test]
fn exact_pattern_odds_match_every_draw_of_small_variants() {
    let mut rng = StreamRng::from_seed(4);
    for (variant, d) in [(Variant::Thirty, 7usize), (Variant::Thirty, 9), (Variant::SeventyFive, 4)] {
        let g = game(variant, d as u8);
        let card = Card::generate(variant, &mut rng);
        let mut by_pay = std::collections::BTreeMap::<u64, u128>::new();
        let mut draws = 0u128;
        each_draw(variant.balls(), d, &mut |drawn| {
            *by_pay.entry(brute_pays(variant, &card, drawn)).or_default() += 1;
            draws += 1;
        });
        let odds = card_odds(&g);
        assert_eq!(odds.draws, draws);
        for (p, pat) in g.patterns.iter().enumerate() {
            assert_eq!(odds.ways[p], by_pay.get(&pat.pays).copied().unwrap_or(0), "{variant:?} {d} balls: {}", pat.name);
        }
        assert_eq!(odds.none, by_pay.get(&0).copied().unwrap_or(0));
    }
}

/// Published combinatorics: on 75-ball the full card (24 numbers) within
/// D balls is C(51, D−24)/C(75, D)·… i.e. C(75−24, D−24)/C(75, D) of
/// the draws; a 90-ball full house within 90 balls is certain.
#[test]
fn the_full_card_odds_are_the_textbook_formula() {
    for (variant, d) in [(Variant::SeventyFive, 40u8), (Variant::Ninety, 60), (Variant::Eighty, 50), (Variant::Thirty, 20)] {
        let g = game(variant, d);
        let odds = card_odds(&g);
        let (n, k) = (u64::from(variant.balls()), variant.numbers() as u64);
        let full = g.patterns.len() - 1;
        assert_eq!(odds.ways[full], choose(n - k, u64::from(d) - k), "{variant:?}");
        assert_eq!(odds.draws, choose(n, u64::from(d)));
        assert_eq!(odds.ways.iter().sum::<u128>() + odds.none, odds.draws);
    }
    assert_eq!(card_odds(&game(Variant::Ninety, 90)).ways[1], 1);
}

/// 90-ball rows against inclusion–exclusion: each row holds five numbers
/// on every card (B-14), so "at least one row" is
/// 3·C(85, D−5) − 3·C(80, D−10) + C(75, D−15) of the C(90, D) draws,
/// whatever the layout; the line pays when the card is not full.
#[test]
fn ninety_ball_rows_match_inclusion_exclusion() {
    for d in [15u64, 30, 45, 60] {
        let odds = card_odds(&game(Variant::Ninety, d as u8));
        let c = |n: u64, k: u64| if k > d { 0 } else { choose(n, d - k) };
        let any_row = 3 * c(85, 5) - 3 * c(80, 10) + c(75, 15);
        assert_eq!(odds.ways[1], c(75, 15), "{d} balls: full card");
        assert_eq!(odds.ways[0], any_row - c(75, 15), "{d} balls: a line");
        assert_eq!(odds.none, choose(90, d) - any_row);
    }
    // The geometry used is a valid layout: five a row, one or two a column.
    let geo = Geometry::of(Variant::Ninety);
    let numbered = |i: usize| geo.numbered.contains(&i);
    assert!((0..3).all(|r| (0..9).filter(|&c| numbered(r * 9 + c)).count() == 5));
    assert!((0..9).all(|c| (1..=2).contains(&(0..3).filter(|&r| numbered(r * 9 + c)).count())));
}

/// An extra ball's value is the prize each ball still in the drum would
/// add, over the balls left: checked by drawing each of them in turn
/// through the round itself.
#[test]
fn an_extra_balls_price_is_its_value_over_every_remaining_ball() {
    let mut rng = StreamRng::from_seed(6);
    let mut checked = 0;
    for variant in Variant::ALL {
        let g = game(variant, if variant == Variant::Ninety { 60 } else { variant.balls() * 2 / 3 });
        for _ in 0..200 {
            let (cards, sequence) = g.deal(4, &mut rng);
            let round = Round::new(&g, 3, cards.clone(), sequence.clone());
            let Some(offer) = round.offer() else { continue };
            let shown = round.balls_shown().to_vec();
            let before = round.win();
            let mut gained = 0u64;
            let mut left = 0u64;
            for ball in 1..=variant.balls() {
                if shown.contains(&ball) {
                    continue;
                }
                left += 1;
                let mut seq = shown.clone();
                seq.push(ball);
                let mut g1 = g.clone();
                g1.balls = seq.len() as u8;
                g1.extra = None;
                gained += Round::new(&g1, 3, cards.clone(), seq).win() - before;
            }
            assert_eq!(offer.value, (gained, left));
            let m = g.extra.unwrap().margin_bp;
            let price = (u128::from(gained) * u128::from(10_000 + m)).div_ceil(u128::from(left) * 10_000) as u64;
            assert_eq!(offer.price, price.max(1));
            // Never below the floor (M-17) for any purchase.
            assert!(gained * 10 >= 8 * offer.price * left);
            // The price is a function of what is shown: other hidden balls, same price.
            let mut other = sequence.clone();
            other[round.shown()..].reverse();
            assert_eq!(Round::new(&g, 3, cards.clone(), other).offer().map(|o| o.price), Some(offer.price));
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} offers");
}

/// Buying and stopping: each purchase one more ball shown at the offer's
/// price, a stop ends the round, and nothing is offered past the most.
#[test]
fn extra_balls_are_bought_one_at_a_time_up_to_the_most() {
    let mut rng = StreamRng::from_seed(7);
    let g = game(Variant::SeventyFive, 45);
    let mut bought_three = false;
    for _ in 0..500 {
        let (cards, sequence) = g.deal(4, &mut rng);
        let mut r = Round::new(&g, 2, cards, sequence);
        let mut paid = 0;
        while let Some(o) = r.offer() {
            let shown = r.shown();
            assert_eq!(r.buy(), Ok(o.price));
            paid += o.price;
            assert_eq!(r.shown(), shown + 1);
        }
        assert!(r.bought.len() <= 3);
        bought_three |= r.bought.len() == 3;
        assert_eq!(r.staked(), 8 + paid);
        assert_eq!(r.buy(), Err(round::NotOffered));
        assert_eq!(r.phase(), Phase::Done);
    }
    assert!(bought_three);
}

/// M-13, M-14: each card pays its highest pattern only; the round pays
/// the sum over the cards.
#[test]
fn each_card_pays_its_highest_pattern_and_the_cards_add_up() {
    let g = game(Variant::Thirty, 30);
    let mut rng = StreamRng::from_seed(8);
    let (cards, sequence) = g.deal(3, &mut rng);
    let r = Round::new(&g, 4, cards, sequence);
    // Every ball drawn: every card full, 100 each, not 100 + 5 + 2.
    assert_eq!(r.win(), 3 * 4 * 100);
    assert!(r.prizes().iter().all(|p| *p == Some(2)));
    assert_eq!(r.covered_at(0).map(|n| n <= 30), Some(true));
}

/// The extra-ball chain of one card against its brute force: every
/// marked set the fixed draw can leave (weighted exactly), then every
/// sequence of extra balls, buying while offered, through the round.
#[test]
fn the_extra_ball_figures_match_every_sequence_of_extra_balls() {
    let mut g = game(Variant::Thirty, 18);
    g.extra = Some(ExtraBalls { most: 2, margin_bp: 500, offer_floor_bp: 8000 });
    let extra = g.extra.unwrap();
    let fig = extra_figures(&g, &extra, 2);
    let card = Card { cells: vec![1, 11, 21, 2, 12, 22, 3, 13, 23] };
    let (n, d) = (30u8, 18usize);
    let others: Vec<u8> = (1..=n).filter(|b| !card.cells.contains(b)).collect();
    let (mut value, mut price) = (0f64, 0f64);
    let all = choose(30, 18) as f64;
    for s in 0u32..1 << 9 {
        let hits: Vec<u8> = (0..9).filter(|i| s >> i & 1 == 1).map(|i| card.cells[i]).collect();
        if hits.len() > d || d - hits.len() > others.len() {
            continue;
        }
        let w = choose(21, (d - hits.len()) as u64) as f64 / all;
        let mut base: Vec<u8> = hits.clone();
        base.extend(&others[..d - hits.len()]);
        // Recurse over the extra balls actually drawn: the round is built on
        // the balls so far, followed by the rest of the drum in any order.
        fn round(g: &BingoGame, card: &Card, seq: &[u8], bought: usize) -> Round {
            let mut full = seq.to_vec();
            full.extend((1..=30).filter(|b| !seq.contains(b)));
            let mut r = Round::new(g, 2, vec![card.clone()], full);
            for _ in 0..bought {
                r.buy().unwrap();
            }
            r
        }
        fn go(g: &BingoGame, card: &Card, seq: Vec<u8>, bought: usize, p: f64, value: &mut f64, price: &mut f64) {
            let r = round(g, card, &seq, bought);
            let Some(o) = r.offer() else { return };
            let before = r.win();
            let left: Vec<u8> = (1..=30).filter(|b| !seq.contains(b)).collect();
            for &b in &left {
                let mut next = seq.clone();
                next.push(b);
                let q = p / left.len() as f64;
                *value += q * (round(g, card, &next, bought + 1).win() - before) as f64;
                *price += q * o.price as f64;
                go(g, card, next, bought + 1, q, value, price);
            }
        }
        go(&g, &card, base, 0, w, &mut value, &mut price);
    }
    assert!((fig.value - value).abs() < 1e-9 && (fig.price - price).abs() < 1e-9, "{fig:?} against {value} / {price}");
    assert!(fig.price > 0.0 && fig.rtp() >= 0.8);
}

/// The one pricing rule (M-17): ⌈value × (1 + margin) / remaining⌉, at
/// least one credit; no offer under the floor, with nothing to gain, with
/// an empty drum, or at a price beyond `u64`.
#[test]
fn an_extra_ball_is_priced_by_one_rule() {
    let x = ExtraBalls { most: 1, margin_bp: 1000, offer_floor_bp: 8000 };
    // 90 over 20 balls: 4.5 a ball, × 1.1 = 4.95, so 5; 4.5 / 5 = 90 %.
    assert_eq!(x.price(90, 20), Some(5));
    // 40 over 20: 2 × 1.1 = 2.2, so 3; 2 / 3 = 66.7 %, under 80 %.
    assert_eq!(x.price(40, 20), None);
    // 4 over 5: 0.8 × 1.1 = 0.88, so 1; exactly the 80 % floor: offered.
    assert_eq!(x.price(4, 5), Some(1));
    // 1 over 50: 0.022, so the least price, 1 credit; 2 %: not offered.
    assert_eq!(x.price(1, 50), None);
    assert_eq!(x.price(0, 5), None);
    assert_eq!(x.price(4, 0), None);
    assert_eq!(x.price(u64::MAX, 1), None);
}

/// The bounds on an extra ball's return for n cards (docs/bingo.md) hold
/// for every offer real rounds are made: 1 to 4 cards of 30-ball at bets
/// of 1 to 4 credits, every offer bought. They lie within the floor and
/// 1 / (1 + margin), and for one card at one bet they are the chain's best
/// and worst offers, found over the same states by other code.
#[test]
fn every_offer_returns_within_the_bounds_for_its_number_of_cards() {
    let mut g = game(Variant::Thirty, 12);
    g.maximum = 4;
    let x = g.extra.unwrap();
    let bounds = odds::CardSets::new(&g).offer_bounds(&x);
    assert_eq!(bounds.iter().map(|b| b.cards).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    let at_least = |a: extra::Ratio, b: extra::Ratio| a.0 * b.1 >= b.0 * a.1;
    // n + 1 cards can show every sum n cards can (a card may gain nothing).
    for w in bounds.windows(2) {
        assert!(at_least(w[0].least, w[1].least) && at_least(w[1].most, w[0].most), "{w:?}");
    }
    // One card: 44/54 = 81.5 % at the least, strictly above the floor.
    assert!(!at_least((8, 10), bounds[0].least), "{:?}", bounds[0]);
    let mut rng = StreamRng::from_seed(33);
    for b in &bounds {
        assert!(at_least(b.least, (8, 10)) && at_least((10, 11), b.most), "{b:?}");
        let mut offers = 0;
        for round in 0..4000u64 {
            let (cards, sequence) = g.deal(b.cards, &mut rng);
            let mut r = Round::new(&g, 1 + round % 4, cards, sequence);
            while let Some(o) = r.offer() {
                let got = (u128::from(o.value.0), u128::from(o.value.1) * u128::from(o.price));
                assert!(at_least(got, b.least) && at_least(b.most, got), "{} cards: {o:?} outside {b:?}", b.cards);
                offers += 1;
                r.buy().unwrap();
            }
        }
        assert!(offers > 100, "{} cards: only {offers} offers", b.cards);
    }
    g.minimum = 2;
    g.maximum = 2;
    let sets = odds::CardSets::new(&g);
    let one = sets.offer_bounds(&x)[0];
    let chain = sets.extra(&x, 2);
    let (worst, best) = (chain.worst.unwrap(), chain.best.unwrap());
    assert!(at_least(one.least, worst) && at_least(worst, one.least), "{one:?} against {worst:?}");
    assert!(at_least(one.most, best) && at_least(best, one.most), "{one:?} against {best:?}");
}

/// The player's best policy for one card against a brute force over every
/// sequence of extra balls, any decision at every offer: no policy gains
/// anything at the chain's best return λ*, max E[value − λ*·price] = 0,
/// while just under it one does, so no policy, whatever history it looks
/// at, returns more than λ*, and one returns λ*.
#[test]
fn the_best_policy_is_best_against_every_sequence_of_extra_balls() {
    let mut g = game(Variant::Thirty, 16);
    g.extra = Some(ExtraBalls { most: 3, margin_bp: 500, offer_floor_bp: 8000 });
    let extra = g.extra.unwrap();
    let sets = odds::CardSets::new(&g);
    let every = sets.extra(&extra, 3);
    let best = sets.best_policy(&extra, 3, &every);
    let lambda = best.rtp();
    assert!(best.price > 0.0 && lambda > every.rtp() + 1e-6, "{every:?} then {best:?}");
    let (worst, most) = (every.worst.unwrap(), every.best.unwrap());
    assert!(lambda >= worst.0 as f64 / worst.1 as f64 && lambda <= most.0 as f64 / most.1 as f64);
    let card = Card { cells: vec![1, 11, 21, 2, 12, 22, 3, 13, 23] };
    let others: Vec<u8> = (1..=30).filter(|b| !card.cells.contains(b)).collect();
    // max over every policy of E[Σ (win added − λ·price)] from `seq`.
    fn gain(g: &BingoGame, card: &Card, seq: &[u8], bought: usize, lambda: f64) -> f64 {
        let mut full = seq.to_vec();
        full.extend((1..=30).filter(|b| !seq.contains(b)));
        let mut r = Round::new(g, 3, vec![card.clone()], full);
        for _ in 0..bought {
            r.buy().unwrap();
        }
        let Some(o) = r.offer() else { return 0.0 };
        let before = r.win();
        let left: Vec<u8> = (1..=30).filter(|b| !seq.contains(b)).collect();
        let mut buy = 0.0;
        for &b in &left {
            let mut next = seq.to_vec();
            next.push(b);
            let mut after = r.clone();
            after.sequence = next.iter().copied().chain((1..=30).filter(|x| !next.contains(x))).collect();
            after.buy().unwrap();
            let won = after.win() as f64 - before as f64;
            buy += (won - lambda * o.price as f64 + gain(g, card, &next, bought + 1, lambda)) / left.len() as f64;
        }
        buy.max(0.0)
    }
    let brute = |lambda: f64| -> f64 {
        let all = choose(30, 16) as f64;
        let mut total = 0.0;
        for s in 0u32..1 << 9 {
            let hits: Vec<u8> = (0..9).filter(|i| s >> i & 1 == 1).map(|i| card.cells[i]).collect();
            if hits.len() > 16 || 16 - hits.len() > others.len() {
                continue;
            }
            let mut base = hits.clone();
            base.extend(&others[..16 - hits.len()]);
            total += choose(21, (16 - hits.len()) as u64) as f64 / all * gain(&g, &card, &base, 0, lambda);
        }
        total
    };
    assert!(brute(lambda).abs() < 1e-9, "a policy gains {} at λ* = {lambda}", brute(lambda));
    assert!(brute(lambda - 1e-3) > 1e-9, "nothing gains under λ*");
}
