//! A cascade game hosted (issue 50): Minas de Ouro's rounds played through
//! the host's commands, headless, until some cascade; each settled round
//! read back from critical memory: its first window read from the strips
//! here, every cascade's window rebuilt here from the one before (the
//! cells of each way win removed, the rest fallen, the strip read upwards
//! into the top), each window's ways counted here at the cascade's
//! multiplier (×1, ×2, ×3, then ×5), and the round paid their sum; the
//! win components name each cascade.

use crate::tables::{approved_reel_game, open, play_reel_round, select, ways_counted};

use game_host::session::Lang;
use meters::RecallOutcome;

#[test]
fn a_cascade_round_is_paid_every_window_at_its_multiplier() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 12);
    select(&mut s, "minas-cascata");
    let g = approved_reel_game("minas-cascata");
    let mut rounds = 0;
    let (mut cascaded, mut deep) = (0, false);
    while cascaded < 5 || !deep {
        rounds += 1;
        assert!(rounds <= 2_000, "{cascaded} cascading rounds in 2,000, a cascade that pays: {deep}");
        let (r, deal) = play_reel_round(&mut s, dir.path());
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
            let (pay, cells) = ways_counted(&g, &window);
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
