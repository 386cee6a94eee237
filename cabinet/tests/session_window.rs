//! The player's session in the real cabinet (issue 5: M-35, M-38, M-39),
//! in a real window under Xvfb: the warning before an idle session is
//! ended and the cash-out that ends it; the low-credit warning; and a
//! demonstration cabinet whose play credits never touch real critical
//! memory, with its DEMO mark on screen.
#![allow(clippy::unwrap_used)]

mod rig;

use std::time::Duration;

use meters::inspect::Inspection;
use rig::{Rig, count_pixels, newest_png};

#[test]
fn an_idle_session_is_warned_then_ended_and_low_credit_is_warned() {
    let _one = rig::ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rig = Rig::with_config(|c| c.replace("inactivity_timeout_s: 600", "inactivity_timeout_s: 8"));
    let mut cab = rig.launch();
    rig.key("3");
    rig.wait_for("the note", |i| i.state().credit == 2_000);
    // Four seconds before the end (half the timeout, at most 30 s): the warning.
    rig.wait_for_log("M-38 warning: A sessão termina por inactividade");
    rig.screenshot();
    std::thread::sleep(Duration::from_millis(800));
    let orange = count_pixels(&newest_png(&rig.shots()), [255, 140, 0], 4);
    assert!(orange > 15_000, "the warning is not on screen ({orange} pixels)");
    // Then the session ends: the credit is cashed out on a ticket (M-35).
    let i = rig.wait_for("the idle session to be cashed out", |i| i.state().credit == 0);
    assert_eq!(i.state().totals.cancelamento_creditos, 2_000);
    assert_eq!(std::fs::read_dir(rig.dir.path().join("tickets")).unwrap().count(), 1, "one ticket printed");
    rig.wait_for_log("M-35 session ended: no play for");

    // Low credit: 5 € in, póquer sem descarte at an ante of 25 credits of 2 €.
    rig.key("1");
    rig.wait_for("the 5 € note", |i| i.state().credit == 500);
    for k in ["Right", "Right", "Right", "Right", "equal", "equal", "equal", "equal", "w", "w", "w", "w", "w", "w", "w"] {
        rig.key(k);
    }
    rig.wait_for_log("M-38 warning: Crédito insuficiente para a aposta escolhida");
    rig.key("space");
    // The host handled the key: it logs the refusal.
    rig.wait_for_log("refused: Crédito insuficiente");
    let i = Inspection::open(&rig.db()).unwrap();
    assert!(i.state().open_round.is_none(), "a round began without the credit for it");
    rig.screenshot();
    let _ = cab.kill();
    let _ = cab.wait();
    rig.keep_screenshots("session-warnings", 1);
}

