//! The floor's slot management system drives the real game host over SAS
//! (issue 48): the reference host (`sas::host`) writes the marked grammar
//! into a pty, the cabinet's port answers from the snapshot the host
//! publishes, and what the floor reads is compared with the core's own
//! meters and journal. Proof of: every meter poll equal to the cabinet's
//! meters (machine, per game, per denomination); every event told once,
//! in order, surviving a power cut; LP 01/02 stopping and restoring play
//! and the note acceptor.
#![allow(clippy::unwrap_used)]

#[path = "support/test_config.rs"]
mod test_config;

#[path = "sas_acceptor.rs"]
mod sas_acceptor;
#[path = "sas_floor_control.rs"]
mod sas_floor_control;
#[path = "sas_progressive.rs"]
mod sas_progressive;
#[path = "sas_registration.rs"]
mod sas_registration;
#[path = "sas_validation.rs"]
mod sas_validation;

use std::path::{Path, PathBuf};

use game_host::boot::{BootOptions, boot};
use game_host::command::Command;
use game_host::round::Phase;
use game_host::session::Session;
use meters::Door;
use sas::bcd;
use sas::host::{Host, Reply};
use sas::transport::{Pty, SerialLine};

const ADDRESS: u8 = 1;
/// The asset number the floor knows the test cabinet by (AFT: LP 72
/// addresses it, 93 otherwise).
const ASSET: u32 = 4242;

fn config(dir: &Path, pty: &Path, validation: &str) -> PathBuf {
    config_with(dir, pty, &format!("validation: {validation}"))
}

fn config_with(dir: &Path, pty: &Path, more: &str) -> PathBuf {
    let sas = format!(
        "    sas: Some((port: {:?}, address: {ADDRESS}, line: Pty, ticket_timeout_s: 3, asset_number: {ASSET}, {more})),\n    autoplay_max:",
        pty.display().to_string()
    );
    test_config::write(dir, &test_config::text(dir).replacen("    autoplay_max:", &sas, 1))
}

/// A cabinet booted with its SAS line on a new pty, and the reference
/// host on the pty's other end (the pty is kept for the test's life).
fn connected() -> (tempfile::TempDir, Pty, PathBuf, Session, Host) {
    connected_with("Cabinet")
}

/// The same, the floor numbering cash-out tickets (system validation).
fn connected_with(validation: &str) -> (tempfile::TempDir, Pty, PathBuf, Session, Host) {
    let dir = tempfile::tempdir().unwrap();
    let pty = Pty::open().unwrap();
    let cfg = config(dir.path(), &pty.path, validation);
    let s = start(dir.path(), &cfg);
    let host = Host::new(SerialLine::marked(pty.master.try_clone().unwrap()));
    (dir, pty, cfg, s, host)
}

fn start(dir: &Path, config: &Path) -> Session {
    boot(&BootOptions { config: config.to_owned(), db: dir.join("egm.sqlite"), lab_seed: Some(48), demo: false }).unwrap()
}

/// A round on the selected game, finished as a player would.
fn play_round(s: &mut Session) {
    assert!(s.play(), "the round starts: {:?}", s.message_text());
    for _ in 0..50 {
        if !s.in_round() {
            return;
        }
        match s.round_info().map(|r| r.phase) {
            Some(Phase::Presenting) => s.revealed(),
            _ => s.collect(),
        }
    }
    panic!("the round did not finish");
}

/// The data of a reply to `command` at our address (after address and
/// command, before the CRC), checked.
fn data(reply: &Reply, command: u8) -> Vec<u8> {
    let b = reply.bytes();
    assert!(b.len() >= 4, "a reply to LP {command:02X}: {b:02X?}");
    assert_eq!(&b[..2], [ADDRESS, command]);
    assert!(sas::crc::checks(b), "its CRC checks: {b:02X?}");
    b[2..b.len() - 2].to_vec()
}

/// Polls until the port answers (the link's first poll may find the port
/// still starting).
fn read(host: &mut Host, command: u8) -> Vec<u8> {
    for _ in 0..20 {
        host.sync().unwrap();
        let r = host.read_poll(ADDRESS, command).unwrap();
        if r.bytes().len() >= 4 {
            return data(&r, command);
        }
    }
    panic!("no reply to LP {command:02X}");
}

fn m4(v: u64) -> Vec<u8> {
    bcd::encode(v, 4)
}

/// The floor takes every exception, the host recording what it took.
fn drain(s: &mut Session, host: &mut Host) -> Vec<u8> {
    s.tend_floor();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let codes = host.drain_exceptions(ADDRESS).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    s.tend_floor();
    codes
}

