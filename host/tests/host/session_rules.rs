//! The player's session in the host, headless (M-35, M-38, M-39, the
//! printer and the doors): what the window tests used to check through the
//! cabinet, now checked on the host that decides it, against critical
//! memory read back through the read-only inspector.

use crate::test_config;

use std::time::Duration;

use game_host::boot::{BootOptions, boot};
use game_host::command::Command;
use game_host::kind::BetControl;
use game_host::notice::{Notice, Warning};
use game_host::session::{DEMO_CREDIT, Session};
use meters::inspect::Inspection;
use meters::{Door, Tilt};

fn boot_with(dir: &std::path::Path, edit: impl FnOnce(String) -> String, demo: bool) -> Session {
    let config = test_config::write(dir, &edit(test_config::text(dir)));
    boot(&BootOptions { config, db: dir.join("egm.sqlite"), lab_seed: Some(3), demo }).unwrap()
}

fn index(s: &Session, id: &str) -> usize {
    s.games().iter().position(|g| g.id() == id).unwrap()
}

fn tickets(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir.join("tickets")).map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default()
}

/// M-35 and M-38: an idle session is warned before it is ended, then its
/// credit is cashed out on a ticket; a session in play is never ended.
#[test]
fn an_idle_session_is_warned_then_cashed_out() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = boot_with(dir.path(), |c| c.replace("inactivity_timeout_s: 600", "inactivity_timeout_s: 2"), false);
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    s.tend_session();
    assert_eq!(s.warning(), None, "no warning at once");
    // Half the timeout before the end (at most 30 s): the warning.
    std::thread::sleep(Duration::from_millis(1_100));
    s.tend_session();
    assert!(s.warning().is_some_and(|w| w.contains("inactividade")), "{:?}", s.warning());
    assert_eq!(s.machine().credit(), 2_000);
    std::thread::sleep(Duration::from_millis(1_000));
    s.tend_session();
    assert_eq!(s.machine().credit(), 0, "the idle session was not ended");
    assert!(matches!(s.message(), Some(Notice::SessionEnded { .. })), "{:?}", s.message());
    let i = Inspection::open(&dir.path().join("egm.sqlite")).unwrap();
    assert_eq!(i.state().totals.cancelamento_creditos, 2_000);
    let printed = tickets(dir.path());
    assert_eq!(printed.len(), 1, "one ticket printed");
    assert!(std::fs::read_to_string(&printed[0]).unwrap().contains("20.00"));

    // A player who keeps pressing is never ended.
    assert!(s.command(Command::InsertNote { cents: 500 }));
    for _ in 0..3 {
        std::thread::sleep(Duration::from_millis(800));
        s.touch();
        s.tend_session();
    }
    assert_eq!(s.machine().credit(), 500);
}

/// M-38: a credit short of the chosen bet is warned, and play is refused
/// by name with nothing staked.
#[test]
fn a_credit_short_of_the_bet_is_warned_and_play_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = boot_with(dir.path(), |c| c, false);
    assert!(s.command(Command::InsertNote { cents: 500 }));
    assert!(s.command(Command::SelectGame { index: index(&s, "poquer-sem-descarte") }));
    // The largest denomination, then the ante up until it outgrows 5 €.
    for _ in 0..10 {
        s.command(Command::StepDenomination { delta: 1 });
    }
    assert_eq!(s.denom(), 200);
    for _ in 0..8 {
        s.command(Command::AdjustBet { control: BetControl::Amount, delta: 1 });
    }
    let needed = s.stake_cents();
    assert!(needed > 500, "the bet {needed} does not outgrow the credit");
    s.tend_session();
    assert_eq!(s.warning().as_deref(), Some(Warning::CreditShort.text(s.lang()).as_str()));
    assert!(!s.command(Command::Play), "a round began without the credit for it");
    assert!(matches!(s.message(), Some(Notice::CreditShort { .. })), "{:?}", s.message());
    assert!(s.round_info().is_none());
    assert_eq!(s.machine().credit(), 500);
    assert_eq!(s.machine().state().totals.games.jogadas_efectuadas, 0);
}

