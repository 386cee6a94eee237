//! Doors, tilts and the attendant (E-37): what stops play and who clears
//! it, hand-pays, program verification, and the power-down.

use super::{CoreError, Machine};
use crate::anchor::AnchorReason;
use crate::journal::{Entry, Tilt};
use crate::meters::Door;
use crate::state::PendingHandpay;

impl Machine {
    /// A door opened (E-37): play, money in and cash-out stop while it is
    /// open. The logic door also sets a tilt that needs an attendant.
    pub fn open_door(&mut self, door: Door) -> Result<(), CoreError> {
        if self.state.doors_open.contains(&door) {
            return Ok(());
        }
        let mut entries = vec![Entry::DoorOpened { door }];
        if door == Door::Logic && !self.state.tilts.contains(&Tilt::LogicDoorAccess) {
            entries
                .push(Entry::TiltSet { tilt: Tilt::LogicDoorAccess, detail: "logic door opened: attendant clear and program re-verification required".into() });
        }
        self.commit(entries)
    }

    pub fn close_door(&mut self, door: Door) -> Result<(), CoreError> {
        if !self.state.doors_open.contains(&door) {
            return Ok(());
        }
        self.anchor(AnchorReason::DoorClosed, vec![Entry::DoorClosed { door }]).map(|_| ())
    }

    /// Set a tilt reported by the cabinet (device fault, verification).
    pub fn set_tilt(&mut self, tilt: Tilt, detail: &str) -> Result<(), CoreError> {
        self.commit(vec![Entry::TiltSet { tilt, detail: detail.to_owned() }])
    }

    /// Issue 70: the ticket printer's paper ran low, or was loaded again:
    /// in the event log, and told to the floor when low (SAS 74).
    pub fn printer_paper(&mut self, low: bool) -> Result<(), CoreError> {
        self.commit(vec![Entry::PrinterPaper { low }])
    }

    /// An attendant clears a tilt. A self-audit tilt clears only when the
    /// audit now passes; the logic-door tilt only with every door closed.
    pub fn clear_tilt(&mut self, tilt: Tilt, attendant: &str) -> Result<(), CoreError> {
        if !self.state.tilts.contains(&tilt) {
            return Err(CoreError::TiltNotActive(tilt));
        }
        if tilt == Tilt::FloorDisabled {
            return Err(CoreError::Refused("play was disabled by the slot management system: only it enables play again (SAS LP 02)".into()));
        }
        if tilt == Tilt::FloorMaintenance {
            return Err(CoreError::Refused("the slot management system put the cabinet in maintenance mode: only it takes it out (SAS LP 0B)".into()));
        }
        let still = match tilt {
            Tilt::SelfAudit => self.state.self_audit().is_err(),
            Tilt::LogicDoorAccess => self.state.doors_open.contains(&Door::Logic),
            _ => false,
        };
        if still {
            return Err(CoreError::TiltStillCaused(tilt));
        }
        self.commit(vec![Entry::TiltCleared { tilt, by: attendant.to_owned() }])
    }

    /// An attendant pays a hand-pay with the attendant key (M-12).
    pub fn pay_handpay(&mut self, id: u64, attendant: &str) -> Result<PendingHandpay, CoreError> {
        if attendant.trim().is_empty() {
            return Err(CoreError::Refused("a hand-pay names the attendant who pays it".into()));
        }
        let hp = self.state.handpays.get(&id).cloned().ok_or(CoreError::NoSuchHandpay(id))?;
        // A money-out: anchored before the attendant hands the money over.
        self.anchor(AnchorReason::Handpay, vec![Entry::HandpayPaid { id, attendant: attendant.to_owned() }])?;
        Ok(hp)
    }

