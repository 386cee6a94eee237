//! Issue 69 (linked progressives, round four): a hostile cabinet holding a
//! valid certificate, against the real service and PostgreSQL.
//!
//! | attack | test |
//! |---|---|
//! | 3 a parser disagreement pays a forged claim | `attack_3_*` |
//! | a raw database error sent to a cabinet in a two-instance race | `a_race_between_two_instances_gets_one_answer_never_a_database_error` |
//! | an unassigned pool's levels readable by any cabinet | `a_cabinet_reads_only_its_own_pools` |
//! | more than 1,024 stalled handshakes turned honest cabinets away | `a_flood_of_stalled_handshakes_turns_no_cabinet_away` |
//! | 1 grinding: two instances' limits were separate | `committed_rounds_are_paced_across_the_services_instances` |
//! | 2 the reconciliation alarm cleared by the cabinet's own report | `a_cabinets_report_cannot_clear_its_own_alarm` |
//! | 1 grinding unseen: no reconciliation against the floor's own meters | `the_floors_meters_show_the_rounds_a_cabinet_never_played` |
//! | 2 plain rows on a pool approved without figures (an earlier release's approval) | `a_pool_approved_without_figures_takes_committed_rounds_only` |
//! | 1,000-row contributions within the limits cut an honest cabinet to 1.9 a second | `a_certificates_rows_are_held_to_what_a_cabinet_plays` |

use super::linked_attacks::{MINI, assert_refused as refused};
use super::linked_game::{claim_at, hit};
use super::{EPOCH, MAX_WAGER, POOL, SERVER, another_service_with, approve, assign, cabinet, cabinet_url_at, controller, pool};

/// Attack 3: on a pool that allows plain claims, a claim whose `stops`
/// came twice — a blank first, the Mini's stop last — failed the service's
/// parse, which then skipped its verdict, and PostgreSQL's jsonb kept the
/// last value and paid it. The claim is read once, by the service: a
/// duplicate key (at any depth) is refused and logged, nothing is paid,
/// and what the database keeps of a claim is the service's reading of it.
#[test]
fn attack_3_a_claim_is_read_once_and_a_duplicate_key_pays_nothing() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("attack69_3", &["A"]);
    op.configure_pool(&pool(), MAX_WAGER).unwrap();
    assign(&mut op, &["A"]);
    op.allow_plain_claims(POOL, true).unwrap();
    // Every award waits for the attendant: its outcome is kept to be read.
    approve(&mut op, 1);
    let mut a = cabinet("A", &db);
    // Round 1 only: a later contribution would make it final, and the
    // claim refused for that, whatever it said.
    a.contribute(POOL, EPOCH, &[(1, 100)]).unwrap();
    let before = op.levels(POOL).unwrap();
    let honest = hit(MINI, 100);
    assert!(honest.starts_with("{\"game\":"), "{honest}");
    // The blank's stops first, the Mini's last.
    let forged = honest.replacen('{', "{\"stops\":[500],", 1);
    let nested = honest.replacen("\"lines\":1", "\"lines\":1,\"lines\":1", 1);
    let ignored = honest.replacen('{', "{\"paid\":true,", 1);
    for claim in [&forged, &nested] {
        refused(a.award(POOL, EPOCH, 1, MINI, claim), "duplicate field");
    }
    assert_eq!(op.levels(POOL).unwrap(), before, "a forged claim took something");
    assert!(op.books(POOL).unwrap().balanced());
    // A field the service does not read is not stored either: the award is
    // the honest claim's, kept as the service wrote it.
    a.contribute(POOL, EPOCH, &[(2, 100)]).unwrap();
    let mini = op.levels(POOL).unwrap()[MINI].value;
    let claimed = a.award(POOL, EPOCH, 2, MINI, &ignored).unwrap();
    assert_eq!((claimed.amount, claimed.pending), (mini, true));
    let pending = op.pending_awards(POOL).unwrap();
    assert_eq!(pending.len(), 1);
    let kept = &pending[0].outcome;
    assert!(!kept.contains("paid"), "the cabinet's text was stored: {kept}");
    let read = |t: &str| serde_json::from_str::<serde_json::Value>(t).unwrap();
    assert_eq!(read(kept), read(&claim_at(2, 100)));
}

