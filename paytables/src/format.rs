//! The paytable format for reel games: RON, written by game designers.
//! `docs/paytable-format.md` documents every field; the samples live in
//! `assets/paytables/`.
//!
//! ```ron
//! ReelPaytable(
//!     id: "classic-sevens",
//!     name: "Sevens Classic",
//!     rows: 1,
//!     symbols: [
//!         (id: "7", name: "Sete"),
//!         (id: "W", name: "Wild", kind: Wild(multiplier: 2)),
//!         (id: "S", name: "Estrela", kind: Scatter),
//!     ],
//!     reels: [["7", "W", "S"], ["7", "W", "S"], ["7", "W", "S"]],
//!     weights: None,                 // or Some([[1, 2, 1], ...]) per stop
//!     lines: [[0, 0, 0]],            // the row crossed on each reel
//!     pays: [(symbol: "7", count: 3, pays: 100)],
//!     scatter: None,
//!     bet: (lines: [1], credits_per_line: [1, 2, 3]),
//!     double_up: None,
//!     line_rules: Some((wild_only_multiplied: false, pays_longer_runs: false)),
//!     odds_disclosure: None,
//! )
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReelPaytable {
    /// A stable identifier: the game's name in meters, recall and manifests.
    pub id: String,
    /// The name shown to the player (M-30 a).
    pub name: String,
    /// Rows of the window (1 for a classic single-line game, 3 for a 5×3).
    pub rows: u8,
    /// Each reel's rows when they differ (issue 50, ways games only: a
    /// 3-4-5-4-3 window); `rows` is then the tallest.
    #[serde(default)]
    pub reel_rows: Option<Vec<u8>>,
    pub symbols: Vec<SymbolSource>,
    /// The base game's reel strips: symbol ids, stop by stop.
    pub reels: Vec<Vec<String>>,
    /// Optional integer weight of every stop, reel by reel.
    #[serde(default)]
    pub weights: Option<Vec<Vec<u64>>>,
    /// Paylines: the row (0 = top) crossed on each reel.
    #[serde(default)]
    pub lines: Vec<Vec<u8>>,
    /// Ways pays in place of paylines (issue 50: 243 ways on a 5×3
    /// window, 1,024 on a 5×4): `lines` is then left out, and `bet.lines`
    /// holds the one cost of the ways bet in credits per unit.
    #[serde(default)]
    pub ways: bool,
    /// Line pays, in credits per credit bet on the line.
    pub pays: Vec<PaySource>,
    #[serde(default)]
    pub scatter: Option<ScatterSource>,
    pub bet: BetSource,
    #[serde(default)]
    pub double_up: Option<DoubleUpSource>,
    /// The line rules a paytable may choose (`docs/paytable-format.md`,
    /// "Rules of evaluation"); when absent, both are false and the
    /// compiler warns where the choice matters.
    #[serde(default)]
    pub line_rules: Option<LineRulesSource>,
    /// The game this paytable is an RTP variant of (issue 50): the same
    /// game with its own strips or weights, proven and approved on its
    /// own; the operator chooses the variant a cabinet offers.
    #[serde(default)]
    pub variant_of: Option<String>,
    /// How the multipliers of several wilds in one way combine (issue 50,
    /// ways games): `Multiply` (the default) or `Add`.
    #[serde(default)]
    pub wild_multipliers: game_core::reels::WildMultipliers,
    /// The hold-and-spin feature (issue 50; a ways game without a
    /// scatter): enough bonus symbols start respins with them held.
    #[serde(default)]
    pub hold_and_spin: Option<HoldAndSpinSource>,
    /// Cascades (issue 50; a ways game): winning symbols removed, the
    /// rest falling, the strip filling from above, the multiplier rising.
    #[serde(default)]
    pub cascade: Option<CascadeSource>,
    /// The odds disclosure shown with any prize rarer than 1 in
    /// 100,000,000 per game (GLI-11 §4.8.2); such a prize is refused without it.
    #[serde(default)]
    pub odds_disclosure: Option<String>,
}

