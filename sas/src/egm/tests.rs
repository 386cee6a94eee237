//! The EGM end of a link, driven byte by byte as a host writes.

use super::*;
use crate::tickets::status;
use crate::wire::{Decoder, mark_message};

/// A host writing into the test transport: each message in the marked
/// grammar, its bytes 0.573 ms apart, messages 40 ms apart; what the
/// EGM answered to each.
struct Host {
    egm: Egm,
    decoder: Decoder,
    now_us: u64,
}

impl Host {
    fn new(egm: Egm) -> Host {
        Host { egm, decoder: Decoder::new(), now_us: 0 }
    }

    fn send(&mut self, message: &[u8]) -> Option<Vec<u8>> {
        self.now_us += 40_000;
        let mut reply = None;
        for b in mark_message(message) {
            self.now_us += 573;
            if let Some(byte) = self.decoder.push(b).unwrap() {
                reply = self.egm.on_byte(byte, self.now_us).or(reply);
            }
        }
        reply
    }
}

fn with_credit(credit: u64) -> Arc<Snapshot> {
    Arc::new(Snapshot { accounting_denom: 1, credit, ..Snapshot::default() })
}

#[test]
fn a_host_session_through_the_marked_transport() {
    let mut egm = Egm::new(1).unwrap();
    egm.publish(with_credit(1_250));
    egm.raise(Exception::new(0x11, 7));
    egm.raise(Exception::new(0x51, 8));
    let mut host = Host::new(egm);
    // The hand-pay pending flag first, again on a repeated poll.
    assert_eq!(host.send(&[0x81]), Some(vec![0x51]));
    assert_eq!(host.send(&[0x81]), Some(vec![0x51]), "an implied NACK: the same reply");
    assert!(host.egm.take_reported().is_empty());
    // A long poll acknowledges it and is answered from the snapshot.
    assert_eq!(host.send(&[0x01, 0x1A]), Some(vec![0x01, 0x1A, 0x00, 0x00, 0x12, 0x50, 0x67, 0x08]));
    assert_eq!(host.egm.take_reported(), [8]);
    assert_eq!(host.send(&[0x81]), Some(vec![0x11]));
    // A sync poll acknowledges the door event; then nothing is left.
    assert_eq!(host.send(&[0x80]), None);
    assert_eq!(host.egm.take_reported(), [7]);
    assert_eq!(host.send(&[0x81]), Some(vec![0x00]));
    // Another address's polls get no reply.
    assert_eq!(host.send(&[0x82]), None);
    assert_eq!(host.send(&[0x02, 0x1A]), None);
    // Shutdown with its CRC: an ACK, and play disabled; startup again.
    assert_eq!(host.send(&crate::crc::sealed(&[0x01, 0x01])), Some(vec![0x01]));
    assert!(!host.egm.play_enabled());
    assert_eq!(host.send(&crate::crc::sealed(&[0x01, 0x02])), Some(vec![0x01]));
    assert!(host.egm.play_enabled());
    // A corrupted shutdown: a NACK, and play stays enabled.
    let mut bad = crate::crc::sealed(&[0x01, 0x01]);
    bad[3] ^= 0xFF;
    assert_eq!(host.send(&bad), Some(vec![0x81]));
    assert!(host.egm.play_enabled());
    let events = host.egm.take_events();
    assert_eq!(
        events.iter().filter(|e| matches!(e, Event::PlayEnabled(_))).cloned().collect::<Vec<_>>(),
        [Event::PlayEnabled(false), Event::PlayEnabled(true)]
    );
    // The next poll reads the snapshot the host published last.
    host.egm.publish(with_credit(99_999_999));
    assert_eq!(host.send(&[0x01, 0x1A]).map(|r| r[2..6].to_vec()), Some(vec![0x99, 0x99, 0x99, 0x99]));
    assert!(host.egm.pending_exceptions().is_empty());
}