#[test]
fn a_floor_reads_the_cabinets_meters_and_events_over_sas() {
    let (dir, _pty, cfg, mut s, mut host) = connected();
    // Whatever boot told (the floor was not connected before: nothing).
    let _ = drain(&mut s, &mut host);

    // Scripted play: notes, rounds of two games at two denominations, a
    // door opened and closed, a cash-out by ticket.
    s.insert_note(2_000);
    s.insert_note(5_000);
    s.choose_game(0);
    s.choose_denomination(1);
    for _ in 0..3 {
        play_round(&mut s);
    }
    s.choose_game(1);
    s.choose_denomination(5);
    for _ in 0..2 {
        play_round(&mut s);
    }
    s.toggle_door(Door::Main);
    s.toggle_door(Door::Main);
    s.cash_out();
    assert_eq!(s.machine().credit(), 0, "cashed out");
    s.tend_floor();

    // Events: the priority flag (the ticket printed) first, then the rest
    // in the order they happened: two notes, five rounds started and
    // ended, the door.
    let codes = drain(&mut s, &mut host);
    assert_eq!(codes[0], 0x3D, "{codes:02X?}");
    let rounds: Vec<u8> = std::iter::repeat_n([0x7E, 0x7F], 5).flatten().collect();
    let expected: Vec<u8> = [vec![0x4A, 0x4B], rounds, vec![0x11, 0x12]].concat();
    assert_eq!(codes[1..], expected[..], "{codes:02X?}");
    assert_eq!(drain(&mut s, &mut host), [] as [u8; 0], "each event told once");

    // Meters, machine: each SAS meter equals the core's (M-25), in
    // credits of the accounting denomination (a cent).
    let st = s.machine().state().clone();
    let t = &st.totals;
    assert_eq!(t.games.jogadas_efectuadas, 5);
    assert_eq!(t.dinheiro_entrado, 7_000);
    let coin_out = t.games.creditos_ganhos - t.games.premio_acumulado_manual;
    assert_eq!(read(&mut host, 0x11), m4(t.games.creditos_jogados));
    assert_eq!(read(&mut host, 0x12), m4(coin_out));
    assert_eq!(read(&mut host, 0x13), m4(7_000));
    assert_eq!(read(&mut host, 0x15), m4(5));
    assert_eq!(read(&mut host, 0x16), m4(t.games.jogadas_ganhas));
    assert_eq!(read(&mut host, 0x17), m4(t.games.jogadas_perdidas));
    assert_eq!(read(&mut host, 0x10), m4(t.cancelamento_creditos + t.cancelamento_creditos_manual));
    assert_eq!(read(&mut host, 0x1A), m4(0));
    assert_eq!(read(&mut host, 0x0F), [m4(t.cancelamento_creditos), m4(t.games.creditos_jogados), m4(coin_out), m4(7_000), m4(0), m4(5)].concat());
    // The €20 and €50 notes, in the $20 and $50 places.
    assert_eq!(read(&mut host, 0x1E), [m4(0), m4(0), m4(0), m4(1), m4(1), m4(0)].concat());

    // Per game (LP 2F): each game's own meters, and the machine's equal
    // to their sum (C-27).
    let mut sum = [0u64; 3];
    for (number, id) in [(1u64, "classic-sevens"), (2, "ocean-treasure")] {
        host.sync().unwrap();
        let r = host.variable_poll(ADDRESS, 0x2F, &[&bcd::encode(number, 2)[..], &[0x00, 0x01, 0x05]].concat()).unwrap();
        let d = data(&r, 0x2F);
        let g = &st.per_game[id];
        let expected = [
            vec![0x11],
            bcd::encode(number, 2),
            vec![0x00],
            m4(g.creditos_jogados),
            vec![0x01],
            m4(g.creditos_ganhos - g.premio_acumulado_manual),
            vec![0x05],
            m4(g.jogadas_efectuadas),
        ]
        .concat();
        assert_eq!(d, expected, "game {number} ({id})");
        sum[0] += g.creditos_jogados;
        sum[2] += g.jogadas_efectuadas;
    }
    assert_eq!(sum[0], t.games.creditos_jogados);
    assert_eq!(sum[2], 5);
    // Per denomination (B0): the nickel's coin in is the second game's.
    host.sync().unwrap();
    let r = host.variable_poll(ADDRESS, 0xB0, &[0x02, 0x11]).unwrap();
    assert_eq!(data(&r, 0xB0), [vec![0x06, 0x02, 0x11], m4(st.per_denom[&5].creditos_jogados)].concat());
    assert_eq!(st.per_denom[&5].creditos_jogados, st.per_game["ocean-treasure"].creditos_jogados);
    // Identity: the serial number is the machine's identification.
    let id = read(&mut host, 0x54);
    assert_eq!(&id[1..4], b"602");
    assert_eq!(&id[4..], st.machine_id.as_bytes());
    // LP 53: each game's largest bet in credits, from its paytable
    // (classic-sevens: 1 line × 3 credits; ocean-treasure: 20 lines × 10).
    for (game, max_bet) in [(1u8, 3u8), (2, 200)] {
        host.sync().unwrap();
        let d = data(&host.long_poll(ADDRESS, 0x53, &[0x00, game]).unwrap(), 0x53);
        assert_eq!(d[8], max_bet, "game {game}");
        // Issue 71: the additional ID, from the game's id (was "000").
        let id = ["classic-sevens", "ocean-treasure"][usize::from(game - 1)];
        assert_eq!(&d[4..7], format!("{:03}", sas::crc::crc(id.as_bytes()) % 1_000).as_bytes(), "game {game}");
    }
    // Issue 71: LP 6F's meter size is the meters' own (10 digits: 5
    // bytes), not 9.
    host.sync().unwrap();
    let d = data(&host.variable_poll(ADDRESS, 0x6F, &[0x00, 0x00, 0x00, 0x00]).unwrap(), 0x6F);
    assert_eq!(d[..6], [0x0A, 0x00, 0x00, 0x00, 0x00, 0x05], "coin in: 5 bytes");

    // LP 01: play and the note acceptor stop, and the screen says so;
    // LP 02 restores both.
    host.sync().unwrap();
    assert_eq!(host.long_poll(ADDRESS, 0x01, &[]).unwrap(), Reply::Bytes(vec![ADDRESS]));
    std::thread::sleep(std::time::Duration::from_millis(20));
    s.tend_floor();
    assert!(s.block_text().unwrap().contains("SAS"), "{:?}", s.block_text());
    s.insert_note(1_000);
    assert_eq!(s.machine().credit(), 0, "the note acceptor is disabled");
    assert!(!s.play());
    host.sync().unwrap();
    assert_eq!(host.long_poll(ADDRESS, 0x02, &[]).unwrap(), Reply::Bytes(vec![ADDRESS]));
    std::thread::sleep(std::time::Duration::from_millis(20));
    s.tend_floor();
    assert_eq!(s.block_text(), None);
    s.insert_note(1_000);
    assert_eq!(s.machine().credit(), 1_000);
    let _ = drain(&mut s, &mut host);

    // A power cut with events not yet taken: the door opened, then the
    // power goes before the floor polls. After the restart the floor is
    // told exactly what it had not taken, then the power's loss and return.
    s.toggle_door(Door::Main);
    s.tend_floor();
    s.power_cut();
    let mut s = start(dir.path(), &cfg);
    let codes = drain(&mut s, &mut host);
    assert_eq!(codes, [0x11, 0x18, 0x17], "{codes:02X?}");
    assert_eq!(drain(&mut s, &mut host), [] as [u8; 0]);
}

