//! The floor's SAS progressive controller and the real game host (issue
//! 48, sas.md §8): its broadcasts shown as a linked pool's levels, its
//! silence stopping the group's games (G-49), and a level won: paid at the
//! amount broadcast with the round, locked up for an attendant, told by
//! 56 and read by LP 85/84/1B, reset by the controller's next broadcast.

use sas::bcd;
use sas::host::{Host, Reply};
use sas::transport::{Pty, SerialLine};

use game_host::session::Session;

use super::{ADDRESS, config_with, data, drain, play_round, read, settle, start};

#[test]
fn the_floors_progressive_levels_are_shown_and_silence_stops_their_games() {
    let dir = tempfile::tempdir().unwrap();
    let pty = Pty::open().unwrap();
    let cfg = config_with(dir.path(), &pty.path, "progressive: Some((group: 3, games: [\"classic-sevens\"]))");
    let mut s = start(dir.path(), &cfg);
    let mut host = Host::new(SerialLine::marked(pty.master.try_clone().unwrap()));
    s.choose_game(0);
    assert_eq!(s.game().id(), "classic-sevens");
    s.insert_note(2_000);
    let _ = drain(&mut s, &mut host);
    let sas_levels = |s: &Session| -> Vec<(String, Option<u64>)> {
        s.progressives_shown().into_iter().filter(|p| p.name.starts_with("SAS")).map(|p| (p.name, p.value)).collect()
    };

    // Nothing heard since the boot: the levels are unknown and no round
    // of the group's game starts (G-49).
    assert_eq!(sas_levels(&s), [("SAS".to_owned(), None)]);
    assert!(!s.play());
    assert!(s.message_text().unwrap().contains("SAS 3"), "{:?}", s.message_text());

    // A global LP 80 for group 3 and an addressed LP 86 (acknowledged):
    // the levels as broadcast; another group's broadcast is ignored.
    host.broadcast(0x80, &[&[0x03, 0x01][..], &bcd::encode(123_456, 5)].concat()).unwrap();
    host.sync().unwrap();
    let lp86 = [&[0x03, 0x02][..], &bcd::encode(2_500_000, 5), &[0x01], &bcd::encode(123_500, 5)].concat();
    assert_eq!(host.variable_poll(ADDRESS, 0x86, &lp86).unwrap(), Reply::Bytes(vec![ADDRESS]));
    host.broadcast(0x80, &[&[0x04, 0x01][..], &bcd::encode(999, 5)].concat()).unwrap();
    settle(&mut s);
    assert_eq!(sas_levels(&s), [("SAS nível 1".to_owned(), Some(123_500)), ("SAS nível 2".to_owned(), Some(2_500_000))]);
    play_round(&mut s);
    // LP 84: the group, no progressive win paid here. LP 53: game 1 is
    // in group 3, game 2 in none.
    assert_eq!(read(&mut host, 0x84), [0x03, 0x00, 0, 0, 0, 0, 0]);
    for (game, group) in [(1u8, 3u8), (2, 0)] {
        host.sync().unwrap();
        let d = data(&host.long_poll(ADDRESS, 0x53, &[0x00, game]).unwrap(), 0x53);
        assert_eq!(d[9], group, "game {game}");
    }

    // Five seconds without a broadcast: 53 told once, the values no
    // longer shown, no round; the next broadcast restores both.
    std::thread::sleep(std::time::Duration::from_millis(5_200));
    let codes = drain(&mut s, &mut host);
    assert_eq!(codes.iter().filter(|c| **c == 0x53).count(), 1, "{codes:02X?}");
    assert_eq!(sas_levels(&s), [("SAS nível 1".to_owned(), None), ("SAS nível 2".to_owned(), None)]);
    assert!(!s.play());
    host.broadcast(0x80, &[&[0x03, 0x01][..], &bcd::encode(124_000, 5)].concat()).unwrap();
    settle(&mut s);
    assert_eq!(sas_levels(&s)[0], ("SAS nível 1".to_owned(), Some(124_000)));
    play_round(&mut s);

    // Another game, not in the group: played whatever the broadcasts do.
    s.choose_game(1);
    assert_eq!(sas_levels(&s), []);
}

