//! Money: integer minor units (cents) in `u64`, never a float (decisions.md,
//! "Money, credits, denominations"); credits are derived from cents and a
//! denomination (Def. XVIII, XX, M-16).

use serde::{Deserialize, Serialize};

/// An amount of money in minor currency units (cents).
pub type Cents = u64;

/// The configured currency (decisions.md: EUR by default, M-16).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Currency {
    /// ISO 4217 code, e.g. "EUR".
    pub code: String,
    /// Digits of the minor unit (2 for EUR).
    pub minor_digits: u8,
}

impl Default for Currency {
    fn default() -> Self {
        Self { code: "EUR".into(), minor_digits: 2 }
    }
}

impl Currency {
    /// `1234` → `"12.34 EUR"`.
    pub fn format(&self, cents: Cents) -> String {
        format!("{} {}", format_minor(cents, self.minor_digits), self.code)
    }
}

/// `1234, 2` → `"12.34"`, `2000000, 2` → `"20 000.00"`: exact, no float
/// involved; the whole units grouped by thousands with a space (issue 75:
/// "20000.00" read as two thousand on a jackpot), an ASCII space, which
/// every printer prints.
pub fn format_minor(amount: Cents, minor_digits: u8) -> String {
    if minor_digits == 0 {
        return grouped(amount);
    }
    let unit = 10u64.pow(u32::from(minor_digits));
    format!("{}.{:0width$}", grouped(amount / unit), amount % unit, width = usize::from(minor_digits))
}

/// `1234567` → `"1 234 567"`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(d);
    }
    out
}

/// The credit meter seen at a denomination: whole credits plus the cents
/// that do not make a whole credit. The remainder stays on the meter, is
/// shown in currency and is cashable (decisions.md: no cent is ever lost).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreditView {
    pub credits: u64,
    pub remainder_cents: Cents,
}

/// Split a cent amount into whole credits of `denomination` and a remainder.
/// A zero denomination is treated as one cent.
pub fn credits_at(cents: Cents, denomination: Cents) -> CreditView {
    let d = denomination.max(1);
    CreditView { credits: cents / d, remainder_cents: cents % d }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_exactly() {
        assert_eq!(format_minor(0, 2), "0.00");
        assert_eq!(format_minor(5, 2), "0.05");
        assert_eq!(format_minor(123_456, 2), "1 234.56");
        assert_eq!(format_minor(99_999, 2), "999.99");
        assert_eq!(format_minor(2_000_000, 2), "20 000.00");
        assert_eq!(format_minor(u64::MAX, 2), "184 467 440 737 095 516.15");
        assert_eq!(format_minor(7, 0), "7");
        assert_eq!(format_minor(1_000, 0), "1 000");
        assert_eq!(Currency::default().format(2050), "20.50 EUR");
    }

    #[test]
    fn credit_view_keeps_the_remainder() {
        assert_eq!(credits_at(1_003, 5), CreditView { credits: 200, remainder_cents: 3 });
        assert_eq!(credits_at(1_003, 100), CreditView { credits: 10, remainder_cents: 3 });
        assert_eq!(credits_at(99, 200), CreditView { credits: 0, remainder_cents: 99 });
    }
}
