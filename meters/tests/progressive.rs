//! Progressive pools in critical memory (issue 6; M-18 to M-24), on a real
//! SQLite file: contributions in the wager's record, awards in the round's
//! settlement, meters, the last 25 hits, transfers (M-23), the liability
//! report (M-24), and all of it identical after a restart.
#![allow(clippy::unwrap_used)]

use meters::{AnchorReason, CoreError, Entry, LevelConfig, Machine, MachineConfig, Mode, PoolConfig, SeedChoice, TransferTarget, WinComponent};
use serde_json::json;

fn config() -> MachineConfig {
    MachineConfig { mode: Mode::Lab, handpay_limit: 10_000_000, ..MachineConfig::default() }
}

fn pool(id: &str, game: &str) -> PoolConfig {
    PoolConfig {
        id: id.into(),
        games: vec![game.into()],
        min_wager: 100,
        side_bet: false,
        levels: vec![
            LevelConfig {
                name: "Grande".into(),
                start_value: 100_000,
                reset_value: 100_000,
                increment_ppm: 10_000,
                reserve_ppm: 5_000,
                ceiling: Some(101_000),
                mystery: false,
            },
            LevelConfig { name: "Mini".into(), start_value: 1_000, reset_value: 900, increment_ppm: 33_333, reserve_ppm: 0, ceiling: None, mystery: false },
        ],
    }
}

fn round(m: &mut Machine, game: &str, stake: u64, hits: &[(String, usize)]) -> u64 {
    let r = m.play_round(game, 100, stake, "outcome", |_| Ok::<_, String>(json!({}))).map(|(r, _)| r).unwrap();
    m.settle_round_with_progressive(r, 0, vec![WinComponent { label: "base".into(), amount: 0 }], hits).unwrap().win
}

/// G-47: each level's meters (current value, reserve, hits) and the last
/// 25 hits, kept in critical memory: the same after a restart.
#[test]
fn contributions_awards_and_meters_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&path, config(), SeedChoice::Lab(1)).unwrap();
    for _ in 0..50 {
        m.insert_note(5_000).unwrap();
    }
    m.configure_pool(pool("p", "reels")).unwrap();
    // A second set-up of the same pool would reset its money: refused.
    assert!(matches!(m.configure_pool(pool("p", "reels")), Err(CoreError::Progressive(_))));
    // Under the minimum wager and other games do not contribute.
    round(&mut m, "reels", 100, &[]);
    round(&mut m, "poker", 500, &[]);
    let mini = &m.pools()["p"].levels[1];
    assert_eq!((mini.current, mini.fraction), (1_003, 333_300), "100 cents × 3.3333% = 3.3333 cents");
    for _ in 0..99 {
        round(&mut m, "reels", 300, &[]);
    }
    // 100 + 99 × 300 = 29,800 cents of qualifying wagers.
    let grande = &m.pools()["p"].levels[0];
    assert_eq!(grande.current, 100_298);
    assert_eq!(grande.reserve, 149);
    // Two hits of the Mini in one round: the full value, then the reset
    // value (issue 6: "exactly one award from the full value and the next
    // from the reset value").
    let r = m.play_round("reels", 100, 300, "outcome", |_| Ok::<_, String>(json!({}))).map(|(r, _)| r).unwrap();
    let mini_value = m.pools()["p"].levels[1].current;
    let credit = m.credit();
    let s = m.settle_round_with_progressive(r, 50, vec![WinComponent { label: "base".into(), amount: 50 }], &[("p".into(), 1), ("p".into(), 1)]).unwrap();
    assert_eq!(s.win, 50 + mini_value + 900);
    assert_eq!(m.credit(), credit + s.win);
    let g = &m.state().totals.games;
    assert_eq!(g.premios_acumulados_progressivos, mini_value + 900);
    assert_eq!(m.pools()["p"].levels[1].current, 900);
    assert_eq!(m.pools()["p"].levels[1].hits, 2);
    assert_eq!(m.pools()["p"].last_hits[0].amount, 900);
    assert_eq!(m.pools()["p"].last_hits[1].amount, mini_value);
    // Recall shows the awards (M-15).
    let recall = m.recall(1).unwrap();
    match &recall[0].outcome {
        meters::RecallOutcome::Settled { components, .. } => {
            assert_eq!(components.iter().filter(|c| c.label == "progressive p Mini").count(), 2);
        }
        o => panic!("{o:?}"),
    }
    // A game that does not qualify cannot win the pool.
    let r = m.play_round("poker", 100, 300, "outcome", |_| Ok::<_, String>(json!({}))).map(|(r, _)| r).unwrap();
    assert!(matches!(m.settle_round_with_progressive(r, 0, vec![], &[("p".into(), 0)]), Err(CoreError::Progressive(_))));
    m.settle_round(r, 0, vec![]).unwrap();
    // 30 more hits: the last 25 are kept.
    for _ in 0..30 {
        round(&mut m, "reels", 100, &[("p".into(), 1)]);
    }
    assert_eq!(m.pools()["p"].last_hits.len(), 25);
    let before = m.pools().clone();
    let report = m.liability_report();
    assert_eq!(report.len(), 2);
    assert_eq!(report[0].liability, before["p"].levels[0].current + before["p"].levels[0].reserve);
    for l in &before["p"].levels {
        assert!(l.balanced());
    }
    drop(m);
    let m = Machine::open(&path, config(), SeedChoice::Lab(1)).unwrap();
    assert_eq!(m.pools(), &before, "the pools are a fold over the journal: identical after a restart");
    assert_eq!(m.liability_report(), report);
}

