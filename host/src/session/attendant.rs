//! The doors, the attendant's key and the RAM clear, as the cabinet's
//! operator reaches them.

use meters::{Door, Machine, Tilt};

use super::{Session, open_machine};
use crate::notice::Notice;

impl Session {
    /// A door opened or closed by hand (the operator panel's button, the
    /// lab build's key). Issue 70: a door with sensors is what they read —
    /// the retail build refuses it; in the lab build the key moves the
    /// door's sensors, the path a real door takes.
    pub fn toggle_door(&mut self, door: Door) {
        if self.panel_wires(door) {
            if cfg!(feature = "lab") {
                self.move_door_sensors(door);
            } else {
                self.fail(Notice::DoorHasSensors(door));
            }
            return;
        }
        let r = if self.machine.state().doors_open.contains(&door) { self.machine.close_door(door) } else { self.machine.open_door(door) };
        if let Err(e) = r {
            self.fail(Notice::Core(e));
        }
    }

    /// The attendant key: print a ticket the printer failed on, pay every
    /// pending hand-pay, clear what can be cleared.
    pub fn attendant_clear(&mut self) {
        if !self.print_unprinted_tickets() {
            return;
        }
        let ids: Vec<u64> = self.machine.state().handpays.keys().copied().collect();
        for id in ids {
            if let Err(e) = self.machine.pay_handpay(id, "attendant") {
                self.fail(Notice::Core(e));
            }
        }
        let tilts: Vec<Tilt> = self.machine.state().tilts.iter().copied().collect();
        self.attendant_clears_acceptor();
        self.attendant_clears_printer();
        self.attendant_clears_door_sensors();
        for t in tilts {
            if t == Tilt::ProgramVerification && !self.verification.failures().is_empty() {
                continue;
            }
            // The acceptor's, the printer's and the doors' sensors' own are
            // cleared once the device reports the fault gone (E-36;
            // `acceptor`, `printer`, `panel`).
            if matches!(t, Tilt::NoteAcceptor(_) | Tilt::Printer(_) | Tilt::DoorSensors(_)) {
                continue;
            }
            let _ = self.machine.clear_tilt(t, "attendant");
        }
    }

    /// RAM clear from the audit menu (D-32): the operator's PIN, a reason,
    /// a confirmation. The core records the meters before it, archives the
    /// journal and starts a new epoch; the cabinet then boots on it again
    /// (pools set up anew, the session's rounds and history gone).
    pub fn ram_clear(&mut self, pin: &str, reason: &str) -> Result<u64, String> {
        if self.in_round() {
            return Err(self.t("Há uma jogada em curso").to_owned());
        }
        if reason.trim().is_empty() {
            return Err(self.t("Indique o motivo").to_owned());
        }
        let config = self.config.machine.clone();
        // D-32: only with the logic door open; the PIN is checked by the
        // core against the machine's own record (issue 21).
        let logic_door_open = self.machine.state().doors_open.contains(&meters::Door::Logic);
        if !logic_door_open {
            return Err(self.t("Abra a porta lógica para limpar a RAM").to_owned());
        }
        self.machine.release().map_err(|e| e.to_string())?;
        let cleared = Machine::ram_clear(&self.db, &config, &config.operator.operator_id, pin, reason, logic_door_open);
        let epoch = match cleared {
            Ok(epoch) => epoch,
            Err(e) => {
                // Refused (a wrong PIN, a lockout): the machine boots again
                // on the same critical memory, and says why.
                let mut machine = open_machine(&self.db, &self.config, self.lab_seed)?;
                let (passed, detail) = self.verification.detail("(after a refused RAM clear)");
                machine.record_verification(passed, &detail).map_err(|e| e.to_string())?;
                self.machine = machine;
                return Err(match e {
                    meters::BootError::AuthenticationFailed => self.t("PIN errado").to_owned(),
                    other => other.to_string(),
                });
            }
        };
        let mut machine = open_machine(&self.db, &self.config, self.lab_seed)?;
        let (passed, detail) = self.verification.detail("(after a RAM clear)");
        machine.record_verification(passed, &detail).map_err(|e| e.to_string())?;
        self.machine = machine;
        self.history.clear();
        for g in &mut self.games {
            g.0.forget_round();
        }
        // The new epoch remembers no variant choice (issue 50).
        self.offer_chosen_variants();
        self.autoplay_left = 0;
        tracing::warn!("RAM clear by {}: {reason} (new epoch {epoch})", config.operator.operator_id);
        self.message = Some(Notice::RamCleared { reason: reason.to_owned() });
        Ok(epoch)
    }
}
