//! The player's buttons as the host sees them (issue 29): which of the
//! cabinet's buttons does something now, and the buttons that step through
//! their options round to the first (a touch deck has one lines button and
//! one denomination button). The cabinet draws a button enabled exactly when
//! [`Controls`] says so; it never works that out itself.

use serde::Serialize;

use super::Session;
use crate::kind::BetControl;

/// Each of the player's buttons: true when pressing it now does something.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Controls {
    /// Start a round (the credit covers it and nothing blocks play), or in
    /// a round what the play button does there (show the outcome at once;
    /// draw).
    pub play: bool,
    pub bet_down: bool,
    pub bet_up: bool,
    /// Another number of lines is offered (reels).
    pub lines: bool,
    /// The bet is not yet the largest the game offers.
    pub max_bet: bool,
    /// There is credit to cash out and no round is open.
    pub cash_out: bool,
    /// Another game can be chosen.
    pub game_menu: bool,
    /// Another denomination can be chosen.
    pub denomination: bool,
    /// Help and the language are always at hand.
    pub help: bool,
    pub language: bool,
}

/// More steps than any paytable has options: a button that walks to the
/// end of its options stops here whatever happens.
const MOST_STEPS: usize = 256;

impl Session {
    /// What each of the player's buttons can do now.
    pub fn controls(&self) -> Controls {
        let between = !self.in_round() && self.machine.play_block().is_none();
        // Issue 45: under an overlay only its own button, help and the
        // language do anything; the game menu still chooses.
        let reading = self.overlay.is_some();
        let choosing = matches!(self.overlay, None | Some(super::Overlay::GameMenu));
        let table = &self.game().0;
        let moves = |c: BetControl, d: i32| between && table.bet_moves(c, d, self.denom);
        let credit_covers = self.machine.credit() >= table.stake().max(table.credit_needed()).saturating_mul(self.denom) && table.stake() > 0;
        Controls {
            play: !reading && if self.in_round() { table.plays_in_round() && self.machine.play_block().is_none() } else { between && credit_covers },
            bet_down: !reading && moves(BetControl::Amount, -1),
            bet_up: !reading && moves(BetControl::Amount, 1),
            lines: !reading && (moves(BetControl::Lines, 1) || moves(BetControl::Lines, -1)),
            max_bet: !reading && (moves(BetControl::Amount, 1) || moves(BetControl::Lines, 1)),
            cash_out: !reading && between && self.machine.credit() > 0,
            game_menu: choosing && between && self.games.len() > 1,
            denomination: choosing && between && self.machine.config().denominations.len() > 1,
            help: true,
            language: true,
        }
    }

    /// The max-bet button: every bet control to the end of its options.
    pub fn max_bet(&mut self) {
        if self.refused_under_overlay(super::Under::Play) {
            return;
        }
        for control in [BetControl::Lines, BetControl::Amount] {
            for _ in 0..MOST_STEPS {
                if !self.controls().max_bet || !self.game().0.bet_moves(control, 1, self.denom) {
                    break;
                }
                self.adjust_bet(control, 1);
            }
        }
    }

    /// A button that steps through a bet control's options: the next, or
    /// after the last the first.
    pub fn cycle_bet(&mut self, control: BetControl) {
        if self.in_round() || self.refused_under_overlay(super::Under::Play) {
            return;
        }
        if self.game().0.bet_moves(control, 1, self.denom) {
            self.adjust_bet(control, 1);
            return;
        }
        for _ in 0..MOST_STEPS {
            if !self.game().0.bet_moves(control, -1, self.denom) {
                break;
            }
            self.adjust_bet(control, -1);
        }
    }

    /// The denomination button: the next configured denomination, or after
    /// the last the first (idle only, M-9).
    pub fn cycle_denomination(&mut self) {
        if self.in_round() || self.refused_under_overlay(super::Under::Choice) {
            return;
        }
        let options = &self.machine.config().denominations;
        if options.is_empty() {
            return;
        }
        let next = options.iter().position(|&d| d == self.denom).map_or(0, |i| (i + 1) % options.len());
        let d = options[next];
        self.set_denomination(d);
    }
}
