//! The floor numbers cash-out tickets (issue 48, sas.md §6), driven
//! through the reference host against the real game host: system
//! validation (LP 57/58, the floor assigns each number) and secure-enhanced
//! validation (LP 4C, the cabinet derives each number from the ID and
//! sequence the floor set, so the floor can recompute it).

use sas::bcd;
use sas::host::Host;

use super::{ADDRESS, connected_with, data, drain, lp71, read, settle, status};

/// LP 58 as the floor sends it: its system ID and 16 digits.
fn lp58(host: &mut Host, system: u8, number: &str) -> u8 {
    host.sync().unwrap();
    let r = host.long_poll(ADDRESS, 0x58, &[&bcd::encode(u64::from(system), 1)[..], &sas::tickets::validation_bcd(number)].concat()).unwrap();
    data(&r, 0x58)[0]
}

#[test]
fn the_floor_numbers_a_cash_out_ticket_and_alone_redeems_it() {
    let (_dir, _pty, _cfg, mut s, mut host) = connected_with("System");
    s.insert_note(2_000);
    let _ = drain(&mut s, &mut host);

    // The cash-out asks the floor (57) and waits, the credit kept and play
    // held; LP 57 tells the floor the cash-out's type and amount.
    s.cash_out();
    assert_eq!(s.machine().credit(), 2_000, "nothing moves before the floor's number");
    assert!(s.message_text().unwrap().contains("VALIDAÇÃO"), "{:?}", s.message_text());
    assert!(!s.play(), "no round while the cash-out waits");
    assert_eq!(drain(&mut s, &mut host), [0x57]);
    assert_eq!(read(&mut host, 0x57), [vec![0x00], bcd::encode(2_000, 5)].concat());

    // LP 58: system 42, sixteen digits: the ticket is issued under that
    // number, printed, told (3D) and read back (LP 4D).
    assert_eq!(lp58(&mut host, 42, "1234567890123456"), 0x00);
    settle(&mut s);
    assert_eq!(s.machine().credit(), 0);
    assert_eq!(s.last_ticket(), Some("421234567890123456"));
    assert!(s.machine().state().tickets["421234567890123456"].printed);
    assert_eq!(drain(&mut s, &mut host).first(), Some(&0x3D));
    host.sync().unwrap();
    let d = data(&host.long_poll(ADDRESS, 0x4D, &[0x00]).unwrap(), 0x4D);
    assert_eq!((d[24], sas::tickets::validation_digits(&d[9..17]).unwrap()), (0x42, "1234567890123456".to_owned()));
    // A late or repeated number: no cash-out waits.
    assert_eq!(lp58(&mut host, 42, "1234567890123457"), 0x80);
    assert_eq!(read(&mut host, 0x57)[0], 0x80);

    // The player brings it back: only the floor's word redeems it, once.
    s.insert_ticket("421234567890123456");
    assert_eq!(drain(&mut s, &mut host), [0x67]);
    assert_eq!(lp71(&mut host, 0x00, 2_000, "421234567890123456"), (0x40, 2_000));
    settle(&mut s);
    assert_eq!(s.machine().credit(), 2_000);
    let _ = drain(&mut s, &mut host);
    s.insert_ticket("421234567890123456");
    assert_eq!(lp71(&mut host, 0x00, 2_000, "421234567890123456"), (0x40, 2_000));
    settle(&mut s);
    assert_eq!(status(&mut host), (0x83, 0), "a floor that pays it twice: the cabinet refuses");
    assert_eq!(s.machine().credit(), 2_000);
    let _ = drain(&mut s, &mut host);

    // Denied (system ID 00): nothing moves, the player is told.
    s.cash_out();
    assert_eq!(lp58(&mut host, 0, "0000000000000000"), 0x00);
    settle(&mut s);
    assert_eq!(s.machine().credit(), 2_000);
    assert!(s.message_text().unwrap().contains("não validou"), "{:?}", s.message_text());

    // The credit changed after the floor was asked (a note): the floor's
    // number is for another amount, refused, nothing moves.
    s.cash_out();
    s.insert_note(1_000);
    assert_eq!(lp58(&mut host, 42, "5555555555555555"), 0x00);
    settle(&mut s);
    assert_eq!(s.machine().credit(), 3_000);
    assert!(!s.machine().state().tickets.contains_key("425555555555555555"));

    // No answer in time (3 s here): given up, nothing moved; a late number
    // finds no cash-out.
    s.cash_out();
    std::thread::sleep(std::time::Duration::from_millis(3_100));
    s.tend_floor();
    assert!(s.message_text().unwrap().contains("não validou"), "{:?}", s.message_text());
    assert_eq!(lp58(&mut host, 42, "7777777777777777"), 0x80);
    settle(&mut s);
    assert_eq!(s.machine().credit(), 3_000);
    assert!(s.play(), "play resumes once the cash-out is given up");

    let st = s.machine().state();
    assert_eq!((st.totals.bilhetes_codificados_pagos, st.totals.bilhetes_pagos_contagem), (2_000, 1));
    assert_eq!((st.totals.bilhetes_codificados_entrados, st.totals.bilhetes_entrados_contagem), (2_000, 1));
    st.self_audit().unwrap();
}

