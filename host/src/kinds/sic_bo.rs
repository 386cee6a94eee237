//! Cussec / sic bo on the host: the bet is a layout of chips on the 50
//! spots of the cloth, each within the table's minimum and maximum; one
//! throw of three dice, committed with the stake before the dome lifts,
//! settles every spot at its payout (rule 8; small and big lose on a
//! triple, rule 9).

use game_core::dice::sic_bo::{SicBoGame, Spot};
use game_core::dice::{Throw, throw};
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::layout::{ChipLayout, SpotEdit, chip_offered, within};
use super::{NoDecision, step};
use crate::kind::{BetControl, Decided, GameKind, Refusal};
use crate::names::Lang;
use crate::picture::{RoundPicture, Scene};

pub type SicBoBet = ChipLayout<Spot>;

/// The three dice under the dome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dome {
    pub dice: Throw,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SicBoRound {
    pub bet: SicBoBet,
    pub dice: Throw,
}

impl SicBoRound {
    pub fn settlement(&self) -> Vec<(Spot, u64, u64)> {
        self.bet.spots.iter().map(|&(s, stake)| (s, stake, s.returned(stake, &self.dice))).collect()
    }
}

pub struct SicBo(pub SicBoGame);

impl GameKind for SicBo {
    const OPENING: &'static str = "sic-bo-throw";
    type Bet = SicBoBet;
    type Deal = Dome;
    type Decision = NoDecision;
    type Edit = SpotEdit<Spot>;
    type Step = NoDecision;
    type Round = SicBoRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("dados")
    }

    fn opening_bet(&self) -> SicBoBet {
        SicBoBet::empty(self.0.chips.first().copied().unwrap_or(self.0.minimum))
    }

    fn adjust_bet(&self, bet: &SicBoBet, control: BetControl, delta: i32) -> SicBoBet {
        match control {
            BetControl::Amount => SicBoBet { chip: step(&self.0.chips, bet.chip, delta), spots: bet.spots.clone() },
            BetControl::Lines | BetControl::SideBet => bet.clone(),
        }
    }

    fn offers(&self, bet: &SicBoBet) -> bool {
        self.check_bet(bet).is_ok()
    }

    fn check_bet(&self, bet: &SicBoBet) -> Result<(), Refusal> {
        chip_offered(bet.chip, &self.0.chips)?;
        for (i, &(s, stake)) in bet.spots.iter().enumerate() {
            if !s.on_cloth() || bet.spots[..i].iter().any(|(d, _)| *d == s) {
                return Err(Refusal::new(format!("{} não é uma aposta desta mesa", s.name(true)), format!("{} is not a bet of this table", s.name(false))));
            }
            within(&s.name(true), &s.name(false), stake, self.0.minimum, self.0.maximum)?;
        }
        Ok(())
    }

    fn edit_bet(&self, bet: &SicBoBet, edit: &SpotEdit<Spot>) -> Result<SicBoBet, Refusal> {
        let next = bet.edited(edit, |s, pt| s.name(pt))?;
        self.check_bet(&next)?;
        Ok(next)
    }

    fn cleared_bet(&self, bet: &SicBoBet) -> SicBoBet {
        SicBoBet::empty(bet.chip)
    }

    fn stake(&self, bet: &SicBoBet) -> u64 {
        bet.staked()
    }

    fn bet_text(&self, bet: &SicBoBet, lang: Lang) -> String {
        format!("{} — {} {}", lang.count(bet.spots.len() as u64, "aposta", "apostas"), lang.t("ficha"), bet.chip)
    }

    fn draw(&self, _bet: &SicBoBet, rng: &mut Draw<'_>) -> Result<Dome, String> {
        Ok(Dome { dice: throw(rng) })
    }

    fn open(&self, bet: &SicBoBet, deal: &Dome) -> SicBoRound {
        SicBoRound { bet: bet.clone(), dice: deal.dice }
    }

    super::decided_by_the_draw!(SicBoRound);

    fn win(&self, round: &SicBoRound) -> u64 {
        round.settlement().iter().fold(0u64, |t, (_, _, r)| t.saturating_add(*r))
    }

    fn staked(&self, round: &SicBoRound) -> u64 {
        round.bet.staked()
    }

    fn components(&self, round: &SicBoRound, denom: Cents) -> Vec<WinComponent> {
        round
            .settlement()
            .into_iter()
            .filter(|(_, _, r)| *r > 0)
            .map(|(s, stake, r)| WinComponent { label: format!("{} ({stake} staked)", s.name(false)), amount: r.saturating_mul(denom) })
            .collect()
    }

    fn hits(&self, _round: &SicBoRound, _trigger: &Trigger) -> bool {
        false
    }

    fn describe(&self, round: &SicBoRound, lang: Lang) -> String {
        let d = round.dice;
        let won = round.settlement().iter().filter(|(_, _, r)| *r > 0).count();
        format!(
            "{}-{}-{} — {}, {}",
            d[0],
            d[1],
            d[2],
            lang.count(round.bet.spots.len() as u64, "aposta", "apostas"),
            lang.count(won as u64, "ganhou", "ganharam")
        )
    }

    fn picture(&self, round: &SicBoRound, lang: Lang) -> RoundPicture {
        let won = round.settlement().iter().filter(|(_, _, r)| *r > 0).count() as u64;
        let total: u8 = round.dice.iter().sum();
        let caption = format!(
            "{} {total} — {}: {}",
            lang.t("total"),
            lang.count(round.bet.spots.len() as u64, "aposta", "apostas"),
            lang.count(won, "ganhou", "ganharam")
        );
        RoundPicture { scene: Scene::Dice(vec![round.dice]), caption }
    }
}