#[test]
fn the_rom_signature_is_acked_then_served_at_a_general_poll_before_exceptions() {
    let mut host = Host::new(Egm::new(1).unwrap());
    host.egm.raise(Exception::new(0x11, 1));
    // sas.md §2's frame: LP 21, seed 0x1234.
    assert_eq!(host.send(&[0x01, 0x21, 0x34, 0x12, 0x0D, 0xA7]), Some(vec![0x01]));
    assert_eq!(host.egm.take_events(), [Event::SignatureAsked { seed: 0x1234 }]);
    let signature = crate::signature::of_images(0x1234, &[b"IMAGE-A", b"IMAGE-B"]);
    host.egm.signature_ready(signature);
    let delayed = crate::crc::sealed(&[0x01, 0x21, 0x79, 0xC5]);
    assert_eq!(host.send(&[0x81]), Some(delayed.clone()));
    assert_eq!(host.send(&[0x81]), Some(delayed), "not taken: again");
    assert_eq!(host.send(&[0x80]), None);
    assert_eq!(host.send(&[0x81]), Some(vec![0x11]), "taken: the exceptions follow");
}

#[test]
fn real_time_mode_sends_the_events_data_in_a_frame() {
    let mut host = Host::new(Egm::new(3).unwrap());
    assert_eq!(host.send(&crate::crc::sealed(&[0x03, 0x0E, 0x01])), Some(vec![0x03]));
    // Game ended, 12.50 won at the cent: 7F with its 4-BCD win.
    host.egm.raise(Exception::new(0x7F, 9).with_data(vec![0x00, 0x00, 0x12, 0x50]));
    let reply = host.send(&[0x83]).unwrap();
    assert_eq!(reply, crate::crc::sealed(&[0x03, 0xFF, 0x7F, 0x00, 0x00, 0x12, 0x50]));
    assert_eq!(host.send(&[0x80]), None);
    assert_eq!(host.send(&[0x83]), Some(vec![0x00]));
    assert_eq!(host.egm.take_reported(), [9]);
}

#[test]
fn the_clock_is_set_by_7f_and_read_by_7e() {
    let mut host = Host::new(Egm::new(1).unwrap());
    host.egm.tick(0, 1_000_000_000);
    let set = crate::crc::sealed(&[0x01, 0x7F, 0x11, 0x27, 0x20, 0x26, 0x17, 0x56, 0x19]);
    assert_eq!(host.send(&set), Some(vec![0x01]));
    assert!(host.egm.take_events().contains(&Event::ClockSet { unix: 1_795_802_179 }));
    // Ten seconds later by the wall, the floor's clock has moved ten.
    host.egm.tick(host.now_us, 1_000_000_010);
    let read = host.send(&[0x01, 0x7E]).unwrap();
    assert_eq!(&read[2..9], [0x11, 0x27, 0x20, 0x26, 0x17, 0x56, 0x29]);
    // A date that does not exist: a NACK, the clock unchanged.
    let bad = crate::crc::sealed(&[0x01, 0x7F, 0x02, 0x30, 0x20, 0x26, 0x00, 0x00, 0x00]);
    assert_eq!(host.send(&bad), Some(vec![0x81]));
}

#[test]
fn the_link_comes_up_on_sync_then_poll_and_chirps_after_five_silent_seconds() {
    let mut host = Host::new(Egm::new(1).unwrap());
    assert_eq!(host.send(&[0x81]), Some(vec![0x00]));
    assert!(!host.egm.link_up(), "a poll alone after boot does not bring it up");
    host.send(&[0x80]);
    host.send(&[0x81]);
    assert!(host.egm.link_up());
    assert_eq!(host.egm.take_events(), [Event::LinkUp(true)]);
    let last = host.now_us;
    // Silence: no chirp before 5 s, then one every 200 ms, and down.
    assert_eq!(host.egm.tick(last + 4_999_000, 0), None);
    assert!(host.egm.link_up());
    assert_eq!(host.egm.tick(last + 5_000_000, 0), Some(0x01));
    assert!(!host.egm.link_up());
    assert_eq!(host.egm.take_events(), [Event::LinkUp(false)]);
    assert_eq!(host.egm.tick(last + 5_100_000, 0), None);
    assert_eq!(host.egm.tick(last + 5_200_000, 0), Some(0x01));
    // Polls again: the chirps stop, the link comes back up.
    host.now_us = last + 6_000_000;
    host.send(&[0x80]);
    host.send(&[0x81]);
    assert!(host.egm.link_up());
    assert_eq!(host.egm.tick(host.now_us + 1_000_000, 0), None);
}

