//! The machine's accounting, limits, doors, hand-pays and game cycle, on a
//! real SQLite file (M-9, M-12, M-25, M-33, M-36; certification.md §C, §F).
#![allow(clippy::unwrap_used)]

use meters::{
    BootError, CashOut, CoreError, Door, Entry, M25, Machine, MachineConfig, Mode, PlayBlock, RecallOutcome, SeedChoice, Step, Tilt, WinComponent, WinPayment,
};
use serde_json::json;

fn lab_config() -> MachineConfig {
    MachineConfig { mode: Mode::Lab, ..MachineConfig::default() }
}

fn boot(dir: &tempfile::TempDir) -> Machine {
    Machine::open(&dir.path().join("egm.sqlite"), lab_config(), SeedChoice::Lab(1)).unwrap()
}

fn play(m: &mut Machine, denom: u64, stake: u64, win: u64) -> u64 {
    let round = m.play_round("test-game", denom, stake, "outcome", |_| Ok::<_, String>(json!({ "win": win }))).map(|(r, _)| r).unwrap();
    m.settle_round(round, win, vec![WinComponent { label: "line 1".into(), amount: win }]).unwrap();
    round
}

/// M-25, and C-20's required meter set where the core keeps it per
/// machine, per denomination and per game: coin in and out, games played,
/// won and lost, jackpots paid by the machine, bills in by denomination,
/// tickets out and in, cancelled credits (the wager categories' meters:
/// `wager_categories_meter_coin_in_and_theoretical_payback`).
#[test]
fn notes_bets_wins_and_cash_out_move_the_m25_meters() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    assert_eq!(m.insert_note(2_000).unwrap(), 2_000);
    assert_eq!(m.insert_note(500).unwrap(), 2_500);
    play(&mut m, 5, 100, 0);
    play(&mut m, 5, 100, 450);
    play(&mut m, 10, 200, 60_000); // at the jackpot threshold: machine-paid jackpot
    let t = &m.state().totals;
    assert_eq!(t.games.creditos_jogados, 400);
    assert_eq!(t.games.creditos_ganhos, 60_450);
    assert_eq!(t.games.jogadas_efectuadas, 3);
    assert_eq!(t.games.jogadas_ganhas, 2);
    assert_eq!(t.games.jogadas_perdidas, 1);
    assert_eq!(t.games.receita_bruta(), 400 - 60_450);
    assert_eq!(t.games.premios_acumulados, 60_000);
    assert_eq!(t.dinheiro_entrado, 2_500);
    assert_eq!(t.notas_por_valor.get(&2_000), Some(&1));
    assert_eq!(t.notas_por_valor.get(&500), Some(&1));
    assert_eq!(m.credit(), 2_500 - 400 + 60_450);
    assert_eq!(m.state().per_denom[&5].creditos_jogados, 200);
    assert_eq!(m.state().per_denom[&10].creditos_jogados, 200);
    assert_eq!(m.state().per_game["test-game"].creditos_ganhos, 60_450);

    let CashOut::Ticket(ticket) = m.cash_out().unwrap() else { panic!("expected a ticket") };
    assert_eq!(ticket.value, 62_550);
    assert_eq!(ticket.validation.len(), 18);
    assert_eq!(m.credit(), 0);
    let t = &m.state().totals;
    assert_eq!(t.cancelamento_creditos, 62_550);
    assert_eq!(t.bilhetes_codificados_pagos, 62_550);
    assert_eq!(M25::CancelamentoCreditos.machine_value(t), Some(62_550));
    assert!(m.state().self_audit().is_ok());

    // The ticket comes back once, and only once.
    assert_eq!(m.insert_ticket(&ticket.validation).unwrap(), 62_550);
    assert_eq!(m.state().totals.bilhetes_codificados_entrados, 62_550);
    assert!(matches!(m.insert_ticket(&ticket.validation), Err(CoreError::TicketRejected(_))));
    assert!(matches!(m.insert_ticket("123456789012345678"), Err(CoreError::TicketRejected(_))));
}

#[test]
fn refused_notes_are_logged_and_never_credited() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    assert!(matches!(m.insert_note(700), Err(CoreError::NoteRejected(_))));
    // Credit limit (F-43): 300,000 cents by default.
    for _ in 0..30 {
        m.insert_note(10_000).unwrap();
    }
    let err = m.insert_note(500).unwrap_err();
    assert!(err.to_string().contains("limit"), "{err}");
    assert_eq!(m.credit(), 300_000);
    let events = m.events(50).unwrap();
    assert_eq!(events.iter().filter(|r| matches!(r.entry, Entry::NoteRejected { .. })).count(), 2);
}

/// E-41 (multi-denomination): play at several denominations converts
/// credits and meters without losing or making a cent; C-22: the meters
/// are cents, the credits derived from them at each denomination.
#[test]
fn multidenomination_never_loses_a_cent() {
    // decisions.md: the remainder stays on the meter and is cashable.
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    m.insert_note(500).unwrap();
    play(&mut m, 2, 2, 1); // an odd-cent prize (e.g. a scatter pay on a fractional bet)
    play(&mut m, 200, 400, 0);
    assert_eq!(m.credit(), 99);
    let view = meters::money::credits_at(m.credit(), 20);
    assert_eq!((view.credits, view.remainder_cents), (4, 19));
    assert!(matches!(m.play_round("g", 200, 200, "s", |_| Ok::<_, String>(json!(null))).map(|(r, _)| r), Err(CoreError::InsufficientCredit { .. })));
    assert!(matches!(m.play_round("g", 3, 3, "s", |_| Ok::<_, String>(json!(null))).map(|(r, _)| r), Err(CoreError::UnknownDenomination(3))));
    assert!(matches!(m.play_round("g", 20, 30, "s", |_| Ok::<_, String>(json!(null))).map(|(r, _)| r), Err(CoreError::StakeNotWholeCredits { .. })));
    let CashOut::Ticket(t) = m.cash_out().unwrap() else { panic!() };
    assert_eq!(t.value, 99, "every cent, remainder included, is cashed out");
}

