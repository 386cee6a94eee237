//! The controller: the pool's books in PostgreSQL, and the calls a
//! cabinet or the operator makes on them.

use std::time::Duration;

use postgres::{Client, NoTls};

use meters::{Cents, PoolConfig};

const MICRO: i64 = 1_000_000;

/// The LISTEN/NOTIFY channel of M-22 signalling; the payload is the pool.
pub const CHANNEL: &str = "egm_progressive";

/// How long without an answer before the progressive is unavailable.
pub const LINK_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error("progressive controller: {0}")]
    Db(#[from] postgres::Error),
    #[error("progressive controller: {0}")]
    Invalid(String),
    #[error("the progressive controller is unreachable")]
    Down,
}

/// One award as the controller recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkedAward {
    pub seq: i64,
    pub machine: String,
    pub round: u64,
    pub level: usize,
    pub amount: Cents,
    /// When the controller made it, in Unix seconds.
    pub time: i64,
}

/// What the controller holds from one machine: contributions, Σ wagers,
/// and its awards as (round, level, amount).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineAccount {
    pub machine: String,
    pub contributions: u64,
    pub wagered: u128,
    pub awards: Vec<(u64, usize, Cents)>,
}

/// One level as the controller holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkedLevel {
    pub level: usize,
    pub name: String,
    pub value: Cents,
    pub reset_value: Cents,
    pub hits: u64,
}

/// The controller's books of a pool, for the audit and the liability report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkedBooks {
    pub contributions: u64,
    pub wagered: u128,
    /// Σ contributions in millionths of a cent, per level.
    pub contributed_micro: Vec<i128>,
    pub current_micro: Vec<i128>,
    /// The hidden reserve, in millionths of a cent, per level.
    pub reserve_micro: Vec<i128>,
    /// What passed the ceiling into the reserve, in millionths of a cent.
    pub overflow_micro: Vec<i128>,
    pub start_micro: Vec<i128>,
    pub awarded: Vec<i128>,
    pub operator_funded: Vec<i128>,
}

impl LinkedBooks {
    /// Σ contributions = Δ current + Δ reserve + Σ awards − Σ operator
    /// resets, per level (the operator funded the start value and every
    /// reset the reserve did not cover; overflow moved current to reserve).
    pub fn balanced(&self) -> bool {
        (0..self.current_micro.len()).all(|l| {
            self.contributed_micro[l] == self.current_micro[l] + self.reserve_micro[l] + (self.awarded[l] - self.operator_funded[l]) * i128::from(MICRO)
        })
    }
}