/// E-34 (idle display): until the next play starts the screen keeps the
/// last game — its wager, its outcome (the stops the journal holds) and its
/// win — while the bet standing is the next wager; idle time does not take
/// it away, the next play replaces it.
#[test]
fn the_last_round_stays_on_screen_until_the_next_play() {
    use game_host::kinds::reels::Reels;
    use game_host::round::Phase;
    let dir = tempfile::tempdir().unwrap();
    let mut s = boot_with(dir.path(), |c| c, false);
    s.choose_game(index(&s, "classic-sevens"));
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    assert!(s.command(Command::Play));
    while s.in_round() {
        s.command(Command::Revealed);
        s.command(Command::Collect);
    }
    let last = s.machine().recall(1).unwrap().remove(0);
    let meters::RecallOutcome::Settled { win, .. } = last.outcome else { panic!("round {} not settled", last.round) };
    let shown = s.round::<Reels>().expect("the last round is on screen");
    assert_eq!((shown.id, shown.phase), (last.round, Phase::Ended));
    assert_eq!(shown.bet.total_credits() * shown.denom, last.stake, "its wager");
    let journaled: game_core::reels::ReelRound = serde_json::from_value(last.steps[0].step.data["deal"].clone()).unwrap();
    assert_eq!(shown.deal.base.stops, journaled.base.stops, "its outcome");
    assert_eq!(s.round_info().and_then(|r| r.settled_win), Some(win), "its win");
    assert_eq!(s.stake_cents(), last.stake, "the next wager is the one standing");
    s.tend_session();
    assert_eq!(s.round_info().map(|r| r.id), Some(last.round), "idle time does not take it away");
    assert!(s.command(Command::Play));
    assert_eq!(s.round_info().map(|r| r.id), Some(last.round + 1), "the next play replaces it");
}

/// M-39, E-40 (demo mode): a demonstration plays on a throwaway critical memory of its own;
/// money in and out are refused by name; the real file is never created.
#[test]
fn a_demonstration_never_touches_real_critical_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = boot_with(dir.path(), |c| c, true);
    assert!(s.demo());
    assert_eq!(s.machine().credit(), DEMO_CREDIT);
    assert!(s.command(Command::Play));
    while s.in_round() {
        s.command(Command::Revealed);
        s.command(Command::Collect);
    }
    assert_eq!(s.machine().state().totals.games.jogadas_efectuadas, 1);
    assert!(!s.command(Command::InsertNote { cents: 2_000 }));
    assert!(matches!(s.message(), Some(Notice::Demonstration)), "{:?}", s.message());
    assert!(!s.command(Command::CashOut));
    assert_eq!(s.machine().state().totals.dinheiro_entrado, DEMO_CREDIT, "only the demonstration's own play credits");
    assert_eq!(s.machine().state().totals.cancelamento_creditos, 0);
    assert!(!dir.path().join("egm.sqlite").exists(), "the real critical memory was created by a demonstration");
    assert!(tickets(dir.path()).is_empty(), "a demonstration printed a ticket");

    // M-39 (issue 75): no money shown: the play credits in credits, the
    // currency toggle notwithstanding, and no progressive's value, on the
    // game whose pools a real cabinet shows.
    let currency = s.machine().config().currency.code.clone();
    let shown = s.show(s.machine().credit());
    assert!(shown.ends_with(" cr") && !shown.contains(&currency), "{shown}");
    s.command(Command::ShowCurrency { currency: true });
    assert!(!s.show(s.machine().credit()).contains(&currency));
    let sevens = index(&s, "classic-sevens");
    s.choose_game(sevens);
    assert!(s.progressives_shown().is_empty(), "{:?}", s.progressives_shown().iter().map(|p| &p.name).collect::<Vec<_>>());
    let real_dir = tempfile::tempdir().unwrap();
    let mut real = boot_with(real_dir.path(), |c| c, false);
    real.choose_game(index(&real, "classic-sevens"));
    assert_eq!(real.progressives_shown().len(), 2, "a real cabinet shows the pool's two levels");
}