/// F-44: an award at the hand-pay limit locks up into a hand-pay, never
/// reaches the credit meter, and is paid by an attendant (C-25: the
/// self-audit holds before and after).
#[test]
fn wins_at_the_handpay_limit_lock_up_until_an_attendant_pays() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    m.insert_note(1_000).unwrap();
    let round = m.play_round("g", 100, 100, "outcome", |_| Ok::<_, String>(json!({"win": 120_000}))).map(|(r, _)| r).unwrap();
    let settled = m.settle_round(round, 120_000, vec![]).unwrap();
    let WinPayment::Handpay { id } = settled.payment else { panic!("expected a hand-pay") };
    assert_eq!(m.credit(), 900, "a hand-paid win never reaches the credit meter");
    assert_eq!(m.play_block(), Some(PlayBlock::HandpayPending(id)));
    assert!(matches!(m.cash_out(), Err(CoreError::Blocked(PlayBlock::HandpayPending(_)))));
    assert_eq!(m.state().totals.games.creditos_ganhos, 120_000);
    assert!(m.state().self_audit().is_ok());
    m.pay_handpay(id, "attendant 7").unwrap();
    assert_eq!(m.play_block(), None);
    assert_eq!(m.state().totals.games.premio_acumulado_manual, 120_000);
    assert_eq!(m.state().per_game["g"].premio_acumulado_manual, 120_000);
    assert!(m.state().self_audit().is_ok());
}

#[test]
fn cash_out_above_the_ticket_limit_is_a_hand_pay() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    for _ in 0..11 {
        m.insert_note(10_000).unwrap();
    }
    let CashOut::Handpay { id, amount } = m.cash_out().unwrap() else { panic!("expected a hand-pay") };
    assert_eq!(amount, 110_000);
    assert_eq!(m.credit(), 0);
    assert!(m.state().self_audit().is_ok());
    m.pay_handpay(id, "att").unwrap();
    assert_eq!(m.state().totals.cancelamento_creditos_manual, 110_000);
    assert_eq!(m.state().totals.cancelamento_creditos, 0);
}

#[test]
fn an_open_door_stops_play_money_in_and_cash_out() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    m.insert_note(1_000).unwrap();
    m.open_door(Door::Main).unwrap();
    assert_eq!(m.play_block(), Some(PlayBlock::DoorOpen(Door::Main)));
    assert!(m.play_round("g", 1, 1, "s", |_| Ok::<_, String>(json!(null))).map(|(r, _)| r).is_err());
    assert!(m.insert_note(500).is_err());
    assert!(m.cash_out().is_err());
    m.close_door(Door::Main).unwrap();
    assert_eq!(m.play_block(), None);
    assert_eq!(m.state().totals.aberturas_porta[&Door::Main], 1);

    // The logic door leaves a tilt for an attendant (E-37).
    m.open_door(Door::Logic).unwrap();
    assert!(matches!(m.clear_tilt(Tilt::LogicDoorAccess, "att"), Err(CoreError::TiltStillCaused(_))));
    m.close_door(Door::Logic).unwrap();
    assert_eq!(m.play_block(), Some(PlayBlock::Tilt(Tilt::LogicDoorAccess)));
    m.clear_tilt(Tilt::LogicDoorAccess, "att").unwrap();
    assert_eq!(m.play_block(), None);
}

/// E-39: the event log keeps the significant events — doors, power,
/// notes — each with its time in UTC (RFC 3339), newest first, and at least
/// the last 100 of each category: 120 door openings, 120 closings and 120
/// notes are every one there, after a power cycle too; a round's steps are
/// recall's, not the log's.
#[test]
fn the_event_log_keeps_over_a_hundred_of_each_category_with_utc_times() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    for _ in 0..120 {
        m.open_door(Door::Main).unwrap();
        m.close_door(Door::Main).unwrap();
        m.insert_note(500).unwrap();
    }
    play(&mut m, 1, 100, 0);
    m.power_down().unwrap();
    drop(m);
    let m = boot(&dir);
    let events = m.events(10_000).unwrap();
    let count = |kind: &str| events.iter().filter(|r| r.entry.kind() == kind).count();
    assert_eq!((count("door_opened"), count("door_closed"), count("note_in")), (120, 120, 120));
    assert_eq!((count("power_up"), count("power_down")), (2, 1), "two boots, one orderly power-down");
    assert!(
        events.iter().all(|r| !matches!(r.entry, Entry::RoundBegun { .. } | Entry::RoundStep { .. } | Entry::RoundSettled { .. })),
        "a round's steps are in recall, not the event log"
    );
    assert!(events.windows(2).all(|w| w[0].seq > w[1].seq), "newest first");
    let seq_of = |kind: &str| events.iter().find(|r| r.entry.kind() == kind).map(|r| r.seq);
    assert!(seq_of("power_up") > seq_of("power_down"), "the second boot after the power-down");
    for r in &events {
        let t = r.at_utc.as_bytes();
        assert!(t.len() >= 20 && t[4] == b'-' && t[10] == b'T' && r.at_utc.ends_with('Z'), "not a UTC time: {}", r.at_utc);
    }
}

