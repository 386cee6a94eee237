//! Craps on the host (seed 000 L936–1194): the bet is a layout of chips on
//! the spots the table offers, each within the table's minimum and
//! maximum, fixed before the first roll (rule 21); the series — every roll
//! until each bet on the cloth is decided — is drawn and committed with the
//! stake before the first die falls, and every roll is kept in the round's
//! record (docs/craps.md). Each spot settles on the roll that decides it
//! (rules 20, 22, 24; the stake kept, rule 25).

use game_core::dice::craps::{CrapsGame, Roll, Spot, point, series, total};
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::NoDecision;
use super::layout::{ChipLayout, SpotEdit};
use crate::kind::{BetControl, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{RoundPicture, Scene};

pub type CrapsBet = ChipLayout<Spot>;

/// The series' rolls, in order: the last decides the last bet standing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    pub rolls: Vec<Roll>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrapsRound {
    pub bet: CrapsBet,
    pub rolls: Vec<Roll>,
    pub bar: game_core::dice::craps::Bar,
}

impl CrapsRound {
    /// Every spot with its stake and what it returns (nothing while a
    /// spot is undecided, which a committed series never leaves).
    pub fn settlement(&self) -> Vec<(Spot, u64, u64)> {
        self.bet.spots.iter().map(|&(s, stake)| (s, stake, s.verdict(&self.rolls, self.bar).map_or(0, |v| stake.saturating_mul(v.returned)))).collect()
    }
}

pub struct Craps(pub CrapsGame);

impl GameKind for Craps {
    const OPENING: &'static str = "craps-series";
    type Bet = CrapsBet;
    type Deal = Series;
    type Decision = NoDecision;
    type Edit = SpotEdit<Spot>;
    type Step = NoDecision;
    type Round = CrapsRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("dados")
    }

    super::layout::one_limit_layout!(on_table: CrapsGame::offers, name: Spot::name, spots: Spot::all());

    /// The whole series: rolls until every spot staked is decided.
    fn draw(&self, bet: &CrapsBet, rng: &mut Draw<'_>) -> Result<Series, String> {
        let spots: Vec<Spot> = bet.spots.iter().map(|(s, _)| *s).collect();
        series(&spots, self.0.bar, rng).map(|rolls| Series { rolls })
    }

    fn open(&self, bet: &CrapsBet, deal: &Series) -> CrapsRound {
        CrapsRound { bet: bet.clone(), rolls: deal.rolls.clone(), bar: self.0.bar }
    }

    super::decided_by_the_draw!(CrapsRound);

    super::layout::settled_by_spots!(CrapsRound);

    /// Each roll's dice, roll by roll.
    fn shown(&self, deal: &Series) -> Vec<Shown> {
        deal.rolls.iter().enumerate().flat_map(|(i, r)| Shown::dice(&format!("roll {} die", i + 1), r)).collect()
    }

    fn describe(&self, round: &CrapsRound, lang: Lang) -> String {
        let totals: Vec<String> = round.rolls.iter().map(|r| total(r).to_string()).collect();
        let won = round.settlement().iter().filter(|(_, _, r)| *r > 0).count();
        format!("{} — {}, {}", totals.join(" "), lang.count(round.bet.spots.len() as u64, "aposta", "apostas"), lang.count(won as u64, "ganhou", "ganharam"))
    }

    /// Every roll of the series, the point the come-out set, and the bets.
    fn picture(&self, round: &CrapsRound, lang: Lang) -> RoundPicture {
        let won = round.settlement().iter().filter(|(_, _, r)| *r > 0).count() as u64;
        let point = point(&round.rolls).map_or(String::new(), |p| format!("{} {p} — ", lang.t("ponto|point")));
        let caption = format!(
            "{point}{}: {}, {}",
            lang.count(round.rolls.len() as u64, "lançamento", "lançamentos"),
            lang.count(round.bet.spots.len() as u64, "aposta", "apostas"),
            lang.count(won, "ganhou", "ganharam")
        );
        RoundPicture { scene: Scene::Dice(round.rolls.iter().map(|r| r.to_vec()).collect()), caption }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use game_core::dice::craps::Bar;

    /// A series of four rolls: the field lost on the 8 of the come-out, the
    /// point 8 made on the last roll (pass 1:1), hard 8 lost to the easy
    /// 8 of the come-out.
    #[test]
    fn each_spot_settles_on_the_roll_that_decides_it() {
        let game = CrapsGame { id: "c".into(), name: "C".into(), bar: Bar::Twelve, minimum: 1, maximum: 100, chips: vec![1, 5], spots: Spot::all() };
        let bet = CrapsBet { chip: 5, spots: vec![(Spot::PassLine, 10), (Spot::Field, 5), (Spot::Hard(8), 5)] };
        let k = Craps(game);
        let round = k.open(&bet, &Series { rolls: vec![[5, 3], [2, 3], [6, 5], [4, 4]] });
        assert_eq!(round.settlement(), vec![(Spot::PassLine, 10, 20), (Spot::Field, 5, 0), (Spot::Hard(8), 5, 0)]);
        assert_eq!(k.win(&round), 20);
        assert!(k.picture(&round, Lang::En).caption.starts_with("point 8 — 4 throws"), "{}", k.picture(&round, Lang::En).caption);
        assert!(k.check_bet(&CrapsBet { chip: 5, spots: vec![(Spot::Hard(5), 5)] }).is_err(), "no hard 5 on the cloth");
    }
}
