//! What the players of a roulette look for (AR 45, FR 37: the last
//! winning numbers with their colours), from the journal: the last
//! numbers, the hot and cold numbers, and the shares of red and black,
//! odd and even, over the last 100 spins. Pure counting.

use game_core::roulette::{DOUBLE_ZERO, PocketColour, colour};

/// The figures of the last spins, newest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub spins: usize,
    pub last: Vec<u8>,
    /// The most and the least frequent numbers (ties: the lower first).
    pub hot: Vec<u8>,
    pub cold: Vec<u8>,
    /// Per cent of the spins: red, black, zero; odd, even.
    pub red: u32,
    pub black: u32,
    pub zero: u32,
    pub odd: u32,
    pub even: u32,
}

/// How many spins the shares are counted over, and how many numbers the
/// strip of last numbers shows.
pub const OVER: usize = 100;
pub const LAST: usize = 12;

/// The figures of `pockets` (newest first) on a wheel of `pockets_on_wheel`.
pub fn stats(pockets: &[u8], double_zero: bool) -> Stats {
    let spins = &pockets[..pockets.len().min(OVER)];
    let n = spins.len();
    if n == 0 {
        return Stats::default();
    }
    let share = |k: usize| ((k * 100 + n / 2) / n) as u32;
    let count = |f: &dyn Fn(u8) -> bool| spins.iter().filter(|&&p| f(p)).count();
    let mut numbers: Vec<u8> = (0..=36).collect();
    if double_zero {
        numbers.push(DOUBLE_ZERO);
    }
    let freq = |p: u8| spins.iter().filter(|&&q| q == p).count();
    let mut by_count: Vec<(usize, u8)> = numbers.iter().map(|&p| (freq(p), p)).collect();
    by_count.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let hot = by_count.iter().take(3).filter(|(c, _)| *c > 0).map(|(_, p)| *p).collect();
    let mut cold_order = by_count.clone();
    cold_order.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    let cold = cold_order.iter().take(3).map(|(_, p)| *p).collect();
    let number = |p: u8| (1..=36).contains(&p);
    Stats {
        spins: n,
        last: pockets.iter().take(LAST).copied().collect(),
        hot,
        cold,
        red: share(count(&|p| colour(p) == PocketColour::Red)),
        black: share(count(&|p| colour(p) == PocketColour::Black)),
        zero: share(count(&|p| colour(p) == PocketColour::Zero)),
        odd: share(count(&|p| number(p) && !p.is_multiple_of(2))),
        even: share(count(&|p| number(p) && p.is_multiple_of(2))),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_figures_count_the_last_hundred_spins() {
        assert_eq!(stats(&[], false), Stats::default());
        // 17 three times, 0 once, 32 twice: newest first.
        let s = stats(&[17, 32, 0, 17, 32, 17], false);
        assert_eq!(s.spins, 6);
        assert_eq!(s.last, vec![17, 32, 0, 17, 32, 17]);
        assert_eq!(s.hot, vec![17, 32, 0]);
        assert_eq!(s.cold, vec![1, 2, 3], "numbers never out, lowest first");
        assert_eq!((s.red, s.black, s.zero), (33, 50, 17));
        assert_eq!((s.odd, s.even), (50, 33));
        // Only the last 100 count; the strip shows 12.
        let mut many = vec![5u8; 100];
        many.extend(vec![DOUBLE_ZERO; 50]);
        let s = stats(&many, true);
        assert_eq!((s.spins, s.red, s.zero), (100, 100, 0));
        assert_eq!(s.last.len(), LAST);
        assert!(!s.cold.contains(&5));
    }
}