#[test]
fn a_round_survives_a_restart_at_its_step_and_is_finished_never_voided() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    {
        let mut m = boot(&dir);
        m.insert_note(1_000).unwrap();
        let r = m.play_round("poker", 5, 25, "deal", |_| Ok::<_, String>(json!({"cards": [1, 2, 3, 4, 5]}))).map(|(r, _)| r).unwrap();
        m.record_step(r, Step::new("hold", json!({"held": [0, 1]})), 0).unwrap();
        // Power cut: the machine is dropped without a shutdown.
    }
    let mut m = Machine::open(&path, lab_config(), SeedChoice::Lab(2)).unwrap();
    let open = m.open_round().cloned().unwrap();
    assert_eq!((open.round, open.steps, open.stake), (1, 2, 25));
    assert_eq!(m.credit(), 975);
    let power_up = m.events(10).unwrap().into_iter().find_map(|r| match r.entry {
        Entry::PowerUp { unclean_shutdown, .. } => Some(unclean_shutdown),
        _ => None,
    });
    assert_eq!(power_up, Some(true), "the power loss is logged");
    // No new round, no cash-out while it is open.
    assert!(matches!(m.cash_out(), Err(CoreError::Blocked(PlayBlock::RoundInProgress(1)))));
    m.resume_round(1).unwrap();
    // Finished with its committed outcome (issue 47, hole 6: never voided).
    m.record_step(1, Step::new("draw", json!({"cards": [1, 2, 9, 10, 11]})), 0).unwrap();
    m.settle_round(1, 50, vec![]).unwrap();
    assert_eq!(m.credit(), 1_025);
    let t = &m.state().totals.games;
    assert_eq!((t.jogadas_efectuadas, t.jogadas_anuladas, t.reembolsos_anulacao, t.creditos_jogados, t.creditos_ganhos), (1, 0, 0, 25, 50));
    let recall = m.recall(100).unwrap();
    assert_eq!(recall.len(), 1);
    assert_eq!(recall[0].steps.len(), 3);
    assert_eq!(recall[0].resumed_at, vec![2]);
    assert!(matches!(recall[0].outcome, RecallOutcome::Settled { win: 50, credit_after: 1_025, .. }));
}

/// E-33, D-30: recall of at least the last ten games (here a hundred), each with
/// every step.
#[test]
fn recall_keeps_every_step_of_the_last_100_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    m.insert_note(10_000).unwrap();
    for i in 0..105u64 {
        let r = m.play_round("g", 1, 10, "draw", |_| Ok::<_, String>(json!({"i": i}))).map(|(r, _)| r).unwrap();
        m.record_step(r, Step::new("double-up", json!({"won": i % 2 == 0})), 0).unwrap();
        m.settle_round(r, i % 3, vec![]).unwrap();
    }
    let recall = m.recall(100).unwrap();
    assert_eq!(recall.len(), 100);
    assert_eq!(recall[0].round, 6);
    assert_eq!(recall[99].round, 105);
    let last = &recall[99];
    assert_eq!(last.steps[0].step.data, json!({"i": 104}));
    assert_eq!(last.steps[1].step.name, "double-up");
    let RecallOutcome::Settled { win, credit_after, .. } = last.outcome else { panic!() };
    assert_eq!(win, 104 % 3);
    assert_eq!(credit_after, m.credit());
    assert_eq!(last.credit_before, credit_after + 10 - win);
}

#[test]
fn meters_display_ten_digits_and_the_rollover_is_logged() {
    // C-21: a meter at 9,999,999,999 + 1 shows 0, and the rollover is logged.
    let dir = tempfile::tempdir().unwrap();
    // Notes this large are C-26's excessive increments unless its limit is raised.
    let excessive_increment = meters::config::ExcessiveIncrement { coin_in: 100_000, bills_in: u64::MAX };
    let config =
        MachineConfig { mode: Mode::Lab, accepted_notes: vec![3_333_333_333, 1], credit_limit: u64::MAX / 2, excessive_increment, ..MachineConfig::default() };
    let mut m = Machine::open(&dir.path().join("egm.sqlite"), config, SeedChoice::Lab(3)).unwrap();
    for _ in 0..3 {
        m.insert_note(3_333_333_333).unwrap();
    }
    let v = M25::DinheiroEntrado.machine_value(&m.state().totals).unwrap();
    assert_eq!(v, 9_999_999_999);
    assert_eq!(meters::meters::displayed(v, 10), 9_999_999_999);
    assert!(m.events(100).unwrap().iter().all(|r| !matches!(r.entry, Entry::MeterRollover { .. })));
    m.insert_note(1).unwrap();
    let v = M25::DinheiroEntrado.machine_value(&m.state().totals).unwrap();
    assert_eq!(meters::meters::displayed(v, 10), 0);
    let rollover = m.events(5).unwrap().into_iter().find_map(|r| match r.entry {
        Entry::MeterRollover { meter, count } => Some((meter, count)),
        _ => None,
    });
    assert_eq!(rollover, Some(("dinheiro_entrado".to_owned(), 1)));
}

#[test]
fn a_lab_seed_is_refused_in_production_and_logged_in_lab() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let production = MachineConfig {
        mode: Mode::Production,
        operator: meters::OperatorCredential::held_by_tpm("ana").unwrap(),
        nvram_mirror: Some(dir.path().join("nvram.bin")),
        ..MachineConfig::default()
    };
    let err = Machine::open(&path, production, SeedChoice::Lab(9)).err().unwrap();
    assert!(matches!(err, BootError::LabSeedRefused), "{err}");
    let m = Machine::open(&path, lab_config(), SeedChoice::Lab(9)).unwrap();
    let seeded = m.events(10).unwrap().into_iter().find_map(|r| match r.entry {
        Entry::RngSeeded { source } => Some(source),
        _ => None,
    });
    assert_eq!(seeded, Some(meters::rng::SeedSource::Lab(9)));
}

#[test]
fn configuration_changes_are_journaled() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    drop(boot(&dir));
    drop(boot(&dir));
    let changed = MachineConfig { handpay_limit: 200_000, ..lab_config() };
    // Issue 68, attack 4: a file edited while the cabinet was off is
    // refused, the change named, while the logic door is shut.
    match Machine::open(&path, changed.clone(), SeedChoice::Lab(1)) {
        Err(BootError::ConfigChangeRefused(what)) => assert_eq!(what, "handpay_limit"),
        other => panic!("an edited configuration booted with the logic door shut: {:?}", other.map(|_| ())),
    }
    let mut m = boot(&dir);
    m.open_door(Door::Logic).unwrap();
    drop(m);
    let m = Machine::open(&path, changed, SeedChoice::Lab(1)).unwrap();
    let changes = m.events(100).unwrap().iter().filter(|r| matches!(r.entry, Entry::ConfigChanged { .. })).count();
    assert_eq!(changes, 2, "the first configuration and the one change (M-7)");
    assert_eq!(m.state().totals.arranques, 4);
    let bad = MachineConfig { denominations: vec![], ..lab_config() };
    assert!(matches!(Machine::open(&path, bad, SeedChoice::Lab(1)), Err(BootError::Config(_))));
}

