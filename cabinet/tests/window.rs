//! The real cabinet in a real window under Xvfb (issue 5 "Proof"): whole
//! sessions driven through its inputs with X key events, checked against
//! critical memory (read-only) and the screenshots the cabinet takes. The
//! screenshots are kept in `target/cabinet-screenshots/` as test artifacts.
#![allow(clippy::unwrap_used)]

mod rig;

use std::time::Duration;

use rig::Rig;

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    rig::ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn a_whole_session_in_a_real_window() {
    let _one = one_at_a_time();
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
        let before = rig.log().matches("sound: reel-stop").count();
        rig.key("space");
        // A reel sounds as it lands, never as the spin starts (issue 45).
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(rig.log().matches("sound: reel-stop").count(), before, "round {n}: a reel-stop sound as the spin started");
        std::thread::sleep(Duration::from_millis(2_200));
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
    // The ticket is printed after the cash-out is committed: wait for it
    // (the printer puts it in place whole, issue 52).
    let tickets = rig.wait_for_files("tickets", "ticket-", ".txt");
    assert_eq!(tickets.len(), 1, "{tickets:?}");
    let ticket = std::fs::read_to_string(&tickets[0]).unwrap();
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

/// The centres of the cards on a screenshot (window pixels): the columns
/// and rows where the art kit's card paper shows, in groups, left to right.
fn card_centres(path: &std::path::Path) -> Vec<(i64, i64)> {
    const PAPER: [u8; 3] = [251, 250, 245];
    let (width, pixels) = rig::shot_pixels(path);
    let height = pixels.len() / width;
    let paper = |x: usize, y: usize| (0..3).all(|c| pixels[y * width + x][c].abs_diff(PAPER[c]) <= 2);
    // The main hand: columns with paper over at least 25 pixels (a court
    // card shows least, above and below its picture).
    let columns: Vec<usize> = (0..width).map(|x| (0..height).filter(|&y| paper(x, y)).count()).collect();
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for (x, &n) in columns.iter().enumerate() {
        if n < 25 {
            continue;
        }
        match groups.last_mut() {
            Some(g) if x <= g.1 + 3 => g.1 = x,
            _ => groups.push((x, x)),
        }
    }
    groups
        .into_iter()
        .filter(|g| g.1 - g.0 > 40)
        .map(|(a, b)| {
            let x = (a + b) / 2;
            let rows: Vec<usize> = (0..height).filter(|&y| paper(x, y)).collect();
            (x as i64, ((rows[0] + rows[rows.len() - 1]) / 2) as i64)
        })
        .collect()
}

/// Issue 29: a whole session by touch alone, no key pressed: a note by the
/// on-screen operator panel, a bet, a spin and its win taken, a cash-out,
/// another note, the game menu, a draw-poker hand with two cards held by
/// touching them, and the draw; each checked against critical memory.
#[test]
fn a_whole_session_by_touch_alone() {
    use rig::layout::{self, DeckButton};
    let _one = one_at_a_time();
    let rig = Rig::new();
    let cab = rig.launch_with(&["--operator-panel"]);
    // The panel's first note button, 5 €, found by its label.
    let note = |rig: &Rig, before: u64| {
        rig.touch_text("5.00 EUR");
        rig.wait_for("a note", |i| i.state().credit > before);
    };
    note(&rig, 0);
    rig.wait_for("the 5 € note", |i| i.state().credit == 500);
    // Sevens Classic: one line; the bet from 1 to 2 credits, then a spin.
    rig.touch_button(DeckButton::BetPlus);
    rig.touch_button(DeckButton::Play);
    let i = rig.wait_for("the spin", |i| i.state().open_round.is_some() || i.state().last_round > 0);
    assert_eq!(i.recall(1).unwrap()[0].stake, 2, "the touched bet: 2 credits at 1 cent");
    // Touch play until the round is settled (a win offered for doubling is
    // taken by the same button).
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(400));
        if meters::inspect::Inspection::open(&rig.db()).is_ok_and(|i| i.state().open_round.is_none()) {
            break;
        }
        rig.touch_button(DeckButton::Play);
    }
    let i = rig.wait_for("the round to settle", |i| i.state().open_round.is_none() && i.state().last_round == 1);
    let credit = i.state().credit;
    assert!(credit >= 498, "{credit}");
    rig.touch_button(DeckButton::CashOut);
    let i = rig.wait_for("the cash-out", |i| i.state().credit == 0);
    assert_eq!(i.state().totals.cancelamento_creditos, credit);

    // Another note; the game menu; Jacks or Better; a hand.
    note(&rig, 0);
    rig.wait_for("the second note", |i| i.state().credit == 500);
    rig.touch_button(DeckButton::Menu);
    std::thread::sleep(Duration::from_millis(500));
    let games = rig::menu_games().len();
    let (x, y) = layout::menu_tile(2, games).centre();
    rig.touch(x, y);
    let n = rig.shot_count();
    rig.touch_button(DeckButton::Play);
    let i = rig.wait_for("the deal", |i| i.state().open_round.as_ref().is_some_and(|o| o.game == "jacks-or-better-9-6"));
    let dealt = rig.shot_of_mode("playing", n);
    let cards = card_centres(&dealt);
    assert_eq!(cards.len(), 5, "{}: five cards on screen, found {cards:?}", dealt.display());
    for &(x, y) in &cards[..2] {
        rig.xdotool(&["mousemove", &x.to_string(), &y.to_string(), "click", "1"]);
        std::thread::sleep(Duration::from_millis(300));
    }
    let n = rig.shot_count();
    rig.touch_button(DeckButton::Play);
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(400));
        if meters::inspect::Inspection::open(&rig.db()).is_ok_and(|i| i.state().open_round.is_none()) {
            break;
        }
        rig.touch_button(DeckButton::Play);
    }
    // The final hand on screen, taken by the cabinet as it goes idle.
    rig.shot_of_mode("idle", n);
    let settled = rig.wait_for("the hand to settle", |i| i.state().open_round.is_none() && i.state().last_round == 2);
    let r = settled.recall(1).unwrap().remove(0);
    assert_eq!(r.game, "jacks-or-better-9-6");
    let rec: game_host::kinds::draw_poker::DrawRecord = serde_json::from_value(r.steps[1].step.data.clone()).unwrap();
    assert_eq!(rec.hold, game_core::draw_poker::Hold(0b00011), "the two touched cards were held");
    assert!(rig.log().contains("deck: Play") && !rig.log().contains("pressed while disabled"));

    // Issue 45, defect 4: the player's history by touch (help, then its
    // HISTÓRICO button), the newest round first, drawn as it was seen: the
    // hand's cards; left by its button.
    let history = rig.open_history_by_touch();
    let said = rig::text_beside(&history);
    assert!(said.contains("HISTÓRICO DAS JOGADAS") && said.contains("Jogadas: 2"), "{said}");
    let picture = layout::history_picture(0);
    for (k, card) in rec.hand.iter().enumerate().skip(4) {
        let (seen, distance) = rig::card_at(&history, layout::history_card(picture, picture.x, k));
        assert!(seen == *card && distance < rig::ART_DISTANCE, "{}: card {k}: {card} expected, {seen} nearest at {distance:.0}", history.display());
    }
    // (The reels' picture is checked by the history's own screen test: the
    // operator panel, open all along here, stands over part of it.)
    let n = rig.shot_count();
    let (x, y) = layout::HISTORY_BACK.centre();
    rig.touch(x, y);
    rig.shot_of_mode("idle", n);
    drop(i);
    let mut cab = cab;
    let _ = cab.kill();
    let _ = cab.wait();
    rig.keep_screenshots("session-by-touch", 4);
}

