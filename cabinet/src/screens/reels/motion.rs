//! How the reels move (issue 29): worked out from the committed stops and
//! the time since the spin began, and nothing else — pure presentation,
//! which never changes what was drawn. Each reel speeds up, runs, and
//! stops one after another, landing exactly on its committed stop with a
//! short bounce; a reel that could complete a scatter trigger runs longer
//! (anticipation).

use game_core::reels::{ReelGame, Spin};

/// Seconds to reach full speed.
pub const SPEED_UP_S: f32 = 0.3;
/// Full speed, in symbols a second.
pub const SPEED: f32 = 16.0;
/// When the first reel stops, and the time between two reels' stops.
pub const FIRST_STOP_S: f32 = 0.7;
pub const STAGGER_S: f32 = 0.3;
/// The extra run of an anticipated reel.
pub const ANTICIPATION_S: f32 = 1.0;
/// The bounce on landing: its length and how far past the stop it goes,
/// in cells.
pub const BOUNCE_S: f32 = 0.22;
pub const BOUNCE_DEPTH: f32 = 0.18;

/// The motion of one spin's reels.
#[derive(Clone, Debug, PartialEq)]
pub struct Motion {
    /// When each reel lands on its stop, in seconds from the spin's start.
    pub stops_at: Vec<f32>,
    /// Which reels run longer because a scatter trigger is possible.
    pub anticipated: Vec<bool>,
}

/// Distance run (in symbols) `t` seconds after the start.
fn run(t: f32) -> f32 {
    let t = t.max(0.0);
    if t < SPEED_UP_S { SPEED * t * t / (2.0 * SPEED_UP_S) } else { SPEED * (t - SPEED_UP_S / 2.0) }
}

impl Motion {
    /// The motion of `spin` of `game`.
    pub fn new(game: &ReelGame, spin: &Spin) -> Motion {
        let reels = spin.stops.len();
        let scatters_in = |reel: usize| -> usize {
            let (Some(rule), Some(strip)) = (game.scatter.as_ref(), game.strips(spin.free).get(reel)) else { return 0 };
            let stop = spin.stops[reel] as usize;
            game.reel_window(reel, strip, stop).iter().filter(|&&x| x == rule.symbol).count()
        };
        // The fewest scatters that pay or award free games.
        let trigger = game.scatter.as_ref().and_then(|rule| {
            let awards = |c: usize| rule.free_games.as_ref().and_then(|f| f.awards.get(c)).copied().unwrap_or(0);
            (1..rule.pays.len().max(1 + rule.free_games.as_ref().map_or(0, |f| f.awards.len())))
                .find(|&c| rule.pays.get(c).copied().unwrap_or(0) > 0 || awards(c) > 0)
        });
        let mut landed = 0;
        let mut anticipated = Vec::with_capacity(reels);
        for reel in 0..reels {
            anticipated.push(reel > 0 && trigger.is_some_and(|t| t > 1 && landed + 1 >= t));
            landed += scatters_in(reel);
        }
        let mut stops_at = Vec::with_capacity(reels);
        let mut extra = 0.0;
        for (reel, &a) in anticipated.iter().enumerate() {
            if a {
                extra += ANTICIPATION_S;
            }
            stops_at.push(FIRST_STOP_S + STAGGER_S * reel as f32 + extra);
        }
        Motion { stops_at, anticipated }
    }

    /// How far (in cells) reel `reel` still is from its stop `t` seconds
    /// after the start: positive while it runs, negative in the bounce
    /// past the stop, 0 once it rests.
    pub fn offset(&self, reel: usize, t: f32) -> f32 {
        let Some(&at) = self.stops_at.get(reel) else { return 0.0 };
        if t < at {
            return run(at) - run(t);
        }
        let u = (t - at) / BOUNCE_S;
        if u >= 1.0 { 0.0 } else { -BOUNCE_DEPTH * (std::f32::consts::PI * u).sin() * (1.0 - u) }
    }

    /// Whether reel `reel` has landed `t` seconds after the start.
    pub fn landed(&self, reel: usize, t: f32) -> bool {
        self.stops_at.get(reel).is_none_or(|&at| t >= at)
    }

    /// Whether reel `reel` is running its anticipation now: after the reel
    /// before it landed, before it lands itself.
    pub fn anticipating(&self, reel: usize, t: f32) -> bool {
        self.anticipated.get(reel).copied().unwrap_or(false) && !self.landed(reel, t) && reel.checked_sub(1).is_none_or(|r| self.landed(r, t))
    }

