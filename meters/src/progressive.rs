//! Progressive pools (M-18 to M-24, decisions.md "Progressive jackpots").
//!
//! A pool has levels; each level has a start value (base de arranque), a
//! reset value, an increment (millionths of each qualifying wager), an
//! optional hidden reserve share and an optional ceiling whose overflow goes
//! to the reserve. Contributions are exact: the part of a contribution
//! below one cent is carried in millionths of a cent, never rounded away.
//!
//! Pool money never returns to the operator (M-20): it leaves a level only
//! by an award, or by a logged transfer to a pool of the same game model
//! and bet type, or to a target carrying an authority reference (M-23).
//! After an award the level restarts at its reset value, funded first from
//! the level's reserve and then by the operator; a level is never below its
//! reset value. Every movement is counted in the level's meters, so that
//!
//! Σ contributions = Δ current + Δ reserve + Σ awards + Σ transfers out
//!                   − Σ transfers in − Σ operator resets
//!
//! holds at every instant, to the millionth of a cent ([`Level::balanced`]).
//!
//! The pool is pure state: the machine journals what happened (a wager in
//! its round's `RoundBegun`, an award in its `RoundSettled`) and the state
//! fold applies it here, so a contribution is committed in the wager's
//! transaction and an award in its round's.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::money::Cents;

/// Millionths of a cent per cent.
const MICRO: u128 = 1_000_000;

/// A share in millionths as an exact percentage with four decimals:
/// 12_345 → "1.2345" (the unit of `increment_ppm` and `reserve_ppm`).
pub fn ppm_as_percent(ppm: u64) -> String {
    format!("{}.{:04}", ppm / 10_000, ppm % 10_000)
}

/// How many hits each pool remembers (issue 6: the last 25).
pub const HITS_KEPT: usize = 25;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelConfig {
    pub name: String,
    /// Base de arranque: the value the level starts at.
    pub start_value: Cents,
    /// The value the level restarts at after an award (default: the start).
    pub reset_value: Cents,
    /// Share of each qualifying wager added to the level, in millionths
    /// (10_000 = 1%).
    pub increment_ppm: u32,
    /// Share of each qualifying wager kept in the hidden reserve, in millionths.
    pub reserve_ppm: u32,
    /// The most the level may show; contributions beyond it overflow to the reserve.
    pub ceiling: Option<Cents>,
    /// A mystery level: it is won by the wager that takes it past a hidden
    /// value drawn uniformly between the reset value and the ceiling.
    #[serde(default)]
    pub mystery: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolConfig {
    pub id: String,
    /// The games whose wagers contribute and may win (one game model and
    /// bet type: M-23 transfers stay within it).
    pub games: Vec<String>,
    /// The smallest wager that qualifies, in cents.
    pub min_wager: Cents,
    pub levels: Vec<LevelConfig>,
    /// A side-bet pool (a stud jackpot): its wagers are the rounds' side
    /// bets alone; every other pool takes the main wager.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub side_bet: bool,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PoolError {
    #[error("pool {0}: no such pool")]
    NoPool(String),
    #[error("pool {pool}: no level {level}")]
    NoLevel { pool: String, level: usize },
    #[error("pool {pool} level {level}: {problem}")]
    Config { pool: String, level: usize, problem: String },
    #[error("pool {0}: {1}")]
    Invalid(String, String),
    #[error("pool {pool} level {level}: a transfer of {amount} would take it below its reset value {reset}")]
    BelowReset { pool: String, level: usize, amount: Cents, reset: Cents },
    #[error("a transfer needs an authority reference or a pool of the same game model (M-23)")]
    NoAuthority,
}

impl PoolConfig {
    pub fn validate(&self) -> Result<(), PoolError> {
        if self.id.trim().is_empty() {
            return Err(PoolError::Invalid(self.id.clone(), "the pool id is empty".into()));
        }
        if self.levels.is_empty() {
            return Err(PoolError::Invalid(self.id.clone(), "a pool needs at least one level".into()));
        }
        if self.games.is_empty() {
            return Err(PoolError::Invalid(self.id.clone(), "a pool needs at least one game".into()));
        }
        for (i, l) in self.levels.iter().enumerate() {
            let bad = |problem: &str| PoolError::Config { pool: self.id.clone(), level: i, problem: problem.into() };
            if l.reset_value > l.start_value {
                // A reset above the start would create money not yet contributed;
                // it is allowed only as operator funding, which M-20 permits, but
                // we keep the common rule: reset ≤ start.
                return Err(bad("the reset value is above the start value"));
            }
            if u64::from(l.increment_ppm) + u64::from(l.reserve_ppm) > 1_000_000 {
                return Err(bad("increment and reserve together exceed 100% of the wager"));
            }
            if l.increment_ppm == 0 {
                return Err(bad("the increment is 0: the level would never grow"));
            }
            if let Some(c) = l.ceiling
                && c < l.start_value
            {
                return Err(bad("the ceiling is below the start value"));
            }
            if l.mystery && l.ceiling.is_none() {
                return Err(bad("a mystery level needs a ceiling: it is won between its reset value and the ceiling"));
            }
        }
        Ok(())
    }
}

/// One hit of a level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    /// Seconds since the Unix epoch, from the journal record.
    pub time: i64,
    pub machine: String,
    pub round: u64,
    pub level: usize,
    pub amount: Cents,
}