pub const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS pools (
    pool TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    min_wager BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS levels (
    pool TEXT NOT NULL REFERENCES pools(pool),
    level INT NOT NULL,
    name TEXT NOT NULL,
    start_value BIGINT NOT NULL,
    reset_value BIGINT NOT NULL,
    increment_ppm BIGINT NOT NULL,
    reserve_ppm BIGINT NOT NULL DEFAULT 0,
    -- NULL: no ceiling.
    ceiling_micro BIGINT,
    current_micro BIGINT NOT NULL,
    reserve_micro BIGINT NOT NULL DEFAULT 0,
    overflow_micro BIGINT NOT NULL DEFAULT 0,
    contributed_micro BIGINT NOT NULL DEFAULT 0,
    hits BIGINT NOT NULL DEFAULT 0,
    awarded BIGINT NOT NULL DEFAULT 0,
    operator_funded BIGINT NOT NULL,
    PRIMARY KEY (pool, level)
);
CREATE TABLE IF NOT EXISTS contributions (
    machine TEXT NOT NULL,
    round BIGINT NOT NULL,
    pool TEXT NOT NULL REFERENCES pools(pool),
    wager BIGINT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (machine, round, pool)
);
CREATE TABLE IF NOT EXISTS awards (
    seq BIGSERIAL UNIQUE,
    machine TEXT NOT NULL,
    round BIGINT NOT NULL,
    pool TEXT NOT NULL,
    level INT NOT NULL,
    nth INT NOT NULL,
    amount BIGINT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (machine, round, pool, level, nth)
);
"#;

/// A connection to the progressive controller.
pub struct Controller {
    pub(crate) client: Client,
}

impl Controller {
    pub fn connect(url: &str) -> Result<Controller, LinkError> {
        let mut config: postgres::Config = url.parse()?;
        config.connect_timeout(Duration::from_secs(2));
        config.tcp_user_timeout(Duration::from_secs(3));
        Ok(Controller { client: config.connect(NoTls)? })
    }

    /// Create the tables if they are missing.
    pub fn create_schema(&mut self) -> Result<(), LinkError> {
        self.client.batch_execute(SCHEMA)?;
        Ok(())
    }

    /// Set up a pool at its start values; a pool that exists keeps its
    /// money (M-20) and must have the same configuration.
    pub fn configure_pool(&mut self, cfg: &PoolConfig) -> Result<(), LinkError> {
        cfg.validate().map_err(|e| LinkError::Invalid(e.to_string()))?;
        if cfg.levels.iter().any(|l| l.mystery) {
            return Err(LinkError::Invalid(format!("pool {}: a linked pool has no mystery level (its hidden value would live on one cabinet)", cfg.id)));
        }
        let json = serde_json::to_string(cfg).map_err(|e| LinkError::Invalid(e.to_string()))?;
        let mut tx = self.client.transaction()?;
        let existing = tx.query_opt("SELECT config FROM pools WHERE pool = $1 FOR UPDATE", &[&cfg.id])?;
        match existing {
            Some(row) => {
                let have: String = row.get(0);
                if have != json {
                    return Err(LinkError::Invalid(format!("pool {} exists with another configuration; its money stays (M-20)", cfg.id)));
                }
            }
            None => {
                tx.execute("INSERT INTO pools (pool, config, min_wager) VALUES ($1, $2, $3)", &[&cfg.id, &json, &(cfg.min_wager as i64)])?;
                for (i, l) in cfg.levels.iter().enumerate() {
                    tx.execute(
                        "INSERT INTO levels (pool, level, name, start_value, reset_value, increment_ppm, reserve_ppm, ceiling_micro, current_micro, operator_funded) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $4)",
                        &[
                            &cfg.id,
                            &(i as i32),
                            &l.name,
                            &(l.start_value as i64),
                            &(l.reset_value as i64),
                            &i64::from(l.increment_ppm),
                            &i64::from(l.reserve_ppm),
                            &l.ceiling.map(|c| c as i64 * MICRO),
                            &(l.start_value as i64 * MICRO),
                        ],
                    )?;
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Deliver contributions (round, wager); returns how many were new.
    /// Each is applied once, however often it is sent.
    pub fn contribute(&mut self, machine: &str, pool: &str, batch: &[(u64, Cents)]) -> Result<u64, LinkError> {
        let mut tx = self.client.transaction()?;
        let mut fresh = 0u64;
        let mut total: i64 = 0;
        for &(round, wager) in batch {
            let n = tx.execute(
                "INSERT INTO contributions (machine, round, pool, wager) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                &[&machine, &(round as i64), &pool, &(wager as i64)],
            )?;
            if n == 1 {
                fresh += 1;
                total += wager as i64;
            }
        }
        if total > 0 {
            // The increment goes to the level up to its ceiling, the rest
            // (overflow) and the reserve share to the reserve. Every right
            // side reads the row as it was.
            tx.execute(
                "UPDATE levels SET \
                   current_micro = CASE WHEN ceiling_micro IS NULL THEN current_micro + $2 * increment_ppm \
                                   ELSE LEAST(current_micro + $2 * increment_ppm, GREATEST(current_micro, ceiling_micro)) END, \
                   reserve_micro = reserve_micro + $2 * reserve_ppm + CASE WHEN ceiling_micro IS NULL THEN 0 \
                                   ELSE GREATEST(0, current_micro + $2 * increment_ppm - GREATEST(current_micro, ceiling_micro)) END, \
                   overflow_micro = overflow_micro + CASE WHEN ceiling_micro IS NULL THEN 0 \
                                   ELSE GREATEST(0, current_micro + $2 * increment_ppm - GREATEST(current_micro, ceiling_micro)) END, \
                   contributed_micro = contributed_micro + $2 * (increment_ppm + reserve_ppm) \
                 WHERE pool = $1",
                &[&pool, &total],
            )?;
        }
        tx.commit()?;
        Ok(fresh)
    }

    /// The award for a hit of `level` in `round` (the `nth` hit of that
    /// level in the round): the level's whole cents, once.
    pub fn award(&mut self, machine: &str, round: u64, pool: &str, level: usize, nth: u32) -> Result<Cents, LinkError> {
        let mut tx = self.client.transaction()?;
        let key = (&machine, round as i64, &pool, level as i32, nth as i32);
        if let Some(row) = tx.query_opt(
            "SELECT amount FROM awards WHERE machine = $1 AND round = $2 AND pool = $3 AND level = $4 AND nth = $5",
            &[key.0, &key.1, key.2, &key.3, &key.4],
        )? {
            let a: i64 = row.get(0);
            return Ok(a as Cents);
        }
        let row = tx
            .query_opt("SELECT current_micro, reset_value, reserve_micro FROM levels WHERE pool = $1 AND level = $2 FOR UPDATE", &[&pool, &(level as i32)])?
            .ok_or_else(|| LinkError::Invalid(format!("pool {pool} has no level {level}")))?;
        let (current, reset, reserve): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
        let amount = current / MICRO;
        let left = current % MICRO;
        // The restart at the reset value: whole cents of the reserve first.
        let from_reserve = (reserve / MICRO).min(reset);
        tx.execute(
            "UPDATE levels SET current_micro = $3, reserve_micro = reserve_micro - $6, hits = hits + 1, awarded = awarded + $4, \
             operator_funded = operator_funded + $5 WHERE pool = $1 AND level = $2",
            &[&pool, &(level as i32), &(reset * MICRO + left), &amount, &(reset - from_reserve), &(from_reserve * MICRO)],
        )?;
        tx.execute(
            "INSERT INTO awards (machine, round, pool, level, nth, amount) VALUES ($1, $2, $3, $4, $5, $6)",
            &[key.0, &key.1, key.2, &key.3, &key.4, &amount],
        )?;
        tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &pool])?;
        tx.commit()?;
        Ok(amount as Cents)
    }

    /// The levels now (the heartbeat's answer; M-22: every cabinet shows them).
    pub fn levels(&mut self, pool: &str) -> Result<Vec<LinkedLevel>, LinkError> {
        let rows = self.client.query("SELECT level, name, current_micro, reset_value, hits FROM levels WHERE pool = $1 ORDER BY level", &[&pool])?;
        Ok(rows
            .iter()
            .map(|r| LinkedLevel {
                level: r.get::<_, i32>(0) as usize,
                name: r.get(1),
                value: (r.get::<_, i64>(2) / MICRO) as Cents,
                reset_value: r.get::<_, i64>(3) as Cents,
                hits: r.get::<_, i64>(4) as u64,
            })
            .collect())
    }

    /// The latest awards, newest first (issue 6: the last 25 hits with
    /// time, machine, level and amount).
    pub fn last_awards(&mut self, pool: &str, n: i64) -> Result<Vec<LinkedAward>, LinkError> {
        let rows = self.client.query(
            "SELECT seq, machine, round, level, amount, extract(epoch FROM at)::BIGINT FROM awards WHERE pool = $1 ORDER BY seq DESC LIMIT $2",
            &[&pool, &n],
        )?;
        Ok(rows
            .iter()
            .map(|r| LinkedAward {
                seq: r.get(0),
                machine: r.get(1),
                round: r.get::<_, i64>(2) as u64,
                level: r.get::<_, i32>(3) as usize,
                amount: r.get::<_, i64>(4) as Cents,
                time: r.get(5),
            })
            .collect())
    }

    /// Per machine: contributions received and Σ wagers; awards and Σ amounts.
    pub fn by_machine(&mut self, pool: &str) -> Result<Vec<MachineAccount>, LinkError> {
        let rows =
            self.client.query("SELECT machine, count(*), sum(wager)::BIGINT FROM contributions WHERE pool = $1 GROUP BY machine ORDER BY machine", &[&pool])?;
        let mut out = Vec::new();
        for r in rows {
            let machine: String = r.get(0);
            let awards = self
                .client
                .query("SELECT round, level, amount FROM awards WHERE pool = $1 AND machine = $2 ORDER BY round, level, nth", &[&pool, &machine])?
                .iter()
                .map(|a| (a.get::<_, i64>(0) as u64, a.get::<_, i32>(1) as usize, a.get::<_, i64>(2) as Cents))
                .collect();
            out.push(MachineAccount { machine, contributions: r.get::<_, i64>(1) as u64, wagered: r.get::<_, i64>(2) as u128, awards });
        }
        Ok(out)
    }

    pub fn books(&mut self, pool: &str) -> Result<LinkedBooks, LinkError> {
        let c = self.client.query_one("SELECT count(*), COALESCE(sum(wager), 0)::BIGINT FROM contributions WHERE pool = $1", &[&pool])?;
        let rows = self.client.query(
            "SELECT contributed_micro, current_micro, start_value, awarded, operator_funded, reserve_micro, overflow_micro FROM levels WHERE pool = $1 ORDER BY level",
            &[&pool],
        )?;
        let col = |i: usize| rows.iter().map(|r| i128::from(r.get::<_, i64>(i))).collect::<Vec<i128>>();
        Ok(LinkedBooks {
            contributions: c.get::<_, i64>(0) as u64,
            wagered: c.get::<_, i64>(1) as u128,
            contributed_micro: col(0),
            current_micro: col(1),
            start_micro: col(2).into_iter().map(|s| s * i128::from(MICRO)).collect(),
            awarded: col(3),
            operator_funded: col(4),
            reserve_micro: col(5),
            overflow_micro: col(6),
        })
    }
}