/// H-55: nothing is sent to a host before the self-tests pass. A cabinet
/// whose start-up verification fails (a paytable whose file is not the
/// one its manifest approves) opens no SAS line: the floor's polls of
/// every kind go unanswered, however long it asks, and the tilt says why.
/// Booted again with the self-tests passed, it answers.
#[test]
fn a_cabinet_whose_self_tests_failed_says_nothing_to_the_floor() {
    let dir = tempfile::tempdir().unwrap();
    let pty = Pty::open().unwrap();
    let good = config(dir.path(), &pty.path, "Cabinet");
    let ws = test_config::workspace();
    let shipped = ws.join("assets/paytables/approved.ron");
    let manifest = std::fs::read_to_string(&shipped).unwrap();
    let sevens = paytables::artifact::sha256_hex(&std::fs::read(ws.join("assets/paytables/compiled/classic-sevens.json")).unwrap());
    assert!(manifest.contains(&sevens));
    std::fs::write(dir.path().join("approved.ron"), manifest.replace(&sevens, &"0".repeat(64))).unwrap();
    let bad = dir.path().join("failing.ron");
    let text = std::fs::read_to_string(&good).unwrap();
    let quoted = |p: &Path| format!("{:?}", p.display().to_string());
    assert!(text.contains(&quoted(&shipped)));
    std::fs::write(&bad, text.replace(&quoted(&shipped), &quoted(&dir.path().join("approved.ron")))).unwrap();
    let mut s = start(dir.path(), &bad);
    assert!(s.machine().state().tilts.contains(&meters::Tilt::ProgramVerification), "the self-tests failed");
    assert!(s.floor().is_none(), "a SAS line was opened");
    let mut host = Host::new(SerialLine::marked(pty.master.try_clone().unwrap()));
    for _ in 0..5 {
        s.tend_floor();
        host.sync().unwrap();
        // A meter, the identity, the game count, the version.
        for command in [0x11, 0x1F, 0x51, 0x54] {
            assert_eq!(host.read_poll(ADDRESS, command).unwrap(), Reply::None, "LP {command:02X} answered");
        }
        assert_eq!(host.send(&[0x80 | ADDRESS]).unwrap(), Reply::None, "the general poll answered");
    }
    drop(s);
    // The same cabinet, its self-tests passed: the floor reads it.
    let mut s = start(dir.path(), &good);
    assert!(s.floor().is_some());
    s.tend_floor();
    assert_eq!(read(&mut host, 0x11), m4(0), "the coin-in meter, read");
}

#[test]
fn a_bad_sas_address_or_port_is_a_clear_boot_error() {
    let dir = tempfile::tempdir().unwrap();
    let text = test_config::text(dir.path());
    let bad = test_config::write(dir.path(), &text.replacen("    autoplay_max:", "    sas: Some((port: \"/dev/ttyS0\", address: 128)),\n    autoplay_max:", 1));
    let e = boot(&BootOptions { config: bad, db: dir.path().join("egm.sqlite"), lab_seed: Some(1), demo: false }).err().unwrap();
    assert!(e.contains("sas.address 128 is outside 1..=127"), "{e}");
    let missing = test_config::write(
        dir.path(),
        &text.replacen("    autoplay_max:", "    sas: Some((port: \"/dev/no-such-sas-port\", address: 1)),\n    autoplay_max:", 1),
    );
    let e = boot(&BootOptions { config: missing, db: dir.path().join("egm.sqlite"), lab_seed: Some(1), demo: false }).err().unwrap();
    assert!(e.contains("SAS port /dev/no-such-sas-port: cannot open it"), "{e}");
    for (progressive, named) in [
        ("progressive: Some((group: 0, games: [\"classic-sevens\"]))", "sas.progressive.group 0 is not a group"),
        ("progressive: Some((group: 1, games: []))", "sas.progressive.games is empty"),
        ("progressive: Some((group: 1, games: [\"classic-sevens\"], triggers: [(33, StudSideBet)]))", "sas.progressive.triggers: level 33 is not a SAS level"),
    ] {
        let line = format!("    sas: Some((port: \"/dev/ttyS0\", address: 1, {progressive})),\n    autoplay_max:");
        let bad = test_config::write(dir.path(), &text.replacen("    autoplay_max:", &line, 1));
        let e = boot(&BootOptions { config: bad, db: dir.path().join("egm.sqlite"), lab_seed: Some(1), demo: false }).err().unwrap();
        assert!(e.contains(named), "{e}");
    }
}

