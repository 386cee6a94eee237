//! `egm-progressive serve` as a site runs it, against the project's own
//! PostgreSQL: its log (issue 69: after every attack the service's log held
//! only its start-up line).
#![allow(clippy::unwrap_used)]

#[path = "../../tests/support/controller.rs"]
mod controller;

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

use linked_controller::{CabinetClient, Role};

/// Every line the service logs is a JSON object, and a refusal names its
/// cabinet and its reason.
#[test]
fn serve_logs_every_refusal_as_a_json_line_with_its_cabinet() {
    let logins = [("egm-operator", Role::Operator), ("egm-service", Role::Service), ("A", Role::Cabinet)];
    let db = controller::fresh_database("serve_log", &logins);
    let pki = controller::pki();
    let path = |f: &str| pki.join(f).display().to_string();
    let mut serve = Command::new(env!("CARGO_BIN_EXE_egm-progressive"))
        .args(["serve", &controller::url("egm-service", &db), "--listen", "127.0.0.1:0"])
        .args(["--ca", &path("ca.crt"), "--cert", &path("server.crt"), "--key", &path("server.key")])
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut said = String::new();
    BufReader::new(serve.stdout.take().unwrap()).read_line(&mut said).unwrap();
    let addr: std::net::SocketAddr = said.trim().rsplit(' ').next().unwrap().parse().unwrap_or_else(|e| panic!("{said:?}: {e}"));
    let mut a = CabinetClient::connect(&controller::cabinet_url_at("A", addr.port())).unwrap();
    let refused = a.levels("not-its-pool");
    assert!(matches!(&refused, Err(linked_controller::LinkError::Refused(r)) if r.contains("not assigned to pool not-its-pool")), "{refused:?}");
    drop(a);
    let _ = serve.kill();
    let mut log = String::new();
    serve.stderr.take().unwrap().read_to_string(&mut log).unwrap();
    let _ = serve.wait();
    let lines: Vec<serde_json::Value> =
        log.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}"))).collect();
    let refusal = lines.iter().find(|l| l["fields"]["message"] == "refused").unwrap_or_else(|| panic!("no refusal in the service's log:\n{log}"));
    assert_eq!(refusal["level"], "WARN");
    assert_eq!(refusal["fields"]["cabinet"], "A");
    assert!(refusal["fields"]["reason"].as_str().unwrap().contains("not assigned to pool not-its-pool"), "{refusal}");
}
