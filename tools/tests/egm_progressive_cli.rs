//! `egm-progressive serve` as a site runs it, against the project's own
//! PostgreSQL: its log (issue 69: after every attack the service's log held
//! only its start-up line).
#![allow(clippy::unwrap_used)]

#[path = "../../tests/support/controller.rs"]
mod controller;

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

use linked_controller::{CabinetClient, Role};

/// `egm-progressive serve` for database `db` on a free loopback port, its
/// log (standard error, at `info`) to `log`: the process and its address.
fn serve(db: &str, log: Stdio) -> (std::process::Child, std::net::SocketAddr) {
    let pki = controller::pki();
    let path = |f: &str| pki.join(f).display().to_string();
    let mut serve = Command::new(env!("CARGO_BIN_EXE_egm-progressive"))
        .args(["serve", &controller::url("egm-service", db), "--listen", "127.0.0.1:0"])
        .args(["--ca", &path("ca.crt"), "--cert", &path("server.crt"), "--key", &path("server.key")])
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut said = String::new();
    BufReader::new(serve.stdout.take().unwrap()).read_line(&mut said).unwrap();
    let addr = said.trim().rsplit(' ').next().unwrap().parse().unwrap_or_else(|e| panic!("{said:?}: {e}"));
    (serve, addr)
}

/// Every line the service logs is a JSON object, and a refusal names its
/// cabinet and its reason.
#[test]
fn serve_logs_every_refusal_as_a_json_line_with_its_cabinet() {
    let logins = [("egm-operator", Role::Operator), ("egm-service", Role::Service), ("A", Role::Cabinet)];
    let db = controller::fresh_database("serve_log", &logins);
    let (mut serve, addr) = serve(&db, Stdio::piped());
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

/// The workspace's file `path`.
fn workspace(path: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path).display().to_string()
}

fn progressive(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_egm-progressive")).args(args).output().unwrap()
}

/// Issue 69: approval does the math. The guide's former approval (docs/install.md) (one
/// cherry wins the 1,000 c Mini at any bet) at 1 c is refused with its
/// figure, and nothing is approved; the guide's approval now (three wilds
/// and three sevens, at the largest bet, from 20 c, a 1 % seed budget) is approved, its
/// figures kept with it, and a committed round at a denomination the
/// approval did not weigh is refused by the controller's service, as are
/// plain contributions at wagers no approved bet makes (attack 2).
#[test]
fn approve_weighs_the_pool_refuses_the_cherry_mini_and_keeps_its_figures() {
    let logins = [("egm-operator", Role::Operator), ("egm-service", Role::Service), ("A", Role::Cabinet)];
    let db = controller::fresh_database("approve_math", &logins);
    let op = controller::url("egm-operator", &db);
    let setup = progressive(&["setup", &op, &workspace("assets/progressive/linked-sevens.ron")]);
    assert!(setup.status.success(), "{}", String::from_utf8_lossy(&setup.stderr));
    let sevens = workspace("assets/paytables/classic-sevens.ron");
    let approve = |triggers: [&str; 2], denominations: &str| {
        let mut args = vec![
            "approve",
            &op,
            "linked-sevens",
            "--paytable",
            &sevens,
            "--confirm-above",
            "100000",
            "--denominations",
            denominations,
            "--seed-budget-ppm",
            "10000",
        ];
        for t in &triggers {
            args.extend(["--trigger", t]);
        }
        progressive(&args)
    };
    let refused = approve(["0:7:3:max", "1:CH:1"], "1");
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        said.contains("pool linked-sevens is not approved")
            && said.contains("resets cost 9449.01 % of the wager, and the reserves and the seed budget fund 1.10 %"),
        "{said}"
    );
    assert!(String::from_utf8_lossy(&refused.stdout).contains("Mini 1 in 10.6"));
    let mut c = linked_controller::Controller::connect(&op).unwrap();
    assert_eq!(c.approval_figures("linked-sevens").unwrap(), None, "figures kept for a refused approval");

    let approved = approve(["0:W:3:max", "1:7:3:max"], "20,50,100,200");
    assert!(approved.status.success(), "{}", String::from_utf8_lossy(&approved.stderr));
    assert!(String::from_utf8_lossy(&approved.stdout).contains("approved at 20, 50, 100, 200 c"));
    let figures: serde_json::Value = serde_json::from_str(&c.approval_figures("linked-sevens").unwrap().unwrap()).unwrap();
    assert_eq!(figures["denominations"], serde_json::json!([20, 50, 100, 200]));
    assert_eq!(figures["bets"].as_array().unwrap().len(), 12, "3 bets × 4 denominations");
    assert_eq!(figures["refusals"], serde_json::json!([]));

    // The cabinet offers 10 c too; the approval did not weigh it.
    let assign = progressive(&["assign", &op, "linked-sevens", "A", "--denominations", "10,20"]);
    assert!(assign.status.success(), "{}", String::from_utf8_lossy(&assign.stderr));
    let (mut serve, addr) = serve(&db, Stdio::null());
    let mut a = CabinetClient::connect(&controller::cabinet_url_at("A", addr.port())).unwrap();
    let bet = |denom| linked_controller::ReelBet { game: "classic-sevens".into(), lines: 1, credits_per_line: 3, denom };
    let epoch = "0123456789abcdef0123456789abcdef";
    let at_10 = a.commit("linked-sevens", epoch, 1, &"ab".repeat(32), &bet(10));
    assert!(
        matches!(&at_10, Err(linked_controller::LinkError::Refused(r)) if r.contains("denomination 10 cents is not one pool linked-sevens's approval weighed")),
        "{at_10:?}"
    );
    let at_20 = a.commit("linked-sevens", epoch, 2, &"cd".repeat(32), &bet(20));
    assert!(at_20.as_ref().is_ok_and(|n| n.len() == 64), "{at_20:?}");
    // Attack 2: every contribution is a committed round here (claims
    // reveal their key): a plain row is refused, even at a bet the
    // approval weighed; the committed round's own row is a duplicate.
    let rows = a.contribute("linked-sevens", epoch, &[(2, 60), (3, 601), (4, 1_000_000), (5, 60)]).unwrap();
    assert_eq!(rows[0], (2, linked_controller::Outcome::Duplicate));
    for row in &rows[1..] {
        assert!(
            matches!(&row.1, linked_controller::Outcome::Refused(r) if r.contains(&format!("round {} was not committed: pool linked-sevens takes committed rounds only", row.0))),
            "{row:?}"
        );
    }
    // Where the operator allows plain play, plain rows come only at a
    // wager the approval weighed.
    c.allow_plain_claims("linked-sevens", true).unwrap();
    let rows = a.contribute("linked-sevens", epoch, &[(3, 601), (4, 1_000_000), (5, 60)]).unwrap();
    assert_eq!(rows[2], (5, linked_controller::Outcome::Accepted));
    for (row, wager) in rows[..2].iter().zip([601, 1_000_000]) {
        assert!(
            matches!(&row.1, linked_controller::Outcome::Refused(r) if r.contains(&format!("wager {wager} cents is not a bet pool linked-sevens's approval weighed"))),
            "{row:?}"
        );
    }
    let books = c.books("linked-sevens").unwrap();
    assert_eq!((books.contributions, books.wagered), (2, 60 + 60), "the committed round at 20 c and the 60 c row");
    drop(a);
    let _ = serve.kill();
    let _ = serve.wait();
}

