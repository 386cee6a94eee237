//! The contract a kind of game fulfils to be hosted.
//!
//! The round's lifecycle is written once, in [`crate::round`]: the stake and
//! the whole outcome committed in one call to the core, the player's
//! decisions as committed steps (each with any extra stake), the reveal, the
//! double-up, the progressive triggers, the settlement, and resume or void
//! after a restart (M-36). A kind supplies only its rules, through
//! [`GameKind`]: what a bet is and what it stakes, how the outcome is drawn,
//! which decisions are legal and what each commits, when the round is
//! decided, what it wins and in which components, which progressive
//! triggers it hits, and how each step reads for the history.
//!
//! Everything a kind journals (its bet, its drawn outcome, each committed
//! step) is a serialisable value, so that recall and resume rebuild the
//! round from the journal alone, with the same rules as live play.

use std::fmt::Debug;

use game_core::double_up::DoubleUpRule;
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::names::Lang;
use crate::picture::RoundPicture;

/// A value the journal holds: a bet, a drawn outcome, a decision or a step.
pub trait Journaled: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static {}
impl<T: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static> Journaled for T {}

/// The two bet buttons of the cabinet's panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BetControl {
    /// Lines played (reels); other kinds ignore it.
    Lines,
    /// The amount: credits per line, coins, or the ante.
    Amount,
    /// The side bet (a stud jackpot bet), on or off.
    SideBet,
}

/// How a progressive level a round wins is paid: a share of the level (in
/// millionths; the whole level by default), or a fixed sum in credits when
/// that is greater (a stud side bet's royal flush pays the greater of the
/// jackpot and its fixed sum, PSD 40, SP-18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Award {
    pub share_ppm: u32,
    pub at_least: u64,
}

impl Award {
    /// The whole level, whatever it holds.
    pub const WHOLE: Award = Award { share_ppm: meters::WHOLE_LEVEL, at_least: 0 };
}

/// Why a kind refuses a decision, in both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub pt: String,
    pub en: String,
}

impl Refusal {
    pub fn new(pt: impl Into<String>, en: impl Into<String>) -> Self {
        Refusal { pt: pt.into(), en: en.into() }
    }
}

/// An edit of a bet of many spots (roulette's cloth; baccarat's and sic
/// bo's spots), as `Command::EditBet` carries it in JSON: the kind's own
/// edit, checked by the kind against the table's limits, or one the host
/// carries out alike for every kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BetEdit<E> {
    /// The kind's own edit: a chip placed on a spot, a spot cleared, a
    /// call bet, every stake doubled.
    Kind(E),
    /// Take back the last edit since the last round began.
    Undo,
    /// Take every chip off.
    Clear,
    /// The last round's bet again, checked again against the table.
    Repeat,
}

/// The edit of a kind whose bet is set on the panel alone: none exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoEdit {}

/// What a decision does to the round.
#[derive(Clone, Debug, PartialEq)]
pub enum Decided<S> {
    /// An uncommitted choice changed (a card held or released): nothing is
    /// journaled, and a restart forgets it.
    Chosen,
    /// A decision to commit: the step, and the extra stake it takes in
    /// credits (a raise, a double, a split, an extra ball), debited once in
    /// the step's transaction and never again on resume.
    Commit { step: S, extra_stake: u64 },
}

/// One value a round's deal shows the player (issue 77, defect 1: the
/// lab tests what the player sees, read from the deal as the journal
/// records it, not only the draws behind it): a card at its place in the
/// deal, a reel's stop or the symbol it shows on a row, a pocket, a die's
/// face, a ball.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// What it is, the same for the same place in every round ("card 3",
    /// "reel 2 row 1 symbol", "pocket", "die 1").
    pub what: String,
    /// The value, from 0.
    pub value: u64,
    /// Each value's chance in a fair game, as weights.
    pub chances: Chances,
}

/// The chances of a shown value's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chances {
    /// Each of this many values alike (a card of the deck, a die's face).
    Uniform(u64),
    /// Value `v` with weight `w[v]` of their sum (a reel's stops, the
    /// symbols a strip shows).
    Weighted(std::sync::Arc<Vec<u64>>),
}

impl Shown {
    pub fn uniform(what: impl Into<String>, value: u64, of: u64) -> Shown {
        Shown { what: what.into(), value, chances: Chances::Uniform(of) }
    }

