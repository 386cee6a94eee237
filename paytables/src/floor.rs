//! The RTP floor (M-17) and the exact decimal writing of a rational: what
//! the artifact loader needs to hold an approved paytable to the floor
//! again at load, without the compiler.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// The RTP floor: 80% by default, configurable upward only (M-17).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Floor(pub(crate) BigRational);

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FloorError {
    #[error("{0:?} is not a percentage like 80 or 85.5")]
    NotANumber(String),
    #[error("the RTP floor cannot be set below 80% (M-17): {0}%")]
    BelowLaw(String),
    #[error("an RTP floor above 100% makes every game illegal: {0}%")]
    Above100(String),
}

impl Floor {
    pub fn legal_minimum() -> Self {
        Floor(BigRational::new(BigInt::from(80), BigInt::from(100)))
    }

    /// Parse a percentage with up to 6 decimals, exactly.
    pub fn from_percent(s: &str) -> Result<Self, FloorError> {
        let t = s.trim().trim_end_matches('%');
        let (int_part, frac) = t.split_once('.').unwrap_or((t, ""));
        if int_part.is_empty() || frac.len() > 6 || !int_part.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
            return Err(FloorError::NotANumber(s.to_owned()));
        }
        let num: BigInt = format!("{int_part}{frac}").parse().map_err(|_| FloorError::NotANumber(s.to_owned()))?;
        let den = BigInt::from(100) * BigInt::from(10u64.pow(frac.len() as u32));
        let f = BigRational::new(num, den);
        if f < Self::legal_minimum().0 {
            return Err(FloorError::BelowLaw(t.to_owned()));
        }
        if f > BigRational::from_integer(1.into()) {
            return Err(FloorError::Above100(t.to_owned()));
        }
        Ok(Floor(f))
    }

    pub fn value(&self) -> &BigRational {
        &self.0
    }
}

/// Exact decimal expansion of a rational, for reports: `digits` after the point.
pub fn decimal(x: &BigRational, digits: usize) -> String {
    let scale = BigInt::from(10u32).pow(digits as u32);
    let scaled = (x * BigRational::from_integer(scale.clone())).round().to_integer();
    let neg = scaled < BigInt::zero();
    let abs = if neg { -scaled } else { scaled };
    let s = format!("{:0>width$}", abs.to_string(), width = digits + 1);
    let (i, f) = s.split_at(s.len() - digits);
    format!("{}{}.{}", if neg { "-" } else { "" }, i, f)
}