/// LP 71 as the floor sends it (the length byte added by the host).
fn lp71(host: &mut Host, code: u8, amount: u64, validation: &str) -> (u8, u64) {
    let mut d = vec![code];
    d.extend(bcd::encode(amount, 5));
    d.push(0x00);
    d.extend(sas::tickets::validation_bcd(validation));
    host.sync().unwrap();
    let r = host.variable_poll(ADDRESS, 0x71, &d).unwrap();
    let data = data(&r, 0x71);
    (data[1], bcd::decode(&data[2..7]).unwrap())
}

fn status(host: &mut Host) -> (u8, u64) {
    host.sync().unwrap();
    let r = host.variable_poll(ADDRESS, 0x71, &[0xFF]).unwrap();
    let data = data(&r, 0x71);
    (data[1], bcd::decode(&data[2..7]).unwrap())
}

/// A long poll the cabinet ACKs, carried out at its next tend.
fn ack(s: &mut Session, host: &mut Host, command: u8, request: &[u8]) {
    host.sync().unwrap();
    assert_eq!(host.long_poll(ADDRESS, command, request).unwrap(), Reply::Bytes(vec![ADDRESS]), "LP {command:02X} {request:02X?}");
    std::thread::sleep(std::time::Duration::from_millis(20));
    s.tend_floor();
}

/// The cabinet acts on what the floor said.
fn settle(s: &mut Session) {
    std::thread::sleep(std::time::Duration::from_millis(30));
    s.tend_floor();
}

#[test]
fn a_ticket_from_another_cabinet_is_redeemed_once_on_the_floors_word() {
    let (dir, _pty, cfg, mut s, mut host) = connected();
    let _ = drain(&mut s, &mut host);
    let credit = |s: &Session| s.machine().credit();

    // Redeemed: 67, the floor reads it (LP 70), says redeem 25.00 (LP 71):
    // pending, then credited once; 68, and LP 71 FF says redeemed.
    let a = "123456789012345678";
    s.insert_ticket(a);
    assert!(s.message_text().unwrap().contains("VALIDAÇÃO"), "{:?}", s.message_text());
    assert_eq!(drain(&mut s, &mut host), [0x67]);
    host.sync().unwrap();
    let r70 = data(&host.read_poll(ADDRESS, 0x70).unwrap(), 0x70);
    assert_eq!(r70[1], 0x00, "in escrow");
    assert_eq!(&r70[8..], sas::tickets::validation_bcd(a).as_slice());
    assert_eq!(lp71(&mut host, 0x00, 2_500, a), (0x40, 2_500), "pending");
    assert_eq!(credit(&s), 0, "nothing credited before the core commits");
    settle(&mut s);
    assert_eq!(credit(&s), 2_500);
    assert_eq!(drain(&mut s, &mut host), [0x68]);
    assert_eq!(status(&mut host), (0x00, 2_500));
    // The floor retries its answer: the same status, never a second credit.
    assert_eq!(lp71(&mut host, 0x00, 2_500, a), (0x00, 2_500));
    settle(&mut s);
    assert_eq!(credit(&s), 2_500);

    // The power goes after the floor's answer, before the cabinet acted on
    // it: nothing was credited; the floor's retry finds no ticket in
    // escrow (C0); the player's ticket, inserted again, is paid once.
    let b = "223456789012345678";
    s.insert_ticket(b);
    assert_eq!(lp71(&mut host, 0x00, 1_000, b), (0x40, 1_000));
    s.power_cut();
    let mut s = start(dir.path(), &cfg);
    assert_eq!(credit(&s), 2_500);
    assert_eq!(lp71(&mut host, 0x00, 1_000, b), (0xC0, 0));
    settle(&mut s);
    assert_eq!(credit(&s), 2_500);
    let _ = drain(&mut s, &mut host);
    s.insert_ticket(b);
    assert_eq!(lp71(&mut host, 0x00, 1_000, b), (0x40, 1_000));
    settle(&mut s);
    assert_eq!(credit(&s), 3_500);

    // The power goes after the cabinet credited it, before the floor took
    // 68: after the restart 68 is told again, LP 71 FF still says redeemed,
    // and a retry or the same ticket again credits nothing.
    s.power_cut();
    let mut s = start(dir.path(), &cfg);
    let codes = drain(&mut s, &mut host);
    assert!(codes.contains(&0x68), "{codes:02X?}");
    assert_eq!(status(&mut host), (0x00, 1_000));
    assert_eq!(lp71(&mut host, 0x00, 1_000, b), (0x00, 1_000));
    s.insert_ticket(b);
    assert_eq!(lp71(&mut host, 0x00, 1_000, b), (0x40, 1_000));
    settle(&mut s);
    assert_eq!(status(&mut host), (0x83, 0), "the cabinet refused it: already paid");
    assert_eq!(credit(&s), 3_500);

    // The floor refuses one with its reason: returned, nothing credited,
    // the player told why.
    let c = "323456789012345678";
    s.insert_ticket(c);
    assert_eq!(lp71(&mut host, 0x84, 0, c), (0x40, 0));
    settle(&mut s);
    assert_eq!(credit(&s), 3_500);
    assert!(s.message_text().unwrap().contains("0x84"), "{:?}", s.message_text());
    assert_eq!(status(&mut host), (0x84, 0));

    // No answer in time (3 s here): returned, nothing credited; a late
    // answer finds no ticket.
    let d = "423456789012345678";
    s.insert_ticket(d);
    std::thread::sleep(std::time::Duration::from_millis(3_100));
    s.tend_floor();
    assert!(s.message_text().unwrap().contains("3 s"), "{:?}", s.message_text());
    assert_eq!(status(&mut host), (0x88, 0));
    assert_eq!(lp71(&mut host, 0x00, 5_000, d), (0x88, 0), "the cycle ended: its status, no credit");
    settle(&mut s);
    assert_eq!(credit(&s), 3_500);

    // The meters balance: tickets in are exactly the two redeemed.
    let st = s.machine().state();
    assert_eq!(st.totals.bilhetes_codificados_entrados, 3_500);
    assert_eq!(st.totals.bilhetes_entrados_contagem, 2);
    st.self_audit().unwrap();
    let events = s.machine().events(40).unwrap();
    let refused = events.iter().filter(|r| matches!(r.entry, meters::Entry::FloorTicketRefused { .. })).count();
    assert_eq!(refused, 3, "already paid, refused by the floor, timed out: each on record");
}

