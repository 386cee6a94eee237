//! Fault injection through the real game host (issue 11; certification.md
//! C-23, M-36): `egm-host-soak` plays every kind of game the host hosts on
//! a real SQLite file and is killed with SIGKILL at random points, between
//! and inside rounds. After each kill the file must verify and pass the
//! self-audit, every fact the host reported must be there, no round may be
//! settled twice, and every settled round must have paid exactly what the
//! rules give for the outcome and decisions it committed — worked out here
//! from the journal with game-core, not taken from the host. The host's own
//! resume code finishes the interrupted rounds.
#![allow(clippy::unwrap_used)]

#[path = "journal_rules.rs"]
mod journal_rules;
#[path = "kill.rs"]
mod kill;
#[path = "support/test_config.rs"]
mod test_config;
#[path = "host_write_points.rs"]
mod write_points;
// I-56's call graph checked against the sources (a module here: one
// test binary fewer to link).
#[path = "rng_call_graph.rs"]
mod rng_call_graph;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use journal_rules::{Rules, rules, rules_win};
use kill::{Delays, run_killed, start_of};
use meters::RecallOutcome;
use meters::inspect::Inspection;

/// Kills at least this many times, and on until at least
/// [`RESUMES_WANTED`] rounds were resumed (a loaded machine's slower boot
/// takes more kills before a round is begun), at most [`MOST_KILLS`].
const KILLS: u32 = 30;
const RESUMES_WANTED: usize = 3;
const MOST_KILLS: u32 = 120;
const TIME_BUDGET: Duration = Duration::from_secs(300);

#[derive(Default)]
struct Reported {
    settled: BTreeMap<u64, u64>,
    begun: Vec<u64>,
    resumed: Vec<u64>,
    tickets: Vec<(String, u64)>,
    kinds: BTreeMap<String, u64>,
}

fn parse(out: &str, into: &mut Reported) {
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["settled", r, win] => {
                let (r, win) = (r.parse().unwrap(), win.parse().unwrap());
                if let Some(prev) = into.settled.insert(r, win) {
                    panic!("round {r} reported settled twice ({prev} then {win})");
                }
            }
            ["begun", r, game] => {
                into.begun.push(r.parse().unwrap());
                *into.kinds.entry((*game).to_owned()).or_default() += 1;
            }
            ["resumed", r] => {
                let r = r.parse().unwrap();
                assert!(!into.settled.contains_key(&r), "round {r} was resumed after it had been settled");
                into.resumed.push(r);
            }
            ["ticket", v, value] => into.tickets.push(((*v).to_owned(), value.parse().unwrap())),
            _ => {}
        }
    }
}

fn check(db: &Path, reported: &Reported, rules: &Rules) -> u64 {
    let i = Inspection::open(db).unwrap_or_else(|e| panic!("critical memory does not verify: {e}"));
    i.self_audit().unwrap();
    let s = i.state();
    let rounds = i.recall(u64::MAX).unwrap();
    let (mut staked, mut won, mut played) = (0u64, 0u64, 0u64);
    for r in &rounds {
        match &r.outcome {
            RecallOutcome::Settled { win, components, .. } => {
                // Progressive awards, and the fixed sums a side bet's flushes
                // win when greater than their share of the pool.
                let progressive: u64 =
                    components.iter().filter(|c| c.label.starts_with("progressive ") || c.label.contains("fixed sum")).map(|c| c.amount).sum();
                assert_eq!(*win, rules_win(r, rules) + progressive, "round {} paid another win than its committed outcome gives", r.round);
                assert!(r.steps.iter().all(|st| st.step.name != "spin" || st.draws > 0), "round {}: an outcome with no draw", r.round);
                staked += r.stake;
                won += win;
                played += 1;
            }
            RecallOutcome::InProgress => assert_eq!(s.open_round.as_ref().map(|o| o.round), Some(r.round)),
            RecallOutcome::Voided { reason, .. } => panic!("round {} was voided ({reason}): every hosted round can be resumed", r.round),
        }
        assert!(r.steps[0].draws > 0, "round {} began without a draw by the core", r.round);
    }
    let g = &s.totals.games;
    assert_eq!((g.creditos_jogados, g.creditos_ganhos, g.jogadas_efectuadas), (staked, won, played));
    for (round, win) in &reported.settled {
        let r = rounds.iter().find(|r| r.round == *round).unwrap_or_else(|| panic!("round {round} was lost"));
        assert!(matches!(r.outcome, RecallOutcome::Settled { win: w, .. } if w == *win), "round {round} lost its win");
    }
    for b in &reported.begun {
        assert!(rounds.iter().any(|r| r.round == *b), "begun round {b} was lost");
    }
    for (v, value) in &reported.tickets {
        assert_eq!(s.tickets.get(v).map(|t| t.value), Some(*value), "ticket {v} was lost");
    }
    played
}

