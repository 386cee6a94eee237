//! Reconciliation (issue 46): each cabinet's own meter of what it owed a
//! pool, from its journal, set against the contributions the controller
//! holds for the same rounds. A difference is an alarm in the operator's
//! report (`egm-progressive reconcile`), never corrected silently. Also
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

impl Controller {
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
