//! The heap as it is counted (pure timing and placing, no Bevy): a heap of
//! beads — always `COUNTED` beads and the remainder the core committed —
//! from which the croupier takes four at a time until one to four are left
//! (Art. 3.2). The beads' places are a function of their index, the count
//! a function of the time: never a draw.

/// Fours taken off before the remainder shows (the heap holds
/// `4 × FOURS + remainder` beads).
pub const FOURS: usize = 8;
/// Seconds before the first four are taken, and between two fours.
pub const START_S: f32 = 0.6;
pub const STEP_S: f32 = 0.3;
/// Seconds the remainder rests before the round is settled on screen.
pub const REST_S: f32 = 0.8;

/// When the count has been shown whole.
pub fn shown_by() -> f32 {
    START_S + FOURS as f32 * STEP_S + REST_S
}

/// Beads still on the cloth `t` seconds into the count, of a heap with
/// `remainder` left at its end: the first beads (by index) go four at a time.
pub fn left(t: f32, remainder: u8) -> usize {
    let taken = if t < START_S { 0 } else { (((t - START_S) / STEP_S) as usize + 1).min(FOURS) };
    4 * (FOURS - taken) + usize::from(remainder)
}

/// Whether the count is over (the remainder alone on the cloth).
pub fn counted(t: f32) -> bool {
    t >= START_S + (FOURS - 1) as f32 * STEP_S + STEP_S
}

/// Where bead `i` of a heap of `n` lies, as an offset from the heap's
/// centre within a disc of `radius`: a sunflower's spiral, dense and
/// even, so that no count can be read off the heap at a glance.
pub fn bead_at(i: usize, n: usize, radius: f32) -> (f32, f32) {
    let r = radius * ((i as f32 + 0.5) / n.max(1) as f32).sqrt();
    let a = i as f32 * 2.399_963;
    (r * a.cos(), r * a.sin())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heap_is_counted_off_by_fours_down_to_the_committed_remainder() {
        for remainder in 1..=4u8 {
            let r = usize::from(remainder);
            assert_eq!(left(0.0, remainder), 4 * FOURS + r, "the whole heap at first");
            let mut last = left(0.0, remainder);
            for k in 1..=200 {
                let now = left(k as f32 * shown_by() / 200.0, remainder);
                assert!(now <= last && (last - now).is_multiple_of(4), "fours only, never back: {last} → {now}");
                last = now;
            }
            assert_eq!(last, r, "the remainder is left");
            assert!(counted(shown_by()) && !counted(START_S));
            assert_eq!(left(shown_by() - REST_S, remainder), r, "counted before it rests");
        }
    }

    #[test]
    fn the_beads_lie_apart_inside_the_heap() {
        let n = 4 * FOURS + 4;
        let at: Vec<(f32, f32)> = (0..n).map(|i| bead_at(i, n, 130.0)).collect();
        for (i, &(x, y)) in at.iter().enumerate() {
            assert!((x * x + y * y).sqrt() <= 130.0, "bead {i} out of the heap");
            for &(u, v) in &at[i + 1..] {
                assert!(((x - u).powi(2) + (y - v).powi(2)).sqrt() > 12.0, "two beads on one place");
            }
        }
    }
}
