//! Issue 4's proof for the poker paytables: exact figures against the
//! published ones, the tables against direct enumeration of every draw,
//! the stud counts against brute force over every dealer hand, and
//! simulations of the optimal strategies inside their 99% intervals.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use game_core::cards::{Card, parse_hand};
use game_core::draw_poker::{DrawPokerGame, Hold};
use game_core::stud_poker::{Decision, StudDeal, StudPokerGame, TieRule};
use meters::StreamRng;
use num_bigint::BigInt;
use num_rational::BigRational;
use paytables::draw_math::{DrawTables, analyse_with, hold_values};
use paytables::poker_compile::{compile_draw, compile_stud};
use paytables::reel_math::decimal;
use paytables::stud_math::{COMPLETIONS, analyse_probed};

fn asset(name: &str) -> (String, String) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables").join(name);
    (p.display().to_string(), std::fs::read_to_string(&p).unwrap())
}

fn draw(name: &str) -> DrawPokerGame {
    let (f, s) = asset(name);
    compile_draw(&f, &s).unwrap().0
}

fn stud(name: &str) -> StudPokerGame {
    let (f, s) = asset(name);
    compile_stud(&f, &s).unwrap().0
}

/// Each sample's optimal-strategy return at maximum coins, to seven
/// decimals: 9/6 Jacks or Better is the issue's reference (0.9954390);
/// the others are the figures published for these tables (8/5 Bonus Poker
/// 99.1660%, 9/6 Double Double Bonus 98.9808%, "not so ugly" Deuces Wild
/// 99.7283%); Joker Poker with 17 for four of a kind has no published
/// figure we rely on and is checked by simulation below.
#[test]
fn draw_poker_samples_return_the_published_figures() {
    for (file, expected) in [
        ("jacks-or-better-9-6.ron", "0.9954390"),
        ("bonus-poker-8-5.ron", "0.9916597"),
        ("double-double-bonus-9-6.ron", "0.9898078"),
        ("deuces-wild.ron", "0.9972829"),
    ] {
        let game = draw(file);
        let tables = DrawTables::build(&game, 2);
        let fig = analyse_with(&game, &tables, 2);
        let max = fig.configs.iter().find(|c| c.coins == game.max_coins()).unwrap();
        assert_eq!(decimal(&max.rtp, 7), expected, "{file}");
        assert_eq!(fig.deals, 2_598_960);
        // The probabilities of the final hands and of nothing sum to one.
        let paid: BigRational = max.entry_probability.iter().sum();
        assert_eq!(paid, max.hit_frequency);
        assert!(max.hit_frequency < BigRational::from_integer(BigInt::from(1)));
    }
    // 9/6 Jacks or Better: the published hit frequency (45.45%) and
    // standard deviation (4.42).
    let game = draw("jacks-or-better-9-6.ron");
    let fig = paytables::draw_math::analyse(&game, 2);
    let max = fig.configs.last().unwrap();
    assert_eq!(decimal(&max.hit_frequency, 4), "0.4546");
    assert!((max.standard_deviation() - 4.4175).abs() < 1e-4, "{}", max.standard_deviation());
}

/// The inclusion–exclusion tables give, for every hold, exactly the total
/// pay found by enumerating every draw.
#[test]
fn hold_values_from_tables_equal_enumeration_of_every_draw() {
    let mut rng = StreamRng::from_seed(44);
    for file in ["jacks-or-better-9-6.ron", "double-double-bonus-9-6.ron", "deuces-wild.ron", "deuces-wild-bonus.ron", "joker-poker.ron"] {
        let game = draw(file);
        let tables = DrawTables::build(&game, 2);
        let coins = game.max_coins();
        let pays: Vec<u64> = (0..game.entries.len()).map(|e| game.pays_per_coin(e, coins)).collect();
        for _ in 0..6 {
            let deal = game.deal(&mut rng).hand();
            let totals = tables.hold_totals(&deal, &pays);
            let direct = hold_values(&game, &deal, coins);
            for (hold, ev) in direct {
                let draws = tables.ordered_draws(hold.count());
                let from_tables = BigRational::new(BigInt::from(totals[hold.0 as usize]), BigInt::from(draws));
                assert_eq!(from_tables, ev, "{file} {deal:?} {hold:?}");
            }
        }
    }
}

