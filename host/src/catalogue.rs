//! The catalogue of hosted games: each approved paytable artifact becomes
//! a game of its kind. [`HostedGame::from_artifact`] is the one place that
//! maps a kind of artifact to its [`GameKind`]: adding a kind of game adds
//! one line here.

use paytables::artifact::CompiledGame;

use crate::kind::GameKind;
use crate::kinds::{
    baccarat::Baccarat, banca_francesa::BancaFrancesa, bingo::Bingo, blackjack::Blackjack, boule::Boule, craps::Craps, desafio_ao_casino::DesafioAoCasino,
    draw_poker::DrawPoker, fantan::Fantan, fish_prawn_crab::FishPrawnCrab, poquer_3_cartas::Poquer3Cartas, reels::Reels, roda_da_sorte::RodaDaSorte,
    roulette::Roulette, sic_bo::SicBo, stud_poker::StudPoker,
};
use crate::names::Lang;
use crate::round::{Hosted, Round, RoundInfo, Table};

/// A game this cabinet hosts, of any kind, its RTP as the help screen
/// shows it, and its odds disclosure (from its approved artifact).
pub struct HostedGame(pub(crate) Box<dyn Table>, pub(crate) Option<String>, pub(crate) Option<String>);

impl HostedGame {
    pub fn new<K: GameKind>(rules: K) -> Self {
        HostedGame(Box::new(Hosted::new(rules)), None, None)
    }

    /// The game of an approved artifact, with its exact RTP.
    pub fn from_approved(approved: paytables::artifact::Approved) -> Result<Self, String> {
        let rtp = approved.rtp_text();
        // B-16: each bet configuration's RTP in millionths, rounded down.
        let table = approved.rtp_ppm();
        // Issue 77: a table game's RTP bet by bet.
        let bets = approved.bet_rtp_ppm();
        // Issue 77: a side bet's (stud's jackpot bet) RTP.
        let side = approved.side_bet_rtp_ppm();
        let mut table_game = Self::from_artifact(approved.game)?.0;
        table_game.set_rtp_table(table, bets, side);
        // B-16: every bet of a table is metered at its own proven RTP; an
        // artifact that proves none for one of them (one compiled before
        // issue 77) is not loaded, rather than metered at its lowest.
        let unproven = table_game.unproven_bets();
        if !unproven.is_empty() {
            return Err(format!(
                "{}: its artifact proves no RTP for the bet {} (B-16: each bet is metered at its own); compile it again",
                table_game.id(),
                unproven.join(", ")
            ));
        }
        Ok(HostedGame(table_game, rtp, approved.odds_disclosure))
    }

    /// The game's RTP as its approved artifact proves it (issue 50: the
    /// help screen shows the chosen variant's).
    pub fn rtp(&self) -> Option<&str> {
        self.1.as_deref()
    }

    /// The odds disclosure its paytable carries (certification.md 15).
    pub fn odds_disclosure(&self) -> Option<&str> {
        self.2.as_deref()
    }

    /// The game this one is an RTP variant of, or its own id (issue 50):
    /// a cabinet offers one variant of each game.
    pub fn variant_family(&self) -> &str {
        self.rules::<Reels>().and_then(|r| r.game.variant_of.as_deref()).unwrap_or_else(|| self.id())
    }

    /// The game for an approved artifact.
    pub fn from_artifact(game: CompiledGame) -> Result<Self, String> {
        Ok(match game {
            CompiledGame::Reels(g) => HostedGame::new(Reels::new(g)?),
            // Multi-hand play is hosted as the paytable offers it (issue 18).
            CompiledGame::DrawPoker(g) => HostedGame::new(DrawPoker(g)),
            CompiledGame::StudPoker(g) => HostedGame::new(StudPoker(g)),
            CompiledGame::Roulette(g) => HostedGame::new(Roulette(g)),
            CompiledGame::BancaFrancesa(g) => HostedGame::new(BancaFrancesa(g)),
            CompiledGame::SicBo(g) => HostedGame::new(SicBo(g)),
            CompiledGame::Baccarat(g) => HostedGame::new(Baccarat(g)),
            CompiledGame::Blackjack(g) => HostedGame::new(Blackjack(g)),
            CompiledGame::Bingo(g) => HostedGame::new(Bingo(g)),
            CompiledGame::Boule(g) => HostedGame::new(Boule(g)),
            CompiledGame::RodaDaSorte(g) => HostedGame::new(RodaDaSorte(g)),
            CompiledGame::Fantan(g) => HostedGame::new(Fantan(g)),
            CompiledGame::FishPrawnCrab(g) => HostedGame::new(FishPrawnCrab(g)),
            CompiledGame::Poquer3Cartas(g) => HostedGame::new(Poquer3Cartas(g)),
            CompiledGame::DesafioAoCasino(g) => HostedGame::new(DesafioAoCasino(g)),
            CompiledGame::Craps(g) => HostedGame::new(Craps(g)),
        })
    }