    /// When every reel rests, bounce included.
    pub fn rests_at(&self) -> f32 {
        self.stops_at.iter().copied().fold(0.0, f32::max) + BOUNCE_S
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use game_core::reels::Bet;
    use paytables::artifact::{Artifact, CompiledGame};

    fn game(id: &str) -> ReelGame {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../assets/paytables/compiled/{id}.json"));
        match serde_json::from_slice::<Artifact>(&std::fs::read(path).unwrap()).unwrap().game {
            CompiledGame::Reels(g) => g,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn each_reel_speeds_up_runs_and_lands_exactly_on_its_stop_then_rests() {
        let g = game("classic-sevens");
        let spin = g.evaluate(&[3, 9, 17], Bet { lines: 1, credits_per_line: 1 }, false);
        let m = Motion::new(&g, &spin);
        assert_eq!(m.stops_at, vec![0.7, 1.0, 1.3], "no scatter: staggered by 0.3 s");
        for reel in 0..3 {
            let at = m.stops_at[reel];
            // Runs the whole way: the offset only falls until the landing.
            let mut last = f32::INFINITY;
            for k in 0..=100 {
                let t = at * k as f32 / 100.0;
                let o = m.offset(reel, t);
                assert!(o <= last + 1e-4 && o >= 0.0, "reel {reel} at {t}: {o} after {last}");
                last = o;
            }
            assert!(m.offset(reel, 0.0) > SPEED * (at - SPEED_UP_S) * 0.9, "it runs at full speed most of the way");
            // Speeding up: the first tenth of a second covers less than a
            // tenth of full speed's distance.
            assert!(m.offset(reel, 0.0) - m.offset(reel, 0.1) < SPEED * 0.1);
            assert_eq!(m.offset(reel, at), 0.0, "lands exactly on the stop");
            let bounce = m.offset(reel, at + BOUNCE_S / 2.0);
            assert!(bounce < 0.0 && bounce > -BOUNCE_DEPTH, "a short bounce past the stop: {bounce}");
            assert!(m.offset(reel, at + BOUNCE_S).abs() < 1e-4);
            assert_eq!(m.offset(reel, at + 10.0), 0.0, "and rests");
            assert!(!m.landed(reel, at - 0.01) && m.landed(reel, at));
        }
        assert!((m.rests_at() - (1.3 + BOUNCE_S)).abs() < 1e-6);
    }

    /// Ocean Treasure pays scatters from 3 chests (its trigger): two chests
    /// on the first reels make every later reel run longer; none, no reel.
    #[test]
    fn reels_that_could_complete_a_scatter_trigger_run_longer() {
        let g = game("ocean-treasure");
        let rule = g.scatter.as_ref().unwrap();
        let chest = rule.symbol;
        let strips = g.strips(false);
        // A stop showing the chest on a reel, and one not showing it.
        let with = |reel: usize, want: bool| -> u32 {
            (0..strips[reel].len()).find(|&s| (0..g.rows as usize).any(|row| strips[reel].at(s, row) == chest) == want).unwrap() as u32
        };
        let bet = Bet { lines: 20, credits_per_line: 1 };
        let none = g.evaluate(&(0..5).map(|r| with(r, false)).collect::<Vec<_>>(), bet, false);
        let m = Motion::new(&g, &none);
        assert_eq!(m.anticipated, vec![false; 5]);
        let two = g.evaluate(&[with(0, true), with(1, true), with(2, false), with(3, false), with(4, false)], bet, false);
        let m = Motion::new(&g, &two);
        assert_eq!(m.anticipated, vec![false, false, true, true, true]);
        assert!((m.stops_at[2] - (FIRST_STOP_S + 2.0 * STAGGER_S + ANTICIPATION_S)).abs() < 1e-6);
        assert!((m.stops_at[4] - (FIRST_STOP_S + 4.0 * STAGGER_S + 3.0 * ANTICIPATION_S)).abs() < 1e-6);
        assert!(m.anticipating(2, m.stops_at[1] + 0.1) && !m.anticipating(3, m.stops_at[1] + 0.1), "one reel at a time");
        let one = g.evaluate(&[with(0, true), with(1, false), with(2, false), with(3, false), with(4, false)], bet, false);
        assert_eq!(Motion::new(&g, &one).anticipated, vec![false; 5], "one chest: two more are needed, no anticipation yet");
    }
}
