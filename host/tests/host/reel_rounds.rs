//! A ways game hosted (issue 50): Floresta Encantada's rounds played
//! through the host's commands, headless; each settled round read back
//! from critical memory and paid as the ways counted here from its window
//! (the expanding wild applied here too); the bet named in ways, the
//! history's picture the window as the player saw it.

use crate::tables::{approved_reel_game, open, play_reel_round, select, ways_counted};

use game_core::reels::{ReelGame, SymbolKind};
use game_host::command::Command;
use game_host::picture::Scene;
use game_host::session::Lang;
use meters::RecallOutcome;

/// The window of `stops` read from the strips: three rows per reel, the
/// expanding wild filling a reel it shows on.
fn window(g: &ReelGame, stops: &[u32], free: bool) -> Vec<Vec<u8>> {
    let wild = g.symbols.iter().position(|s| matches!(s.kind, SymbolKind::Wild { expanding: true, .. })).unwrap() as u8;
    g.strips(free)
        .iter()
        .zip(stops)
        .map(|(strip, &stop)| {
            let cells: Vec<u8> = (0..3).map(|r| strip.symbols[(stop as usize + r) % strip.len()]).collect();
            if cells.contains(&wild) { vec![wild; 3] } else { cells }
        })
        .collect()
}

#[test]
fn a_ways_game_s_rounds_are_paid_the_ways_counted_from_the_window() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 5);
    assert!(s.command(Command::InsertNote { cents: 5_000 }));
    select(&mut s, "floresta-243");
    let g = approved_reel_game("floresta-243");
    assert_eq!(g.ways_count(), 243);
    assert_eq!(s.bet_text(), "243 maneiras · 25 × 1 créd.");
    s.command(Command::Language { lang: Lang::En });
    assert_eq!(s.bet_text(), "243 ways · 25 × 1 cr");
    let (mut paid_ways, mut rounds) = (0, 0);
    while rounds < 60 && paid_ways < 5 {
        rounds += 1;
        let (r, round) = play_reel_round(&mut s, dir.path());
        assert_eq!((r.game.as_str(), r.stake), ("floresta-243", 25));
        // Every spin's ways win (the free games at ×2) from its window,
        // the scatter's pay on the whole cost.
        let spin_win = |stops: &[u32], free: bool| {
            let w = window(&g, stops, free);
            let scatters = w.iter().flatten().filter(|&&y| Some(y) == g.scatter.as_ref().map(|sc| sc.symbol)).count();
            let scatter = g.scatter.as_ref().unwrap().pays.get(scatters).copied().unwrap_or(0) * 25;
            (ways_counted(&g, &w).0 + scatter) * if free { 2 } else { 1 }
        };
        let want = spin_win(&round.base.stops, false) + round.free_spins.iter().map(|f| spin_win(&f.stops, true)).sum::<u64>();
        let RecallOutcome::Settled { win, .. } = r.outcome else { panic!("round {} not settled", r.round) };
        assert_eq!(win, want, "round {}: {:?}", r.round, window(&g, &round.base.stops, false));
        paid_ways += usize::from(!round.base.way_wins.is_empty());
        // The history draws the window the player saw, row by row.
        let picture = s.history().last().unwrap().picture(Lang::Pt);
        let Scene::Reels { rows } = &picture.scene else { panic!("no reels in the history") };
        let w = window(&g, &round.base.stops, false);
        let want_rows: Vec<Vec<String>> = (0..3).map(|row| w.iter().map(|cells| g.symbols[usize::from(cells[row])].id.clone()).collect()).collect();
        assert_eq!(rows, &want_rows);
    }
    assert!(paid_ways >= 5, "{paid_ways} spins paid ways in {rounds}");
}

/// B-16: every settled round is metered in its wager category — a reel
/// game's number of lines at the RTP its approved artifact proves for it
/// (read here from the artifact's exact ratio, rounded down to millionths)
/// — its coin-in and its theoretical payback, stake × RTP.
#[test]
fn reel_rounds_are_metered_in_their_wager_category_at_the_approved_rtp() {
    use game_host::command::Command;
    use game_host::kind::BetControl;
    let dir = tempfile::tempdir().unwrap();
    let mut s = crate::tables::open(dir.path(), 21);
    crate::tables::select(&mut s, "ocean-treasure");
    let artifact: serde_json::Value =
        serde_json::from_slice(&std::fs::read(crate::test_config::workspace().join("assets/paytables/compiled/ocean-treasure.json")).unwrap()).unwrap();
    // The artifact's exact RTP per number of lines, "numerator/denominator".
    let ppm = |lines: u64| -> u32 {
        let rtp = artifact["rtp"].as_array().unwrap().iter().find(|e| e[0].as_u64() == Some(lines)).unwrap()[1].as_str().unwrap().to_owned();
        let (n, d) = rtp.split_once('/').unwrap();
        (n.parse::<u128>().unwrap() * 1_000_000 / d.parse::<u128>().unwrap()) as u32
    };
    assert!(s.command(Command::InsertNote { cents: 5_000 }));
    let mut staked = std::collections::BTreeMap::<u64, u64>::new();
    for round in 0..6 {
        if round == 3 {
            // Fewer lines: another category.
            assert!(s.command(Command::AdjustBet { control: BetControl::Lines, delta: -1 }));
        }
        let (r, deal) = crate::tables::play_reel_round(&mut s, dir.path());
        *staked.entry(u64::from(deal.bet.lines)).or_default() += r.stake;
    }
    assert_eq!(staked.len(), 2, "{staked:?}");
    let categories = &s.machine().state().categories["ocean-treasure"];
    assert_eq!(categories.len(), 2);
    for (lines, coin_in) in &staked {
        let c = &categories[&format!("{lines} lines")];
        assert_eq!((c.coin_in, c.rtp_ppm), (*coin_in, ppm(*lines)), "{lines} lines");
        assert_eq!(c.theoretical_micro, u128::from(*coin_in) * u128::from(ppm(*lines)));
    }
}

/// Issue 75: the win the meters show is the game on screen's: another
/// game chosen shows none, the game chosen back shows its last win again.
#[test]
fn the_win_shown_is_the_game_on_screens_own() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 5);
    select(&mut s, "floresta-243");
    let mut won = 0;
    for _ in 0..300 {
        let (recall, _) = play_reel_round(&mut s, dir.path());
        if let RecallOutcome::Settled { win, .. } = recall.outcome
            && win > 0
        {
            won = win;
            break;
        }
    }
    assert!(won > 0, "no win in 300 rounds");
    assert_eq!(s.win_on_screen(), won, "the round's win, settled");
    select(&mut s, "classic-sevens");
    assert_eq!(s.win_on_screen(), 0, "another game: not floresta's win");
    select(&mut s, "floresta-243");
    assert_eq!(s.win_on_screen(), won, "floresta again: its last win");
}