/// G-48: the pools' money is conserved — contributions equal what the
/// pools hold, paid and moved; money leaves only by an award or a logged
/// transfer.
#[test]
fn pool_money_leaves_only_by_award_or_a_logged_transfer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&path, config(), SeedChoice::Lab(1)).unwrap();
    for _ in 0..50 {
        m.insert_note(5_000).unwrap();
    }
    m.configure_pool(pool("a", "reels")).unwrap();
    m.configure_pool(pool("b", "reels")).unwrap();
    m.configure_pool(pool("other", "poker")).unwrap();
    for _ in 0..50 {
        round(&mut m, "reels", 1_000, &[]);
    }
    let events = m.events(1_000).unwrap().len();
    let mini = m.pools()["a"].levels[1].current;
    // No authority, another game model, or below the reset value: refused
    // and never journaled (M-20, M-23).
    let refused = [
        m.transfer_pool("a", 1, 10, TransferTarget::Authority { reference: " ".into() }, "op"),
        m.transfer_pool("a", 1, 10, TransferTarget::Pool { pool: "other".into(), level: 1 }, "op"),
        m.transfer_pool("a", 1, mini - 899, TransferTarget::Pool { pool: "b".into(), level: 1 }, "op"),
        m.transfer_pool("a", 7, 1, TransferTarget::Pool { pool: "b".into(), level: 1 }, "op"),
    ];
    for r in refused {
        assert!(matches!(r, Err(CoreError::Progressive(_))), "{r:?}");
    }
    assert_eq!(m.events(1_000).unwrap().len(), events);
    // To a pool of the same model, and to an authority's reference.
    let b_mini = m.pools()["b"].levels[1].current;
    m.transfer_pool("a", 1, mini - 900, TransferTarget::Pool { pool: "b".into(), level: 1 }, "op").unwrap();
    assert_eq!(m.pools()["a"].levels[1].current, 900);
    assert_eq!(m.pools()["b"].levels[1].current, b_mini + mini - 900);
    let reserve = m.pools()["a"].levels[0].reserve;
    m.transfer_pool("a", 0, reserve, TransferTarget::Authority { reference: "SRIJ 2026/123".into() }, "op").unwrap();
    assert_eq!(m.pools()["a"].levels[0].reserve, 0);
    for p in m.pools().values() {
        assert!(p.levels.iter().all(|l| l.balanced()));
    }
    // Each transfer is logged, and each is a money-out anchored before the
    // money moves (issue 21): its own record and its anchor's.
    let new = m.events(1_000).unwrap();
    assert_eq!(new.len(), events + 4);
    let kinds: Vec<&str> = new[..4].iter().rev().map(|r| r.entry.kind()).collect();
    assert_eq!(kinds, ["pool_transfer", "anchored", "pool_transfer", "anchored"]);
    assert!(new[..4].iter().all(|r| !matches!(r.entry, Entry::Anchored { reason, .. } if reason != AnchorReason::TransferOut)));
}

