//! What the game host publishes after every commit, and the port answers
//! every poll from: the core's meters as a floor reads them (cents and
//! counts, never a float), the cabinet's identity and its games. Nothing
//! in it is counted by SAS itself: each field is one of the core's M-25
//! meters or a configuration value, read once (certification H-54; the
//! mapping is docs/install.md's table).

use std::collections::BTreeMap;

/// One scope's game meters: the machine, one game, or one player
/// denomination.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scope {
    /// M-25 a) créditos jogados (cents).
    pub coin_in: u64,
    /// M-25 b) créditos ganhos paid to the credit meter (cents).
    pub coin_out: u64,
    /// Wins an attendant paid (M-25 g) prémio acumulado manual; cents).
    pub jackpot: u64,
    /// M-25 c) jogadas efectuadas, and those with and without a prize.
    pub games_played: u64,
    pub games_won: u64,
    pub games_lost: u64,
}

/// An amount in cents and how many made it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    pub cents: u64,
    pub count: u64,
}

/// A cash-out ticket this cabinet printed (LP 4D's history).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TicketOut {
    /// Its 18-digit validation number.
    pub validation: String,
    pub cents: u64,
    /// When it was issued, Unix seconds (UTC).
    pub issued: i64,
}

/// A hand-pay waiting for an attendant (LP 1B).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handpay {
    /// The core's hand-pay id.
    pub id: u64,
    pub cents: u64,
    /// A cash-out above the ticket limit (true) or a win at or above the
    /// hand-pay limit.
    pub canceled_credits: bool,
    /// The win of a SAS progressive level (group, level): LP 1B reports
    /// the level, not 40 (issue 48).
    pub progressive: Option<(u8, u8)>,
}

/// The last level of the cabinet's SAS progressive group won (LP 84/85).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProgressiveWin {
    pub group: u8,
    pub level: u8,
    /// The amount the controller broadcast, in cents.
    pub cents: u64,
}

/// One game of the cabinet as LP 1F / 53 describe it, numbered from 1 in
/// the configuration's menu order (game 0 is the machine).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// The game's id in the cabinet (e.g. "ocean-treasure").
    pub id: String,
    /// The two ASCII characters of LP 1F's game ID.
    pub sas_id: [u8; 2],
    /// LP 1F's additional ID: three ASCII digits that tell apart games
    /// whose two-character ID is the same (issue 71: it was "000" for
    /// every game).
    pub additional_id: [u8; 3],
    /// LP 1F's paytable ID: six ASCII characters, from the approved
    /// paytable's digest.
    pub paytable_id: [u8; 6],
    /// The proven RTP of the paytable in hundredths of a percent (LP 1F's
    /// base percentage, "9650" for 96.50 %).
    pub base_percent: u32,
    /// The largest bet in credits of the accounting denomination.
    pub max_bet_credits: u64,
    /// The SAS progressive group the game is in (LP 1F, 53), 0 for none.
    pub progressive_group: u8,
    /// The SAS levels of that group the game can win (LP B5: bit 0 level
    /// 1 … bit 31 level 32).
    pub progressive_levels: u32,
    /// Whether the operator offers it (LP 56).
    pub enabled: bool,
    pub meters: Scope,
}

