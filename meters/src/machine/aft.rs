//! The floor's AFT transfers as the core keeps them (SAS LP 72; issues 48
//! and 71): a transfer is journaled pending before the floor is told so,
//! then moves money once, or fails with its reason; a pending transfer
//! found at power-up is resumed or failed, never made twice (sas.md §7:
//! "persist the current transfer … before money moves; at boot resume or
//! fail a pending one, never repeat it"). The core knows nothing of SAS's
//! wire: the status a failure was reported with is the host's.

use super::Machine;
use crate::journal::Entry;
use crate::machine::{CoreError, MoneyRefusal};
use crate::money::Cents;
use crate::registration::{AftRegistration, RegistrationStatus};
use crate::state::PendingAft;

impl Machine {
    /// Issue 71: the floor asked for a transfer (in, or out to the host
    /// when `to_host`) of `value` cents under `transaction_id`: checked as
    /// the transfer itself will be, and journaled pending, before the
    /// floor may be told it is pending (40). Play stops until it is made
    /// ([`Machine::aft_in`], [`Machine::aft_out`]) or failed
    /// ([`Machine::aft_failed`]); one at a time.
    pub fn aft_pending(&mut self, transaction_id: &str, to_host: bool, value: Cents) -> Result<(), CoreError> {
        self.check_aft(transaction_id, to_host, value)?;
        self.commit(vec![Entry::AftPending { transaction_id: transaction_id.to_owned(), to_host, value }])
    }

    /// The transfer journaled pending and not yet made or failed, if any.
    pub fn pending_aft(&self) -> Option<&PendingAft> {
        self.state.aft_pending.as_ref()
    }

    /// The pending transfer could not be made: `status` as reported to the
    /// floor, `reason` for the event log. Nothing moves.
    pub fn aft_failed(&mut self, status: u8, reason: &str) -> Result<(), CoreError> {
        let Some(p) = self.state.aft_pending.clone() else {
            return Err(CoreError::Refused("no AFT transfer is pending".into()));
        };
        self.commit(vec![Entry::AftFailed { transaction_id: p.transaction_id, to_host: p.to_host, status, reason: reason.to_owned() }])
    }

    /// Cashable credit from the floor's system (SAS AFT, LP 72 type 00;
    /// issue 48), once per transaction id: refused in a round or while play
    /// is blocked, over the credit limit, for an id already used (the
    /// caller reports the first transfer's outcome, `aft_transfer`), for
    /// an id that is not 1–20 printable characters, for zero, or while
    /// another transfer is pending. Makes the pending transfer of this id.
    pub fn aft_in(&mut self, transaction_id: &str, value: Cents) -> Result<Cents, CoreError> {
        self.check_aft(transaction_id, false, value)?;
        self.verify_before_money_moves()?;
        self.commit(vec![Entry::AftIn { transaction_id: transaction_id.to_owned(), value }])?;
        Ok(self.state.credit)
    }

    /// Credit to the floor's system (a cash-out to the host by AFT, LP 72
    /// type 80): at most the credit on the meter; anchored before the
    /// floor is told it is done, as every money-out.
    pub fn aft_out(&mut self, transaction_id: &str, value: Cents) -> Result<Cents, CoreError> {
        self.check_aft(transaction_id, true, value)?;
        self.verify_before_money_moves()?;
        self.anchor(crate::anchor::AnchorReason::CashOut, vec![Entry::AftOut { transaction_id: transaction_id.to_owned(), value }])?;
        Ok(self.state.credit)
    }

    /// An AFT transfer already made under `transaction_id`: in (true) or
    /// out, and its amount.
    pub fn aft_transfer(&self, transaction_id: &str) -> Option<(bool, Cents)> {
        self.state.aft_transfers.get(transaction_id).copied()
    }

    /// What a transfer must pass, pending or made: the one pending may be
    /// made (the same id, way and amount), nothing else while it is.
    fn check_aft(&self, transaction_id: &str, to_host: bool, value: Cents) -> Result<(), CoreError> {
        self.ensure_idle_but_aft(Some(transaction_id))?;
        if let Some(p) = &self.state.aft_pending
            && (p.to_host != to_host || p.value != value)
        {
            return Err(CoreError::Refused(format!(
                "AFT transfer {transaction_id:?} is pending for {} cents {}",
                p.value,
                if p.to_host { "out" } else { "in" }
            )));
        }
        if transaction_id.is_empty() || transaction_id.len() > 20 || !transaction_id.bytes().all(|b| b.is_ascii_graphic() || b == b' ') {
            return Err(CoreError::Refused(format!("AFT transaction id {transaction_id:?} is not 1 to 20 printable characters")));
        }
        if self.state.aft_transfers.contains_key(transaction_id) {
            return Err(CoreError::Refused(format!("AFT transaction id {transaction_id:?} was used already")));
        }
        if value == 0 {
            return Err(CoreError::Refused("an AFT transfer of zero".into()));
        }
        if to_host && value > self.state.credit {
            return Err(CoreError::InsufficientCredit { credit: self.state.credit, needed: value });
        }
        if !to_host && self.state.credit.saturating_add(value) > self.config.credit_limit {
            return Err(CoreError::TransferInRejected(MoneyRefusal::CreditLimit(self.config.credit_limit)));
        }
        Ok(())
    }
}

/// Issue 71: the floor's AFT registration (SAS LP 73), kept in critical
/// memory.
impl Machine {
    /// The machine's registration as last journaled.
    pub fn aft_registration(&self) -> AftRegistration {
        self.state.aft_registration
    }

    /// The floor's host (or an operator, `by`) changed the registration:
    /// journaled before the floor is told of it. Refused when `next` may
    /// not follow the registration now (registered only after the floor
    /// initialised it, under a non-zero asset number).
    pub fn aft_register(&mut self, next: AftRegistration, by: &str) -> Result<(), CoreError> {
        if let Some(why) = self.state.aft_registration.refuses(&next) {
            return Err(CoreError::Refused(why));
        }
        self.commit(vec![Entry::AftRegistration { registration: next, by: by.to_owned() }])
    }

    /// An operator at the machine acknowledged the registration the floor
    /// asked for (SAS 6D): it becomes ready for the floor's key.
    pub fn acknowledge_aft_registration(&mut self, by: &str) -> Result<(), CoreError> {
        if self.state.aft_registration.status != RegistrationStatus::Pending {
            return Err(CoreError::Refused("no AFT registration awaits an operator's acknowledgement".into()));
        }
        self.commit(vec![Entry::AftRegistrationAcknowledged { by: by.to_owned() }])
    }

    /// An operator at the machine asks the floor to register it (SAS 6C).
    pub fn request_aft_registration(&mut self, by: &str) -> Result<(), CoreError> {
        self.commit(vec![Entry::AftRegistrationRequested { by: by.to_owned() }])
    }
}