/// Issue 48, sas.md §8 "a hit: lock up, 56, report through 85, reset the
/// displayed level on the controller's broadcast": a round of the group's
/// game whose outcome hits level 1's trigger (a cherry from the first
/// reel, as the game pays it) wins that level at the amount last
/// broadcast, with the round; nothing reaches the credit meter until an
/// attendant pays it (the floor's LP 94 here); the floor is told 56, a
/// priority exception, before the hand-pay (51), and reads the level and
/// amount by LP 85, LP 84 and LP 1B; the level's amount is forgotten, and
/// no round starts, until the controller broadcasts it again, reset.
#[test]
fn a_level_won_is_paid_at_the_broadcast_amount_by_an_attendant_and_reset_by_the_controller() {
    let dir = tempfile::tempdir().unwrap();
    let pty = Pty::open().unwrap();
    let group = r#"progressive: Some((group: 3, games: ["classic-sevens"], triggers: [(1, ReelCombination(symbol: "CH", count: 1, max_bet_only: false))]))"#;
    let cfg = config_with(dir.path(), &pty.path, group);
    let mut s = start(dir.path(), &cfg);
    let mut host = Host::new(SerialLine::marked(pty.master.try_clone().unwrap()));
    s.choose_game(0);
    assert_eq!(s.game().id(), "classic-sevens");
    s.insert_note(5_000);
    let _ = drain(&mut s, &mut host);
    let broadcast = |host: &mut Host, level: u8, cents: u64| {
        host.broadcast(0x80, &[&[0x03, level][..], &bcd::encode(cents, 5)].concat()).unwrap();
        host.sync().unwrap();
    };
    let sas_levels = |s: &Session| -> Vec<(String, Option<u64>)> {
        s.progressives_shown().into_iter().filter(|p| p.name.starts_with("SAS")).map(|p| (p.name, p.value)).collect()
    };

    // Level 2 heard, not level 1, which a round can win: no round (G-49).
    broadcast(&mut host, 2, 2_500_000);
    settle(&mut s);
    assert!(!s.play());
    assert!(s.message_text().unwrap().contains("SAS 3"), "{:?}", s.message_text());
    broadcast(&mut host, 1, 123_456);
    settle(&mut s);
    let told = s.progressive_conditions();
    assert!(told.iter().any(|c| c.starts_with("SAS nível 1") && c.contains("CH")), "the player is told how level 1 is won: {told:?}");

    // Rounds until one wins level 1 (the lab seed fixes which).
    let mut won = None;
    let mut codes = Vec::new();
    for _ in 0..100 {
        let (credit, coin_in) = (s.machine().credit(), s.machine().state().totals.games.creditos_jogados);
        play_round(&mut s);
        codes = drain(&mut s, &mut host);
        if let Some(a) = s.machine().state().last_floor_award.clone() {
            won = Some((a, credit, coin_in));
            break;
        }
        broadcast(&mut host, 1, 123_456);
        settle(&mut s);
    }
    let (award, credit, coin_in) = won.expect("level 1 won within 100 rounds");
    assert_eq!((award.group, award.level, award.amount), (3, 1, 123_456), "the amount broadcast");
    let st = s.machine().state();
    let stake = st.totals.games.creditos_jogados - coin_in;
    assert_eq!(s.machine().credit(), credit - stake, "nothing credited before the attendant");
    let handpays: Vec<_> = st.handpays.values().cloned().collect();
    assert_eq!(handpays.len(), 1, "locked up");
    let win = handpays[0].amount;
    // The hand-pay is the round's whole win: its line win and the level.
    let records = s.machine().records_after(s.machine().journal_head().saturating_sub(30)).unwrap();
    let settled = records.iter().rev().find_map(|r| match &r.entry {
        meters::Entry::RoundSettled { win, components, .. } => Some((*win, components.clone())),
        _ => None,
    });
    let (round_win, components) = settled.unwrap();
    assert_eq!(round_win, win);
    assert!(components.iter().any(|c| c.label == "SAS progressive group 3 level 1" && c.amount == 123_456), "{components:?}");
    assert_eq!(components.iter().map(|c| c.amount).sum::<u64>(), win, "{components:?}");
    // Priority exceptions first, in the digest's order (SAS level hit,
    // hand-pay pending), then the round's start and end.
    assert_eq!(codes, [0x56, 0x51, 0x7E, 0x7F]);
    let reported = [&[0x03, 0x01][..], &bcd::encode(123_456, 5)].concat();
    assert_eq!(read(&mut host, 0x85), reported, "LP 85 after 56");
    assert_eq!(read(&mut host, 0x84), reported);
    // Issue 71: LP 87, the group's wins in one reply: this one.
    assert_eq!(read(&mut host, 0x87), [&[0x08, 0x03, 0x01, 0x01][..], &bcd::encode(123_456, 5)].concat(), "LP 87: one level won");
    let r = read(&mut host, 0x1B);
    assert_eq!(&r[..2], [0x03, 0x01], "LP 1B: the group and the level");
    assert_eq!(bcd::decode(&r[2..7]).unwrap(), win);
    assert_eq!(sas_levels(&s), [("SAS nível 2".to_owned(), Some(2_500_000))], "level 1 forgotten until broadcast again");
    assert!(!s.play(), "locked up");

    // The attendant pays it (the floor's remote reset): 52; the books
    // count it once as a progressive prize, paid by hand.
    host.sync().unwrap();
    assert_eq!(data(&host.long_poll(ADDRESS, 0x94, &[]).unwrap(), 0x94), [0x00]);
    settle(&mut s);
    assert!(s.machine().state().handpays.is_empty());
    assert_eq!(drain(&mut s, &mut host), [0x52]);
    let g = &s.machine().state().totals.games;
    assert_eq!((g.premios_acumulados_progressivos, g.premio_acumulado_manual), (123_456, win));
    assert_eq!(s.machine().credit(), credit - stake, "paid by hand, not to the credit meter");

    // Until the controller broadcasts level 1 again no round starts; its
    // reset value is then shown and played for.
    assert!(!s.play());
    assert!(s.message_text().unwrap().contains("SAS 3"), "{:?}", s.message_text());
    broadcast(&mut host, 1, 10_000);
    // A broadcast has no reply to wait on: the port thread reads it when
    // it is scheduled (once past 30 ms with the binary's tests all running
    // on two cores), so the session is tended until it shows, within 2 s.
    let shown = [("SAS nível 1".to_owned(), Some(10_000)), ("SAS nível 2".to_owned(), Some(2_500_000))];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    settle(&mut s);
    while sas_levels(&s) != shown && std::time::Instant::now() < deadline {
        settle(&mut s);
    }
    assert_eq!(sas_levels(&s), shown);
    play_round(&mut s);
    s.machine().state().self_audit().unwrap();
}
