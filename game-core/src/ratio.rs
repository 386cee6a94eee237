//! Whole-number ratios of pays and stakes: the step a stake must keep for
//! a pay of `win` for `per` to come out in whole cents (a 3:2 blackjack,
//! a fantan commission, a baccarat banker's 5 %).

/// The greatest common divisor (Euclid); `gcd(a, 0)` is `a`.
pub fn gcd(a: u64, b: u64) -> u64 {
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::gcd;

    #[test]
    fn the_greatest_common_divisor_against_every_divisor() {
        for a in 0..60u64 {
            for b in 0..60u64 {
                let brute = (1..=a.max(b)).filter(|d| a % d == 0 && b % d == 0).max().unwrap_or(0);
                assert_eq!(gcd(a, b), brute, "gcd({a}, {b})");
            }
        }
        assert_eq!(gcd(u64::MAX, u64::MAX - 1), 1);
        assert_eq!(gcd(u64::MAX, 3), 3);
    }
}
