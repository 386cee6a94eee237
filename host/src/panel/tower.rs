//! What the tower light shows (certification.md E-38: each error condition
//! has its tower-light state; decisions.md, "The tower light").
//!
//! A two-tier tower: the top tier (the candle, in the cabinet's colour)
//! says the cabinet is in service; the bottom tier calls the attendant.
//! Each condition has its own pattern, and the most urgent shows:
//!
//! | condition                                   | top            | bottom         |
//! |---------------------------------------------|----------------|----------------|
//! | an error that needs an attendant (E-38), critical memory | flashing fast | flashing fast |
//! | a door open (E-37)                          | flashing fast  | off            |
//! | a hand-pay waiting (M-12)                   | on             | flashing slow  |
//! | in service                                  | on             | off            |

use meters::{Machine, PlayBlock};
use peripherals::panel::LampState;

/// Flashing fast: twice a second.
pub const FAST: LampState = LampState::Flash { period_ms: 500 };
/// Flashing slow: once a second.
pub const SLOW: LampState = LampState::Flash { period_ms: 1_000 };

/// The two tiers of the tower light.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tower {
    pub top: LampState,
    pub bottom: LampState,
}

/// What the tower shows for the machine as it stands.
pub fn tower(machine: &Machine) -> Tower {
    let state = machine.state();
    let fault = !state.tilts.is_empty() || matches!(machine.play_block(), Some(PlayBlock::CriticalMemory(_)));
    if fault {
        Tower { top: FAST, bottom: FAST }
    } else if !state.doors_open.is_empty() {
        Tower { top: FAST, bottom: LampState::Off }
    } else if !state.handpays.is_empty() {
        Tower { top: LampState::On, bottom: SLOW }
    } else {
        Tower { top: LampState::On, bottom: LampState::Off }
    }
}
