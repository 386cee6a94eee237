//! Póquer sem descarte (casino stud poker): the deal draws both hands; the
//! player raises ("vou", twice the ante, an extra stake committed with the
//! decision) or folds ("passo"); the dealer's hand is then shown and the
//! round settles as game-core settles it (PSD 9–33).

use game_core::progressive::Trigger;
use game_core::stud_poker::{Decision, Outcome, Settlement, StudDeal, StudPokerGame};
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::{cards, step};
use crate::kind::{BetControl, Decided, GameKind, Refusal};
use crate::names::Lang;

/// The committed decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudStep {
    pub decision: Decision,
}

/// A póquer sem descarte round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StudRound {
    pub ante: u64,
    pub deal: StudDeal,
    /// The decision and the settlement it leads to, once committed.
    pub settled: Option<(Decision, Settlement)>,
}

/// A póquer sem descarte game (its approved paytable).
pub struct StudPoker(pub StudPokerGame);

/// How a settlement reads in the journal (English, for the lab).
fn outcome_label(o: Outcome) -> &'static str {
    match o {
        Outcome::Folded => "fold",
        Outcome::DealerDoesNotQualify => "dealer does not qualify: ante 1:1, raise returned",
        Outcome::PlayerWins => "player wins",
        Outcome::DealerWins => "dealer wins",
        Outcome::Push => "push",
    }
}

impl GameKind for StudPoker {
    const OPENING: &'static str = "stud-deal";
    type Bet = u64;
    type Deal = StudDeal;
    type Decision = Decision;
    type Step = StudStep;
    type Round = StudRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.pick("contra a banca", "against the house")
    }

    fn opening_bet(&self) -> u64 {
        self.0.antes.first().copied().unwrap_or(1)
    }

    fn adjust_bet(&self, ante: &u64, control: BetControl, delta: i32) -> u64 {
        match control {
            BetControl::Amount => step(&self.0.antes, *ante, delta),
            BetControl::Lines => *ante,
        }
    }

    fn offers(&self, ante: &u64) -> bool {
        self.0.antes.contains(ante)
    }

    fn stake(&self, ante: &u64) -> u64 {
        *ante
    }

    /// The ante and the raise (twice the ante): the player can always
    /// choose to raise.
    fn credit_needed(&self, ante: &u64) -> u64 {
        ante.saturating_mul(3)
    }

    fn bet_text(&self, ante: &u64, lang: Lang) -> String {
        format!("{} {ante} {} ({} {})", lang.pick("ante", "ante"), lang.pick("créd.", "cr"), lang.pick("aposta 2×:", "raise 2×:"), ante.saturating_mul(2))
    }

    fn draw(&self, _ante: &u64, rng: &mut Draw<'_>) -> Result<StudDeal, String> {
        Ok(self.0.deal(rng))
    }

    fn open(&self, ante: &u64, deal: &StudDeal) -> StudRound {
        StudRound { ante: *ante, deal: *deal, settled: None }
    }

    fn decide(&self, round: &mut StudRound, decision: &Decision) -> Result<Decided<StudStep>, Refusal> {
        if round.settled.is_some() {
            return Err(Refusal::new("A decisão já foi tomada", "The decision is already made"));
        }
        let extra_stake = if *decision == Decision::Raise { round.ante.saturating_mul(2) } else { 0 };
        Ok(Decided::Commit { step: StudStep { decision: *decision }, extra_stake })
    }

    fn step_name(&self, step: &StudStep) -> &'static str {
        match step.decision {
            Decision::Raise => "raise",
            Decision::Fold => "fold",
        }
    }

    fn apply(&self, round: &mut StudRound, step: &StudStep) {
        round.settled = Some((step.decision, self.0.settle(&round.deal, round.ante, step.decision)));
    }

    fn decided(&self, round: &StudRound) -> bool {
        round.settled.is_some()
    }

    fn win(&self, round: &StudRound) -> u64 {
        round.settled.map_or(0, |(_, s)| s.returned)
    }

    fn staked(&self, round: &StudRound) -> u64 {
        round.settled.map_or(round.ante, |(_, s)| s.staked)
    }

    fn components(&self, round: &StudRound, denom: Cents) -> Vec<WinComponent> {
        match round.settled {
            Some((_, s)) if s.returned > 0 => {
                vec![WinComponent { label: format!("{} ({})", outcome_label(s.outcome), s.player.name_en()), amount: s.returned * denom }]
            }
            _ => Vec::new(),
        }
    }

    fn hits(&self, _round: &StudRound, _trigger: &Trigger) -> bool {
        false
    }

    fn describe(&self, round: &StudRound, lang: Lang) -> String {
        let Some((_, s)) = round.settled else { return cards(&round.deal.player) };
        let name = |c: game_core::poker::Category| if lang == Lang::En { c.name_en() } else { c.name_pt() };
        format!("{} {} — {} {} — {}", cards(&round.deal.player), name(s.player), cards(&round.deal.dealer), name(s.dealer), outcome_label(s.outcome))
    }
}