/// Issue 11: the core draws and commits in one call. The values the game
/// saw are the lab stream's own, and the journal holds how many it took.
#[test]
fn a_round_is_drawn_by_the_core_and_journaled_with_its_draw_count() {
    use meters::{GameRng, StreamRng};
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir); // lab seed 1: nothing drawn at boot without pools
    m.insert_note(1_000).unwrap();
    let (round, seen) = m
        .play_round("test-game", 10, 50, "deal", |rng| Ok::<_, String>(vec![rng.next_raw(), rng.next_raw(), u64::from(rng.next_raw32()), rng.next_raw()]))
        .unwrap();
    // An independent reference: the same lab key's plain stream.
    let mut reference = StreamRng::from_seed(1);
    let expected = vec![reference.next_raw(), reference.next_raw(), u64::from(reference.next_raw32()), reference.next_raw()];
    assert_eq!(seen, expected);
    assert_eq!(m.credit(), 950, "the stake left with the outcome");
    // A later step that draws: committed with its own count and extra stake.
    let card = m.draw_step(round, "hit", 10, |rng| Ok::<_, String>(rng.next_raw())).unwrap();
    assert_eq!(card, reference.next_raw());
    m.record_step(round, Step::new("stand", json!(null)), 0).unwrap();
    m.settle_round(round, 0, Vec::new()).unwrap();
    let recall = m.recall(1).unwrap();
    let steps: Vec<(&str, u64, u64)> = recall[0].steps.iter().map(|s| (s.step.name.as_str(), s.draws, s.extra_stake)).collect();
    assert_eq!(steps, vec![("deal", 4, 0), ("hit", 1, 10), ("stand", 0, 0)]);
    assert_eq!(recall[0].steps[0].step.data, json!(expected));
    assert_eq!(recall[0].stake, 60);
}

/// A draw that fails leaves its trace (the values it took) and commits
/// nothing else; a refused round never reaches the generator.
#[test]
fn a_failed_draw_is_journaled_and_a_refused_round_never_draws() {
    use meters::GameRng;
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    m.insert_note(500).unwrap();
    let err = m
        .play_round("test-game", 10, 50, "deal", |rng| {
            rng.next_raw();
            rng.next_raw32();
            Err::<u64, _>("no such bet")
        })
        .unwrap_err();
    assert!(matches!(&err, CoreError::DrawFailed(reason) if reason == "no such bet"), "{err}");
    assert_eq!(m.credit(), 500);
    assert!(m.open_round().is_none());
    let discarded: Vec<(String, u64, String)> = m
        .events(5)
        .unwrap()
        .into_iter()
        .filter_map(|r| match r.entry {
            Entry::DrawDiscarded { game, draws, reason } => Some((game, draws, reason)),
            _ => None,
        })
        .collect();
    assert_eq!(discarded, vec![("test-game".to_owned(), 2, "no such bet".to_owned())]);

    let mut called = false;
    let refused = m.play_round("test-game", 10, 600, "deal", |_| {
        called = true;
        Ok::<_, String>(0)
    });
    assert!(matches!(refused, Err(CoreError::InsufficientCredit { credit: 500, needed: 600 })));
    let unnamed = m.play_round(" ", 10, 10, "deal", |_| {
        called = true;
        Ok::<_, String>(0)
    });
    assert!(matches!(unnamed, Err(CoreError::UnknownGame(_))));
    assert!(!called, "a refused round drew from the generator");
    assert_eq!(m.state().last_round, 0);
}

/// Issue 21, attack 8: a win above the configured maximum is refused before
/// anything is written; the round stays open and settles lawfully after.
#[test]
fn a_win_above_the_maximum_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let config = MachineConfig { mode: Mode::Lab, max_win: 500_000, ..MachineConfig::default() };
    let mut m = Machine::open(&path, config.clone(), SeedChoice::Lab(1)).unwrap();
    m.insert_note(1_000).unwrap();
    let (r, _) = m.play_round("g", 1, 100, "spin", |_| Ok::<_, String>(0)).unwrap();
    let before = m.state().clone();
    assert!(matches!(m.settle_round(r, u64::MAX - 100, vec![]), Err(CoreError::WinAboveMaximum { max: 500_000, .. })));
    assert!(matches!(m.settle_round(r, 500_001, vec![]), Err(CoreError::WinAboveMaximum { .. })));
    assert_eq!(m.state(), &before, "a refused settlement changes nothing");
    m.settle_round(r, 500_000, vec![]).unwrap();
    drop(m);
    let m = Machine::open(&path, config, SeedChoice::Lab(1)).unwrap();
    assert_eq!(m.state().totals.games.creditos_ganhos, 500_000);
}

/// Issue 21, attack 6: an entry the fold refuses is never appended. A win
/// that would take "créditos ganhos" past 2^64 (the credit meter itself
/// fine) is refused by the fold: nothing is committed, the machine goes on,
/// and every later boot is clean. Before, it was appended first and every
/// boot after ended in a RAM error (or, in release, the meter wrapped).
#[test]
fn an_entry_the_fold_refuses_is_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let config = MachineConfig { mode: Mode::Lab, max_win: u64::MAX, ..MachineConfig::default() };
    let mut m = Machine::open(&path, config.clone(), SeedChoice::Lab(1)).unwrap();
    m.insert_note(1_000).unwrap();
    // A first, enormous win: locked up as a hand-pay, then paid.
    let (r, _) = m.play_round("g", 1, 100, "spin", |_| Ok::<_, String>(0)).unwrap();
    m.settle_round(r, u64::MAX - 1_000, vec![]).unwrap();
    let id = *m.state().handpays.keys().next().unwrap();
    m.pay_handpay(id, "attendant").unwrap();
    // A second win of 2,000: the credit meter could take it, the game's
    // "créditos ganhos" could not.
    let (r, _) = m.play_round("g", 1, 100, "spin", |_| Ok::<_, String>(0)).unwrap();
    let before = m.state().clone();
    let records = m.events(u64::MAX).unwrap().len();
    assert!(matches!(m.settle_round(r, 2_000, vec![]), Err(CoreError::Refused(_))));
    assert_eq!(m.state(), &before, "the refused entry left no trace in the state");
    assert_eq!(m.events(u64::MAX).unwrap().len(), records, "nor in the journal");
    // The machine goes on: the round settles without the impossible win.
    m.settle_round(r, 0, vec![]).unwrap();
    drop(m);
    let m = Machine::open(&path, config, SeedChoice::Lab(1)).unwrap();
    assert_eq!(m.state().totals.games.jogadas_efectuadas, 2);
    assert!(m.play_block().is_none(), "a clean boot");
}