#[test]
fn the_floor_reads_the_tickets_printed_and_resets_a_hand_pay() {
    let (_dir, _pty, _cfg, mut s, mut host) = connected();
    let _ = drain(&mut s, &mut host);

    // A cash-out by ticket: 3D, then LP 4D gives its validation number
    // (the system ID and 16 digits) and amount, so the floor can redeem it
    // on any cabinet.
    s.insert_note(2_000);
    s.cash_out();
    let validation = s.last_ticket().unwrap().to_owned();
    assert_eq!(drain(&mut s, &mut host).first(), Some(&0x3D));
    host.sync().unwrap();
    let r = host.long_poll(ADDRESS, 0x4D, &[0x00]).unwrap();
    let d = data(&r, 0x4D);
    assert_eq!(d[0], 0x00, "a cashable ticket");
    let digits = format!("{:02X}{}", d[24], sas::tickets::validation_digits(&d[9..17]).unwrap());
    assert_eq!(digits, validation);
    assert_eq!(bcd::decode(&d[17..22]).unwrap(), 2_000);

    // The ticket back in this cabinet's reader goes to the floor too (it
    // may have paid it on another cabinet): 67; the floor says it was
    // paid (its code 0x86 here): nothing is credited.
    s.insert_ticket(&validation);
    assert_eq!(drain(&mut s, &mut host), [0x67]);
    assert_eq!(lp71(&mut host, 0x86, 0, &validation), (0x40, 0));
    settle(&mut s);
    assert_eq!(s.machine().credit(), 0, "not paid here after the floor paid it");
    assert!(s.message_text().unwrap().contains("0x86"), "{:?}", s.message_text());
    let _ = drain(&mut s, &mut host);

    // A cash-out over the ticket limit: a hand-pay (51); LP 1B reports it;
    // the floor's LP 94 resets it, the core pays it (the attendant named),
    // 52 follows.
    for _ in 0..21 {
        s.insert_note(5_000);
    }
    s.cash_out();
    assert_eq!(s.machine().state().handpays.len(), 1);
    let codes = drain(&mut s, &mut host);
    assert_eq!(codes[0], 0x51, "{codes:02X?}");
    assert_eq!(&codes[1..], [0x4B; 21], "the 21 notes, in order");
    let r = read(&mut host, 0x1B);
    assert_eq!(&r[..2], [0x00, 0x80], "canceled credits");
    assert_eq!(bcd::decode(&r[2..7]).unwrap(), 105_000);
    host.sync().unwrap();
    let r = host.long_poll(ADDRESS, 0x94, &[]).unwrap();
    assert_eq!(data(&r, 0x94), [0x00], "reset");
    settle(&mut s);
    assert!(s.machine().state().handpays.is_empty(), "paid through the core");
    assert_eq!(s.machine().credit(), 0);
    assert_eq!(s.machine().state().totals.cancelamento_creditos_manual, 105_000);
    assert_eq!(drain(&mut s, &mut host), [0x52]);
    host.sync().unwrap();
    let r = host.long_poll(ADDRESS, 0x94, &[]).unwrap();
    assert_eq!(data(&r, 0x94), [0x02], "no hand-pay now");
    s.machine().state().self_audit().unwrap();
}

/// LP 72 as the floor sends it, once: the transfer status and amount of
/// the reply, or `None` when the cabinet did not answer.
fn lp72_once(host: &mut Host, code: u8, kind: u8, cents: u64, id: &str, flags: u8) -> Option<(u8, u64)> {
    host.sync().unwrap();
    let r = host.variable_poll(ADDRESS, 0x72, &sas::aft::request_72_flagged(code, kind, cents, id, ASSET, flags)).unwrap();
    if r.bytes().is_empty() {
        return None;
    }
    let d = data(&r, 0x72);
    Some((d[2], if d.len() > 9 { bcd::decode(&d[5..10]).unwrap() } else { 0 }))
}

/// LP 72 as a floor sends it: again after no reply (issue 71: a new
/// transfer is answered once the core has journaled it pending, which the
/// cabinet does when it next tends the link).
fn lp72(s: &mut Session, host: &mut Host, code: u8, kind: u8, cents: u64, id: &str) -> (u8, u64) {
    lp72_flagged(s, host, code, kind, cents, id, 0x00)
}