/// A level's value and meters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Level {
    /// The value shown (M-30), in cents.
    pub current: Cents,
    /// The hidden reserve, in cents.
    pub reserve: Cents,
    /// Millionths of a cent contributed to the level and not yet a whole cent.
    pub fraction: u64,
    /// The same for the reserve.
    #[serde(default)]
    pub reserve_fraction: u64,
    /// Meters, in millionths of a cent for contributions (exact), cents otherwise.
    #[serde(with = "crate::wire::decimal_u128")]
    pub contributed_micro: u128,
    pub hits: u64,
    pub won: Cents,
    /// Cents that passed the ceiling into the reserve.
    pub overflow: Cents,
    /// Cents the operator added: the start value and every reset not
    /// covered by the reserve.
    pub operator_funded: Cents,
    pub transferred_out: Cents,
    pub transferred_in: Cents,
    /// A mystery level's hidden value (drawn by the machine, journaled).
    #[serde(default)]
    pub mystery_at: Option<Cents>,
    /// The round whose wager took a mystery level past its hidden value:
    /// that round's settlement must pay the level.
    #[serde(default)]
    pub mystery_due: Option<u64>,
}

impl Level {
    /// The invariant: every millionth contributed is in the level, its
    /// reserve, its fraction, an award or a transfer — less what the
    /// operator put in.
    pub fn balanced(&self) -> bool {
        let held = (u128::from(self.current) + u128::from(self.reserve) + u128::from(self.won) + u128::from(self.transferred_out)) * MICRO
            + u128::from(self.fraction)
            + u128::from(self.reserve_fraction);
        let external = (u128::from(self.operator_funded) + u128::from(self.transferred_in)) * MICRO;
        held == self.contributed_micro + external
    }

    /// The pool's liability for this level (M-24): what players are owed.
    pub fn liability(&self) -> Cents {
        self.current.saturating_add(self.reserve)
    }
}

/// What one wager's contribution changed in a level: the amounts it added
/// and the carries below a cent before it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contribution {
    pub current: Cents,
    pub reserve: Cents,
    pub overflow: Cents,
    #[serde(with = "crate::wire::decimal_u128")]
    pub contributed_micro: u128,
    pub fraction_before: u64,
    pub reserve_fraction_before: u64,
    pub mystery_due_before: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pool {
    pub config: PoolConfig,
    pub levels: Vec<Level>,
    pub last_hits: VecDeque<Hit>,
}

impl Pool {
    /// A new pool: each level at its start value, funded by the operator.
    pub fn new(config: PoolConfig) -> Result<Pool, PoolError> {
        config.validate()?;
        let levels = config.levels.iter().map(|l| Level { current: l.start_value, operator_funded: l.start_value, ..Level::default() }).collect();
        Ok(Pool { config, levels, last_hits: VecDeque::new() })
    }