#[test]
fn killing_the_host_at_random_points_resumes_every_kind_and_never_loses_a_cent() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let cfg = test_config::config(dir.path(), "");
    let rules = rules();
    let exe = env!("CARGO_BIN_EXE_egm-host-soak");
    let mut delays = Delays::new(0x2545_F491_4F6C_DD1D, 20, 300);
    let mut reported = Reported::default();
    let start = Instant::now();
    let mut kills = 0;
    while (kills < KILLS || reported.resumed.len() < RESUMES_WANTED) && kills < MOST_KILLS && start.elapsed() < TIME_BUDGET {
        let (out, err) = run_killed(exe, &[cfg.as_os_str(), db.as_os_str(), "1000000".as_ref()], start_of(kills), delays.next());
        kills += 1;
        assert!(!err.contains("Error") && !err.contains("panicked"), "the host workload failed: {err}");
        parse(&out, &mut reported);
        if !db.exists() {
            // Killed during boot, before critical memory was created (boot
            // checks the configuration and loads the paytables first):
            // nothing can have happened.
            assert!(reported.begun.is_empty() && reported.settled.is_empty() && reported.tickets.is_empty(), "facts reported with no critical memory");
            continue;
        }
        check(&db, &reported, &rules);
    }
    // A last clean run finishes any interrupted round.
    let out = Command::new(exe).arg(&cfg).arg(&db).arg("30").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    parse(&String::from_utf8_lossy(&out.stdout), &mut reported);
    let played = check(&db, &reported, &rules);
    let i = Inspection::open(&db).unwrap();
    assert!(i.state().open_round.is_none(), "the clean run left a round open");
    assert!(kills >= 10, "only {kills} kills within the time budget");
    assert!(played > 50, "the workload barely ran ({played} rounds)");
    // The shipped games chosen at random: each kind played.
    for kind in ["classic-sevens", "jacks-or-better-9-6", "poquer-sem-descarte", "roleta-francesa", "banca-francesa", "cussec", "bacara"] {
        assert!(reported.kinds.get(kind).copied().unwrap_or(0) >= 1, "{kind} was never played: {:?}", reported.kinds);
    }
    // Recovery through the host's own resume code was exercised, and every
    // resumed round was finished.
    let resumed = reported.resumed.len();
    assert!(resumed >= RESUMES_WANTED, "only {resumed} rounds were resumed after {kills} kills");
    let last = i.recall(u64::MAX).unwrap();
    for r in &reported.resumed {
        let rr = last.iter().find(|x| x.round == *r).unwrap_or_else(|| panic!("resumed round {r} is not in recall"));
        assert!(matches!(rr.outcome, RecallOutcome::Settled { .. }), "resumed round {r} was never finished");
        assert!(!rr.resumed_at.is_empty(), "round {r} was resumed but its record does not say so");
    }
    eprintln!("{kills} kills, {played} rounds settled, {resumed} resumed; kinds {:?}", reported.kinds);
}
