//! The controller: the pool's books in PostgreSQL, and the calls a
//! cabinet or the operator makes on them.

use std::time::Duration;

use postgres::Client;

use meters::{Cents, PoolConfig};

const MICRO: i64 = 1_000_000;

/// The LISTEN/NOTIFY channel of M-22 signalling; the payload is the pool.
pub const CHANNEL: &str = "egm_progressive";

/// How long without an answer before the progressive is unavailable.
pub const LINK_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error("progressive controller: {}", db_detail(.0))]
    Db(#[from] postgres::Error),
    #[error("progressive controller: {0}")]
    Invalid(String),
    #[error("the progressive controller is unreachable")]
    Down,
    #[error("progressive controller link: {0}")]
    Tls(String),
    #[error("the progressive controller refused: {0}")]
    Refused(String),
}

/// A database error with what the server said (its message, detail and
/// hint), not only its kind.
fn db_detail(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(d) => {
            let mut s = d.message().to_owned();
            for extra in [d.detail(), d.hint()].into_iter().flatten() {
                s.push_str("; ");
                s.push_str(extra);
            }
            s
        }
        None => match std::error::Error::source(e) {
            Some(cause) => format!("{e}: {cause}"),
            None => e.to_string(),
        },
    }
}

/// One award as the controller recorded it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// M-23: whole cents transferred out of each level, and into it.
    pub transferred_out: Vec<i128>,
    pub transferred_in: Vec<i128>,
}

impl LinkedBooks {
    /// Σ contributions = Δ current + Δ reserve + Σ awards − Σ operator
    /// resets + Σ transfers out − Σ transfers in, per level (the operator
    /// funded the start value and every reset the reserve did not cover;
    /// overflow moved current to reserve; an award returned at a void went
    /// back to current and out of the awards).
    pub fn balanced(&self) -> bool {
        (0..self.current_micro.len()).all(|l| {
            let out = self.awarded[l] - self.operator_funded[l] + self.transferred_out[l] - self.transferred_in[l];
            self.contributed_micro[l] == self.current_micro[l] + self.reserve_micro[l] + out * i128::from(MICRO)
        })
    }
}

/// The controller's schema, calls and grants (`schema.sql`): installed by
/// the administrator, idempotent.
pub const SCHEMA: &str = include_str!("schema.sql");

/// How the controller took one contribution.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    Accepted,
    /// Already taken with the same wager: acknowledged, counted once.
    Duplicate,
    /// Refused, with the controller's reason (logged there too).
    Refused(String),
}

/// What a name registered with the controller is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A cabinet: contributes, asks for its awards, returns them at a void,
    /// through the controller's service (issue 46: a row of the books,
    /// never a database login).
    Cabinet,
    /// An operator: sets pools up, transfers (M-23), reads the books. A
    /// database login.
    Operator,
    /// The controller's service (`egm-progressive serve`): the database
    /// login that makes the cabinets' calls, naming the cabinet each
    /// certificate authenticated.
    Service,
}

/// One refusal as the controller logged it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub seq: i64,
    pub machine: String,
    pub round: Option<i64>,
    pub call: String,
    pub reason: String,
}

/// The most connections one cabinet certificate may hold at the service
/// (its session's link, a watcher per pool, a tool): issue 35, attack 5.
pub const CABINET_CONNECTIONS: i32 = 8;
/// The most connections one operator's login may hold.
pub const OPERATOR_CONNECTIONS: i32 = 4;
/// The most connections one service login may hold (its pool of
/// connections and its listener).
pub const SERVICE_CONNECTIONS: i32 = 24;

/// A connection to the progressive controller, as the administrator, an
/// operator or a cabinet: which calls succeed is the controller's to say
/// (each role may execute only its own functions).
pub struct Controller {
    pub(crate) client: Client,
}

pub(crate) fn i64_of(v: u64, what: &str) -> Result<i64, LinkError> {
    i64::try_from(v).map_err(|_| LinkError::Invalid(format!("{what} {v} is out of range")))
}

impl Controller {
    /// Connect to the controller (`crate::tls`: TLS with this end's
    /// certificate, or the administrator's local socket).
    pub fn connect(address: &str) -> Result<Controller, LinkError> {
        Ok(Controller { client: crate::tls::connect(address)? })
    }

    /// Administrator: install (or bring up to date) the schema, the calls
    /// and the grants in this database.
    pub fn install(&mut self) -> Result<(), LinkError> {
        self.client.batch_execute(SCHEMA)?;
        Ok(())
    }