    /// Whether a wager on `game` of `wager` cents contributes (and may win).
    /// The part of a round's stake this pool takes as its wager: the side
    /// bet for a side-bet pool, the main wager for any other.
    pub fn wager(&self, stake: Cents, side_stake: Cents) -> Cents {
        if self.config.side_bet { side_stake } else { stake.saturating_sub(side_stake) }
    }

    pub fn qualifies(&self, game: &str, wager: Cents) -> bool {
        wager >= self.config.min_wager && self.config.games.iter().any(|g| g == game)
    }

    /// Add a qualifying wager's contributions to every level; a mystery
    /// level passing its hidden value becomes due to `round`. Returns what
    /// the contribution changed, so that a void can take it back exactly.
    pub fn contribute_for(&mut self, wager: Cents, round: u64) -> Vec<Contribution> {
        let before = self.levels.clone();
        self.contribute(wager);
        for l in &mut self.levels {
            if l.mystery_due.is_none() && l.mystery_at.is_some_and(|t| l.current >= t) {
                l.mystery_due = Some(round);
            }
        }
        before
            .iter()
            .zip(&self.levels)
            .map(|(b, a)| Contribution {
                current: a.current - b.current,
                reserve: a.reserve - b.reserve,
                overflow: a.overflow - b.overflow,
                contributed_micro: a.contributed_micro - b.contributed_micro,
                fraction_before: b.fraction,
                reserve_fraction_before: b.reserve_fraction,
                mystery_due_before: b.mystery_due,
            })
            .collect()
    }

    /// Take back a voided round's contributions (issue 21: a void refunds
    /// the whole stake, so the pools must not keep its share): every level
    /// as it was before, a mystery level it made due no longer due (it
    /// becomes due again to the wager that truly passes its hidden value).
    /// Nothing else can touch the levels while the round is open; a level
    /// that cannot give the contribution back is an inconsistency.
    pub fn take_back(&mut self, made: &[Contribution]) -> Result<(), PoolError> {
        let pool = self.config.id.clone();
        let broken =
            |level: usize| PoolError::Config { pool: pool.clone(), level, problem: "the voided round's contribution is no longer in the level".into() };
        for (i, (l, c)) in self.levels.iter_mut().zip(made).enumerate() {
            l.current = l.current.checked_sub(c.current).ok_or_else(|| broken(i))?;
            l.reserve = l.reserve.checked_sub(c.reserve).ok_or_else(|| broken(i))?;
            l.overflow = l.overflow.checked_sub(c.overflow).ok_or_else(|| broken(i))?;
            l.contributed_micro = l.contributed_micro.checked_sub(c.contributed_micro).ok_or_else(|| broken(i))?;
            l.fraction = c.fraction_before;
            l.reserve_fraction = c.reserve_fraction_before;
            l.mystery_due = c.mystery_due_before;
        }
        Ok(())
    }

    /// Set the hidden values of the mystery levels (from the journal).
    pub fn set_mystery(&mut self, level: usize, at: Option<Cents>) -> Result<(), PoolError> {
        let cfg = self.config.levels.get(level).ok_or_else(|| PoolError::NoLevel { pool: self.config.id.clone(), level })?;
        if let Some(t) = at
            && (!cfg.mystery || t < cfg.reset_value.min(cfg.start_value) || Some(t) > cfg.ceiling)
        {
            return Err(PoolError::Config { pool: self.config.id.clone(), level, problem: format!("hidden value {t} outside reset value and ceiling") });
        }
        self.levels[level].mystery_at = at;
        Ok(())
    }

    /// The range a mystery level's next hidden value is drawn from.
    pub fn mystery_range(&self, level: usize) -> Option<(Cents, Cents)> {
        let cfg = self.config.levels.get(level)?;
        if !cfg.mystery {
            return None;
        }
        Some((cfg.reset_value, cfg.ceiling?))
    }

