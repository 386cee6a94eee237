//! The floor's system as the core sees it (SAS, issue 48), on a real
//! SQLite file: once a floor has taken this machine's events it is the
//! only authority on tickets, so a ticket it paid on another cabinet is
//! never paid here again; a cash-out ticket numbered by the floor (system
//! validation) is issued once, for the credit the floor was told, under a
//! number new to this machine.
#![allow(clippy::unwrap_used)]

use meters::{CashOut, CoreError, FloorCursor, Machine, MachineConfig, Mode, MoneyRefusal, SeedChoice};

fn boot(dir: &tempfile::TempDir) -> Machine {
    Machine::open(&dir.path().join("egm.sqlite"), MachineConfig { mode: Mode::Lab, ..MachineConfig::default() }, SeedChoice::Lab(1)).unwrap()
}

fn on_the_floor(m: &mut Machine) {
    let head = m.journal_head();
    m.record_floor_reported(FloorCursor { up_to: head, above: Vec::new() }).unwrap();
}

#[test]
fn on_a_floor_every_ticket_is_redeemed_through_it_and_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    m.insert_note(2_000).unwrap();
    let CashOut::Ticket(t) = m.cash_out().unwrap() else { panic!("a ticket") };
    m.ticket_printed(&t.validation).unwrap();
    on_the_floor(&mut m);

    // The reader alone no longer pays it: the floor may have paid it on
    // another cabinet. Refused, journaled, nothing credited; so after a
    // restart too.
    let refused = m.insert_ticket(&t.validation);
    assert!(matches!(refused, Err(CoreError::TicketRejected(MoneyRefusal::FloorValidates))), "{refused:?}");
    drop(m);
    let mut m = boot(&dir);
    assert!(matches!(m.insert_ticket(&t.validation), Err(CoreError::TicketRejected(MoneyRefusal::FloorValidates))));
    assert_eq!(m.credit(), 0);

    // The floor's word redeems it, for its own value only, once.
    let wrong = m.redeem_floor_ticket(&t.validation, 2_001);
    assert!(matches!(wrong, Err(CoreError::TicketRejected(MoneyRefusal::FloorAmount(_)))), "{wrong:?}");
    assert_eq!(m.redeem_floor_ticket(&t.validation, 2_000).unwrap(), 2_000);
    assert!(m.state().tickets[&t.validation].redeemed);
    let again = m.redeem_floor_ticket(&t.validation, 2_000);
    assert!(matches!(again, Err(CoreError::TicketRejected(MoneyRefusal::AlreadyRedeemed))), "{again:?}");
    drop(m);
    let m = boot(&dir);
    assert_eq!(m.credit(), 2_000, "the redemption replays from the journal once");
    assert_eq!(m.state().totals.bilhetes_codificados_entrados, 2_000);
    assert_eq!(m.state().totals.bilhetes_entrados_contagem, 1);
    m.state().self_audit().unwrap();
}