#[test]
fn a_demonstration_never_touches_real_critical_memory() {
    let _one = rig::ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rig = Rig::new();
    let mut cab = rig.launch_with(&["--demo"]);
    let demo_db = std::env::temp_dir().join(format!("egm-demo-{}.sqlite", cab.id()));
    let demo = |what: &str, cond: &dyn Fn(&Inspection) -> bool| {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(i) = Inspection::open(&demo_db)
                && cond(&i)
            {
                return i;
            }
            assert!(std::time::Instant::now() < deadline, "timed out waiting for {what} in the demo's critical memory; log:\n{}", rig.log());
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    // The demonstration's play credits are there without any note.
    demo("the play credits", &|i| i.state().credit == 10_000);
    rig.key("space");
    std::thread::sleep(Duration::from_millis(2_500));
    rig.key("Return");
    let i = demo("a demonstration round", &|i| i.state().totals.games.jogadas_efectuadas == 1 && i.state().open_round.is_none());
    let before = i.state().totals.dinheiro_entrado;
    rig.screenshot();
    std::thread::sleep(Duration::from_millis(800));
    let magenta = count_pixels(&newest_png(&rig.shots()), [170, 0, 170], 4);
    assert!(magenta > 15_000, "the DEMO mark is not on screen ({magenta} pixels)");
    // No money in, no ticket out.
    rig.key("3");
    rig.key("c");
    // Both keys handled: the host logged both refusals.
    rig.wait_for_log_count("refused: Modo de demonstração", 2);
    let i = demo("the refused note and cash-out", &|i| i.state().open_round.is_none());
    assert_eq!(i.state().totals.dinheiro_entrado, before, "a note was taken in a demonstration");
    assert_eq!(i.state().totals.cancelamento_creditos, 0, "a demonstration cashed out");
    assert!(!rig.dir.path().join("tickets").exists(), "a demonstration printed a ticket");
    assert!(!rig.db().exists(), "the real critical memory was created by a demonstration");
    let _ = cab.kill();
    let _ = cab.wait();
    rig.keep_screenshots("demo", 1);
}

/// A printer that fails must not lose the cash-out: the credit is already
/// on the ticket in critical memory, so the cabinet tilts (device fault)
/// and the attendant key prints the same ticket once the printer works.
#[test]
fn a_failed_ticket_print_tilts_and_the_attendant_prints_it_again() {
    let _one = rig::ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rig = Rig::new();
    // The "printer" is the ticket folder: a plain file in its place jams it.
    let tickets = rig.dir.path().join("tickets");
    std::fs::write(&tickets, b"jammed").unwrap();
    let mut cab = rig.launch();
    rig.key("3");
    rig.wait_for("the note", |i| i.state().credit == 2_000);
    rig.key("c");
    let i = rig.wait_for("the device-fault tilt", |i| i.state().tilts.contains(&meters::Tilt::DeviceFault));
    assert_eq!(i.state().credit, 0);
    let (validation, issued) = i.state().tickets.iter().next().map(|(v, t)| (v.clone(), t.clone())).unwrap();
    assert_eq!((issued.value, issued.redeemed), (2_000, false));
    std::thread::sleep(Duration::from_millis(800));
    rig.screenshot();
    // Clear the jam; the attendant key (into the audit menu and out) prints it.
    std::fs::remove_file(&tickets).unwrap();
    rig.key("k");
    std::thread::sleep(Duration::from_millis(800));
    rig.key("k");
    rig.wait_for("the tilt to clear", |i| i.state().tilts.is_empty());
    let printed = std::fs::read_to_string(tickets.join(format!("ticket-{validation}.txt"))).unwrap();
    assert!(printed.contains(&validation) && printed.contains("20.00"), "{printed}");
    let _ = cab.kill();
    let _ = cab.wait();
    rig.keep_screenshots("printer-fault", 1);
}

/// The on-screen operator panel (key O) drives the note acceptor by touch:
/// a click on its first note button credits a 5 € note.
#[test]
fn the_operator_panel_takes_a_note_by_touch() {
    let _one = rig::ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rig = Rig::new();
    let mut cab = rig.launch();
    rig.key("o");
    std::thread::sleep(Duration::from_millis(800));
    rig.screenshot();
    // The panel stands at (680, 120); its first row of buttons is the notes,
    // the first of them 5 €. Touch down its column until a note is taken.
    let mut credit = 0;
    for y in (140..260).step_by(6) {
        rig.xdotool(&["mousemove", "712", &y.to_string(), "click", "1"]);
        std::thread::sleep(Duration::from_millis(350));
        credit = Inspection::open(&rig.db()).map_or(0, |i| i.state().credit);
        if credit > 0 {
            break;
        }
    }
    assert_eq!(credit, 500, "the panel's first note button did not credit 5 €");
    let i = Inspection::open(&rig.db()).unwrap();
    assert_eq!(i.state().totals.notas_por_valor.get(&500), Some(&1), "counted as one 5 € note");
    let _ = cab.kill();
    let _ = cab.wait();
    rig.keep_screenshots("operator-panel", 1);
}

/// The multigame menu (Tab) by touch: touching up its column from the
/// bottom meets the denominations, then the last game, which closes the
/// menu with that game chosen; the next round is of that game.
#[test]
fn the_game_menu_chooses_a_game_by_touch() {
    let _one = rig::ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rig = Rig::new();
    let mut cab = rig.launch();
    rig.key("3");
    rig.wait_for("the note", |i| i.state().credit == 2_000);
    rig.key("Tab");
    std::thread::sleep(Duration::from_millis(800));
    rig.screenshot();
    for y in (150..600).rev().step_by(8) {
        rig.xdotool(&["mousemove", "640", &y.to_string(), "click", "1"]);
        std::thread::sleep(Duration::from_millis(150));
    }
    rig.key("space");
    let i = rig.wait_for("a round of the chosen game", |i| i.state().open_round.is_some());
    assert_eq!(i.state().open_round.as_ref().unwrap().game, "poquer-sem-descarte", "the menu's last game was not chosen");
    rig.screenshot();
    let _ = cab.kill();
    let _ = cab.wait();
    rig.keep_screenshots("game-menu", 1);
}