    /// Administrator: register `name`: a cabinet's machine ID (a row the
    /// service names, no login), or a login of the controller (an operator
    /// or a service) authenticated by a certificate whose CN is `name`.
    /// Nothing else is granted to it.
    pub fn register(&mut self, name: &str, role: Role) -> Result<(), LinkError> {
        if name.is_empty() || name.len() > 63 || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(LinkError::Invalid(format!("{name:?} is not a controller login (letters, digits, - and _; at most 63)")));
        }
        let (group, limit) = match role {
            Role::Cabinet => {
                // Issue 46: no cabinet inside the database. A login of that
                // name from an earlier install may no longer log in.
                self.client.execute("INSERT INTO egm.machines (machine) VALUES ($1) ON CONFLICT DO NOTHING", &[&name])?;
                if self.client.query_opt("SELECT 1 FROM pg_roles WHERE rolname = $1", &[&name])?.is_some() {
                    let nologin: String = self.client.query_one("SELECT format('ALTER ROLE %I NOLOGIN', $1::TEXT)", &[&name])?.get(0);
                    self.client.batch_execute(&nologin)?;
                }
                return Ok(());
            }
            Role::Operator => ("egm_operator", OPERATOR_CONNECTIONS),
            Role::Service => ("egm_service", SERVICE_CONNECTIONS),
        };
        if self.client.query_opt("SELECT 1 FROM egm.machines WHERE machine = $1", &[&name])?.is_some() {
            return Err(LinkError::Invalid(format!("{name} is a registered cabinet: a cabinet is never a login")));
        }
        let exists = self.client.query_opt("SELECT 1 FROM pg_roles WHERE rolname = $1", &[&name])?.is_some();
        if !exists {
            let create: String = self.client.query_one("SELECT format('CREATE ROLE %I LOGIN', $1::TEXT)", &[&name])?.get(0);
            self.client.batch_execute(&create)?;
        }
        let grant: String = self.client.query_one("SELECT format('GRANT %I TO %I', $1::TEXT, $2::TEXT)", &[&group, &name])?.get(0);
        self.client.batch_execute(&grant)?;
        // Issue 35: this database alone; a bounded number of connections;
        // and timeouts, so that no login holds a transaction open.
        let setup: String = self
            .client
            .query_one(
                "SELECT format('GRANT CONNECT ON DATABASE %I TO %I; ALTER ROLE %I CONNECTION LIMIT %s; \
                 ALTER ROLE %I SET statement_timeout = ''10s''; ALTER ROLE %I SET lock_timeout = ''3s''; \
                 ALTER ROLE %I SET idle_in_transaction_session_timeout = ''10s''', current_database(), $1::TEXT, $1::TEXT, $2::INT, $1::TEXT, $1::TEXT, $1::TEXT)",
                &[&name, &limit],
            )?
            .get(0);
        self.client.batch_execute(&setup)?;
        Ok(())
    }

    /// Operator: assign the registered cabinet `machine` to `pool` (`on`),
    /// or take it off: a cabinet contributes to and claims from its own
    /// pools alone (issue 46). Logged.
    pub fn assign(&mut self, pool: &str, machine: &str, on: bool) -> Result<(), LinkError> {
        self.client.execute("SELECT egm.assign($1, $2, $3)", &[&pool, &machine, &on])?;
        Ok(())
    }

    /// The service: refuse a read of `pool` for a cabinet it is not
    /// assigned to (issue 69).
    pub(crate) fn check_assigned(&mut self, pool: &str) -> Result<(), LinkError> {
        self.client.execute("SELECT egm.check_assigned($1)", &[&pool])?;
        Ok(())
    }

    /// The service: name the cabinet whose certificate the service
    /// authenticated, for the calls that follow on this connection.
    /// The service's paces for this connection (issue 69): claims and
    /// meter reports a second per cabinet, which the controller holds
    /// across every instance of the service.
    pub(crate) fn set_paces(&mut self, claims: u64, meters: u64) -> Result<(), LinkError> {
        self.client.execute(
            "SELECT set_config('egm.claims_per_second', $1, false), set_config('egm.meters_per_second', $2, false)",
            &[&claims.to_string(), &meters.to_string()],
        )?;
        Ok(())
    }

    pub(crate) fn act_for(&mut self, machine: &str) -> Result<(), LinkError> {
        // The cabinet must be registered: every call fails otherwise.
        self.client.execute("SELECT set_config('egm.machine', $1, false), egm.caller()", &[&machine])?;
        Ok(())
    }

    /// Operator: set a pool up at its start values, contributions bounded
    /// by `max_wager` cents (G-46); a pool that exists keeps its money
    /// (M-20) and must have the same configuration.
    pub fn configure_pool(&mut self, cfg: &PoolConfig, max_wager: Cents) -> Result<(), LinkError> {
        cfg.validate().map_err(|e| LinkError::Invalid(e.to_string()))?;
        if cfg.levels.iter().any(|l| l.mystery) {
            return Err(LinkError::Invalid(format!("pool {}: a linked pool has no mystery level (its hidden value would live on one cabinet)", cfg.id)));
        }
        let json = serde_json::to_string(cfg).map_err(|e| LinkError::Invalid(e.to_string()))?;
        self.client.execute("SELECT egm.configure_pool($1, $2)", &[&json, &i64_of(max_wager, "the wager bound")?])?;
        Ok(())
    }

    /// Cabinet: deliver contributions (round, wager) of this cabinet's
    /// journal epoch. Each is taken once however often it is sent; each row
    /// is answered on its own, a refused one with its reason.
    pub fn contribute(&mut self, pool: &str, epoch: &str, batch: &[(u64, Cents)]) -> Result<Vec<(u64, Outcome)>, LinkError> {
        self.contribute_as(None, pool, epoch, batch)
    }

    /// [`Self::contribute`], for `machine` when given (the service, inside
    /// a transaction of several cabinets' contributions: named for this
    /// call alone).
    pub(crate) fn contribute_as(&mut self, machine: Option<&str>, pool: &str, epoch: &str, batch: &[(u64, Cents)]) -> Result<Vec<(u64, Outcome)>, LinkError> {
        // A round past i64 goes as -1, which the controller refuses (and logs).
        let rounds: Vec<i64> = batch.iter().map(|b| i64::try_from(b.0).unwrap_or(-1)).collect();
        let wagers: Vec<String> = batch.iter().map(|b| b.1.to_string()).collect();
        let rows = match machine {
            None => self.client.query("SELECT out_round, out_outcome FROM egm.contribute($1, $2, $3, $4)", &[&pool, &epoch, &rounds, &wagers])?,
            // The cabinet named first, for this transaction, then its call.
            Some(m) => self.client.query(
                "WITH named AS (SELECT set_config('egm.machine', $5, true) AS m) \
                 SELECT c.out_round, c.out_outcome FROM named, LATERAL egm.contribute($1, $2, $3, $4) c WHERE named.m = $5",
                &[&pool, &epoch, &rounds, &wagers, &m],
            )?,
        };
        if rows.len() != batch.len() {
            return Err(LinkError::Invalid(format!("the controller answered {} of {} contributions", rows.len(), batch.len())));
        }
        Ok(rows
            .iter()
            .zip(batch)
            .map(|(r, b)| {
                let outcome: String = r.get(1);
                let outcome = match outcome.as_str() {
                    "accepted" => Outcome::Accepted,
                    "duplicate" => Outcome::Duplicate,
                    other => Outcome::Refused(other.trim_start_matches("refused: ").to_owned()),
                };
                (b.0, outcome)
            })
            .collect())
    }

    /// Cabinet: a round is voided and its wager refunded, so what it did to
    /// the pool is undone: the awards the controller made it go back to
    /// their levels (issue 13: never lost), and its contribution is taken
    /// back (no pool money from a refunded wager). Returns the awards' sum;
    /// asking again changes nothing. Refused (and logged) for a round a
    /// later round of the epoch followed: it was settled, not voided.
    pub fn return_round(&mut self, pool: &str, epoch: &str, round: u64) -> Result<Cents, LinkError> {
        let row = self.client.query_one("SELECT out_amount, out_refusal FROM egm.return_round($1, $2, $3)", &[&pool, &epoch, &i64_of(round, "round")?])?;
        match (row.get::<_, Option<i64>>(0), row.get::<_, Option<String>>(1)) {
            (_, Some(reason)) => Err(LinkError::Refused(reason)),
            (Some(a), None) => u64::try_from(a).map_err(|_| LinkError::Invalid(format!("a negative return {a}"))),
            (None, None) => Err(LinkError::Invalid("the controller answered neither a return nor a refusal".into())),
        }
    }

    /// The levels now (the heartbeat's answer; M-22: every cabinet shows them).
    pub fn levels(&mut self, pool: &str) -> Result<Vec<LinkedLevel>, LinkError> {
        let rows = self.client.query("SELECT out_level, out_name, out_current_micro, out_reset_value, out_hits FROM egm.levels($1)", &[&pool])?;
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
    /// time, machine, level and amount); returned awards are not listed.
    pub fn last_awards(&mut self, pool: &str, n: i64) -> Result<Vec<LinkedAward>, LinkError> {
        let rows = self.client.query("SELECT out_seq, out_machine, out_round, out_level, out_amount, out_time FROM egm.last_awards($1, $2)", &[&pool, &n])?;
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

    /// Operator, M-23: move a level's whole cents to a level of a pool of
    /// the same games, or (`to` None) out to the authority's target, whose
    /// reference is then required. Logged under the operator's name.
    pub fn transfer(&mut self, pool: &str, level: usize, to: Option<(&str, usize)>, authority_ref: &str) -> Result<Cents, LinkError> {
        let level = level as i32;
        let (to_pool, to_level) = (to.map(|t| t.0), to.map(|t| t.1 as i32));
        let a: i64 = self.client.query_one("SELECT egm.transfer($1, $2, $3, $4, $5)", &[&pool, &level, &to_pool, &to_level, &authority_ref])?.get(0);
        Ok(a as Cents)
    }

    /// Operator: per machine, contributions received and Σ wagers; awards.
    pub fn by_machine(&mut self, pool: &str) -> Result<Vec<MachineAccount>, LinkError> {
        let rows = self.client.query("SELECT out_machine, out_contributions, out_wagered, out_awards FROM egm.by_machine($1)", &[&pool])?;
        rows.iter()
            .map(|r| {
                let wagered: String = r.get(2);
                let awards: String = r.get(3);
                let awards: Vec<(u64, usize, Cents)> = serde_json::from_str(&awards).map_err(|e| LinkError::Invalid(e.to_string()))?;
                Ok(MachineAccount {
                    machine: r.get(0),
                    contributions: r.get::<_, i64>(1) as u64,
                    wagered: wagered.parse().map_err(|_| LinkError::Invalid(format!("wagered {wagered}")))?,
                    awards,
                })
            })
            .collect()
    }

    /// Operator: the books of a pool, for the audit and the liability report.
    pub fn books(&mut self, pool: &str) -> Result<LinkedBooks, LinkError> {
        let rows = self.client.query(
            "SELECT out_contributions, out_wagered, out_contributed_micro, out_current_micro, out_start_value, out_awarded, out_operator_funded, \
             out_reserve_micro, out_overflow_micro, out_transferred_out, out_transferred_in FROM egm.books($1)",
            &[&pool],
        )?;
        let col = |i: usize| rows.iter().map(|r| i128::from(r.get::<_, i64>(i))).collect::<Vec<i128>>();
        let first = rows.first().ok_or_else(|| LinkError::Invalid(format!("no linked pool {pool}")))?;
        let wagered: String = first.get(1);
        Ok(LinkedBooks {
            contributions: first.get::<_, i64>(0) as u64,
            wagered: wagered.parse().map_err(|_| LinkError::Invalid(format!("wagered {wagered}")))?,
            contributed_micro: col(2),
            current_micro: col(3),
            start_micro: col(4).into_iter().map(|s| s * i128::from(MICRO)).collect(),
            awarded: col(5),
            operator_funded: col(6),
            reserve_micro: col(7),
            overflow_micro: col(8),
            transferred_out: col(9),
            transferred_in: col(10),
        })
    }

    /// Operator: the latest refusals, newest first.
    pub fn refusals(&mut self, n: i64) -> Result<Vec<Refusal>, LinkError> {
        let rows = self.client.query("SELECT out_seq, out_machine, out_round, out_call, out_reason FROM egm.refusals($1)", &[&n])?;
        Ok(rows.iter().map(|r| Refusal { seq: r.get(0), machine: r.get(1), round: r.get(2), call: r.get(3), reason: r.get(4) }).collect())
    }

    /// Operator: the latest operator actions, newest first: (operator, action, detail).
    pub fn operator_log(&mut self, n: i64) -> Result<Vec<(String, String, String)>, LinkError> {
        let rows = self.client.query("SELECT out_operator, out_action, out_detail FROM egm.operator_log($1)", &[&n])?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect())
    }

    /// The connection itself, for the attack tests (what a cabinet's login
    /// may run directly).
    pub fn client(&mut self) -> &mut Client {
        &mut self.client
    }
}