#[test]
fn strategy_holds_the_known_plays() {
    let game = draw("jacks-or-better-9-6.ron");
    let tables = DrawTables::build(&game, 2);
    let pays: Vec<u64> = (0..game.entries.len()).map(|e| game.pays_per_coin(e, 5)).collect();
    let h = |s: &str| parse_hand(&[s.to_owned()]).unwrap();
    // Four to a royal beats a made flush … (hold the four royal cards).
    assert_eq!(tables.best_hold(&h("Ah Kh Qh Jh 2h"), &pays), Hold(0b01111));
    // … and a pat straight flush stays.
    assert_eq!(tables.best_hold(&h("9c Tc Jc Qc Kc"), &pays), Hold(0b11111));
    // A low pair is kept over nothing.
    assert_eq!(tables.best_hold(&h("5d 5s 9c Jh 2d"), &pays), Hold(0b00011));
    // Nothing at all: draw five.
    assert_eq!(tables.best_hold(&h("2c 5d 7h 9s Td"), &pays), Hold(0));
}

/// The exact figure of every sample lies inside the 99% interval of a
/// simulation of its optimal strategy through game-core's deal and draw.
#[test]
fn simulation_of_optimal_play_agrees_with_exact_figures() {
    for file in ["jacks-or-better-9-6.ron", "bonus-poker-8-5.ron", "double-double-bonus-9-6.ron", "deuces-wild.ron", "deuces-wild-bonus.ron", "joker-poker.ron"]
    {
        let game = draw(file);
        let tables = DrawTables::build(&game, 2);
        let fig = analyse_with(&game, &tables, 2);
        let coins = game.max_coins();
        let exact: f64 = num_traits::ToPrimitive::to_f64(&fig.configs.iter().find(|c| c.coins == coins).unwrap().rtp).unwrap();
        let r = paytables::draw_check::simulate(&game, &tables, coins, 1_500_000, 4, 2, &|_| {});
        let (lo, hi) = r.ci99();
        assert!(lo <= exact && exact <= hi, "{file}: exact {exact} outside [{lo}, {hi}]");
    }
}

/// Issue 18: Deuces Wild Bonus can be written: four deuces with an ace,
/// five aces and five 3s–5s are hands of their own, paid as game-core's
/// evaluator (itself checked against brute force over every hand) says.
#[test]
fn deuces_wild_bonus_hands_are_expressed() {
    let game = draw("deuces-wild-bonus.ron");
    let h = |s: &str| parse_hand(&[s.to_owned()]).unwrap();
    let name = |s: &str| game.evaluate(&h(s)).map(|e| game.entries[e].name.clone());
    assert_eq!(name("2d 2c 2h 2s Ad").as_deref(), Some("Four Deuces with an Ace"));
    assert_eq!(name("2d 2c 2h 2s Kd").as_deref(), Some("Four Deuces"));
    assert_eq!(name("2d Ac Ah As Ad").as_deref(), Some("Five Aces"));
    assert_eq!(name("2d 2c 4h 4s 4d").as_deref(), Some("Five 3s, 4s or 5s"));
    assert_eq!(name("2d 9c 9h 9s 9d").as_deref(), Some("Five 6s to Kings"));
    assert_eq!(name("2d Jh Qh Kh Ah").as_deref(), Some("Wild Royal Flush"));
}