    /// Add a qualifying wager's contributions to every level.
    pub fn contribute(&mut self, wager: Cents) {
        for (cfg, level) in self.config.levels.iter().zip(self.levels.iter_mut()) {
            let inc = u128::from(wager) * u128::from(cfg.increment_ppm);
            let res = u128::from(wager) * u128::from(cfg.reserve_ppm);
            level.contributed_micro += inc + res;
            // Whole cents of the reserve share go to the reserve; the
            // increment's, to the level (up to the ceiling); each keeps its
            // own carry below a cent.
            let res_total = u128::from(level.reserve_fraction) + res;
            level.reserve = level.reserve.saturating_add((res_total / MICRO) as Cents);
            level.reserve_fraction = (res_total % MICRO) as u64;
            let inc_total = u128::from(level.fraction) + inc;
            let inc_cents = (inc_total / MICRO) as Cents;
            level.fraction = (inc_total % MICRO) as u64;
            let room = cfg.ceiling.map_or(Cents::MAX, |c| c.saturating_sub(level.current));
            let to_level = inc_cents.min(room);
            level.current += to_level;
            let over = inc_cents - to_level;
            level.reserve = level.reserve.saturating_add(over);
            level.overflow += over;
        }
    }

    /// Award a level: the whole current value. The level restarts at its
    /// reset value, from its reserve first, then from the operator.
    pub fn award(&mut self, level: usize, time: i64, machine: &str, round: u64) -> Result<Cents, PoolError> {
        let cfg = self.config.levels.get(level).ok_or_else(|| PoolError::NoLevel { pool: self.config.id.clone(), level })?;
        let reset = cfg.reset_value;
        let l = &mut self.levels[level];
        let amount = l.current;
        l.won += amount;
        l.hits += 1;
        let from_reserve = l.reserve.min(reset);
        l.reserve -= from_reserve;
        l.operator_funded += reset - from_reserve;
        l.current = reset;
        l.mystery_due = None;
        self.last_hits.push_front(Hit { time, machine: machine.to_owned(), round, level, amount });
        self.last_hits.truncate(HITS_KEPT);
        Ok(amount)
    }

    /// Award `share_ppm` millionths of a level (a stud side bet's straight
    /// flush takes 10%): the amount is rounded down to the cent, the level
    /// keeps the rest, and when the rest is under the reset value the level
    /// is brought back to it from the reserve and then by the operator, as
    /// after a whole award (M-20). The whole level is [`Self::award`].
    pub fn award_share(&mut self, level: usize, share_ppm: u32, time: i64, machine: &str, round: u64) -> Result<Cents, PoolError> {
        if share_ppm == crate::journal::WHOLE_LEVEL {
            return self.award(level, time, machine, round);
        }
        let id = self.config.id.clone();
        let cfg = self.config.levels.get(level).ok_or_else(|| PoolError::NoLevel { pool: id.clone(), level })?;
        if share_ppm == 0 || share_ppm > crate::journal::WHOLE_LEVEL {
            return Err(PoolError::Invalid(id, format!("a share of {share_ppm} millionths of a level")));
        }
        let reset = cfg.reset_value;
        let l = &mut self.levels[level];
        // current × share < 2^64 × 10^6: exact in 128 bits, and at most current.
        let amount = Cents::try_from(u128::from(l.current) * u128::from(share_ppm) / MICRO).unwrap_or(l.current).min(l.current);
        l.won += amount;
        l.hits += 1;
        let left = l.current - amount;
        if left < reset {
            let short = reset - left;
            let from_reserve = l.reserve.min(short);
            l.reserve -= from_reserve;
            l.operator_funded += short - from_reserve;
            l.current = reset;
        } else {
            l.current = left;
        }
        self.last_hits.push_front(Hit { time, machine: machine.to_owned(), round, level, amount });
        self.last_hits.truncate(HITS_KEPT);
        Ok(amount)
    }

    /// Move `amount` out of a level (M-23); it never takes the level below
    /// its reset value; the reserve goes first.
    pub fn transfer_out(&mut self, level: usize, amount: Cents) -> Result<(), PoolError> {
        let cfg = self.config.levels.get(level).ok_or_else(|| PoolError::NoLevel { pool: self.config.id.clone(), level })?;
        let l = &mut self.levels[level];
        let from_reserve = l.reserve.min(amount);
        let from_current = amount - from_reserve;
        if l.current.saturating_sub(from_current) < cfg.reset_value || from_current > l.current {
            return Err(PoolError::BelowReset { pool: self.config.id.clone(), level, amount, reset: cfg.reset_value });
        }
        l.reserve -= from_reserve;
        l.current -= from_current;
        l.transferred_out += amount;
        Ok(())
    }

