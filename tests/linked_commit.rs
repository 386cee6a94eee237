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

/// `call`'s answer, asked again while the service paces this cabinet's
/// rounds (4 a second after 20 at once: it then answers Unavailable, late).
fn paced<T>(
    c: &mut CabinetClient,
    db: &str,
    name: &str,
    mut call: impl FnMut(&mut CabinetClient) -> Result<T, linked_controller::LinkError>,
) -> Result<T, linked_controller::LinkError> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        match call(c) {
            Err(linked_controller::LinkError::Down) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(300));
                *c = cabinet(name, db);
            }
            answer => return answer,
        }
    }
}

/// The nonce of a commitment, asked while the service paces this cabinet.
fn paced_commit(c: &mut CabinetClient, db: &str, name: &str, epoch: &str, round: u64, commitment: &str, bet: &ReelBet) -> String {
    paced(c, db, name, |c| c.commit(POOL, epoch, round, commitment, bet)).unwrap_or_else(|e| panic!("round {round}'s commitment: {e}"))
}

/// One committed round of `game` at the bet `at`, 1 cent a credit:
/// committed, its nonce fetched, drawn, and its contribution delivered.
/// Returns the round, its key and the round drawn.
fn committed_round(
    m: &mut Machine,
    c: &mut CabinetClient,
    db: &str,
    name: &str,
    game: &ReelGame,
    tables: &StopTables,
    at: Bet,
) -> (u64, String, game_core::reels::ReelRound) {
    let (lines, cpl) = (at.lines, at.credits_per_line);
    let bet = ReelBet { game: game.id.clone(), lines, credits_per_line: cpl, denom: 1 };
    let (round, commitment) = m.commit_linked_round(POOL, &game.id, 1, u64::from(lines) * cpl, 0, &serde_json::to_string(&bet).unwrap()).unwrap();
    let nonce = paced_commit(c, db, name, m.epoch_id(), round, &commitment, &bet);
    assert_eq!(paced_commit(c, db, name, m.epoch_id(), round, &commitment, &bet), nonce, "asked again: the same nonce");
    let (played, drawn) = m.play_round_committed("opening", &nonce, |rng| game.play(tables, rng, at)).unwrap();
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
        let (round, key, drawn) = committed_round(&mut m, &mut a, &db, "A", &game, &tables, Bet { lines: 1, credits_per_line: 1 });
        // Only the first hit is claimed: a second hit before the first
        // miss is settled unclaimed, so the Mini is paid exactly once
        // whatever the draws (the RNG is not seeded here).
        let hits = mini(&game, &drawn);
        if hits && hit.is_none() {
            let value = op.levels(POOL).unwrap()[MINI].value;
            // The wrong key, then the right one: paid the level, once.
            assert_refused(a.reveal(POOL, m.epoch_id(), round, MINI, &"00".repeat(32)), "is not round");
            let paid = a.reveal(POOL, m.epoch_id(), round, MINI, &key).unwrap();
            assert_eq!((paid.amount, paid.pending), (value, false));
            assert_eq!(a.reveal(POOL, m.epoch_id(), round, MINI, &key).unwrap().amount, value, "asked again: the same award");
            hit = Some((round, key.clone()));
        } else if !hits && !missed {
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
    assert_refused(paced(&mut a, &db, "A", |a| a.commit(POOL, m.epoch_id(), won_round, &"11".repeat(32), &bet)), "cannot change after its nonce");
    assert!(op.books(POOL).unwrap().balanced());
    assert_eq!(op.levels(POOL).unwrap()[MINI].hits, 1);
}

/// Issue 50: a hold-and-spin's progressive grand on a linked level. The
/// service judges a claim on the feature it draws again from the revealed
/// key (game-core on the approved paytable): a round whose feature held a
/// grand pearl or filled the screen is paid the level, once; one without
/// is refused; an outcome that carries a feature of its own is refused
/// even where the operator allows claims that carry their outcome (it is
/// never taken as the cabinet says it went). The test game is the host
/// tests' progressive-grand paytable with the feature started by three
/// pearls, a pearl a grand one time in six: the controller evaluates
/// whatever paytable the operator approves (`egm-progressive approve`
/// checks its format, not its RTP), and grands come every few rounds.
#[test]
fn a_hold_and_spin_grand_is_judged_on_the_feature_the_service_draws_again() {
    use game_core::progressive::Trigger;
    use game_core::reels::CashValue;
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("hold_grand", &["A"]);
    set_up(&mut op, &["A"]);
    let mut game = paytables::compile::load(&root().join("host/tests/fixtures/dragao-pool.ron")).unwrap();
    let rule = game.hold_and_spin.as_deref_mut().unwrap();
    rule.trigger = 3;
    rule.values = vec![(CashValue::Grand, 1), (CashValue::Credits(25), 5)];
    let tables = StopTables::new(&game).unwrap();
    let mut games = super::linked_game::games();
    games.insert(game.id.clone(), linked_controller::ApprovedReelGame::of(&game));
    let mut triggers = super::linked_game::triggers();
    triggers.retain(|t| t.level != MINI);
    triggers.push(linked_controller::ApprovedTrigger::of(MINI, &Trigger::HoldAndSpinGrand { max_bet_only: false }).unwrap());
    op.approve_games(POOL, &games, &triggers, super::linked_game::NEVER_CONFIRM).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let config = MachineConfig { mode: Mode::Lab, machine_id: "A".into(), ..MachineConfig::default() };
    let mut m = Machine::open(&dir.path().join("a.sqlite"), config, SeedChoice::Lab(50)).unwrap();
    m.join_linked_pool(POOL, vec![game.id.clone()], 1).unwrap();
    m.insert_note(5_000).unwrap();
    let mut a = cabinet("A", &db);
    let bet = Bet { lines: 50, credits_per_line: 1 };
    let (mut missed, mut missed_in_feature, mut hit) = (false, false, false);
    for _ in 0..400 {
        if m.credit() < 50 {
            m.insert_note(5_000).unwrap();
        }
        let (round, key, drawn) = committed_round(&mut m, &mut a, &db, "A", &game, &tables, bet);
        // An independent reading of the feature: a grand pearl, or all
        // twenty cells held.
        let grand = drawn.hold.as_ref().is_some_and(|h| h.held().any(|c| c.value == CashValue::Grand) || h.held().count() == 20);
        let epoch = m.epoch_id().to_owned();
        if grand && !hit {
            // The round's outcome with a feature the cabinet wrote: refused.
            let forged = linked_controller::ReelClaim {
                game: game.id.clone(),
                stops: drawn.base.stops.clone(),
                lines: 50,
                credits_per_line: 1,
                denom: 1,
                hold: drawn.hold.clone(),
            };
            assert_refused(a.award(POOL, &epoch, round, MINI, &serde_json::to_string(&forged).unwrap()), "revealing the committed round's key");
            let value = op.levels(POOL).unwrap()[MINI].value;
            let paid = a.reveal(POOL, &epoch, round, MINI, &key).unwrap();
            assert_eq!((paid.amount, paid.pending), (value, false));
            assert_eq!(a.reveal(POOL, &epoch, round, MINI, &key).unwrap().amount, value, "asked again: the same award");
            hit = true;
        } else if !grand && drawn.hold.is_none() && !missed {
            // No feature: the outcome carries none (the database's check).
            assert_refused(a.reveal(POOL, &epoch, round, MINI, &key), "carries no hold-and-spin");
            missed = true;
        } else if !grand && drawn.hold.is_some() && !missed_in_feature {
            // A feature without a grand: game-core's judgement, in the service.
            assert_refused(a.reveal(POOL, &epoch, round, MINI, &key), "no hold-and-spin grand in the round");
            missed_in_feature = true;
        }
        m.settle_round(round, 0, vec![]).unwrap();
        if hit && missed && missed_in_feature {
            break;
        }
    }
    assert!(hit && missed && missed_in_feature, "in 400 committed rounds: a grand {hit}, no feature {missed}, a feature without a grand {missed_in_feature}");
    assert_eq!(op.levels(POOL).unwrap()[MINI].hits, 1);
    assert!(op.books(POOL).unwrap().balanced());
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
    let (mut refused, mut held_back) = (0u64, 0u64);
    let started = std::time::Instant::now();
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
    // Twenty at once, then two a second (each over the limit answered
    // late, so the bucket refills meanwhile).
    let allowed = 20 + 2 * started.elapsed().as_secs() + 2;
    assert!(refused <= allowed && held_back >= 40 - allowed, "{refused} refused, {held_back} held back by the claim limit");
    assert_eq!(op.levels(POOL).unwrap(), before, "a forged claim moved a level");
    assert!(op.refusals(5).unwrap().iter().all(|r| r.reason.contains("reveals its committed round's key")));
    assert!(op.books(POOL).unwrap().balanced());
}

/// Issue 46's money rules at the service, with the real core: a round is
/// committed only at a bet the approved game offers and at a denomination
/// the operator set the cabinet to offer; the commitment is the round's
/// contribution (in the books before the cabinet delivers anything); the
/// round is finished, never voided (the controller and the core both
/// refuse); and a cabinet commits at most 20 rounds at once, then 4 a
/// second, each of them contributed.
#[test]
fn a_committed_round_is_contributed_with_its_nonce_at_an_offered_bet_and_never_voided() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("offered", &["A", "H"]);
    op.configure_pool(&super::pool(), super::MAX_WAGER).unwrap();
    op.assign(POOL, "A", true).unwrap();
    super::approve(&mut op, super::linked_game::NEVER_CONFIRM);
    let game = sevens();
    let tables = StopTables::new(&game).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.sqlite");
    let mut m = machine(&path, "A");
    let mut a = cabinet("A", &db);
    let epoch = m.epoch_id().to_owned();
    let commitment = "ab".repeat(32);
    let bet = |game: &str, cpl: u64, denom: u64| ReelBet { game: game.into(), lines: 1, credits_per_line: cpl, denom };

    // No denomination set by the operator: nothing is committed.
    assert_refused(a.commit(POOL, &epoch, 1, &commitment, &bet("classic-sevens", 1, 1)), "has no denominations set by an operator");
    op.set_denominations("A", &[1, 5]).unwrap();
    assert_refused(a.commit(POOL, &epoch, 1, &commitment, &bet("classic-sevens", 1, 2)), "denomination 2 cents is not one cabinet A offers (1, 5)");
    // Bets the approved game does not offer, and a game not approved.
    assert_refused(a.commit(POOL, &epoch, 1, &commitment, &bet("classic-sevens", 4, 1)), "is not one game classic-sevens offers");
    assert_refused(a.commit(POOL, &epoch, 1, &commitment, &ReelBet { lines: 2, ..bet("classic-sevens", 1, 1) }), "is not one game classic-sevens offers");
    assert_refused(a.commit(POOL, &epoch, 1, &commitment, &bet("ocean-treasure", 1, 1)), "is not approved with its paytable");
    let books = op.books(POOL).unwrap();
    assert_eq!((books.contributions, books.wagered), (0, 0), "a refused commitment contributed");

    // The real core commits at 3 credits of 5 cents: contributed at once.
    let committed = bet("classic-sevens", 3, 5);
    let (round, commitment) = m.commit_linked_round(POOL, "classic-sevens", 5, 15, 0, &serde_json::to_string(&committed).unwrap()).unwrap();
    let nonce = a.commit(POOL, &epoch, round, &commitment, &committed).unwrap();
    let books = op.books(POOL).unwrap();
    assert_eq!((books.contributions, books.wagered), (1, 15), "the commitment is the round's contribution");
    assert!(books.balanced());
    let (played, _) = m.play_round_committed("opening", &nonce, |rng| game.play(&tables, rng, Bet { lines: 1, credits_per_line: 3 })).unwrap();
    assert_eq!(played, round);
    // Never voided: the controller refuses to return it, and the core
    // finishes the round a power cut left open (it has no void: issue 47,
    // hole 6).
    assert_refused(a.return_round(POOL, &epoch, round), "never voided");
    drop(m);
    let config = MachineConfig { mode: Mode::Lab, machine_id: "A".into(), ..MachineConfig::default() };
    let mut m = Machine::open(&path, config, SeedChoice::Lab(46)).unwrap();
    assert_eq!(m.open_round().and_then(|o| o.committed.as_ref().map(|c| (o.round, c.nonce.clone()))), Some((round, nonce.clone())));
    m.settle_round(round, 0, vec![]).unwrap();
    // Its delivery afterwards is the same contribution, taken once.
    let pending: Vec<(u64, u64)> = m.linked_pending().into_iter().map(|p| (p.1, p.2)).collect();
    assert_eq!(pending, vec![(round, 15)]);
    assert_eq!(a.contribute(POOL, &epoch, &pending).unwrap(), vec![(round, linked_controller::Outcome::Duplicate)]);
    assert_eq!(op.books(POOL).unwrap().contributions, 1);

    // A hostile cabinet commits as fast as it can: 20 at once, then paced;
    // every round it got a nonce for is contributed.
    op.set_denominations("H", &[1]).unwrap();
    op.assign(POOL, "H", true).unwrap();
    let mut h = cabinet("H", &db);
    let (mut nonces, mut paced) = (0u64, 0u64);
    let started = std::time::Instant::now();
    for r in 1..=30u64 {
        match h.commit(POOL, &epoch, r, &format!("{r:064x}"), &bet("classic-sevens", 1, 1)) {
            Ok(_) => nonces += 1,
            Err(linked_controller::LinkError::Down) => {
                paced += 1;
                h = cabinet("H", &db);
            }
            Err(e) => panic!("round {r}: {e}"),
        }
    }
    let allowed = 20 + 4 * started.elapsed().as_secs() + 4;
    assert!(nonces >= 20 && nonces <= allowed && paced == 30 - nonces && paced >= 1, "{nonces} nonces, {paced} held back by the pacing of 4 rounds a second");
    let books = op.books(POOL).unwrap();
    assert_eq!((books.contributions, books.wagered), (1 + nonces, 15 + u128::from(nonces)), "each committed round contributed");
    assert!(books.balanced());
}

