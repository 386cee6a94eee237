//! A floor's ticket through the note acceptor (issue 70, SAS LP 70/71):
//! the real game host with its SAS line on one pty (the reference host at
//! the other end) and the emulated ID-003 acceptor on another. The ticket
//! is held in escrow while the floor decides; the floor's word stacks it
//! (journaled at the floor's amount before the stack command) and its
//! credit is committed at the acceptor's vend valid, the floor told
//! "redeemed" only then; a refusal or a silence gives it back. Power cuts
//! of the acceptor and of the cabinet between the floor's word and the
//! credit: credited once, or given back and told so — never both.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use game_host::boot::{BootOptions, boot};
use game_host::session::Session;
use peripherals::id003::Denomination;
use sas::host::Host;
use sas::transport::{Pty, SerialLine};

use super::{ADDRESS, data, drain, lp71, settle, status};

#[path = "../host/tests/host/device_end.rs"]
mod device_end;
use device_end::AcceptorEnd;

fn config(dir: &Path, sas: &Path, acceptor: &Path) -> PathBuf {
    let more = format!(
        "    sas: Some((port: {:?}, address: {ADDRESS}, line: Pty, ticket_timeout_s: 3)),\n    \
         acceptor: Some((port: {:?}, notes: [(code: 0x62, cents: 500)], poll_ms: 20)),\n    autoplay_max:",
        sas.display().to_string(),
        acceptor.display().to_string()
    );
    super::test_config::write(dir, &super::test_config::text(dir).replacen("    autoplay_max:", &more, 1))
}

fn start(dir: &Path, config: &Path) -> Session {
    boot(&BootOptions { config: config.to_owned(), db: dir.join("egm.sqlite"), lab_seed: Some(70), demo: false }).unwrap()
}