/// Two service instances asked for the same Mini at the same moment, as a
/// cabinet's retry after a timeout does: the loser's insert met the
/// winner's row and the cabinet was sent PostgreSQL's own error
/// ("duplicate key value violates unique constraint awards_pkey") in 15 of
/// 50 races. Every call is idempotent: the loser asks again and answers as
/// the winner did.
#[test]
fn a_race_between_two_instances_gets_one_answer_never_a_database_error() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("attack69_race", &["A"]);
    op.configure_pool(&pool(), MAX_WAGER).unwrap();
    assign(&mut op, &["A"]);
    op.allow_plain_claims(POOL, true).unwrap();
    approve(&mut op, 1_000_000);
    let limits = linked_controller::service::Limits { claims_per_second: 100_000, ..linked_controller::service::Limits::default() };
    let (one, two) = (another_service_with(&db, 0, limits.clone()), another_service_with(&db, 0, limits));
    let connect = |port: u16| linked_controller::CabinetClient::connect(&cabinet_url_at("A", port)).unwrap();
    let mut a = cabinet("A", &db);
    const RACES: u64 = 30;
    for round in 1..=RACES {
        a.contribute(POOL, EPOCH, &[(round, 100)]).unwrap();
        let start = std::sync::Arc::new(std::sync::Barrier::new(2));
        let answers: Vec<_> = [one.addr().port(), two.addr().port()]
            .into_iter()
            .map(|port| {
                let (start, mut c) = (start.clone(), connect(port));
                std::thread::spawn(move || {
                    start.wait();
                    c.award(POOL, EPOCH, round, MINI, &hit(MINI, 100)).map_err(|e| e.to_string())
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| t.join().unwrap())
            .collect();
        for answer in &answers {
            assert!(answer.is_ok(), "race {round}: {answer:?}");
        }
        assert_eq!(answers[0], answers[1], "race {round}: two answers to one claim");
    }
    let awards = op.last_awards(POOL, 100).unwrap();
    assert_eq!(awards.len() as u64, RACES, "one award a race");
    assert!(op.books(POOL).unwrap().balanced());
}

/// A cabinet read the levels and the last awards of any pool through the
/// service, its own or not.
#[test]
fn a_cabinet_reads_only_its_own_pools() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("attack69_read", &["A", "B"]);
    op.configure_pool(&pool(), MAX_WAGER).unwrap();
    assign(&mut op, &["A"]);
    let mut a = cabinet("A", &db);
    let mut b = cabinet("B", &db);
    assert_eq!(a.levels(POOL).unwrap().len(), pool().levels.len());
    refused(b.levels(POOL), "not assigned to pool");
    refused(b.last_awards(POOL, 10), "not assigned to pool");
}

/// Availability: more than 1,024 connections that sent a ClientHello and
/// nothing more filled the handshake bound for their whole timeout, and 2
/// to 4 of 18 honest connections got in. A service bounded at 64 pending
/// handshakes, 16 from one address, flooded with 200 stalled connections
/// from 20 addresses, and 40 from the honest cabinet's own address: every
/// one of 18 honest connections that follow gets in and is answered — the
/// gate drops the oldest stalled handshake (of the address, or of all) for
/// each newcomer.
#[test]
fn a_flood_of_stalled_handshakes_turns_no_cabinet_away() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("attack69_flood", &["A"]);
    op.configure_pool(&pool(), MAX_WAGER).unwrap();
    assign(&mut op, &["A"]);
    let limits = linked_controller::service::Limits { handshakes: 64, handshakes_per_address: 16, ..linked_controller::service::Limits::default() };
    let service = another_service_with(&db, 0, limits);
    let port = service.addr().port();
    let stalled = |address: [u8; 4]| {
        let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
        socket.bind(&std::net::SocketAddr::from((address, 0)).into()).unwrap();
        socket.connect(&std::net::SocketAddr::from(([127, 0, 0, 1], port)).into()).unwrap();
        std::net::TcpStream::from(socket)
    };
    let mut flood = Vec::new();
    for host in 1..=20u8 {
        for _ in 0..10 {
            flood.push(stalled([127, 0, 1, host]));
        }
    }
    for _ in 0..40 {
        flood.push(stalled([127, 0, 0, 1]));
    }
    let url = cabinet_url_at("A", port);
    for n in 0..18 {
        let mut a = linked_controller::CabinetClient::connect(&url).unwrap_or_else(|e| panic!("honest connection {n} refused: {e}"));
        assert_eq!(a.levels(POOL).unwrap().len(), pool().levels.len(), "honest connection {n}");
    }
    drop(flood);
}