/// Issue 74: a RAM clear from the audit menu on the shipped configuration
/// (its standalone progressives carried over), typed as an operator types
/// it; the events tab shows the clear and the new epoch, with the logic
/// door open as it stands; the cabinet restarts on its files, verifies as
/// `egm-lab verify` does, and plays once the door is shut and cleared.
#[test]
fn a_ram_clear_from_the_audit_menu_then_a_restart_then_play() {
    let _one = one_at_a_time();
    let rig = Rig::new();
    let cab = rig.launch();
    rig.key("3");
    rig.wait_for("the note", |i| i.state().credit == 2_000);
    let i = play_a_round(&rig, 1);
    let pool_before = i.state().pools["sevens"].clone();
    assert!(pool_before.levels[0].contributed_micro > 0, "the round fed the pool");

    // The logic door, the attendant key, the RAM clear tab (the last).
    rig.key("l");
    rig.wait_for("the logic door", |i| i.state().doors_open.contains(&meters::Door::Logic));
    rig.key("k");
    std::thread::sleep(Duration::from_millis(600));
    rig.touch_text("Limpeza da RAM");
    std::thread::sleep(Duration::from_millis(400));
    // The PIN and the reason, typed into their fields (right of their
    // labels): letters that are device keys elsewhere (L, T, E, M) go into
    // the field and move nothing.
    let field = |label: &str| {
        let (x, y) = rig.text_at(label).unwrap_or_else(|| panic!("no {label:?} on the RAM clear tab"));
        rig.xdotool(&["mousemove", &(x + 120).to_string(), &y.to_string(), "click", "1"]);
        std::thread::sleep(Duration::from_millis(300));
    };
    field("PIN");
    rig.xdotool(&["type", "--delay", "60", "0000"]);
    field("Motivo");
    rig.xdotool(&["type", "--delay", "60", "limpeza total de teste"]);
    std::thread::sleep(Duration::from_millis(300));
    let i = rig.wait_for("nothing moved while typing", |_| true);
    assert!(i.state().doors_open.contains(&meters::Door::Logic), "typing L toggled the logic door");
    assert_eq!(i.ram_clears().unwrap().len(), 0);
    rig.touch_text("Confirmo");
    rig.touch_text("LIMPAR A RAM");
    let i = rig.wait_for("the clear", |i| i.ram_clears().is_ok_and(|c| c.len() == 1) && i.state().last_round == 0);
    assert_eq!(i.ram_clears().unwrap()[0].reason, "limpeza total de teste");
    let said = rig::text_beside(&rig.shot());
    assert!(said.contains("OK — nova época 1"), "{said}");

    // The events tab: the new epoch, the door as it stands, the clear.
    rig.touch_text("Eventos");
    std::thread::sleep(Duration::from_millis(400));
    let events = rig::text_beside(&rig.shot());
    for line in [
        "Diário iniciado na máquina EGM-0001 (após a limpeza da RAM 1)",
        "Responsabilidades transitadas da época anterior",
        "Porta aberta: porta lógica",
        "Limpeza da RAM 1 — operador operator: limpeza total de teste",
    ] {
        assert!(events.contains(line), "{line:?} not on the events tab:\n{events}");
    }
    assert!(!events.contains("ERRO DE MEMÓRIA CRÍTICA"), "{events}");
    rig::stop(cab);

    // `egm-lab verify`, as the boot verifies: OK, the pool carried whole.
    let config = game_host::config::CabinetConfig::load(&rig.dir.path().join("cabinet.ron")).unwrap().machine;
    let i = meters::inspect::Inspection::verify_as_boot(&rig.db(), &config).unwrap_or_else(|e| panic!("egm-lab verify after the clear: {e}"));
    i.self_audit().unwrap();
    assert_eq!(i.state().pools["sevens"].levels, pool_before.levels, "the pool keeps its money (M-20)");

    // The restart: it boots on the new epoch (never a RAM error), the door
    // still open stops play; shut and cleared, it plays.
    let cab = rig.launch();
    let log = rig.log();
    assert!(!log.contains("RAM ERROR") && !log.contains("ERRO DE MEMÓRIA CRÍTICA"), "{log}");
    rig.key("1");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(rig.wait_for("the restart", |_| true).state().credit, 0, "a note was taken with the logic door open");
    rig.key("l");
    rig.wait_for("the logic door shut", |i| !i.state().doors_open.contains(&meters::Door::Logic));
    rig.key("k");
    std::thread::sleep(Duration::from_millis(400));
    rig.key("k");
    rig.wait_for("the attendant's clear", |i| i.state().tilts.is_empty() && i.state().handpays.is_empty());
    rig.key("3");
    rig.wait_for("a note on the new epoch", |i| i.state().credit == 2_000);
    let i = play_a_round(&rig, 1);
    i.self_audit().unwrap();
    assert!(i.state().pools["sevens"].levels[0].contributed_micro > pool_before.levels[0].contributed_micro);
    rig::stop(cab);
    rig.keep_screenshots("ram-clear", 3);
}

/// Play one round of the sevens (space), collect (Return), and wait until
/// it is the `n`th settled round of the epoch.
fn play_a_round(rig: &Rig, n: u64) -> meters::inspect::Inspection {
    rig.key("space");
    std::thread::sleep(Duration::from_millis(3_000));
    rig.key("Return");
    rig.wait_for("a round of the sevens", |i| i.state().totals.games.jogadas_efectuadas == n && i.state().open_round.is_none())
}