    /// An operator chooses the RTP variant of `family` this cabinet offers
    /// (issue 50): `game`, an approved paytable whose digest is `sha256`
    /// (the host has verified it against the manifest). Only with the
    /// logic door open, between rounds, by a named operator; logged.
    pub fn choose_variant(&mut self, family: &str, game: &str, sha256: &str, by: &str) -> Result<(), CoreError> {
        if by.trim().is_empty() {
            return Err(CoreError::Refused("a variant is chosen by a named operator".into()));
        }
        if !self.state.doors_open.contains(&Door::Logic) {
            return Err(CoreError::Refused("a game's RTP variant is chosen only with the logic door open".into()));
        }
        if let Some(open) = &self.state.open_round {
            return Err(CoreError::Refused(format!("round {} is open: a variant is chosen between rounds", open.round)));
        }
        if family.trim().is_empty() || game.trim().is_empty() || sha256.len() != 64 {
            return Err(CoreError::Refused("a variant choice names the game, the variant and its approved digest".into()));
        }
        self.commit(vec![Entry::VariantChosen { family: family.to_owned(), game: game.to_owned(), sha256: sha256.to_owned(), by: by.to_owned() }])
    }

    /// H-53: log what a verification found of each component — `found`:
    /// (component, file, digest, whether the manifest approves it) — against
    /// the last accepted digests in critical memory: a new component,
    /// a changed one, a refused one, one gone from `found`. Nothing is
    /// written when nothing changed. Returns the entries written.
    pub fn record_software(&mut self, found: &[(String, String, String, bool)], by: &str) -> Result<Vec<Entry>, CoreError> {
        use crate::journal::SoftwareOutcome;
        let mut entries = Vec::new();
        for (component, file, sha256, approved) in found {
            let previous = self.state.software.get(component).cloned();
            let outcome = match (approved, &previous) {
                (false, _) => SoftwareOutcome::Refused,
                (true, None) => SoftwareOutcome::Installed,
                (true, Some(p)) if p != sha256 => SoftwareOutcome::Replaced,
                (true, Some(_)) => continue,
            };
            // A refusal already logged for this same file is not logged again.
            let refused_again = outcome == SoftwareOutcome::Refused && self.state.refused_software.get(component) == Some(sha256);
            if !refused_again {
                entries.push(Entry::SoftwareChanged {
                    component: component.clone(),
                    file: file.clone(),
                    sha256: sha256.clone(),
                    previous,
                    outcome,
                    by: by.to_owned(),
                });
            }
        }
        for (component, sha256) in &self.state.software {
            if !found.iter().any(|f| &f.0 == component) {
                let previous = Some(sha256.clone());
                entries.push(Entry::SoftwareChanged {
                    component: component.clone(),
                    file: String::new(),
                    sha256: String::new(),
                    previous,
                    outcome: SoftwareOutcome::Removed,
                    by: by.to_owned(),
                });
            }
        }
        if !entries.is_empty() {
            self.commit(entries.clone())?;
        }
        Ok(entries)
    }

    /// Record a program-verification result (H-51); a failure tilts.
    pub fn record_verification(&mut self, ok: bool, detail: &str) -> Result<(), CoreError> {
        let mut entries = vec![Entry::Verification { ok, detail: detail.to_owned() }];
        if !ok {
            entries.push(Entry::TiltSet { tilt: Tilt::ProgramVerification, detail: detail.to_owned() });
        }
        self.commit(entries)
    }

    /// A clean power-down.
    pub fn shutdown(mut self) -> Result<(), CoreError> {
        self.power_down()
    }

    /// Record a clean power-down without giving up the machine (the cabinet
    /// calls it as the application exits).
    pub fn power_down(&mut self) -> Result<(), CoreError> {
        if self.state.clean_shutdown {
            return Ok(());
        }
        self.commit(vec![Entry::PowerDown])
    }

    /// Power down and give critical memory up, for a RAM clear or another
    /// boot in this process: the lock is released and this machine refuses
    /// everything afterwards (it is a RAM error to use it).
    pub fn release(&mut self) -> Result<(), CoreError> {
        self.power_down()?;
        self.store.release();
        self.fault = Some("critical memory was released by this process (a RAM clear or a new boot)".into());
        Ok(())
    }
}
