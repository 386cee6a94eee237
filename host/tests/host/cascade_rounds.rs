//! A cascade game hosted (issue 50): Minas de Ouro's rounds played through
//! the host's commands, headless, until some cascade; each settled round
//! read back from critical memory: its first window read from the strips
//! here, every cascade's window rebuilt here from the one before (the
//! cells of each way win removed, the rest fallen, the strip read upwards
//! into the top), each window's ways counted here at the cascade's
//! multiplier (×1, ×2, ×3, then ×5), and the round paid their sum; the
//! win components name each cascade.

use crate::tables::{open, select};
use crate::test_config;

use game_core::reels::{ReelGame, ReelRound, SymbolKind};
use game_host::command::Command;
use game_host::session::Lang;
use meters::RecallOutcome;
use meters::inspect::Inspection;
use paytables::artifact::{Artifact, CompiledGame};
use test_config::workspace;

fn minas() -> ReelGame {
    let bytes = std::fs::read(workspace().join("assets/paytables/compiled/minas-cascata.json")).unwrap();
    match serde_json::from_slice::<Artifact>(&bytes).unwrap().game {
        CompiledGame::Reels(g) => g,
        other => panic!("not a reel game: {other:?}"),
    }
}

/// A window's ways win per credit of the unit, and the cells of its way
/// wins (the pickaxe wild from the second reel on).
fn ways(g: &ReelGame, window: &[Vec<u8>]) -> (u64, Vec<(usize, usize)>) {
    let wild = g.wild().unwrap().0;
    let (mut total, mut cells) = (0, Vec::new());
    for (x, s) in g.symbols.iter().enumerate() {
        if s.kind != SymbolKind::Regular {
            continue;
        }
        let x = x as u8;
        let fits = |reel: usize, y: u8| y == x || (reel > 0 && y == wild);
        let counts: Vec<u64> =
            window.iter().enumerate().map_while(|(reel, c)| Some(c.iter().filter(|&&y| fits(reel, y)).count() as u64).filter(|&n| n > 0)).collect();
        let pay = g.pays[usize::from(x)].get(counts.len()).copied().unwrap_or(0);
        if pay > 0 {
            total += pay * counts.iter().product::<u64>();
            for (reel, column) in window.iter().enumerate().take(counts.len()) {
                for (row, &y) in column.iter().enumerate() {
                    if fits(reel, y) && !cells.contains(&(reel, row)) {
                        cells.push((reel, row));
                    }
                }
            }
        }
    }
    (total, cells)
}

#[test]
fn a_cascade_round_is_paid_every_window_at_its_multiplier() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 12);
    select(&mut s, "minas-cascata");
    let g = minas();
    let mut rounds = 0;
    let (mut cascaded, mut deep) = (0, false);
    while cascaded < 5 || !deep {
        rounds += 1;
        assert!(rounds <= 2_000, "{cascaded} cascading rounds in 2,000, a cascade that pays: {deep}");
        if s.machine().credit() < 1_000 {
            assert!(s.command(Command::InsertNote { cents: 5_000 }), "{:?}", s.message());
        }
        assert!(s.command(Command::Play));
        for _ in 0..10 {
            if !s.in_round() {
                break;
            }
            s.command(Command::Revealed);
            s.command(Command::Collect);
        }
        let i = Inspection::open(&dir.path().join("egm.sqlite")).unwrap();
        let r = i.recall(1).unwrap().remove(0);
        let deal: ReelRound = serde_json::from_value(r.steps[0].step.data["deal"].clone()).unwrap();
        let RecallOutcome::Settled { win, components, .. } = r.outcome else { panic!("round {} not settled", r.round) };
        // Each reel a column of strip positions, read upwards when it falls.
        let mut columns: Vec<Vec<usize>> =
            deal.base.stops.iter().enumerate().map(|(r, &s)| (0..3).map(|row| (s as usize + row) % g.reels[r].len()).collect()).collect();
        let mut above: Vec<usize> = deal.base.stops.iter().map(|&s| s as usize).collect();
        let mut want = 0;
        for k in 0..=deal.base.cascades.len() {
            let window: Vec<Vec<u8>> = columns.iter().enumerate().map(|(r, c)| c.iter().map(|&p| g.reels[r].symbols[p]).collect()).collect();
            if k > 0 {
                assert_eq!(deal.base.cascades[k - 1].window, window, "round {} cascade {k}", r.round);
            }
            let (pay, cells) = ways(&g, &window);
            want += pay * [1, 2, 3, 5][k.min(3)];
            for (reel, column) in columns.iter_mut().enumerate() {
                let len = g.reels[reel].len();
                let kept: Vec<usize> = (0..3).filter(|&row| !cells.contains(&(reel, row))).map(|row| column[row]).collect();
                let mut fresh: Vec<usize> = Vec::new();
                for _ in kept.len()..3 {
                    above[reel] = (above[reel] + len - 1) % len;
                    fresh.insert(0, above[reel]);
                }
                fresh.extend(kept);
                *column = fresh;
            }
        }
        assert_eq!(win, want * deal.bet.credits_per_line * r.denom, "round {}", r.round);
        if !deal.base.cascades.is_empty() {
            cascaded += 1;
            // A cascade that pays: the window after it fell paid too.
            deep |= deal.base.cascades.iter().any(|c| c.win > 0);
            for (k, c) in deal.base.cascades.iter().enumerate().filter(|(_, c)| c.win > 0) {
                let named = format!("cascade {} ×{}", k + 1, c.multiplier);
                assert!(components.iter().any(|x| x.label.starts_with(&named)), "{named}: {components:?}");
            }
            assert_eq!(components.iter().map(|c| c.amount).sum::<u64>(), win);
            let n = deal.base.cascades.len();
            let caption = s.history().last().unwrap().picture(Lang::En).caption.clone();
            assert_eq!(caption, format!("+{n} {}", if n == 1 { "cascade" } else { "cascades" }));
        }
    }
}