/// A mystery level (issue 6): won by the wager that takes it past a hidden
/// value drawn between the reset value and the ceiling, paid in that
/// round's settlement, the next value drawn and journaled at the award.
#[test]
fn a_mystery_level_pays_the_round_that_passes_its_hidden_value() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&path, config(), SeedChoice::Lab(7)).unwrap();
    for _ in 0..50 {
        m.insert_note(5_000).unwrap();
    }
    let mut cfg = pool("m", "reels");
    cfg.levels[1] = LevelConfig {
        name: "Mistério".into(),
        start_value: 1_000,
        reset_value: 1_000,
        increment_ppm: 100_000,
        reserve_ppm: 0,
        ceiling: Some(1_500),
        mystery: true,
    };
    m.configure_pool(cfg).unwrap();
    let mut awards = 0;
    for _ in 0..400 {
        let before = m.pools()["m"].levels[1].clone();
        let threshold = before.mystery_at.unwrap();
        assert!((1_000..=1_500).contains(&threshold));
        let r = m.play_round("reels", 100, 300, "outcome", |_| Ok::<_, String>(json!({}))).map(|(r, _)| r).unwrap();
        let passed = m.pools()["m"].levels[1].current >= threshold;
        assert_eq!(m.pools()["m"].levels[1].mystery_due.is_some(), passed);
        let s = m.settle_round(r, 0, vec![]).unwrap();
        if passed {
            awards += 1;
            // The whole value at the moment the wager passed the threshold
            // (never above the ceiling: the excess went to the reserve).
            assert_eq!(s.win, (before.current + 30).min(1_500));
            assert!(s.win >= threshold && s.win <= 1_500);
            assert_eq!(m.pools()["m"].levels[1].current, 1_000);
        } else {
            assert_eq!(s.win, 0);
        }
    }
    assert!(awards >= 10, "{awards} mystery awards");
    let before = m.pools().clone();
    drop(m);
    let m = Machine::open(&path, config(), SeedChoice::Lab(7)).unwrap();
    assert_eq!(m.pools(), &before);
}

