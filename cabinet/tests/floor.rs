//! The cabinet as a floor runs it (issue 45), in the real cabinet in a
//! real window under Xvfb: an operator typing in a text field moves no
//! money and no screen; help stops play and takes the touches on it; the
//! attract loop comes back when the credit is gone and nobody touches the
//! cabinet; a cash-out tells the player the ticket's amount.
#![allow(clippy::unwrap_used)]

mod rig;

use std::time::Duration;

use meters::inspect::Inspection;
use rig::layout::DeckButton;
use rig::{Rig, device_end, stop};

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    rig::ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// The text drawn now, as the cabinet wrote it beside an F12 screenshot.
fn said(rig: &Rig) -> String {
    rig::text_beside(&rig.shot())
}

/// Issue 45, defect 1: with the operator panel's ticket field holding the
/// keyboard, a validation number (digits 1–4 are the note acceptor's
/// development keys) and a sentence (E language, O panel, T ticket, R
/// history, A autoplay…) are the field's text and nothing else: no note,
/// no ticket, no record in critical memory, the screen as it was. Out of
/// the field, the same key takes a note again (the keys do reach the
/// cabinet).
#[test]
fn typing_in_the_operator_panel_moves_no_money_and_no_screen() {
    let _one = one_at_a_time();
    let rig = Rig::new();
    let cab = rig.launch();
    // A ticket to re-insert by T: a note in, cashed out.
    rig.key("3");
    rig.wait_for("the note", |i| i.state().credit == 2_000);
    rig.key("c");
    rig.wait_for("the cash-out", |i| i.state().credit == 0);
    rig.key("o");
    std::thread::sleep(Duration::from_millis(500));
    assert!(said(&rig).contains("Painel do operador"), "the panel did not open");
    // The ticket field, found by its hint; a typed 9 (no device's key)
    // shows in it.
    rig.touch_text("número de validação");
    rig.xdotool(&["type", "--delay", "60", "9"]);
    std::thread::sleep(Duration::from_millis(300));
    assert!(said(&rig).lines().any(|l| l.trim() == "9"), "the ticket field did not take the typed 9");
    let before = Inspection::open(&rig.db()).unwrap();
    let typed = "310217333077701346 teste de auditoria";
    rig.xdotool(&["type", "--delay", "60", typed]);
    std::thread::sleep(Duration::from_millis(1_500));
    let after = Inspection::open(&rig.db()).unwrap();
    assert_eq!((before.state().credit, before.state().totals.dinheiro_entrado), (0, 2_000), "the probe for the field moved money");
    assert_eq!(after.state().credit, 0, "typing inserted money");
    assert_eq!(after.state().totals.dinheiro_entrado, 2_000, "typing inserted money");
    assert_eq!(after.records(), before.records(), "typing wrote to critical memory");
    let text = said(&rig);
    assert!(text.lines().any(|l| l.trim() == format!("9{typed}")), "the field does not hold what was typed:\n{text}");
    assert!(text.contains("Painel do operador") && !text.contains("Operator panel"), "typing closed the panel or changed the language:\n{text}");
    assert!(!text.contains("HISTÓRICO DAS JOGADAS"), "typing opened the history:\n{text}");
    // Out of the field (Escape gives the keyboard back), 3 is a note again.
    rig.key("Escape");
    rig.key("3");
    rig.wait_for("a note out of the field", |i| i.state().credit == 2_000);
    stop(cab);
    rig.keep_screenshots("floor-typing", 2);
}

/// Issue 45, defect 2: with help open, play is refused: the deck's play
/// button is dimmed and its touch does nothing, the play key is refused by
/// the host (its log names the help), the game menu does not open; closed,
/// the same touch plays.
#[test]
fn help_stops_play_until_it_is_closed() {
    let _one = one_at_a_time();
    let rig = Rig::new();
    let cab = rig.launch();
    rig.key("3");
    rig.wait_for("the note", |i| i.state().credit == 2_000);
    rig.touch_button(DeckButton::Help);
    std::thread::sleep(Duration::from_millis(500));
    assert!(said(&rig).contains("Regras e tabela de prémios"), "help did not open");
    rig.wait_for_log("overlay: Some(Help)");
    rig.touch_button(DeckButton::Play);
    rig.touch_button(DeckButton::Menu);
    rig.wait_for_log("deck: Play pressed while disabled");
    rig.wait_for_log("deck: Menu pressed while disabled");
    rig.key("space");
    rig.wait_for_log("refused: Feche a ajuda para jogar");
    // Touches all over the sheet, where the game's controls lie under it.
    for (x, y) in [(960.0, 300.0), (960.0, 540.0), (400.0, 600.0), (1500.0, 600.0)] {
        rig.touch(x, y);
    }
    std::thread::sleep(Duration::from_millis(1_000));
    let i = Inspection::open(&rig.db()).unwrap();
    assert!(i.state().open_round.is_none() && i.state().totals.games.jogadas_efectuadas == 0, "a round was played behind the help");
    assert_eq!(i.state().credit, 2_000);
    assert!(said(&rig).contains("Regras e tabela de prémios"), "help closed");
    // Closed by its own button on the deck, play is taken again.
    rig.touch_button(DeckButton::Help);
    rig.wait_for_log("overlay: None");
    rig.touch_button(DeckButton::Play);
    rig.wait_for("the round", |i| i.state().totals.games.jogadas_efectuadas == 1);
    stop(cab);
    rig.keep_screenshots("floor-help", 4);
}

