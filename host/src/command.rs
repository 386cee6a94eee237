//! The host's command API: every action a button, a device or the
//! attendant can take, as one serialisable message. The cabinet's systems,
//! the soak driver and a remote test driver all act through
//! [`Session::command`](crate::session::Session::command); what happened is
//! read back from the session (its notice, its rounds, critical memory).

use game_core::double_up::Colour;
use meters::{Cents, Door};
use serde::{Deserialize, Serialize};

use crate::kind::BetControl;
use crate::names::Lang;
use crate::session::Session;

/// One action on the cabinet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Command {
    /// The note acceptor took a note.
    InsertNote { cents: Cents },
    /// The ticket reader read a ticket's validation number.
    InsertTicket { validation: String },
    /// The cash-out button (a ticket, or a hand-pay above the limit).
    CashOut,
    /// A game chosen by its place in the menu (idle only).
    SelectGame { index: usize },
    /// The next or previous game in the menu (idle only).
    StepGame { delta: i32 },
    /// A configured denomination (idle only).
    SelectDenomination { cents: Cents },
    /// The next or previous configured denomination (idle only).
    StepDenomination { delta: i32 },
    /// A bet button, one step up or down (idle only).
    AdjustBet { control: BetControl, delta: i32 },
    /// An edit of a bet of many spots, as `kind::BetEdit` of the selected
    /// game's kind in JSON: a chip placed, a spot cleared, undo, clear,
    /// repeat, double (idle only; the kind checks the table's limits).
    EditBet { edit: serde_json::Value },
    /// The max-bet button: the largest bet the game offers (issue 29).
    MaxBet,
    /// A button that steps through a bet control's options and wraps.
    CycleBet { control: BetControl },
    /// The denomination button: the next configured one, wrapping (idle only).
    CycleDenomination,
    /// The play button: start a round, or what the game makes of it in one.
    Play,
    /// A decision of the round in play, as its kind's `Decision` in JSON.
    Decide { decision: serde_json::Value },
    /// The screen has shown the whole outcome.
    Revealed,
    /// Gamble the amount at stake on a colour (M-11).
    Gamble { colour: Colour },
    /// Take the amount at stake.
    Collect,
    /// Autoplay for a number of rounds (M-32), 0 to stop it.
    Autoplay { rounds: u32 },
    /// A door opened or closed.
    ToggleDoor { door: Door },
    /// The attendant key: print a held ticket, pay hand-pays, clear tilts.
    AttendantClear,
    /// The player's language (M-10).
    Language { lang: Lang },
    /// Amounts in currency (true) or credits (M-16).
    ShowCurrency { currency: bool },
    /// A screen opened over the game, or closed (None): play is refused
    /// under it (issue 45).
    Overlay { overlay: Option<crate::session::Overlay> },
}

impl Session {
    /// Carry out one command. False when it was refused (the notice says why).
    pub fn command(&mut self, command: Command) -> bool {
        self.touch();
        let refusals = self.refusals;
        match command {
            Command::InsertNote { cents } => self.insert_note(cents),
            Command::InsertTicket { validation } => self.insert_ticket(&validation),
            Command::CashOut => self.cash_out(),
            Command::SelectGame { index } => self.choose_game(index),
            Command::StepGame { delta } => self.select_game(delta),
            Command::SelectDenomination { cents } => self.choose_denomination(cents),
            Command::StepDenomination { delta } => self.change_denomination(delta),
            Command::AdjustBet { control, delta } => self.adjust_bet(control, delta),
            Command::EditBet { edit } => self.edit_bet(edit),
            Command::MaxBet => self.max_bet(),
            Command::CycleBet { control } => self.cycle_bet(control),
            Command::CycleDenomination => self.cycle_denomination(),
            Command::Play => return self.play(),
            Command::Decide { decision } => return self.decide_value(decision),
            Command::Revealed => self.revealed(),
            Command::Gamble { colour } => self.gamble(colour),
            Command::Collect => self.collect(),
            Command::Autoplay { rounds } => self.set_autoplay(rounds),
            Command::ToggleDoor { door } => self.toggle_door(door),
            Command::AttendantClear => self.attendant_clear(),
            Command::Language { lang } => self.lang = lang,
            Command::ShowCurrency { currency } => self.show_currency = currency,
            Command::Overlay { overlay } => self.set_overlay(overlay),
        }
        self.refusals == refusals
    }
}
