//! Blackjack through the host's commands, headless on real SQLite files
//! (issue 32): every decision a committed step with its extra stake, the
//! meters against an independent reading of the committed cards, and a
//! round killed at each of its decisions resuming there with the same
//! cards and no stake taken twice.

use crate::tables::{open, select};

use game_core::blackjack::{Action, Phase, Round};
use game_host::kinds::blackjack::Blackjack;
use game_host::picture::Scene;
use game_host::session::Lang;

/// The tests' player: insures, splits and doubles whenever offered (to
/// meet every extra stake), surrenders a 16, hits under 17.
fn choose(r: &Round) -> Action {
    let legal = r.legal();
    for a in [Action::Insurance, Action::EvenMoney, Action::Split, Action::Double] {
        if legal.contains(&a) {
            return a;
        }
    }
    let total = r.hands.get(r.active).map_or(21, |h| h.total());
    if legal.contains(&Action::Surrender) && total == 16 {
        Action::Surrender
    } else if legal.contains(&Action::Hit) && (total < 17 || !legal.contains(&Action::Stand)) {
        Action::Hit
    } else {
        Action::Stand
    }
}

/// The text read again for a hand that is not split and not insured: card
/// values (BJ 4), the player's cards in the order dealt and drawn, the
/// dealer standing on every 17 (BJ 22), and the settlement (BJ 39–49) in
/// credits for a bet of `bet`; None where the reading does not apply.
fn independent(shoe: &[String], decisions: &[Action], bet: u64) -> Option<u64> {
    let value = |c: &String| match &c[..c.len() - 1] {
        "A" => 1,
        "T" | "10" | "J" | "Q" | "K" => 10,
        r => r.parse::<u64>().unwrap(),
    };
    let best = |cards: &[&String]| {
        let hard: u64 = cards.iter().map(|c| value(c)).sum();
        if cards.iter().any(|c| value(c) == 1) && hard + 10 <= 21 { hard + 10 } else { hard }
    };
    if decisions.iter().any(|a| matches!(a, Action::Split | Action::Insurance | Action::EvenMoney)) {
        return None;
    }
    let mut player = vec![&shoe[0], &shoe[2]];
    let mut dealer = vec![&shoe[1], &shoe[3]];
    let mut next = 4;
    let mut stake = bet;
    for a in decisions {
        match a {
            Action::Hit => {
                player.push(&shoe[next]);
                next += 1;
            }
            Action::Double => {
                // BJ 27: a soft double counts its ace 1.
                if player.iter().any(|c| value(c) == 1) {
                    return None;
                }
                stake *= 2;
                player.push(&shoe[next]);
                next += 1;
            }
            Action::Surrender => return Some(bet / 2),
            _ => {}
        }
    }
    let blackjack = |h: &[&String]| h.len() == 2 && best(h) == 21;
    let (p, d) = (best(&player), best(&dealer));
    if blackjack(&player) {
        return Some(if blackjack(&dealer) { bet } else { bet + bet * 3 / 2 });
    }
    if p > 21 {
        return Some(0);
    }
    if blackjack(&dealer) {
        return Some(0);
    }
    let mut d = d;
    while d < 17 {
        dealer.push(&shoe[next]);
        next += 1;
        d = best(&dealer);
    }
    Some(if d > 21 || p > d {
        2 * stake
    } else if p == d {
        stake
    } else {
        0
    })
}

#[test]
fn hands_settle_as_the_text_reads_the_committed_cards() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 41);
    select(&mut s, "blackjack");
    s.insert_note(5_000);
    let (mut checked, mut extras) = (0, [0u32; 3]);
    for round in 0..160 {
        let credit = s.machine().credit();
        assert!(s.play(), "{:?}", s.message_text());
        let mut extra = 0;
        while s.in_round() {
            let r = &s.round::<Blackjack>().unwrap().state;
            assert_ne!(r.phase, Phase::Done);
            let a = choose(r);
            extra += r.extra_stake(a);
            if let Some(i) = [Action::Split, Action::Double, Action::Insurance].iter().position(|&x| x == a) {
                extras[i] += 1;
            }
            assert!(s.decide::<Blackjack>(a), "round {round}: {a:?} refused: {:?}", s.message_text());
        }
        let h = s.round::<Blackjack>().unwrap();
        let (bet, denom) = (h.bet.bet, h.denom);
        let st = h.state.settlement().unwrap();
        assert_eq!(st.staked(), bet + extra, "round {round}: every extra stake the decisions took");
        assert_eq!(s.machine().credit(), credit - (bet + extra) * denom + st.returned() * denom, "round {round}");
        let shoe: Vec<String> = h.deal.cards.iter().map(|c| c.to_string()).collect();
        // Issue 45, defect 4: the history draws each hand's cards and the
        // dealer's, as the round ended.
        let Scene::Cards(drawn) = &s.history().last().unwrap().picture(Lang::En).scene else { panic!("round {round}: no cards") };
        let player: Vec<&Vec<game_core::cards::Card>> = h.state.hands.iter().map(|hand| &hand.cards).collect();
        assert_eq!(drawn.iter().rev().skip(1).rev().map(|d| &d.cards).collect::<Vec<_>>(), player, "round {round}");
        let dealer = drawn.last().unwrap();
        assert_eq!(dealer.label, "DEALER");
        assert_eq!(dealer.cards, if h.state.hole_shown { h.state.dealer.clone() } else { h.state.dealer[..1].to_vec() }, "round {round}");
        if let Some(want) = independent(&shoe, &h.state.decisions, bet) {
            assert_eq!(st.returned() - st.bonus, want, "round {round}: {:?} / {:?} with {:?}", &shoe[..8], h.state.hands, h.state.decisions);
            checked += 1;
        }
    }
    assert!(checked > 100 && extras.iter().all(|&n| n > 0), "{checked} hands read again; splits, doubles, insurances: {extras:?}");
    meters::inspect::Inspection::open(&dir.path().join("egm.sqlite")).unwrap().self_audit().unwrap();
}