/// Issue 69: the floor's own meters, as an operator enters them
/// (`floor-meter`, the SAS host's coin-in in cents) and reads them against
/// the linked rounds (`floor`): cabinet A contributes 180 c of rounds
/// through the service while the floor sees no coin-in — an alarm with its
/// figures, exit status 1; a reading that goes back is refused; a RAM
/// clear's new baseline starts a new series.
#[test]
fn floor_meters_are_entered_and_set_against_the_linked_rounds() {
    let logins = [("egm-operator", Role::Operator), ("egm-service", Role::Service), ("A", Role::Cabinet)];
    let db = controller::fresh_database("floor_meters", &logins);
    let op = controller::url("egm-operator", &db);
    let setup = progressive(&["setup", &op, &workspace("assets/progressive/linked-sevens.ron")]);
    assert!(setup.status.success(), "{}", String::from_utf8_lossy(&setup.stderr));
    let assign = progressive(&["assign", &op, "linked-sevens", "A", "--denominations", "20"]);
    assert!(assign.status.success(), "{}", String::from_utf8_lossy(&assign.stderr));
    let read = |coin_in: &str, baseline: bool| {
        let mut args = vec!["floor-meter", &op, "A", coin_in];
        if baseline {
            args.push("--baseline");
        }
        progressive(&args)
    };
    let first = read("1000", false);
    assert_eq!(String::from_utf8_lossy(&first.stdout).trim(), "cabinet A: coin-in 1000 cents");
    std::thread::sleep(std::time::Duration::from_millis(20));
    let (mut serve, addr) = serve(&db, Stdio::null());
    let mut a = CabinetClient::connect(&controller::cabinet_url_at("A", addr.port())).unwrap();
    a.contribute("linked-sevens", "0123456789abcdef0123456789abcdef", &[(1, 60), (2, 60), (3, 60)]).unwrap();
    drop(a);
    let _ = serve.kill();
    let _ = serve.wait();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(read("1000", false).status.success());

    let floor = progressive(&["floor", &op]);
    let said = String::from_utf8_lossy(&floor.stdout);
    assert_eq!(floor.status.code(), Some(1), "{said}");
    let alarm = said.lines().find(|l| l.starts_with("ALARM: cabinet A: its 3 linked rounds from ")).unwrap_or_else(|| panic!("{said}"));
    assert!(
        alarm.ends_with(" wagered 180 cents, the floor metered 0 cents of coin-in: 180 cents it never played (rounds committed or contributed without play)"),
        "{alarm}"
    );
    assert!(String::from_utf8_lossy(&floor.stderr).contains("1 cabinet(s) contributed rounds the floor's meters never saw played"));

    let back = read("900", false);
    assert!(!back.status.success());
    assert!(
        String::from_utf8_lossy(&back.stderr).contains("the floor's coin-in never goes back (900 cents after 1000)"),
        "{}",
        String::from_utf8_lossy(&back.stderr)
    );
    // A RAM clear zeroed the cabinet's meters: a new baseline.
    assert!(read("0", true).status.success());
    let floor = progressive(&["floor", &op]);
    assert!(floor.status.success(), "{}", String::from_utf8_lossy(&floor.stdout));
    assert!(String::from_utf8_lossy(&floor.stdout).ends_with("1 cabinet(s) read by the floor; 0 alarm(s)\n"));
}
