//! Exactly once across a kill -9 (issue 48): the real game host runs as a
//! process of its own (`egm-floor-cabinet`) on a pty, the reference host
//! (`sas::host`) is the floor on the pty's other end, and the cabinet is
//! killed with SIGKILL at each step of a ticket redemption and of an AFT
//! transfer: with the ticket in escrow; with the floor's answer taken by
//! the port and not yet acted on; after the commit, before the floor took
//! its event; after the floor took it. After each restart the floor
//! retries as a floor does: no cent is created or lost, the meters
//! balance, a replayed redemption and a duplicated AFT id move nothing.
#![allow(clippy::unwrap_used)]

#[path = "support/test_config.rs"]
mod test_config;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use sas::bcd;
use sas::host::Host;
use sas::transport::{Pty, SerialLine};

const ADDRESS: u8 = 1;
const ASSET: u32 = 4242;

/// The cabinet's process.
struct Cabinet {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Cabinet {
    fn start(dir: &Path, config: &Path, die_after: Option<&str>) -> Cabinet {
        let mut command = Command::new(env!("CARGO_BIN_EXE_egm-floor-cabinet"));
        command.arg(config).arg(dir.join("egm.sqlite"));
        if let Some(what) = die_after {
            command.args(["--die-after", what]);
        }
        let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let c = Cabinet { child, stdin, lines };
        assert_eq!(c.line(), "ready");
        c
    }

    fn line(&self) -> String {
        self.lines.recv_timeout(Duration::from_secs(60)).expect("the cabinet answers")
    }

    /// A command; the credit after it.
    fn command(&mut self, line: &str) -> u64 {
        writeln!(self.stdin, "{line}").unwrap();
        let answer = self.line();
        answer.strip_prefix("credit ").and_then(|c| c.parse().ok()).unwrap_or_else(|| panic!("{line}: {answer}"))
    }

    /// A ticket in the reader; the events the floor then takes.
    fn insert(&mut self, host: &mut Host, validation: &str) -> Vec<u8> {
        self.command(&format!("ticket {validation}"));
        drain(host)
    }

    /// kill -9 from outside, as the power switch would.
    fn kill(mut self) {
        self.child.kill().unwrap();
        let status = self.child.wait().unwrap();
        assert_eq!(status.signal(), Some(9));
    }

