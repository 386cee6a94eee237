//! The linked progressive controller for tests: the project's own
//! PostgreSQL (`tools/postgres.sh`, TLS with a test CA), a fresh database
//! per test, installed by the administrator with its names registered,
//! each operator's TLS address, and the controller's service (issue 46:
//! the real one, `linked_controller::service`, started once per database
//! on a free loopback port) with each cabinet's address there. Shared by
//! the workspace's and the cabinet's tests (`#[path = …] mod controller;`).
#![allow(clippy::unwrap_used, dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

use linked_controller::service::{Limits, Service, ServiceConfig};
use linked_controller::{Controller, Role};

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/postgres.sh")
}

fn run(args: &[&str]) -> String {
    let out = Command::new(script()).args(args).output().unwrap();
    assert!(out.status.success(), "tools/postgres.sh {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The project's test PKI (`tools/postgres.sh pki`): the CA, the service's
/// certificate and key.
pub fn pki() -> PathBuf {
    PathBuf::from(run(&["pki"]))
}

/// `tools/postgres.sh start|stop|kill`: `start` answers the
/// administrator's address (the server's local socket).
pub fn postgres(cmd: &str) -> String {
    // One at a time in a process: two tests starting the server at once
    // both ran `pg_ctl start`, and the second failed.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    run(&[cmd])
}

/// The TLS address of login `name` on database `db` (its certificate made
/// by the project's test CA).
pub fn url(name: &str, db: &str) -> String {
    run(&["url", name, db])
}

/// The controller's service for database `db`, started on first use (its
/// own login registered) and kept until a service for another database is
/// started (the tests of a process take the server one at a time; the
/// service's login may hold a bounded number of connections); its port.
pub fn service_port(db: &str) -> u16 {
    static SERVICES: Mutex<Vec<(String, Service)>> = Mutex::new(Vec::new());
    let mut services = SERVICES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, s)) = services.iter().find(|(d, _)| d == db) {
        return s.addr().port();
    }
    services.clear();
    let service = another_service(db, 0);
    let port = service.addr().port();
    services.push((db.to_owned(), service));
    port
}

/// An instance of the service for database `db` on loopback port `port`
/// (0: a free one), its login registered: stateless over the database, so
/// several may serve one (issue 46).
pub fn another_service(db: &str, port: u16) -> Service {
    another_service_with(db, port, Limits::default())
}

/// [`another_service`] under `limits` (what `egm-progressive serve`'s
/// options set).
pub fn another_service_with(db: &str, port: u16, limits: Limits) -> Service {
    let admin = postgres("start");
    let mut c = Controller::connect(&admin.replace("dbname=egm_progressive", &format!("dbname={db}"))).unwrap();
    c.register("egm-service", Role::Service).unwrap();
    let pki = pki();
    Service::start(ServiceConfig {
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        database: url("egm-service", db),
        ca: pki.join("ca.crt"),
        cert: pki.join("server.crt"),
        key: pki.join("server.key"),
        limits,
    })
    .unwrap()
}

/// Cabinet `name`'s address at the service on loopback port `port`.
pub fn cabinet_url_at(name: &str, port: u16) -> String {
    run(&["service-url", name, &port.to_string()])
}

/// Cabinet `name`'s address at the service of database `db` (its
/// certificate made by the project's test CA).
pub fn cabinet_url(name: &str, db: &str) -> String {
    let port = service_port(db);
    static URLS: Mutex<Option<HashMap<(String, u16), String>>> = Mutex::new(None);
    let mut urls = URLS.lock().unwrap_or_else(|e| e.into_inner());
    urls.get_or_insert_with(HashMap::new).entry((name.to_owned(), port)).or_insert_with(|| run(&["service-url", name, &port.to_string()])).clone()
}

/// A fresh database `egm_<prefix>_<pid>` on the controller's server,
/// installed by the administrator, with `logins` registered.
pub fn fresh_database(prefix: &str, logins: &[(&str, Role)]) -> String {
    let admin = postgres("start");
    let name = format!("egm_{prefix}_{}", std::process::id());
    let mut c = Controller::connect(&admin.replace("dbname=egm_progressive", "dbname=postgres")).unwrap();
    // This test's databases of earlier runs too (another process id): a
    // cluster that keeps hundreds recovers slowly after the kill some
    // tests make.
    let stale: Vec<String> = c
        .client()
        .query("SELECT datname FROM pg_database WHERE datname LIKE $1", &[&format!("egm\\_{prefix}\\_%")])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .filter(|d: &String| d.strip_prefix(&format!("egm_{prefix}_")).is_some_and(|pid| pid.chars().all(|ch| ch.is_ascii_digit())))
        .collect();
    for db in stale.iter().chain(std::iter::once(&name)) {
        c.client().batch_execute(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)")).unwrap();
    }
    c.client().batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
    let mut c = Controller::connect(&admin.replace("dbname=egm_progressive", &format!("dbname={name}"))).unwrap();
    c.install().unwrap();
    for (login, role) in logins {
        c.register(login, *role).unwrap();
    }
    name
}

/// The cabinet configuration `text` on the linked pool `pool` of the
/// controller at `address`, for Sevens Classic with `triggers` (RON list
/// items).
pub fn with_linked_pool(text: &str, address: &str, pool: &str, triggers: &str) -> String {
    let end = text.rfind(')').unwrap();
    format!(
        "{}    linked_progressives: [(controller: {address:?}, pool: {pool:?}, games: [\"classic-sevens\"], min_wager: 1,\n        triggers: [{triggers}])],\n)\n",
        &text[..end]
    )
}
