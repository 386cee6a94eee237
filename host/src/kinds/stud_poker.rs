//! Póquer sem descarte (casino stud poker): the deal draws both hands; the
//! player raises ("vou", twice the ante, an extra stake committed with the
//! decision) or folds ("passo"); the dealer's hand is then shown and the
//! round settles as game-core settles it (PSD 9–33). With the ante the
//! player may place the jackpot side bet (PSD 35–42): its fixed sums are
//! part of the round's win, its royal and straight flushes win the greater
//! of their fixed sum and their share of the side-bet pool (SP-18).

use game_core::poker::{Category, evaluate};
use game_core::progressive::Trigger;
use game_core::stud_poker::{Decision, JackpotRule, Outcome, Settlement, StudDeal, StudPokerGame};
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::{cards, step};
use crate::kind::{Award, BetControl, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{Hand, RoundPicture, Scene};

/// The bet: the ante in credits, and the jackpot side bet (PSD 36–39: a
/// fixed chip, only with an ante, only before the deal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudBet {
    pub ante: u64,
    #[serde(default)]
    pub jackpot: bool,
}

/// The committed decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudStep {
    pub decision: Decision,
}

/// A póquer sem descarte round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StudRound {
    pub ante: u64,
    /// The side bet placed, in credits (0: none).
    pub side_bet: u64,
    pub deal: StudDeal,
    /// The decision and the settlement it leads to, once committed.
    pub settled: Option<(Decision, Settlement)>,
}

/// A póquer sem descarte game (its approved paytable).
pub struct StudPoker(pub StudPokerGame);

impl StudPoker {
    /// The side bet's rule when the round placed it and its hand may win
    /// (PSD 40: whether or not the dealer qualifies; on a fold only where
    /// the paytable says so, PSD-T11).
    fn jackpot_in_play(&self, round: &StudRound) -> Option<&JackpotRule> {
        let rule = self.0.jackpot.as_ref().filter(|_| round.side_bet > 0)?;
        let folded = matches!(round.settled, Some((Decision::Fold, _)));
        (!folded || rule.pays_on_fold).then_some(rule)
    }

    /// The side bet's fixed sum for the player's hand, in credits: four of
    /// a kind, full house and flush (the flushes are paid from the pool).
    fn jackpot_fixed(&self, round: &StudRound) -> u64 {
        let Some(rule) = self.jackpot_in_play(round) else { return 0 };
        match evaluate(&round.deal.player).category() {
            Category::FourOfAKind => rule.four_of_a_kind,
            Category::FullHouse => rule.full_house,
            Category::Flush => rule.flush,
            _ => 0,
        }
    }
}

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

/// The outcome as the player's history says it.
fn outcome_name(o: Outcome, lang: Lang) -> &'static str {
    match o {
        Outcome::Folded => lang.t("desistiu"),
        Outcome::DealerDoesNotQualify => lang.t("a banca não se qualifica"),
        Outcome::PlayerWins => lang.t("o jogador ganha"),
        Outcome::DealerWins => lang.t("a banca ganha"),
        Outcome::Push => lang.t("empate"),
    }
}

