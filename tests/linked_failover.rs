//! Issue 69, high availability proven, not described: the controller's
//! PostgreSQL as the README runs it — a primary with a synchronous
//! streaming replica (`tools/postgres.sh replica`) — killed during
//! contributions and awards, the replica promoted (`tools/postgres.sh
//! promote`, what the floor's manager does), the service reconnecting by
//! itself to whichever server is writable (its address names both,
//! `target_session_attrs=read-write`).
//!
//! A cluster of its own (not the shared test server: its primary's every
//! commit waits for the replica), on free ports, removed after.

use std::path::PathBuf;
use std::process::Command;

use linked_controller::service::{Limits, Service, ServiceConfig};
use linked_controller::{CabinetClient, Controller, LinkError, Role};

use super::linked_attacks::MINI;
use super::linked_game::hit;
use super::{EPOCH, MAX_WAGER, POOL, allow_plain_claims, approve, assign, pool};

/// A primary and its synchronous replica on ports `port` and `port + 1`.
struct Cluster {
    port: u16,
    data: PathBuf,
    _dir: Option<tempfile::TempDir>,
}

impl Cluster {
    fn start() -> Cluster {
        let free = |p: u16| std::net::TcpListener::bind(("127.0.0.1", p)).is_ok();
        let base = 26_000 + (std::process::id() % 500) as u16 * 2;
        let port = (0..500u16).map(|i| base + i * 2).find(|p| free(*p) && free(p + 1)).expect("no two free loopback ports");
        // The postgres account must reach its data: under its own home
        // when this runs as root (a temporary folder is root's alone).
        let (data, dir) = if Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n")) {
            (data_of_this_process("failover"), None)
        } else {
            let dir = tempfile::tempdir().unwrap();
            (dir.path().join("primary"), Some(dir))
        };
        let c = Cluster { port, data, _dir: dir };
        c.run(&["start"]);
        c.run(&["replica"]);
        c
    }

    fn run(&self, args: &[&str]) -> String {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/postgres.sh");
        let out = Command::new(script).args(args).env("EGM_PG_PORT", self.port.to_string()).env("EGM_PG_DATA", &self.data).output().unwrap();
        assert!(out.status.success(), "tools/postgres.sh {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// The primary's administrator (its local socket).
    fn admin(&self) -> String {
        self.run(&["admin"])
    }

    /// Login `name`'s address naming both servers.
    fn url(&self, name: &str) -> String {
        self.run(&["failover-url", name])
    }
}

/// A cluster's data folder under the postgres account's home, named by
/// this process (`what`-PID), cleared of what an earlier process of the
/// same id left there (a test killed mid-run keeps its folder, and its
/// server may still run on it): stopped, then removed with its replica and
/// its kept port.
fn data_of_this_process(what: &str) -> PathBuf {
    let data = PathBuf::from(format!("/var/lib/postgresql/egm-{what}-{}", std::process::id()));
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/postgres.sh");
    let replica = data.with_file_name(format!("egm-{what}-{}-replica", std::process::id()));
    for d in [&replica, &data] {
        if d.exists() {
            let _ = Command::new(&script).arg("kill").env("EGM_PG_DATA", d).output();
            let _ = std::fs::remove_dir_all(d);
        }
    }
    let _ = std::fs::remove_file(format!("{}.port", data.display()));
    data
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/postgres.sh");
        for cmd in ["replica-stop", "kill"] {
            let _ = Command::new(&script).arg(cmd).env("EGM_PG_PORT", self.port.to_string()).env("EGM_PG_DATA", &self.data).output();
        }
        if self._dir.is_none() {
            let _ = std::fs::remove_dir_all(&self.data);
            let _ = std::fs::remove_dir_all(self.data.with_file_name(format!("{}-replica", self.data.file_name().unwrap().to_string_lossy())));
        }
    }
}

/// `call`'s answer, asked again (on a new connection to the service)
/// while the service says the database did not answer — the cabinet's own
/// way through a failover.
fn through<T>(c: &mut CabinetClient, url: &str, mut call: impl FnMut(&mut CabinetClient) -> Result<T, LinkError>) -> (T, u32) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut asked_again = 0;
    loop {
        match call(c) {
            Err(LinkError::Down) if std::time::Instant::now() < deadline => {
                asked_again += 1;
                std::thread::sleep(std::time::Duration::from_millis(100));
                if let Ok(again) = CabinetClient::connect(url) {
                    *c = again;
                }
            }
            Err(e) => panic!("asked {asked_again} times more: {e}"),
            Ok(answer) => return (answer, asked_again),
        }
    }
}

