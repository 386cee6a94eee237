//! What the floor's system asked of the cabinet (SAS, issue 48), carried
//! out through the core: play disabled or enabled, a ticket redeemed or
//! returned, a cash-out ticket issued under the floor's validation number,
//! an AFT transfer, a hand-pay reset; and what the floor did not answer in
//! time given up, nothing moved.

use std::time::Instant;

use meters::{CashOut, CoreError, MoneyRefusal};
use sas::egm::Event;

use super::FloorLink;
use crate::notice::Notice;
use crate::session::Session;

impl Session {
    /// One request of the floor's, carried out through the core.
    pub(super) fn act_on(&mut self, floor: &mut FloorLink, event: Event) -> Result<(), CoreError> {
        match event {
            Event::PlayEnabled(false) => self.machine.floor_disable("SAS host (LP 01)"),
            Event::PlayEnabled(true) => self.machine.floor_enable("SAS host (LP 02)"),
            Event::ClockSet { unix } => {
                tracing::info!("SAS host set the cabinet's clock to {unix} (Unix time, LP 7F)");
                Ok(())
            }
            Event::LinkUp(up) => {
                floor.link_up = up;
                tracing::info!("SAS link {} (port thread: {})", if up { "up" } else { "down" }, floor.port.placement());
                Ok(())
            }
            Event::RedeemTicket { validation, amount } => {
                floor.escrow = None;
                // Issue 70: a ticket in the acceptor is stacked first, and
                // credited (and told redeemed) at its vend valid.
                if self.floor_redeems_held_ticket(floor, &validation, amount) {
                    return Ok(());
                }
                match self.machine.redeem_floor_ticket(&validation, amount) {
                    Ok(_) => {
                        floor.port.ticket_done(&validation, amount, sas::tickets::status::REDEEMED);
                        self.message = Some(Notice::TicketRedeemed { value: amount });
                    }
                    Err(e) => {
                        floor.port.ticket_done(&validation, 0, sas::tickets::status::REJECTED_BY_EGM);
                        self.message = Some(Notice::Core(e));
                    }
                }
                Ok(())
            }
            Event::TicketRefused { validation, code } => {
                floor.escrow = None;
                self.give_back_held_ticket(&validation);
                let why = if code == sas::tickets::status::REJECTED_BY_EGM {
                    MoneyRefusal::FloorAmount("restricted credit is not held by this cabinet".into())
                } else {
                    MoneyRefusal::FloorRefused(code)
                };
                floor.port.ticket_done(&validation, 0, code);
                let done = self.machine.floor_ticket_returned(&validation, code, &why);
                self.message = Some(Notice::Core(CoreError::TicketRejected(why)));
                done
            }
            Event::TicketValidated { validation, cents } => {
                floor.cash_out = None;
                match self.machine.cash_out_floor_validated(&validation, cents) {
                    Ok(CashOut::Ticket(t)) => {
                        self.last_ticket = Some(t.validation.clone());
                        self.player_left();
                        self.print_ticket(t);
                    }
                    Ok(CashOut::Handpay { amount, .. }) => {
                        self.player_left();
                        self.message = Some(Notice::CashOutHandpay { amount });
                    }
                    // The credit changed since the floor was asked, or the
                    // number is unusable: nothing moved; the player cashes
                    // out again and the floor is asked again.
                    Err(e) => {
                        tracing::warn!("SAS validation {validation} for {cents} cents: refused: {e}");
                        self.message = Some(Notice::Core(e));
                    }
                }
                Ok(())
            }
            Event::ValidationIdSet { id, sequence } => {
                tracing::info!("SAS host set the secure-enhanced validation ID {id:06X}, sequence {sequence} (LP 4C)");
                self.machine.set_secure_validation(id, sequence)
            }
            Event::ValidationDenied => {
                floor.cash_out = None;
                tracing::warn!("SAS host denied the cash-out's validation (LP 58, system ID 00)");
                self.message = Some(Notice::CashOutRefusedByFloor);
                Ok(())
            }
            // Issue 71: the floor's AFT registration, journaled in the core
            // before the floor is answered (from the next snapshot).
            Event::AftRegister(asked) => {
                let made = match super::snapshot::registration_in_core(&asked) {
                    Some(next) => self.machine.aft_register(next, "SAS host (LP 73)"),
                    None => Err(CoreError::Refused(format!("AFT registration status {:#04x} is not one SAS defines", asked.status))),
                };
                if let Err(e) = made {
                    tracing::warn!("SAS AFT registration: refused: {e}");
                    floor.port.aft_registration_refused(asked);
                }
                Ok(())
            }
            Event::AftLock(locked) => {
                floor.aft_locked = locked;
                Ok(())
            }
            Event::AftTransfer { id, to_host, cents } => {
                let kind = if to_host { sas::aft::IN_HOUSE_TO_HOST } else { sas::aft::IN_HOUSE_TO_EGM };
                // An id the core moved money for already: the first
                // transfer's outcome, nothing moves again.
                if let Some((_, first)) = self.machine.aft_transfer(&id) {
                    floor.port.aft_done(&id, sas::aft::status::FULL, first, kind);
                    return Ok(());
                }
                // Issue 71: journaled pending before the floor hears of it
                // (a power cut from here on resumes it at the restart).
                if let Err(e) = self.machine.aft_pending(&id, to_host, cents) {
                    tracing::warn!("SAS AFT {id}: refused: {e}");
                    floor.port.aft_refused(&id, aft_status(&e), kind);
                    return Ok(());
                }
                // Made at the next tend (the floor may hear 40 between);
                // the screen wakes for it.
                floor.port.aft_journaled(&id);
                self.wake.wake();
                Ok(())
            }
            Event::HandpayReset { id } => self.machine.pay_handpay(id, "SAS host (LP 94)").map(|_| ()),
            Event::ProgressiveLevels(levels) => {
                floor.levels = levels;
                Ok(())
            }
            Event::ProgressiveHeard(heard) => {
                floor.progressive_heard = heard;
                if heard {
                    tracing::info!("SAS progressive broadcasts heard");
                } else {
                    tracing::warn!("SAS progressive: no broadcast for 5 s: its games take no bet (G-49)");
                }
                Ok(())
            }
            Event::RealTime(_) | Event::SignatureAsked { .. } => Ok(()),
            // Issue 71: the floor's sound, note acceptor and maintenance
            // polls (LP 03–07, 0A, 0B).
            Event::Sounds(sounds) => {
                tracing::info!("SAS host: sounds {sounds:?}");
                floor.sounds = sounds;
                Ok(())
            }
            Event::NoteAcceptor(on) => {
                tracing::info!("SAS host {} the note acceptor (LP {})", if on { "enabled" } else { "disabled" }, if on { "06" } else { "07" });
                floor.notes_enabled = on;
                Ok(())
            }
            Event::Maintenance(on) => self.machine.floor_maintenance(on, if on { "SAS host (LP 0A)" } else { "SAS host (LP 0B)" }),
            // Issue 71: the note values (LP 08), a game disabled or enabled
            // (LP 09), the game delay (LP 2E), the ticket data (LP 7D).
            Event::NoteValues { cents, disable_after_each } => {
                tracing::info!(
                    "SAS host: the note acceptor takes {cents:?} (cents){} (LP 08)",
                    if disable_after_each { ", disabled after each note" } else { "" }
                );
                floor.note_values = Some(cents.into_iter().collect());
                floor.notes_off_after_each = disable_after_each.then(|| self.machine.journal_head());
                Ok(())
            }
            Event::GameEnabled { game, enabled } => {
                if let Some(id) = floor.games.get(usize::from(game).saturating_sub(1)).map(|g| g.id.clone()) {
                    tracing::info!("SAS host {} game {game} ({id}) (LP 09)", if enabled { "enabled" } else { "disabled" });
                    if enabled {
                        floor.games_off.remove(&id);
                    } else {
                        floor.games_off.insert(id);
                    }
                    // LP 56 reads the change at once.
                    floor.built = None;
                }
                Ok(())
            }
            Event::GameDelay { ms } => {
                tracing::info!("SAS host: no game starts for {ms} ms (LP 2E)");
                floor.delay_until = (ms > 0).then(|| Instant::now() + std::time::Duration::from_millis(ms));
                Ok(())
            }
            Event::TicketData(d) => {
                tracing::info!("SAS host set the ticket data: host {}, expiry {} days, location {:?} (LP 7D)", d.host_id, d.expiry_days, d.location);
                let kept = std::mem::take(&mut floor.ticket_data);
                floor.ticket_data = sas::ticket_data::TicketData {
                    location: d.location.or(kept.location),
                    address1: d.address1.or(kept.address1),
                    address2: d.address2.or(kept.address2),
                    ..d
                };
                Ok(())
            }
        }
    }