    /// Each card of `cards` at its place, named `name` and the place from 1,
    /// each alike over a deck of `deck` cards (every card of a shoe of
    /// several decks is as likely at each place).
    pub fn cards(name: &str, cards: &[game_core::cards::Card], deck: u64) -> Vec<Shown> {
        cards.iter().enumerate().map(|(i, c)| Shown::uniform(format!("{name} {}", i + 1), u64::from(c.index()), deck)).collect()
    }

    /// Each die of `dice` (faces 1–6) at its place.
    pub fn dice(name: &str, dice: &[u8]) -> Vec<Shown> {
        dice.iter().enumerate().map(|(i, &d)| Shown::uniform(format!("{name} {}", i + 1), u64::from(d.saturating_sub(1)), 6)).collect()
    }
}

/// The rules of one kind of game, as the host's lifecycle uses them.
///
/// Implementations hold the approved paytable (from its artifact) and are
/// pure: every method is a function of its arguments, with no clock, no
/// randomness but the core's `Draw`, and no money movement.
pub trait GameKind: Send + Sync + 'static {
    /// The journal's name for a round's first step (the stake and the
    /// whole drawn outcome); it identifies the kind on resume.
    const OPENING: &'static str;
    /// The bet the player sets in idle.
    type Bet: Journaled;
    /// The whole outcome, drawn by the core at the round's start.
    type Deal: Journaled;
    /// A player's decision during the round.
    type Decision: Journaled;
    /// The kind's own edit of a bet of many spots ([`NoEdit`] for a kind
    /// whose bet is set on the panel).
    type Edit: Journaled;
    /// What a committed decision journals.
    type Step: Journaled;
    /// The round as the rules and the screen see it: rebuilt from the bet,
    /// the deal and the committed steps.
    type Round: Clone + Debug + Send + Sync + 'static;

    /// The paytable's identifier (meters per game, M-25).
    fn id(&self) -> &str;
    /// The game's name for the player.
    fn name(&self) -> &str;
    /// The family of game, for the menu ("reels", "draw poker", …).
    fn family(&self, lang: Lang) -> &'static str;

    /// The bet a game opens with.
    fn opening_bet(&self) -> Self::Bet;
    /// A bet button pressed: the next option up or down, held at the ends.
    fn adjust_bet(&self, bet: &Self::Bet, control: BetControl, delta: i32) -> Self::Bet;
    /// Whether `bet` is one this paytable offers (a resumed or remote bet is checked).
    fn offers(&self, bet: &Self::Bet) -> bool;
    /// Why `bet` is not offered, naming the limit it breaks, in both
    /// languages (by default a plain refusal when `offers` says no).
    fn check_bet(&self, bet: &Self::Bet) -> Result<(), Refusal> {
        if self.offers(bet) { Ok(()) } else { Err(Refusal::new("Este jogo não oferece essa aposta", "This game does not offer that bet")) }
    }
    /// The bet after one of the kind's own edits, checked against the
    /// table (a kind of many spots overrides it; the others refuse).
    fn edit_bet(&self, _bet: &Self::Bet, _edit: &Self::Edit) -> Result<Self::Bet, Refusal> {
        Err(Refusal::new("A aposta deste jogo faz-se com os botões do painel", "This game's bet is set with the panel's buttons"))
    }
    /// The bet with every chip taken off (its panel settings kept).
    fn cleared_bet(&self, _bet: &Self::Bet) -> Self::Bet {
        self.opening_bet()
    }
    /// A-10 (issue 77): one bet on each single spot of a cloth, at the
    /// table's least stake — the bets the lab's outcome tests draw at (a
    /// cloth opens empty). None where the panel's buttons set the bet.
    fn single_bets(&self) -> Vec<Self::Bet> {
        Vec::new()
    }
    /// Credits staked when the round starts (a side bet included).
    fn stake(&self, bet: &Self::Bet) -> u64;
    /// C-26: the most credits the round this bet opens can stake in all —
    /// its stake and every extra stake a decision of the round can add
    /// (doubles and splits, insurance, a raise). Every kind declares it:
    /// the host refuses a bet whose round could reach the excessive meter
    /// increment limit at the denomination in play, when the chip is
    /// placed (issue 77), so that no legal bet stops play as a fault. An
    /// extra stake no bet can bound beforehand (bingo's extra balls, priced
    /// from the draw) is judged when it is offered instead.
    fn most_staked(&self, bet: &Self::Bet) -> u64;
    /// The credits of the stake that are a side bet: they feed side-bet
    /// pools alone (the core keeps them apart).
    /// The largest stake a bet can be, in credits, when the paytable
    /// bounds it by itself (lines × credits per line, coins × hands); a
    /// table of many spots has none (SAS LP 1F then reports FF).
    fn largest_stake(&self) -> Option<u64> {
        None
    }

    fn side_stake(&self, _bet: &Self::Bet) -> u64 {
        0
    }
    /// The least start value, in credits of the round's denomination, of a
    /// side-bet pool this game feeds (PSD 41: 10,000 times the side bet).
    fn side_pool_seed(&self) -> Option<u64> {
        None
    }
    /// Credits the player must hold to start: the stake, or more when a
    /// later decision needs an extra stake the player must be able to make.
    fn credit_needed(&self, bet: &Self::Bet) -> u64 {
        self.stake(bet)
    }
    /// The bet as the panel describes it.
    fn bet_text(&self, bet: &Self::Bet, lang: Lang) -> String;

    /// Draw the whole outcome through the core (run inside
    /// `Machine::play_round`, under the RNG lock, counted and journaled).
    fn draw(&self, bet: &Self::Bet, rng: &mut Draw<'_>) -> Result<Self::Deal, String>;
    /// The round as it stands right after the deal.
    fn open(&self, bet: &Self::Bet, deal: &Self::Deal) -> Self::Round;
    /// What the play button means in the middle of a round (draw poker:
    /// draw with the cards held), if anything.
    fn play_decision(&self, _round: &Self::Round) -> Option<Self::Decision> {
        None
    }
    /// Check a decision against the round: a refusal, an uncommitted
    /// choice (applied to `round` here), or a step to commit.
    fn decide(&self, round: &mut Self::Round, decision: &Self::Decision) -> Result<Decided<Self::Step>, Refusal>;
    /// The journal's name for a committed step.
    fn step_name(&self, step: &Self::Step) -> &'static str;
    /// Apply a committed step (live, and again on resume).
    fn apply(&self, round: &mut Self::Round, step: &Self::Step);
    /// Whether the round needs no further decision.
    fn decided(&self, round: &Self::Round) -> bool;
    /// Whether the screen animates the outcome before it may be settled
    /// (the reels spin): the round then waits for the reveal.
    fn animated(&self) -> bool {
        false
    }
    /// Whether autoplay (M-32) may play this game: only where a round needs
    /// no decision of the player.
    fn autoplay(&self) -> bool {
        false
    }

    /// Whether `bet` can be staked at `denom`. A kind whose payouts come
    /// to fractions of a credit (baccarat's 5% commission) takes only the
    /// stakes whose every return is a whole number of cents, and names the
    /// step it needs: nothing is rounded, so no cent is lost or created.
    fn check_stake(&self, _bet: &Self::Bet, _denom: Cents) -> Result<(), Refusal> {
        Ok(())
    }

    /// Credits the decided round wins, before any double-up (a kind that
    /// pays fractions of a credit gives the whole credits here, for the
    /// screen, and its exact win in [`GameKind::win_cents`]).
    fn win(&self, round: &Self::Round) -> u64;
    /// The decided round's win in cents at `denom`, before any double-up:
    /// what the core settles. `win` × `denom`, unless the kind pays
    /// fractions of a credit; None when it overflows.
    fn win_cents(&self, round: &Self::Round, denom: Cents) -> Option<Cents> {
        self.win(round).checked_mul(denom)
    }
    /// Credits staked in the round, the opening stake and every extra.
    fn staked(&self, round: &Self::Round) -> u64;
    /// The win's components for the journal and recall (M-15), in cents.
    fn components(&self, round: &Self::Round, denom: Cents) -> Vec<WinComponent>;
    /// The double-up the paytable offers on a win, if any (M-11).
    fn double_up(&self) -> Option<DoubleUpRule> {
        None
    }
    /// Whether the decided round wins a progressive level with `trigger` (M-18).
    fn hits(&self, round: &Self::Round, trigger: &Trigger) -> bool;
    /// The round's committed outcome as a linked-pool claim carries it, for
    /// the controller to check against the game's approved paytable
    /// (issue 35, attack 1); `Null` for a kind whose outcomes the
    /// controller does not check (its linked awards are then refused).
    fn claim(&self, _round: &Self::Round, _denom: Cents) -> serde_json::Value {
        serde_json::Value::Null
    }
    /// Issue 46: the bet a linked controller records when a round of this
    /// bet is committed to it before it is drawn, and draws again from the
    /// revealed key; `None` for a kind whose outcomes the controller does
    /// not draw (its rounds are drawn from the live generator, and its
    /// linked awards are refused).
    fn committed_bet(&self, _bet: &Self::Bet, _denom: Cents) -> Option<linked_controller::ReelBet> {
        None
    }
    /// How a standalone level the round wins with `trigger` is paid.
    fn award(&self, _round: &Self::Round, _trigger: &Trigger) -> Award {
        Award::WHOLE
    }
    /// B-16: the bet configuration whose RTP the approved paytable proves
    /// (the artifact's key: lines, coins, ante) and its unit's name; None
    /// for a kind whose round mixes bets of several RTPs (one category).
    fn rtp_key(&self, _bet: &Self::Bet) -> Option<(u64, &'static str)> {
        None
    }
    /// B-16 (issue 77): for a kind whose artifact's RTP table lists its
    /// bets, not bet configurations (blackjack's: the game, the game
    /// without its bonus, insurance), the key of the round's own wager in
    /// that table and the wager's name. Without it (and without
    /// [`Self::rtp_key`]) a round is one category at the table's lowest.
    fn main_wager(&self) -> Option<(u64, &'static str)> {
        None
    }
    /// B-16 (issue 77): where a decision's extra stake is a bet of its own
    /// (blackjack's insurance), its key in the artifact's RTP table and its
    /// name: it is metered at that bet's RTP. None: the extra stake is the
    /// round's bet's (a double, a split, a raise).
    fn step_wager(&self, _step: &Self::Step) -> Option<(u64, &'static str)> {
        None
    }
    /// B-16 (issue 77): the name of the side bet a round stakes beside its
    /// wager ([`Self::side_stake`]: stud's jackpot bet), metered at the
    /// side-bet RTP its artifact proves; None for a kind whose side bet is
    /// one of its table's bets ([`Self::wagers`]) or that has none.
    fn side_wager(&self) -> Option<&'static str> {
        None
    }
    /// B-16 (issue 77): the credits `bet` stakes on each of the bets a
    /// table game's artifact proves an RTP for, by the artifact's name of
    /// the bet (`paytables::artifact::Artifact::bet_rtp`); empty for a kind
    /// whose round is one wager ([`Self::rtp_key`]).
    fn wagers(&self, _bet: &Self::Bet) -> Vec<(String, u64)> {
        Vec::new()
    }
    /// The credits the round won that the paytable counts at a fixed sum
    /// but a progressive level pays (issue 50: the hold-and-spin's
    /// progressive grand), left out of [`Self::win`]: whatever pool pays it
    /// pays at least this, and it is paid as a fixed sum when no pool did.
    fn pooled_minimum(&self, _round: &Self::Round) -> u64 {
        0
    }
    /// G-50: whether a round of `bet` can win what `trigger` wins (the
    /// largest bet or the most coins where the trigger asks for them), by
    /// the call that judges the round ([`Self::hits`]). A kind whose
    /// triggers ask nothing of the bet can win them at any bet the pool
    /// takes.
    fn eligible(&self, _bet: &Self::Bet, _trigger: &Trigger) -> bool {
        true
    }
    /// The paytable's own name for what a trigger asks (a poker hand), if it has one.
    fn trigger_name(&self, _trigger: &Trigger) -> Option<String> {
        None
    }
    /// What the deal shows the player, value by value, with each value's
    /// chance in a fair game: for the lab's outcome tests (issue 77,
    /// defect 1).
    fn shown(&self, deal: &Self::Deal) -> Vec<Shown>;
    /// The finished round in one line, for the history (M-34).
    fn describe(&self, round: &Self::Round, lang: Lang) -> String;
    /// The finished round as the player saw it, for the history to draw
    /// with the game's art (M-34; issue 45, defect 4).
    fn picture(&self, round: &Self::Round, lang: Lang) -> RoundPicture;
}
