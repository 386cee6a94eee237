//! Banca francesa on the host (BF 1–43): the bet is a layout of chips on
//! ases, pequeno and grande (BF 6), each within BF 12's limits; the golpe's
//! throws are drawn until one decides (BF 13) and committed with the stake
//! before the first die falls; the decisive throw settles every chance.

use game_core::dice::Throw;
use game_core::dice::banca_francesa::{self, BancaFrancesaGame, Chance, golpe};
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::layout::{ChipLayout, SpotEdit, chip_offered, within};
use super::{NoDecision, step};
use crate::kind::{BetControl, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{RoundPicture, Scene};

pub type BancaBet = ChipLayout<Chance>;

/// The golpe's throws, the last the decisive one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Golpe {
    pub throws: Vec<Throw>,
}

impl Golpe {
    /// The chance the golpe decided (its last throw).
    pub fn decided(&self) -> Option<Chance> {
        self.throws.last().and_then(banca_francesa::decides)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BancaRound {
    pub bet: BancaBet,
    pub golpe: Golpe,
}

impl BancaRound {
    /// Every chance with its stake and what it returns.
    pub fn settlement(&self) -> Vec<(Chance, u64, u64)> {
        let Some(d) = self.golpe.decided() else { return Vec::new() };
        self.bet.spots.iter().map(|&(c, stake)| (c, stake, banca_francesa::returned(c, stake, d))).collect()
    }
}

pub struct BancaFrancesa(pub BancaFrancesaGame);

impl GameKind for BancaFrancesa {
    const OPENING: &'static str = "banca-golpe";
    type Bet = BancaBet;
    type Deal = Golpe;
    type Decision = NoDecision;
    type Edit = SpotEdit<Chance>;
    type Step = NoDecision;
    type Round = BancaRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("dados")
    }

    fn opening_bet(&self) -> BancaBet {
        BancaBet::empty(self.0.chips.first().copied().unwrap_or(self.0.minimum))
    }

    fn single_bets(&self) -> Vec<Self::Bet> {
        super::layout::single_bets(self.opening_bet().chip, self.0.minimum, Chance::ALL, |b| self.check_bet(b).is_ok())
    }

    fn adjust_bet(&self, bet: &BancaBet, control: BetControl, delta: i32) -> BancaBet {
        match control {
            BetControl::Amount => BancaBet { chip: step(&self.0.chips, bet.chip, delta), spots: bet.spots.clone() },
            BetControl::Lines | BetControl::SideBet => bet.clone(),
        }
    }

    fn offers(&self, bet: &BancaBet) -> bool {
        self.check_bet(bet).is_ok()
    }

    /// BF 12: ases at most 6 ×, pequeno and grande 200 × the minimum.
    fn check_bet(&self, bet: &BancaBet) -> Result<(), Refusal> {
        chip_offered(bet.chip, &self.0.chips)?;
        for (i, &(c, stake)) in bet.spots.iter().enumerate() {
            if bet.spots[..i].iter().any(|(d, _)| *d == c) {
                return Err(Refusal::new(format!("{} aparece duas vezes", c.name(true)), format!("{} is listed twice", c.name(false))));
            }
            // BF 12: the table's maximum per chance.
            within(c.name(true), c.name(false), stake, self.0.minimum, self.0.maximum(c))?;
        }
        Ok(())
    }

    fn edit_bet(&self, bet: &BancaBet, edit: &SpotEdit<Chance>) -> Result<BancaBet, Refusal> {
        let next = bet.edited(edit, |c, pt| c.name(pt).to_owned())?;
        self.check_bet(&next)?;
        Ok(next)
    }

    fn cleared_bet(&self, bet: &BancaBet) -> BancaBet {
        BancaBet::empty(bet.chip)
    }

    fn stake(&self, bet: &BancaBet) -> u64 {
        bet.staked()
    }

    /// B-16: each chance's stake at that chance's RTP (issue 77: 100 c on
    /// one chance was metered at the table's lowest).
    fn wagers(&self, bet: &BancaBet) -> Vec<(String, u64)> {
        super::layout::spot_wagers(bet, Chance::name)
    }

    /// C-26: no decision adds a stake: the round stakes its bet.
    fn most_staked(&self, bet: &BancaBet) -> u64 {
        self.stake(bet)
    }

    fn bet_text(&self, bet: &BancaBet, lang: Lang) -> String {
        format!("{} — {} {}", lang.count(bet.spots.len() as u64, "aposta", "apostas"), lang.t("ficha"), bet.chip)
    }

    /// The whole golpe: throws until one decides (BF 13).
    fn draw(&self, _bet: &BancaBet, rng: &mut Draw<'_>) -> Result<Golpe, String> {
        golpe(rng).map(|throws| Golpe { throws })
    }

    fn open(&self, bet: &BancaBet, deal: &Golpe) -> BancaRound {
        BancaRound { bet: bet.clone(), golpe: deal.clone() }
    }

    super::decided_by_the_draw!(BancaRound);

    fn win(&self, round: &BancaRound) -> u64 {
        round.settlement().iter().fold(0u64, |t, (_, _, r)| t.saturating_add(*r))
    }

    fn staked(&self, round: &BancaRound) -> u64 {
        round.bet.staked()
    }

    fn components(&self, round: &BancaRound, denom: Cents) -> Vec<WinComponent> {
        round
            .settlement()
            .into_iter()
            .filter(|(_, _, r)| *r > 0)
            .map(|(c, stake, r)| WinComponent { label: format!("{} ({stake} staked)", c.name(false)), amount: r.saturating_mul(denom) })
            .collect()
    }

    fn hits(&self, _round: &BancaRound, _trigger: &Trigger) -> bool {
        false
    }

    /// Each throw's dice, throw by throw.
    fn shown(&self, deal: &Golpe) -> Vec<Shown> {
        deal.throws.iter().enumerate().flat_map(|(i, t)| Shown::dice(&format!("throw {} die", i + 1), t)).collect()
    }

    fn describe(&self, round: &BancaRound, lang: Lang) -> String {
        let last = round.golpe.throws.last().map_or(String::new(), |t| format!("{}-{}-{}", t[0], t[1], t[2]));
        let decided = round.golpe.decided().map_or("", |c| c.name(lang == Lang::Pt));
        format!("{last} {decided} ({})", lang.count(round.golpe.throws.len() as u64, "lançamento", "lançamentos"))
    }

    /// Every throw of the golpe, the deciding one last, and the chance it decided.
    fn picture(&self, round: &BancaRound, lang: Lang) -> RoundPicture {
        let caption = round.golpe.decided().map_or_else(String::new, |c| c.name(lang == Lang::Pt).to_owned());
        RoundPicture { scene: Scene::Dice(round.golpe.throws.iter().map(|t| t.to_vec()).collect()), caption }
    }
}
