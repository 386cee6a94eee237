//! The real cabinet in a real window under Xvfb (issue 5 "Proof"): whole
//! sessions driven through its inputs with X key events, checked against
//! critical memory (read-only) and the screenshots the cabinet takes. The
//! screenshots are kept in `target/cabinet-screenshots/` as test artifacts.
#![allow(clippy::unwrap_used)]

mod rig;

use std::time::Duration;

use rig::Rig;

#[test]
fn a_whole_session_in_a_real_window() {
    let rig = Rig::new();
    let mut cab = rig.launch();

    // The start-up report (issue 5): time to the first screen, memory.
    let log = rig.wait_for_log("start-up: first screen (Attract) after");
    let line = log.lines().find(|l| l.contains("start-up: first screen")).unwrap();
    println!("{}", &line[line.find("start-up").unwrap()..]);

    // A note of 20 €.
    rig.key("3");
    rig.wait_for("the note to be credited", |i| i.state().totals.dinheiro_entrado == 2_000);
    rig.screenshot();

    // Five rounds of the first game: spin, then collect any win.
    for n in 1..=5u64 {
        rig.key("space");
        std::thread::sleep(Duration::from_millis(2_500));
        rig.key("Return");
        rig.wait_for("the round to settle", |i| i.state().totals.games.jogadas_efectuadas == n && i.state().open_round.is_none());
    }
    // Each of the three reels sounded as it stopped, in every round.
    let stops = rig.log().matches("sound: reel-stop").count();
    assert!(stops >= 15, "{stops} reel-stop sounds for 5 rounds of 3 reels");
    rig.screenshot();
    // The other game, fewer lines.
    rig.key("Right");
    rig.key("Down");
    rig.key("space");
    std::thread::sleep(Duration::from_millis(3_000));
    rig.key("Return");
    let i = rig.wait_for("a round of the second game", |i| i.state().per_game.len() == 2 && i.state().open_round.is_none());
    assert!(i.state().per_game.contains_key("classic-sevens") && i.state().per_game.contains_key("ocean-treasure"));
    // The configured progressive took its share of every classic-sevens
    // wager, and none of the other game's (M-18, issue 6).
    let pool = &i.state().pools["sevens"];
    let sevens = &i.state().per_game["classic-sevens"];
    let open_stake = i.state().open_round.as_ref().filter(|o| o.game == "classic-sevens").map_or(0, |o| o.stake);
    assert_eq!(pool.levels[0].contributed_micro, u128::from(sevens.creditos_jogados + open_stake) * 12_000);
    assert!(pool.levels.iter().all(|l| l.balanced()));
    i.self_audit().unwrap();
    rig.screenshot();

    // Recall in the audit menu, behind the attendant key.
    rig.key("k");
    std::thread::sleep(Duration::from_millis(1_000));
    rig.screenshot();
    rig.key("k");

    // A door opening stops play and is counted.
    rig.key("m");
    rig.wait_for("the main door to open", |i| i.state().doors_open.contains(&meters::Door::Main));
    rig.wait_for_log("sound: alarm");
    std::thread::sleep(Duration::from_millis(800));
    rig.screenshot();
    rig.key("space");
    rig.key("m");
    let i = rig.wait_for("the main door to close", |i| i.state().doors_open.is_empty());
    assert_eq!(i.state().totals.games.jogadas_efectuadas, 6, "no round was played with the door open");

    // Cash out: a ticket is printed, the meters move.
    let credit = i.state().credit;
    rig.key("c");
    let i = rig.wait_for("the cash-out", |i| i.state().credit == 0);
    assert_eq!(i.state().totals.cancelamento_creditos, credit);
    let tickets: Vec<_> = std::fs::read_dir(rig.dir.path().join("tickets")).unwrap().filter_map(|e| e.ok()).collect();
    assert_eq!(tickets.len(), 1);
    let ticket = std::fs::read_to_string(tickets[0].path()).unwrap();
    assert!(ticket.contains("EGM-0001") && ticket.contains("euros") && ticket.contains("Número de validação"), "{ticket}");
    rig.screenshot();

    // Kill the cabinet mid-round, restart: the round is resumed and finished as recorded.
    rig.key("1");
    rig.wait_for("the second note", |i| i.state().credit == 500);
    rig.key("space");
    let i = rig.wait_for("the round to begin", |i| i.state().open_round.is_some());
    let open = i.state().open_round.clone().unwrap();
    cab.kill().unwrap(); // SIGKILL
    cab.wait().unwrap();
    let mut cab = rig.launch();
    std::thread::sleep(Duration::from_millis(2_500));
    rig.key("Return");
    let i = rig.wait_for("the interrupted round to finish", |i| i.state().open_round.is_none());
    let recall = i.recall(1).unwrap();
    assert_eq!(recall[0].round, open.round);
    assert!(!recall[0].resumed_at.is_empty(), "the resume is recorded");
    assert!(matches!(recall[0].outcome, meters::RecallOutcome::Settled { .. }));
    i.self_audit().unwrap();
    rig.screenshot();

    let _ = cab.kill();
    let _ = cab.wait();
    let shots = rig.keep_screenshots("session", 8);
    let distinct: std::collections::BTreeSet<Vec<u8>> = shots.iter().map(|s| std::fs::read(s).unwrap()).collect();
    assert!(distinct.len() >= 6, "the screens did not change");
}