/// LP 71 as a floor sends it: transfer code, amount, parsing code 00,
/// the validation as 9 BCD bytes.
fn lp71(code: u8, amount: u64, validation: &str) -> Vec<u8> {
    let mut d = vec![code];
    d.extend(crate::bcd::encode(amount, 5));
    d.push(0x00);
    d.extend(crate::tickets::validation_bcd(validation));
    let mut m = vec![0x01, 0x71, d.len() as u8];
    m.extend(d);
    crate::crc::sealed(&m)
}

fn status_of(reply: &[u8]) -> u8 {
    reply[3]
}

#[test]
fn a_ticket_is_redeemed_once_on_the_floors_word() {
    let v = "001234567890123456";
    let mut host = Host::new(Egm::new(1).unwrap());
    assert!(host.egm.ticket_inserted(v));
    assert!(!host.egm.ticket_inserted("9"), "one ticket at a time");
    // 67, the floor reads the ticket (LP 70: in escrow, its number).
    assert_eq!(host.send(&[0x81]), Some(vec![0x67]));
    let r70 = host.send(&[0x01, 0x70]).unwrap();
    assert_eq!(&r70[2..5], [0x10, 0x00, 0x00], "len 16, in escrow, amount 0…");
    assert_eq!(&r70[10..19], crate::tickets::validation_bcd(v).as_slice());
    // Redeem 25.00: pending, and the game host is asked once, however
    // often the floor repeats it.
    assert_eq!(status_of(&host.send(&lp71(0x00, 2_500, v)).unwrap()), status::PENDING);
    assert_eq!(status_of(&host.send(&lp71(0x00, 2_500, v)).unwrap()), status::PENDING, "the same poll again: resent");
    host.send(&[0x80]);
    assert_eq!(status_of(&host.send(&lp71(0x00, 2_500, v)).unwrap()), status::PENDING, "a retry: no second event");
    let asked: Vec<Event> = host.egm.take_events().into_iter().filter(|e| matches!(e, Event::RedeemTicket { .. })).collect();
    assert_eq!(asked, [Event::RedeemTicket { validation: v.into(), amount: 2_500 }]);
    // Committed: LP 71 FF reports it redeemed; an accept again gets the
    // same status and no second event.
    host.egm.ticket_done(v, 2_500, status::REDEEMED);
    host.send(&[0x80]);
    let st = host.send(&crate::crc::sealed(&[0x01, 0x71, 0x01, 0xFF])).unwrap();
    assert_eq!((status_of(&st), crate::bcd::decode(&st[4..9]).unwrap()), (status::REDEEMED, 2_500));
    assert_eq!(status_of(&host.send(&lp71(0x00, 2_500, v)).unwrap()), status::REDEEMED);
    assert!(host.egm.take_events().is_empty());
    // An answer for a ticket not in escrow: C0, nothing asked.
    host.send(&[0x80]);
    assert_eq!(status_of(&host.send(&lp71(0x00, 100, "000000000000000077")).unwrap()), 0xC0);
    assert!(host.egm.take_events().is_empty());
}

#[test]
fn a_ticket_the_floor_refuses_goes_back_with_its_reason() {
    let v = "000000000000000042";
    let mut host = Host::new(Egm::new(1).unwrap());
    host.egm.ticket_inserted(v);
    assert_eq!(status_of(&host.send(&lp71(0x84, 0, v)).unwrap()), status::PENDING);
    assert_eq!(host.egm.take_events(), [Event::TicketRefused { validation: v.into(), code: 0x84 }]);
    // Restricted credit is not held here: refused by the cabinet.
    host.egm.ticket_done(v, 0, 0x84);
    host.egm.ticket_inserted("000000000000000005");
    host.send(&[0x80]);
    host.send(&lp71(0x01, 500, "0000000000000005"));
    let events: Vec<Event> = host.egm.take_events().into_iter().filter(|e| !matches!(e, Event::LinkUp(_))).collect();
    assert_eq!(events, [Event::TicketRefused { validation: "000000000000000005".into(), code: status::REJECTED_BY_EGM }]);
}

