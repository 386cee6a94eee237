//! Video roulette through the host's commands, headless on real SQLite
//! files (issue 30): the bet of many spots edited with `Command::EditBet`
//! (place, remove, a call bet, double, undo, clear, repeat), every table
//! limit refused by name, no edit after "rien ne va plus", each settled
//! round checked against an independent reading of the payouts (AR 42),
//! a cut mid-spin resumed with the same pocket, and a round no table can
//! resume voided with every chip refunded (AR 53/55, FR 47/49).

use crate::tables::{open_with, select};
use crate::test_config;

use game_core::roulette::{CallBet, DOUBLE_ZERO, Spot};
use game_host::boot::{BootOptions, boot};
use game_host::command::Command;
use game_host::kind::BetControl;
use game_host::kinds::roulette::{Roulette, RouletteBet, RouletteDeal, RouletteEdit};
use game_host::round::{Opening, Phase};
use game_host::session::{Lang, Session};
use meters::RecallOutcome;

/// The shipped configuration: it hosts the two roulette tables.
fn config(dir: &std::path::Path) -> std::path::PathBuf {
    let text = test_config::text(dir);
    assert!(text.contains("\"roleta-francesa\", \"roleta-americana\""), "the shipped games list changed");
    test_config::write(dir, &text)
}

/// The shipped configuration of `root` (its NVRAM mirror kept) without
/// the roulette tables, written into `into`.
fn without_roulette(root: &std::path::Path, into: &std::path::Path) -> std::path::PathBuf {
    let text = test_config::text(root).replace(", \"roleta-francesa\", \"roleta-americana\"", "");
    assert!(!text.contains("roleta"));
    test_config::write(into, &text)
}

fn edit(s: &mut Session, e: serde_json::Value) -> bool {
    s.command(Command::EditBet { edit: e })
}

fn place(s: &mut Session, spot: Spot) -> bool {
    edit(s, serde_json::json!({ "Kind": RouletteEdit::Place { spot } }))
}

fn bet(s: &Session) -> RouletteBet {
    s.game().bet::<Roulette>().unwrap().clone()
}

/// An independent reading of AR 42 / FR 33: what `stake` on a spot
/// returns when `pocket` comes up, from the numbers it covers.
fn returned(spot: &Spot, stake: u64, pocket: u8) -> u64 {
    let numbers: Vec<u8> = match spot {
        Spot::Numbers(n) => n.clone(),
        Spot::Dozen(d) => (12 * d - 11..=12 * d).collect(),
        Spot::Column(c) => (0..12).map(|r| 3 * r + c).collect(),
        Spot::TwoDozens(d) => (12 * d - 11..=12 * d + 12).collect(),
        Spot::TwoColumns(c) => (0..12).flat_map(|r| [3 * r + c, 3 * r + c + 1]).collect(),
        Spot::Red => vec![1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36],
        Spot::Black => (1..=36).filter(|n| ![1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36].contains(n)).collect(),
        Spot::Even => (1..=18).map(|n| 2 * n).collect(),
        Spot::Odd => (0..18).map(|n| 2 * n + 1).collect(),
        Spot::Low => (1..=18).collect(),
        Spot::High => (19..=36).collect(),
    };
    if !numbers.contains(&pocket) {
        return 0;
    }
    // 36 / n to 1, stake included, for n of 1, 2, 3, 4, 6, 12, 18, 24 numbers.
    stake * 36 / numbers.len() as u64
}

