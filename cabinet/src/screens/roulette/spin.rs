//! The wheel and the ball as they move (pure timing, no Bevy): the wheel
//! turns one way and the ball the other (AR 31, FR 22), launched the other
//! way each round (AR 30), slowing until the ball drops into the pocket
//! the core committed, where it stays and turns with the wheel. Angles in
//! radians, clockwise from the top, in the world; a pocket's place on the
//! wheel is its index in the wheel's sequence (as the art kit draws it).

use std::f32::consts::TAU;

/// Seconds from the launch until the ball rests in its pocket.
pub const SPIN_S: f32 = 6.5;
/// The wheel's speed (turns a second) and the ball's whole run (turns).
const WHEEL_TURNS_PER_S: f32 = 0.12;
const BALL_TURNS: f32 = 9.0;
/// The share of the run after which the ball leaves the rim and falls.
pub const DROP_FROM: f32 = 0.72;

/// One round's motion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spin {
    /// Where the committed pocket stands in the wheel's sequence, of how many.
    pub index: usize,
    pub pockets: usize,
    /// +1: the ball runs clockwise (the wheel anticlockwise); −1 the other way.
    pub ball_direction: f32,
    /// Where the wheel stood at the launch.
    pub wheel_start: f32,
}

impl Spin {
    /// The round `round`'s spin: the ball launched the other way from the
    /// round before (AR 30), the wheel where the last one left it.
    pub fn new(index: usize, pockets: usize, round: u64) -> Spin {
        let ball_direction = if round.is_multiple_of(2) { 1.0 } else { -1.0 };
        Spin { index, pockets, ball_direction, wheel_start: (round % 7) as f32 * 0.9 }
    }

    /// The wheel's angle `t` seconds after the launch (it never stops).
    pub fn wheel(&self, t: f32) -> f32 {
        self.wheel_start - self.ball_direction * WHEEL_TURNS_PER_S * TAU * t.max(0.0)
    }

    /// The pocket's angle in the world at `t`.
    fn pocket(&self, t: f32) -> f32 {
        self.wheel(t) + TAU * self.index as f32 / self.pockets.max(1) as f32
    }

    /// The ball's angle at `t`: slowing as (1 − t/T)², to land exactly on
    /// its pocket at T, then carried by the wheel.
    pub fn ball(&self, t: f32) -> f32 {
        if t >= SPIN_S {
            return self.pocket(t);
        }
        let left = 1.0 - t.max(0.0) / SPIN_S;
        self.pocket(SPIN_S) - self.ball_direction * BALL_TURNS * TAU * left * left
    }

    /// How far out the ball runs, from 1 (the rim) to 0 (in the pocket).
    pub fn ball_radius(&self, t: f32) -> f32 {
        let k = (t / SPIN_S - DROP_FROM) / (1.0 - DROP_FROM);
        1.0 - k.clamp(0.0, 1.0)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn same_angle(a: f32, b: f32) -> bool {
        let d = (a - b).rem_euclid(TAU);
        d < 1e-3 || TAU - d < 1e-3
    }

    #[test]
    fn the_ball_lands_on_the_committed_pocket_and_stays_in_it() {
        for index in [0, 1, 17, 36] {
            let s = Spin::new(index, 37, 5);
            let pocket = s.wheel(SPIN_S) + TAU * index as f32 / 37.0;
            assert!(same_angle(s.ball(SPIN_S), pocket), "lands on pocket {index}");
            // Then it turns with the wheel.
            for t in [SPIN_S + 0.5, SPIN_S + 3.0] {
                assert!(same_angle(s.ball(t) - s.wheel(t), TAU * index as f32 / 37.0));
            }
            assert_eq!(s.ball_radius(0.0), 1.0);
            assert_eq!(s.ball_radius(SPIN_S), 0.0);
        }
    }

    /// AR 30–31: the ball runs against the wheel, one way and the other on
    /// alternate rounds, always slowing.
    #[test]
    fn the_ball_runs_against_the_wheel_and_alternates_each_round() {
        for round in [4u64, 5] {
            let s = Spin::new(3, 38, round);
            let wheel_way = (s.wheel(1.0) - s.wheel(0.0)).signum();
            let mut last_step = f32::MAX;
            let mut t = 0.0;
            while t + 0.1 < SPIN_S {
                let step = (s.ball(t + 0.1) - s.ball(t)) * s.ball_direction;
                assert!(step > 0.0, "the ball keeps its way");
                assert!(step < last_step, "and slows");
                assert_eq!((s.ball(t + 0.1) - s.ball(t)).signum(), -wheel_way, "against the wheel");
                last_step = step;
                t += 0.1;
            }
        }
        assert_ne!(Spin::new(0, 37, 4).ball_direction, Spin::new(0, 37, 5).ball_direction);
    }
}