/// Issue 21, attack 9: a game's draw from an empty range is an error: the
/// draw is journaled as discarded and no round begins; an anonymous
/// transfer or hand-pay is refused.
#[test]
fn an_empty_range_voids_the_draw_and_money_moves_name_who_moves_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = Machine::open(&dir.path().join("egm.sqlite"), lab_config(), SeedChoice::Lab(1)).unwrap();
    m.insert_note(1_000).unwrap();
    let r = m.play_round("g", 1, 100, "spin", |rng| Ok::<_, String>(meters::GameRng::uniform(rng, 0)));
    assert!(matches!(&r, Err(CoreError::DrawFailed(why)) if why.contains("uniform(0)")), "{r:?}");
    assert!(m.open_round().is_none());
    assert_eq!(m.credit(), 1_000, "no stake was taken");
    assert!(m.events(5).unwrap().iter().any(|e| matches!(&e.entry, Entry::DrawDiscarded { reason, .. } if reason.contains("uniform(0)"))));
    assert!(matches!(m.transfer_pool("p", 0, 1, meters::TransferTarget::Pool { pool: "q".into(), level: 0 }, " "), Err(CoreError::Progressive(_))));
    let (r, _) = m.play_round("g", 1, 100, "spin", |_| Ok::<_, String>(0)).unwrap();
    m.settle_round(r, 200_000, vec![]).unwrap();
    let id = *m.state().handpays.keys().next().unwrap();
    assert!(matches!(m.pay_handpay(id, ""), Err(CoreError::Refused(_))));
    m.pay_handpay(id, "attendant 7").unwrap();
}

/// Issue 21, attack 7: one process at a time writes critical memory: a
/// second machine, or a RAM clear, beside a live one is refused by name;
/// and a journal changed behind a live machine's back (a restored copy, a
/// foreign row) makes its next note, step or settlement refused on the
/// journal's end, never credited against records it did not write.
#[test]
fn a_second_writer_is_refused_and_a_changed_journal_stops_money() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut live = boot(&dir);
    live.insert_note(2_000).unwrap();
    let busy = Machine::open(&path, lab_config(), SeedChoice::Lab(2)).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(busy.contains("in use by another process"), "a second writer was let in: {busy:?}");
    let clear = Machine::ram_clear(&path, &lab_config(), "operator", "0000", "beside a live cabinet", true).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(clear.contains("in use by another process"), "a RAM clear ran beside a live cabinet: {clear:?}");
    // Reading (meters, recall, the lab's tools) is never locked out.
    assert_eq!(meters::inspect::Inspection::open(&path).unwrap().state().credit, 2_000);

    // A row added behind the live machine's back, in a round.
    let (round, _) = live.play_round("g", 1, 100, "deal", |_| Ok::<_, String>(json!({}))).unwrap();
    let c = rusqlite::Connection::open(&path).unwrap();
    let max: i64 = c.query_row("SELECT max(seq) FROM journal", [], |r| r.get(0)).unwrap();
    c.execute(
        "INSERT INTO journal (seq, at_utc, kind, body, mac) VALUES (?1, '2026-01-01T00:00:00Z', 'note_in', '{\"kind\":\"note_in\",\"value\":10000}', x'00')",
        [max + 1],
    )
    .unwrap();
    drop(c);
    assert!(matches!(live.record_step(round, Step::new("hold", json!({})), 0), Err(CoreError::CriticalMemory(_))));
    assert!(matches!(live.settle_round(round, 500, vec![]), Err(CoreError::CriticalMemory(_))));
    assert!(matches!(live.insert_note(500), Err(CoreError::CriticalMemory(_))), "a note credited after the journal moved");
    assert_eq!(live.credit(), 1_900, "nothing was paid");
    // Once the live machine is gone, the next boot takes the lock and finds
    // the forged row in the first copy: the second copy (D-28), written by
    // the machine alone, rebuilds it, and the rebuild is logged.
    drop(live);
    let m = Machine::open(&path, lab_config(), SeedChoice::Lab(2)).unwrap();
    assert_eq!(m.credit(), 1_900);
    assert_eq!(m.state().totals.dinheiro_entrado, 2_000, "the forged note is gone");
    let rebuilt: Vec<String> =
        m.events(100).unwrap().into_iter().filter_map(|r| if let Entry::CopyRebuilt { detail } = r.entry { Some(detail) } else { None }).collect();
    assert_eq!(rebuilt.len(), 1);
    assert!(rebuilt[0].contains("first copy") && rebuilt[0].contains("MAC mismatch"), "{}", rebuilt[0]);
    drop(m);
    // With one copy only, the same forged row is a RAM error.
    let one = dir.path().join("one.sqlite");
    let single = MachineConfig { second_copy: meters::config::SecondCopy::Off, ..lab_config() };
    let mut m = Machine::open(&one, single.clone(), SeedChoice::Lab(2)).unwrap();
    m.insert_note(2_000).unwrap();
    drop(m);
    let c = rusqlite::Connection::open(&one).unwrap();
    let max: i64 = c.query_row("SELECT max(seq) FROM journal", [], |r| r.get(0)).unwrap();
    c.execute("INSERT INTO journal (seq, at_utc, kind, body, mac) VALUES (?1, '2026-01-01T00:00:00Z', 'note_in', '{}', x'00')", [max + 1]).unwrap();
    drop(c);
    assert!(matches!(Machine::open(&one, single, SeedChoice::Lab(2)), Err(BootError::RamError(_))));
}

