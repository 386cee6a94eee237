//! Reel slots: the whole round (base spin and every free game) is drawn
//! at once; the player makes no decision; the screen spins the reels to the
//! committed stops before the round may settle (M-5).

use std::sync::Arc;

use game_core::double_up::DoubleUpRule;
use game_core::progressive::Trigger;
use game_core::reels::{Bet, ReelGame, ReelRound, StopTables};
use meters::{Cents, Draw, WinComponent};

use super::{NoDecision, step};

use crate::kind::{BetControl, Chances, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{RoundPicture, Scene};

/// A reel game with its weighted stop tables.
/// A reel's stops' weights, and the weights of the symbols it shows on
/// each row.
type ReelChances = (Arc<Vec<u64>>, Vec<Arc<Vec<u64>>>);

pub struct Reels {
    pub game: ReelGame,
    pub tables: StopTables,
    /// Each reel's stops' weights and, row by row, the weights of the
    /// symbols it shows there (issue 77: the lab tests what is shown).
    shown: Vec<ReelChances>,
}

impl Reels {
    /// A base spin's chances of each reel's stop (the strip's weights, or
    /// each stop alike) and of each row's symbol, counted over the stops
    /// as the window shows them (an expanding wild included).
    fn shown_chances(game: &ReelGame) -> Vec<ReelChances> {
        game.strips(false)
            .iter()
            .enumerate()
            .map(|(reel, strip)| {
                let stops: Vec<u64> = strip.weights.clone().unwrap_or_else(|| vec![1; strip.len()]);
                let mut rows = vec![vec![0u64; game.symbols.len()]; game.rows_of(reel)];
                for (stop, &w) in stops.iter().enumerate() {
                    for (row, symbol) in game.reel_window(reel, strip, stop).into_iter().enumerate() {
                        if let Some(slot) = rows.get_mut(row).and_then(|r| r.get_mut(usize::from(symbol))) {
                            *slot += w;
                        }
                    }
                }
                (Arc::new(stops), rows.into_iter().map(Arc::new).collect())
            })
            .collect()
    }

    pub fn new(game: ReelGame) -> Result<Self, String> {
        let tables = StopTables::new(&game).map_err(|e| format!("{}: {e}", game.id))?;
        let shown = Self::shown_chances(&game);
        Ok(Reels { game, tables, shown })
    }
}

impl Reels {
    /// The window of `spin` row by row, each cell the symbol's id: a reel
    /// shorter than the window (issue 50) stands centred in it, the cells
    /// above and below it empty.
    fn grid(&self, spin: &game_core::reels::Spin) -> Vec<Vec<String>> {
        let g = &self.game;
        let window = g.window(&spin.stops, spin.free);
        let id = |s: &game_core::reels::SymbolId| g.symbols.get(usize::from(*s)).map_or_else(|| "?".to_owned(), |sym| sym.id.clone());
        let rows = usize::from(g.rows);
        (0..rows)
            .map(|r| {
                window
                    .iter()
                    .map(|cells| {
                        let above = rows.saturating_sub(cells.len()) / 2;
                        r.checked_sub(above).and_then(|k| cells.get(k)).map_or_else(String::new, id)
                    })
                    .collect()
            })
            .collect()
    }
}

impl GameKind for Reels {
    const OPENING: &'static str = "spin";
    type Bet = Bet;
    type Deal = ReelRound;
    type Decision = NoDecision;
    type Edit = crate::kind::NoEdit;
    type Step = NoDecision;
    type Round = ReelRound;

    fn id(&self) -> &str {
        &self.game.id
    }

    fn name(&self) -> &str {
        &self.game.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("rolos")
    }

    /// Every line, the smallest credits per line.
    fn opening_bet(&self) -> Bet {
        Bet { lines: self.game.bet.lines.last().copied().unwrap_or(1), credits_per_line: self.game.bet.credits_per_line.first().copied().unwrap_or(1) }
    }

    fn adjust_bet(&self, bet: &Bet, control: BetControl, delta: i32) -> Bet {
        match control {
            BetControl::Lines => Bet { lines: step(&self.game.bet.lines, bet.lines, delta), ..*bet },
            BetControl::Amount => Bet { credits_per_line: step(&self.game.bet.credits_per_line, bet.credits_per_line, delta), ..*bet },
            BetControl::SideBet => *bet,
        }
    }

    fn offers(&self, bet: &Bet) -> bool {
        self.game.check_bet(*bet).is_ok()
    }

    fn stake(&self, bet: &Bet) -> u64 {
        bet.total_credits()
    }

    /// C-26: no decision adds a stake: the round stakes its bet.
    fn most_staked(&self, bet: &Bet) -> u64 {
        self.stake(bet)
    }

    /// B-16: the artifact proves an RTP per number of lines (a ways
    /// game's cost).
    fn rtp_key(&self, bet: &Bet) -> Option<(u64, &'static str)> {
        Some((u64::from(bet.lines), if self.game.ways { "credits a unit" } else { "lines" }))
    }

    fn largest_stake(&self) -> Option<u64> {
        let lines = self.game.bet.lines.iter().max()?;
        self.game.bet.credits_per_line.iter().max()?.checked_mul(u64::from(*lines))
    }

    fn bet_text(&self, bet: &Bet, lang: Lang) -> String {
        // A ways game (issue 50): every way is played; `lines` is its cost.
        if self.game.ways {
            let ways = lang.count(self.game.ways_count(), "maneira", "maneiras");
            return format!("{ways} · {} × {} {}", bet.lines, bet.credits_per_line, lang.t("créd."));
        }
        format!("{} × {} {}", lang.count(u64::from(bet.lines), "linha", "linhas"), bet.credits_per_line, lang.t("créd./linha"))
    }

    fn draw(&self, bet: &Bet, rng: &mut Draw<'_>) -> Result<ReelRound, String> {
        self.game.play(&self.tables, rng, *bet).map_err(|e| e.to_string())
    }

    fn open(&self, _bet: &Bet, deal: &ReelRound) -> ReelRound {
        deal.clone()
    }

    super::decided_by_the_draw!(ReelRound);

    /// The round's win, less a progressive grand (issue 50), which the
    /// pools pay ([`GameKind::pooled_minimum`]).
    fn win(&self, round: &ReelRound) -> u64 {
        round.win.saturating_sub(self.pooled_minimum(round))
    }

    fn pooled_minimum(&self, round: &ReelRound) -> u64 {
        match (&self.game.hold_and_spin, &round.hold) {
            (Some(rule), Some(h)) => h.pooled_grand(rule, round.bet.credits_per_line),
            _ => 0,
        }
    }

    /// The progressive grand's level pays the whole pool, or the grand's
    /// fixed sums won when they are greater (issue 50).
    fn award(&self, round: &ReelRound, trigger: &Trigger) -> crate::kind::Award {
        match trigger {
            Trigger::HoldAndSpinGrand { .. } => crate::kind::Award { share_ppm: meters::WHOLE_LEVEL, at_least: self.pooled_minimum(round) },
            _ => crate::kind::Award::WHOLE,
        }
    }

    fn staked(&self, round: &ReelRound) -> u64 {
        round.bet.total_credits()
    }

    fn components(&self, round: &ReelRound, denom: Cents) -> Vec<WinComponent> {
        let mut c = Vec::new();
        for w in &round.base.line_wins {
            c.push(WinComponent { label: format!("line {} {}×{}", w.line + 1, w.count, w.symbol), amount: w.win * denom });
        }
        for w in &round.base.way_wins {
            c.push(WinComponent { label: format!("{} ways {}×{}", w.ways, w.count, w.symbol), amount: w.win * denom });
        }
        // Issue 50: each cascade's wins, at its multiplier.
        for (k, cascade) in round.base.cascades.iter().enumerate() {
            for w in &cascade.way_wins {
                c.push(WinComponent {
                    label: format!("cascade {} ×{}: {} ways {}×{}", k + 1, cascade.multiplier, w.ways, w.count, w.symbol),
                    amount: w.win * denom,
                });
            }
        }
        if round.base.scatter_win > 0 {
            c.push(WinComponent { label: "scatter".into(), amount: round.base.scatter_win * denom });
        }
        let free: u64 = round.free_spins.iter().map(|s| s.win).sum();
        if free > 0 {
            c.push(WinComponent { label: format!("free games ({})", round.free_spins.len()), amount: free * denom });
        }
        // Issue 50: the hold-and-spin's values, and the grand of a full
        // screen; a progressive grand is the pool's (its own component).
        if let Some(h) = &round.hold {
            let pooled = self.pooled_minimum(round);
            let fixed_grand = if pooled > 0 { 0 } else { h.grand_credits };
            let values = h.win.saturating_sub(pooled).saturating_sub(fixed_grand);
            c.push(WinComponent { label: format!("hold & spin ({} held)", h.held().count()), amount: values * denom });
            if fixed_grand > 0 {
                c.push(WinComponent { label: "grand jackpot (full screen)".into(), amount: fixed_grand * denom });
            }
        }
        c
    }

    fn double_up(&self) -> Option<DoubleUpRule> {
        self.game.double_up
    }

    fn claim(&self, round: &ReelRound, denom: Cents) -> serde_json::Value {
        let claim = linked_controller::ReelClaim {
            game: self.game.id.clone(),
            stops: round.base.stops.clone(),
            lines: round.bet.lines,
            credits_per_line: round.bet.credits_per_line,
            denom,
            // A hold-and-spin is drawn again by the service from the
            // revealed key (issue 50), never taken from the cabinet.
            hold: None,
        };
        serde_json::to_value(claim).unwrap_or(serde_json::Value::Null)
    }

    fn committed_bet(&self, bet: &Bet, denom: Cents) -> Option<linked_controller::ReelBet> {
        Some(linked_controller::ReelBet { game: self.game.id.clone(), lines: bet.lines, credits_per_line: bet.credits_per_line, denom })
    }

    fn hits(&self, round: &ReelRound, trigger: &Trigger) -> bool {
        game_core::progressive::reels_hit(&self.game, round, trigger)
    }

    fn eligible(&self, bet: &Bet, trigger: &Trigger) -> bool {
        game_core::progressive::reels_eligible(&self.game, *bet, trigger)
    }

    /// The window as the player saw it (issue 45: symbols, not stop
    /// numbers), row by row, and the free games it gave.
    /// Each reel's stop of the base spin, which decides every symbol the
    /// reel shows, and the symbol it shows on its first row, with their
    /// chances. The other rows' symbols are the same strip shifted, a
    /// function of the same stop: tests of them would be tests of the stop
    /// again, and dependent tests bias the battery's uniformity of
    /// p-values (docs/rng.md).
    fn shown(&self, deal: &ReelRound) -> Vec<Shown> {
        let mut out = Vec::new();
        for (reel, ((&stop, strip), (stops, rows))) in deal.base.stops.iter().zip(self.game.strips(false)).zip(&self.shown).enumerate() {
            out.push(Shown { what: format!("reel {} stop", reel + 1), value: u64::from(stop), chances: Chances::Weighted(stops.clone()) });
            if let (Some(symbol), Some(chances)) = (self.game.reel_window(reel, strip, stop as usize).first(), rows.first()) {
                out.push(Shown { what: format!("reel {} row 1 symbol", reel + 1), value: u64::from(*symbol), chances: Chances::Weighted(chances.clone()) });
            }
        }
        out
    }

    fn describe(&self, round: &ReelRound, lang: Lang) -> String {
        let rows: Vec<String> =
            self.grid(&round.base).iter().map(|row| row.iter().map(|c| if c.is_empty() { "·" } else { c.as_str() }).collect::<Vec<_>>().join(" ")).collect();
        let mut text = rows.join(" | ");
        if !round.free_spins.is_empty() {
            let n = round.free_spins.len();
            let games = if n == 1 { lang.t("jogo grátis") } else { lang.t("jogos grátis") };
            text.push_str(&format!(" +{n} {games}"));
        }
        if let Some(h) = &round.hold {
            text.push_str(&format!(" + {} ({})", lang.t("Hold & Spin"), h.held().count()));
        }
        if !round.base.cascades.is_empty() {
            text.push_str(&format!(" +{}", lang.count(round.base.cascades.len() as u64, "cascata", "cascatas")));
        }
        text
    }

    fn picture(&self, round: &ReelRound, lang: Lang) -> RoundPicture {
        let rows = self.grid(&round.base);
        let mut caption = match round.free_spins.len() {
            0 => String::new(),
            n => format!("+{}", lang.count(n as u64, "jogo grátis", "jogos grátis")),
        };
        if let Some(h) = &round.hold {
            caption = format!("+{} · {} {}", lang.t("Hold & Spin"), h.held().count(), lang.t("retidos"));
        }
        if !round.base.cascades.is_empty() {
            caption = format!("+{}", lang.count(round.base.cascades.len() as u64, "cascata", "cascatas"));
        }
        RoundPicture { scene: Scene::Reels { rows }, caption }
    }
}