/// Cabinet A contributes rounds 1 to 120 and claims the Mini on rounds 1,
/// 40, 80 and 120 while the primary is killed (at round 60) and the
/// replica promoted: every acknowledged contribution and award is on the
/// promoted server, each once; the calls that met the switch were asked
/// again and answered; an award and a committed round's nonce asked again
/// after the failover are the same answers; the books balance.
#[test]
fn a_failover_loses_nothing_and_pays_nothing_twice() {
    let cluster = Cluster::start();
    let mut admin = Controller::connect(&cluster.admin()).unwrap();
    admin.install().unwrap();
    for (login, role) in [("egm-operator", Role::Operator), ("egm-service", Role::Service), ("A", Role::Cabinet)] {
        admin.register(login, role).unwrap();
    }
    drop(admin);
    let mut op = Controller::connect(&cluster.url("egm-operator")).unwrap();
    op.configure_pool(&pool(), MAX_WAGER).unwrap();
    assign(&mut op, &["A"]);
    approve(&mut op, super::linked_game::NEVER_CONFIRM);
    allow_plain_claims(&mut op);
    op.set_denominations("A", &[1]).unwrap();
    let pki = super::support_controller::pki();
    let service = Service::start(ServiceConfig {
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        database: cluster.url("egm-service"),
        ca: pki.join("ca.crt"),
        cert: pki.join("server.crt"),
        key: pki.join("server.key"),
        limits: Limits::default(),
    })
    .unwrap();
    let cabinet = super::cabinet_url_at("A", service.addr().port());
    let mut a = CabinetClient::connect(&cabinet).unwrap();
    let bet = linked_controller::ReelBet { game: "classic-sevens".into(), lines: 1, credits_per_line: 1, denom: 1 };
    let committed_epoch = "feedfacefeedfacefeedfacefeedface";
    let (nonce, _) = through(&mut a, &cabinet, |a| a.commit(POOL, committed_epoch, 1, &"ab".repeat(32), &bet));

    let mut awarded = Vec::new();
    let mut asked_again = 0;
    for round in 1..=120u64 {
        if round == 60 {
            // The primary dies as a crash would; the floor's manager
            // promotes the replica.
            cluster.run(&["kill"]);
            cluster.run(&["promote"]);
        }
        let (answers, again) = through(&mut a, &cabinet, |a| a.contribute(POOL, EPOCH, &[(round, 100)]));
        asked_again += again;
        assert_eq!(answers.len(), 1);
        if round == 1 || round % 40 == 0 {
            let (claimed, again) = through(&mut a, &cabinet, |a| a.award(POOL, EPOCH, round, MINI, &hit(MINI, 100)));
            asked_again += again;
            awarded.push((round, claimed.amount));
        }
    }
    assert!(asked_again > 0, "no call met the failover: the test did not test it");

    // Asked again after the failover: the same answers.
    for (round, amount) in &awarded {
        let (again, _) = through(&mut a, &cabinet, |a| a.award(POOL, EPOCH, *round, MINI, &hit(MINI, 100)));
        assert_eq!(again.amount, *amount, "round {round}'s award asked again");
    }
    let (same, _) = through(&mut a, &cabinet, |a| a.commit(POOL, committed_epoch, 1, &"ab".repeat(32), &bet));
    assert_eq!(same, nonce, "the committed round's nonce asked again after the failover");

    // The promoted server holds each of them once.
    let mut op = Controller::connect(&cluster.url("egm-operator")).unwrap();
    let books = op.books(POOL).unwrap();
    assert_eq!(books.contributions, 121, "120 contributions and the committed round's");
    assert!(books.balanced(), "the books do not balance after the failover");
    let mut paid: Vec<(u64, u64)> = op.last_awards(POOL, 25).unwrap().iter().map(|w| (w.round, w.amount)).collect();
    paid.sort_unstable();
    assert_eq!(paid, awarded, "each award once, as answered");
    assert_eq!(op.levels(POOL).unwrap()[MINI].hits, 4);
}

/// Issue 76: a run's PostgreSQL never fights another's over a port.
/// Without EGM_PG_PORT a cluster takes, at its first start, the first two
/// ports from 25432 on (two by two) where nothing listens, keeps them
/// beside its folder, and moves off a port another server took while it
/// was stopped — a listener here stands for another checkout's cluster.
#[test]
fn a_cluster_takes_free_ports_and_moves_off_a_taken_one() {
    use std::net::{TcpListener, TcpStream};
    let listening = |p: u16| TcpStream::connect(("127.0.0.1", p)).is_ok();
    let first_free = || (0..200u16).map(|i| 25_432 + i * 2).find(|&p| !listening(p) && !listening(p + 1)).expect("two free ports");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/postgres.sh");
    let (data, _dir) = if Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n")) {
        (data_of_this_process("ports"), None)
    } else {
        let dir = tempfile::tempdir().unwrap();
        (dir.path().join("cluster"), Some(dir))
    };
    let port_file = PathBuf::from(format!("{}.port", data.display()));
    let run = |cmd: &str| {
        let out = Command::new(&script).arg(cmd).env_remove("EGM_PG_PORT").env("EGM_PG_DATA", &data).output().unwrap();
        assert!(out.status.success(), "tools/postgres.sh {cmd}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let kept = || std::fs::read_to_string(&port_file).unwrap().trim().parse::<u16>().unwrap();
    // Another server on the first free pair.
    let other = first_free();
    let _theirs = [TcpListener::bind(("127.0.0.1", other)).unwrap(), TcpListener::bind(("127.0.0.1", other + 1)).unwrap()];
    let admin = run("start");
    let port = kept();
    // (Not necessarily the pair free a moment before: the shared test
    // cluster may start beside this test.)
    assert!(port >= 25_432 && port % 2 == 0 && port != other, "port {port}, another server on {other}");
    assert!(admin.contains(&format!("port={port} ")), "{admin}");
    assert!(listening(port), "the cluster listens on the port it kept");
    // Stopped, its port taken by another server: it moves at its next start.
    run("stop");
    let _taken = TcpListener::bind(("127.0.0.1", port)).unwrap();
    let admin = run("start");
    let moved_to = kept();
    assert!(moved_to != port && moved_to != other && moved_to % 2 == 0, "moved to {moved_to} from {port}");
    assert!(admin.contains(&format!("port={moved_to} ")) && listening(moved_to), "{admin}");
    // Its later addresses name the port it kept.
    assert!(run("admin").contains(&format!("port={moved_to} ")));
    let _ = Command::new(&script).arg("kill").env_remove("EGM_PG_PORT").env("EGM_PG_DATA", &data).output();
    let _ = std::fs::remove_file(&port_file);
    if _dir.is_none() {
        let _ = std::fs::remove_dir_all(&data);
    }
}
