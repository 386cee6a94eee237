//! Dice as they fall (pure timing, no Bevy): the throws of a round one
//! after another, each die tumbling through faces and dropping onto the
//! table, then resting on the face the core committed, one die after the
//! other. The tumbling faces are a function of the time, never a draw.

/// Seconds a throw takes on screen (its dice fall, then rest a moment).
pub const THROW_S: f32 = 1.5;
/// When die `k` of a throw lands, from the throw's start.
pub fn lands_at(k: usize) -> f32 {
    0.75 + 0.14 * k as f32
}
/// Seconds the last throw rests before the round is settled on screen.
pub const REST_S: f32 = 0.6;

/// The throw on screen `t` seconds into a round of `n` throws, and the
/// time into that throw.
pub fn throw_at(t: f32, n: usize) -> (usize, f32) {
    let i = ((t.max(0.0) / THROW_S) as usize).min(n.saturating_sub(1));
    (i, t - i as f32 * THROW_S)
}

/// When the whole round has been shown (its last throw at rest).
pub fn shown_by(n: usize) -> f32 {
    n.saturating_sub(1) as f32 * THROW_S + lands_at(2) + REST_S
}

/// Die `k` of a throw `u` seconds in: the face it shows and how high it
/// is over its resting place (design units), landing on `face`.
pub fn die(k: usize, u: f32, face: u8) -> (u8, f32) {
    let land = lands_at(k);
    if u >= land {
        // A last small bounce after landing.
        let b = (u - land) / 0.18;
        let lift = if b < 1.0 { 14.0 * (b * std::f32::consts::PI).sin() } else { 0.0 };
        return (face, lift);
    }
    let left = 1.0 - u.max(0.0) / land;
    let tumbling = 1 + ((u.max(0.0) * 16.0) as usize + 2 * k) % 6;
    (tumbling as u8, 260.0 * left * left)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_die_lands_on_its_committed_face_and_stays() {
        for face in 1..=6 {
            for k in 0..3 {
                let (f, lift) = die(k, lands_at(k), face);
                assert_eq!((f, lift), (face, 0.0));
                assert_eq!(die(k, THROW_S, face), (face, 0.0), "at rest");
                let (_, high) = die(k, 0.0, face);
                assert!(high > 200.0, "it falls from above");
            }
        }
        // The dice land one after another.
        assert!(lands_at(0) < lands_at(1) && lands_at(1) < lands_at(2) && lands_at(2) < THROW_S);
    }

    #[test]
    fn the_throws_follow_one_another_and_the_last_stays() {
        assert_eq!(throw_at(0.0, 3), (0, 0.0));
        assert_eq!(throw_at(THROW_S + 0.25, 3).0, 1);
        let (i, u) = throw_at(100.0, 3);
        assert_eq!(i, 2);
        assert!(u > THROW_S, "the last throw stays on screen");
        assert!(shown_by(1) < THROW_S + REST_S);
        assert!((shown_by(4) - shown_by(1) - 3.0 * THROW_S).abs() < 1e-4);
    }
}