#[test]
fn b0_reads_one_denominations_meters() {
    let mut s = Snapshot { accounting_denom: 1, player_denoms: vec![1, 5], ..Snapshot::default() };
    s.denominations.insert(5, crate::snapshot::Scope { coin_in: 4_000, ..Default::default() });
    let mut host = Host::new(Egm::new(1).unwrap());
    host.egm.publish(Arc::new(s));
    // B0, the nickel (code 02), LP 11: the nickel's coin in.
    let reply = host.send(&crate::crc::sealed(&[0x01, 0xB0, 0x02, 0x02, 0x11])).unwrap();
    assert_eq!(reply, crate::crc::sealed(&[0x01, 0xB0, 0x06, 0x02, 0x11, 0x00, 0x00, 0x40, 0x00]));
    // A denomination the cabinet does not offer: no reply.
    host.send(&[0x80]);
    assert_eq!(host.send(&crate::crc::sealed(&[0x01, 0xB0, 0x02, 0x04, 0x11])), None);
}

/// Issue 71, defect 2: LP A0's reply is 12 bytes on the wire (address,
/// command, game, features 1–3, three reserved bytes, CRC), as a SAS 6.02
/// EGM answers; it was 11, and a host reading the fixed length refused it.
#[test]
fn lp_a0_is_twelve_bytes_on_the_wire() {
    let mut egm = Egm::new(1).unwrap();
    egm.publish(with_credit(0));
    let mut host = Host::new(egm);
    let reply = host.send(&crate::crc::sealed(&[0x01, 0xA0, 0x00, 0x00])).unwrap();
    assert_eq!(reply.len(), 12, "{reply:02X?}");
    assert_eq!(reply, crate::crc::sealed(&[0x01, 0xA0, 0x00, 0x00, 0x80, 0xC8, 0x00, 0x00, 0x00, 0x00]));
}

/// Issue 71, defect 5: LP 03–07, 0A and 0B were framed and never answered.
/// Each is ACKed (sas.md §6) and handed to the game host as what it asks;
/// one with a bad CRC is NACKed and asks nothing.
#[test]
fn sound_acceptor_and_maintenance_polls_are_acked_and_handed_on() {
    let mut host = Host::new(Egm::new(1).unwrap());
    host.egm.publish(with_credit(0));
    for (command, event) in [
        (0x03, Event::Sounds(Sounds::None)),
        (0x05, Event::Sounds(Sounds::NoGameSounds)),
        (0x04, Event::Sounds(Sounds::All)),
        (0x07, Event::NoteAcceptor(false)),
        (0x06, Event::NoteAcceptor(true)),
        (0x0A, Event::Maintenance(true)),
        (0x0B, Event::Maintenance(false)),
    ] {
        assert_eq!(host.send(&crate::crc::sealed(&[0x01, command])), Some(vec![0x01]), "LP {command:02X}");
        let asked: Vec<Event> = host.egm.take_events().into_iter().filter(|e| !matches!(e, Event::LinkUp(_))).collect();
        assert_eq!(asked, [event], "LP {command:02X}");
    }
    let mut bad = crate::crc::sealed(&[0x01, 0x07]);
    bad[3] ^= 0xFF;
    assert_eq!(host.send(&bad), Some(vec![0x81]));
    assert!(host.egm.take_events().iter().all(|e| matches!(e, Event::LinkUp(_))), "a corrupted LP 07 disabled the acceptor");
}

/// A long poll of variable length, `data` with its length byte first.
fn variable(command: u8, data: &[u8]) -> Vec<u8> {
    crate::crc::sealed(&[vec![0x01, command], data.to_vec()].concat())
}

/// An LP 72 reply's transfer status.
fn transfer_status(reply: &[u8]) -> u8 {
    reply[4]
}