/// The debatable line rules, stated by the designer (issue 18).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineRulesSource {
    /// A line of wilds alone pays its own pay multiplied by the wild's
    /// multiplier (true), or as written (false).
    pub wild_only_multiplied: bool,
    /// A pay for N in a row also pays a longer run that has no pay of its
    /// own (true: the longest paid count up to the run's length), or a
    /// run's count is exact (false).
    pub pays_longer_runs: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SymbolSource {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub kind: KindSource,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum KindSource {
    #[default]
    Regular,
    Wild {
        multiplier: u64,
        /// Fills its reel when it shows (issue 50, ways games only).
        #[serde(default)]
        expanding: bool,
        /// The regular symbols it stands for, by id (issue 50, ways games
        /// only); every regular symbol when absent.
        #[serde(default)]
        substitutes: Option<Vec<String>>,
        /// During free games a reel it filled stays filled for the rest
        /// of them (issue 50: an expanding wild of a ways game, free games
        /// without retriggers).
        #[serde(default)]
        sticky: bool,
    },
    Scatter,
    /// The hold-and-spin's bonus symbol (issue 50).
    Bonus,
}

/// A hold-and-spin feature (issue 50; `game_core::reels::hold`).
///
/// ```ron
/// hold_and_spin: Some((
///     symbol: "PEARL",
///     trigger: 6,                       // bonus symbols in the base window
///     respins: 3,                       // given again by each respin that lands one
///     landing: (bonus: 1, blank: 30),   // each free cell, each respin
///     values: [(value: Credits(25), weight: 60), (value: Mini, weight: 3)],
///     jackpots: (mini: 250, minor: 500, major: 2500, grand: 25000),
/// )),
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HoldAndSpinSource {
    pub symbol: String,
    pub trigger: u8,
    pub respins: u8,
    pub landing: LandingSource,
    pub values: Vec<CashValueSource>,
    pub jackpots: game_core::reels::Jackpots,
    /// The grand paid by a progressive pool, at least `jackpots.grand`
    /// (the exact RTP counts it at that fixed value; the pool's growth is
    /// the progressive's own return, on top).
    #[serde(default)]
    pub grand_progressive: bool,
}

/// Cascades (issue 50; `game_core::reels::cascade`).
///
/// ```ron
/// cascade: Some((multipliers: [1, 2, 3, 5], max_cascades: 20)),
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CascadeSource {
    /// The spin's own window's multiplier, then one per cascade; the last
    /// repeats.
    pub multipliers: Vec<u64>,
    pub max_cascades: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LandingSource {
    pub bonus: u64,
    pub blank: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CashValueSource {
    pub value: game_core::reels::CashValue,
    pub weight: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaySource {
    pub symbol: String,
    /// How many in a row from the first reel.
    pub count: u8,
    pub pays: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScatterSource {
    pub symbol: String,
    /// Scatter count → pay, times the total bet.
    #[serde(default)]
    pub pays: BTreeMap<u8, u64>,
    #[serde(default)]
    pub free_games: Option<FreeGamesSource>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FreeGamesSource {
    /// Scatter count → free games awarded.
    pub awards: BTreeMap<u8, u32>,
    /// Multiplier of every free-game win.
    pub multiplier: u64,
    /// Scatters during free games award more free games.
    pub retrigger: bool,
    /// Strips for free games (the base strips when absent).
    #[serde(default)]
    pub reels: Option<Vec<Vec<String>>>,
    #[serde(default)]
    pub weights: Option<Vec<Vec<u64>>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BetSource {
    /// The line counts the player may play.
    pub lines: Vec<u32>,
    /// The credits per line the player may bet.
    pub credits_per_line: Vec<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoubleUpSource {
    pub max_doubles: u8,
    pub max_win_credits: u64,
}

/// A draw-poker paytable (Jacks or Better, Bonus Poker, Double Double
/// Bonus, Deuces Wild, Joker Poker…): the game is the paytable.
///
/// ```ron
/// DrawPokerPaytable(
///     id: "jacks-or-better-9-6",
///     name: "Jacks or Better 9/6",
///     wild: None,                    // or Deuces, or Joker (a 53rd card)
///     coins: [1, 2, 3, 4, 5],
///     pays: [                        // highest first, pays per coin
///         (hand: RoyalFlush, name: "Royal Flush", name_pt: Some("Sequência real de cor"), pays: 250, max_coin_pays: Some(800)),
///         (hand: FourOfAKind(ranks: "A", kickers: "2-4"), name: "Four Aces + 2-4", pays: 400),
///         (hand: Pair(ranks: "J-A"), name: "Jacks or Better", pays: 1),
///     ],
///     double_up: None,
/// )
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawPokerPaytable {
    pub id: String,
    pub name: String,
    #[serde(default = "no_wild")]
    pub wild: WildSource,
    pub coins: Vec<u32>,
    /// Multi-hand play: the hand counts offered, e.g. `[1, 3, 5, 10]` (one
    /// deal; each further hand draws from its own deck). Single-hand when
    /// absent.
    #[serde(default = "one_hand")]
    pub hands: Vec<u32>,
    pub pays: Vec<HandPaySource>,
    #[serde(default)]
    pub double_up: Option<DoubleUpSource>,
    #[serde(default)]
    pub odds_disclosure: Option<String>,
}

fn one_hand() -> Vec<u32> {
    vec![1]
}

fn any_rank() -> String {
    "any".into()
}

fn no_wild() -> WildSource {
    WildSource::None
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WildSource {
    None,
    Deuces,
    Joker,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandPaySource {
    pub hand: HandSource,
    /// The hand's name as the paytable is written (English).
    pub name: String,
    /// The hand's name in Portuguese (M-10): what a Portuguese-speaking
    /// player reads on the paytable glass and under a winning hand.
    #[serde(default)]
    pub name_pt: Option<String>,
    /// Credits per coin bet.
    pub pays: u64,
    /// Credits per coin when the most coins are bet (the royal's bonus).
    #[serde(default)]
    pub max_coin_pays: Option<u64>,
}

/// Rank sets are written "any", "A", "2-4", "J-A", "5-K" or lists of those
/// separated by commas ("A,2-4").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HandSource {
    /// A natural royal flush shown in sequence
    /// (`SequentialRoyalFlush(order: LeftToRight)`: T-J-Q-K-A from left to
    /// right; `EitherWay`: also A-K-Q-J-T).
    SequentialRoyalFlush {
        order: SequenceSource,
    },
    RoyalFlush,
    FourWilds,
    /// Four wild cards with a natural fifth card of a rank in `kickers`
    /// (`FourWildsWith(kickers: "A")`: four deuces with an ace).
    FourWildsWith {
        kickers: String,
    },
    WildRoyalFlush,
    FiveOfAKind,
    /// Five of a kind of a rank in `ranks` (`FiveOfAKindOf(ranks: "A")`:
    /// five aces; `"3-5"`: five 3s, 4s or 5s).
    FiveOfAKindOf {
        ranks: String,
    },
    StraightFlush,
    FourOfAKind {
        #[serde(default = "any_rank")]
        ranks: String,
        #[serde(default = "any_rank")]
        kickers: String,
    },
    FullHouse,
    Flush,
    Straight,
    ThreeOfAKind,
    TwoPair,
    Pair {
        ranks: String,
    },
}

/// Which orders of a royal flush a `SequentialRoyalFlush` pays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SequenceSource {
    /// T-J-Q-K-A from left to right only.
    LeftToRight,
    /// T-J-Q-K-A or A-K-Q-J-T from left to right.
    EitherWay,
}

/// A póquer sem descarte (Caribbean stud) paytable: the text fixes the
/// raise paytable (PSD 30) except the royal flush (50 to 100, SP-15).
///
/// ```ron
/// StudPokerPaytable(
///     id: "poquer-sem-descarte",
///     name: "Póquer sem Descarte",
///     royal_flush_pays: 100,
///     tie_rule: SuitOrder,           // SP-17; or Push (PSD 26)
///     antes: [1, 2, 5, 10, 25],
///     max_win_credits: Some(100000),
///     jackpot: None,
/// )
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudPokerPaytable {
    pub id: String,
    pub name: String,
    pub royal_flush_pays: u64,
    /// SP-17 (suit order) unless the paytable says `Push` (PSD 26), as the
    /// format document states.
    #[serde(default = "TieRuleSource::default_rule")]
    pub tie_rule: TieRuleSource,
    pub antes: Vec<u64>,
    #[serde(default)]
    pub max_win_credits: Option<u64>,
    #[serde(default)]
    pub jackpot: Option<JackpotSource>,
    #[serde(default)]
    pub odds_disclosure: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieRuleSource {
    SuitOrder,
    Push,
}

impl TieRuleSource {
    fn default_rule() -> TieRuleSource {
        TieRuleSource::SuitOrder
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JackpotSource {
    pub bet_credits: u64,
    pub royal_fixed: u64,
    pub straight_flush_fixed: u64,
    pub four_of_a_kind: u64,
    pub full_house: u64,
    pub flush: u64,
    pub start_value_credits: u64,
    pub pays_on_fold: bool,
}