/// Play the bet on the cloth to the end; the settled round's pocket and win.
fn spin(s: &mut Session) -> (u8, u64, u64) {
    assert!(s.command(Command::Play), "{:?}", s.message_text());
    assert_eq!(s.round_info().unwrap().phase, Phase::Presenting, "the wheel turns before the round settles");
    assert!(!edit(s, serde_json::json!("Clear")), "rien ne va plus: no edit while the ball runs");
    assert!(s.message_text().unwrap().contains("Rien ne va plus"), "{:?}", s.message_text());
    s.command(Command::Revealed);
    assert!(!s.in_round(), "a roulette round has no double-up");
    let r = s.machine().recall(1).unwrap().remove(0);
    let opening: Opening<RouletteBet, RouletteDeal> = serde_json::from_value(r.steps[0].step.data.clone()).unwrap();
    let RecallOutcome::Settled { win, .. } = r.outcome else { panic!("not settled: {:?}", r.outcome) };
    // Issue 45, defect 4: the history draws the pocket, named and coloured
    // as the wheel is (AR 8: the reds read from the digest).
    const REDS: [u8; 18] = [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36];
    let p = opening.deal.pocket;
    let colour = if p == 0 || p == 37 {
        game_core::roulette::PocketColour::Zero
    } else if REDS.contains(&p) {
        game_core::roulette::PocketColour::Red
    } else {
        game_core::roulette::PocketColour::Black
    };
    let name = if p == 37 { "00".to_owned() } else { p.to_string() };
    assert_eq!(s.history().last().unwrap().picture(Lang::Pt).scene, game_host::picture::Scene::Pocket { name, colour });
    (opening.deal.pocket, win, r.stake)
}

#[test]
fn a_layout_of_many_spots_is_edited_staked_and_settled_spot_by_spot() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let mut s = open_with(dir.path(), &config, 3);
    select(&mut s, "roleta-francesa");
    s.insert_note(5_000);
    let denom = s.denom();
    assert!(!s.command(Command::Play), "an empty cloth is not a bet");
    assert!(s.message_text().unwrap().contains("Faça uma aposta"), "{:?}", s.message_text());
    // Chips of 5 credits (the amount button picks the chip).
    s.command(Command::AdjustBet { control: BetControl::Amount, delta: 2 });
    assert_eq!(bet(&s).chip, 5);
    assert!(place(&mut s, Spot::Numbers(vec![17])));
    assert!(place(&mut s, Spot::Numbers(vec![17])));
    assert!(place(&mut s, Spot::Numbers(vec![14, 17])));
    assert!(place(&mut s, Spot::Red));
    assert!(edit(&mut s, serde_json::json!({ "Kind": { "Call": { "bet": CallBet::Orphelins } } })));
    let b = bet(&s);
    assert_eq!(b.spots.iter().find(|(sp, _)| *sp == Spot::Numbers(vec![17])).unwrap().1, 10);
    // Orphelins adds a chip to 14-17, where one already stood.
    assert_eq!(b.spots.iter().find(|(sp, _)| *sp == Spot::Numbers(vec![14, 17])).unwrap().1, 10);
    assert_eq!(s.stake_credits(), 10 + 10 + 5 + 5 * 4, "every chip staked: 17, 14-17 twice, red, orphelins' other four");
    // Undo takes the call bet back; double doubles every spot; clear empties.
    assert!(edit(&mut s, serde_json::json!("Undo")));
    assert_eq!(s.stake_credits(), 20);
    assert!(edit(&mut s, serde_json::json!({ "Kind": "Double" })));
    assert_eq!(s.stake_credits(), 40);
    assert!(edit(&mut s, serde_json::json!({ "Kind": { "Remove": { "spot": Spot::Red } } })));
    assert_eq!(s.stake_credits(), 30);
    assert!(!edit(&mut s, serde_json::json!({ "Kind": { "Remove": { "spot": Spot::Red } } })), "nothing on red now");
    assert!(!edit(&mut s, serde_json::json!("Repeat")), "no round to repeat yet");
    let before = bet(&s);
    let credit = s.machine().credit();
    let (pocket, win, stake) = spin(&mut s);
    assert_eq!(stake, 30 * denom);
    let want: u64 = before.spots.iter().map(|(sp, st)| returned(sp, *st, pocket)).sum();
    assert_eq!(win, want * denom, "pocket {pocket}: the win is what AR 42 pays");
    assert_eq!(s.machine().credit(), credit - stake + win);
    // The bet stays on the cloth; clear, then repeat the last round's.
    assert!(edit(&mut s, serde_json::json!("Clear")));
    assert!(bet(&s).spots.is_empty());
    assert!(edit(&mut s, serde_json::json!("Repeat")));
    assert_eq!(bet(&s).spots, before.spots);
    // Twenty rounds, each settled as the independent reading pays.
    for _ in 0..20 {
        let b = bet(&s);
        let credit = s.machine().credit();
        let (pocket, win, stake) = spin(&mut s);
        let want: u64 = b.spots.iter().map(|(sp, st)| returned(sp, *st, pocket)).sum();
        assert_eq!((win, stake), (want * denom, 30 * denom), "pocket {pocket}");
        assert_eq!(s.machine().credit(), credit - stake + win);
    }
    let t = &s.machine().state().totals.games;
    assert_eq!(t.jogadas_efectuadas, 21);
}