/// Issue 18: a hand the format cannot express (or a sequential royal
/// without its order) is named as unsupported, with the hands it can
/// express, not left as "Expected comma".
#[test]
fn an_unsupported_draw_poker_hand_is_named() {
    let (f, s) = asset("deuces-wild-bonus.ron");
    for (hand, what) in [
        (r#"hand: SequentialRoyalFlush,"#, "SequentialRoyalFlush"),
        (r#"hand: SequentialRoyalFlush(order: Backwards),"#, "SequentialRoyalFlush(order: Backwards)"),
        (r#"hand: SequentialStraightFlush,"#, "SequentialStraightFlush"),
        (r#"hand: FiveOfAKind(ranks: "A"),"#, "FiveOfAKind(ranks"),
        (r#"hand: FourDeucesWithAce,"#, "FourDeucesWithAce"),
    ] {
        let bad = s.replacen(r#"hand: RoyalFlush,"#, hand, 1);
        assert_ne!(bad, s);
        let err = compile_draw(&f, &bad).unwrap_err().to_string();
        let line = s.lines().position(|l| l.contains("hand: RoyalFlush,")).unwrap() + 1;
        assert!(err.contains(&format!("deuces-wild-bonus.ron:{line}:")), "{what}: {err}");
        assert!(
            err.contains("not one the format can express")
                && err.contains("FourWildsWith(kickers")
                && err.contains("SequentialRoyalFlush(order: LeftToRight or EitherWay)"),
            "{what}: {err}"
        );
    }
}

/// Issue 18: multi-hand play. The RTP of n hands from one deal is the one
/// hand's (linearity); the variance is (Var₁ + (n − 1)·Cov)/n, the hands
/// being independent given the deal. Checked against a simulation of
/// multi-hand optimal play through game-core's multi-hand deal, on a
/// Jacks or Better whose top pays are cut to 9 (so that a simulation's
/// variance settles), for 1, 3 and 10 hands.
#[test]
fn multi_hand_variance_agrees_with_simulated_multi_hand_play() {
    let (f, s) = asset("jacks-or-better-9-6.ron");
    let flat = s
        .replace("pays: 250, max_coin_pays: Some(800)", "pays: 9")
        .replace("pays: 50)", "pays: 9)")
        .replace("pays: 25)", "pays: 9)")
        .replace("hands: [1, 3, 5, 10],", "hands: [1, 3, 10],");
    assert_ne!(flat, s);
    let game = compile_draw(&f, &flat).unwrap().0;
    assert_eq!(game.hands, vec![1, 3, 10]);
    let tables = DrawTables::build(&game, 2);
    let fig = analyse_with(&game, &tables, 2);
    let top = fig.configs.last().unwrap();
    assert_eq!(top.variance_hands(1), top.variance(), "one hand is the single-hand game");
    let pays: Vec<u64> = (0..game.entries.len()).map(|e| game.pays_per_coin(e, top.coins)).collect();
    let exact_rtp = num_traits::ToPrimitive::to_f64(&top.rtp).unwrap();
    let mut rng = StreamRng::from_seed(18);
    for hands in [1u32, 3, 10] {
        let rounds = 200_000u32;
        let (mut sum, mut sum_sq) = (0f64, 0f64);
        for _ in 0..rounds {
            let m = game.deal_hands(&mut rng, hands as usize);
            let hold = tables.best_hold(&m.dealt, &pays);
            let won: u64 = m.draw(hold).iter().map(|h| game.evaluate(h).map_or(0, |e| pays[e])).sum();
            let x = won as f64 / f64::from(hands);
            sum += x;
            sum_sq += x * x;
        }
        let n = f64::from(rounds);
        let mean = sum / n;
        let var = sum_sq / n - mean * mean;
        let exact_var = num_traits::ToPrimitive::to_f64(&top.variance_hands(hands)).unwrap();
        assert!((mean - exact_rtp).abs() < 2.576 * (var / n).sqrt(), "{hands} hands: mean {mean} vs exact {exact_rtp}");
        assert!((var / exact_var - 1.0).abs() < 0.05, "{hands} hands: variance {var} vs exact {exact_var}");
    }
    // The hands of one deal are correlated: ten hands spread less than one,
    // but far more than ten independent rounds would.
    let (v1, v10) = (top.standard_deviation_hands(1), top.standard_deviation_hands(10));
    assert!(v10 < v1 && v10 > v1 / 10f64.sqrt() * 1.2, "{v1} {v10}");
}

/// A paytable under the floor or over 100% is refused, naming the coins.
#[test]
fn draw_check_refuses_illegal_tables() {
    let (f, s) = asset("joker-poker.ron");
    let over = s.replace("name_pt: Some(\"Póquer\"), pays: 17", "name_pt: Some(\"Póquer\"), pays: 20");
    assert_ne!(over, s, "four of a kind raised to 20");
    let game = compile_draw(&f, &over).unwrap().0;
    let c = paytables::draw_check::check(&game, &paytables::check::Floor::legal_minimum(), None, 2);
    let msgs: Vec<String> = c.refusals.iter().map(|r| r.to_string()).collect();
    assert_eq!(msgs, vec!["joker-poker at 5 coin(s) returns 100.6463%, over 100% (certification.md B-12)".to_owned()]);
    let (f, s) = asset("jacks-or-better-9-6.ron");
    let stingy = s
        .replace("pays: 9)", "pays: 1)")
        .replace("pays: 6)", "pays: 1)")
        .replace("pays: 4)", "pays: 1)")
        .replace("pays: 3)", "pays: 1)")
        .replace("pays: 2)", "pays: 1)");
    let game = compile_draw(&f, &stingy).unwrap().0;
    let c = paytables::draw_check::check(&game, &paytables::check::Floor::legal_minimum(), None, 2);
    assert_eq!(c.refusals.len(), 5, "every coin count is refused");
    assert!(c.refusals[0].to_string().contains("under the floor of 80.0000% (M-17)"), "{}", c.refusals[0]);
}

/// Brute force for one player hand and up card: settle every dealer
/// completion through game-core and count.
fn brute_force(game: &StudPokerGame, player: [u8; 5], up: u8) -> (u64, u64, u64) {
    let rest: Vec<u8> = (0..52u8).filter(|c| !player.contains(c) && *c != up).collect();
    let p = player.map(|i| Card::from_index(i).unwrap());
    let (mut nq, mut w, mut l) = (0, 0, 0);
    let mut pick = [0usize, 1, 2, 3];
    loop {
        let dealer = [rest[pick[0]], rest[pick[1]], rest[pick[2]], rest[pick[3]], up].map(|i| Card::from_index(i).unwrap());
        let s = game.settle(&StudDeal { player: p, dealer }, 1, Decision::Raise);
        match s.outcome {
            game_core::stud_poker::Outcome::DealerDoesNotQualify => nq += 1,
            game_core::stud_poker::Outcome::PlayerWins => w += 1,
            game_core::stud_poker::Outcome::DealerWins => l += 1,
            _ => {}
        }
        if !paytables::draw_math::next_combination(&mut pick, rest.len()) {
            return (nq, w, l);
        }
    }
}

/// Caribbean stud: the counted dealer outcomes equal brute force over all
/// 163,185 completions for probed hands (high card that ties on ranks,
/// pairs, a flush, a straight, a hand that cannot win); the house edge of
/// the PSD 26 (push) variant is the published 5.224% of the ante; and a
/// simulation of the optimal strategy agrees with the exact RTP.
#[test]
fn stud_counts_equal_brute_force_and_figures_agree() {
    let game = stud("poquer-sem-descarte.ron");
    let sorted = |s: &str| {
        let mut v = parse_hand(&[s.to_owned()]).unwrap().map(|c| c.index());
        v.sort_unstable();
        v
    };
    let card = |s: &str| s.parse::<Card>().unwrap().index();
    let probes = [
        (sorted("As Kd 9h 7c 3d"), card("Kh")),
        (sorted("As Kd 9h 7c 3d"), card("2c")),
        (sorted("Ad Kd 9d 7c 3c"), card("Ac")),
        (sorted("Jh Jc 9h 7c 3d"), card("Js")),
        (sorted("Jh Jc 9h 9c 3d"), card("3s")),
        (sorted("2h 7h 9h Jh Kh"), card("Ah")),
        (sorted("5c 6d 7h 8s 9c"), card("9d")),
        (sorted("Qc Jd 8h 5s 3c"), card("Ad")),
    ];
    let (analysis, probed) = analyse_probed(&game, 2, &probes);
    assert_eq!(probed.len(), probes.len());
    for (p, u, counts) in &probed {
        assert_eq!(counts.0 + counts.1 + counts.2, COMPLETIONS);
        assert_eq!(*counts, brute_force(&game, *p, *u), "{p:?} up {u}");
    }
    let sim = paytables::stud_math::simulate(&game, &analysis, 1, 3_000_000, 9, 2, &|_| {});
    let exact: f64 = num_traits::ToPrimitive::to_f64(&analysis.configs[0].rtp).unwrap();
    let (lo, hi) = sim.ci99();
    assert!(lo <= exact && exact <= hi, "exact {exact} outside [{lo}, {hi}]");

    let push = StudPokerGame { tie_rule: TieRule::Push, max_win_credits: None, antes: vec![1], ..game.clone() };
    let (a, probed) = analyse_probed(&push, 2, &probes[..2]);
    for (p, u, counts) in &probed {
        let bf = brute_force(&push, *p, *u);
        assert_eq!((counts.0, counts.1), (bf.0, bf.1), "{p:?} up {u}");
    }
    let edge = -a.configs[0].net_per_ante.clone() * BigRational::from_integer(BigInt::from(100));
    assert_eq!(decimal(&edge, 3), "5.224");
}

#[test]
fn stud_side_bet_return_is_exact() {
    let game = stud("poquer-sem-descarte.ron");
    let dealt: Vec<(game_core::poker::Category, BigRational)> = game_core::poker::Category::ALL
        .iter()
        .zip([1_302_540u64, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4])
        .map(|(&c, n)| (c, BigRational::new(BigInt::from(n), BigInt::from(2_598_960u64))))
        .collect();
    let r = paytables::stud_math::side_bet_rtp(&game, &dealt, 10_000).unwrap();
    // 4×10,000 + 36×1,000 + 624×500 + 3,744×250 + 5,108×150 over 2,598,960.
    let expected = BigRational::new(BigInt::from(4 * 10_000 + 36 * 1_000 + 624 * 500 + 3_744 * 250 + 5_108 * 150), BigInt::from(2_598_960u64));
    assert_eq!(r, expected);
}

/// Issue 29: every shipped draw-poker paytable names every hand in
/// Portuguese as well (M-10), and the compiled game carries both names:
/// the player's language picks one, the journal keeps the paytable's own.
#[test]
fn every_shipped_draw_poker_hand_has_its_portuguese_name() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables");
    let mut tables = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if !text.contains("DrawPokerPaytable(") {
            continue;
        }
        tables += 1;
        let g = draw(path.file_name().unwrap().to_str().unwrap());
        for e in &g.entries {
            let pt = e.name_pt.as_deref().unwrap_or_else(|| panic!("{}: {} has no Portuguese name", path.display(), e.name));
            assert!(!pt.is_empty() && pt != e.name, "{}: {} → {pt}", path.display(), e.name);
            assert_eq!(e.name_in(true), pt);
            assert_eq!(e.name_in(false), e.name);
        }
    }
    assert_eq!(tables, 7, "the seven shipped draw-poker paytables");
    let jacks = draw("jacks-or-better-9-6.ron");
    assert_eq!(jacks.entries[0].name_in(true), "Sequência real de cor");
    assert_eq!(jacks.entries[8].name_in(true), "Valetes ou melhor");
}
