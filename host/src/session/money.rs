//! Money in and out through the session: notes, tickets, the cash-out and
//! its ticket printed (or a hand-pay above the limit, M-12).

use std::path::PathBuf;

use meters::{CashOut, Cents, CoreError, Tilt};

use super::Session;
use crate::notice::Notice;

impl Session {
    pub fn insert_note(&mut self, cents: Cents) {
        if self.refuse_in_demo() || self.feed_acceptor(crate::acceptor::Feed::Note(cents)) {
            return;
        }
        // Issue 71: the floor's system disabled the note acceptor (SAS LP
        // 07); the acceptor's own path is inhibited for it (`takes_notes`).
        if self.floor().is_some_and(|f| !f.notes_enabled()) {
            self.fail(Notice::NotesOffByFloor);
            return;
        }
        // LP 08: a value the floor does not let the acceptor take.
        if self.floor().is_some_and(|f| !f.takes_note(cents)) {
            self.fail(Notice::NoteOffByFloor { value: cents });
            return;
        }
        match self.machine.insert_note(cents) {
            Ok(_) => self.message = None,
            Err(e) => self.fail(Notice::Core(e)),
        }
    }

    /// The ticket reader: a ticket by validation number.
    pub fn insert_ticket(&mut self, validation: &str) {
        if self.refuse_in_demo() || self.feed_acceptor(crate::acceptor::Feed::Ticket(validation)) {
            return;
        }
        // The floor disabled the acceptor (LP 07), which reads tickets too:
        // the acceptor's own path is inhibited; so is this one.
        if self.floor().is_some_and(|f| !f.notes_enabled()) {
            self.fail(Notice::NotesOffByFloor);
            return;
        }
        // On a floor (SAS, issue 48) its system validates every ticket,
        // this cabinet's own too: it may have paid one elsewhere.
        if let Some(floor) = self.floor.as_mut() {
            if floor.ticket_inserted(validation) {
                self.message = Some(Notice::TicketWithFloor);
            }
            return;
        }
        match self.machine.insert_ticket(validation) {
            Ok(_) => self.message = None,
            Err(e) => self.fail(Notice::Core(e)),
        }
    }

    pub fn cash_out(&mut self) {
        if self.refuse_in_demo() || self.refused_under_overlay(super::Under::Play) {
            return;
        }
        // SAS system validation: the floor's system numbers the ticket
        // before it prints (LP 57/58); a hand-pay needs no number.
        let credit = self.machine.state().credit;
        let ticket = credit > 0 && credit <= self.machine.config().ticket_out_limit;
        // Issue 70 (ARCHITECTURE.md's decision): a printer that cannot
        // print now — a fault, a ticket still in hand — keeps the credit on
        // the machine; nothing moves.
        if ticket && self.printer.as_ref().is_some_and(|p| !p.ready()) {
            self.message = Some(Notice::PrinterNotReady);
            return;
        }
        let idle = self.idle();
        if let Some(floor) = self.floor.as_mut().filter(|f| f.validates_cash_outs())
            && ticket
            && idle
        {
            if floor.ask_validation(credit) {
                self.message = Some(Notice::CashOutWithFloor);
            }
            return;
        }
        // SAS secure-enhanced validation: numbered from the floor's
        // validation ID (LP 4C); without one, nothing moves and the floor
        // is told (3F).
        let secure = self.floor.as_ref().is_some_and(|f| f.secure_enhanced());
        let cashed = if secure { self.machine.cash_out_secure_enhanced() } else { self.machine.cash_out() };
        if let (Err(CoreError::ValidationIdNotSet), Some(floor)) = (&cashed, &self.floor) {
            floor.validation_id_missing();
        }
        match cashed {
            Ok(CashOut::Ticket(t)) => {
                self.last_ticket = Some(t.validation.clone());
                self.player_left();
                self.print_ticket(t);
            }
            Ok(CashOut::Handpay { amount, .. }) => {
                self.player_left();
                self.message = Some(Notice::CashOutHandpay { amount });
            }
            Err(CoreError::NothingToCashOut) => {}
            Err(e) => self.fail(Notice::Core(e)),
        }
    }

    /// A cash-out committed: the player's credit left the machine (a
    /// ticket, a hand-pay, a floor-validated ticket, or an AFT transfer of
    /// the whole credit to the floor), and the next player's meters start
    /// in currency whatever this one chose (E-42: the credit meter defaults
    /// to currency per new player, the credit view an option; M-16).
    pub(crate) fn player_left(&mut self) {
        self.show_currency = true;
    }

    /// Print an issued ticket. The core has already moved the credit to the
    /// ticket (its first step), so a printer that fails must not lose it:
    /// the cabinet tilts (device fault, naming the ticket's value and
    /// validation number) and the core keeps it unprinted until the
    /// attendant key, or the next boot, prints it; a printed ticket is
    /// journaled as such (its second step).
    pub(crate) fn print_ticket(&mut self, t: meters::ticket::Ticket) {
        // A printer's link prints the oldest unprinted ticket once it is
        // ready (`printer`), and the core journals it printed when the
        // printer says so.
        if self.printer.is_some() {
            self.tend_printer();
            return;
        }
        let dir = PathBuf::from(&self.config.ticket_dir);
        match crate::ticket_printer::print(&t, &self.machine.config().currency, &dir) {
            Ok(p) => {
                if let Err(e) = self.machine.ticket_printed(&t.validation) {
                    self.fail(Notice::Core(e));
                    return;
                }
                tracing::info!("ticket {} of {} cents printed to {}", t.validation, t.value, p.display());
                self.message = Some(Notice::TicketPrinted { value: t.value });
            }
            Err(e) => {
                let detail = format!("printer: {e}; ticket {} of {} not printed", t.validation, self.machine.config().currency.format(t.value));
                tracing::error!("{detail}");
                if !self.machine.state().tilts.contains(&Tilt::DeviceFault)
                    && let Err(e) = self.machine.set_tilt(Tilt::DeviceFault, &detail)
                {
                    self.fail(Notice::Core(e));
                }
                self.message = Some(Notice::TicketNotPrinted { validation: t.validation.clone(), value: t.value, error: e.to_string() });
            }
        }
    }

    /// Print every ticket whose cash-out is committed but whose printing
    /// never finished (a printer fault, a power cut between the two steps):
    /// at boot and with the attendant key. True when none is left.
    pub fn print_unprinted_tickets(&mut self) -> bool {
        if self.printer.is_some() {
            self.tend_printer();
            return self.machine.unprinted_tickets().is_empty();
        }
        for t in self.machine.unprinted_tickets() {
            tracing::warn!("ticket {} of {} cents was issued but never printed: printing it again", t.validation, t.value);
            self.print_ticket(t);
        }
        self.machine.unprinted_tickets().is_empty()
    }
}