/// A side-bet pool (a stud jackpot, PSD 35–42): only the rounds' side bets
/// feed it and qualify for it, every other pool takes the main wager alone;
/// a straight flush takes 10% of the level and the level keeps the rest,
/// never below its reset value (M-20); all of it identical after a restart.
#[test]
fn a_side_bet_pool_takes_the_side_bets_alone_and_pays_shares_of_its_level() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&path, config(), SeedChoice::Lab(3)).unwrap();
    for _ in 0..20 {
        m.insert_note(5_000).unwrap();
    }
    let jackpot = PoolConfig {
        id: "jackpot".into(),
        games: vec!["stud".into()],
        min_wager: 100,
        side_bet: true,
        levels: vec![LevelConfig {
            name: "Jackpot".into(),
            start_value: 1_000_000,
            reset_value: 1_000_000,
            increment_ppm: 200_000,
            reserve_ppm: 0,
            ceiling: None,
            mystery: false,
        }],
    };
    m.configure_pool(jackpot).unwrap();
    m.configure_pool(pool("main", "stud")).unwrap();
    let side = |m: &mut Machine, stake: u64, side: u64| m.play_round_with_side_bet("stud", 100, stake, side, "deal", |_| Ok::<_, String>(json!({})));
    // A side bet must sit beside a main wager, in whole credits.
    assert!(matches!(side(&mut m, 100, 100), Err(CoreError::SideBetNotBeside { .. })));
    assert!(matches!(side(&mut m, 300, 150), Err(CoreError::StakeNotWholeCredits { .. })));
    // Ante 200 + side bet 100: the jackpot gets 20% of 100, the main pool's
    // Mini 3.3333% of 200.
    let (r, _) = side(&mut m, 300, 100).unwrap();
    assert_eq!(m.pools()["jackpot"].levels[0].current, 1_000_020);
    assert_eq!(m.pools()["main"].levels[1].current, 1_006, "200 × 3.3333% = 6.6666 cents");
    m.settle_round(r, 0, vec![]).unwrap();
    // No side bet: the jackpot gets nothing and cannot be won.
    let (r, _) = side(&mut m, 300, 0).unwrap();
    assert_eq!(m.pools()["jackpot"].levels[0].current, 1_000_020);
    assert!(matches!(m.settle_round_with_shares(r, 0, vec![], &[("jackpot".into(), 0, 100_000)], &[]), Err(CoreError::Progressive(_))));
    m.settle_round(r, 0, vec![]).unwrap();
    for _ in 0..49 {
        let (r, _) = side(&mut m, 300, 100).unwrap();
        m.settle_round(r, 0, vec![]).unwrap();
    }
    // 50 side bets of 100 cents at 20%: 1,000 cents over the start value.
    assert_eq!(m.pools()["jackpot"].levels[0].current, 1_001_000);
    // A straight flush: 10% of the level, rounded down; the level keeps the
    // rest, brought back to its reset value by the operator.
    let (r, _) = side(&mut m, 300, 100).unwrap();
    let value = m.pools()["jackpot"].levels[0].current;
    assert_eq!(value, 1_001_020);
    let credit = m.credit();
    let s = m.settle_round_with_shares(r, 0, vec![], &[("jackpot".into(), 0, 100_000)], &[]).unwrap();
    assert_eq!(s.win, 100_102, "10% of 1,001,020 cents");
    assert_eq!(m.credit(), credit + 100_102);
    let l = &m.pools()["jackpot"].levels[0];
    assert_eq!((l.current, l.won, l.hits, l.operator_funded), (1_000_000, 100_102, 1, 1_000_000 + 99_082));
    assert!(l.balanced());
    // A royal flush: the whole level, which restarts at its reset value.
    let (r, _) = side(&mut m, 300, 100).unwrap();
    let value = m.pools()["jackpot"].levels[0].current;
    let s = m.settle_round_with_shares(r, 0, vec![], &[("jackpot".into(), 0, meters::WHOLE_LEVEL)], &[]).unwrap();
    assert_eq!(s.win, value);
    assert_eq!(m.pools()["jackpot"].levels[0].current, 1_000_000);
    // A share over the whole level is refused, and nothing is paid.
    let (r, _) = side(&mut m, 300, 100).unwrap();
    assert!(matches!(m.settle_round_with_shares(r, 0, vec![], &[("jackpot".into(), 0, 1_000_001)], &[]), Err(CoreError::Progressive(_))));
    m.settle_round(r, 0, vec![]).unwrap();
    assert_eq!(m.state().totals.games.premios_acumulados_progressivos, 100_102 + value);
    let before = m.pools().clone();
    drop(m);
    let m = Machine::open(&path, config(), SeedChoice::Lab(3)).unwrap();
    assert_eq!(m.pools(), &before, "the side-bet pool is a fold over the journal");
}

/// G-48 (no contribution lost across a power cut), E-35: a round a power cut leaves open keeps its contributions (carries below a
/// cent, ceiling overflow and reserve included) and the mystery level its
/// wager made due, from the journal alone, and is finished with them: it
/// wins the level (issue 47, hole 6: never voided; issue 21, attack 5
/// once voided such a round).
#[test]
fn a_round_cut_by_a_power_loss_keeps_its_contributions_and_wins_the_mystery_level_it_made_due() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&path, config(), SeedChoice::Lab(3)).unwrap();
    for _ in 0..20 {
        m.insert_note(5_000).unwrap();
    }
    let mut mystery = pool("mystery", "reels");
    mystery.levels = vec![LevelConfig {
        name: "Mistério".into(),
        start_value: 1_000,
        reset_value: 1_000,
        increment_ppm: 200_000,
        reserve_ppm: 30_001,
        ceiling: Some(1_200),
        mystery: true,
    }];
    m.configure_pool(pool("p", "reels")).unwrap();
    m.configure_pool(mystery).unwrap();
    // Wagers until the mystery level's hidden value is one wager away.
    let at = m.pools()["mystery"].levels[0].mystery_at.unwrap();
    while m.pools()["mystery"].levels[0].current + 100 < at {
        round(&mut m, "reels", 300, &[]);
    }
    let before: Vec<_> = ["p", "mystery"].iter().map(|id| m.pools()[*id].levels.clone()).collect();
    let credit = m.credit();
    // A wager large enough to pass the hidden value and reach the ceiling.
    let (r, _) = m.play_round("reels", 100, 2_000, "outcome", |_| Ok::<_, String>(json!({}))).unwrap();
    assert_eq!(m.pools()["mystery"].levels[0].mystery_due, Some(r), "the wager made the mystery level due");
    assert_ne!(m.pools()["p"].levels, before[0], "the wager contributed");
    let made: Vec<_> = ["p", "mystery"].iter().map(|id| m.pools()[*id].levels.clone()).collect();
    // A power cut leaves the round open: its contributions stand, and the
    // mystery level is still due to it, from the journal alone.
    drop(m);
    let mut m = Machine::open(&path, config(), SeedChoice::Lab(3)).unwrap();
    let replayed: Vec<_> = ["p", "mystery"].iter().map(|id| m.pools()[*id].levels.clone()).collect();
    assert_eq!(replayed, made, "the pools are a fold over the journal");
    assert_eq!(m.pools()["mystery"].levels[0].mystery_due, Some(r));
    assert_eq!(m.credit(), credit - 2_000, "the stake stays taken");
    assert!(m.pools().values().all(|p| p.levels.iter().all(|l| l.balanced())));
    let settled = m.settle_round(r, 0, vec![]).unwrap();
    assert!(settled.win >= at, "the mystery level was paid: {} of at least {at}", settled.win);
    assert_eq!(m.credit(), credit - 2_000 + settled.win);
    assert_eq!(m.state().totals.games.jogadas_anuladas, 0);
}