/// Tends the acceptor and the floor until `done` holds (10 s at most).
fn tend_until(s: &mut Session, end: &AcceptorEnd, what: &str, mut done: impl FnMut(&Session, &peripherals::id003::Emulator) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        s.tend_acceptor();
        s.tend_floor();
        if end.with(|e| done(s, e)) {
            return;
        }
        assert!(Instant::now() < deadline, "never: {what} ({:?})", end.with(|e| format!("{e:?}")));
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn ticket(v: &str) -> Denomination {
    Denomination::Ticket(v.to_owned())
}

/// Feeds the ticket and waits until the floor has it (67 told, LP 70 reads it in escrow).
fn fed_to_the_floor(s: &mut Session, end: &AcceptorEnd, host: &mut Host, v: &str) {
    // What the last ticket's end told (68) is taken first.
    let _ = drain(s, host);
    end.with(|e| e.insert(ticket(v)));
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut told = Vec::new();
    while !told.contains(&0x67) {
        s.tend_acceptor();
        told.extend(drain(s, host));
        assert!(Instant::now() < deadline, "ticket {v} never reached the floor");
    }
    assert_eq!(told, [0x67], "ticket {v}");
    assert!(s.message_text().is_some_and(|m| m.contains("VALIDAÇÃO")), "{:?}", s.message_text());
    host.sync().unwrap();
    let r70 = data(&host.read_poll(ADDRESS, 0x70).unwrap(), 0x70);
    assert_eq!((r70[1], &r70[8..]), (0x00, sas::tickets::validation_bcd(v).as_slice()), "in escrow");
}

#[test]
fn a_floor_ticket_in_the_acceptor_is_stacked_on_the_floors_word_and_credited_once() {
    let dir = tempfile::tempdir().unwrap();
    let pty = Pty::open().unwrap();
    let end = AcceptorEnd::new();
    let cfg = config(dir.path(), &pty.path, &end.path);
    let mut s = start(dir.path(), &cfg);
    let mut host = Host::new(SerialLine::marked(pty.master.try_clone().unwrap()));
    tend_until(&mut s, &end, "the acceptor enabled", |_, e| !e.inhibited());
    let _ = drain(&mut s, &mut host);

    // Redeemed: held while the floor decides, stacked on its word, credited
    // at the vend valid; the floor reads "pending" until then, "redeemed"
    // after.
    let a = "123456789012345678";
    fed_to_the_floor(&mut s, &end, &mut host, a);
    assert_eq!(lp71(&mut host, 0x00, 2_500, a), (0x40, 2_500), "pending");
    settle(&mut s);
    assert_eq!(s.machine().floor_ticket_stacking(), Some((a, 2_500)), "journaled before the stack command");
    assert_eq!(s.machine().credit(), 0);
    tend_until(&mut s, &end, "stacked and credited", |s, e| e.settled() && s.machine().credit() == 2_500);
    assert_eq!(end.with(|e| e.stacked.clone()), [ticket(a)]);
    assert_eq!(status(&mut host), (0x00, 2_500));
    assert!(drain(&mut s, &mut host).contains(&0x68));

    // Refused by the floor: given back, nothing credited, the player told why.
    let b = "223456789012345678";
    fed_to_the_floor(&mut s, &end, &mut host, b);
    assert_eq!(lp71(&mut host, 0x84, 0, b), (0x40, 0));
    settle(&mut s);
    tend_until(&mut s, &end, "given back", |_, e| e.settled());
    assert_eq!(end.with(|e| e.returned.clone()), [ticket(b)]);
    assert_eq!((s.machine().credit(), status(&mut host)), (2_500, (0x84, 0)));

    // No answer in time (3 s): given back, a late answer finds no ticket.
    let c = "323456789012345678";
    fed_to_the_floor(&mut s, &end, &mut host, c);
    std::thread::sleep(Duration::from_millis(3_100));
    tend_until(&mut s, &end, "given back after the silence", |_, e| e.returned.len() == 2 && e.settled());
    assert_eq!(lp71(&mut host, 0x00, 5_000, c), (0x88, 0));
    settle(&mut s);
    assert_eq!(s.machine().credit(), 2_500);

    // Over the ticket-in limit on the floor's word: the core refuses it
    // before any stacking; given back, the floor told 83.
    let d = "423456789012345678";
    let over = s.machine().config().ticket_in_limit + 1;
    fed_to_the_floor(&mut s, &end, &mut host, d);
    assert_eq!(lp71(&mut host, 0x00, over, d).0, 0x40);
    settle(&mut s);
    tend_until(&mut s, &end, "given back over the limit", |_, e| e.returned.len() == 3 && e.settled());
    assert_eq!((s.machine().credit(), status(&mut host).0), (2_500, 0x83));

    // The acceptor loses power after the floor's word, with the ticket in
    // escrow: it comes back "note in the acceptor" and gives it back —
    // nothing credited, the floor told 83; the same ticket fed again is
    // redeemed once.
    let e1 = "523456789012345678";
    fed_to_the_floor(&mut s, &end, &mut host, e1);
    assert_eq!(lp71(&mut host, 0x00, 1_000, e1).0, 0x40);
    end.with(|e| e.silent = true);
    settle(&mut s);
    end.with(|e| {
        e.power_cut();
        e.silent = false;
    });
    tend_until(&mut s, &end, "powered up, given back", |s, e| e.settled() && s.machine().floor_ticket_stacking().is_none());
    assert_eq!(end.with(|e| e.returned.last().cloned()), Some(ticket(e1)));
    assert_eq!((s.machine().credit(), status(&mut host).0), (2_500, 0x83));
    let _ = drain(&mut s, &mut host);
    fed_to_the_floor(&mut s, &end, &mut host, e1);
    assert_eq!(lp71(&mut host, 0x00, 1_000, e1).0, 0x40);
    settle(&mut s);
    tend_until(&mut s, &end, "fed again, credited", |s, e| e.settled() && s.machine().credit() == 3_500);

    // The cabinet dies after the floor's word was journaled, before the
    // acceptor heard the stack command: the acceptor still holds the
    // ticket, and its holding status does not say which ticket it is, so
    // the new cabinet has it given back — nothing credited, the floor told
    // 83 — and the same ticket fed again is redeemed once.
    let f = "623456789012345678";
    fed_to_the_floor(&mut s, &end, &mut host, f);
    end.with(|e| e.silent = true);
    assert_eq!(lp71(&mut host, 0x00, 700, f).0, 0x40);
    settle(&mut s);
    assert_eq!(s.machine().floor_ticket_stacking(), Some((f, 700)));
    s.power_cut();
    end.with(|e| e.silent = false);
    let mut s = start(dir.path(), &cfg);
    tend_until(&mut s, &end, "given back after the restart", |s, e| e.settled() && s.machine().floor_ticket_stacking().is_none());
    assert_eq!(end.with(|e| e.returned.last().cloned()), Some(ticket(f)));
    assert_eq!((s.machine().credit(), status(&mut host).0), (3_500, 0x83));
    fed_to_the_floor(&mut s, &end, &mut host, f);
    assert_eq!(lp71(&mut host, 0x00, 700, f).0, 0x40);
    settle(&mut s);
    tend_until(&mut s, &end, "fed again after the restart, credited", |s, e| e.settled() && s.machine().credit() == 4_200);
    assert_eq!(end.with(|e| e.stacked.iter().filter(|d| **d == ticket(f)).count()), 1);
    assert_eq!(status(&mut host), (0x00, 700));

    // Every ticket in the meters once: a, e1 and f.
    let st = s.machine().state();
    assert_eq!((st.totals.bilhetes_codificados_entrados, st.totals.bilhetes_entrados_contagem), (4_200, 3));
    st.self_audit().unwrap();
}
