//! The linked progressive controller for tests: the project's own
//! PostgreSQL (`tools/postgres.sh`, TLS with a test CA), a fresh database
//! per test, installed by the administrator with its logins registered,
//! and each login's TLS address. Shared by the workspace's and the
//! cabinet's tests (`#[path = …] mod controller;`).
#![allow(clippy::unwrap_used, dead_code)]

use std::path::PathBuf;
use std::process::Command;

use linked_controller::{Controller, Role};

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/postgres.sh")
}

fn run(args: &[&str]) -> String {
    let out = Command::new(script()).args(args).output().unwrap();
    assert!(out.status.success(), "tools/postgres.sh {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// `tools/postgres.sh start|stop|kill`: `start` answers the
/// administrator's address (the server's local socket).
pub fn postgres(cmd: &str) -> String {
    run(&[cmd])
}

/// The TLS address of login `name` on database `db` (its certificate made
/// by the project's test CA).
pub fn url(name: &str, db: &str) -> String {
    run(&["url", name, db])
}

/// A fresh database `egm_<prefix>_<pid>` on the controller's server,
/// installed by the administrator, with `logins` registered.
pub fn fresh_database(prefix: &str, logins: &[(&str, Role)]) -> String {
    let admin = postgres("start");
    let name = format!("egm_{prefix}_{}", std::process::id());
    let mut c = Controller::connect(&admin.replace("dbname=egm_progressive", "dbname=postgres")).unwrap();
    c.client().batch_execute(&format!("DROP DATABASE IF EXISTS {name}")).unwrap();
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
