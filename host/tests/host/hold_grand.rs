//! A hold-and-spin's progressive grand (issue 50), hosted headless on a
//! real SQLite file: a test paytable (`host/tests/fixtures/dragao-pool.ron`,
//! compiled and approved here as `paytable compile --approve-into` does)
//! whose grand — a grand pearl held, or a full screen — is paid by a
//! standalone pool. The round's own win leaves the grand out; the pool's
//! level pays it, or the grand's fixed sums where they are greater, or
//! where no pool pays it: never less than the exact RTP counts.

use crate::tables::{open_with, play_reel_round, select};
use crate::test_config;

use game_core::reels::{CashValue, ReelRound};
use meters::{RecallOutcome, RoundRecall};

const GAME: &str = "dragao-pool";
/// The fixture's grand, in credits per credit of the unit.
const GRAND: u64 = 5_000;

/// The fixture compiled and approved into `dir`, and the embedded
/// configuration offering it alone, with `progressives` (RON list items).
fn installed(dir: &std::path::Path, progressives: &str) -> std::path::PathBuf {
    let fixture = test_config::workspace().join("host/tests/fixtures/dragao-pool.ron");
    let source = paytables::load_source(&fixture).unwrap();
    let checked = paytables::check::check(&source.game, &paytables::floor::Floor::legal_minimum(), None).unwrap();
    assert!(checked.accepted(), "{:?}", checked.refusals);
    let rtp: Vec<(u64, _)> = checked.figures.configs.iter().map(|c| (u64::from(c.lines), c.rtp.clone())).collect();
    let artifact = paytables::artifact::build(&source.text, paytables::artifact::CompiledGame::Reels(source.game), &rtp, None, None);
    let bytes = paytables::artifact::canonical_bytes(&artifact);
    let compiled = dir.join("compiled");
    std::fs::create_dir_all(&compiled).unwrap();
    std::fs::write(compiled.join(format!("{GAME}.json")), &bytes).unwrap();
    let manifest = paytables::artifact::Manifest {
        approved: vec![paytables::artifact::ManifestEntry { id: GAME.into(), file: format!("{GAME}.json"), sha256: paytables::artifact::sha256_hex(&bytes) }],
        programs: Vec::new(),
        signature: None,
    };
    let manifest_path = dir.join("approved.ron");
    std::fs::write(&manifest_path, ron::ser::to_string_pretty(&manifest, ron::ser::PrettyConfig::default()).unwrap()).unwrap();
    let ws = test_config::workspace();
    let text = test_config::text(dir);
    let games_line = text.lines().find(|l| l.trim_start().starts_with("games: [\"classic-sevens\"")).unwrap().to_owned();
    let text = text
        .replace(&games_line, &format!("    games: [{GAME:?}],"))
        .replace(&format!("{:?}", ws.join("assets/paytables/compiled").display().to_string()), &format!("{:?}", compiled.display().to_string()))
        .replace(&format!("{:?}", ws.join("assets/paytables/approved.ron").display().to_string()), &format!("{:?}", manifest_path.display().to_string()))
        .replace("    progressives: [\n", &format!("    progressives: [\n{progressives}"));
    test_config::write(dir, &text)
}

/// A standalone pool on the fixture whose one level is the grand, starting
/// at `start` cents.
fn grand_pool(start: u64) -> String {
    format!(
        "        (
            pool: (id: \"perolas\", games: [{GAME:?}], min_wager: 1,
                   levels: [(name: \"Grande\", start_value: {start}, reset_value: {start}, increment_ppm: 10000,
                             reserve_ppm: 0, ceiling: None, mystery: false)]),
            triggers: [(0, HoldAndSpinGrand(max_bet_only: false))],
        ),
"
    )
}

/// Rounds played until one wins the grand (1 in about 400): that round,
/// and the pool's level just before it settled.
fn until_a_grand(s: &mut game_host::session::Session, dir: &std::path::Path) -> (RoundRecall, ReelRound, Option<meters::progressive::Level>) {
    for _ in 0..6_000 {
        let before = s.machine().pools().get("perolas").map(|p| p.levels[0].clone());
        let (r, deal) = play_reel_round(s, dir);
        if deal.hold.as_ref().is_some_and(|h| h.grands() > 0) {
            return (r, deal, before);
        }
        // Every other round is paid its own win, the pool untouched.
        let RecallOutcome::Settled { win, .. } = r.outcome else { panic!("round {} not settled", r.round) };
        assert_eq!(win, deal.win * r.denom, "round {}", r.round);
    }
    panic!("no grand in 6,000 rounds (1 in about 400 expected)");
}