/// Attack 1, grinding: a certificate committed rounds at each instance's
/// own pace (48,010 c in 60 s alternating two instances, whose limits were
/// separate). The pace of new committed rounds is also held in
/// PostgreSQL, per cabinet across every instance (the service's 4 a second
/// plus one, five seconds of it at once: 5 a second, 25 at once).
/// Alternating two instances as fast as they answer, the cabinet gets no
/// more nonces than that bound allows over the time it took (each instance
/// alone would have given 20 at once, 40 together); the rest are asked
/// again later, never refused for good.
#[test]
fn committed_rounds_are_paced_across_the_services_instances() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("attack69_pace", &["A"]);
    op.configure_pool(&pool(), MAX_WAGER).unwrap();
    assign(&mut op, &["A"]);
    approve(&mut op, 1_000_000);
    op.set_denominations("A", &[1]).unwrap();
    let (one, two) = (another_service_with(&db, 0, Default::default()), another_service_with(&db, 0, Default::default()));
    let ports = [one.addr().port(), two.addr().port()];
    let connect = |port: u16| linked_controller::CabinetClient::connect(&cabinet_url_at("A", port)).unwrap();
    let mut clients = ports.map(connect);
    let bet = linked_controller::ReelBet { game: "classic-sevens".into(), lines: 1, credits_per_line: 1, denom: 1 };
    let started = std::time::Instant::now();
    let (mut nonces, mut held_back) = (0u64, 0u64);
    for round in 1..=60u64 {
        let i = (round % 2) as usize;
        match clients[i].commit(POOL, EPOCH, round, &format!("{round:064x}"), &bet) {
            Ok(_) => nonces += 1,
            // Paced (by the instance, or across them): asked again later,
            // on a new connection.
            Err(linked_controller::LinkError::Down) => {
                held_back += 1;
                clients[i] = connect(ports[i]);
            }
            Err(e) => panic!("round {round}: {e}"),
        }
    }
    let allowed = 25 + 5 * started.elapsed().as_secs() + 5;
    assert!(nonces <= allowed, "{nonces} nonces in {:?} across two instances; the bound allows {allowed}", started.elapsed());
    assert!(nonces >= 20 && nonces + held_back == 60, "{nonces} nonces, {held_back} held back");
    let books = op.books(POOL).unwrap();
    assert_eq!(books.contributions, nonces, "each committed round contributed, no other");
}

/// Attack 2's tail: the reconciliation alarm was cleared by the cabinet's
/// own report ("through round 0, 0 rounds, 0 c": 0 alarms). A cabinet
/// reports with no round open, so the rounds the controller held past its
/// report before it was made (more than the one it may have committed
/// next) are an alarm; and a meter never goes back, so a report of less
/// than before is refused.
#[test]
fn a_cabinets_report_cannot_clear_its_own_alarm() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("attack69_report", &["A"]);
    op.configure_pool(&pool(), MAX_WAGER).unwrap();
    assign(&mut op, &["A"]);
    let mut a = cabinet("A", &db);
    let rows: Vec<(u64, u64)> = (1..=5).map(|r| (r, 100)).collect();
    a.contribute(POOL, EPOCH, &rows).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    a.report_meter(POOL, EPOCH, linked_controller::CabinetMeter { through_round: 0, rounds: 0, wagered: 0 }).unwrap();
    let alarms: Vec<String> = op.reconciliation(POOL).unwrap().into_iter().filter_map(|l| l.alarm).collect();
    assert_eq!(
        alarms,
        [format!(
            "cabinet A, epoch {EPOCH}: the controller held 5 rounds past round 0 before the cabinet reported through it (its report leaves out what it had delivered)"
        )]
    );
    // The true meter reconciles; going back to nothing is refused.
    a.report_meter(POOL, EPOCH, linked_controller::CabinetMeter { through_round: 5, rounds: 5, wagered: 500 }).unwrap();
    assert!(op.reconciliation(POOL).unwrap().iter().all(|l| l.alarm.is_none()));
    refused(a.report_meter(POOL, EPOCH, linked_controller::CabinetMeter { through_round: 0, rounds: 0, wagered: 0 }), "a cabinet's meter never goes back");
    refused(a.report_meter(POOL, EPOCH, linked_controller::CabinetMeter { through_round: 5, rounds: 5, wagered: 400 }), "a cabinet's meter never goes back");
    assert!(op.reconciliation(POOL).unwrap().iter().all(|l| l.alarm.is_none()), "a refused report changed the reconciliation");
}

