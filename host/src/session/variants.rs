//! RTP variants (issue 50): one game in several approved paytables (its
//! own strips or weights each, proven and approved on its own, naming the
//! game in `variant_of`). The configuration lists every variant the
//! cabinet may offer; the menu offers one per game: the one an operator
//! chose, with the logic door open, in critical memory; else the first the
//! configuration lists. The others wait aside, hosted and verified.

use super::Session;
use crate::catalogue::HostedGame;

/// A game with variants, as the audit menu lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantChoice {
    /// The game the variants are of.
    pub family: String,
    /// Each variant: its id, its RTP as proven, whether it is offered.
    pub variants: Vec<(String, Option<String>, bool)>,
}

impl Session {
    /// Put the chosen variant of each game on the menu, at the place
    /// where the configuration first lists one of its variants, the rest
    /// aside (at boot, and after a RAM clear forgets the choices). A
    /// choice naming a variant no longer configured offers the first.
    pub(crate) fn offer_chosen_variants(&mut self) {
        let mut all: Vec<HostedGame> = std::mem::take(&mut self.games);
        all.append(&mut self.variants_aside);
        let listed = |id: &str| self.config.games.iter().position(|g| g == id).unwrap_or(usize::MAX);
        all.sort_by_key(|g| listed(g.id()));
        let chosen = &self.machine.state().variants;
        let offered: Vec<String> = all
            .iter()
            .filter(|g| {
                let family = g.variant_family();
                let pick = chosen.get(family).filter(|id| all.iter().any(|o| o.id() == id.as_str()));
                match pick {
                    Some(id) => id == g.id(),
                    None => all.iter().find(|o| o.variant_family() == family).is_some_and(|first| first.id() == g.id()),
                }
            })
            .map(|g| g.id().to_owned())
            .collect();
        // Each game at its family's first place in the configuration:
        // `all` is in the configuration's order, so a family's first
        // member gives it.
        let mut first_of: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for g in all.iter() {
            first_of.entry(g.variant_family().to_owned()).or_insert_with(|| listed(g.id()));
        }
        let (mut games, aside): (Vec<HostedGame>, Vec<HostedGame>) = all.into_iter().partition(|g| offered.iter().any(|id| id == g.id()));
        games.sort_by_key(|g| first_of.get(g.variant_family()).copied().unwrap_or(usize::MAX));
        self.games = games;
        self.variants_aside = aside;
        self.selected = self.selected.min(self.games.len().saturating_sub(1));
    }

    /// Every game with more than one variant configured, for the audit menu.
    pub fn variant_choices(&self) -> Vec<VariantChoice> {
        let mut out: Vec<VariantChoice> = Vec::new();
        for g in self.games.iter() {
            let family = g.variant_family();
            let aside: Vec<&HostedGame> = self.variants_aside.iter().filter(|v| v.variant_family() == family).collect();
            if aside.is_empty() {
                continue;
            }
            let mut variants: Vec<(String, Option<String>, bool)> =
                std::iter::once(g).chain(aside).map(|v| (v.id().to_owned(), v.rtp().map(str::to_owned), v.id() == g.id())).collect();
            variants.sort_by_key(|v| self.config.games.iter().position(|id| *id == v.0));
            out.push(VariantChoice { family: family.to_owned(), variants });
        }
        out
    }

    /// The game whose art a game id wears: its family for an RTP variant
    /// (issue 50), else itself.
    pub fn art_family<'a>(&'a self, id: &'a str) -> &'a str {
        self.games.iter().chain(&self.variants_aside).find(|g| g.id() == id).map_or(id, |g| g.variant_family())
    }

    /// The variants waiting aside (issue 50): hosted and verified, not
    /// offered.
    pub fn variants_aside(&self) -> &[HostedGame] {
        &self.variants_aside
    }

    /// An operator offers variant `id` of its game from now on (issue 50):
    /// only between rounds with the logic door open (the core refuses
    /// otherwise), logged in critical memory with its approved digest and
    /// the operator of the machine's record; the variant takes its game's
    /// place on the menu.
    pub fn choose_variant(&mut self, id: &str) -> Result<(), String> {
        let Some(k) = self.variants_aside.iter().position(|g| g.id() == id) else {
            return match self.games.iter().any(|g| g.id() == id) {
                true => Ok(()),
                false => Err(format!("{id} is not a variant this cabinet is configured with")),
            };
        };
        let family = self.variants_aside[k].variant_family().to_owned();
        let Some(place) = self.games.iter().position(|g| g.variant_family() == family) else {
            return Err(format!("{family} is not offered"));
        };
        // The digest verified at boot against the approved manifest.
        let file = format!("{id}.json");
        let Some(check) = self.verification.checks.iter().find(|c| c.file.file_name().is_some_and(|f| f.to_string_lossy() == file)) else {
            return Err(format!("{id} was not verified at boot"));
        };
        if !check.ok() {
            return Err(format!("{id} did not verify against the approved manifest"));
        }
        let by = self.machine.config().operator.operator_id.clone();
        self.machine.choose_variant(&family, id, &check.actual, &by).map_err(|e| e.to_string())?;
        let chosen = self.variants_aside.remove(k);
        let before = std::mem::replace(&mut self.games[place], chosen);
        self.variants_aside.push(before);
        self.games[place].0.reset_bet();
        tracing::warn!("RTP variant of {family}: {id}, chosen by {by}");
        Ok(())
    }
}