/// The grand's fixed sums the round won, counted here from its pearls and
/// its full screen: what the exact RTP counts.
fn fixed_grand(deal: &ReelRound) -> u64 {
    let h = deal.hold.as_ref().unwrap();
    let grands = h.held().filter(|c| c.value == CashValue::Grand).count() as u64 + u64::from(h.full);
    grands * GRAND * deal.bet.credits_per_line
}

#[test]
fn a_progressive_grand_is_paid_by_its_pool_the_round_s_own_win_without_it() {
    let dir = tempfile::tempdir().unwrap();
    // A pool of 1,000.00: more than the grand's 50.00 at 1 cent a credit.
    let mut s = open_with(dir.path(), &installed(dir.path(), &grand_pool(100_000)), 31);
    select(&mut s, GAME);
    let (r, deal, before) = until_a_grand(&mut s, dir.path());
    let before = before.unwrap();
    let RecallOutcome::Settled { win, components, .. } = &r.outcome else { panic!("round {} not settled", r.round) };
    let own = deal.win - fixed_grand(&deal);
    let pool: u64 = components.iter().filter(|c| c.label.starts_with("progressive perolas")).map(|c| c.amount).sum();
    // The level as it stood when the round settled: its value before, and
    // this round's 1% of 50 credits.
    assert_eq!(pool, before.current + (before.fraction + 500_000 * r.denom) / 1_000_000, "{components:?}");
    assert!(pool > fixed_grand(&deal) * r.denom);
    assert_eq!(*win, own * r.denom + pool, "{components:?}");
    assert_eq!(components.iter().map(|c| c.amount).sum::<u64>(), *win);
    assert!(!components.iter().any(|c| c.label.starts_with("progressive grand")), "no fixed sum besides the pool: {components:?}");
    let level = &s.machine().pools()["perolas"].levels[0];
    assert_eq!((level.hits, level.won), (1, pool));
    assert_eq!(level.current, 100_000, "the level restarts at its reset value");
}

#[test]
fn a_pool_smaller_than_the_grand_s_fixed_sum_leaves_it_and_the_fixed_sum_is_paid() {
    let dir = tempfile::tempdir().unwrap();
    // A pool of 1.00: less than the grand's fixed 50.00.
    let mut s = open_with(dir.path(), &installed(dir.path(), &grand_pool(100)), 31);
    select(&mut s, GAME);
    let (r, deal, _) = until_a_grand(&mut s, dir.path());
    let RecallOutcome::Settled { win, components, .. } = &r.outcome else { panic!("round {} not settled", r.round) };
    let fixed = fixed_grand(&deal) * r.denom;
    assert_eq!(*win, deal.win * r.denom, "the round pays what the paytable counts: {components:?}");
    let paid: Vec<_> = components.iter().filter(|c| c.label.starts_with("perolas level 0: fixed sum")).collect();
    assert_eq!(paid.len(), 1, "{components:?}");
    assert_eq!(paid[0].amount, fixed);
    let level = &s.machine().pools()["perolas"].levels[0];
    assert_eq!(level.hits, 0, "the pool keeps its value");
}

#[test]
fn a_progressive_grand_no_pool_pays_is_paid_its_fixed_sum() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open_with(dir.path(), &installed(dir.path(), ""), 31);
    select(&mut s, GAME);
    let (r, deal, _) = until_a_grand(&mut s, dir.path());
    let RecallOutcome::Settled { win, components, .. } = &r.outcome else { panic!("round {} not settled", r.round) };
    assert_eq!(*win, deal.win * r.denom, "{components:?}");
    let paid: Vec<_> = components.iter().filter(|c| c.label == "progressive grand: the fixed sum (no pool paid it)").collect();
    assert_eq!(paid.len(), 1, "{components:?}");
    assert_eq!(paid[0].amount, fixed_grand(&deal) * r.denom);
    // The feature's own component leaves the grand pearls out.
    let h = deal.hold.as_ref().unwrap();
    let values: u64 = h.held().filter(|c| c.value != CashValue::Grand).map(|c| c.credits).sum();
    let feature = components.iter().find(|c| c.label.starts_with("hold & spin (")).unwrap();
    assert_eq!(feature.amount, values * r.denom);
}