/// Issue 21, attack 9: with a door open in a round, its decisions and its
/// settlement wait (the round stays open and resumable); once the door is
/// closed they go through.
#[test]
fn a_round_waits_while_a_door_is_open() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    m.insert_note(2_000).unwrap();
    let (round, _) = m.play_round("g", 1, 100, "deal", |_| Ok::<_, String>(json!({}))).unwrap();
    m.open_door(Door::Main).unwrap();
    assert!(matches!(m.record_step(round, Step::new("raise", json!({})), 200), Err(CoreError::Blocked(PlayBlock::DoorOpen(Door::Main)))));
    assert!(matches!(m.settle_round(round, 300, vec![]), Err(CoreError::Blocked(PlayBlock::DoorOpen(Door::Main)))));
    assert_eq!(m.credit(), 1_900);
    m.close_door(Door::Main).unwrap();
    m.record_step(round, Step::new("raise", json!({})), 200).unwrap();
    m.settle_round(round, 300, vec![]).unwrap();
    assert_eq!(m.credit(), 1_900 - 200 + 300);
}

/// Issue 21: a ticket is issued in two steps; until the second, it is
/// listed as unprinted (also after a restart); the second is recorded once.
#[test]
fn a_ticket_is_issued_then_printed() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    m.insert_note(2_000).unwrap();
    let CashOut::Ticket(t) = m.cash_out().unwrap() else { panic!("a ticket was expected") };
    assert_eq!(m.unprinted_tickets(), vec![t.clone()]);
    drop(m);
    let mut m = boot(&dir);
    assert_eq!(m.unprinted_tickets(), vec![t.clone()], "still unprinted after a restart, with its issue time");
    m.ticket_printed(&t.validation).unwrap();
    m.ticket_printed(&t.validation).unwrap();
    assert!(m.unprinted_tickets().is_empty());
    assert!(m.ticket_printed("000000000000000000").is_err(), "no such ticket");
    drop(m);
    let m = boot(&dir);
    assert!(m.unprinted_tickets().is_empty());
    let printed = m.events(100).unwrap().into_iter().filter(|r| matches!(r.entry, Entry::TicketPrinted { .. })).count();
    assert_eq!(printed, 1, "the second step is journaled once");
}

/// Issue 50: an operator chooses a game's RTP variant only with the logic
/// door open, between rounds, by name; the choice is logged with its
/// digest and survives a restart.
#[test]
fn a_variant_is_chosen_only_with_the_logic_door_open_between_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    let digest = "ab".repeat(32);
    let refused = |r: Result<(), CoreError>| match r {
        Err(CoreError::Refused(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    };
    assert!(refused(m.choose_variant("floresta-243", "floresta-243-92", &digest, "ana")).contains("logic door open"));
    m.insert_note(1_000).unwrap();
    let round = m.play_round("floresta-243", 1, 25, "spin", |_| Ok::<_, String>(json!({ "win": 0 }))).map(|(r, _)| r).unwrap();
    m.open_door(Door::Logic).unwrap();
    assert!(refused(m.choose_variant("floresta-243", "floresta-243-92", &digest, "ana")).contains(&format!("round {round} is open")));
    m.close_door(Door::Logic).unwrap();
    m.clear_tilt(Tilt::LogicDoorAccess, "att").unwrap();
    m.settle_round(round, 0, vec![]).unwrap();
    m.open_door(Door::Logic).unwrap();
    assert!(refused(m.choose_variant("floresta-243", "floresta-243-92", &digest, " ")).contains("named operator"));
    assert!(refused(m.choose_variant("floresta-243", "floresta-243-92", "ab", "ana")).contains("approved digest"));
    assert!(m.state().variants.is_empty(), "nothing refused is recorded");
    m.choose_variant("floresta-243", "floresta-243-92", &digest, "ana").unwrap();
    assert_eq!(m.state().variants.get("floresta-243").map(String::as_str), Some("floresta-243-92"));
    let logged =
        m.events(10).unwrap().into_iter().any(|r| {
            r.entry == Entry::VariantChosen { family: "floresta-243".into(), game: "floresta-243-92".into(), sha256: digest.clone(), by: "ana".into() }
        });
    assert!(logged, "the choice is in the event log");
    drop(m);
    let m = boot(&dir);
    assert_eq!(m.state().variants.get("floresta-243").map(String::as_str), Some("floresta-243-92"), "the choice survives a restart");
}

/// C-26 (NZ 3.3.19a), on a real SQLite file: one play's coin-in (its
/// opening stake, or its stakes with a raise) or one note's bills-in at or
/// above the configured increment is a fault "excessive meter increment":
/// refused before anything is drawn or credited, every meter as it was,
/// play and the note acceptor stopped until an attendant clears it; the
/// fault survives a power cut (C-36); a round staked before a lower limit
/// was configured still settles (only an increment is judged).
#[test]
fn an_excessive_meter_increment_is_refused_and_stops_play_until_an_attendant_clears_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let config = MachineConfig { excessive_increment: meters::config::ExcessiveIncrement { coin_in: 1_000, bills_in: 5_000 }, ..lab_config() };
    let mut m = Machine::open(&path, config.clone(), SeedChoice::Lab(1)).unwrap();
    m.insert_note(2_000).unwrap();
    m.insert_note(2_000).unwrap();
    let before = (m.credit(), m.state().totals.clone(), m.state().last_round);
    let tilted = |m: &Machine| m.state().tilts.contains(&Tilt::ExcessiveMeterIncrement);

    // A stake at the limit: refused, nothing drawn or metered, the fault set.
    let e = m.play_round("test-game", 10, 1_000, "outcome", |_| -> Result<serde_json::Value, String> { panic!("drawn for a refused play") }).unwrap_err();
    assert!(matches!(&e, CoreError::ExcessiveIncrement(why) if why.contains("1000 cents reaches the limit of 1000")), "{e}");
    assert_eq!((m.credit(), m.state().totals.clone(), m.state().last_round), before);
    assert!(tilted(&m));
    assert_eq!(m.play_block(), Some(PlayBlock::Tilt(Tilt::ExcessiveMeterIncrement)));
    // Play and notes stop until the attendant clears it.
    assert!(matches!(m.play_round("test-game", 10, 100, "outcome", |_| Ok::<_, String>(json!({}))), Err(CoreError::Blocked(_))));
    assert!(matches!(m.insert_note(500), Err(CoreError::NoteRejected(_))));
    // It survives a power cut.
    drop(m);
    let mut m = Machine::open(&path, config.clone(), SeedChoice::Lab(1)).unwrap();
    assert!(tilted(&m));
    m.clear_tilt(Tilt::ExcessiveMeterIncrement, "attendant 4").unwrap();
    assert_eq!(m.play_block(), None);

    // Under the limit a play goes on; a raise that takes its stakes to the
    // limit is refused before its draw, the round still open at its stake.
    let round = m.play_round("test-game", 10, 600, "outcome", |_| Ok::<_, String>(json!({}))).unwrap().0;
    let e = m.draw_step(round, "raise", 400, |_| -> Result<serde_json::Value, String> { panic!("drawn for a refused raise") }).unwrap_err();
    assert!(matches!(e, CoreError::ExcessiveIncrement(_)), "{e}");
    assert_eq!(m.open_round().map(|o| o.stake), Some(600));
    assert!(tilted(&m));
    m.clear_tilt(Tilt::ExcessiveMeterIncrement, "attendant 4").unwrap();
    m.record_step(round, Step::new("raise", json!({})), 300).unwrap();
    m.settle_round(round, 0, vec![]).unwrap();
    assert_eq!(m.state().totals.games.creditos_jogados, 900);

    // One note at the bills-in limit: refused, not credited, the fault set.
    let credit = m.credit();
    let e = m.insert_note(5_000).unwrap_err();
    assert!(matches!(&e, CoreError::ExcessiveIncrement(why) if why.contains("bills-in of 5000 cents")), "{e}");
    assert_eq!((m.credit(), m.state().totals.dinheiro_entrado), (credit, 4_000));
    assert!(tilted(&m));
    m.clear_tilt(Tilt::ExcessiveMeterIncrement, "attendant 4").unwrap();
    // Every fault and clear is in the journal, with its cause and who cleared it.
    let events = m.events(100).unwrap();
    let set = events.iter().filter(|e| matches!(&e.entry, Entry::TiltSet { tilt: Tilt::ExcessiveMeterIncrement, .. })).count();
    let cleared = events.iter().filter(|e| matches!(&e.entry, Entry::TiltCleared { tilt: Tilt::ExcessiveMeterIncrement, by } if by == "attendant 4")).count();
    assert_eq!((set, cleared), (3, 3));

    // A round staked at 900 settles after the limit is lowered to 500.
    let round = m.play_round("test-game", 10, 900, "outcome", |_| Ok::<_, String>(json!({}))).unwrap().0;
    // The configuration changes with the logic door open (issue 68).
    m.open_door(Door::Logic).unwrap();
    drop(m);
    let lower = MachineConfig { excessive_increment: meters::config::ExcessiveIncrement { coin_in: 500, bills_in: 5_000 }, ..config };
    let mut m = Machine::open(&path, lower, SeedChoice::Lab(1)).unwrap();
    m.close_door(Door::Logic).unwrap();
    m.clear_tilt(Tilt::LogicDoorAccess, "attendant 4").unwrap();
    m.settle_round(round, 100, vec![WinComponent { label: "line 1".into(), amount: 100 }]).unwrap();
    assert!(!tilted(&m));
    assert_eq!(m.state().totals.games.creditos_jogados, 1_800);
}