/// Issue 46: a round committed to a linked controller. Its bet is fixed
/// and its key drawn and journaled before the controller's nonce exists;
/// until the nonce comes no other round and no cash-out may take the
/// stake; the round is then drawn from ChaCha20 keyed by
/// HMAC-SHA256(key, nonce) — checked here against that derivation made
/// independently (the `hmac`, `sha2` and `rand_chacha` crates directly) —
/// and the key and nonce stay in critical memory for the claim.
#[test]
fn a_committed_round_is_drawn_from_its_key_and_the_controllers_nonce() {
    use hmac::{Hmac, Mac};
    use meters::GameRng;
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    use sha2::{Digest, Sha256};

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&path, config(), SeedChoice::Lab(11)).unwrap();
    m.join_linked_pool("linked", vec!["g".into()], 1).unwrap();
    m.insert_note(1_000).unwrap();
    // Not a pool this machine plays, nor a stake it has.
    assert!(m.commit_linked_round("other", "g", 1, 100, 0, "{}").is_err());
    assert!(matches!(m.commit_linked_round("linked", "g", 1, 5_000, 0, "{}"), Err(CoreError::InsufficientCredit { .. })));

    let (round, commitment) = m.commit_linked_round("linked", "g", 1, 100, 0, "{\"lines\":1}").unwrap();
    assert_eq!(round, 1);
    let key = m.linked_commitment().unwrap().key.clone();
    assert_eq!(commitment, hex::encode(Sha256::digest(hex::decode(&key).unwrap())), "the commitment is SHA-256 of the journaled key");
    // The same bet asked again: the same commitment; any other: refused.
    assert_eq!(m.commit_linked_round("linked", "g", 1, 100, 0, "{\"lines\":1}").unwrap(), (round, commitment.clone()));
    assert!(m.commit_linked_round("linked", "g", 1, 200, 0, "{\"lines\":2}").is_err());
    // Nothing else takes the stake meanwhile.
    assert!(m.cash_out().is_err(), "cashed out under a committed round");
    assert!(m.play_round("g", 1, 100, "outcome", |_| Ok::<_, String>(json!({}))).is_err(), "another round began");
    assert_eq!(m.credit(), 1_000, "the stake leaves the meter only when the round is drawn");
    // A power cut: the commitment is in critical memory.
    drop(m);
    let mut m = Machine::open(&path, config(), SeedChoice::Lab(11)).unwrap();
    assert_eq!(m.linked_commitment().map(|c| (c.round, c.key.clone())), Some((round, key.clone())));
    assert!(m.play_round_committed("outcome", "zz", |_| Ok::<_, String>(0u64)).is_err(), "a nonce that is not 32 bytes of hex");

    let nonce = "5a".repeat(32);
    let (played, words) = m.play_round_committed("outcome", &nonce, |rng| Ok::<_, String>((0..4).map(|_| rng.next_raw()).collect::<Vec<u64>>())).unwrap();
    assert_eq!(played, round);
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&hex::decode(&key).unwrap()).unwrap();
    mac.update(&hex::decode(&nonce).unwrap());
    let seed: [u8; 32] = mac.finalize().into_bytes().into();
    let mut independent = rand_chacha::ChaCha20Rng::from_seed(seed);
    assert_eq!(words, (0..4).map(|_| independent.next_u64()).collect::<Vec<u64>>());
    assert_eq!(m.credit(), 900);
    let open = m.open_round().unwrap();
    let committed = open.committed.clone().unwrap();
    assert_eq!((committed.pool.as_str(), committed.key.as_str(), committed.nonce.as_str()), ("linked", key.as_str(), nonce.as_str()));
    assert!(m.linked_commitment().is_none());
    assert_eq!(m.linked_pending(), vec![("linked".to_owned(), round, 100)], "the wager's contribution is owed as any other");
    // Critical memory folds to the same state.
    drop(m);
    let m = Machine::open(&path, config(), SeedChoice::Lab(11)).unwrap();
    assert_eq!(m.open_round().and_then(|o| o.committed.clone()), Some(committed));
}