/// Attack 1, what the floor sees: the service cannot see coin-in, so a
/// certificate committing rounds it never plays (to claim only the hits)
/// looked like an honest cabinet. The floor's own meters — each cabinet's
/// coin-in as the SAS host reads it, entered by an operator — are set
/// against the linked rounds' wagers: cabinet A contributed 500 c of
/// rounds while the floor saw no coin-in, an alarm with its figures;
/// cabinet B, played for 500 c of linked rounds and 300 c of other games,
/// reconciles. A's own journal report (which reconciles its pool) does not
/// answer the floor's alarm, and the floor's meter never goes back.
#[test]
fn the_floors_meters_show_the_rounds_a_cabinet_never_played() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("attack69_floor", &["A", "B"]);
    op.configure_pool(&pool(), MAX_WAGER).unwrap();
    assign(&mut op, &["A", "B"]);
    // The floor's first readings are each cabinet's baseline.
    op.floor_meter("A", None, 1_000, false).unwrap();
    op.floor_meter("B", None, 5_000, false).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let rows: Vec<(u64, u64)> = (1..=5).map(|r| (r, 100)).collect();
    let (mut a, mut b) = (cabinet("A", &db), cabinet("B", &db));
    a.contribute(POOL, EPOCH, &rows).unwrap();
    b.contribute(POOL, EPOCH, &rows).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    op.floor_meter("A", None, 1_000, false).unwrap();
    op.floor_meter("B", None, 5_800, false).unwrap();
    let check = |op: &mut linked_controller::Controller| {
        let lines = op.floor_reconciliation().unwrap();
        let figures: Vec<(&str, u64, u64, u64)> = lines.iter().map(|l| (l.machine.as_str(), l.rounds, l.linked_wagered, l.floor_coin_in)).collect();
        assert_eq!(figures, [("A", 5, 500, 0), ("B", 5, 500, 800)]);
        let alarm = lines[0].alarm.clone().expect("cabinet A's rounds never played are not an alarm");
        assert!(
            alarm.starts_with("cabinet A: its 5 linked rounds from ")
                && alarm.ends_with(
                    " wagered 500 cents, the floor metered 0 cents of coin-in: 500 cents it never played (rounds committed or contributed without play)"
                ),
            "{alarm}"
        );
        assert_eq!(lines[1].alarm, None);
    };
    check(&mut op);
    for c in [&mut a, &mut b] {
        c.report_meter(POOL, EPOCH, linked_controller::CabinetMeter { through_round: 5, rounds: 5, wagered: 500 }).unwrap();
    }
    assert!(op.reconciliation(POOL).unwrap().iter().all(|l| l.alarm.is_none()), "A's journal report reconciles its pool");
    check(&mut op);
    let back = op.floor_meter("B", None, 5_700, false).unwrap_err().to_string();
    assert!(back.contains("the floor's coin-in never goes back (5700 cents after 5800)"), "{back}");
    let past = op.floor_meter("B", Some("2020-01-01T00:00:00Z"), 6_000, false).unwrap_err().to_string();
    assert!(past.contains("comes after the last one"), "{past}");
    check(&mut op);
}

/// Availability: every limit of a certificate but its committed rounds'
/// was per process, so a second instance doubled it, and each Meter
/// request wrote a row (711 writes a second from one certificate). Meter
/// reports and claims are now paced per cabinet in PostgreSQL too.
/// Alternating two instances as fast as they answer, a cabinet's meter
/// reports get through no faster than 5 a second with 25 at once (each
/// instance alone would take all 60).
#[test]
fn meter_reports_are_paced_across_the_services_instances() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("attack69_paces", &["A"]);
    op.configure_pool(&pool(), MAX_WAGER).unwrap();
    assign(&mut op, &["A"]);
    let (one, two) = (another_service_with(&db, 0, Default::default()), another_service_with(&db, 0, Default::default()));
    let ports = [one.addr().port(), two.addr().port()];
    let connect = |port: u16| linked_controller::CabinetClient::connect(&cabinet_url_at("A", port)).unwrap();
    let mut clients = ports.map(connect);
    let started = std::time::Instant::now();
    let (mut recorded, mut held_back) = (0u64, 0u64);
    for n in 1..=60u64 {
        let i = (n % 2) as usize;
        match clients[i].report_meter(POOL, EPOCH, linked_controller::CabinetMeter { through_round: n, rounds: 0, wagered: 0 }) {
            Ok(()) => recorded += 1,
            Err(linked_controller::LinkError::Down) => {
                held_back += 1;
                clients[i] = connect(ports[i]);
            }
            Err(e) => panic!("report {n}: {e}"),
        }
    }
    let allowed = 25 + 5 * started.elapsed().as_secs() + 5;
    assert!(recorded <= allowed, "{recorded} meter reports in {:?} across two instances; the bound allows {allowed}", started.elapsed());
    assert!(recorded >= 20 && recorded + held_back == 60, "{recorded} recorded, {held_back} held back");
}