/// M-39: a demonstration's critical memory is its own and made afresh
/// each time (a CI run once failed on a file an earlier process of the
/// same id had left under a demonstration's fixed name). Two at once in one
/// process never meet, the next starts clean, and none speaks to the
/// cabinet's TPM: the shipped production configuration, whose TPM and
/// second disk this machine lacks, boots a demonstration all the same.
#[test]
fn demonstrations_each_run_on_a_critical_memory_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let (a_dir, b_dir) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(&a_dir).unwrap();
    std::fs::create_dir_all(&b_dir).unwrap();
    let mut a = boot_with(&a_dir, |c| c, true);
    let b = boot_with(&b_dir, |c| c, true);
    assert!(a.command(Command::Play));
    while a.in_round() {
        a.command(Command::Revealed);
        a.command(Command::Collect);
    }
    assert_eq!(a.machine().state().totals.games.jogadas_efectuadas, 1);
    assert_eq!(b.machine().state().totals.games.jogadas_efectuadas, 0, "two demonstrations shared critical memory");
    assert_eq!(b.machine().credit(), DEMO_CREDIT);
    drop(a);
    drop(b);
    let c = boot_with(&a_dir, |c| c, true);
    assert_eq!(c.machine().state().totals.games.jogadas_efectuadas, 0, "a demonstration started on an earlier one's memory");
    assert_eq!(c.machine().credit(), DEMO_CREDIT);
    drop(c);

    let p_dir = dir.path().join("production");
    std::fs::create_dir_all(&p_dir).unwrap();
    let config = test_config::write(&p_dir, &test_config::production_text(&p_dir));
    let production = BootOptions { config, db: p_dir.join("egm.sqlite"), lab_seed: None, demo: false };
    let refused = boot(&production).err().expect("this machine has no cabinet TPM: the real boot must be refused");
    let demo = boot(&BootOptions { demo: true, ..production }).unwrap_or_else(|e| panic!("a demonstration needed the cabinet's TPM: {e}"));
    assert!(demo.demo(), "{refused}");
    // Its play credits are on its own memory (its play is then refused
    // here only because this test program is not the approved cabinet's:
    // production verifies the program running).
    assert_eq!(demo.machine().credit(), DEMO_CREDIT);
    assert_eq!(demo.machine().config().key_store, meters::KeyStoreConfig::FileStandIn);
    assert!(!p_dir.join("egm.sqlite").exists(), "the real critical memory was created by a demonstration");
}

/// A printer that fails never loses the cash-out: the credit is already on
/// the ticket in critical memory; the cabinet tilts with the ticket named,
/// and the attendant key prints that same ticket once the printer works.
#[test]
fn a_failed_print_tilts_and_the_attendant_prints_the_same_ticket() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = boot_with(dir.path(), |c| c, false);
    // The "printer" is the ticket folder: a plain file in its place jams it.
    let jam = dir.path().join("tickets");
    std::fs::write(&jam, b"jammed").unwrap();
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    s.command(Command::CashOut);
    assert_eq!(s.machine().credit(), 0);
    assert!(s.machine().state().tilts.contains(&Tilt::DeviceFault));
    let (validation, issued) = s.machine().state().tickets.iter().next().map(|(v, t)| (v.clone(), t.clone())).unwrap();
    assert_eq!((issued.value, issued.redeemed), (2_000, false));
    assert!(matches!(s.message(), Some(Notice::TicketNotPrinted { validation: v, value: 2_000, .. }) if *v == validation), "{:?}", s.message());
    assert!(!s.command(Command::Play), "play while the printer is faulted");
    // Still jammed: the attendant's clear keeps the tilt and the ticket.
    s.command(Command::AttendantClear);
    assert!(s.machine().state().tilts.contains(&Tilt::DeviceFault));
    std::fs::remove_file(&jam).unwrap();
    s.command(Command::AttendantClear);
    assert!(s.machine().state().tilts.is_empty());
    let printed = std::fs::read_to_string(jam.join(format!("ticket-{validation}.txt"))).unwrap();
    assert!(printed.contains(&validation) && printed.contains("20.00"), "{printed}");
    assert_eq!(tickets(dir.path()).len(), 1, "printed once");
    assert_eq!(s.machine().state().totals.cancelamento_creditos, 2_000);
}

/// An open door stops play and is counted; closing it lets play resume.
#[test]
fn an_open_door_stops_play() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = boot_with(dir.path(), |c| c, false);
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    assert!(s.command(Command::ToggleDoor { door: Door::Main }));
    assert!(s.block_text().is_some());
    assert!(!s.command(Command::Play), "a round began with the main door open");
    assert_eq!(s.machine().state().totals.games.jogadas_efectuadas, 0);
    assert!(s.command(Command::ToggleDoor { door: Door::Main }));
    assert!(s.block_text().is_none());
    assert!(s.command(Command::Play));
    let i = Inspection::open(&dir.path().join("egm.sqlite")).unwrap();
    assert!(i.state().open_round.is_some());
    assert_eq!(i.state().totals.aberturas_porta.get(&Door::Main), Some(&1), "the opening is counted");
}

