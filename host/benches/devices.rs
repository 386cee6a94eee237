//! Issue 70: a note's poll-to-credit latency through the real path — the
//! emulated ID-003 acceptor on a pty, the driver on the host's thread at
//! the default poll (200 ms), the core committing to SQLite — and, with
//! `--bench`, the host's CPU while it polls an idle acceptor and an idle
//! ticket printer (both at 200 ms) and the screen tends them and the panel
//! (doors, button lamps, tower light in an LED-class directory) every
//! frame, 60 a second.
//!
//! `cargo bench -p game-host --features lab --bench devices`
#![allow(clippy::unwrap_used)]

#[path = "../tests/host/device_end.rs"]
mod device_end;
#[path = "../../tests/support/test_config.rs"]
mod test_config;

use std::path::Path;
use std::time::{Duration, Instant};

use criterion::Criterion;
use device_end::{AcceptorEnd, PrinterEnd};
use game_host::boot::{BootOptions, boot};
use game_host::command::Command;
use game_host::session::Session;
use peripherals::id003::Denomination;

fn start(dir: &Path, port: &Path) -> Session {
    let text = test_config::text(dir);
    let at = text.rfind(')').unwrap();
    let acceptor = format!("    acceptor: Some((port: {:?}, notes: [(code: 0x62, cents: 500)])),\n", port.display().to_string());
    let config = test_config::write(dir, &format!("{}{acceptor}{}", &text[..at], &text[at..]));
    boot(&BootOptions { config, db: dir.join("egm.sqlite"), lab_seed: Some(7), demo: false }).unwrap()
}

/// Feeds one 5-EUR note to an idle acceptor and tends the session as the
/// screen does until its credit is committed: the time from the note fed
/// to the credit (the previous note's ACK and stacked, untimed, first).
fn one_note(s: &mut Session, end: &AcceptorEnd) -> Duration {
    if s.machine().credit() + 500 > s.machine().config().credit_limit {
        assert!(s.command(Command::CashOut));
    }
    while !end.with(|e| e.settled()) {
        s.tend_acceptor();
        std::thread::sleep(Duration::from_millis(1));
    }
    let before = s.machine().credit();
    let fed = Instant::now();
    end.with(|e| e.insert(Denomination::Note(0x62)));
    while s.machine().credit() == before {
        s.tend_acceptor();
        std::thread::sleep(Duration::from_millis(1));
        assert!(fed.elapsed() < Duration::from_secs(10), "the note was never credited");
    }
    fed.elapsed()
}

fn poll_to_credit(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let end = AcceptorEnd::new();
    let mut s = start(dir.path(), &end.path);
    let mut group = c.benchmark_group("acceptor");
    group.sample_size(10).measurement_time(Duration::from_secs(30)).warm_up_time(Duration::from_secs(1));
    group.bench_function("poll_to_credit_at_200ms", |b| b.iter_custom(|n| (0..n).map(|_| one_note(&mut s, &end)).sum()));
    group.finish();
}

/// This process's CPU time (user and system) so far, from /proc.
fn cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
    // utime and stime: fields 14 and 15 of the line, in clock ticks (100 a second).
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

/// A cabinet with every device: the acceptor and the printer on their
/// ptys, the panel's doors (fed as the lab's keys feed them) and its lamps
/// in a directory laid out as the kernel's LED class.
fn start_all(dir: &Path, acceptor: &Path, printer: &Path) -> Session {
    let leds = dir.join("leds");
    let names = ["deck:play", "deck:cash-out", "deck:bet-up", "tower:top", "tower:bottom"];
    for n in names {
        std::fs::create_dir_all(leds.join(n)).unwrap();
        for (f, v) in [("brightness", "0"), ("max_brightness", "1"), ("trigger", "none")] {
            std::fs::write(leds.join(n).join(f), v).unwrap();
        }
    }
    let text = test_config::text(dir);
    let at = text.rfind(')').unwrap();
    let devices = format!(
        "    acceptor: Some((port: {:?}, notes: [(code: 0x62, cents: 500)])),\n    printer: Some((port: {:?})),\n    \
         panel: Some((inputs: [], doors: [(door: Main, switch: Switch(0), optic: Some(Switch(1)))], lamps: Some((dir: {:?}, \
         buttons: {{Play: \"deck:play\", CashOut: \"deck:cash-out\", BetUp: \"deck:bet-up\"}}, tower_top: Some(\"tower:top\"), \
         tower_bottom: Some(\"tower:bottom\"))))),\n",
        acceptor.display().to_string(),
        printer.display().to_string(),
        leds.display().to_string()
    );
    let config = test_config::write(dir, &format!("{}{devices}{}", &text[..at], &text[at..]));
    let mut s = boot(&BootOptions { config, db: dir.join("egm.sqlite"), lab_seed: Some(7), demo: false }).unwrap();
    for contact in [peripherals::panel::Contact::Switch(0), peripherals::panel::Contact::Switch(1)] {
        s.panel_input(peripherals::panel::Change { contact, closed: true });
    }
    s.attendant_clear();
    s
}

fn cpu_while_polling() {
    let dir = tempfile::tempdir().unwrap();
    let (acceptor, printer) = (AcceptorEnd::new(), PrinterEnd::new());
    let mut s = start_all(dir.path(), &acceptor.path, &printer.path);
    assert!(s.machine().play_block().is_none(), "{:?}", s.machine().play_block());
    let (from, at) = (cpu(), Instant::now());
    while at.elapsed() < Duration::from_secs(10) {
        s.tend_acceptor();
        s.tend_printer();
        s.tend_panel();
        std::thread::sleep(Duration::from_micros(16_667));
    }
    let used = cpu() - from;
    let polls = acceptor.with(|e| e.answered());
    let printer_ready = s.printer().is_some_and(|p| p.ready());
    println!(
        "devices/cpu_while_polling: {:.1} ms of CPU a second ({:.2} % of a core; {polls} acceptor polls in 10 s, the printer ready: {printer_ready}, \
         the emulators' ends included)",
        used.as_secs_f64() * 100.0,
        used.as_secs_f64() * 10.0
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    poll_to_credit(&mut c);
    c.final_summary();
    if std::env::args().any(|a| a == "--bench") {
        cpu_while_polling();
    }
}