/// Issue 46: where the configuration plays on while a linked pool's
/// controller is unreachable, a round played without the pool neither
/// queues its contribution nor counts in the pool's meter of what the
/// epoch owed; a round with the pool feeds it, across a power cut too.
/// Journaled: critical memory folds to the same.
#[test]
fn a_round_played_without_a_linked_pool_neither_feeds_it_nor_owes_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&path, config(), SeedChoice::Lab(12)).unwrap();
    m.join_linked_pool("linked", vec!["g".into()], 1).unwrap();
    m.insert_note(1_000).unwrap();
    let outcome = |_: &mut meters::Draw<'_>| Ok::<_, String>(json!({}));
    assert!(m.play_round_unlinked("g", 1, 100, 0, "outcome", &["other".into()], outcome).is_err(), "a pool this machine does not play");
    let (unlinked, _) = m.play_round_unlinked("g", 1, 100, 0, "outcome", &["linked".into()], outcome).unwrap();
    assert_eq!(m.open_round().map(|o| o.linked.clone()), Some(vec![]));
    assert_eq!(m.linked_pending(), vec![], "a round without the pool queued a contribution to it");
    m.settle_round(unlinked, 0, vec![]).unwrap();
    let (through, owed) = m.linked_meter("linked").unwrap();
    assert_eq!((through, owed.rounds, owed.wagered), (unlinked, 0, 0));
    let (linked, _) = m.play_round("g", 1, 30, "outcome", outcome).unwrap();
    assert_eq!(m.open_round().map(|o| o.linked.clone()), Some(vec!["linked".to_owned()]));
    assert_eq!(m.linked_pending(), vec![("linked".to_owned(), linked, 30)]);
    assert_eq!(m.linked_meter("linked"), None, "a meter while a round is open");
    // A power cut: the round found open still owes its contribution, and
    // is finished.
    drop(m);
    let mut m = Machine::open(&path, config(), SeedChoice::Lab(12)).unwrap();
    assert_eq!(m.linked_pending(), vec![("linked".to_owned(), linked, 30)]);
    m.settle_round(linked, 0, vec![]).unwrap();
    m.linked_delivered("linked", vec![linked]).unwrap();
    let (through, owed) = m.linked_meter("linked").unwrap();
    assert_eq!((through, owed.rounds, owed.wagered), (linked, 1, 30));
    // One more of each, settled: only the linked one is owed.
    let (u, _) = m.play_round_unlinked("g", 1, 20, 0, "outcome", &["linked".into()], outcome).unwrap();
    m.settle_round(u, 0, vec![]).unwrap();
    let (l, _) = m.play_round("g", 1, 40, "outcome", outcome).unwrap();
    m.settle_round(l, 0, vec![]).unwrap();
    m.linked_delivered("linked", vec![l]).unwrap();
    drop(m);
    let m = Machine::open(&path, config(), SeedChoice::Lab(12)).unwrap();
    let (through, owed) = m.linked_meter("linked").unwrap();
    assert_eq!((through, owed.rounds, owed.wagered), (l, 2, 70));
}
