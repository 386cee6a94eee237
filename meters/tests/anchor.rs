//! The rollback anchor on the file stand-in (issue 21): the window a copy
//! restored after the last anchor has (it repays nothing and recovers at
//! most the wagers since the anchor, which the tick bounds), the tick and
//! its write budget, the wipe, and the RAM clear as an anchor. Here only
//! the database is restored: the counter stands for the TPM's, which a
//! copy of the files cannot take back (tests/attacks.rs does the same on a real
//! software TPM).
#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;

use meters::{AnchorReason, BootError, CashOut, Door, Entry, IntegrityError, Machine, MachineConfig, Mode, SeedChoice};
use serde_json::json;
use support::copies::{Snapshot, delete};

fn lab(tick: u64, budget: u64) -> MachineConfig {
    MachineConfig { mode: Mode::Lab, anchor_tick_wagered: tick, anchor_write_budget: budget, ..MachineConfig::default() }
}

fn lose(m: &mut Machine, stake: u64) {
    let r = m.play_round("g", 1, stake, "outcome", |_| Ok::<_, String>(json!({"win": 0}))).map(|(r, _)| r).unwrap();
    m.settle_round(r, 0, vec![]).unwrap();
}

fn anchors(m: &Machine) -> Vec<AnchorReason> {
    let mut v: Vec<AnchorReason> =
        m.events(10_000).unwrap().iter().filter_map(|r| if let Entry::Anchored { reason, .. } = r.entry { Some(reason) } else { None }).collect();
    v.reverse();
    v
}

/// A machine that paid a 50 € ticket out (an anchor), took 50 € more and
/// lost a 1 € round since: the ticket and the machine.
fn paid_out_then_playing(db: &Path, tick: u64) -> (Machine, meters::ticket::Ticket) {
    let mut m = Machine::open(db, lab(tick, 400_000), SeedChoice::Lab(3)).unwrap();
    m.insert_note(5_000).unwrap();
    let CashOut::Ticket(t1) = m.cash_out().unwrap() else { panic!("expected a ticket") };
    m.ticket_printed(&t1.validation).unwrap();
    m.insert_note(5_000).unwrap();
    lose(&mut m, 100);
    (m, t1)
}

#[test]
fn a_tick_closes_the_window_and_a_copy_from_before_it_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let tick = 1_000;
    let (mut m, _) = paid_out_then_playing(&db, tick);
    lose(&mut m, 100);
    // A copy taken while the cabinet runs, after its last anchor.
    let copy = Snapshot::take(&db);
    for _ in 0..9 {
        lose(&mut m, 100);
    }
    // 1,100 wagered since the cash-out's anchor: the tick anchored at 1,000.
    assert_eq!(anchors(&m).last(), Some(&AnchorReason::Tick));
    drop(m); // a power cut

    // The copy from before the tick is refused.
    copy.restore();
    let e = match Machine::open(&db, lab(tick, 400_000), SeedChoice::Lab(3)) {
        Err(BootError::RamError(e)) => e,
        other => panic!("expected a RAM error, got {:?}", other.map(|_| ())),
    };
    assert!(matches!(e, IntegrityError::RolledBack { .. }), "{e}");
}

#[test]
fn inside_the_window_a_copy_boots_with_every_payment_and_at_most_the_tick_recovered() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let tick = 1_000;
    let (mut m, t1) = paid_out_then_playing(&db, tick);
    let copy = Snapshot::take(&db);
    let credit_at_copy = m.credit();
    // Play on, short of the tick: the anchor does not move.
    for _ in 0..8 {
        lose(&mut m, 100);
    }
    let genuine_credit = m.credit();
    drop(m); // a power cut, then the copy is put back

    copy.restore();
    let m = Machine::open(&db, lab(tick, 400_000), SeedChoice::Lab(3)).unwrap();
    // It boots: the window. What it recovered is the play since the copy,
    // less than the tick; the ticket paid before is still paid (issued,
    // printed, and redeemable once): nothing is paid twice.
    assert_eq!(m.credit(), credit_at_copy);
    let recovered = m.credit() - genuine_credit;
    assert_eq!(recovered, 800);
    assert!(recovered < tick);
    let t = &m.state().tickets[&t1.validation];
    assert!(t.printed && !t.redeemed);
    assert!(m.unprinted_tickets().is_empty(), "a paid ticket would be printed again");
    assert_eq!(m.state().totals.cancelamento_creditos, 5_000);
}

#[test]
fn ticks_follow_the_wager_and_wait_when_the_write_budget_is_short_while_money_outs_never_do() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    // Every round reaches the tick; a budget of 10 writes keeps the last
    // one (a tenth) for the anchors that never wait.
    let mut m = Machine::open(&db, lab(100, 10), SeedChoice::Lab(3)).unwrap();
    assert_eq!(m.anchor_wear().writes, 1); // provisioned
    m.insert_note(5_000).unwrap();
    for _ in 0..20 {
        lose(&mut m, 100);
    }
    let wear = m.anchor_wear();
    assert_eq!(wear.writes, 9);
    assert!(!wear.ticks_allowed());
    assert_eq!(anchors(&m).iter().filter(|r| **r == AnchorReason::Tick).count(), 8);
    // Money-outs anchor whatever the budget.
    assert!(matches!(m.cash_out().unwrap(), CashOut::Ticket(_)));
    m.insert_note(500).unwrap();
    assert!(matches!(m.cash_out().unwrap(), CashOut::Ticket(_)));
    assert_eq!(m.anchor_wear().writes, 11);
    assert_eq!(&anchors(&m)[anchors(&m).len() - 2..], &[AnchorReason::CashOut, AnchorReason::CashOut]);
    // The counter and the wear meter agree with the writes made.
    assert_eq!(m.anchor_wear().counter, 11);
}

#[test]
fn a_deleted_database_is_a_wipe_not_a_new_machine() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&db, lab(20_000, 400_000), SeedChoice::Lab(3)).unwrap();
    m.insert_note(5_000).unwrap();
    m.shutdown().unwrap();
    delete(&db);
    match Machine::open(&db, lab(20_000, 400_000), SeedChoice::Lab(3)) {
        Err(BootError::RamError(IntegrityError::Wiped { counter })) => assert_eq!(counter, 1),
        other => panic!("expected a wipe to be refused, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn a_ram_clear_is_an_anchor_and_a_copy_from_before_it_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let cfg = lab(20_000, 400_000);
    let mut m = Machine::open(&db, cfg.clone(), SeedChoice::Lab(3)).unwrap();
    m.insert_note(5_000).unwrap();
    m.open_door(Door::Logic).unwrap();
    m.shutdown().unwrap();
    let copy = Snapshot::take(&db);
    Machine::ram_clear(&db, &cfg, "operator", "0000", "test", true).unwrap();
    let m = Machine::open(&db, cfg.clone(), SeedChoice::Lab(3)).unwrap();
    assert_eq!(m.credit(), 0);
    // Provisioned (the first boot's anchor) 1, clear 2, power-up 3: the
    // wear meter carries across the clear.
    assert_eq!(m.anchor_wear().counter, 3);
    assert_eq!(m.anchor_wear().writes, 3);
    drop(m);
    copy.restore();
    match Machine::open(&db, cfg, SeedChoice::Lab(3)) {
        Err(BootError::RamError(IntegrityError::RolledBack { head: 1, counter: 3 })) => {}
        other => panic!("expected the pre-clear copy to be refused, got {:?}", other.map(|_| ())),
    }
}