/// Issue 21, attack 10: a cash-out is issued in two journaled steps (the
/// credit onto the ticket, then "printed"). A ticket whose printing never
/// finished (here a jammed printer, then the power goes) is printed again
/// at the next boot, with the same validation number, exactly once; the
/// cash-out is never lost and never paid twice.
#[test]
fn a_ticket_never_printed_is_printed_at_the_next_boot_once() {
    let dir = tempfile::tempdir().unwrap();
    let jam = dir.path().join("tickets");
    std::fs::write(&jam, b"jammed").unwrap();
    let validation = {
        let mut s = boot_with(dir.path(), |c| c, false);
        assert!(s.command(Command::InsertNote { cents: 2_000 }));
        s.command(Command::CashOut);
        let unprinted = s.machine().unprinted_tickets();
        assert_eq!(unprinted.len(), 1, "the issued ticket is held unprinted in critical memory");
        unprinted[0].validation.clone()
        // The session ends here without printing: a power cut.
    };
    std::fs::remove_file(&jam).unwrap();
    let printed_records = |dir: &std::path::Path| {
        let i = Inspection::open(&dir.join("egm.sqlite")).unwrap();
        i.events(1_000).unwrap().iter().filter(|r| matches!(&r.entry, meters::Entry::TicketPrinted { validation: v } if *v == validation)).count()
    };
    let s = boot_with(dir.path(), |c| c, false);
    let printed = std::fs::read_to_string(jam.join(format!("ticket-{validation}.txt"))).unwrap();
    assert!(printed.contains(&validation) && printed.contains("20.00"), "{printed}");
    assert!(s.machine().unprinted_tickets().is_empty());
    assert_eq!(s.machine().state().totals.cancelamento_creditos, 2_000, "one cash-out");
    drop(s);
    assert_eq!(printed_records(dir.path()), 1);
    // A further boot prints nothing again.
    let s = boot_with(dir.path(), |c| c, false);
    assert!(s.machine().unprinted_tickets().is_empty());
    drop(s);
    assert_eq!(printed_records(dir.path()), 1, "printed once");
}

/// Issue 45: the host says how long a sleeping screen may wait before the
/// host has something to do with nobody touching the cabinet: nothing at
/// start (the attract loop is already due); the attract loop's return a
/// configured time after a touch; with credit, the M-38 warning before the
/// M-35 end of an idle session, then each second of its countdown; nothing
/// under an overlay with no credit.
#[test]
fn the_host_says_when_it_next_has_something_to_do() {
    use game_host::session::Overlay;

    fn about(due: Option<Duration>, secs: f64) -> bool {
        due.is_some_and(|d| (d.as_secs_f64() - secs).abs() < 0.2)
    }
    let dir = tempfile::tempdir().unwrap();
    let mut s = boot_with(dir.path(), |c| c.replace("inactivity_timeout_s: 600", "inactivity_timeout_s: 4"), false);
    assert!(s.attract_due());
    assert_eq!(s.next_due(), None, "nothing falls due at start: the attract loop already is");
    let touched = std::time::Instant::now();
    s.touch();
    // attract_after_s: 60 in the shipped configuration.
    assert!(about(s.next_due(), 60.0), "{:?}", s.next_due());
    // Against the time that passed, not the time asked for: a busy machine
    // wakes a sleeper late (issue 76).
    std::thread::sleep(Duration::from_millis(500));
    let waited = touched.elapsed().as_secs_f64();
    assert!(about(s.next_due(), 60.0 - waited), "{:?} after {waited} s", s.next_due());
    // With credit: the warning starts half the timeout (at most 30 s)
    // before the end, at 2 s of 4.
    assert!(s.command(Command::InsertNote { cents: 500 }));
    assert!(about(s.next_due(), 2.0), "{:?}", s.next_due());
    std::thread::sleep(Duration::from_millis(2_100));
    assert_eq!(s.next_due(), Some(Duration::from_secs(1)), "the countdown is shown each second");
    s.tend_session();
    assert!(s.warning().is_some_and(|w| w.contains("inactividade")), "{:?}", s.warning());
    // Cashed out under the help: nothing falls due (the attract loop never
    // comes over an overlay).
    assert!(s.command(Command::CashOut));
    assert!(s.command(Command::Overlay { overlay: Some(Overlay::Help) }));
    assert_eq!(s.next_due(), None);
}