    /// Waits for the process to have killed itself with SIGKILL (at its
    /// `--die-after` point).
    fn died(mut self) {
        for _ in 0..600 {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert_eq!(status.signal(), Some(9), "killed by SIGKILL at its point");
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the cabinet did not reach its kill point");
    }

    /// The floor polls, taking every event, until the process has killed
    /// itself at its `--die-after taken` point.
    fn died_once_the_floor_took_its_event(mut self, host: &mut Host) {
        for _ in 0..20 {
            if self.child.try_wait().unwrap().is_some() {
                break;
            }
            let _ = drain(host);
        }
        self.died();
    }
}

fn config(dir: &Path, pty: &Path) -> PathBuf {
    let sas = format!(
        "    sas: Some((port: {:?}, address: {ADDRESS}, line: Pty, ticket_timeout_s: 60, asset_number: {ASSET})),\n    autoplay_max:",
        pty.display().to_string()
    );
    test_config::write(dir, &test_config::text(dir).replacen("    autoplay_max:", &sas, 1))
}

/// The floor's side: polls until the cabinet's port answers, then takes
/// every exception.
fn drain(host: &mut Host) -> Vec<u8> {
    std::thread::sleep(Duration::from_millis(50));
    let codes = host.drain_exceptions(ADDRESS).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    codes
}

fn data(reply: &sas::host::Reply, command: u8) -> Vec<u8> {
    let b = reply.bytes();
    assert!(b.len() >= 4 && b[..2] == [ADDRESS, command] && sas::crc::checks(b), "LP {command:02X}: {b:02X?}");
    b[2..b.len() - 2].to_vec()
}

/// LP 71 (redeem, or FF for the status): the machine status and amount.
fn lp71(host: &mut Host, code: u8, amount: u64, validation: &str) -> (u8, u64) {
    let mut d = vec![code];
    if code != 0xFF {
        d.extend(bcd::encode(amount, 5));
        d.push(0x00);
        d.extend(sas::tickets::validation_bcd(validation));
    }
    for _ in 0..100 {
        host.sync().unwrap();
        let r = host.variable_poll(ADDRESS, 0x71, &d).unwrap();
        if r.bytes().len() >= 4 {
            let data = data(&r, 0x71);
            return (data[1], bcd::decode(&data[2..7]).unwrap());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("no answer to LP 71");
}

/// LP 72 (a transfer, or FF the interrogation): status and amount.
fn lp72(host: &mut Host, code: u8, kind: u8, cents: u64, id: &str) -> (u8, u64) {
    let request = if code == 0xFF { vec![0xFF, 0x00] } else { sas::aft::request_72(code, kind, cents, id, ASSET) };
    for _ in 0..100 {
        host.sync().unwrap();
        let r = host.variable_poll(ADDRESS, 0x72, &request).unwrap();
        if r.bytes().len() >= 4 {
            let d = data(&r, 0x72);
            return (d[2], if d.len() > 9 { bcd::decode(&d[5..10]).unwrap() } else { 0 });
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("no answer to LP 72");
}

/// LP 72 sent once: the status and amount, or `None` when the cabinet
/// did not answer.
fn lp72_once(host: &mut Host, code: u8, kind: u8, cents: u64, id: &str) -> Option<(u8, u64)> {
    host.sync().unwrap();
    let r = host.variable_poll(ADDRESS, 0x72, &sas::aft::request_72(code, kind, cents, id, ASSET)).unwrap();
    (r.bytes().len() >= 4).then(|| {
        let d = data(&r, 0x72);
        (d[2], if d.len() > 9 { bcd::decode(&d[5..10]).unwrap() } else { 0 })
    })
}

/// A transfer as a floor makes it: asked until answered, then
/// interrogated while pending (40); its final status and amount.
fn made(host: &mut Host, kind: u8, cents: u64, id: &str) -> (u8, u64) {
    let mut reply = lp72(host, 0x00, kind, cents, id);
    for _ in 0..100 {
        if reply.0 != sas::aft::status::PENDING {
            return reply;
        }
        std::thread::sleep(Duration::from_millis(20));
        reply = lp72(host, 0xFF, 0, 0, "");
    }
    panic!("AFT {id} stayed pending");
}

/// The credit and the meters as critical memory holds them, read by a
/// boot of its own once the cabinet's process is gone; the self-audit
/// (every M-25 equation) must hold.
fn books(dir: &Path) -> (u64, u64, u64, u64) {
    let plain = test_config::write(&dir.join("audit"), &test_config::text(dir));
    let s = game_host::boot::boot(&game_host::boot::BootOptions { config: plain, db: dir.join("egm.sqlite"), lab_seed: Some(48), demo: false }).unwrap();
    let st = s.machine().state();
    st.self_audit().unwrap();
    (s.machine().credit(), st.totals.bilhetes_codificados_entrados, st.totals.transferencias_entrada, st.totals.transferencias_saida)
}

#[test]
fn a_ticket_redemption_survives_a_kill_at_each_step_and_pays_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("audit")).unwrap();
    let pty = Pty::open().unwrap();
    let cfg = config(dir.path(), &pty.path);
    let mut host = Host::new(SerialLine::marked(pty.master.try_clone().unwrap()));

    // 1. Killed with the ticket in escrow, the floor not yet answered:
    // after the restart the floor's answer finds no ticket (C0), nothing
    // is credited; the player inserts it again and it is paid once.
    let a = "111111111111111111";
    let mut c = Cabinet::start(dir.path(), &cfg, None);
    let _ = drain(&mut host);
    assert!(c.insert(&mut host, a).contains(&0x67));
    c.kill();
    let mut c = Cabinet::start(dir.path(), &cfg, None);
    assert_eq!(lp71(&mut host, 0x00, 1_000, a), (0xC0, 0));
    assert_eq!(c.command("go"), 0);
    let _ = drain(&mut host);
    let _ = c.insert(&mut host, a);
    assert_eq!(lp71(&mut host, 0x00, 1_000, a), (0x40, 1_000));
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(c.command("go"), 1_000);

    // 2. Killed after the port took the floor's "redeem", before the
    // session acted on it: nothing credited; the retry finds no ticket;
    // inserted again, paid once.
    let b = "222222222222222222";
    let _ = drain(&mut host);
    c.command("hold");
    assert!(c.insert(&mut host, b).contains(&0x67));
    assert_eq!(lp71(&mut host, 0x00, 2_000, b), (0x40, 2_000));
    c.kill();
    let mut c = Cabinet::start(dir.path(), &cfg, None);
    assert_eq!(c.command("go"), 1_000, "nothing credited");
    assert_eq!(lp71(&mut host, 0x00, 2_000, b), (0xC0, 0));
    let _ = drain(&mut host);
    let _ = c.insert(&mut host, b);
    assert_eq!(lp71(&mut host, 0x00, 2_000, b), (0x40, 2_000));
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(c.command("go"), 3_000);
    let _ = drain(&mut host);
    c.kill();

    // 3. Killed right after the commit, before the floor took 68: after
    // the restart 68 is told again, LP 71 FF says redeemed, the floor's
    // replayed redemption and the same ticket again move nothing.
    let d = "333333333333333333";
    let mut c = Cabinet::start(dir.path(), &cfg, Some("committed"));
    let _ = drain(&mut host);
    let _ = c.insert(&mut host, d);
    assert_eq!(lp71(&mut host, 0x00, 4_000, d), (0x40, 4_000));
    c.died();
    let mut c = Cabinet::start(dir.path(), &cfg, None);
    assert_eq!(c.command("go"), 7_000, "credited once, before the kill");
    assert!(drain(&mut host).contains(&0x68), "told again after the restart");
    assert_eq!(lp71(&mut host, 0xFF, 0, ""), (0x00, 4_000));
    assert_eq!(lp71(&mut host, 0x00, 4_000, d), (0x00, 4_000), "a replay: its status, nothing moves");
    let _ = c.insert(&mut host, d);
    assert_eq!(lp71(&mut host, 0x00, 4_000, d), (0x40, 4_000));
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(c.command("go"), 7_000, "the same ticket again: refused by the cabinet");
    assert_eq!(lp71(&mut host, 0xFF, 0, ""), (0x83, 0));
    let _ = drain(&mut host);
    c.kill();

    // 4. Killed after the floor took 68 (its cursor recorded): not told
    // again; LP 71 FF still says redeemed.
    let e = "444444444444444444";
    let mut c = Cabinet::start(dir.path(), &cfg, Some("taken"));
    let _ = drain(&mut host);
    let _ = c.insert(&mut host, e);
    assert_eq!(lp71(&mut host, 0x00, 500, e), (0x40, 500));
    c.died_once_the_floor_took_its_event(&mut host);
    let mut c = Cabinet::start(dir.path(), &cfg, None);
    assert_eq!(c.command("go"), 7_500);
    assert!(!drain(&mut host).contains(&0x68), "taken before the kill: not told again");
    assert_eq!(lp71(&mut host, 0xFF, 0, ""), (0x00, 500));
    c.kill();

    // The books: 75.00 in, from exactly four tickets.
    assert_eq!(books(dir.path()), (7_500, 7_500, 0, 0));
}

#[test]
fn an_aft_transfer_survives_a_kill_at_each_step_and_moves_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("audit")).unwrap();
    let pty = Pty::open().unwrap();
    let cfg = config(dir.path(), &pty.path);
    let mut host = Host::new(SerialLine::marked(pty.master.try_clone().unwrap()));
    const IN: u8 = sas::aft::IN_HOUSE_TO_EGM;
    const OUT: u8 = sas::aft::IN_HOUSE_TO_HOST;

    // 1. Killed after the port took the transfer, before the session
    // journaled it: the floor was told nothing (issue 71: no reply until
    // it is journaled); nothing moved; the interrogation shows no such
    // transfer; the retry moves it once.
    let mut c = Cabinet::start(dir.path(), &cfg, None);
    let _ = drain(&mut host);
    c.command("hold");
    assert_eq!(lp72_once(&mut host, 0x00, IN, 2_500, "AFT-1"), None, "not journaled: no reply");
    c.kill();
    let mut c = Cabinet::start(dir.path(), &cfg, None);
    assert_eq!(c.command("go"), 0, "nothing moved");
    assert_ne!(lp72(&mut host, 0xFF, 0, 0, ""), (0x00, 2_500));
    assert_eq!(made(&mut host, IN, 2_500, "AFT-1"), (0x00, 2_500));
    assert_eq!(c.command("go"), 2_500);
    let _ = drain(&mut host);
    c.kill();

    // 2. Killed with the transfer journaled pending, before it was made
    // (issue 71, defect 3: the interrogation after the restart returned
    // the transfer before it): the restart makes it, once; the
    // interrogation reports it; the same id again moves nothing.
    let c = Cabinet::start(dir.path(), &cfg, Some("pending"));
    let _ = drain(&mut host);
    let _ = lp72_once(&mut host, 0x00, IN, 500, "AFT-P");
    c.died();
    let mut c = Cabinet::start(dir.path(), &cfg, None);
    assert_eq!(c.command("go"), 3_000, "resumed at power-up, once");
    assert_eq!(lp72(&mut host, 0xFF, 0, 0, ""), (0x00, 500));
    assert_eq!(lp72(&mut host, 0x00, IN, 500, "AFT-P"), (0x00, 500), "a duplicated id: its status, nothing moves");
    assert!(drain(&mut host).contains(&0x69));
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(c.command("go"), 3_000);
    c.kill();

    // 3. Killed right after the commit, before the floor took 69: the
    // restart reports it made; the same id again moves nothing.
    let c = Cabinet::start(dir.path(), &cfg, Some("committed"));
    let _ = drain(&mut host);
    let _ = lp72_once(&mut host, 0x00, IN, 500, "AFT-2");
    c.died();
    let mut c = Cabinet::start(dir.path(), &cfg, None);
    assert_eq!(c.command("go"), 3_500, "moved once, before the kill");
    assert_eq!(lp72(&mut host, 0xFF, 0, 0, ""), (0x00, 500));
    assert_eq!(lp72(&mut host, 0x00, IN, 500, "AFT-2"), (0x00, 500), "a duplicated id: its status, nothing moves");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(c.command("go"), 3_500);
    let _ = drain(&mut host);
    c.kill();

    // 4. Out to the floor, killed after the floor took 69: the credit left
    // once; the same id after the restart moves nothing.
    let c = Cabinet::start(dir.path(), &cfg, Some("taken"));
    let _ = drain(&mut host);
    assert_eq!(made(&mut host, OUT, 3_500, "AFT-3"), (0x00, 3_500));
    c.died_once_the_floor_took_its_event(&mut host);
    let mut c = Cabinet::start(dir.path(), &cfg, None);
    assert_eq!(c.command("go"), 0);
    assert_eq!(lp72(&mut host, 0x00, OUT, 3_500, "AFT-3"), (0x00, 3_500), "a duplicated id: nothing moves");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(c.command("go"), 0);
    c.kill();

    // The books: 35.00 in and 35.00 out by AFT, nothing else.
    assert_eq!(books(dir.path()), (0, 0, 3_500, 3_500));
}
