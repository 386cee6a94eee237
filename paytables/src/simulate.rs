//! Simulation: a cross-check of the exact figures, never a substitute
//! (certification.md B-11). Rounds are played by game-core's
//! [`FastReels`] — the same rules and the same draws, in the same order, as
//! `ReelGame::play` (a test proves them equal round by round) — through the
//! core's ChaCha20 stream and its production scaling.

use game_core::reels::{FastReels, ReelGame, StopTables};
use meters::StreamRng;

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SimResult {
    pub games: u64,
    pub lines: u32,
    /// Σ win and Σ win², in credits per credit per line.
    pub total_win: u128,
    pub sum_sq: u128,
    pub hits: u64,
}

impl SimResult {
    /// Measured RTP.
    pub fn rtp(&self) -> f64 {
        self.total_win as f64 / (self.games as f64 * f64::from(self.lines))
    }

    /// Sample standard deviation of a round's win, in total bets.
    pub fn standard_deviation(&self) -> f64 {
        let n = self.games as f64;
        let bet = f64::from(self.lines);
        let mean = self.total_win as f64 / n;
        let var = (self.sum_sq as f64 / n - mean * mean) * n / (n - 1.0).max(1.0);
        var.max(0.0).sqrt() / bet
    }

    /// The 99% confidence interval of the RTP (normal approximation).
    pub fn ci99(&self) -> (f64, f64) {
        let half = 2.575_829_3 * self.standard_deviation() / (self.games as f64).sqrt();
        (self.rtp() - half, self.rtp() + half)
    }

    pub(crate) fn merge(&mut self, o: &SimResult) {
        self.games += o.games;
        self.total_win += o.total_win;
        self.sum_sq += o.sum_sq;
        self.hits += o.hits;
    }
}

/// Play `games` rounds at `lines` lines on one thread from `seed`;
/// `progress` is called with the rounds done every 2^16 rounds.
pub fn run(game: &ReelGame, tables: &StopTables, lines: u32, games: u64, seed: u64, progress: &(dyn Fn(u64) + Sync)) -> SimResult {
    let fast = FastReels::new(game, tables);
    let mut rng = StreamRng::from_seed(seed);
    play(games, lines, &mut rng, progress, |rng| fast.round(rng, lines as usize))
}

/// Play `games` rounds of `round` (the win of one round, in credits for a
/// bet of `bet` credits) on one stream; `progress` every 2^16 rounds.
fn play(games: u64, bet: u32, rng: &mut StreamRng, progress: &(dyn Fn(u64) + Sync), round: impl Fn(&mut StreamRng) -> u64) -> SimResult {
    let mut r = SimResult { games, lines: bet, total_win: 0, sum_sq: 0, hits: 0 };
    let mut done = 0u64;
    while done < games {
        let chunk = (games - done).min(1 << 16);
        for _ in 0..chunk {
            let w = round(rng);
            r.total_win += u128::from(w);
            r.sum_sq += u128::from(w) * u128::from(w);
            r.hits += u64::from(w > 0);
        }
        done += chunk;
        progress(chunk);
    }
    r
}

/// Play `games` rounds of `round` over `threads` threads, thread `t`
/// on the stream seeded `seed + t`: a table game's simulation (roulette,
/// dice, baccarat), each round's win in credits for a bet of `bet`.
pub fn rounds(games: u64, seed: u64, threads: usize, bet: u64, progress: &(dyn Fn(u64) + Sync), round: impl Fn(&mut StreamRng) -> u64 + Sync) -> SimResult {
    let bet = u32::try_from(bet).unwrap_or(u32::MAX);
    let parts = across_threads(games, threads, |t, share| play(share, bet, &mut StreamRng::from_seed(seed.wrapping_add(t)), progress, &round));
    let mut total = SimResult { games: 0, lines: bet, total_win: 0, sum_sq: 0, hits: 0 };
    for p in &parts {
        total.merge(p);
    }
    total
}

/// Run `work(t, share)` on `threads` threads, thread `t` playing its
/// `share` of `games` (the shares differ by at most one).
pub fn across_threads<R: Send>(games: u64, threads: usize, work: impl Fn(u64, u64) -> R + Sync) -> Vec<R> {
    let threads = threads.max(1) as u64;
    std::thread::scope(|s| {
        let work = &work;
        let hs: Vec<_> = (0..threads).map(|t| s.spawn(move || work(t, games / threads + u64::from(t < games % threads)))).collect();
        // A worker that fails fails the whole analysis, never a partial sum (issue 18).
        hs.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}

/// Split `games` over `threads` threads, thread `t` seeded `seed + t`:
/// reproducible for a given seed and thread count.
pub fn run_parallel(
    game: &ReelGame,
    lines: u32,
    games: u64,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimResult, meters::rng::WeightError> {
    let tables = StopTables::new(game)?;
    let parts = across_threads(games, threads, |t, share| run(game, &tables, lines, share, seed.wrapping_add(t), progress));
    let mut total = SimResult { games: 0, lines, total_win: 0, sum_sq: 0, hits: 0 };
    for p in &parts {
        total.merge(p);
    }
    Ok(total)
}