/// C-26 at the cabinet: a note at the configured bills-in increment is a
/// fault "excessive meter increment" — not credited, play and notes stopped,
/// the player told to call an attendant, whose key clears it; and a
/// configuration whose games' largest bet at the largest denomination
/// reaches the coin-in limit is refused at boot, the game named.
#[test]
fn an_excessive_meter_increment_stops_the_cabinet_until_the_attendant_clears_it() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = "excessive_increment: (coin_in: 200000, bills_in: 1000000)";
    let mut s = boot_with(dir.path(), |c| c.replace(shipped, "excessive_increment: (coin_in: 200000, bills_in: 5000)"), false);
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    assert!(!s.command(Command::InsertNote { cents: 5_000 }), "a note at the limit was taken");
    assert_eq!(s.machine().credit(), 2_000);
    assert!(s.machine().state().tilts.contains(&Tilt::ExcessiveMeterIncrement));
    let told = s.message_text().unwrap_or_default();
    assert!(told.contains("INCREMENTO EXCESSIVO DE CONTADOR"), "{told}");
    assert_eq!(s.block_text().as_deref(), Some("TILT: incremento excessivo de contador"));
    assert!(!s.command(Command::Play), "play while the fault stands");
    s.command(Command::AttendantClear);
    assert!(s.machine().state().tilts.is_empty());
    assert!(s.command(Command::Play), "{:?}", s.message_text());

    let dir = tempfile::tempdir().unwrap();
    let config = test_config::write(dir.path(), &test_config::text(dir.path()).replace(shipped, "excessive_increment: (coin_in: 100000, bills_in: 1000000)"));
    let e = boot(&BootOptions { config, db: dir.path().join("egm.sqlite"), lab_seed: Some(3), demo: false })
        .err()
        .expect("booted with a game's largest bet at the limit");
    assert!(e.contains("game dragao-1024's largest bet, 500 credits at 200 cents, reaches excessive_increment.coin_in (100000 cents)"), "{e}");
    assert!(!dir.path().join("egm.sqlite").exists(), "a refused configuration reached critical memory");
}

/// E-42, the credit meter: it shows money by default and credits only as
/// the player's option (M-16), and each new player starts in money again —
/// the cash-out that ends a player's session puts the option back; cash-out
/// is refused while a round is in play (the round, its stake and the
/// credit stay as they were) and available as soon as it ends. (The
/// cabinet holds cashable credit only: restricted and non-restricted
/// transfers and tickets are refused by the SAS port, so the wagering
/// order of E-42 has one kind of credit to take.)
#[test]
fn each_new_player_sees_money_and_cashes_out_whenever_no_round_is_in_play() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = boot_with(dir.path(), |c| c, false);
    assert!(s.show_currency(), "money by default");
    s.choose_game(index(&s, "jacks-or-better-9-6"));
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    assert!(s.command(Command::ShowCurrency { currency: false }));
    assert!(!s.show_currency(), "credits at the player's choice");
    assert!(s.play(), "deal refused: {:?}", s.message_text());
    assert!(s.in_round());
    let staked = s.machine().credit();
    assert!(staked < 2_000);
    s.cash_out();
    assert!(s.in_round(), "a cash-out ended the round in play");
    assert_eq!(s.machine().credit(), staked, "a cash-out in play moved the credit");
    assert!(tickets(dir.path()).is_empty(), "a ticket was printed in play");
    assert!(!s.show_currency(), "the same player keeps the option");
    s.play(); // the draw, holding nothing
    if s.in_round() {
        s.collect();
    }
    assert!(!s.in_round());
    let credit = s.machine().credit();
    assert!(credit > 0);
    s.cash_out();
    assert_eq!(s.machine().credit(), 0, "{:?}", s.message_text());
    assert_eq!(tickets(dir.path()).len(), 1);
    assert!(s.show_currency(), "the next player starts in money");
    let i = Inspection::open(&dir.path().join("egm.sqlite")).unwrap();
    assert_eq!(i.state().totals.cancelamento_creditos, credit);
}