    pub fn id(&self) -> &str {
        self.0.id()
    }

    pub fn name(&self) -> &str {
        self.0.name()
    }

    /// The game's name in the player's language (issue 45, defect 10).
    pub fn title(&self, lang: Lang) -> &str {
        lang.term(self.0.name())
    }

    /// The family of game, for the menu.
    pub fn family(&self, lang: Lang) -> &'static str {
        self.0.family(lang)
    }

    /// Whether its screen animates the outcome before it settles (reels).
    pub fn animated(&self) -> bool {
        self.0.animated()
    }

    /// The least start value of a side-bet pool it feeds, in credits (PSD 41).
    pub fn side_pool_seed(&self) -> Option<u64> {
        self.0.side_pool_seed()
    }

    /// The largest stake a bet of it can be, in credits, when its
    /// paytable bounds it (SAS LP 1F).
    pub fn largest_stake(&self) -> Option<u64> {
        self.0.largest_stake()
    }

    /// Whether autoplay may play it (M-32).
    pub fn autoplay(&self) -> bool {
        self.0.autoplay()
    }

    /// The game's rules when it is of kind `K` (its screen plugin asks).
    pub fn rules<K: GameKind>(&self) -> Option<&K> {
        self.0.as_any().downcast_ref::<Hosted<K>>().map(|h| &h.rules)
    }

    /// The bet set on the panel when the game is of kind `K`.
    pub fn bet<K: GameKind>(&self) -> Option<&K::Bet> {
        self.0.as_any().downcast_ref::<Hosted<K>>().map(|h| &h.bet)
    }

    /// The round on screen (open, or the last one until the next starts)
    /// when the game is of kind `K`.
    pub fn round<K: GameKind>(&self) -> Option<&Round<K>> {
        self.0.as_any().downcast_ref::<Hosted<K>>().and_then(|h| h.round.as_ref())
    }

    /// The round on screen, whatever its kind.
    pub fn round_info(&self) -> Option<RoundInfo> {
        self.0.round()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn shipped(id: &str) -> paytables::artifact::Artifact {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../assets/paytables/compiled/{id}.json"));
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    }

    /// B-16, issue 77: every shipped table game's artifact names an RTP
    /// for each bet of its cloth (so none is metered at the table's
    /// lowest); an artifact without them, as compiled before, is refused
    /// with the bets it lacks.
    #[test]
    fn a_table_game_loads_only_with_each_bets_rtp() {
        for id in [
            "bacara",
            "bacara-6-sem-comissao",
            "bacara-empate-9",
            "bacara-ez",
            "bacara-macau",
            "banca-francesa",
            "cussec",
            "boule",
            "craps",
            "desafio-ao-casino",
            "fantan",
            "peixe-camarao-caranguejo",
            "poquer-3-cartas",
            "roda-da-sorte",
            "roleta-americana",
            "roleta-francesa",
        ] {
            let a = shipped(id);
            let game = HostedGame::from_approved(paytables::artifact::Approved::of_artifact(a.clone()).unwrap()).unwrap_or_else(|e| panic!("{e}"));
            assert!(game.0.unproven_bets().is_empty(), "{id}");
            if id == "poquer-3-cartas" {
                // One bet: the artifact's one RTP.
                assert!(a.bet_rtp.iter().all(|(name, _)| !name.is_empty()));
                continue;
            }
            let mut old = a;
            old.bet_rtp.clear();
            let e = HostedGame::from_approved(paytables::artifact::Approved::of_artifact(old).unwrap()).err().unwrap();
            assert!(e.starts_with(&format!("{id}: its artifact proves no RTP for the bet ")) && e.contains("B-16"), "{e}");
        }
    }
}
