//! A wheel as it turns (pure timing, no Bevy): from rest it turns whole
//! turns and slows to the place the core committed, under the pointer at
//! the top. The wheel of fortune turns at least three times before it
//! stops (RS-8); boule's wheel turns alike. The angle is a function of the
//! time, never a draw.

/// Seconds the wheel turns.
pub const TURN_S: f32 = 6.0;
/// Seconds it rests on its stop before the round is settled on screen.
pub const REST_S: f32 = 0.8;
/// Whole turns before the last, partial one to the stop (RS-8: at least
/// three).
pub const TURNS: u32 = 4;

/// When the spin has been shown whole (the wheel at rest on its stop).
pub fn shown_by() -> f32 {
    TURN_S + REST_S
}

/// How far the wheel has turned `t` seconds into the spin, in turns
/// (anticlockwise, so that the places pass the pointer in their order):
/// fast at first and slowing to rest at `TURNS` turns and `stop` places of
/// `n`, which then stands under the pointer.
pub fn turned(t: f32, stop: usize, n: usize) -> f32 {
    let end = TURNS as f32 + stop as f32 / n.max(1) as f32;
    let u = (t / TURN_S).clamp(0.0, 1.0);
    end * (1.0 - (1.0 - u).powi(3))
}

/// Whether the wheel rests (the outcome may be announced).
pub fn at_rest(t: f32) -> bool {
    t >= TURN_S
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The place under the pointer after the wheel turned `turns` turns
    /// anticlockwise: place k stands k/n of a turn clockwise of the
    /// pointer at rest, so it comes under the pointer once the wheel has
    /// turned k/n (plus whole turns).
    fn under_pointer(turns: f32, n: usize) -> usize {
        ((turns.rem_euclid(1.0) * n as f32).round() as usize) % n
    }

    #[test]
    fn the_wheel_turns_at_least_three_times_and_stops_on_the_committed_place() {
        for n in [25usize, 52] {
            for stop in 0..n {
                let end = turned(TURN_S, stop, n);
                assert_eq!(under_pointer(end, n), stop, "{n} places, stop {stop}");
                // RS-8: at least three whole turns before it stops.
                assert!(end >= 3.0 + stop as f32 / n as f32, "{end}");
                assert_eq!(turned(TURN_S + 5.0, stop, n), end, "at rest it stays");
            }
        }
    }

    #[test]
    fn the_wheel_never_turns_back_and_slows_to_its_stop() {
        let mut last = turned(0.0, 17, 52);
        assert_eq!(last, 0.0);
        let mut last_step = f32::MAX;
        for k in 1..=600 {
            let now = turned(k as f32 * TURN_S / 600.0, 17, 52);
            let step = now - last;
            assert!(step >= 0.0, "it never turns back");
            assert!(step <= last_step + 1e-5, "it never speeds up");
            last_step = step;
            last = now;
        }
        assert!(!at_rest(TURN_S - 0.01) && at_rest(TURN_S));
        assert!(shown_by() > TURN_S);
    }
}
