//! The floor's AFT registration of this machine (SAS LP 73, sas.md §7;
//! issue 71): which floor host registered it (the asset number it was
//! registered under, the host's 20-byte registration key and its point of
//! sale), kept in critical memory so that a power cut neither forgets a
//! registration nor revives a cancelled one. The core knows nothing of
//! SAS's wire: the statuses are named here, coded by the port.
//!
//! The registration does not move money. It decides which transfers the
//! floor's port accepts: a transfer that names a registration key is
//! refused unless the machine is registered under that key.

use serde::{Deserialize, Serialize};

/// Where the machine's registration stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RegistrationStatus {
    /// The floor initialised a registration; the machine waits for its
    /// key.
    Ready,
    /// Registered under a key and a point of sale.
    Registered,
    /// The floor asked for an operator's acknowledgement at the machine;
    /// until it comes, no registration.
    Pending,
    /// Never registered, or cancelled.
    #[default]
    NotRegistered,
}

/// The machine's AFT registration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AftRegistration {
    pub status: RegistrationStatus,
    /// The asset number the floor registered this machine under.
    pub asset: u32,
    /// The floor host's registration key (all zero unless registered).
    pub key: [u8; 20],
    /// The point-of-sale terminal id (0 unless registered).
    pub pos_id: u32,
}

impl AftRegistration {
    /// Why `next` may not follow this registration, if it may not: a
    /// machine is registered only from "ready" (the floor initialised it),
    /// under a non-zero asset number; only a registered machine holds a key
    /// or a point of sale.
    pub(crate) fn refuses(&self, next: &AftRegistration) -> Option<String> {
        match next.status {
            RegistrationStatus::Registered if !matches!(self.status, RegistrationStatus::Ready | RegistrationStatus::Registered) => {
                Some(format!("AFT registration: a machine {:?} is registered only after the floor initialised it (ready)", self.status))
            }
            RegistrationStatus::Registered if next.asset == 0 => Some("AFT registration: asset number 0 names no machine".into()),
            RegistrationStatus::Registered => None,
            _ if next.key != [0; 20] || next.pos_id != 0 => Some(format!("AFT registration: a machine {:?} holds no key and no point of sale", next.status)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg(status: RegistrationStatus, key: u8) -> AftRegistration {
        AftRegistration { status, asset: 77, key: [key; 20], pos_id: u32::from(key) }
    }

    #[test]
    fn a_machine_is_registered_only_after_the_floor_initialised_it() {
        use RegistrationStatus::*;
        let none = AftRegistration::default();
        assert!(none.refuses(&reg(Registered, 1)).is_some(), "not from 'not registered'");
        assert!(reg(Pending, 0).refuses(&reg(Registered, 1)).is_some(), "not while an operator's acknowledgement is awaited");
        assert_eq!(reg(Ready, 0).refuses(&reg(Registered, 1)), None);
        assert_eq!(reg(Registered, 1).refuses(&reg(Registered, 2)), None, "a registered machine takes a new key");
        assert!(reg(Ready, 0).refuses(&AftRegistration { asset: 0, ..reg(Registered, 1) }).is_some(), "asset 0");
        assert!(none.refuses(&reg(Ready, 3)).is_some(), "a key only when registered");
        for s in [Ready, Pending, NotRegistered] {
            assert_eq!(reg(Registered, 1).refuses(&reg(s, 0)), None, "{s:?} from registered");
        }
    }
}