/// [`lp72`] with the transfer flags `flags`.
fn lp72_flagged(s: &mut Session, host: &mut Host, code: u8, kind: u8, cents: u64, id: &str, flags: u8) -> (u8, u64) {
    for _ in 0..5 {
        if let Some(reply) = lp72_once(host, code, kind, cents, id, flags) {
            return reply;
        }
        settle(s);
    }
    panic!("no reply to LP 72 {id}");
}

/// LP 74's transfer limit, interrogated (FF): what the credit can still take.
fn transfer_limit(host: &mut Host) -> u64 {
    host.sync().unwrap();
    let d = data(&host.long_poll(ADDRESS, 0x74, &[0xFF, 0x00, 0x00, 0x00]).unwrap(), 0x74);
    bcd::decode(&d[25..30]).unwrap()
}

fn interrogate(host: &mut Host) -> (u8, u64, String) {
    host.sync().unwrap();
    let r = host.variable_poll(ADDRESS, 0x72, &[0xFF, 0x00]).unwrap();
    let d = data(&r, 0x72);
    let id_len = usize::from(d[25]);
    (d[2], bcd::decode(&d[5..10]).unwrap(), String::from_utf8(d[26..26 + id_len].to_vec()).unwrap())
}

/// AFT (sas.md §7, issue 71): each transfer moved once whatever the floor
/// repeats or the power does; and E-42: the whole credit out to the floor
/// ends the player's session, as a cash-out does.
#[test]
fn aft_moves_money_once_whatever_the_floor_repeats_or_the_power_does() {
    let (dir, _pty, cfg, mut s, mut host) = connected();
    let _ = drain(&mut s, &mut host);
    let credit = |s: &Session| s.machine().credit();
    const IN: u8 = sas::aft::IN_HOUSE_TO_EGM;
    const OUT: u8 = sas::aft::IN_HOUSE_TO_HOST;

    // The lock (LP 74, 5 s): play stops until the transfer is made.
    host.sync().unwrap();
    let lock = data(&host.long_poll(ADDRESS, 0x74, &[0x00, 0x00, 0x05, 0x00]).unwrap(), 0x74);
    assert_eq!(lock[5], 0x00, "locked");
    settle(&mut s);
    assert!(!s.play(), "no round under the floor's lock");
    assert!(s.message_text().unwrap().contains("TRANSFERÊNCIA"), "{:?}", s.message_text());
    // 25.00 in: pending, then committed once by the core, then 00.
    assert_eq!(lp72(&mut s, &mut host, 0x00, IN, 2_500, "FLOOR-0001"), (0x40, 2_500));
    settle(&mut s);
    assert_eq!(credit(&s), 2_500);
    assert_eq!(interrogate(&mut host), (0x00, 2_500, "FLOOR-0001".into()));
    assert_eq!(drain(&mut s, &mut host), [0x6F, 0x69], "game locked, then the transfer complete");
    settle(&mut s);
    assert!(!s.floor().unwrap().aft_locked(), "the transfer ended the lock");
    // The same id again: the first transfer's status, nothing moves.
    assert_eq!(lp72(&mut s, &mut host, 0x00, IN, 2_500, "FLOOR-0001"), (0x00, 2_500));
    settle(&mut s);
    assert_eq!(credit(&s), 2_500);

    // The power goes after the floor's request, before the core journaled
    // it: the floor was told nothing of it (no reply, not even to an
    // interrogation); after the restart nothing moved, the interrogation
    // shows the last transfer made, and the retry moves it once.
    assert_eq!(lp72_once(&mut host, 0x00, IN, 1_000, "FLOOR-0002", 0), None, "not journaled: no reply");
    host.sync().unwrap();
    assert!(host.variable_poll(ADDRESS, 0x72, &[0xFF, 0x00]).unwrap().bytes().is_empty(), "nor to an interrogation");
    s.power_cut();
    let mut s = start(dir.path(), &cfg);
    assert_eq!(credit(&s), 2_500);
    assert_eq!(interrogate(&mut host), (0x00, 2_500, "FLOOR-0001".into()));
    assert_eq!(lp72(&mut s, &mut host, 0x00, IN, 1_000, "FLOOR-0002"), (0x40, 1_000));
    settle(&mut s);
    assert_eq!(credit(&s), 3_500);
    assert_eq!(interrogate(&mut host), (0x00, 1_000, "FLOOR-0002".into()));

    // Issue 71, defect 3: the power goes after the floor was told 40
    // (journaled pending), before the transfer was made: the restart makes
    // it, once; the interrogation reports it; the retry moves nothing.
    assert_eq!(lp72(&mut s, &mut host, 0x00, IN, 500, "FLOOR-0005"), (0x40, 500));
    assert_eq!(credit(&s), 3_500);
    s.power_cut();
    let mut s = start(dir.path(), &cfg);
    assert_eq!(credit(&s), 4_000, "resumed at power-up");
    assert_eq!(interrogate(&mut host), (0x00, 500, "FLOOR-0005".into()));
    assert_eq!(lp72(&mut s, &mut host, 0x00, IN, 500, "FLOOR-0005"), (0x00, 500));
    settle(&mut s);
    assert_eq!(credit(&s), 4_000);
    let _ = drain(&mut s, &mut host);
    // E-42: the player chose credits; part of the credit out to the floor
    // leaves the same player at the machine, the whole of it ends the
    // session as a cash-out does (the next player starts in money).
    assert!(s.command(Command::ShowCurrency { currency: false }));
    assert_eq!(lp72(&mut s, &mut host, 0x00, OUT, 500, "FLOOR-0006"), (0x40, 500));
    settle(&mut s);
    assert_eq!(credit(&s), 3_500);
    assert!(!s.show_currency(), "part of the credit out: the same player keeps credits");

    // The whole credit out to the floor; the power goes after the core
    // anchored it, before the floor asked: the restart reports it done,
    // the retry moves nothing.
    assert_eq!(lp72(&mut s, &mut host, 0x00, OUT, 3_500, "FLOOR-0003"), (0x40, 3_500));
    settle(&mut s);
    assert_eq!(credit(&s), 0);
    assert!(s.show_currency(), "E-42: the whole credit out to the floor, the next player starts in money");
    s.power_cut();
    let mut s = start(dir.path(), &cfg);
    assert_eq!(interrogate(&mut host), (0x00, 3_500, "FLOOR-0003".into()));
    assert!(drain(&mut s, &mut host).contains(&0x69));
    assert_eq!(lp72(&mut s, &mut host, 0x00, OUT, 3_500, "FLOOR-0003"), (0x00, 3_500));
    // An older id the port no longer holds: the core knows it; its first
    // outcome is reported, nothing moves.
    assert_eq!(lp72(&mut s, &mut host, 0x00, IN, 2_500, "FLOOR-0001"), (0x00, 2_500));
    settle(&mut s);
    assert_eq!(interrogate(&mut host), (0x00, 2_500, "FLOOR-0001".into()));
    assert_eq!(credit(&s), 0);

    // Bad requests name their fault: more out than the credit (83), an id
    // with a control character (95); nothing moves.
    assert_eq!(lp72(&mut s, &mut host, 0x00, OUT, 10_000, "FLOOR-0004").0, 0x83);
    assert_eq!(lp72(&mut s, &mut host, 0x00, IN, 100, "BAD\u{1}ID").0, 0x95);
    settle(&mut s);

    // The AFT meters (2F A0/A1, B8/B9) are the core's, once each.
    let t = s.machine().state().totals.clone();
    assert_eq!((t.transferencias_entrada, t.transferencias_entrada_contagem), (4_000, 3));
    assert_eq!((t.transferencias_saida, t.transferencias_saida_contagem), (4_000, 2));
    host.sync().unwrap();
    let r = host.variable_poll(ADDRESS, 0x2F, &[0x00, 0x00, 0xA0, 0xA1, 0xB8, 0xB9]).unwrap();
    assert_eq!(
        data(&r, 0x2F),
        [vec![0x18, 0x00, 0x00, 0xA0], bcd::encode(4_000, 5), vec![0xA1], m4(3), vec![0xB8], bcd::encode(4_000, 5), vec![0xB9], m4(2)].concat()
    );
    s.machine().state().self_audit().unwrap();
}