/// Attack 2 where the approval has no figures (a pool approved as an
/// earlier release approved it, `approve_games` alone): plain rows were
/// still taken on a pool whose claims reveal their key. Every contribution
/// there is a committed round too, and plain play exists only where the
/// operator allows it.
#[test]
fn a_pool_approved_without_figures_takes_committed_rounds_only() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("attack69_plain", &["A"]);
    op.configure_pool(&pool(), MAX_WAGER).unwrap();
    assign(&mut op, &["A"]);
    approve(&mut op, 1_000_000);
    let mut a = cabinet("A", &db);
    let answers = a.contribute(POOL, EPOCH, &[(1, 100)]).unwrap();
    assert!(
        matches!(&answers[0].1, linked_controller::Outcome::Refused(r) if r.contains("round 1 was not committed: pool linked-sevens takes committed rounds only")),
        "{answers:?}"
    );
    assert_eq!(op.books(POOL).unwrap().contributions, 0);
    op.allow_plain_claims(POOL, true).unwrap();
    assert_eq!(a.contribute(POOL, EPOCH, &[(2, 100)]).unwrap(), [(2, linked_controller::Outcome::Accepted)]);
}

/// Availability: 1,000-row contributions within the limits (50,000 rows a
/// second a certificate) cut an honest cabinet from 146 to 1.9
/// contributions a second, the database checking every row. A
/// certificate's rows are held to what a cabinet plays (a round is one
/// row, and rounds are paced at a few a second): one full request at
/// once, then a hundred rows a second. A second 1,000-row request at once
/// is answered over the limit before it reaches the database, and fifty
/// such bar the certificate; the honest cabinet's rows are taken all the
/// while, and the books hold exactly the rows taken.
#[test]
fn a_certificates_rows_are_held_to_what_a_cabinet_plays() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("attack69_rows", &["A", "B"]);
    op.configure_pool(&pool(), MAX_WAGER).unwrap();
    assign(&mut op, &["A", "B"]);
    let (mut a, mut b) = (cabinet("A", &db), cabinet("B", &db));
    let rows = |from: u64| -> Vec<(u64, u64)> { (from..from + 1_000).map(|r| (r, 100)).collect() };
    let taken = a.contribute(POOL, EPOCH, &rows(1)).unwrap();
    assert_eq!(taken.len(), 1_000);
    assert!(taken.iter().all(|t| t.1 == linked_controller::Outcome::Accepted), "{:?}", &taken[..3]);
    let mut honest = 0;
    for n in 1..=50u64 {
        let answer = a.contribute(POOL, EPOCH, &rows(1 + n * 1_000));
        assert!(matches!(answer, Err(linked_controller::LinkError::Down)), "request {n} of 1,000 rows more: {answer:?}");
        if n % 10 == 0 {
            honest += 1;
            assert_eq!(b.contribute(POOL, EPOCH, &[(honest, 100)]).unwrap(), [(honest, linked_controller::Outcome::Accepted)]);
        }
    }
    // Barred: a new connection's one row is not taken either.
    let barred = linked_controller::CabinetClient::connect(&super::cabinet_url("A", &db)).and_then(|mut c| c.contribute(POOL, EPOCH, &[(1_000_000, 100)]));
    assert!(barred.is_err(), "a barred certificate's row was taken: {barred:?}");
    assert_eq!(b.contribute(POOL, EPOCH, &[(honest + 1, 100)]).unwrap(), [(honest + 1, linked_controller::Outcome::Accepted)]);
    let books = op.books(POOL).unwrap();
    assert_eq!(books.contributions, 1_000 + honest + 1, "the rows over the limit reached the books");
    assert!(books.balanced());
}