#[test]
fn lp_73_registers_the_cabinet_only_once_the_core_has_it_and_72_checks_its_key() {
    use crate::registration::{Registration, request_73, status as reg};
    let asset = 4242;
    let key = [0x5A; 20];
    let snapshot = |registration: Registration| {
        Arc::new(Snapshot {
            accounting_denom: 1,
            credit_limit: 1_000_000,
            idle: true,
            asset_number: asset,
            aft_registration: registration,
            ..Snapshot::default()
        })
    };
    let mut host = Host::new(Egm::new(1).unwrap());
    host.egm.publish(snapshot(Registration::default()));
    let read = host.send(&variable(0x73, &request_73(0xFF, 0, [0; 20], 0))).unwrap();
    assert_eq!(&read[2..8], [0x1D, reg::NOT_REGISTERED, 0x92, 0x10, 0, 0], "not registered, the cabinet's asset");

    // Initialised: handed to the host, and no reply until the core has it.
    host.send(&[0x81]);
    assert_eq!(host.send(&variable(0x73, &request_73(0x00, 0, [0; 20], 0))), None);
    host.send(&[0x81]);
    assert_eq!(host.send(&variable(0x73, &request_73(0x00, 0, [0; 20], 0))), None, "asked again: still not journaled");
    let ready = Registration { status: reg::READY, ..Registration::default() };
    assert_eq!(
        host.egm.take_events().iter().filter(|e| matches!(e, Event::AftRegister(_))).cloned().collect::<Vec<_>>(),
        [Event::AftRegister(ready)],
        "handed on once"
    );
    host.egm.publish(snapshot(ready));
    host.send(&[0x81]);
    assert_eq!(host.send(&variable(0x73, &request_73(0x00, 0, [0; 20], 0))).unwrap()[3], reg::READY);

    // Registered under the cabinet's asset number with the floor's key.
    host.send(&[0x81]);
    assert_eq!(host.send(&variable(0x73, &request_73(0x01, asset, key, 9))), None);
    let registered = Registration { status: reg::REGISTERED, asset, key, pos_id: 9 };
    assert_eq!(host.egm.take_events(), [Event::AftRegister(registered)]);
    host.egm.publish(snapshot(registered));
    host.send(&[0x81]);
    let r = host.send(&variable(0x73, &request_73(0x01, asset, key, 9))).unwrap();
    assert_eq!((r[3], &r[8..28]), (reg::REGISTERED, &key[..]));

    // LP 72: another key (89), another asset (93), no asset (93); the
    // registered key and no key at all are both taken.
    let transfer = |host: &mut Host, id: &str, asset: u32, key: [u8; 20]| {
        host.send(&[0x81]);
        let d = crate::aft::request_72_keyed(0x00, crate::aft::IN_HOUSE_TO_EGM, 500, id, asset, 0, key);
        host.send(&variable(0x72, &[vec![d.len() as u8], d].concat()))
    };
    assert_eq!(transfer(&mut host, "K1", asset, [0x5B; 20]).map(|r| transfer_status(&r)), Some(crate::aft::status::KEY_MISMATCH));
    assert_eq!(transfer(&mut host, "K2", asset + 1, key).map(|r| transfer_status(&r)), Some(crate::aft::status::ASSET_MISMATCH));
    assert_eq!(transfer(&mut host, "K3", 0, [0; 20]).map(|r| transfer_status(&r)), Some(crate::aft::status::ASSET_MISMATCH));
    host.egm.take_events();
    assert_eq!(transfer(&mut host, "K4", asset, key), None, "handed to the host, answered once journaled");
    assert!(host.egm.take_events().contains(&Event::AftTransfer { id: "K4".into(), to_host: false, cents: 500 }));

    // A change the core refuses: the floor's next ask gets the
    // registration as it stands.
    host.send(&[0x81]);
    assert_eq!(host.send(&variable(0x73, &request_73(0x80, 0, [0; 20], 0))), None);
    host.egm.aft_registration_refused(Registration::default());
    host.send(&[0x81]);
    assert_eq!(host.send(&variable(0x73, &request_73(0x80, 0, [0; 20], 0))).unwrap()[3], reg::REGISTERED);

    // A cabinet not registered: a keyed transfer is refused (88).
    let mut host = Host::new(Egm::new(1).unwrap());
    host.egm.publish(snapshot(Registration::default()));
    assert_eq!(transfer(&mut host, "K5", asset, key).map(|r| transfer_status(&r)), Some(crate::aft::status::NOT_REGISTERED));
}