/// §4.8, §4.9, AR 21: each limit refused by a message that names it, and
/// the bet left as it was.
#[test]
fn every_table_limit_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let mut s = open_with(dir.path(), &config, 4);
    select(&mut s, "roleta-francesa");
    s.command(Command::MaxBet);
    assert_eq!(bet(&s).chip, 25, "max bet picks the largest chip");
    assert!(place(&mut s, Spot::Numbers(vec![5])));
    let before = bet(&s);
    assert!(!place(&mut s, Spot::Numbers(vec![5])), "50 on a pleno is over 30 × the minimum");
    let said = s.message_text().unwrap();
    assert!(said.contains("pleno 5") && said.contains("máximo de 30 créditos"), "{said}");
    assert_eq!(bet(&s), before, "a refused edit changes nothing");
    assert!(!place(&mut s, Spot::Numbers(vec![3, 4])));
    assert!(s.message_text().unwrap().contains("não é uma aposta desta mesa"), "{:?}", s.message_text());
    s.command(Command::Language { lang: game_host::names::Lang::En });
    assert!(!edit(&mut s, serde_json::json!({ "Kind": { "Call": { "bet": CallBet::Voisins } } })), "25 is 25 minimums a chip: over 15");
    let said = s.message_text().unwrap();
    assert!(said.contains("voisins du zéro") && said.contains("the most is 15") && !said.contains("AR 21"), "{said}");
    // ½:1 bets take even stakes only.
    s.command(Command::AdjustBet { control: BetControl::Amount, delta: -9 });
    assert_eq!(bet(&s).chip, 1);
    assert!(!place(&mut s, Spot::TwoDozens(1)));
    assert!(s.message_text().unwrap().contains("even number of credits"), "{:?}", s.message_text());
    s.command(Command::AdjustBet { control: BetControl::Amount, delta: 1 });
    assert!(place(&mut s, Spot::TwoColumns(2)), "2 credits on two columns: {:?}", s.message_text());
    // The American table: 00 on its cloth, no call bets.
    select(&mut s, "roleta-americana");
    assert!(place(&mut s, Spot::Numbers(vec![DOUBLE_ZERO])), "{:?}", s.message_text());
    assert!(place(&mut s, Spot::Numbers(vec![0, DOUBLE_ZERO])));
    assert!(!place(&mut s, Spot::Numbers(vec![0, 1, 2, 3, DOUBLE_ZERO])), "the top line is not offered");
    assert!(!edit(&mut s, serde_json::json!({ "Kind": { "Call": { "bet": CallBet::Tiers } } })));
    assert!(s.message_text().unwrap().contains("no call bets"), "{:?}", s.message_text());
    // A bet sent whole is checked as an edit is.
    let over = RouletteBet { chip: 2, spots: vec![(Spot::Red, 2 * 541)] };
    assert!(!s.set_bet::<Roulette>(over));
    assert!(s.message_text().unwrap().contains("over the maximum of 1080"), "{:?}", s.message_text());
    // A kind of the panel takes no edit.
    select(&mut s, "classic-sevens");
    assert!(!edit(&mut s, serde_json::json!({ "Kind": { "Place": { "spot": Spot::Red } } })));
}