#[test]
fn a_ticket_numbered_by_the_floor_is_issued_once_for_the_credit_it_was_told() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    on_the_floor(&mut m);
    m.insert_note(5_000).unwrap();
    let floor_number = "421234567890123456";

    // Each refusal moves nothing.
    let refusals = [
        (floor_number, 4_999, "the credit is 5000"),
        ("001234567890123456", 5_000, "system ID 01-99"),
        ("4212345678901234", 5_000, "not 18 digits"),
        ("42123456789012345X", 5_000, "not 18 digits"),
    ];
    for (number, amount, why) in refusals {
        match m.cash_out_floor_validated(number, amount) {
            Err(CoreError::Refused(e)) => assert!(e.contains(why), "{number} {amount}: {e}"),
            other => panic!("{number} {amount}: {other:?}"),
        }
        assert_eq!(m.credit(), 5_000);
    }

    let CashOut::Ticket(t) = m.cash_out_floor_validated(floor_number, 5_000).unwrap() else { panic!("a ticket") };
    assert_eq!((t.validation.as_str(), t.value), (floor_number, 5_000));
    assert_eq!(m.credit(), 0);
    assert_eq!(m.unprinted_tickets(), vec![t.clone()], "printed again after a power cut until the printer finishes it");
    m.ticket_printed(floor_number).unwrap();

    // The same number again (a floor's retry, or a replay): refused.
    m.insert_note(5_000).unwrap();
    match m.cash_out_floor_validated(floor_number, 5_000) {
        Err(CoreError::Refused(e)) => assert!(e.contains("used before"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(m.credit(), 5_000);
    let totals = &m.state().totals;
    assert_eq!((totals.bilhetes_codificados_pagos, totals.bilhetes_pagos_contagem), (5_000, 1));
    m.state().self_audit().unwrap();

    // Over the ticket-out limit the floor's number is refused: that
    // cash-out is a hand-pay.
    let limit = m.config().ticket_out_limit;
    while m.credit() <= limit {
        m.insert_note(5_000).unwrap();
    }
    let credit = m.credit();
    match m.cash_out_floor_validated("429999999999999999", credit) {
        Err(CoreError::Refused(e)) => assert!(e.contains("ticket-out limit"), "{e}"),
        other => panic!("{other:?}"),
    }
}

/// Issue 48, sas.md §8: a level of the floor's SAS progressive group won
/// in a round is paid at the amount the controller broadcast, with the
/// round, and always by an attendant: the amount came over a line no one
/// signs, so even a win far under the hand-pay limit locks up. It is
/// counted once as a progressive prize, remembered for LP 84/85 across a
/// restart, and a bad group or level, or one level won twice, is refused.
#[test]
fn a_floor_progressive_level_is_paid_by_an_attendant_at_the_broadcast_amount() {
    use meters::{FloorAward, WinPayment};
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    m.insert_note(1_000).unwrap();
    let play = |m: &mut Machine| m.play_round("g", 1, 10, "outcome", |_| Ok::<_, String>(serde_json::json!(null))).map(|(r, _)| r).unwrap();
    let round = play(&mut m);
    for (bad, named) in [(&[(0u8, 1u8, 500u64)][..], "group 0 level 1"), (&[(3, 0x21, 500)][..], "level 33"), (&[(3, 1, 500), (3, 1, 500)][..], "won twice")] {
        let e = m.settle_round_with_floor(round, 20, vec![], &[], &[], bad).unwrap_err();
        assert!(e.to_string().contains(named), "{e}");
    }
    let limit = m.config().handpay_limit;
    assert!(20 + 750 < limit, "the test's win is under the hand-pay limit");
    let settled = m.settle_round_with_floor(round, 20, vec![], &[], &[], &[(3, 2, 750)]).unwrap();
    let WinPayment::Handpay { id } = settled.payment else { panic!("locked up: {:?}", settled.payment) };
    assert_eq!((settled.win, m.credit()), (770, 990), "nothing credited before the attendant");
    assert_eq!(m.state().last_floor_award, Some(FloorAward { round, group: 3, level: 2, amount: 750 }));
    assert_eq!(m.state().handpays[&id].amount, 770);
    drop(m);
    let mut m = boot(&dir);
    assert_eq!(m.state().last_floor_award, Some(FloorAward { round, group: 3, level: 2, amount: 750 }), "replayed from the journal");
    m.pay_handpay(id, "attendant 7").unwrap();
    let st = m.state();
    let g = &st.totals.games;
    assert_eq!((g.premios_acumulados_progressivos, g.premio_acumulado_manual, g.creditos_ganhos), (750, 770, 770));
    assert_eq!(st.per_game["g"], *g, "the game's meters, the same");
    assert_eq!(m.credit(), 990, "the attendant paid it by hand, not to the credit meter");
    st.self_audit().unwrap();
}

/// Issue 48, SAS secure-enhanced validation (sas.md §6, LP 4C): no ticket
/// is numbered before the floor sets the validation ID; then each ticket's
/// number is the one the floor recomputes from the ID and the sequence,
/// incremented before each use, kept across a restart (the vectors are an
/// independent implementation's, see `meters::ticket`); a bad ID is
/// refused; a cash-out over the ticket limit is still a hand-pay.
#[test]
fn secure_enhanced_tickets_are_numbered_from_the_floors_id_and_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    on_the_floor(&mut m);
    m.insert_note(1_000).unwrap();
    assert!(matches!(m.cash_out_secure_enhanced(), Err(CoreError::ValidationIdNotSet)));
    assert_eq!(m.credit(), 1_000, "nothing moved");
    for (id, sequence) in [(0, 0), (0x100_0000, 0), (1, 0x100_0000)] {
        let e = m.set_secure_validation(id, sequence).unwrap_err();
        assert!(e.to_string().contains("must be 1..=16777215"), "{e}");
    }
    m.set_secure_validation(0x12_3456, 0).unwrap();
    let CashOut::Ticket(t) = m.cash_out_secure_enhanced().unwrap() else { panic!("a ticket") };
    assert_eq!((t.validation.as_str(), t.value), ("007648465487018968", 1_000));
    m.ticket_printed(&t.validation).unwrap();
    drop(m);
    let mut m = boot(&dir);
    assert_eq!(m.state().secure_validation.map(|v| (v.id, v.sequence)), Some((0x12_3456, 1)), "replayed from the journal");
    m.insert_note(500).unwrap();
    let CashOut::Ticket(t) = m.cash_out_secure_enhanced().unwrap() else { panic!("a ticket") };
    assert_eq!(t.validation, "003375462860209840", "sequence 2");
    // The floor sets another ID: numbering follows it.
    m.set_secure_validation(0x01_0203, 0x04_0505).unwrap();
    m.insert_note(1_000).unwrap();
    let CashOut::Ticket(t) = m.cash_out_secure_enhanced().unwrap() else { panic!("a ticket") };
    assert_eq!(t.validation, "004218018208782717", "ID 010203, sequence 040506");
    let limit = m.config().ticket_out_limit;
    for _ in 0..=limit / 10_000 {
        m.insert_note(10_000).unwrap();
    }
    assert!(matches!(m.cash_out_secure_enhanced().unwrap(), CashOut::Handpay { .. }), "over the ticket limit: a hand-pay");
    assert_eq!(m.state().totals.bilhetes_pagos_contagem, 3);
    m.state().self_audit().unwrap();
}

/// Issue 71, defect 3: a transfer the floor was told is pending (SAS 40)
/// is in critical memory first, survives a power cut, stops play and
/// every other money movement until it is made or failed, and is made
/// once; a failed one moves nothing and its id stays free.
#[test]
fn an_aft_transfer_is_journaled_pending_before_it_moves_money_and_survives_a_power_cut() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = boot(&dir);
    m.insert_note(2_000).unwrap();
    m.aft_pending("FLOOR-1", false, 2_500).unwrap();
    assert_eq!(m.credit(), 2_000, "pending moves nothing");
    drop(m);
    let mut m = boot(&dir);
    let p = m.pending_aft().cloned().expect("pending after the power cut");
    assert_eq!((p.transaction_id.as_str(), p.to_host, p.value), ("FLOOR-1", false, 2_500));
    // Nothing else while it is pending: a round, a cash-out, a second
    // transfer; nor the pending one with another amount or way.
    let round = m.play_round("g", 1, 1, "s", |_| Ok::<_, String>(serde_json::json!(null)));
    assert!(matches!(&round, Err(CoreError::Refused(why)) if why.contains("FLOOR-1")), "{:?}", round.map(|(r, _)| r));
    assert!(matches!(m.cash_out(), Err(CoreError::Refused(_))));
    assert!(matches!(m.aft_pending("FLOOR-2", false, 100), Err(CoreError::Refused(_))));
    assert!(matches!(m.aft_in("FLOOR-2", 100), Err(CoreError::Refused(_))));
    assert!(matches!(m.aft_in("FLOOR-1", 2_400), Err(CoreError::Refused(_))));
    assert!(matches!(m.aft_out("FLOOR-1", 2_500), Err(CoreError::Refused(_))));
    // Made once; the id is spent.
    assert_eq!(m.aft_in("FLOOR-1", 2_500).unwrap(), 4_500);
    assert_eq!((m.pending_aft(), m.aft_transfer("FLOOR-1")), (None, Some((true, 2_500))));
    assert!(matches!(m.aft_pending("FLOOR-1", false, 2_500), Err(CoreError::Refused(_))));

    // Out to the floor, pending over a power cut, then a door opened: it
    // cannot be made; failed, nothing moves, and play is free again.
    m.aft_pending("FLOOR-3", true, 4_500).unwrap();
    drop(m);
    let mut m = boot(&dir);
    m.open_door(meters::Door::Main).unwrap();
    assert!(m.aft_out("FLOOR-3", 4_500).is_err(), "a door open stops the transfer");
    m.aft_failed(0x87, "door open").unwrap();
    assert_eq!((m.pending_aft(), m.aft_transfer("FLOOR-3"), m.credit()), (None, None, 4_500));
    assert!(matches!(m.aft_failed(0x87, "again"), Err(CoreError::Refused(_))), "nothing pending to fail");
    m.close_door(meters::Door::Main).unwrap();
    drop(m);
    let m = boot(&dir);
    assert_eq!((m.pending_aft(), m.credit()), (None, 4_500));
    let t = &m.state().totals;
    assert_eq!((t.transferencias_entrada, t.transferencias_entrada_contagem, t.transferencias_saida), (2_500, 1, 0));
    let kinds: Vec<&str> = m.events(200).unwrap().iter().map(|r| r.entry.kind()).filter(|k| k.starts_with("aft")).collect();
    assert_eq!(kinds, ["aft_failed", "aft_pending", "aft_in", "aft_pending"], "newest first");
    m.state().self_audit().unwrap();
}
