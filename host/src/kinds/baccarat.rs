//! Baccarat ponto e banca on the host: the bet is a layout of chips on the
//! table's spots (ponto, banca, empate, and the pairs where offered), each
//! within PB 8's limits; the coup's six cards are drawn when betting
//! closes and committed with the stake before the first is turned (a
//! killed coup resumes and shows the same cards). No decision: the
//! tableau plays both hands.
//!
//! Money: a banca win pays 0.95:1 (PB 32 a), half on a five (PB 32 b) or
//! on a six (Macau's no-commission), fractions of a credit. Nothing is rounded: a banca stake is taken only
//! in whole steps of [`Spot::cent_step`] cents (20 with the 5%
//! commission), so every return is a whole number of cents, and the win is
//! settled in cents ([`GameKind::win_cents`]).

use game_core::baccarat::{BaccaratGame, CARDS_A_COUP, Coup, Spot, Winner};
use game_core::cards::Card;
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::layout::{ChipLayout, SpotEdit, chip_offered, within};
use super::{NoDecision, cards, step};
use crate::kind::{BetControl, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{Hand, RoundPicture, Scene};

pub type BaccaratBet = ChipLayout<Spot>;

/// The coup's six cards, in the order the shoe gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shoe {
    pub cards: [Card; CARDS_A_COUP],
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaccaratRound {
    pub bet: BaccaratBet,
    pub coup: Coup,
    /// The table's banca deduction and tie odds.
    pub payouts: game_core::baccarat::Payouts,
}

impl BaccaratRound {
    /// Each spot with its stake and what it returns in cents at `denom`
    /// (None: not whole cents, which `check_stake` never lets through).
    pub fn settlement(&self, denom: Cents) -> Vec<(Spot, u64, Option<Cents>)> {
        self.bet.spots.iter().map(|&(s, stake)| (s, stake, stake.checked_mul(denom).and_then(|c| s.returned_cents(c, &self.coup, self.payouts)))).collect()
    }
}

/// The result as the screen and the history announce it.
pub fn announce(coup: &Coup, lang: Lang) -> String {
    let (p, b) = (coup.player_total(), coup.banker_total());
    match coup.winner() {
        Winner::Player => format!("{} {p} {} {b}", lang.t("PONTO GANHA"), lang.t("contra")),
        Winner::Banker => format!("{} {b} {} {p}", lang.t("BANCA GANHA"), lang.t("contra")),
        Winner::Tie => format!("{} {p}", lang.t("EMPATE A")),
    }
}

pub struct Baccarat(pub BaccaratGame);

impl GameKind for Baccarat {
    const OPENING: &'static str = "baccarat-coup";
    type Bet = BaccaratBet;
    type Deal = Shoe;
    type Decision = NoDecision;
    type Edit = SpotEdit<Spot>;
    type Step = NoDecision;
    type Round = BaccaratRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("bacará")
    }

    fn opening_bet(&self) -> BaccaratBet {
        BaccaratBet::empty(self.0.chips.first().copied().unwrap_or(self.0.minimum))
    }

    fn single_bets(&self) -> Vec<Self::Bet> {
        super::layout::single_bets(self.opening_bet().chip, self.0.minimum, self.0.spots(), |b| self.check_bet(b).is_ok())
    }

    fn adjust_bet(&self, bet: &BaccaratBet, control: BetControl, delta: i32) -> BaccaratBet {
        match control {
            BetControl::Amount => BaccaratBet { chip: step(&self.0.chips, bet.chip, delta), spots: bet.spots.clone() },
            BetControl::Lines | BetControl::SideBet => bet.clone(),
        }
    }

    fn offers(&self, bet: &BaccaratBet) -> bool {
        self.check_bet(bet).is_ok()
    }

    /// Each spot one the table offers (the pairs only where the paytable
    /// has them, PB 19), once, within the minimum and PB 8's maximum.
    fn check_bet(&self, bet: &BaccaratBet) -> Result<(), Refusal> {
        chip_offered(bet.chip, &self.0.chips)?;
        let offered = self.0.spots();
        for (i, &(s, stake)) in bet.spots.iter().enumerate() {
            if !offered.contains(&s) || bet.spots[..i].iter().any(|(d, _)| *d == s) {
                return Err(Refusal::new(format!("{} não é uma aposta desta mesa", s.name(true)), format!("{} is not a bet of this table", s.name(false))));
            }
            // PB 8: the table's maximum per spot.
            within(s.name(true), s.name(false), stake, self.0.minimum, self.0.maximum(s))?;
        }
        Ok(())
    }

    /// A banca stake in whole steps of its cent step (20 cents with the
    /// 5% commission): its return is then whole cents (decisions.md, Money).
    fn check_stake(&self, bet: &BaccaratBet, denom: Cents) -> Result<(), Refusal> {
        for &(s, stake) in &bet.spots {
            let step = s.cent_step(self.0.commission);
            if stake.checked_mul(denom).is_none_or(|c| !c.is_multiple_of(step)) {
                return Err(Refusal::new(
                    format!("{}: a aposta tem de ser múltipla de {step} cêntimos, para a comissão ser em cêntimos inteiros", s.name(true)),
                    format!("{}: the stake must be a multiple of {step} cents, so that the commission is whole cents", s.name(false)),
                ));
            }
        }
        Ok(())
    }

    fn edit_bet(&self, bet: &BaccaratBet, edit: &SpotEdit<Spot>) -> Result<BaccaratBet, Refusal> {
        let next = bet.edited(edit, |s, pt| s.name(pt).to_owned())?;
        self.check_bet(&next)?;
        Ok(next)
    }

    fn cleared_bet(&self, bet: &BaccaratBet) -> BaccaratBet {
        BaccaratBet::empty(bet.chip)
    }

    fn stake(&self, bet: &BaccaratBet) -> u64 {
        bet.staked()
    }

    /// B-16: each spot's stake at that spot's RTP on this table's shoe and
    /// payouts.
    fn wagers(&self, bet: &BaccaratBet) -> Vec<(String, u64)> {
        super::layout::spot_wagers(bet, Spot::name)
    }

    /// C-26: no decision adds a stake: the round stakes its bet.
    fn most_staked(&self, bet: &BaccaratBet) -> u64 {
        self.stake(bet)
    }

    fn bet_text(&self, bet: &BaccaratBet, lang: Lang) -> String {
        let spots: Vec<String> = bet.spots.iter().map(|(s, v)| format!("{} {v}", s.name(lang == Lang::Pt))).collect();
        if spots.is_empty() { format!("{} {}", lang.t("ficha"), bet.chip) } else { spots.join(", ") }
    }

    fn draw(&self, _bet: &BaccaratBet, rng: &mut Draw<'_>) -> Result<Shoe, String> {
        Ok(Shoe { cards: self.0.deal(rng) })
    }

    fn open(&self, bet: &BaccaratBet, deal: &Shoe) -> BaccaratRound {
        BaccaratRound { bet: bet.clone(), coup: Coup::play(&deal.cards), payouts: self.0.payouts() }
    }

    super::decided_by_the_draw!(BaccaratRound);

    /// The whole credits of the win, for the screen; the core settles
    /// [`Baccarat::win_cents`].
    fn win(&self, round: &BaccaratRound) -> u64 {
        round
            .bet
            .spots
            .iter()
            .map(|&(s, stake)| {
                let (n, d) = s.returns(&round.coup, round.payouts);
                stake.saturating_mul(n) / d
            })
            .fold(0u64, u64::saturating_add)
    }

    fn win_cents(&self, round: &BaccaratRound, denom: Cents) -> Option<Cents> {
        round.settlement(denom).into_iter().try_fold(0u64, |t, (_, _, r)| t.checked_add(r?))
    }

    fn staked(&self, round: &BaccaratRound) -> u64 {
        round.bet.staked()
    }

    fn components(&self, round: &BaccaratRound, denom: Cents) -> Vec<WinComponent> {
        round
            .settlement(denom)
            .into_iter()
            .filter_map(|(s, stake, r)| r.filter(|&c| c > 0).map(|c| WinComponent { label: format!("{} ({stake} staked)", s.name(false)), amount: c }))
            .collect()
    }

    fn hits(&self, _round: &BaccaratRound, _trigger: &Trigger) -> bool {
        false
    }

    /// The coup's cards at their places, each card of the deck alike.
    fn shown(&self, deal: &Shoe) -> Vec<Shown> {
        Shown::cards("card", &deal.cards, 52)
    }

    fn describe(&self, round: &BaccaratRound, lang: Lang) -> String {
        let c = &round.coup;
        format!("{} — {}: {} / {}: {}", announce(c, lang), lang.t("ponto"), cards(&c.player), lang.t("banca|banker"), cards(&c.banker))
    }

    fn picture(&self, round: &BaccaratRound, lang: Lang) -> RoundPicture {
        let c = &round.coup;
        let hands = vec![Hand::new(lang.t("PONTO"), &c.player), Hand::new(lang.t("BANCA|banker"), &c.banker)];
        RoundPicture { scene: Scene::Cards(hands), caption: announce(c, lang) }
    }
}
