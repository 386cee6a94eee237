//! Progressive levels in the session: the linked pools' outbox and
//! heartbeat (M-22), how each level is won (M-31), and what the HUD shows
//! of every level (M-30).

use meters::Cents;

use game_core::progressive::Trigger;

use super::Session;
use crate::catalogue::HostedGame;
use crate::config::{CabinetConfig, LinkedSetup, ProgressiveSetup};
use crate::names::Lang;
use crate::notice::{AwardBanner, Notice};
use crate::round::Phase;

/// One progressive level as the HUD shows it (M-30).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgressiveShown {
    pub name: String,
    /// None: a linked pool whose controller is unreachable.
    pub value: Option<Cents>,
    pub linked: bool,
    /// G-50: whether the bet standing can win it (its pool takes the
    /// wager, and a trigger of the level asks nothing the bet lacks, such
    /// as the largest bet per line); a level the bet cannot win is marked.
    pub eligible: bool,
}

/// Millionths as a percentage for the player, without trailing zeros:
/// 12_345 → "1.2345", 10_000 → "1".
fn ppm_percent(ppm: u32) -> String {
    let text = meters::progressive::ppm_as_percent(u64::from(ppm));
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// The progressive levels a configuration attaches to its games (M-31).
pub struct Attached<'a> {
    pub standalone: &'a [ProgressiveSetup],
    /// Each linked pool with its levels' names as its controller gave them
    /// (none where the controller has not been heard: a level is then
    /// named by its number, counted from 1).
    pub linked: Vec<(&'a LinkedSetup, Vec<(usize, String)>)>,
    /// The floor's SAS progressive group: its games and triggers.
    pub floor: Option<FloorGroup<'a>>,
}

/// A SAS progressive group's games, and its (SAS level, trigger) pairs.
pub type FloorGroup<'a> = (&'a [String], &'a [(u8, Trigger)]);

impl<'a> Attached<'a> {
    /// What `config` attaches, before any controller is heard: what a
    /// rules page published for that configuration says (issue 77).
    pub fn of_config(config: &'a CabinetConfig) -> Attached<'a> {
        Attached {
            standalone: &config.progressives,
            linked: config.linked_progressives.iter().map(|l| (l, Vec::new())).collect(),
            floor: config.sas.as_ref().and_then(|s| s.progressive.as_ref()).map(|p| (&p.games[..], &p.triggers[..])),
        }
    }
}

/// How each progressive level attached to `game` is won (M-31), in
/// `lang`: the trigger (with what it asks of the bet, G-50) and each
/// standalone level's share of every wager.
pub fn conditions(lang: Lang, game: &HostedGame, attached: &Attached<'_>) -> Vec<String> {
    let id = game.id();
    let describe = |t: &Trigger| -> String {
        match t {
            Trigger::ReelCombination { symbol, count, max_bet_only } => {
                format!("{count} × {symbol} {}{}", lang.t("numa linha jogada"), if *max_bet_only { lang.t(", com a aposta máxima por linha") } else { "" })
            }
            Trigger::PokerHand { max_coins_only, .. } => {
                // The hand by its name in this game's paytable.
                let name = game.0.trigger_name(t).unwrap_or_else(|| lang.t("mão do prémio").to_owned());
                format!("{name}{}", if *max_coins_only { lang.t(", com o máximo de moedas") } else { "" })
            }
            Trigger::StudSideBet => lang.t("aposta lateral: sequência real 100%, sequência de cor 10%").to_owned(),
            Trigger::BingoWithin { balls } => format!("bingo {} {balls} {}", lang.t("em"), lang.t("bolas")),
            Trigger::HoldAndSpinGrand { max_bet_only } => format!(
                "{}{}",
                lang.t("o Grande do Hold & Spin: um bónus Grande retido ou o ecrã cheio, pelo menos o seu valor fixo"),
                if *max_bet_only { lang.t(", com a aposta máxima por linha") } else { "" }
            ),
        }
    };
    let mut out = Vec::new();
    for p in attached.standalone.iter().filter(|p| p.pool.games.iter().any(|g| g == id)) {
        for (i, l) in p.pool.levels.iter().enumerate() {
            let share = format!("{}% {}", ppm_percent(l.increment_ppm), lang.t("de cada aposta"));
            let how = if l.mystery {
                lang.t("mistério: ganho pela aposta que o faz passar um valor oculto, sorteado entre o valor de reinício e o tecto").to_owned()
            } else {
                p.triggers.iter().filter(|(lv, _)| *lv == i).map(|(_, t)| describe(t)).collect::<Vec<_>>().join("; ")
            };
            out.push(format!("{} — {how}; {share}", lang.term(&l.name)));
        }
    }
    for (setup, names) in attached.linked.iter().filter(|(p, _)| p.games.iter().any(|g| g == id)) {
        for (lv, t) in &setup.triggers {
            let name = names.iter().find(|(l, _)| l == lv).map_or_else(|| format!("{} {}", lang.t("nível"), lv + 1), |(_, n)| lang.term(n).to_owned());
            out.push(format!("{name} ({}) — {}", lang.t("ligado a outras máquinas"), describe(t)));
        }
    }
    // The floor's SAS group: its levels won at the amount broadcast, paid
    // by an attendant (issue 48).
    for (lv, t) in attached.floor.filter(|(games, _)| games.iter().any(|g| g == id)).map_or(&[][..], |(_, triggers)| triggers) {
        out.push(format!("SAS {} {lv} ({}) — {}", lang.t("nível"), lang.t("ligado a outras máquinas"), describe(t)));
    }
    out
}

impl Session {
    /// Send every linked pool's queued contributions (kept in critical
    /// memory until the controller acknowledges them).
    pub fn deliver_linked(&mut self) {
        for i in 0..self.linked.len() {
            let pool = self.linked[i].setup.pool.clone();
            if let Err(e) = self.linked[i].link.deliver(&mut self.machine, &pool) {
                self.message = Some(Notice::Linked { pool, error: e.to_string() });
            }
        }
    }

    /// Often (the cabinet: ten times a second; nothing here waits on the
    /// network): deliver the outbox, finish a round that waits for a
    /// linked award, and signal any new award of a linked pool (M-22).
    pub fn tend_linked(&mut self) {
        if self.linked.is_empty() {
            return;
        }
        self.deliver_linked();
        if self.round_info().is_some_and(|r| r.phase == Phase::ProgressivePending) {
            self.collect();
        }
        // Issue 46: a round committed and waiting for its nonce.
        if self.machine.linked_commitment().is_some() && self.machine.open_round().is_none() {
            self.play_committed();
        }
        self.report_linked_meters();
        for i in 0..self.linked.len() {
            let view = self.linked[i].view();
            if view.last_answer.is_none() {
                continue;
            }
            let p = &mut self.linked[i];
            let seq = view.last_award.as_ref().map(|a| a.seq);
            // The first answer sets the baseline: awards made before this
            // cabinet started are not news.
            if !std::mem::replace(&mut p.heard, true) {
                p.shown_award = seq;
                continue;
            }
            let Some(a) = view.last_award.clone() else { continue };
            if p.shown_award.is_some_and(|s| s >= a.seq) {
                continue;
            }
            p.shown_award = Some(a.seq);
            let level = view.levels.iter().find(|l| l.level == a.level).map_or_else(|| a.level.to_string(), |l| l.name.clone());
            tracing::info!(
                "M-22 linked award shown: pool {} award #{} level {} {} cents machine {}",
                self.linked[i].setup.pool,
                a.seq,
                a.level,
                a.amount,
                a.machine
            );
            self.linked_banner = Some((AwardBanner { level, amount: a.amount, machine: a.machine.clone() }, std::time::Instant::now()));
        }
    }

    /// Issue 46, reconciliation: report each linked pool's meter from the
    /// journal whenever it changed and the controller holds the same rounds
    /// (every contribution delivered, no round open); the operator's report
    /// sets it against the controller's books.
    fn report_linked_meters(&mut self) {
        let epoch = self.machine.epoch_id().to_owned();
        for i in 0..self.linked.len() {
            let pool = self.linked[i].setup.pool.clone();
            let Some((through_round, owed)) = self.machine.linked_meter(&pool) else { continue };
            let meter = linked_controller::CabinetMeter { through_round, rounds: owed.rounds, wagered: owed.wagered };
            let p = &mut self.linked[i];
            if p.reported.as_ref().is_some_and(|(e, m)| *e == epoch && *m == meter) {
                continue;
            }
            // A meter the controller did not record is not sent again
            // until it changes (the next round's): its report stays at the
            // one before, which is still true of the rounds it covers.
            if let Some((crate::link_worker::Call::Meter { epoch, meter }, answer)) = p.link.report_meter(&epoch, meter) {
                if let Err(e) = answer {
                    tracing::warn!("pool {pool}: the controller did not record this cabinet's meter: {e}");
                }
                p.reported = Some((epoch, meter));
            }
        }
    }

    /// How each progressive level of the current game is won (M-31): the
    /// linked pools' levels by the names their controllers gave.
    pub fn progressive_conditions(&self) -> Vec<String> {
        let linked = self.linked.iter().map(|p| (&p.setup, p.view().levels.iter().map(|l| (l.level, l.name.clone())).collect())).collect();
        let floor = self.floor.as_ref().and_then(|f| f.round_levels()).map(|f| (f.games, f.triggers));
        conditions(self.lang, self.game(), &Attached { standalone: &self.config.progressives, linked, floor })
    }

    /// The progressive levels shown with the current game (M-30): the
    /// standalone pools' values, and the linked pools' as last heard, each
    /// with whether the bet standing can win it (G-50).
    pub fn progressives_shown(&self) -> Vec<ProgressiveShown> {
        let mut out = Vec::new();
        // M-39 (issue 75): a demonstration shows no real money: no
        // progressive's value.
        if self.config.demo {
            return out;
        }
        let id = &self.game().id().to_owned();
        let table = &self.game().0;
        let stake = self.stake_cents();
        let side = table.side_stake().saturating_mul(self.denom);
        // A level is in reach when the pool takes the wager and the level
        // has no trigger (a mystery level, one the floor's system awards)
        // or one the bet standing can win.
        let in_reach = |takes: bool, triggers: Vec<&Trigger>| takes && (triggers.is_empty() || triggers.iter().any(|t| table.trigger_eligible(t)));
        for pool in self.machine.pools().values().filter(|p| p.config.games.contains(id)) {
            let setup = self.config.progressives.iter().find(|c| c.pool.id == pool.config.id);
            let takes = pool.qualifies(id, pool.wager(stake, side));
            for (i, (cfg, level)) in pool.config.levels.iter().zip(&pool.levels).enumerate() {
                let eligible = in_reach(takes, setup.into_iter().flat_map(|c| &c.triggers).filter(|(lv, _)| *lv == i).map(|(_, t)| t).collect());
                out.push(ProgressiveShown { name: self.lang.term(&cfg.name).to_owned(), value: Some(level.current), linked: false, eligible });
            }
        }
        for p in self.linked.iter().filter(|p| p.setup.games.contains(id)) {
            let view = p.view();
            let up = view.available();
            let takes = p.qualifies(id, stake);
            for l in &view.levels {
                let eligible = in_reach(takes, p.setup.triggers.iter().filter(|(lv, _)| *lv == l.level).map(|(_, t)| t).collect());
                out.push(ProgressiveShown { name: self.lang.term(&l.name).to_owned(), value: up.then_some(l.value), linked: true, eligible });
            }
            if view.levels.is_empty() {
                out.push(ProgressiveShown { name: p.setup.pool.clone(), value: None, linked: true, eligible: takes });
            }
        }
        // The floor's SAS progressive levels, as last broadcast (LP 80/86).
        let floor = self.floor.as_ref().and_then(|f| f.round_levels());
        for (level, value) in self.floor.as_ref().and_then(|f| f.progressive_levels(id)).unwrap_or_default() {
            let name = if level == 0 { "SAS".to_owned() } else { format!("SAS {} {level}", self.t("nível")) };
            let eligible = in_reach(true, floor.iter().flat_map(|f| f.triggers).filter(|(lv, _)| *lv == level).map(|(_, t)| t).collect());
            out.push(ProgressiveShown { name, value, linked: true, eligible });
        }
        out
    }

    /// Each progressive level as the player reads it (M-30, G-50): its
    /// name, "linked" for a pool shared with other machines, its value (or
    /// that it is unavailable), and a mark on a level the bet standing
    /// cannot win.
    pub fn progressive_lines(&self) -> Vec<String> {
        let cur = &self.machine.config().currency;
        self.progressives_shown()
            .iter()
            .map(|p| {
                let value = p.value.map_or_else(|| self.t("indisponível").to_owned(), |v| cur.format(v));
                let linked = if p.linked { self.t(" (ligado)") } else { "" };
                let reach = if p.eligible { "" } else { self.t(" (não elegível)") };
                format!("{}{linked} {value}{reach}", p.name)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn ppm_as_percent_is_exact() {
        assert_eq!(ppm_percent(10_000), "1");
        assert_eq!(ppm_percent(12_345), "1.2345");
        assert_eq!(ppm_percent(5_000), "0.5");
        assert_eq!(ppm_percent(1), "0.0001");
    }
}