/// B-16 (certification.md 16) and C-20's per-category theoretical
/// payback, on a real SQLite file: each settled round
/// played in a wager category adds its coin-in (raises included) and its
/// theoretical payback, stake × RTP exact in millionths of a cent, to that
/// category's meters; the weighted average (SAS 7F) follows; a category
/// set for another game is not taken; the meters fold again the same after
/// a restart; a category over 100% is refused by critical memory.
#[test]
fn wager_categories_meter_coin_in_and_theoretical_payback() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&path, lab_config(), SeedChoice::Lab(1)).unwrap();
    m.insert_note(5_000).unwrap();
    let cat = |name: &str, ppm: u32| meters::WagerCategory { name: name.into(), rtp_ppm: ppm };
    // 9 lines at 96.1234%: two rounds of 90 and 45 cents.
    for stake in [90, 45] {
        m.set_wager_category("test-game", cat("9 lines", 961_234));
        play(&mut m, 5, stake, 0);
    }
    // 1 line at 88.5%: a round of 10 cents raised by 20.
    m.set_wager_category("test-game", cat("1 lines", 885_000));
    let round = m.play_round("test-game", 10, 10, "outcome", |_| Ok::<_, String>(json!({}))).unwrap().0;
    m.record_step(round, Step::new("raise", json!({})), 20).unwrap();
    m.settle_round(round, 0, vec![]).unwrap();
    // Set for another game: this round is in no category.
    m.set_wager_category("other-game", cat("1 lines", 885_000));
    play(&mut m, 5, 50, 0);
    let check = |m: &Machine| {
        let c = &m.state().categories["test-game"];
        assert_eq!(c.len(), 2);
        let nine = &c["9 lines"];
        assert_eq!((nine.coin_in, nine.theoretical_micro, nine.rtp_ppm), (135, 135 * 961_234, 961_234));
        assert_eq!(nine.theoretical_cents(), 129, "129.766… cents, rounded down");
        assert_eq!(nine.weighted_basis_points(), Some(9_612));
        let one = &c["1 lines"];
        assert_eq!((one.coin_in, one.theoretical_micro), (30, 30 * 885_000));
        assert_eq!(one.weighted_basis_points(), Some(8_850));
        assert!(!m.state().categories.contains_key("other-game"));
    };
    check(&m);
    drop(m);
    let mut m = Machine::open(&path, lab_config(), SeedChoice::Lab(1)).unwrap();
    check(&m);
    m.set_wager_category("test-game", cat("9 lines", 1_000_001));
    let e = m.play_round("test-game", 5, 45, "outcome", |_| Ok::<_, String>(json!({}))).unwrap_err();
    assert!(matches!(&e, CoreError::Refused(why) if why.contains("at most 100%")), "{e}");
    check(&m);
}