/// A round killed at each of its decisions resumes there: the same cards,
/// the same decisions offered, the credit unchanged (no extra stake
/// debited again), and it settles as an uncut round would.
/// B-16, issue 77 defect 5: insurance is a bet of its own, metered at
/// its own return — 3 × 96/311 = 92.6045 % in the seed game (a six-deck
/// shoe less the ace: 96 ten-values of 311 cards; card-games.md §C.2's
/// −7.40 %) — and the hand's bet, doubles and splits included, at the
/// game's return under optimal play (the artifact's first line): before,
/// the whole round was metered at the table's lowest figure, insurance's.
#[test]
fn insurance_is_metered_at_its_own_rtp_and_the_hand_at_the_game_s() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 47);
    select(&mut s, "blackjack");
    s.insert_note(5_000);
    let (mut hand_cents, mut insurance_cents) = (0u64, 0u64);
    for round in 0..80 {
        assert!(s.play(), "{:?}", s.message_text());
        let denom = s.round::<Blackjack>().unwrap().denom;
        hand_cents += s.round::<Blackjack>().unwrap().bet.bet * denom;
        while s.in_round() {
            let r = &s.round::<Blackjack>().unwrap().state;
            let a = choose(r);
            let extra = r.extra_stake(a) * denom;
            if a == Action::Insurance {
                insurance_cents += extra;
            } else {
                hand_cents += extra;
            }
            assert!(s.decide::<Blackjack>(a), "round {round}: {a:?} refused: {:?}", s.message_text());
        }
    }
    assert!(insurance_cents > 0, "no hand was insured: the test would check nothing");
    let state = s.machine().state();
    let c = &state.categories["blackjack"];
    assert_eq!(c.len(), 2, "{c:?}");
    // The artifact's first line, 124,749,851 / 125,000,000, in millionths rounded down.
    let game = &c["jogo / game"];
    assert_eq!((game.coin_in, game.rtp_ppm), (hand_cents, 997_998));
    assert_eq!(game.theoretical_micro, u128::from(hand_cents) * 997_998);
    let insurance = &c["seguro / insurance"];
    assert_eq!((insurance.coin_in, insurance.rtp_ppm), (insurance_cents, (288 * 1_000_000 / 311) as u32));
    assert_eq!(insurance.rtp_ppm, 926_045);
    assert_eq!(state.totals.games.creditos_jogados, hand_cents + insurance_cents);
    let mean = (u128::from(hand_cents) * 997_998 + u128::from(insurance_cents) * 926_045) / u128::from(hand_cents + insurance_cents) / 100;
    assert_eq!(state.game_weighted_basis_points("blackjack"), Some(mean));
    meters::inspect::Inspection::open(&dir.path().join("egm.sqlite")).unwrap().self_audit().unwrap();
}

#[test]
fn a_round_killed_at_any_decision_resumes_there_with_the_same_cards() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 43);
    select(&mut s, "blackjack");
    s.insert_note(5_000);
    let mut cuts = 0;
    for _ in 0..40 {
        assert!(s.play(), "{:?}", s.message_text());
        while s.in_round() {
            let before = s.round::<Blackjack>().unwrap().state.clone();
            let credit = s.machine().credit();
            s.power_cut();
            s = open(dir.path(), 43);
            cuts += 1;
            assert!(s.in_round(), "the open round is resumed");
            let after = &s.round::<Blackjack>().unwrap().state;
            assert_eq!((&after.hands, &after.dealer, after.legal()), (&before.hands, &before.dealer, before.legal()));
            assert_eq!(s.machine().credit(), credit, "nothing debited or paid again on resume");
            let a = choose(after);
            assert!(s.decide::<Blackjack>(a), "{a:?} refused after resume: {:?}", s.message_text());
        }
    }
    assert!(cuts >= 60, "{cuts} cuts");
    meters::inspect::Inspection::open(&dir.path().join("egm.sqlite")).unwrap().self_audit().unwrap();
}
