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
        self.refuse_note(value)?;
        // Money in is checked like money out: the journal's end (and so its
        // epoch: a RAM clear by another process) before the credit moves.
        self.verify_before_money_moves()?;
        self.commit(vec![Entry::NoteIn { value }])?;
        Ok(self.state.credit)
    }

    /// Issue 70: an escrowed note the host is about to tell the acceptor
    /// to stack, checked as [`Machine::insert_note`] checks a note (refused:
    /// journaled, and the host gives it back). Journaled before the stack
    /// command, with no credit: the credit is committed once, at the
    /// acceptor's vend valid ([`Machine::note_vend_valid`]), or at its
    /// power-up with the note in the stacker ([`Machine::note_at_power_up`]).
    /// One note at a time.
    pub fn stack_note(&mut self, value: Cents) -> Result<(), CoreError> {
        self.one_at_a_time()?;
        self.refuse_note(value)?;
        self.commit(vec![Entry::NoteStacking { value }])
    }

    /// Issue 70: one note or ticket at a time through the acceptor.
    pub(super) fn one_at_a_time(&self) -> Result<(), CoreError> {
        if let Some(v) = self.state.note_stacking {
            return Err(CoreError::NoteStillStacking(v));
        }
        if let Some(t) = &self.state.ticket_stacking {
            return Err(CoreError::TicketStillStacking(t.clone()));
        }
        if let Some((t, _)) = &self.state.floor_ticket_stacking {
            return Err(CoreError::TicketStillStacking(t.clone()));
        }
        Ok(())
    }

    /// Issue 70: this machine's own ticket in the acceptor's escrow, which
    /// the host is about to tell it to stack: checked as
    /// [`Machine::insert_ticket`] checks one (refused: journaled, and the
    /// host gives it back), journaled before the stack command with no
    /// credit; its credit is committed once, at the acceptor's vend valid
    /// or its power-up with the ticket in the stacker, as a note's
    /// ([`Machine::note_vend_valid`], [`Machine::note_at_power_up`]). Its
    /// value.
    pub fn stack_ticket(&mut self, validation: &str) -> Result<Cents, CoreError> {
        self.one_at_a_time()?;
        let value = self.refuse_ticket(validation)?;
        self.commit(vec![Entry::TicketStacking { validation: validation.to_owned() }])?;
        Ok(value)
    }

    /// The ticket being stacked, if any.
    pub fn ticket_stacking(&self) -> Option<&str> {
        self.state.ticket_stacking.as_deref()
    }

    /// A note of `value` refused (journaled, and the error to give it back
    /// with) when play is blocked, the machine does not take it, or it
    /// would pass the credit limit.
    fn refuse_note(&mut self, value: Cents) -> Result<(), CoreError> {
        let refusal = if let Some(b) = self.play_block() {
            MoneyRefusal::Disabled(b)
        } else if !self.config.accepted_notes.contains(&value) {
            MoneyRefusal::NoteNotAccepted(value)
        } else if self.state.credit.saturating_add(value) > self.config.credit_limit {
            MoneyRefusal::CreditLimit(self.config.credit_limit)
        } else {
            return Ok(());
        };
        self.commit(vec![Entry::NoteRejected { value, reason: refusal.to_string() }])?;
        Err(CoreError::NoteRejected(refusal))
    }

    /// Issue 70: the acceptor's vend valid — the note (or this machine's
    /// ticket) being stacked is past the point of return: its credit,
    /// committed now (M-25 e, f), before the host ACKs it. `None` when
    /// nothing is being stacked: its credit was
    /// committed before (a vend valid seen again after a restart, whose
    /// ACK had not gone out), and the host ACKs without crediting.
    pub fn note_vend_valid(&mut self) -> Result<Option<Cents>, CoreError> {
        if let Some(validation) = self.state.ticket_stacking.clone() {
            return self.ticket_credited(validation).map(Some);
        }
        if let Some((validation, value)) = self.state.floor_ticket_stacking.clone() {
            self.verify_before_money_moves()?;
            self.commit(vec![Entry::FloorTicketIn { validation, value }])?;
            return Ok(Some(value));
        }
        let Some(value) = self.state.note_stacking else { return Ok(None) };
        self.verify_before_money_moves()?;
        self.commit(vec![Entry::NoteIn { value }])?;
        Ok(Some(value))
    }

    /// The ticket being stacked, credited.
    fn ticket_credited(&mut self, validation: String) -> Result<Cents, CoreError> {
        self.verify_before_money_moves()?;
        let value = self.state.tickets.get(&validation).map_or(0, |t| t.value);
        self.commit(vec![Entry::TicketIn { validation, value }])?;
        Ok(value)
    }

    /// Issue 70: the acceptor powered up; `in_stacker` when it says a note
    /// was in its stacker's path (it stacks it), else any note in its path
    /// is given back. A ticket being stacked is ended the same way
    /// (credited, or `TicketReturned` and still unredeemed). A note being stacked is credited in the first case
    /// (its vend valid never came, or came before its credit was
    /// committed) and ended with no credit in the second. `None`: nothing
    /// credited.
    pub fn note_at_power_up(&mut self, in_stacker: bool) -> Result<Option<Cents>, CoreError> {
        if let Some(validation) = self.state.ticket_stacking.clone() {
            if in_stacker {
                return self.ticket_credited(validation).map(Some);
            }
            self.commit(vec![Entry::TicketReturned { validation }])?;
            return Ok(None);
        }
        if let Some((validation, value)) = self.state.floor_ticket_stacking.clone() {
            if in_stacker {
                self.verify_before_money_moves()?;
                self.commit(vec![Entry::FloorTicketIn { validation, value }])?;
                return Ok(Some(value));
            }
            self.floor_ticket_given_back(&validation)?;
            return Ok(None);
        }
        let Some(value) = self.state.note_stacking else { return Ok(None) };
        if in_stacker {
            self.verify_before_money_moves()?;
            self.commit(vec![Entry::NoteIn { value }])?;
            Ok(Some(value))
        } else {
            self.commit(vec![Entry::NoteReturned { value }])?;
            Ok(None)
        }
    }

    /// Issue 70: the note the acceptor was told to stack and whose credit
    /// is not yet committed.
    pub fn note_stacking(&self) -> Option<Cents> {
        self.state.note_stacking
    }

    /// A ticket in the reader, by validation number (M-25 f). Without a
    /// ticket-validation host, the machine accepts only unredeemed tickets
    /// it printed itself. Once a floor's system has taken this machine's
    /// events (SAS, issue 48) it is the only authority on tickets: it may
    /// have paid this machine's ticket on another cabinet, so every ticket
    /// is redeemed through it ([`Machine::redeem_floor_ticket`]), never
    /// here, even while the floor's link is down or gone from the
    /// configuration.
    pub fn insert_ticket(&mut self, validation: &str) -> Result<Cents, CoreError> {
        self.refuse_ticket(validation)?;
        self.verify_before_money_moves()?;
        let value = self.state.tickets.get(validation).map_or(0, |t| t.value);
        self.commit(vec![Entry::TicketIn { validation: validation.to_owned(), value }])?;
        Ok(self.state.credit)
    }

    /// A ticket refused (journaled, and the error to give it back with),
    /// else its value.
    fn refuse_ticket(&mut self, validation: &str) -> Result<Cents, CoreError> {
        let issued = self.state.tickets.get(validation).cloned();
        let refusal = if let Some(b) = self.play_block() {
            Some(MoneyRefusal::Disabled(b))
        } else if !ticket::is_well_formed(validation) {
            Some(MoneyRefusal::Malformed)
        } else if self.state.floor_reported.is_some() {
            Some(MoneyRefusal::FloorValidates)
        } else {
            match &issued {
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
        Ok(issued.map_or(0, |t| t.value))
    }

    /// Cash out the whole credit meter, remainder cents included: a ticket,
    /// or a hand-pay lock-up above the ticket-out limit.
    pub fn cash_out(&mut self) -> Result<CashOut, CoreError> {
        let amount = self.credit_to_cash_out()?;
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
        self.issue_ticket(validation, amount, None)
    }

    /// The floor's system sets this machine's secure-enhanced validation
    /// ID and sequence number (SAS LP 4C; issue 48), kept in critical
    /// memory: each ticket after it is numbered from the two.
    pub fn set_secure_validation(&mut self, id: u32, sequence: u32) -> Result<(), CoreError> {
        let max = ticket::SECURE_ENHANCED_MAX;
        if id == 0 || id > max || sequence > max {
            return Err(CoreError::Refused(format!("validation ID {id} and sequence {sequence} must be 1..=16777215 and 0..=16777215")));
        }
        self.commit(vec![Entry::ValidationIdSet { id, sequence }])
    }

    /// [`Self::cash_out`] on a floor using SAS secure-enhanced validation:
    /// the ticket's number is derived from the validation ID the floor
    /// set and the next sequence number, so the floor can recompute it
    /// (the fold checks it is exactly that number). A cash-out over the
    /// ticket-out limit is a hand-pay as always; none can be numbered
    /// before the floor set the ID.
    pub fn cash_out_secure_enhanced(&mut self) -> Result<CashOut, CoreError> {
        let amount = self.credit_to_cash_out()?;
        if amount > self.config.ticket_out_limit {
            return self.cash_out();
        }
        let (sequence, validation) = self.state.secure_validation.ok_or(CoreError::ValidationIdNotSet)?.next();
        if self.state.tickets.contains_key(&validation) || self.state.floor_tickets.contains(&validation) {
            return Err(CoreError::Refused(format!(
                "secure-enhanced number {validation} (sequence {sequence}) was used before on this machine: the floor must set a new validation ID"
            )));
        }
        self.issue_ticket(validation, amount, Some(sequence))
    }

    /// Cash out the whole credit meter on a ticket whose validation number
    /// the floor's system assigned (SAS system validation, LP 57/58; issue
    /// 48): `amount` is what the floor was told (LP 57) and must still be
    /// the credit. The number is 18 digits, its first two the floor's
    /// system ID (01–99), and new to this machine. The floor's number is
    /// printed as is; the ticket is redeemed through the floor.
    pub fn cash_out_floor_validated(&mut self, validation: &str, amount: Cents) -> Result<CashOut, CoreError> {
        let credit = self.credit_to_cash_out()?;
        if credit != amount {
            return Err(CoreError::Refused(format!("the floor validated a ticket of {amount} cents; the credit is {credit} cents")));
        }
        if amount > self.config.ticket_out_limit {
            return Err(CoreError::Refused(format!("a ticket of {amount} cents is over the ticket-out limit of {} cents", self.config.ticket_out_limit)));
        }
        let digits = validation.len() == 18 && validation.bytes().all(|b| b.is_ascii_digit());
        if !digits || validation.starts_with("00") {
            return Err(CoreError::Refused(format!("the floor's validation number {validation:?} is not 18 digits opening with a system ID 01-99")));
        }
        if self.state.tickets.contains_key(validation) || self.state.floor_tickets.contains(validation) {
            return Err(CoreError::Refused(format!("the floor's validation number {validation} was used before on this machine")));
        }
        self.issue_ticket(validation.to_owned(), amount, None)
    }

    /// What every cash-out checks first: no round open, the program and
    /// critical memory verified, and a credit to pay; the credit.
    fn credit_to_cash_out(&mut self) -> Result<Cents, CoreError> {
        self.ensure_idle()?;
        self.verify_before_money_moves()?;
        match self.state.credit {
            0 => Err(CoreError::NothingToCashOut),
            credit => Ok(credit),
        }
    }

    /// The ticket's issue: the credit moves to it, anchored before it can
    /// be printed.
    fn issue_ticket(&mut self, validation: String, amount: Cents, sequence: Option<u32>) -> Result<CashOut, CoreError> {
        let issued_utc = time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)
            .map_err(|e| CoreError::CriticalMemory(format!("clock: {e}")))?;
        // A money-out: anchored before the ticket can be printed (issue 21).
        self.anchor(
            AnchorReason::CashOut,
            vec![Entry::TicketOut { validation: validation.clone(), value: amount, issued_utc: Some(issued_utc.clone()), sequence }],
        )?;
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