/// Issue 51: the lab's outcome collection taps the production draw — each
/// value a game's draw scales, (range, value), in order, the committed
/// outcome built from exactly those — in lab mode, and only once asked.
#[test]
fn the_lab_tap_records_every_scaled_draw_of_the_production_round() {
    use meters::GameRng;
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    m.insert_note(2_000).unwrap();
    let spin = |m: &mut Machine| m.play_round("test-game", 1, 1, "outcome", |rng| Ok::<_, String>([rng.uniform(37), rng.uniform(6), rng.uniform(6)])).unwrap();
    let (round, _) = spin(&mut m);
    m.settle_round(round, 0, vec![]).unwrap();
    assert!(m.take_tapped_draws().is_empty(), "not tapping until asked");
    m.tap_draws().unwrap();
    let (round, drawn) = spin(&mut m);
    m.settle_round(round, 0, vec![]).unwrap();
    assert_eq!(m.take_tapped_draws(), vec![(37, drawn[0]), (6, drawn[1]), (6, drawn[2])]);
    let recall = m.recall(1).unwrap();
    assert_eq!(recall[0].steps[0].step.data, json!(drawn), "the committed outcome is the tapped draws");
    assert!(m.take_tapped_draws().is_empty(), "taken once");
}

/// B-16, issue 77 defect 5: an extra stake a decision places on a bet of
/// its own (blackjack's insurance, at the RTP its paytable proves for it)
/// is metered in that bet's category; the extra stakes on the bet itself
/// (a double, a split) stay in the round's category. The shares fold the
/// same after a restart.
#[test]
fn an_extra_stake_on_a_bet_of_its_own_is_metered_at_its_rtp() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&path, lab_config(), SeedChoice::Lab(1)).unwrap();
    m.insert_note(5_000).unwrap();
    let category = |name: &str, ppm: u32| meters::WagerCategory { name: name.into(), rtp_ppm: ppm };
    for _ in 0..2 {
        m.set_wager_category("bj", category("the game (optimal play)", 995_975));
        let round = m.play_round("bj", 5, 100, "deal", |_| Ok::<_, String>(json!({}))).unwrap().0;
        m.record_step_in(round, Step::new("insurance", json!({})), 50, Some(category("insurance", 926_045))).unwrap();
        m.record_step(round, Step::new("double", json!({})), 100).unwrap();
        m.settle_round(round, 0, vec![]).unwrap();
    }
    let check = |m: &Machine| {
        let c = &m.state().categories["bj"];
        assert_eq!(c.len(), 2, "{c:?}");
        let game = &c["the game (optimal play)"];
        assert_eq!((game.coin_in, game.theoretical_micro, game.rtp_ppm), (400, 400 * 995_975, 995_975));
        let insurance = &c["insurance"];
        assert_eq!((insurance.coin_in, insurance.theoretical_micro, insurance.rtp_ppm), (100, 100 * 926_045, 926_045));
        // (400 × 99.5975 + 100 × 92.6045) / 500 = 98.1989 %.
        assert_eq!(m.state().game_weighted_basis_points("bj"), Some(9_819));
        assert_eq!(m.state().totals.games.creditos_jogados, 500);
    };
    check(&m);
    drop(m);
    let m = Machine::open(&path, lab_config(), SeedChoice::Lab(1)).unwrap();
    check(&m);
}

/// B-16, issue 77 defect 5: a round that stakes on bets of several RTPs
/// shares its stake out, each part metered in its own category at its own
/// RTP (a raise goes to the first wager, the bet it is made on); the
/// game's weighted average is Σ stake × RTP / Σ stake over its categories,
/// not its lowest bet's; the shares fold again the same after a restart;
/// parts that do not sum to the stake are refused before anything moves.
#[test]
fn a_round_of_several_bets_meters_each_at_its_own_rtp() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&path, lab_config(), SeedChoice::Lab(1)).unwrap();
    m.insert_note(5_000).unwrap();
    let wager = |name: &str, ppm: u32, stake: u64| meters::Wager { category: meters::WagerCategory { name: name.into(), rtp_ppm: ppm }, stake };
    // Banca francesa's 100 c on "grande" (98.94%: 62/63 paid 1:1 … the
    // figure here is the test's own) beside 20 c on "ases" at 85.64%.
    m.set_wagers("banca", vec![wager("Grande / Big", 989_417, 100), wager("Ases / Aces", 856_403, 20)]);
    let round = m.play_round("banca", 1, 120, "outcome", |_| Ok::<_, String>(json!({}))).unwrap().0;
    m.record_step(round, Step::new("raise", json!({})), 30).unwrap();
    m.settle_round(round, 0, vec![]).unwrap();
    let check = |m: &Machine| {
        let c = &m.state().categories["banca"];
        assert_eq!(c.len(), 2);
        let big = &c["Grande / Big"];
        assert_eq!((big.coin_in, big.theoretical_micro, big.rtp_ppm), (130, 130 * 989_417, 989_417));
        let aces = &c["Ases / Aces"];
        assert_eq!((aces.coin_in, aces.theoretical_micro), (20, 20 * 856_403));
        // (130 × 98.9417 + 20 × 85.6403) / 150 = 97.1682… %.
        assert_eq!(m.state().game_weighted_basis_points("banca"), Some((130 * 989_417 + 20 * 856_403) / 150 / 100));
        assert_eq!(m.state().game_weighted_basis_points("banca"), Some(9_716));
        assert_eq!(m.state().totals.games.creditos_jogados, 150);
    };
    check(&m);
    drop(m);
    let mut m = Machine::open(&path, lab_config(), SeedChoice::Lab(1)).unwrap();
    check(&m);
    let credit = m.state().credit;
    m.set_wagers("banca", vec![wager("Grande / Big", 989_417, 100), wager("Ases / Aces", 856_403, 10)]);
    let e = m.play_round("banca", 1, 120, "outcome", |_| Ok::<_, String>(json!({}))).unwrap_err();
    assert!(matches!(&e, CoreError::Refused(why) if why.contains("sum to the round's stake")), "{e}");
    assert_eq!(m.state().credit, credit);
    check(&m);
}
