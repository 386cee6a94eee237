//! Recall (M-15, M-34, E-33): a round as the journal tells it, its steps,
//! resumptions and outcome.

use crate::journal::{Entry, Step, WinComponent, WinPayment};
use crate::money::Cents;
use crate::store::Record;

/// One round as recall shows it (M-15, M-34, E-33).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RoundRecall {
    pub round: u64,
    pub game: String,
    pub denom: Cents,
    pub started_utc: String,
    pub credit_before: Cents,
    pub stake: Cents,
    pub steps: Vec<RecallStep>,
    pub outcome: RecallOutcome,
    /// Steps at which the round was resumed after a power loss (M-36).
    pub resumed_at: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RecallStep {
    pub at_utc: String,
    pub step: Step,
    pub extra_stake: Cents,
    /// RNG values the core drew for this step.
    pub draws: u64,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum RecallOutcome {
    InProgress,
    Settled { win: Cents, components: Vec<WinComponent>, payment: WinPayment, credit_after: Cents },
    Voided { refund: Cents, reason: String, credit_after: Cents },
}

/// Group a round's journal records into recall entries.
pub fn recall_from(records: &[Record]) -> Vec<RoundRecall> {
    let mut out: Vec<RoundRecall> = Vec::new();
    for r in records {
        match &r.entry {
            Entry::RoundBegun { round, game, denom, stake, credit_before, step, draws, .. } => out.push(RoundRecall {
                round: *round,
                game: game.clone(),
                denom: *denom,
                started_utc: r.at_utc.clone(),
                credit_before: *credit_before,
                stake: *stake,
                steps: vec![RecallStep { at_utc: r.at_utc.clone(), step: step.clone(), extra_stake: 0, draws: *draws }],
                outcome: RecallOutcome::InProgress,
                resumed_at: Vec::new(),
            }),
            Entry::RoundStep { round, step, extra_stake, draws, .. } => {
                if let Some(rr) = out.iter_mut().rev().find(|x| x.round == *round) {
                    rr.stake += extra_stake;
                    rr.steps.push(RecallStep { at_utc: r.at_utc.clone(), step: step.clone(), extra_stake: *extra_stake, draws: *draws });
                }
            }
            Entry::RoundResumed { round, at_step } => {
                if let Some(rr) = out.iter_mut().rev().find(|x| x.round == *round) {
                    rr.resumed_at.push(*at_step);
                }
            }
            Entry::RoundSettled { round, win, components, payment, credit_after, .. } => {
                if let Some(rr) = out.iter_mut().rev().find(|x| x.round == *round) {
                    rr.outcome = RecallOutcome::Settled { win: *win, components: components.clone(), payment: *payment, credit_after: *credit_after };
                }
            }
            Entry::RoundVoided { round, refund, reason, credit_after } => {
                if let Some(rr) = out.iter_mut().rev().find(|x| x.round == *round) {
                    rr.outcome = RecallOutcome::Voided { refund: *refund, reason: reason.clone(), credit_after: *credit_after };
                }
            }
            _ => {}
        }
    }
    out
}
