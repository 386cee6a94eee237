//! A hold-and-spin game hosted (issue 50): Pérolas do Dragão's rounds
//! played through the host's commands, headless, until one starts the
//! feature; the settled round read back from critical memory and paid as
//! counted here: the ways of its window, plus every pearl held (its value
//! or its jackpot from the paytable, times the credits per unit), plus the
//! grand for a full screen; the feature's respins reset by each landing;
//! its win components and its history caption.

use crate::tables::{approved_reel_game, open, play_reel_round, select, ways_counted};

use game_core::reels::{CashValue, ReelGame};
use game_host::session::Lang;
use meters::RecallOutcome;

/// The window of `stops`: four rows per reel, read from the strips.
fn window(g: &ReelGame, stops: &[u32]) -> Vec<Vec<u8>> {
    g.reels.iter().zip(stops).map(|(strip, &stop)| (0..4).map(|r| strip.symbols[(stop as usize + r) % strip.len()]).collect()).collect()
}

#[test]
fn a_hold_and_spin_round_is_paid_its_ways_its_pearls_and_its_grand() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 11);
    select(&mut s, "dragao-1024");
    let g = approved_reel_game("dragao-1024");
    let rule = g.hold_and_spin.as_deref().unwrap().clone();
    assert_eq!(s.bet_text(), "1024 maneiras · 50 × 1 créd.");
    let pearl = rule.symbol;
    let mut rounds = 0;
    let round = loop {
        rounds += 1;
        assert!(rounds <= 3_000, "no feature in 3,000 rounds (1 in 157 expected)");
        let (r, deal) = play_reel_round(&mut s, dir.path());
        let w = window(&g, &deal.base.stops);
        let pearls: Vec<(u8, u8)> =
            (0..5u8).flat_map(|reel| (0..4u8).map(move |row| (reel, row))).filter(|&(reel, row)| w[usize::from(reel)][usize::from(row)] == pearl).collect();
        // The feature starts exactly when six pearls or more show.
        assert_eq!(deal.hold.is_some(), pearls.len() >= 6, "round {}: {pearls:?}", r.round);
        let RecallOutcome::Settled { win, components, .. } = r.outcome else { panic!("round {} not settled", r.round) };
        let unit = deal.bet.credits_per_line;
        let Some(h) = &deal.hold else {
            assert_eq!(win, ways_counted(&g, &w).0 * unit * r.denom, "round {}", r.round);
            continue;
        };
        // The pearls that started it are the window's, in cell order.
        assert_eq!(h.start.iter().map(|c| (c.reel, c.row)).collect::<Vec<_>>(), pearls);
        // Each value's pay from the paytable, times the credits per unit.
        let pay = |v: CashValue| match v {
            CashValue::Credits(c) => c,
            CashValue::Mini => 500,
            CashValue::Minor => 1_250,
            CashValue::Major => 5_000,
            CashValue::Grand => 50_000,
        };
        assert!(h.held().all(|c| c.credits == pay(c.value) * unit));
        // Three respins, given again by every respin that lands a pearl,
        // never a cell held twice; it ends out of respins or full.
        let mut left = 3;
        for step in &h.respins {
            left = if step.landed.is_empty() { left - 1 } else { 3 };
            assert_eq!(step.left, left);
        }
        let mut cells: Vec<(u8, u8)> = h.held().map(|c| (c.reel, c.row)).collect();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells.len(), h.held().count(), "a cell held twice");
        assert_eq!(h.full, cells.len() == 20);
        assert!(h.full || left == 0, "the feature stopped with respins left");
        let grand = if h.full { 50_000 * unit } else { 0 };
        let want = ways_counted(&g, &w).0 * unit + h.held().map(|c| pay(c.value) * unit).sum::<u64>() + grand;
        assert_eq!(win, want * r.denom, "round {}", r.round);
        break (deal, win, components);
    };
    let (deal, win, parts) = round;
    let h = deal.hold.as_ref().unwrap();
    // The win components name the feature and add up to the win.
    assert!(parts.iter().any(|c| c.label.starts_with("hold & spin (")), "{parts:?}");
    assert_eq!(parts.iter().map(|c| c.amount).sum::<u64>(), win, "{parts:?}");
    // The history's caption says it, in both languages.
    let held = h.held().count();
    assert_eq!(s.history().last().unwrap().picture(Lang::Pt).caption, format!("+Hold & Spin · {held} retidos"));
    assert_eq!(s.history().last().unwrap().picture(Lang::En).caption, format!("+Hold & Spin · {held} held"));
}
