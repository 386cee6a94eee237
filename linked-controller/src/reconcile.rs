//! Reconciliation (issue 46): each cabinet's own meter of what it owed a
//! pool, from its journal, set against the contributions the controller
//! holds for the same rounds. A difference is an alarm in the operator's
//! report (`egm-progressive reconcile`), never corrected silently. Issue
//! 69: the floor's own meters too — each cabinet's coin-in as the floor
//! reads it (SAS), entered by an operator, against its linked rounds'
//! wagers: a cabinet cannot contribute more than it was played, and no
//! report of its own answers that alarm. Also
//! the denominations an operator sets a cabinet to offer, which a
//! committed round's bet is checked against.

use serde::{Deserialize, Serialize};

use meters::Cents;

use crate::controller::{Controller, LinkError, i64_of};

/// A cabinet's own meter of a linked pool in its journal epoch: every
/// round up to `through_round` was delivered, and of them `rounds`
/// qualified, wagering `wagered` cents in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CabinetMeter {
    pub through_round: u64,
    pub rounds: u64,
    pub wagered: Cents,
}

/// One line of the operator's reconciliation: a cabinet's epoch, what its
/// journal says (`None` when it never reported) and what the controller
/// holds for the same rounds; `alarm` names the difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reconciliation {
    pub machine: String,
    pub epoch: String,
    pub cabinet: Option<CabinetMeter>,
    pub controller_rounds: u64,
    pub controller_wagered: Cents,
    pub alarm: Option<String>,
}

/// One line of the floor's reconciliation (issue 69): cabinet `machine`'s
/// linked rounds from its latest baseline reading (`since`) to its latest
/// reading (`through`), against the coin-in the floor metered between
/// them; `alarm` names rounds it never played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloorReconciliation {
    pub machine: String,
    pub since: String,
    pub through: String,
    pub floor_coin_in: Cents,
    pub rounds: u64,
    pub linked_wagered: Cents,
    pub alarm: Option<String>,
}

impl Controller {
    /// Operator: the floor's reading of registered cabinet `machine`'s
    /// coin-in meter (cents; the SAS host's total coin in) at `read_at` (an
    /// RFC 3339 time, or now), a new `baseline` after a RAM clear or a
    /// rollover. Readings come in time order and never go back within a
    /// series; a cabinet's first is its baseline. Logged.
    pub fn floor_meter(&mut self, machine: &str, read_at: Option<&str>, coin_in: Cents, baseline: bool) -> Result<(), LinkError> {
        self.client().execute(
            "SELECT egm.floor_meter($1, coalesce($2::TEXT::TIMESTAMPTZ, now()), $3, $4)",
            &[&machine, &read_at, &i64_of(coin_in, "coin-in")?, &baseline],
        )?;
        Ok(())
    }

    /// Operator: every cabinet the floor has read, its linked rounds since
    /// its latest baseline against the floor's coin-in over the same time.
    pub fn floor_reconciliation(&mut self) -> Result<Vec<FloorReconciliation>, LinkError> {
        let rows = self.client().query(
            "SELECT out_machine, out_since::TEXT, out_through::TEXT, out_floor_coin_in, out_rounds, out_linked_wagered, out_alarm \
             FROM egm.floor_reconciliation()",
            &[],
        )?;
        let count = |v: i64| u64::try_from(v).map_err(|_| LinkError::Invalid(format!("a negative count {v} in the floor's reconciliation")));
        rows.iter()
            .map(|r| {
                Ok(FloorReconciliation {
                    machine: r.get(0),
                    since: r.get(1),
                    through: r.get(2),
                    floor_coin_in: count(r.get(3))?,
                    rounds: count(r.get(4))?,
                    linked_wagered: count(r.get(5))?,
                    alarm: r.get(6),
                })
            })
            .collect()
    }

    /// Operator: the denominations (cents) registered cabinet `machine`
    /// offers; the controller refuses a committed round's bet at any other
    /// (issue 46). Logged.
    pub fn set_denominations(&mut self, machine: &str, denominations: &[Cents]) -> Result<(), LinkError> {
        let d = denominations.iter().map(|&c| i64_of(c, "denomination")).collect::<Result<Vec<i64>, LinkError>>()?;
        self.client().execute("SELECT egm.set_denominations($1, $2)", &[&machine, &d])?;
        Ok(())
    }

    /// The service: record the calling cabinet's meter of `pool` in `epoch`.
    pub(crate) fn report_meter(&mut self, pool: &str, epoch: &str, meter: &CabinetMeter) -> Result<(), LinkError> {
        self.client().execute(
            "SELECT egm.report_meter($1, $2, $3, $4, $5)",
            &[&pool, &epoch, &i64_of(meter.through_round, "round")?, &i64_of(meter.rounds, "rounds")?, &i64_of(meter.wagered, "wagered")?],
        )?;
        Ok(())
    }

    /// Operator: every cabinet's latest meter of `pool` against the
    /// controller's contributions for the same rounds, per epoch.
    pub fn reconciliation(&mut self, pool: &str) -> Result<Vec<Reconciliation>, LinkError> {
        let rows = self.client().query(
            "SELECT out_machine, out_epoch, out_through, out_cabinet_rounds, out_cabinet_wagered, out_controller_rounds, \
             out_controller_wagered, out_alarm FROM egm.reconciliation($1)",
            &[&pool],
        )?;
        let count = |v: i64| u64::try_from(v).map_err(|_| LinkError::Invalid(format!("a negative count {v} in the reconciliation")));
        rows.iter()
            .map(|r| {
                let cabinet = match (r.get::<_, Option<i64>>(2), r.get::<_, Option<i64>>(3), r.get::<_, Option<i64>>(4)) {
                    (Some(t), Some(n), Some(w)) => Some(CabinetMeter { through_round: count(t)?, rounds: count(n)?, wagered: count(w)? }),
                    _ => None,
                };
                Ok(Reconciliation {
                    machine: r.get(0),
                    epoch: r.get(1),
                    cabinet,
                    controller_rounds: count(r.get(5))?,
                    controller_wagered: count(r.get(6))?,
                    alarm: r.get(7),
                })
            })
            .collect()
    }
}