    /// Issue 71: the AFT transfer journaled pending is made, or failed
    /// with its reason; the floor's port (none at boot, before it starts)
    /// is told the outcome. At boot this resumes a transfer a power cut
    /// interrupted (sas.md §7: resume or fail it, never repeat it).
    pub(crate) fn make_pending_aft(&mut self, floor: Option<&FloorLink>) {
        let Some(p) = self.machine.pending_aft().cloned() else { return };
        let kind = if p.to_host { sas::aft::IN_HOUSE_TO_HOST } else { sas::aft::IN_HOUSE_TO_EGM };
        let made = if p.to_host { self.machine.aft_out(&p.transaction_id, p.value) } else { self.machine.aft_in(&p.transaction_id, p.value) };
        let (status, cents) = match made {
            Ok(_) => {
                // E-42: the whole credit out to the floor ends the player's
                // session as a cash-out by ticket or hand-pay does; part of
                // it leaves the player at the machine.
                if p.to_host && self.machine.credit() == 0 {
                    self.player_left();
                }
                (sas::aft::status::FULL, p.value)
            }
            Err(e) => {
                tracing::warn!("SAS AFT {}: not made: {e}", p.transaction_id);
                let status = aft_status(&e);
                if let Err(e) = self.machine.aft_failed(status, &e.to_string()) {
                    // Still pending in the journal: play stays stopped and
                    // the next start tries again.
                    tracing::error!("SAS AFT {}: its failure could not be journaled: {e}", p.transaction_id);
                    return;
                }
                (status, 0)
            }
        };
        if let Some(floor) = floor {
            floor.port.aft_done(&p.transaction_id, status, cents, kind);
        }
    }

