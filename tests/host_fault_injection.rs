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

#[path = "kill.rs"]
mod kill;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use game_core::double_up::Gamble;
use game_core::draw_poker::{Dealt, DrawPokerGame};
use game_core::reels::ReelRound;
use game_core::stud_poker::{Decision, StudDeal, StudPokerGame};
use game_host::kinds::draw_poker::DrawRecord;
use kill::{Delays, run_killed};
use meters::inspect::Inspection;
use meters::{RecallOutcome, RoundRecall};

const KILLS: u32 = 30;
const TIME_BUDGET: Duration = Duration::from_secs(120);

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The embedded configuration with absolute paths and tickets in `dir`.
fn config(dir: &Path) -> PathBuf {
    let ws = workspace();
    let text = std::fs::read_to_string(ws.join("assets/config/cabinet.ron"))
        .unwrap()
        .replace("\"assets/paytables/compiled\"", &format!("{:?}", ws.join("assets/paytables/compiled").display().to_string()))
        .replace("\"assets/paytables/approved.ron\"", &format!("{:?}", ws.join("assets/paytables/approved.ron").display().to_string()))
        .replace("\"var/tickets\"", &format!("{:?}", dir.join("tickets").display().to_string()));
    let path = dir.join("cabinet.ron");
    std::fs::write(&path, text).unwrap();
    path
}

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

/// The card games' rules, loaded from their approved artifacts.
struct Rules {
    draw: BTreeMap<String, DrawPokerGame>,
    stud: StudPokerGame,
}

fn rules() -> Rules {
    let manifest = paytables::artifact::read_manifest(&workspace().join("assets/paytables/approved.ron")).unwrap();
    let load = |id: &str| {
        let path = workspace().join(format!("assets/paytables/compiled/{id}.json"));
        paytables::artifact::load_approved(&path, &manifest, &paytables::check::Floor::legal_minimum()).unwrap()
    };
    let mut draw = BTreeMap::new();
    for id in ["jacks-or-better-9-6", "deuces-wild"] {
        let paytables::artifact::CompiledGame::DrawPoker(g) = load(id) else { panic!("{id} is not draw poker") };
        draw.insert(id.to_owned(), g);
    }
    let paytables::artifact::CompiledGame::StudPoker(stud) = load("poquer-sem-descarte") else { panic!("not a stud game") };
    Rules { draw, stud }
}

/// What the rules pay (cents, before progressives) for the outcome and
/// decisions a settled round committed, read from its journal steps.
fn rules_win(r: &RoundRecall, rules: &Rules) -> u64 {
    let gambles: Vec<Gamble> = r.steps.iter().filter(|s| s.step.name == "gamble").map(|s| serde_json::from_value(s.step.data.clone()).unwrap()).collect();
    let first = &r.steps[0].step;
    let credits = match first.name.as_str() {
        "spin" => serde_json::from_value::<ReelRound>(first.data["deal"].clone()).unwrap().win,
        "deal" => {
            let game = first.data["game"].as_str().unwrap();
            let coins: u32 = serde_json::from_value(first.data["bet"].clone()).unwrap();
            let dealt: Dealt = serde_json::from_value(first.data["deal"].clone()).unwrap();
            let draw = r.steps.iter().find(|s| s.step.name == "draw").expect("a settled draw-poker round has its draw");
            let draw: DrawRecord = serde_json::from_value(draw.step.data.clone()).unwrap();
            // The final hand is the committed deal with the committed holds.
            assert_eq!(draw.hand, dealt.draw(draw.hold), "round {}: the drawn hand is not the committed one", r.round);
            rules.draw[game].win(&draw.hand, coins)
        }
        "stud-deal" => {
            let deal: StudDeal = serde_json::from_value(first.data["deal"].clone()).unwrap();
            let ante: u64 = serde_json::from_value(first.data["bet"].clone()).unwrap();
            let decision = if r.steps.iter().any(|s| s.step.name == "raise") { Decision::Raise } else { Decision::Fold };
            rules.stud.settle(&deal, ante, decision).returned
        }
        other => panic!("round {} began with an unknown step {other}", r.round),
    };
    // The double-up: each gamble stakes what the last one left.
    let mut at_stake = credits;
    for g in &gambles {
        assert_eq!(g.stake, at_stake, "round {}: a gamble staked another amount than was won", r.round);
        at_stake = g.result;
    }
    at_stake * r.denom
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
                let progressive: u64 = components.iter().filter(|c| c.label.starts_with("progressive ")).map(|c| c.amount).sum();
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
    let cfg = config(dir.path());
    let rules = rules();
    let exe = env!("CARGO_BIN_EXE_egm-host-soak");
    let mut delays = Delays::new(0x2545_F491_4F6C_DD1D, 20, 300);
    let mut reported = Reported::default();
    let start = Instant::now();
    let mut kills = 0;
    while kills < KILLS && start.elapsed() < TIME_BUDGET {
        let (out, err) = run_killed(exe, &[cfg.as_os_str(), db.as_os_str(), "1000000".as_ref()], delays.next());
        kills += 1;
        assert!(!err.contains("Error") && !err.contains("panicked"), "the host workload failed: {err}");
        parse(&out, &mut reported);
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
    for kind in ["classic-sevens", "jacks-or-better-9-6", "poquer-sem-descarte"] {
        assert!(reported.kinds.get(kind).copied().unwrap_or(0) > 3, "{kind} was hardly played: {:?}", reported.kinds);
    }
    // Recovery through the host's own resume code was exercised, and every
    // resumed round was finished.
    let resumed = reported.resumed.len();
    assert!(resumed >= 3, "only {resumed} rounds were resumed after {kills} kills");
    let last = i.recall(u64::MAX).unwrap();
    for r in &reported.resumed {
        let rr = last.iter().find(|x| x.round == *r).unwrap_or_else(|| panic!("resumed round {r} is not in recall"));
        assert!(matches!(rr.outcome, RecallOutcome::Settled { .. }), "resumed round {r} was never finished");
        assert!(!rr.resumed_at.is_empty(), "round {r} was resumed but its record does not say so");
    }
    eprintln!("{kills} kills, {played} rounds settled, {resumed} resumed; kinds {:?}", reported.kinds);
}