/// LP 4C as the floor sends it (the ID and sequence, 3 bytes each, least
/// significant first); the reply's data.
fn lp4c(host: &mut Host, id: u32, sequence: u32) -> Vec<u8> {
    host.sync().unwrap();
    data(&host.long_poll(ADDRESS, 0x4C, &sas::validation::reply_4c(id, sequence)).unwrap(), 0x4C)
}

/// Issue 48, sas.md §6 (secure-enhanced validation): LP A0 says so; before
/// the floor sets the validation ID no ticket prints, the credit is kept,
/// and the floor is told 3F; LP 4C sets the ID and sequence (echoed,
/// recorded in critical memory, read back with ID 0); each ticket's number
/// is then the one the floor recomputes from them (the vectors are an
/// independent implementation's), reported by 3D and LP 4D with system ID
/// 00, and redeemed only on the floor's word.
#[test]
fn the_cabinet_numbers_tickets_from_the_floors_validation_id() {
    let (_dir, _pty, _cfg, mut s, mut host) = connected_with("SecureEnhanced");
    s.insert_note(2_000);
    let _ = drain(&mut s, &mut host);
    host.sync().unwrap();
    let a0 = data(&host.long_poll(ADDRESS, 0xA0, &[0x00, 0x00]).unwrap(), 0xA0);
    assert_eq!(a0[2] & 0b0110_0000, 0b0100_0000, "validation style: secure-enhanced");

    s.cash_out();
    assert_eq!(s.machine().credit(), 2_000, "nothing moves without a validation ID");
    assert!(s.message_text().unwrap().contains("identificação de validação"), "{:?}", s.message_text());
    assert_eq!(drain(&mut s, &mut host), [0x3F]);
    assert_eq!(lp4c(&mut host, 0, 0), [0; 6], "ID 0 reads: none set");

    assert_eq!(lp4c(&mut host, 0x12_3456, 0), sas::validation::reply_4c(0x12_3456, 0), "echoed");
    settle(&mut s);
    assert_eq!(s.machine().state().secure_validation.map(|v| (v.id, v.sequence)), Some((0x12_3456, 0)));
    s.cash_out();
    assert_eq!(s.last_ticket(), Some("007648465487018968"), "ID 123456, sequence 1");
    assert_eq!(s.machine().credit(), 0);
    assert_eq!(drain(&mut s, &mut host).first(), Some(&0x3D));
    host.sync().unwrap();
    let d = data(&host.long_poll(ADDRESS, 0x4D, &[0x00]).unwrap(), 0x4D);
    assert_eq!((d[24], sas::tickets::validation_digits(&d[9..17]).unwrap()), (0x00, "7648465487018968".to_owned()));
    assert_eq!(lp4c(&mut host, 0, 0), sas::validation::reply_4c(0x12_3456, 1), "the sequence used");

    // The floor recomputed the number and redeems it here, once.
    s.insert_ticket("007648465487018968");
    assert_eq!(drain(&mut s, &mut host), [0x67]);
    assert_eq!(lp71(&mut host, 0x00, 2_000, "007648465487018968"), (0x40, 2_000));
    settle(&mut s);
    assert_eq!(s.machine().credit(), 2_000);
    let _ = drain(&mut s, &mut host);
    s.cash_out();
    assert_eq!(s.last_ticket(), Some("003375462860209840"), "sequence 2");
    let st = s.machine().state();
    assert_eq!((st.totals.bilhetes_codificados_pagos, st.totals.bilhetes_pagos_contagem), (4_000, 2));
    st.self_audit().unwrap();
}