/// The cabinet's meters, identity and games, as the host last committed
/// them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// The accounting denomination in cents (LP 1F): what a "credit" of a
    /// 4-byte meter is.
    pub accounting_denom: u64,
    /// The machine's totals (game 0).
    pub machine: Scope,
    /// The games, numbered from 1.
    pub games: Vec<Game>,
    /// The meters of each player denomination (cents → meters), for the
    /// multi-denomination polls (B0).
    pub denominations: BTreeMap<u64, Scope>,
    /// M-25 g) every cash-out: by ticket (cancelamento de créditos) and by
    /// an attendant (manual).
    pub canceled_credits: u64,
    /// M-25 g) the cash-outs an attendant paid by hand.
    pub handpaid_canceled_credits: u64,
    /// M-25 e) notes in: the drop.
    pub drop: u64,
    pub games_since_power_up: u64,
    pub games_since_door_close: u64,
    /// The credit meter, in cents.
    pub credit: u64,
    /// The most the credit meter may hold, in cents: a transfer in brings
    /// it there at most (LP 74's transfer limit, LP 72's status 84).
    pub credit_limit: u64,
    /// How many digits the cabinet's meters keep before they roll over
    /// (C-21, 10–18): LP 6F/AF's meter size (issue 71: it said 9 bytes
    /// whatever the meter).
    pub meter_digits: u8,
    pub slot_door_opens: u64,
    pub power_resets: u64,
    /// Notes accepted, a count per value in cents.
    pub notes: BTreeMap<u64, u64>,
    /// The last note accepted, in cents (LP 48).
    pub last_note: Option<u64>,
    /// M-25 f) bilhetes codificados entrados.
    pub tickets_in: Counted,
    /// M-25 g) bilhetes codificados pagos.
    pub tickets_out: Counted,
    /// The machine's serial number (LP 54): its identification (M-8).
    pub serial: String,
    /// The game now selected (LP 55), from 1.
    pub selected_game: u16,
    /// The player denomination now chosen, in cents (LP B1).
    pub player_denom: u64,
    /// The player denominations the operator offers, in cents (LP B2).
    pub player_denoms: Vec<u64>,
    /// The cash-out tickets printed, newest first, at most 31 (LP 4D).
    pub tickets_printed: Vec<TicketOut>,
    /// Hand-pays waiting for an attendant, oldest first (LP 1B, 94).
    pub handpays: Vec<Handpay>,
    /// AFT in and out, cashable, in-house (2F codes A0/A1, B8/B9).
    pub aft_in: Counted,
    pub aft_out: Counted,
    /// No round open and nothing blocking play: an AFT lock can be granted
    /// and a transfer made (LP 74).
    pub idle: bool,
    /// The asset number the floor knows the cabinet by (LP 74, 72, 73;
    /// 0: none assigned, and no AFT transfer is taken).
    pub asset_number: u32,
    /// The days a cash-out ticket is valid, as printed on it (LP 7B; 0:
    /// the cabinet prints no expiry).
    pub ticket_expiry_days: u16,
    /// The cabinet's AFT registration as the core keeps it (LP 73).
    pub aft_registration: crate::registration::Registration,
    /// The floor numbers cash-out tickets (LP 57/58; LP A0's validation
    /// style).
    pub system_validation: bool,
    /// The last SAS progressive level won here (LP 84/85), none yet.
    pub progressive_win: Option<ProgressiveWin>,
    /// The cabinet numbers tickets by secure-enhanced validation (LP 4C;
    /// LP A0's validation style).
    pub secure_enhanced: bool,
    /// The validation ID and last sequence number the floor set (LP 4C),
    /// none yet (3F).
    pub validation_id: Option<(u32, u32)>,
}

impl Snapshot {
    /// `cents` as credits of the accounting denomination (the remainder
    /// dropped [R: the digest's reading]); none without a denomination.
    pub fn credits(&self, cents: u64) -> u64 {
        cents.checked_div(self.accounting_denom).unwrap_or(0)
    }

    pub fn notes_of(&self, cents: u64) -> u64 {
        self.notes.get(&cents).copied().unwrap_or(0)
    }

    /// Game `number` (0 is the machine): its scope.
    pub fn scope(&self, number: u16) -> Option<&Scope> {
        match number {
            0 => Some(&self.machine),
            n => self.games.get(usize::from(n) - 1).map(|g| &g.meters),
        }
    }

    /// What a transfer in may still add to the credit (LP 74's transfer
    /// limit, LP 72's status 84).
    pub fn transfer_limit(&self) -> u64 {
        self.credit_limit.saturating_sub(self.credit)
    }

    /// Game `number`, from 1.
    pub fn game(&self, number: u16) -> Option<&Game> {
        usize::from(number).checked_sub(1).and_then(|i| self.games.get(i))
    }
}