/// E-35 (outcome drawn, mid-reveal), §4.15, AR 53/55: a cut while the ball runs resumes with the same
/// pocket, settled once: the result is validly established (committed
/// before the ball is shown), so the round is never void. A cabinet that
/// no longer hosts the table is refused until the round is finished (issue
/// 47, hole 6: its removal once voided the round, a loss refunded).
#[test]
fn a_cut_mid_spin_resumes_the_same_pocket_and_is_never_voided() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    // The reference: the round uninterrupted.
    let whole = dir.path().join("whole");
    std::fs::create_dir_all(&whole).unwrap();
    let mut s = open_with(&whole, &config, 9);
    select(&mut s, "roleta-francesa");
    s.insert_note(5_000);
    assert!(place(&mut s, Spot::Numbers(vec![0, 2, 3])) && place(&mut s, Spot::Black) && place(&mut s, Spot::Dozen(2)));
    let (pocket, win, stake) = spin(&mut s);
    // The same round, cut while the ball runs.
    let cut = dir.path().join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    let mut s = open_with(&cut, &config, 9);
    select(&mut s, "roleta-francesa");
    s.insert_note(5_000);
    assert!(place(&mut s, Spot::Numbers(vec![0, 2, 3])) && place(&mut s, Spot::Black) && place(&mut s, Spot::Dozen(2)));
    assert!(s.command(Command::Play));
    s.power_cut();
    let mut s = open_with(&cut, &config, 9);
    assert!(s.in_round(), "the round is resumed, not settled blind");
    assert_eq!(s.round::<Roulette>().unwrap().state.pocket, pocket, "the same pocket");
    s.command(Command::Revealed);
    let rounds = s.machine().recall(10).unwrap();
    assert_eq!(rounds.len(), 1, "never a second spin");
    assert!(matches!(rounds[0].outcome, RecallOutcome::Settled { win: w, .. } if w == win));
    assert_eq!(s.machine().credit(), 5_000 - stake + win);
    // Cut again, and boot a cabinet that no longer hosts the table.
    let void = dir.path().join("void");
    std::fs::create_dir_all(&void).unwrap();
    let mut s = open_with(&void, &config, 9);
    select(&mut s, "roleta-francesa");
    s.insert_note(5_000);
    assert!(place(&mut s, Spot::Numbers(vec![0, 2, 3])) && place(&mut s, Spot::Black));
    assert!(s.command(Command::Play));
    s.power_cut();
    let without = without_roulette(dir.path(), &void);
    let refused = boot(&BootOptions { config: without, db: void.join("egm.sqlite"), lab_seed: Some(9), demo: false })
        .err()
        .expect("the table was dropped under an open round");
    assert!(refused.contains("of roleta-francesa is open") && refused.contains("M-36"), "{refused}");
    // Its own configuration: the round resumes and is finished.
    let mut s = open_with(&void, &config, 9);
    assert!(s.in_round(), "the round is resumed");
    s.command(Command::Revealed);
    let r = s.machine().recall(1).unwrap().remove(0);
    let RecallOutcome::Settled { win, credit_after, .. } = r.outcome else { panic!("{:?}", r.outcome) };
    assert_eq!(credit_after, 5_000 - r.stake + win);
    let t = &s.machine().state().totals.games;
    assert_eq!((t.jogadas_efectuadas, t.jogadas_anuladas), (1, 0), "a played game, never a voided one");
}

