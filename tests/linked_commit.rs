//! Issue 46: awards the controller verifies itself. A cabinet's core
//! commits each linked-eligible round before drawing it (SHA-256 of a key
//! from the certified generator, and the bet); the service answers its
//! nonce; the core draws the round from HMAC(key, nonce); a claim reveals
//! the key and the service draws the round again with game-core on the
//! approved paytable at the committed bet. Played here with the real core
//! (`meters::Machine` on SQLite) and the real service and PostgreSQL.

use std::path::Path;

use game_core::reels::{Bet, ReelGame, StopTables};
use linked_controller::{CabinetClient, ReelBet};
use meters::{Machine, MachineConfig, Mode, SeedChoice};

use super::linked_attacks::{MINI, assert_refused};
use super::{POOL, SERVER, cabinet, controller, root, set_up};

fn sevens() -> ReelGame {
    paytables::compile::load(&root().join("assets/paytables/classic-sevens.ron")).unwrap()
}

/// A lab cabinet on the pool, with credit.
fn machine(path: &Path, id: &str) -> Machine {
    let config = MachineConfig { mode: Mode::Lab, machine_id: id.into(), ..MachineConfig::default() };
    let mut m = Machine::open(path, config, SeedChoice::Lab(46)).unwrap();
    m.join_linked_pool(POOL, vec!["classic-sevens".into()], 1).unwrap();
    m.insert_note(5_000).unwrap();
    m
}

/// One committed round of Sevens Classic at `cpl` credits a line, 1 cent a
/// credit: committed, its nonce fetched, drawn, and its contribution
/// delivered. Returns the round, its key and the cherries on reel 1.
fn committed_round(m: &mut Machine, c: &mut CabinetClient, game: &ReelGame, tables: &StopTables, cpl: u64) -> (u64, String, game_core::reels::ReelRound) {
    let bet = ReelBet { game: game.id.clone(), lines: 1, credits_per_line: cpl, denom: 1 };
    let (round, commitment) = m.commit_linked_round(POOL, &game.id, 1, cpl, 0, &serde_json::to_string(&bet).unwrap()).unwrap();
    let nonce = c.commit(POOL, m.epoch_id(), round, &commitment, &bet).unwrap();
    assert_eq!(c.commit(POOL, m.epoch_id(), round, &commitment, &bet).unwrap(), nonce, "asked again: the same nonce");
    let (played, drawn) = m.play_round_committed("opening", &nonce, |rng| game.play(tables, rng, Bet { lines: 1, credits_per_line: cpl })).unwrap();
    assert_eq!(played, round);
    let key = m.open_round().and_then(|o| o.committed.clone()).unwrap().key;
    let pending: Vec<(u64, u64)> = m.linked_pending().into_iter().map(|p| (p.1, p.2)).collect();
    let answers = c.contribute(POOL, m.epoch_id(), &pending).unwrap();
    m.linked_delivered(POOL, answers.iter().map(|a| a.0).collect()).unwrap();
    (round, key, drawn)
}

#[test]
fn a_committed_round_is_drawn_again_by_the_controller_and_paid_only_for_what_it_hits() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("commit", &["A", "B"]);
    set_up(&mut op, &["A", "B"]);
    let game = sevens();
    let tables = StopTables::new(&game).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut m = machine(&dir.path().join("a.sqlite"), "A");
    let mut a = cabinet("A", &db);
    let mini = |g: &ReelGame, r: &game_core::reels::ReelRound| {
        game_core::progressive::reels_hit(g, r, &game_core::progressive::Trigger::ReelCombination { symbol: "CH".into(), count: 1, max_bet_only: false })
    };
    // Rounds until one misses and one hits the Mini (a cherry from the
    // first reel, as the game pays it), each claimed by revealing its key.
    let (mut missed, mut hit) = (false, None);
    for _ in 0..200 {
        let (round, key, drawn) = committed_round(&mut m, &mut a, &game, &tables, 1);
        if mini(&game, &drawn) {
            let value = op.levels(POOL).unwrap()[MINI].value;
            // The wrong key, then the right one: paid the level, once.
            assert_refused(a.reveal(POOL, m.epoch_id(), round, MINI, &"00".repeat(32)), "is not round");
            let paid = a.reveal(POOL, m.epoch_id(), round, MINI, &key).unwrap();
            assert_eq!((paid.amount, paid.pending), (value, false));
            assert_eq!(a.reveal(POOL, m.epoch_id(), round, MINI, &key).unwrap().amount, value, "asked again: the same award");
            hit = Some((round, key.clone()));
        } else if !missed {
            assert_refused(a.reveal(POOL, m.epoch_id(), round, MINI, &key), "does not hit level 1");
            missed = true;
        }
        m.settle_round(round, 0, vec![]).unwrap();
        if hit.is_some() && missed {
            break;
        }
    }
    let (won_round, won_key) = hit.expect("no Mini in 200 committed rounds");
    // Replay: cabinet B reveals A's key for a round of its own.
    let mut b = cabinet("B", &db);
    b.contribute(POOL, m.epoch_id(), &[(won_round, 1)]).unwrap();
    assert_refused(b.reveal(POOL, m.epoch_id(), won_round, MINI, &won_key), "was not committed");
    // A round cannot be committed again with another key or bet.
    let bet = ReelBet { game: game.id.clone(), lines: 1, credits_per_line: 3, denom: 1 };
    assert_refused(a.commit(POOL, m.epoch_id(), won_round, &"11".repeat(32), &bet), "cannot change after its nonce");
    assert!(op.books(POOL).unwrap().balanced());
    assert_eq!(op.levels(POOL).unwrap()[MINI].hits, 1);
}

/// Issue 46's forged claims, on a pool set up as the README says (claims
/// reveal their committed round's key; the operator allowed nothing
/// else): a 3-cent contribution and a claimed outcome of three sevens at
/// the largest bet, for the Grande and for the Mini, is refused and
/// logged, whatever the round; a stream of such claims is held to two a
/// second after the first twenty; nothing moves and the books balance.
#[test]
fn forged_outcomes_are_not_taken_where_claims_reveal_their_key() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("forged", &["A"]);
    op.configure_pool(&super::pool(), super::MAX_WAGER).unwrap();
    super::assign(&mut op, &["A"]);
    super::approve(&mut op, super::linked_game::NEVER_CONFIRM);
    let mut a = cabinet("A", &db);
    let epoch = "00112233445566778899aabbccddeeff";
    let forged = r#"{"game":"classic-sevens","stops":[0,0,0],"lines":1,"credits_per_line":3,"denom":1}"#;
    a.contribute(POOL, epoch, &[(1, 3)]).unwrap();
    let before = op.levels(POOL).unwrap();
    for level in [0, MINI] {
        assert_refused(a.award(POOL, epoch, 1, level, forged), "reveals its committed round's key");
    }
    let (mut refused, mut held_back) = (0, 0);
    for _ in 0..40 {
        match a.award(POOL, epoch, 1, MINI, forged) {
            Err(linked_controller::LinkError::Refused(_)) => refused += 1,
            Err(linked_controller::LinkError::Down) => {
                held_back += 1;
                a = cabinet("A", &db);
            }
            other => panic!("a forged claim was answered {other:?}"),
        }
    }
    assert!(refused <= 20 && held_back >= 20, "{refused} refused, {held_back} held back by the claim limit");
    assert_eq!(op.levels(POOL).unwrap(), before, "a forged claim moved a level");
    assert!(op.refusals(5).unwrap().iter().all(|r| r.reason.contains("reveals its committed round's key")));
    assert!(op.books(POOL).unwrap().balanced());
}