/// Issue 71, defect 3: a transfer journaled pending that can no longer be
/// made (the main door opened before it was, here across a power cut) is
/// failed, not dropped: the interrogation after the restart reports it
/// with its status (87), the floor is told 69, nothing moves, and play is
/// free again once the door closes.
#[test]
fn a_pending_transfer_that_cannot_be_made_is_failed_and_reported_after_a_restart() {
    let (dir, _pty, cfg, mut s, mut host) = connected();
    let _ = drain(&mut s, &mut host);
    const IN: u8 = sas::aft::IN_HOUSE_TO_EGM;
    assert_eq!(lp72(&mut s, &mut host, 0x00, IN, 700, "FAILS-1"), (0x40, 700));
    s.toggle_door(Door::Main);
    s.power_cut();
    let mut s = start(dir.path(), &cfg);
    assert_eq!(s.machine().pending_aft(), None, "failed at power-up");
    assert_eq!(s.machine().credit(), 0);
    assert_eq!(interrogate(&mut host), (sas::aft::status::UNABLE_NOW, 0, "FAILS-1".into()));
    assert!(drain(&mut s, &mut host).contains(&0x69), "the floor is told the transfer ended");
    let failed = s.machine().events(50).unwrap().into_iter().find(|r| r.entry.kind() == "aft_failed").expect("journaled");
    assert!(matches!(&failed.entry, meters::Entry::AftFailed { transaction_id, status: 0x87, .. } if transaction_id == "FAILS-1"), "{:?}", failed.entry);
    s.toggle_door(Door::Main);
    settle(&mut s);
    // The id moved nothing: the floor may ask again, and it is made.
    assert_eq!(lp72(&mut s, &mut host, 0x00, IN, 700, "FAILS-2"), (0x40, 700));
    settle(&mut s);
    assert_eq!(s.machine().credit(), 700);
    s.machine().state().self_audit().unwrap();
}