    /// Receive `amount` into a level's current value (M-23).
    pub fn transfer_in(&mut self, level: usize, amount: Cents) -> Result<(), PoolError> {
        let l = self.levels.get_mut(level).ok_or_else(|| PoolError::NoLevel { pool: self.config.id.clone(), level })?;
        l.current = l.current.saturating_add(amount);
        l.transferred_in += amount;
        Ok(())
    }

    /// Whether a transfer from this pool to `other` stays within one game
    /// model and bet type (M-23).
    pub fn same_model(&self, other: &PoolConfig) -> bool {
        let mut a = self.config.games.clone();
        let mut b = other.games.clone();
        a.sort();
        b.sort();
        a == b && self.config.min_wager == other.min_wager
    }
}

/// One line of the liability report (M-24).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiabilityLine {
    pub pool: String,
    pub level: usize,
    pub name: String,
    pub current: Cents,
    pub reserve: Cents,
    pub liability: Cents,
    pub contributed_cents: Cents,
    pub won: Cents,
    pub hits: u64,
}

pub fn liability_report<'a>(pools: impl Iterator<Item = &'a Pool>) -> Vec<LiabilityLine> {
    let mut out = Vec::new();
    for p in pools {
        for (i, (cfg, l)) in p.config.levels.iter().zip(&p.levels).enumerate() {
            out.push(LiabilityLine {
                pool: p.config.id.clone(),
                level: i,
                name: cfg.name.clone(),
                current: l.current,
                reserve: l.reserve,
                liability: l.liability(),
                contributed_cents: (l.contributed_micro / MICRO) as Cents,
                won: l.won,
                hits: l.hits,
            });
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ppm_as_percent_is_exact() {
        assert_eq!(ppm_as_percent(12_345), "1.2345");
        assert_eq!(ppm_as_percent(6_000), "0.6000");
        assert_eq!(ppm_as_percent(1), "0.0001");
        assert_eq!(ppm_as_percent(1_000_000), "100.0000");
    }

    pub fn sample() -> PoolConfig {
        PoolConfig {
            id: "sevens".into(),
            games: vec!["classic-sevens".into()],
            min_wager: 1,
            side_bet: false,
            levels: vec![
                LevelConfig {
                    name: "Grand".into(),
                    start_value: 100_000,
                    reset_value: 100_000,
                    increment_ppm: 7_500,
                    reserve_ppm: 2_500,
                    ceiling: Some(500_000),
                    mystery: false,
                },
                LevelConfig { name: "Mini".into(), start_value: 1_000, reset_value: 800, increment_ppm: 12_345, reserve_ppm: 0, ceiling: None, mystery: false },
            ],
        }
    }

    #[test]
    fn contributions_are_exact_to_the_millionth() {
        let mut p = Pool::new(sample()).unwrap();
        for _ in 0..1_000 {
            p.contribute(7);
        }
        // 7,000 cents × 1.2345% = 86.415 cents: 86 cents and 415,000 millionths.
        assert_eq!(p.levels[1].current, 1_000 + 86);
        assert_eq!(p.levels[1].fraction, 415_000);
        // 7,000 cents: 0.75% = 52.5 cents to the Grande, 0.25% = 17.5 to its reserve.
        assert_eq!((p.levels[0].current, p.levels[0].fraction), (100_052, 500_000));
        assert_eq!((p.levels[0].reserve, p.levels[0].reserve_fraction), (17, 500_000));
        assert!(p.levels.iter().all(Level::balanced));
        assert_eq!(p.award(1, 0, "m", 1), Ok(1_086));
        assert_eq!(p.levels[1].current, 800);
        assert!(p.levels.iter().all(Level::balanced));
    }

    #[test]
    fn the_ceiling_overflows_into_the_reserve_and_the_reserve_funds_the_reset() {
        let mut cfg = sample();
        cfg.levels[0].ceiling = Some(100_010);
        let mut p = Pool::new(cfg).unwrap();
        p.contribute(10_000); // 75 cents to the level (10 fit), 25 to the reserve
        assert_eq!(p.levels[0].current, 100_010);
        assert_eq!(p.levels[0].overflow, 65);
        assert_eq!(p.levels[0].reserve, 25 + 65);
        assert_eq!(p.award(0, 0, "m", 1), Ok(100_010));
        assert_eq!(p.levels[0].reserve, 0);
        assert_eq!(p.levels[0].operator_funded, 100_000 + 100_000 - 90);
        assert!(p.levels[0].balanced());
    }

    #[test]
    fn transfers_never_go_below_reset_and_the_last_25_hits_are_kept() {
        let mut p = Pool::new(sample()).unwrap();
        assert!(matches!(p.transfer_out(1, 201), Err(PoolError::BelowReset { .. })));
        p.transfer_out(1, 200).unwrap();
        assert_eq!(p.levels[1].current, 800);
        assert!(p.levels[1].balanced());
        for r in 0..30 {
            p.award(1, r, "m", r as u64).unwrap();
        }
        assert_eq!(p.last_hits.len(), HITS_KEPT);
        assert_eq!(p.last_hits[0].round, 29);
        let bad = PoolConfig { levels: vec![LevelConfig { reset_value: 2_000, ..sample().levels[1].clone() }], ..sample() };
        assert!(matches!(Pool::new(bad), Err(PoolError::Config { .. })));
    }

    #[derive(Clone, Debug)]
    enum Op {
        Wager(Cents),
        Award(usize),
        TransferOut(usize, Cents),
        TransferIn(usize, Cents),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            8 => (1u64..100_000).prop_map(Op::Wager),
            1 => (0usize..2).prop_map(Op::Award),
            1 => ((0usize..2), (1u64..5_000)).prop_map(|(l, a)| Op::TransferOut(l, a)),
            1 => ((0usize..2), (1u64..5_000)).prop_map(|(l, a)| Op::TransferIn(l, a)),
        ]
    }

    proptest! {
        /// Σ contributions = Δ current + Δ reserve + Σ awards + transfers
        /// out − transfers in − operator resets (overflow is inside the
        /// reserve), and no level is ever below its reset value.
        #[test]
        fn the_books_balance_and_no_level_falls_below_reset(ops in proptest::collection::vec(op(), 1..400), ceiling in proptest::option::of(100_000u64..120_000)) {
            let mut cfg = sample();
            cfg.levels[0].ceiling = ceiling;
            let mut p = Pool::new(cfg.clone()).unwrap();
            let start: Vec<Level> = p.levels.clone();
            let mut contributed = [0u128; 2];
            for (i, o) in ops.iter().enumerate() {
                match o {
                    Op::Wager(w) => {
                        p.contribute(*w);
                        for (k, l) in cfg.levels.iter().enumerate() {
                            contributed[k] += u128::from(*w) * u128::from(l.increment_ppm + l.reserve_ppm);
                        }
                    }
                    Op::Award(l) => { p.award(*l, i as i64, "m", i as u64).unwrap(); }
                    Op::TransferOut(l, a) => { let _ = p.transfer_out(*l, *a); }
                    Op::TransferIn(l, a) => { p.transfer_in(*l, *a).unwrap(); }
                }
                for (k, (l, c)) in p.levels.iter().zip(&cfg.levels).enumerate() {
                    prop_assert!(l.current >= c.reset_value);
                    prop_assert!(l.balanced());
                    prop_assert_eq!(l.contributed_micro, contributed[k]);
                    // The form of the invariant, with Δ from the start.
                    let lhs = contributed[k];
                    let rhs = (i128::from(l.current as i64) - i128::from(start[k].current as i64)
                        + i128::from(l.reserve as i64)
                        + i128::from(l.won as i64)
                        + i128::from(l.transferred_out as i64)
                        - i128::from(l.transferred_in as i64)
                        - (i128::from(l.operator_funded as i64) - i128::from(start[k].operator_funded as i64))) * MICRO as i128
                        + i128::from(l.fraction)
                        + i128::from(l.reserve_fraction);
                    prop_assert_eq!(lhs as i128, rhs);
                    if let Some(ceil) = c.ceiling {
                        prop_assert!(l.current <= ceil.max(c.reset_value) + l.transferred_in);
                    }
                }
            }
        }
    }
}