/// Issue 77, defect 6 (C-26): with the shipped configuration at 2.00 € a
/// credit, red 525 + black 525 (2,100 €) was taken on the cloth and then
/// tilted the cabinet as an excessive meter increment. The chip that would
/// take a round to the coin-in limit (2,000.00 €: 1,000 credits at 2.00 €)
/// is refused when placed, naming the most a round may stake there (999);
/// the round the cloth takes plays and settles with no tilt; a layout that
/// fits at 1.00 € keeps the denomination from moving to 2.00 €.
#[test]
fn a_chip_that_would_reach_the_excessive_increment_limit_is_refused_on_the_cloth() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let mut s = open_with(dir.path(), &config, 5);
    select(&mut s, "roleta-francesa");
    assert!(s.command(Command::SelectDenomination { cents: 200 }));
    s.command(Command::AdjustBet { control: BetControl::Amount, delta: 4 });
    assert_eq!(bet(&s).chip, 25);
    for _ in 0..21 {
        assert!(place(&mut s, Spot::Red), "{:?}", s.message_text());
    }
    for _ in 0..18 {
        assert!(place(&mut s, Spot::Black), "{:?}", s.message_text());
    }
    assert_eq!(s.stake_credits(), 975);
    // 1,000 credits × 200 cents = 200,000: the limit itself.
    assert!(!place(&mut s, Spot::Black), "the chip taking the round to 2,000.00 € was taken");
    let told = s.message_text().unwrap_or_default();
    assert!(told.contains("1000 créditos") && told.contains("o máximo por jogada é 999") && told.contains("C-26"), "{told}");
    assert_eq!(s.stake_credits(), 975, "the refused chip stays off the cloth");
    // Smaller chips up to 999.
    for (delta, spot, staked) in [(-1, Spot::Black, 985), (-1, Spot::Black, 990), (0, Spot::Black, 995), (-1, Spot::Red, 997), (0, Spot::Red, 999)] {
        s.command(Command::AdjustBet { control: BetControl::Amount, delta });
        assert!(place(&mut s, spot), "{:?}", s.message_text());
        assert_eq!(s.stake_credits(), staked);
    }
    s.command(Command::AdjustBet { control: BetControl::Amount, delta: -1 });
    assert_eq!(bet(&s).chip, 1);
    assert!(!place(&mut s, Spot::Red), "the 1,000th credit was taken");
    assert!(!edit(&mut s, serde_json::json!({ "Kind": "Double" })), "doubling to 1,998 credits was taken");
    // 999 credits at 2.00 € is 1,998.00 €: it plays and settles, no tilt.
    for _ in 0..40 {
        s.insert_note(5_000);
    }
    assert_eq!(s.machine().credit(), 200_000);
    let (pocket, win, stake) = spin(&mut s);
    assert_eq!(stake, 999 * 200);
    assert!(s.machine().state().tilts.is_empty(), "{:?}", s.machine().state().tilts);
    let expected: u64 = bet(&s).spots.iter().map(|(spot, st)| returned(spot, *st, pocket)).sum();
    assert_eq!(win, expected * 200);

    // A layout of 1,000 credits fits at 1.00 € (100,000 cents), not at 2.00 €.
    let dir = tempfile::tempdir().unwrap();
    let config = self::config(dir.path());
    let mut s = open_with(dir.path(), &config, 5);
    select(&mut s, "roleta-francesa");
    assert!(s.command(Command::SelectDenomination { cents: 100 }));
    s.command(Command::AdjustBet { control: BetControl::Amount, delta: 4 });
    for spot in [Spot::Red, Spot::Black] {
        for _ in 0..20 {
            assert!(place(&mut s, spot.clone()), "{:?}", s.message_text());
        }
    }
    assert_eq!(s.stake_credits(), 1_000);
    assert!(!s.command(Command::SelectDenomination { cents: 200 }), "the denomination moved under a layout the limit refuses there");
    assert_eq!(s.denom(), 100);
    assert!(s.message_text().unwrap_or_default().contains("C-26"), "{:?}", s.message_text());
}
