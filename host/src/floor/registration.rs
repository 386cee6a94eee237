//! The floor's AFT registration as an operator at the cabinet meets it
//! (SAS LP 73, issue 71): the operator asks the floor to register the
//! cabinet (exception 6C), acknowledges a registration the floor asked
//! the operator to confirm (6D), or cancels the registration (6E). Each
//! is journaled in the core; the floor is told from the journal. An
//! operator acts with a door open (the cabinet's key turned), as for every
//! setting of the audit menu.

use crate::session::Session;

impl Session {
    /// The cabinet's AFT registration, when it is on a floor's SAS line.
    pub fn aft_registration(&self) -> Option<meters::AftRegistration> {
        self.floor().map(|_| self.machine.aft_registration())
    }

    /// The operator asks the floor to register the cabinet (6C).
    pub fn request_aft_registration(&mut self) -> Result<(), String> {
        let by = self.operator_at_the_cabinet()?;
        self.machine.request_aft_registration(&by).map_err(|e| e.to_string())
    }

    /// The operator acknowledges the registration the floor asked them to
    /// confirm (pending → ready; 6D).
    pub fn acknowledge_aft_registration(&mut self) -> Result<(), String> {
        let by = self.operator_at_the_cabinet()?;
        self.machine.acknowledge_aft_registration(&by).map_err(|e| e.to_string())
    }

    /// The operator cancels the cabinet's registration (6E): a transfer
    /// that names the floor's key is refused from now on.
    pub fn cancel_aft_registration(&mut self) -> Result<(), String> {
        let by = self.operator_at_the_cabinet()?;
        if self.machine.aft_registration().status == meters::RegistrationStatus::NotRegistered {
            return Err("this cabinet is not registered for AFT".into());
        }
        self.machine.aft_register(meters::AftRegistration::default(), &by).map_err(|e| e.to_string())
    }

    /// The operator of the machine's record, when the cabinet is on a
    /// floor's line and a door is open.
    fn operator_at_the_cabinet(&self) -> Result<String, String> {
        if self.floor().is_none() {
            return Err("this cabinet has no SAS line: AFT registration is the floor's".into());
        }
        if self.machine.state().doors_open.is_empty() {
            return Err("AFT registration is changed at the cabinet with a door open".into());
        }
        Ok(self.machine.config().operator.operator_id.clone())
    }
}