/// Issue 71, defect 4: LP 74 said a transfer limit of 0, a transfer past
/// the credit limit was answered 87 ("unable now"), and a transfer the
/// host asked for only if locked was taken unlocked. The limit is what the
/// credit can still take; past it, 84 and nothing moves (a partial
/// transfer takes what fits); with SAS's "accept only if locked" flag and
/// no lock, 94 and nothing moves, and once locked it is made. Without the
/// flag a transfer needs no lock (decided with the digest: the lock is
/// the host's choice), only a cabinet with no round open.
#[test]
fn aft_answers_the_limit_and_the_lock_with_their_own_statuses() {
    let (_dir, _pty, _cfg, mut s, mut host) = connected();
    let _ = drain(&mut s, &mut host);
    const IN: u8 = sas::aft::IN_HOUSE_TO_EGM;
    let limit = s.machine().config().credit_limit;
    assert!(limit > 1_000, "the configuration's credit limit");
    assert_eq!(transfer_limit(&mut host), limit, "nothing on the credit yet");

    // Only if locked, and not locked: 94, nothing moves; locked, made.
    assert_eq!(lp72_flagged(&mut s, &mut host, 0x00, IN, 1_000, "LOCKED-1", sas::aft::ONLY_IF_LOCKED).0, sas::aft::status::NOT_LOCKED);
    settle(&mut s);
    assert_eq!(s.machine().credit(), 0);
    host.sync().unwrap();
    let lock = data(&host.long_poll(ADDRESS, 0x74, &[0x00, 0x00, 0x05, 0x00]).unwrap(), 0x74);
    assert_eq!(lock[5], 0x00, "locked");
    assert_eq!(lp72_flagged(&mut s, &mut host, 0x00, IN, 1_000, "LOCKED-2", sas::aft::ONLY_IF_LOCKED), (0x40, 1_000));
    settle(&mut s);
    assert_eq!(s.machine().credit(), 1_000);
    assert_eq!(transfer_limit(&mut host), limit - 1_000);

    // One cent past the limit: 84, nothing moves.
    assert_eq!(lp72(&mut s, &mut host, 0x00, IN, limit - 1_000 + 1, "PAST-LIMIT").0, sas::aft::status::OVER_TRANSFER_LIMIT);
    settle(&mut s);
    assert_eq!(s.machine().credit(), 1_000);
    // A partial transfer takes what fits, then the limit is 0 and the next
    // cent is 84.
    assert_eq!(lp72(&mut s, &mut host, 0x01, IN, limit, "PARTIAL"), (0x40, limit - 1_000));
    settle(&mut s);
    assert_eq!(s.machine().credit(), limit);
    assert_eq!(transfer_limit(&mut host), 0);
    assert_eq!(lp72(&mut s, &mut host, 0x00, IN, 1, "ONE-CENT").0, sas::aft::status::OVER_TRANSFER_LIMIT);
    settle(&mut s);
    assert_eq!(s.machine().credit(), limit);
    let t = s.machine().state().totals.clone();
    assert_eq!((t.transferencias_entrada, t.transferencias_entrada_contagem), (limit, 2));
    s.machine().state().self_audit().unwrap();
}

/// Issue 71, defect 5: LP 03–07, 0A and 0B were framed and never answered.
/// Each is ACKed and carried out: the sounds off (03), the game's own off
/// (05) and on again (04), as the cabinet reads them; the note acceptor
/// disabled (07: a note refused with the floor's reason, the credit
/// unchanged) and enabled (06); maintenance mode (0A) stops play with its
/// own text, which no attendant clears and the floor's own shutdown (01)
/// does not end: 0B ends maintenance only, 02 the shutdown. No exception
/// is told for what the floor itself asked.
#[test]
fn the_floors_sound_acceptor_and_maintenance_polls_are_carried_out() {
    let (_dir, _pty, _cfg, mut s, mut host) = connected();
    let _ = drain(&mut s, &mut host);
    use game_host::floor::Sounds;
    assert_eq!(s.floor().unwrap().sounds(), Sounds::All);
    ack(&mut s, &mut host, 0x03, &[]);
    assert_eq!(s.floor().unwrap().sounds(), Sounds::None);
    ack(&mut s, &mut host, 0x05, &[]);
    assert_eq!(s.floor().unwrap().sounds(), Sounds::NoGameSounds);
    ack(&mut s, &mut host, 0x04, &[]);
    assert_eq!(s.floor().unwrap().sounds(), Sounds::All);

    ack(&mut s, &mut host, 0x07, &[]);
    s.insert_note(1_000);
    assert_eq!(s.machine().credit(), 0, "a note taken with the acceptor disabled by the floor");
    assert!(s.message_text().unwrap().contains("aceitador de notas"), "{:?}", s.message_text());
    // The acceptor reads tickets too: none is taken to the floor either
    // (no 67 told).
    s.insert_ticket("123456789012345678");
    assert!(s.message_text().unwrap().contains("aceitador de notas"), "{:?}", s.message_text());
    ack(&mut s, &mut host, 0x06, &[]);
    s.insert_note(1_000);
    assert_eq!(s.machine().credit(), 1_000);
    assert_eq!(drain(&mut s, &mut host), [0x49], "the 10.00 note told; nothing for the floor's own polls");

    ack(&mut s, &mut host, 0x0A, &[]);
    assert!(s.block_text().unwrap().contains("MANUTENÇÃO"), "{:?}", s.block_text());
    assert!(!s.play(), "a round in maintenance mode");
    s.attendant_clear();
    assert!(s.machine().state().tilts.contains(&meters::Tilt::FloorMaintenance), "the attendant's key ended the floor's maintenance");
    ack(&mut s, &mut host, 0x01, &[]);
    ack(&mut s, &mut host, 0x0B, &[]);
    assert!(s.block_text().unwrap().contains("SAS"), "0B ended the floor's shutdown: {:?}", s.block_text());
    ack(&mut s, &mut host, 0x02, &[]);
    assert_eq!(s.block_text(), None);
    assert_eq!(drain(&mut s, &mut host), [] as [u8; 0], "an exception for what the floor asked");
    assert!(s.play(), "play after 0B and 02");
    s.machine().state().self_audit().unwrap();
}
