//! `egm-link-frames [SECONDS]`: what the game host costs a cabinet's frame
//! while its linked controller is up, slow and down (issue 35, attack 4).
//! The real host plays Sevens Classic on a linked pool of a real
//! PostgreSQL controller (`tools/postgres.sh`), driven as the cabinet
//! drives it: every frame (60 a second) the screen's commands, and ten
//! times a second the linked pools' tending. Each phase lasts SECONDS
//! (default 10): up; slow (the administrator holds the pool's level rows,
//! so every contribution and award waits on the lock); down (the server
//! killed); back up. For each phase it prints the frames, the rounds
//! played, and the host's time per frame: mean, p95 and worst. A frame
//! lasts 16.7 ms at 60 fps: the host's share must stay far below it,
//! whatever the controller does. Run by `tools/bench-link-frames.sh`.

#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use game_host::boot::{BootOptions, boot};
use game_host::command::Command;
use linked_controller::{ApprovedReelGame, ApprovedTrigger, Controller, Role};

#[path = "support/controller.rs"]
mod controller;
#[path = "support/test_config.rs"]
mod test_config;

const POOL: &str = "linked-sevens";

struct Phase {
    name: &'static str,
    frames: Vec<f64>,
    rounds: u64,
}

fn main() {
    let seconds: u64 = std::env::args().nth(1).map_or(10, |s| s.parse().expect("SECONDS is a number"));
    let admin = controller::postgres("start");
    let db = controller::fresh_database("link_frames", &[("egm-operator", Role::Operator), ("EGM-0001", Role::Cabinet)]);
    let mut op = Controller::connect(&controller::url("egm-operator", &db)).unwrap();
    let ws = test_config::workspace();
    op.configure_pool(&ron::from_str(&std::fs::read_to_string(ws.join("assets/progressive/linked-sevens.ron")).unwrap()).unwrap(), 1_000_000).unwrap();
    op.set_denominations("EGM-0001", &[1, 2, 5, 10, 20, 50, 100, 200]).unwrap();
    op.assign(POOL, "EGM-0001", true).unwrap();
    let sevens = paytables::compile::load(&ws.join("assets/paytables/classic-sevens.ron")).unwrap();
    let games = std::collections::BTreeMap::from([(sevens.id.clone(), ApprovedReelGame::of(&sevens))]);
    let triggers = [ApprovedTrigger { level: 1, symbol: "CH".into(), count: 1, max_bet_only: false, hold_and_spin_grand: false }];
    op.approve_games(POOL, &games, &triggers, 1 << 40).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let text = controller::with_linked_pool(
        &test_config::text(dir.path()),
        &controller::cabinet_url("EGM-0001", &db),
        POOL,
        "(1, ReelCombination(symbol: \"CH\", count: 1, max_bet_only: false))",
    );
    let config = test_config::write(dir.path(), &text);
    let mut s = boot(&BootOptions { config, db: dir.path().join("egm.sqlite"), lab_seed: Some(5), demo: false }).unwrap();
    let index = s.games().iter().position(|g| g.id() == "classic-sevens").unwrap();
    assert!(s.command(Command::SelectGame { index }));
    let ready = Instant::now();
    while !s.linked()[0].view().available() {
        assert!(ready.elapsed() < Duration::from_secs(30), "the controller never answered");
        std::thread::sleep(Duration::from_millis(50));
    }

    let frame = Duration::from_micros(16_667);
    let mut phases = Vec::new();
    let mut admin_lock: Option<Controller> = None;
    for name in ["up", "slow", "down", "back up"] {
        match name {
            "slow" => {
                let mut c = Controller::connect(&admin.replace("dbname=egm_progressive", &format!("dbname={db}"))).unwrap();
                c.client().batch_execute("BEGIN; SELECT 1 FROM egm.levels FOR UPDATE").unwrap();
                admin_lock = Some(c);
            }
            "down" => {
                admin_lock = None;
                controller::postgres("kill");
            }
            "back up" => {
                controller::postgres("start");
            }
            _ => {}
        }
        let mut phase = Phase { name, frames: Vec::new(), rounds: 0 };
        let started = Instant::now();
        let mut last_tend = Instant::now();
        while started.elapsed() < Duration::from_secs(seconds) {
            let t = Instant::now();
            // The screen's commands of a frame.
            if s.in_round() {
                s.command(Command::Revealed);
                s.command(Command::Collect);
            } else {
                if s.machine().credit() < 1_000 {
                    s.command(Command::InsertNote { cents: 5_000 });
                }
                if s.command(Command::Play) {
                    phase.rounds += 1;
                }
            }
            // The linked pools' clock (`cabinet::linked`).
            if last_tend.elapsed() >= Duration::from_millis(100) {
                s.tend_linked();
                last_tend = Instant::now();
            }
            let spent = t.elapsed();
            phase.frames.push(spent.as_secs_f64() * 1_000.0);
            std::thread::sleep(frame.saturating_sub(spent));
        }
        phases.push(phase);
    }
    drop(admin_lock);
    println!("{:<8} {:>7} {:>7} {:>12} {:>10} {:>10}", "phase", "frames", "rounds", "mean (ms)", "p95 (ms)", "max (ms)");
    for p in &mut phases {
        p.frames.sort_by(f64::total_cmp);
        let n = p.frames.len();
        let mean = p.frames.iter().sum::<f64>() / n.max(1) as f64;
        let p95 = p.frames.get(((n.saturating_sub(1)) as f64 * 0.95) as usize).copied().unwrap_or(0.0);
        let max = p.frames.last().copied().unwrap_or(0.0);
        println!("{:<8} {:>7} {:>7} {:>12.3} {:>10.3} {:>10.3}", p.name, n, p.rounds, mean, p95, max);
    }
}
