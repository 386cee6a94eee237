//! Peixe-camarão-caranguejo on the host: the bet is a layout of chips on
//! the places of the bets the table offers (its paytable's, every one at
//! least the floor, M-17), each within the table's minimum and maximum;
//! one throw of three figure dice, committed with the stake before the
//! dome lifts, settles every place at its prize (Art. 6; small and big
//! lose on three equal figures, Art. 7). The dice are sic bo's: the round
//! carries the same `Dome`.

use game_core::dice::fish_prawn_crab::{FishPrawnCrabGame, Spot, figure};
use game_core::dice::{Throw, throw};
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};

use super::NoDecision;
use super::layout::{ChipLayout, SpotEdit};
use crate::kind::{BetControl, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{RoundPicture, Scene};

pub type FishPrawnCrabBet = ChipLayout<Spot>;

pub use super::sic_bo::Dome;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FishPrawnCrabRound {
    pub bet: FishPrawnCrabBet,
    pub dice: Throw,
}

impl FishPrawnCrabRound {
    pub fn settlement(&self) -> Vec<(Spot, u64, u64)> {
        self.bet.spots.iter().map(|&(s, stake)| (s, stake, s.returned(stake, &self.dice))).collect()
    }
}

pub struct FishPrawnCrab(pub FishPrawnCrabGame);

impl GameKind for FishPrawnCrab {
    const OPENING: &'static str = "fish-prawn-crab-throw";
    type Bet = FishPrawnCrabBet;
    type Deal = Dome;
    type Decision = NoDecision;
    type Edit = SpotEdit<Spot>;
    type Step = NoDecision;
    type Round = FishPrawnCrabRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("dados")
    }

    super::layout::one_limit_layout!(on_table: FishPrawnCrabGame::offers, name: Spot::name, spots: game_core::dice::fish_prawn_crab::Bet::all().into_iter().flat_map(|b| b.spots()));

    fn draw(&self, _bet: &FishPrawnCrabBet, rng: &mut Draw<'_>) -> Result<Dome, String> {
        Ok(Dome { dice: throw(rng) })
    }

    fn open(&self, bet: &FishPrawnCrabBet, deal: &Dome) -> FishPrawnCrabRound {
        FishPrawnCrabRound { bet: bet.clone(), dice: deal.dice }
    }

    super::decided_by_the_draw!(FishPrawnCrabRound);

    super::layout::settled_by_spots!(FishPrawnCrabRound);

    /// Each die's figure.
    fn shown(&self, deal: &Dome) -> Vec<Shown> {
        Shown::dice("die", &deal.dice)
    }

    fn describe(&self, round: &FishPrawnCrabRound, lang: Lang) -> String {
        let d = round.dice;
        let won = round.settlement().iter().filter(|(_, _, r)| *r > 0).count();
        let pt = lang == Lang::Pt;
        format!(
            "{}-{}-{} — {}, {}",
            figure(d[0], pt),
            figure(d[1], pt),
            figure(d[2], pt),
            lang.count(round.bet.spots.len() as u64, "aposta", "apostas"),
            lang.count(won as u64, "ganhou", "ganharam")
        )
    }

    fn picture(&self, round: &FishPrawnCrabRound, lang: Lang) -> RoundPicture {
        let won = round.settlement().iter().filter(|(_, _, r)| *r > 0).count() as u64;
        let pt = lang == Lang::Pt;
        let figures: Vec<&str> = round.dice.iter().map(|&f| figure(f, pt)).collect();
        let caption =
            format!("{} — {}: {}", figures.join(", "), lang.count(round.bet.spots.len() as u64, "aposta", "apostas"), lang.count(won, "ganhou", "ganharam"));
        RoundPicture { scene: Scene::Dice(vec![round.dice.to_vec()]), caption }
    }
}