/// Issue 45, defects 3 and 8: cashed out to nothing, the player sees the
/// ticket's amount (not a file), and after the configured idle time the
/// attract loop returns; a touch leaves it.
#[test]
fn attract_returns_after_a_cash_out_and_a_touch_leaves_it() {
    let _one = one_at_a_time();
    let rig = Rig::with_config(|c| {
        assert!(c.contains("attract_after_s: 60"), "the shipped configuration sets the attract time");
        c.replace("attract_after_s: 60", "attract_after_s: 3")
    });
    let cab = rig.launch();
    rig.shot_of_mode("attract", 0);
    let n = rig.shot_count();
    rig.key("3");
    rig.shot_of_mode("idle", n);
    // Credited at the acceptor's vend valid, after the screen left attract.
    rig.wait_for("the note", |i| i.state().credit == 2_000);
    rig.touch_button(DeckButton::CashOut);
    rig.wait_for("the cash-out", |i| i.state().credit == 0);
    std::thread::sleep(Duration::from_millis(400));
    let text = said(&rig);
    assert!(text.contains("Bilhete impresso: 20.00") && text.contains("retire o seu bilhete"), "the cash-out's notice:\n{text}");
    assert!(!text.contains("ticket-") && !text.contains(".txt"), "a file reached the player's screen:\n{text}");
    let n = rig.shot_count();
    rig.shot_of_mode("attract", n);
    let n = rig.shot_count();
    rig.touch(960.0, 500.0);
    rig.shot_of_mode("idle", n);
    stop(cab);
    rig.keep_screenshots("floor-attract", 4);
}

/// Issue 70: money in and out of the real cabinet through the real
/// drivers — a note fed to the emulated ID-003 acceptor on a pty, credited
/// once at its vend valid; the cash-out touched on the deck, its ticket
/// printed once by the emulated TCL printer on another pty with its amount
/// in figures and words, and journaled printed.
#[test]
fn a_note_through_the_acceptor_and_a_ticket_out_of_the_printer() {
    let _one = one_at_a_time();
    let (acceptor, printer) = (device_end::AcceptorEnd::new(), device_end::PrinterEnd::new());
    let devices = format!(
        "    acceptor: Some((port: {:?}, notes: [(code: 0x63, cents: 1000)])),\n    printer: Some((port: {:?})),\n    autoplay_max:",
        acceptor.path.display().to_string(),
        printer.path.display().to_string()
    );
    let rig = Rig::with_config(|c| c.replacen("    autoplay_max:", &devices, 1));
    let cab = rig.launch();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while acceptor.with(|e| e.inhibited()) {
        assert!(std::time::Instant::now() < deadline, "the cabinet never enabled the acceptor:\n{}", rig.log());
        std::thread::sleep(Duration::from_millis(100));
    }
    acceptor.with(|e| e.insert(peripherals::id003::Denomination::Note(0x63)));
    rig.wait_for("the note credited", |i| i.state().credit == 1_000);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !acceptor.with(|e| e.settled()) {
        assert!(std::time::Instant::now() < deadline, "the note never settled");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(acceptor.with(|e| e.stacked.clone()), [peripherals::id003::Denomination::Note(0x63)]);
    let shot = rig.shot();
    let text = rig::text_beside(&shot);
    assert!(text.lines().any(|l| matches!(l.trim(), "10.00 EUR" | "1000")), "the credit is not on the screen:\n{text}");
    rig.touch_button(DeckButton::CashOut);
    let i = rig.wait_for("the ticket printed", |i| i.state().credit == 0 && i.state().tickets.values().any(|t| t.printed));
    let (validation, _) = i.state().tickets.iter().find(|(_, t)| t.printed).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while printer.with(|e| e.tickets.is_empty()) {
        assert!(std::time::Instant::now() < deadline, "no ticket came out of the printer");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(1_000));
    printer.with(|e| {
        assert_eq!(e.tickets.len(), 1, "one ticket, once");
        let paper = &e.tickets[0];
        assert!(paper.whole && !paper.duplicate());
        assert_eq!(paper.validation(), validation);
        assert_eq!((paper.fields[3].as_str(), paper.fields[4].as_str()), ("10.00 EUR", "dez euros"), "{:?}", paper.fields);
    });
    let dinheiro = Inspection::open(&rig.db()).unwrap().state().totals.dinheiro_entrado;
    assert_eq!(dinheiro, 1_000, "the note in the meters once");
    stop(cab);
    rig.keep_screenshots("floor-devices", 1);
}