/// Issue 46, reconciliation: a cabinet reports its own meter of the pool
/// from its journal (`Machine::linked_meter`, as the host does); the
/// operator's report sets it against the controller's contributions for
/// the same rounds. Here the cabinet's journal owes a round the controller
/// refused (a wager above the pool's bound, the product's own refusal):
/// an alarm naming the cents; a cabinet that contributed and never
/// reported is an alarm too; one that agrees is none.
#[test]
fn each_cabinets_journal_is_reconciled_with_the_controllers_books() {
    let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let (db, mut op) = controller("reconcile", &["A", "B"]);
    op.configure_pool(&super::pool(), 10).unwrap();
    super::assign(&mut op, &["A", "B"]);
    super::approve(&mut op, super::linked_game::NEVER_CONFIRM);
    let game = sevens();
    let tables = StopTables::new(&game).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut m = machine(&dir.path().join("a.sqlite"), "A");
    let mut a = cabinet("A", &db);
    let epoch = m.epoch_id().to_owned();
    assert_eq!(m.linked_meter(POOL).map(|(t, o)| (t, o.rounds, o.wagered)), Some((0, 0, 0)));
    for cpl in [1, 2, 3] {
        let (round, _, _) = committed_round(&mut m, &mut a, &db, "A", &game, &tables, Bet { lines: 1, credits_per_line: cpl });
        assert_eq!(m.linked_meter(POOL), None, "a meter while round {round} is open");
        m.settle_round(round, 0, vec![]).unwrap();
    }
    let report = |m: &Machine, a: &mut CabinetClient| {
        let (through_round, owed) = m.linked_meter(POOL).unwrap();
        a.report_meter(POOL, &epoch, linked_controller::CabinetMeter { through_round, rounds: owed.rounds, wagered: owed.wagered }).unwrap();
    };
    report(&m, &mut a);
    let lines = op.reconciliation(POOL).unwrap();
    assert_eq!(lines.len(), 1);
    let meter = linked_controller::CabinetMeter { through_round: 3, rounds: 3, wagered: 6 };
    assert_eq!((lines[0].machine.as_str(), lines[0].cabinet, lines[0].controller_rounds, lines[0].controller_wagered), ("A", Some(meter), 3, 6));
    assert_eq!(lines[0].alarm, None);

    // A round played without a commitment (as the host plays a linked
    // game that is not a reel game) at 50 cents: the controller refuses its
    // contribution (above the pool's 10), the cabinet journals the refusal,
    // and its meter still owes it.
    let round = m.play_round("classic-sevens", 50, 50, "opening", |_| Ok::<_, String>(serde_json::json!({}))).unwrap().0;
    m.settle_round(round, 0, vec![]).unwrap();
    let (_, pending) = linked_controller::outbox(&m, POOL).unwrap().unwrap();
    let answers = a.contribute(POOL, &epoch, &pending).unwrap();
    assert!(matches!(&answers[0].1, linked_controller::Outcome::Refused(r) if r.contains("outside the pool's")), "{answers:?}");
    linked_controller::journal_answer(&mut m, POOL, Ok(answers)).unwrap();
    report(&m, &mut a);
    // B, a cabinet of an earlier version playing plain where the operator
    // allows it (issue 69: nowhere else), contributes and never reports.
    op.allow_plain_claims(POOL, true).unwrap();
    let mut b = cabinet("B", &db);
    b.contribute(POOL, super::EPOCH, &[(1, 5)]).unwrap();
    let lines = op.reconciliation(POOL).unwrap();
    let alarms: Vec<&str> = lines.iter().filter_map(|l| l.alarm.as_deref()).collect();
    assert_eq!(
        alarms,
        vec![
            &*format!(
                "cabinet A, epoch {epoch}, through round 4: its journal says 4 rounds and 56 cents, the controller holds 3 rounds and 6 cents (50 cents missing at the controller)"
            ),
            &*format!("cabinet B contributed in epoch {} and reported no meter", super::EPOCH),
        ]
    );
    assert!(op.books(POOL).unwrap().balanced(), "the books balance: the alarm is the reconciliation's alone");
}