    /// What the floor did not answer in time: a ticket in the reader goes
    /// back (nothing credited, and a late answer finds no ticket in
    /// escrow); a cash-out is given up (nothing moved, the credit stays,
    /// and a late number finds no cash-out).
    pub(super) fn floor_timeouts(&mut self, floor: &mut FloorLink) {
        let timeout = u64::from(floor.setup.ticket_timeout_s);
        let expired = |since: &Instant| since.elapsed().as_secs() >= timeout;
        if let Some((validation, _)) = floor.escrow.take_if(|(_, since)| expired(since)) {
            self.give_back_held_ticket(&validation);
            floor.port.ticket_done(&validation, 0, sas::tickets::status::TIMED_OUT);
            let why = MoneyRefusal::FloorNoAnswer(floor.setup.ticket_timeout_s);
            if let Err(e) = self.machine.floor_ticket_returned(&validation, sas::tickets::status::TIMED_OUT, &why) {
                tracing::error!("SAS: {e}");
            }
            self.message = Some(Notice::Core(CoreError::TicketRejected(why)));
        }
        if floor.cash_out.take_if(|(_, since)| expired(since)).is_some() {
            floor.port.validation_ended();
            tracing::warn!("SAS host gave no validation number in {timeout} s: the cash-out is given up");
            self.message = Some(Notice::CashOutRefusedByFloor);
        }
    }
}

/// The LP 72 status of a transfer the core refused: the credit limit has
/// its own (issue 71); anything else the cabinet cannot do now.
fn aft_status(e: &CoreError) -> u8 {
    match e {
        CoreError::TransferInRejected(MoneyRefusal::CreditLimit(_)) => sas::aft::status::OVER_TRANSFER_LIMIT,
        _ => sas::aft::status::UNABLE_NOW,
    }
}
