//! Money in (notes, tickets: M-25 e) and money out (the cash-out ticket,
//! or a hand-pay above the ticket-out limit, M-12).

use super::{CashOut, CoreError, Machine, MoneyRefusal};
use crate::anchor::AnchorReason;
use crate::journal::{Entry, HandpayKind};
use crate::money::Cents;
use crate::ticket::{self, Ticket};

impl Machine {
    /// A note in the acceptor. Accepted notes credit the meter (M-25 e);
    /// refused notes are returned and logged.
    pub fn insert_note(&mut self, value: Cents) -> Result<Cents, CoreError> {
        let refusal = if let Some(b) = self.play_block() {
            Some(MoneyRefusal::Disabled(b))
        } else if !self.config.accepted_notes.contains(&value) {
            Some(MoneyRefusal::NoteNotAccepted(value))
        } else if self.state.credit.saturating_add(value) > self.config.credit_limit {
            Some(MoneyRefusal::CreditLimit(self.config.credit_limit))
        } else {
            None
        };
        if let Some(reason) = refusal {
            self.commit(vec![Entry::NoteRejected { value, reason: reason.to_string() }])?;
            return Err(CoreError::NoteRejected(reason));
        }
        // Money in is checked like money out: the journal's end (and so its
        // epoch: a RAM clear by another process) before the credit moves.
        self.verify_before_money_moves()?;
        self.commit(vec![Entry::NoteIn { value }])?;
        Ok(self.state.credit)
    }

    /// A ticket in the reader, by validation number (M-25 f). Without a
    /// ticket-validation host, the machine accepts only unredeemed tickets
    /// it printed itself.
    pub fn insert_ticket(&mut self, validation: &str) -> Result<Cents, CoreError> {
        let issued = self.state.tickets.get(validation).cloned();
        let refusal = if let Some(b) = self.play_block() {
            Some(MoneyRefusal::Disabled(b))
        } else if !ticket::is_well_formed(validation) {
            Some(MoneyRefusal::Malformed)
        } else {
            match issued {
                None => Some(MoneyRefusal::UnknownTicket),
                Some(t) if t.redeemed => Some(MoneyRefusal::AlreadyRedeemed),
                Some(t) if t.value > self.config.ticket_in_limit => Some(MoneyRefusal::AboveTicketLimit(self.config.ticket_in_limit)),
                Some(t) if self.state.credit.saturating_add(t.value) > self.config.credit_limit => Some(MoneyRefusal::CreditLimit(self.config.credit_limit)),
                Some(_) => None,
            }
        };
        if let Some(reason) = refusal {
            self.commit(vec![Entry::TicketRejected { validation: validation.to_owned(), reason: reason.to_string() }])?;
            return Err(CoreError::TicketRejected(reason));
        }
        self.verify_before_money_moves()?;
        let value = self.state.tickets.get(validation).map_or(0, |t| t.value);
        self.commit(vec![Entry::TicketIn { validation: validation.to_owned(), value }])?;
        Ok(self.state.credit)
    }

    /// Cash out the whole credit meter, remainder cents included: a ticket,
    /// or a hand-pay lock-up above the ticket-out limit.
    pub fn cash_out(&mut self) -> Result<CashOut, CoreError> {
        self.ensure_idle()?;
        self.verify_before_money_moves()?;
        let amount = self.state.credit;
        if amount == 0 {
            return Err(CoreError::NothingToCashOut);
        }
        if amount > self.config.ticket_out_limit {
            let id = self.state.last_handpay + 1;
            // No money leaves yet: the attendant's payment anchors.
            self.commit(vec![Entry::HandpayLocked { id, handpay: HandpayKind::CancelledCredits, amount }])?;
            return Ok(CashOut::Handpay { id, amount });
        }
        let validation = loop {
            let v = ticket::new_validation_number()?;
            if !self.state.tickets.contains_key(&v) {
                break v;
            }
        };
        let issued_utc = time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)
            .map_err(|e| CoreError::CriticalMemory(format!("clock: {e}")))?;
        // A money-out: anchored before the ticket can be printed (issue 21).
        self.anchor(AnchorReason::CashOut, vec![Entry::TicketOut { validation: validation.clone(), value: amount, issued_utc: Some(issued_utc.clone()) }])?;
        Ok(CashOut::Ticket(Ticket { machine_id: self.config.machine_id.clone(), validation, value: amount, issued_utc }))
    }

    /// The printer finished `validation`'s ticket: the second step of its
    /// issue. Until then it is printed again after any restart (same
    /// validation number: it can be redeemed only once).
    pub fn ticket_printed(&mut self, validation: &str) -> Result<(), CoreError> {
        match self.state.tickets.get(validation) {
            None => Err(CoreError::TicketRejected(MoneyRefusal::UnknownTicket)),
            Some(t) if t.printed => Ok(()),
            Some(_) => self.commit(vec![Entry::TicketPrinted { validation: validation.to_owned() }]),
        }
    }

    /// Tickets issued (their cash-out committed and anchored) that the
    /// printer never finished, oldest first: the host prints them again.
    ///
    /// Nothing leaves the cabinet before its anchor is committed (issue 34,
    /// hole 4): while an anchor is pending (a cash-out whose counter
    /// increment failed) or the machine is faulted, no ticket is handed
    /// out; the next boot finishes the increment and then prints it. A
    /// copy restored from before the increment is then `RolledBack`.
    pub fn unprinted_tickets(&self) -> Vec<Ticket> {
        if self.fault.is_some() || self.store.anchor().pending != crate::store::Pending::None {
            return Vec::new();
        }
        self.state
            .tickets
            .iter()
            .filter(|(_, t)| !t.printed && !t.redeemed)
            .map(|(v, t)| Ticket { machine_id: self.config.machine_id.clone(), validation: v.clone(), value: t.value, issued_utc: t.issued_utc.clone() })
            .collect()
    }
}
