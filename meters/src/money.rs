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

/// `1234, 2` → `"12.34"`; exact, no float involved.
pub fn format_minor(amount: Cents, minor_digits: u8) -> String {
    if minor_digits == 0 {
        return amount.to_string();
    }
    let unit = 10u64.pow(u32::from(minor_digits));
    format!("{}.{:0width$}", amount / unit, amount % unit, width = usize::from(minor_digits))
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
        assert_eq!(format_minor(123_456, 2), "1234.56");
        assert_eq!(format_minor(7, 0), "7");
        assert_eq!(Currency::default().format(2050), "20.50 EUR");
    }

    #[test]
    fn credit_view_keeps_the_remainder() {
        assert_eq!(credits_at(1_003, 5), CreditView { credits: 200, remainder_cents: 3 });
        assert_eq!(credits_at(1_003, 100), CreditView { credits: 10, remainder_cents: 3 });
        assert_eq!(credits_at(99, 200), CreditView { credits: 0, remainder_cents: 99 });
    }
}