impl GameKind for StudPoker {
    const OPENING: &'static str = "stud-deal";
    type Bet = StudBet;
    type Deal = StudDeal;
    type Decision = Decision;
    type Edit = crate::kind::NoEdit;
    type Step = StudStep;
    type Round = StudRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("contra a banca")
    }

    fn opening_bet(&self) -> StudBet {
        StudBet { ante: self.0.antes.first().copied().unwrap_or(1), jackpot: false }
    }

    fn adjust_bet(&self, bet: &StudBet, control: BetControl, delta: i32) -> StudBet {
        match control {
            BetControl::Amount => StudBet { ante: step(&self.0.antes, bet.ante, delta), ..*bet },
            BetControl::SideBet => StudBet { jackpot: !bet.jackpot && self.0.jackpot.is_some(), ..*bet },
            BetControl::Lines => *bet,
        }
    }

    fn offers(&self, bet: &StudBet) -> bool {
        self.0.antes.contains(&bet.ante) && (!bet.jackpot || self.0.jackpot.is_some())
    }

    fn stake(&self, bet: &StudBet) -> u64 {
        bet.ante.saturating_add(self.side_stake(bet))
    }

    /// C-26: the ante, the raise (twice the ante) and the jackpot bet.
    fn most_staked(&self, bet: &StudBet) -> u64 {
        self.credit_needed(bet)
    }

    /// B-16: the ante configuration whose RTP the approved paytable proves
    /// (its artifact's key), the raise made on it included.
    fn rtp_key(&self, bet: &StudBet) -> Option<(u64, &'static str)> {
        Some((bet.ante, "credits ante"))
    }

    /// B-16 (issue 77): the jackpot bet is metered at its own return (its
    /// artifact's side-bet RTP at the jackpot's start value), the ante and
    /// the raise at the game's.
    fn side_wager(&self) -> Option<&'static str> {
        Some("jackpot")
    }

    fn side_stake(&self, bet: &StudBet) -> u64 {
        match &self.0.jackpot {
            Some(rule) if bet.jackpot => rule.bet_credits,
            _ => 0,
        }
    }

    /// PSD 41, seed 004 §10: the jackpot starts at 10,000 × the side bet.
    fn side_pool_seed(&self) -> Option<u64> {
        self.0.jackpot.as_ref().map(|j| j.bet_credits.saturating_mul(10_000))
    }

    /// The ante, the side bet and the raise (twice the ante): the player
    /// can always choose to raise.
    fn credit_needed(&self, bet: &StudBet) -> u64 {
        bet.ante.saturating_mul(3).saturating_add(self.side_stake(bet))
    }

    fn bet_text(&self, bet: &StudBet, lang: Lang) -> String {
        let jackpot = match self.side_stake(bet) {
            0 => String::new(),
            side => format!(" + {} {side} {}", lang.t("jackpot"), lang.t("créd.")),
        };
        format!("{} {} {}{jackpot} ({} {})", lang.t("ante"), bet.ante, lang.t("créd."), lang.t("aposta 2×:"), bet.ante.saturating_mul(2))
    }

    fn draw(&self, _bet: &StudBet, rng: &mut Draw<'_>) -> Result<StudDeal, String> {
        Ok(self.0.deal(rng))
    }

    fn open(&self, bet: &StudBet, deal: &StudDeal) -> StudRound {
        StudRound { ante: bet.ante, side_bet: self.side_stake(bet), deal: *deal, settled: None }
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

    /// The ante and raise as settled, and the side bet's fixed sum.
    fn win(&self, round: &StudRound) -> u64 {
        round.settled.map_or(0, |(_, s)| s.returned).saturating_add(self.jackpot_fixed(round))
    }

    fn staked(&self, round: &StudRound) -> u64 {
        round.settled.map_or(round.ante, |(_, s)| s.staked).saturating_add(round.side_bet)
    }

    fn components(&self, round: &StudRound, denom: Cents) -> Vec<WinComponent> {
        let mut c = Vec::new();
        if let Some((_, s)) = round.settled.filter(|(_, s)| s.returned > 0) {
            c.push(WinComponent { label: format!("{} ({})", outcome_label(s.outcome), s.player.name_en()), amount: s.returned * denom });
        }
        let fixed = self.jackpot_fixed(round);
        if fixed > 0 {
            c.push(WinComponent { label: format!("jackpot side bet ({})", evaluate(&round.deal.player).category().name_en()), amount: fixed * denom });
        }
        c
    }

    /// The side bet's royal and straight flushes win the side-bet pool.
    fn hits(&self, round: &StudRound, trigger: &Trigger) -> bool {
        matches!(trigger, Trigger::StudSideBet)
            && self.jackpot_in_play(round).is_some()
            && matches!(evaluate(&round.deal.player).category(), Category::RoyalFlush | Category::StraightFlush)
    }

    /// SP-18: the royal flush takes the greater of the whole pool and its
    /// fixed sum, the straight flush the greater of 10% and its fixed sum.
    fn award(&self, round: &StudRound, _trigger: &Trigger) -> Award {
        let Some(rule) = self.jackpot_in_play(round) else { return Award::WHOLE };
        match evaluate(&round.deal.player).category() {
            Category::StraightFlush => Award { share_ppm: meters::WHOLE_LEVEL / 10, at_least: rule.straight_flush_fixed },
            _ => Award { share_ppm: meters::WHOLE_LEVEL, at_least: rule.royal_fixed },
        }
    }

    /// The player's five cards and the dealer's at their places.
    fn shown(&self, deal: &StudDeal) -> Vec<Shown> {
        let mut out = Shown::cards("player card", &deal.player, 52);
        out.extend(Shown::cards("dealer card", &deal.dealer, 52));
        out
    }

    fn describe(&self, round: &StudRound, lang: Lang) -> String {
        let Some((_, s)) = round.settled else { return cards(&round.deal.player) };
        let name = |c: game_core::poker::Category| if lang == Lang::En { c.name_en() } else { c.name_pt() };
        format!("{} {} — {} {} — {}", cards(&round.deal.player), name(s.player), cards(&round.deal.dealer), name(s.dealer), outcome_label(s.outcome))
    }

    /// The player's hand and, once the round is settled, the dealer's
    /// (shown at the decision, SP 10), with the hands' names and the outcome.
    fn picture(&self, round: &StudRound, lang: Lang) -> RoundPicture {
        let mut hands = vec![Hand::new(lang.t("JOGADOR"), &round.deal.player)];
        let caption = match round.settled {
            Some((_, s)) => {
                hands.push(Hand::new(lang.t("BANCA|dealer"), &round.deal.dealer));
                let name = |c: Category| if lang == Lang::En { c.name_en() } else { c.name_pt() };
                format!("{} / {} — {}", name(s.player), name(s.dealer), outcome_name(s.outcome, lang))
            }
            None => String::new(),
        };
        RoundPicture { scene: Scene::Cards(hands), caption }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use game_core::stud_poker::{JackpotRule, TieRule};

    use super::*;

    fn game(pays_on_fold: bool) -> StudPoker {
        StudPoker(StudPokerGame {
            id: "stud".into(),
            name: "Stud".into(),
            raise_pays: [1, 1, 2, 3, 4, 5, 7, 20, 50, 100],
            tie_rule: TieRule::SuitOrder,
            antes: vec![1, 5],
            max_win_credits: None,
            jackpot: Some(JackpotRule {
                bet_credits: 1,
                royal_fixed: 10_000,
                straight_flush_fixed: 1_000,
                four_of_a_kind: 500,
                full_house: 250,
                flush: 150,
                start_value_credits: 10_000,
                pays_on_fold,
            }),
        })
    }

    fn round(g: &StudPoker, player: &str, jackpot: bool, decision: Decision) -> StudRound {
        let h = |s: &str| game_core::cards::parse_hand(&[s.to_owned()]).unwrap();
        let mut r = g.open(&StudBet { ante: 5, jackpot }, &StudDeal { player: h(player), dealer: h("2c 3d 5h 8s 9c") });
        g.apply(&mut r, &StudStep { decision });
        r
    }

    #[test]
    fn the_side_bet_is_staked_beside_the_ante_and_needs_one() {
        let g = game(true);
        let bet = g.adjust_bet(&g.opening_bet(), BetControl::SideBet, 1);
        assert_eq!(bet, StudBet { ante: 1, jackpot: true });
        assert_eq!((g.stake(&bet), g.side_stake(&bet), g.credit_needed(&bet)), (2, 1, 4));
        assert_eq!(g.adjust_bet(&bet, BetControl::SideBet, 1), StudBet { ante: 1, jackpot: false }, "the button toggles it");
        assert_eq!(g.side_pool_seed(), Some(10_000), "PSD 41");
        let plain = StudPoker(StudPokerGame { jackpot: None, ..game(true).0 });
        assert!(!plain.offers(&bet), "no side bet on a paytable without one");
        assert!(!plain.adjust_bet(&plain.opening_bet(), BetControl::SideBet, 1).jackpot);
    }

    #[test]
    fn the_side_bet_pays_fixed_sums_and_the_flushes_win_the_pool() {
        let g = game(true);
        let t = Trigger::StudSideBet;
        // Royal flush: the pool, or 10,000 credits when greater (SP-18).
        let royal = round(&g, "As Ks Qs Js 10s", true, Decision::Raise);
        assert!(g.hits(&royal, &t));
        assert_eq!(g.award(&royal, &t), Award { share_ppm: meters::WHOLE_LEVEL, at_least: 10_000 });
        // Straight flush: 10% of the pool, or 1,000 credits.
        let sf = round(&g, "9h 8h 7h 6h 5h", true, Decision::Raise);
        assert!(g.hits(&sf, &t));
        assert_eq!(g.award(&sf, &t), Award { share_ppm: 100_000, at_least: 1_000 });
        // Four of a kind: a fixed 500 credits with the round, no pool award.
        let four = round(&g, "9h 9d 9s 9c 5h", true, Decision::Raise);
        assert!(!g.hits(&four, &t));
        let settled = four.settled.unwrap().1;
        assert_eq!(g.win(&four), settled.returned + 500);
        assert_eq!(g.staked(&four), 3 * 5 + 1);
        assert_eq!(g.components(&four, 2).last().unwrap().amount, 1_000);
        // Without the side bet: nothing of it.
        let plain = round(&g, "9h 9d 9s 9c 5h", false, Decision::Raise);
        assert_eq!(g.win(&plain), settled.returned);
        assert!(!g.hits(&round(&g, "As Ks Qs Js 10s", false, Decision::Raise), &t));
    }

    #[test]
    fn a_folded_hand_wins_the_side_bet_only_where_the_paytable_says() {
        let t = Trigger::StudSideBet;
        let pays = game(true);
        let flush = round(&pays, "2h 9h Jh 4h 6h", true, Decision::Fold);
        assert_eq!(pays.win(&flush), 150, "the ante is lost, the flush's fixed sum is paid");
        assert!(pays.hits(&round(&pays, "As Ks Qs Js 10s", true, Decision::Fold), &t));
        let keeps = game(false);
        assert_eq!(keeps.win(&round(&keeps, "2h 9h Jh 4h 6h", true, Decision::Fold)), 0);
        assert!(!keeps.hits(&round(&keeps, "As Ks Qs Js 10s", true, Decision::Fold), &t));
    }
}
