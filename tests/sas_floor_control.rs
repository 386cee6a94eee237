//! The floor's control polls of issue 71 through the pty, against the real
//! game host: the note values the acceptor takes (LP 08, and its
//! "disabled after each note"), a game disabled and enabled (LP 09, read
//! back by LP 56), the game delay (LP 2E), the extended validation status
//! (LP 7B), the ticket data (LP 7D) and a game's extended information
//! (LP B5).

use game_host::session::Session;
use sas::bcd;
use sas::host::Host;

use super::{ADDRESS, ASSET, ack, connected, data, drain, play_round, read};

#[test]
fn the_floors_note_values_games_and_game_delay_are_carried_out() {
    let (_dir, _pty, _cfg, mut s, mut host) = connected();
    let _ = drain(&mut s, &mut host);
    let credit = |s: &Session| s.machine().credit();

    // LP 08: 5 and 20 only, the acceptor staying enabled (01).
    ack(&mut s, &mut host, 0x08, &[&sas::codes::bills_mask(&[500, 2_000])[..], &[0x01]].concat());
    s.insert_note(1_000);
    assert_eq!(credit(&s), 0, "10.00 is not a value the floor lets in");
    assert!(s.message_text().unwrap().contains("não aceita notas de"), "{:?}", s.message_text());
    s.insert_note(2_000);
    assert_eq!(credit(&s), 2_000);
    // Every value, the acceptor disabled after each note (00): one note,
    // then none until the floor's LP 06.
    let every = [500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000];
    ack(&mut s, &mut host, 0x08, &[&sas::codes::bills_mask(&every)[..], &[0x00]].concat());
    s.insert_note(1_000);
    assert_eq!(credit(&s), 3_000);
    s.tend_floor();
    s.insert_note(1_000);
    assert_eq!(credit(&s), 3_000, "disabled after the note");
    ack(&mut s, &mut host, 0x06, &[]);
    s.insert_note(1_000);
    assert_eq!(credit(&s), 4_000);
    // A reserved action byte: no ACK, nothing changes.
    host.sync().unwrap();
    assert_eq!(host.long_poll(ADDRESS, 0x08, &[0xFF, 0xFF, 0xFF, 0x00, 0x07]).unwrap().bytes(), [] as [u8; 0]);

    // LP 09: game 1 disabled: no round of it, and LP 56 leaves it out;
    // enabled again, it plays. A game the cabinet does not have: no ACK.
    let enabled = |host: &mut Host| {
        let d = read(host, 0x56);
        d[2..].chunks(2).map(|c| bcd::decode(c).unwrap()).collect::<Vec<u64>>()
    };
    let games = enabled(&mut host);
    assert_eq!(games[0], 1);
    ack(&mut s, &mut host, 0x09, &[0x00, 0x01, 0x00]);
    assert!(!s.play(), "the floor disabled game 1");
    assert!(s.message_text().unwrap().contains("desactivou este jogo"), "{:?}", s.message_text());
    s.tend_floor();
    assert_eq!(enabled(&mut host), games[1..], "LP 56 without game 1");
    ack(&mut s, &mut host, 0x09, &[0x00, 0x01, 0x01]);
    s.tend_floor();
    assert_eq!(enabled(&mut host), games);
    play_round(&mut s);
    host.sync().unwrap();
    assert_eq!(host.long_poll(ADDRESS, 0x09, &[0x99, 0x99, 0x00]).unwrap().bytes(), [] as [u8; 0], "no game 9999");

    // LP 2E: no game for 1.5 s (0015 × 100 ms), then play.
    ack(&mut s, &mut host, 0x2E, &bcd::encode(15, 2));
    assert!(!s.play(), "delayed");
    assert!(s.message_text().unwrap().contains("ADIA"), "{:?}", s.message_text());
    std::thread::sleep(std::time::Duration::from_millis(1_600));
    play_round(&mut s);
    let _ = drain(&mut s, &mut host);
    s.machine().state().self_audit().unwrap();
}

#[test]
fn the_floor_reads_the_ticket_settings_and_a_games_extended_information() {
    let (_dir, _pty, _cfg, mut s, mut host) = connected();
    let _ = drain(&mut s, &mut host);

    // LP 7B: the asset number, the printer as cash-out device and ticket
    // redemption; the floor's changes are not taken (the operator's).
    host.sync().unwrap();
    let r = host.variable_poll(ADDRESS, 0x7B, &[0xFF, 0xFF, 0x02, 0x00, 0x00, 0x30, 0x00, 0x60]).unwrap();
    let d = data(&r, 0x7B);
    assert_eq!(d, [&[0x0A][..], &ASSET.to_le_bytes(), &[0x21, 0x00, 0x00, 0x00, 0x00, 0x00]].concat());

    // LP 7D: the floor's ticket data is kept (01), and the query says so.
    let ticket = sas::ticket_data::TicketData {
        host_id: 7,
        expiry_days: 30,
        location: Some("CASINO DA POVOA".into()),
        address1: Some("AV. DOS DESCOBRIMENTOS".into()),
        address2: None,
    };
    host.sync().unwrap();
    let r = host.variable_poll(ADDRESS, 0x7D, &sas::ticket_data::request_7d(&ticket)[1..]).unwrap();
    assert_eq!(data(&r, 0x7D), [0x01]);
    std::thread::sleep(std::time::Duration::from_millis(20));
    s.tend_floor();
    assert_eq!(s.floor().unwrap().ticket_data(), &ticket);
    host.sync().unwrap();
    assert_eq!(data(&host.variable_poll(ADDRESS, 0x7D, &[]).unwrap(), 0x7D), [0x01], "the query: the floor's data is held");

    // LP B5: game 1's largest bet, no progressive, its name and its
    // paytable's (LP 53's paytable ID), no wager categories.
    host.sync().unwrap();
    let config = data(&host.long_poll(ADDRESS, 0x53, &[0x00, 0x01]).unwrap(), 0x53);
    host.sync().unwrap();
    let d = data(&host.long_poll(ADDRESS, 0xB5, &[0x00, 0x01]).unwrap(), 0xB5);
    assert_eq!(usize::from(d[0]), d.len() - 1);
    assert_eq!(&d[1..3], [0x00, 0x01]);
    assert_eq!(bcd::decode(&d[3..5]).unwrap(), u64::from(config[8]), "the largest bet, as LP 53 gives it");
    assert_eq!(&d[5..10], [0, 0, 0, 0, 0], "no SAS progressive");
    let name_len = usize::from(d[10]);
    let name = String::from_utf8(d[11..11 + name_len].to_vec()).unwrap();
    assert_eq!(name, s.games()[0].id());
    let at = 11 + name_len;
    assert_eq!(&d[at..at + 7], [&[6][..], &config[12..18]].concat(), "the paytable ID of LP 53");
    assert_eq!(&d[at + 7..], [0x00, 0x00], "no wager categories (LP B4)");
    host.sync().unwrap();
    assert_eq!(host.long_poll(ADDRESS, 0xB5, &[0x99, 0x99]).unwrap().bytes(), [] as [u8; 0], "no game 9999");
}
