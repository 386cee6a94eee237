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

use super::NoDecision;
use super::layout::{ChipLayout, SpotEdit};
use crate::kind::{BetControl, Decided, GameKind, Refusal, Shown};
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

    super::layout::one_limit_layout!(on_cloth: Spot::on_cloth, name: Spot::name, spots: Spot::all());

    fn draw(&self, _bet: &SicBoBet, rng: &mut Draw<'_>) -> Result<Dome, String> {
        Ok(Dome { dice: throw(rng) })
    }

    fn open(&self, bet: &SicBoBet, deal: &Dome) -> SicBoRound {
        SicBoRound { bet: bet.clone(), dice: deal.dice }
    }

    super::decided_by_the_draw!(SicBoRound);

    super::layout::settled_by_spots!(SicBoRound);

    /// Each die's face.
    fn shown(&self, deal: &Dome) -> Vec<Shown> {
        Shown::dice("die", &deal.dice)
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
        RoundPicture { scene: Scene::Dice(vec![round.dice.to_vec()]), caption }
    }
}
