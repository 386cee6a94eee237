//! The compiled artifact and the approved manifest (certification.md B-19).
//!
//! `paytable compile` writes a canonical JSON artifact — the validated game
//! model and its exact RTP per bet configuration — byte for byte the same
//! for the same source. Its SHA-256 digest goes into the approved manifest
//! (`assets/paytables/approved.ron`) when the paytable is approved. The
//! cabinet loads a paytable only through [`load_approved`]: the artifact's
//! digest must be in the manifest, and its RTP at or above the cabinet's
//! floor (decisions.md: refused "again by the cabinet at load").

use std::path::Path;

use game_core::baccarat::BaccaratGame;
use game_core::bingo::BingoGame;
use game_core::blackjack::BlackjackGame;
use game_core::boule::BouleGame;
use game_core::desafio_ao_casino::DesafioAoCasinoGame;
use game_core::dice::banca_francesa::BancaFrancesaGame;
use game_core::dice::craps::CrapsGame;
use game_core::dice::fish_prawn_crab::FishPrawnCrabGame;
use game_core::dice::sic_bo::SicBoGame;
use game_core::draw_poker::DrawPokerGame;
use game_core::fantan::FantanGame;
use game_core::poquer_3_cartas::Poquer3CartasGame;
use game_core::reels::ReelGame;
use game_core::roda_da_sorte::RodaDaSorteGame;
use game_core::roulette::RouletteGame;
use game_core::stud_poker::StudPokerGame;
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::floor::{Floor, decimal};

/// Version 2: every kind of game (version 1 held reel games only).
pub const FORMAT: &str = "egm-paytable/2";

/// The validated game model, of whichever kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CompiledGame {
    Reels(ReelGame),
    DrawPoker(DrawPokerGame),
    StudPoker(StudPokerGame),
    Roulette(RouletteGame),
    BancaFrancesa(BancaFrancesaGame),
    SicBo(SicBoGame),
    Baccarat(BaccaratGame),
    Blackjack(BlackjackGame),
    Bingo(BingoGame),
    Boule(BouleGame),
    RodaDaSorte(RodaDaSorteGame),
    Fantan(FantanGame),
    FishPrawnCrab(FishPrawnCrabGame),
    Poquer3Cartas(Poquer3CartasGame),
    DesafioAoCasino(DesafioAoCasinoGame),
    Craps(CrapsGame),
}

impl CompiledGame {
    pub fn id(&self) -> &str {
        match self {
            CompiledGame::Reels(g) => &g.id,
            CompiledGame::DrawPoker(g) => &g.id,
            CompiledGame::StudPoker(g) => &g.id,
            CompiledGame::Roulette(g) => &g.id,
            CompiledGame::BancaFrancesa(g) => &g.id,
            CompiledGame::SicBo(g) => &g.id,
            CompiledGame::Baccarat(g) => &g.id,
            CompiledGame::Blackjack(g) => &g.id,
            CompiledGame::Bingo(g) => &g.id,
            CompiledGame::Boule(g) => &g.id,
            CompiledGame::RodaDaSorte(g) => &g.id,
            CompiledGame::Fantan(g) => &g.id,
            CompiledGame::FishPrawnCrab(g) => &g.id,
            CompiledGame::Poquer3Cartas(g) => &g.id,
            CompiledGame::DesafioAoCasino(g) => &g.id,
            CompiledGame::Craps(g) => &g.id,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            CompiledGame::Reels(g) => &g.name,
            CompiledGame::DrawPoker(g) => &g.name,
            CompiledGame::StudPoker(g) => &g.name,
            CompiledGame::Roulette(g) => &g.name,
            CompiledGame::BancaFrancesa(g) => &g.name,
            CompiledGame::SicBo(g) => &g.name,
            CompiledGame::Baccarat(g) => &g.name,
            CompiledGame::Blackjack(g) => &g.name,
            CompiledGame::Bingo(g) => &g.name,
            CompiledGame::Boule(g) => &g.name,
            CompiledGame::RodaDaSorte(g) => &g.name,
            CompiledGame::Fantan(g) => &g.name,
            CompiledGame::FishPrawnCrab(g) => &g.name,
            CompiledGame::Poquer3Cartas(g) => &g.name,
            CompiledGame::DesafioAoCasino(g) => &g.name,
            CompiledGame::Craps(g) => &g.name,
        }
    }

    /// What the bet configurations of [`Artifact::rtp`] count.
    pub fn bet_unit(&self) -> &'static str {
        match self {
            CompiledGame::Reels(_) => "lines",
            CompiledGame::DrawPoker(_) => "coins",
            CompiledGame::StudPoker(_) => "ante",
            // Roulette: the lowest RTP of the chances covering that many numbers.
            CompiledGame::Roulette(_) => "numbers covered",
            // The dice tables, baccarat, boule, the wheel of fortune, fantan,
            // fish-prawn-crab, póquer de 3 cartas (its one bet, the ante):
            // the lowest RTP of any bet (one entry, 0).
            CompiledGame::BancaFrancesa(_)
            | CompiledGame::SicBo(_)
            | CompiledGame::Baccarat(_)
            | CompiledGame::Boule(_)
            | CompiledGame::RodaDaSorte(_)
            | CompiledGame::Fantan(_)
            | CompiledGame::FishPrawnCrab(_)
            | CompiledGame::Poquer3Cartas(_)
            | CompiledGame::DesafioAoCasino(_)
            | CompiledGame::Craps(_) => "lowest bet",
            // Blackjack: the game's RTP under optimal play (entry 0),
            // without its bonus (1) and insurance (2), to nine decimals.
            CompiledGame::Blackjack(_) => "line",
            // Bingo: the base game's exact RTP per credit bet on a card
            // (entry 0), the same for any number of cards.
            CompiledGame::Bingo(_) => "card",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifact {
    pub format: String,
    /// SHA-256 of the RON source it was compiled from.
    pub source_sha256: String,
    pub game: CompiledGame,
    /// Exact RTP per bet configuration — lines for reels, coins for draw
    /// poker, ante for stud poker (optimal play for poker) — as
    /// `numerator/denominator`.
    pub rtp: Vec<(u64, String)>,
    /// A side bet's exact RTP at its start value (stud's jackpot bet),
    /// held to the floor on its own (decisions.md).
    pub side_bet_rtp: Option<String>,
    pub odds_disclosure: Option<String>,
    /// B-16 (issue 77): a table game's every bet, as the cabinet names the
    /// bet a chip stands on, with its exact RTP (`numerator/denominator`):
    /// the cabinet meters each bet's stake at its own RTP, where `rtp`
    /// holds only the lowest. Absent for the other kinds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bet_rtp: Vec<(String, String)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub approved: Vec<ManifestEntry>,
    /// Approved program files (the cabinet executable of a certified
    /// build), by file name; a production cabinet refuses to play when its
    /// own executable is not among them (certification.md H-51).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub programs: Vec<ManifestEntry>,
    /// The release-signing key's signature of [`Manifest::release_digest`]
    /// (issue 68; `egm-lab sign-release`): the machine key of a cabinet
    /// provisioned for that signer answers to any release it signed, and a
    /// floor cabinet runs no other. Outside the digest it signs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<meters::keystore::ReleaseSignature>,
}

impl Manifest {
    /// The approved release's digest (issue 47, hole 1; issue 68, attack
    /// 4): SHA-256 over one line `<sha256>  <file>` per approved program,
    /// sorted by file name, then one line `paytable <id> <sha256>  <file>`
    /// per approved paytable, sorted by id. The cabinet's launcher measures
    /// it into the TPM before a certified program starts; the machine key
    /// answers only to that measurement, and the host plays only from the
    /// manifest whose digest it is (`meters::keystore::check_release`): a
    /// paytable approved or edited after provisioning is another release.
    pub fn release_digest(&self) -> [u8; 32] {
        let mut programs: Vec<&ManifestEntry> = self.programs.iter().collect();
        programs.sort_by(|a, b| a.file.cmp(&b.file));
        let mut hash = Sha256::new();
        for p in programs {
            hash.update(format!("{}  {}\n", p.sha256, p.file).as_bytes());
        }
        let mut paytables: Vec<&ManifestEntry> = self.approved.iter().collect();
        paytables.sort_by(|a, b| (&a.id, &a.file, &a.sha256).cmp(&(&b.id, &b.file, &b.sha256)));
        for p in paytables {
            hash.update(format!("paytable {} {}  {}\n", p.id, p.sha256, p.file).as_bytes());
        }
        hash.finalize().into()
    }

    /// The release with its signature, where the manifest is signed.
    pub fn signed_release(&self) -> Option<meters::keystore::SignedRelease> {
        self.signature.clone().map(|signature| meters::keystore::SignedRelease { digest: self.release_digest(), signature })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestEntry {
    pub id: String,
    pub file: String,
    pub sha256: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ArtifactError {
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error("{0}: not a compiled paytable ({1})")]
    Format(String, String),
    #[error("{file}: digest {digest} is not in the approved manifest")]
    NotApproved { file: String, digest: String },
    #[error("{file}: {game} at {bet} returns {rtp}, under the floor of {floor} (M-17)")]
    UnderFloor { file: String, game: String, bet: String, rtp: String, floor: String },
}

fn ratio(r: &BigRational) -> String {
    format!("{}/{}", r.numer(), r.denom())
}

/// Build the artifact of a checked game from its exact figures: the RTP
/// per bet configuration and the side bet's, if any.
pub fn build(
    source_text: &str,
    game: CompiledGame,
    rtp: &[(u64, BigRational)],
    side_bet_rtp: Option<&BigRational>,
    odds_disclosure: Option<String>,
) -> Artifact {
    Artifact {
        format: FORMAT.into(),
        source_sha256: hex::encode(Sha256::digest(source_text.as_bytes())),
        game,
        rtp: rtp.iter().map(|(bet, r)| (*bet, ratio(r))).collect(),
        side_bet_rtp: side_bet_rtp.map(ratio),
        odds_disclosure,
        bet_rtp: Vec::new(),
    }
}

impl Artifact {
    /// The artifact with each bet of its table and the bet's exact RTP
    /// (B-16, issue 77).
    pub fn with_bet_rtp(mut self, bets: &[(String, BigRational)]) -> Artifact {
        self.bet_rtp = bets.iter().map(|(name, r)| (name.clone(), ratio(r))).collect();
        self
    }
}

/// The canonical bytes of an artifact (compact JSON, fields in declaration
/// order, no maps with unordered keys).
pub fn canonical_bytes(a: &Artifact) -> Vec<u8> {
    serde_json::to_vec(a).unwrap_or_default()
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// An RTP in millionths, rounded down (B-16's wager categories: 962_345
/// is 96.2345 %): what a bet returns at least, never more; None past what
/// a u32 holds.
pub fn ppm(rtp: &BigRational) -> Option<u32> {
    let million = BigRational::from_integer(BigInt::from(1_000_000));
    num_traits::ToPrimitive::to_u32(&(rtp * million).floor().to_integer())
}

fn parse_ratio(s: &str) -> Option<BigRational> {
    let (n, d) = s.split_once('/')?;
    let d: BigInt = d.parse().ok()?;
    if d == BigInt::from(0) {
        return None;
    }
    Some(BigRational::new(n.parse().ok()?, d))
}

pub fn read_manifest(path: &Path) -> Result<Manifest, ArtifactError> {
    let file = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => ron::from_str(&text).map_err(|e| ArtifactError::Format(file, e.to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Manifest::default()),
        Err(e) => Err(ArtifactError::Io(file, e)),
    }
}

/// Load an artifact for play: approved digest and every RTP (each bet
/// configuration, and a side bet's at its start value) at or above `floor`.
pub fn load_approved(path: &Path, manifest: &Manifest, floor: &Floor) -> Result<CompiledGame, ArtifactError> {
    load_approved_with_rtp(path, manifest, floor).map(|a| a.game)
}

/// An approved game with its exact RTP per bet configuration (the
/// artifact's), for the help screen (issue 50: the chosen variant's RTP).
#[derive(Clone, Debug)]
pub struct Approved {
    pub game: CompiledGame,
    pub rtp: Vec<(u64, BigRational)>,
    /// The mandatory odds disclosure (certification.md 15), shown with the
    /// game's rules.
    pub odds_disclosure: Option<String>,
    /// B-16: a table game's RTP bet by bet ([`Artifact::bet_rtp`]).
    pub bet_rtp: Vec<(String, BigRational)>,
    /// The side bet's exact RTP ([`Artifact::side_bet_rtp`]: stud's
    /// jackpot bet), metered at its own (B-16, issue 77).
    pub side_bet_rtp: Option<BigRational>,
}

impl Approved {
    /// An artifact the compiler has just built and proved, as the host
    /// would approve it (`paytable rules` publishes its page from this):
    /// its exact RTP parsed.
    pub fn of_artifact(a: Artifact) -> Result<Self, ArtifactError> {
        let rtp = a
            .rtp
            .iter()
            .map(|(bet, r)| parse_ratio(r).map(|r| (*bet, r)).ok_or_else(|| ArtifactError::Format(a.game.id().to_owned(), format!("bad RTP {r:?}"))))
            .collect::<Result<_, _>>()?;
        let bet_rtp = a
            .bet_rtp
            .iter()
            .map(|(bet, r)| parse_ratio(r).map(|r| (bet.clone(), r)).ok_or_else(|| ArtifactError::Format(a.game.id().to_owned(), format!("bad RTP {r:?}"))))
            .collect::<Result<_, _>>()?;
        let side_bet_rtp = match &a.side_bet_rtp {
            Some(r) => Some(parse_ratio(r).ok_or_else(|| ArtifactError::Format(a.game.id().to_owned(), format!("bad side-bet RTP {r:?}")))?),
            None => None,
        };
        Ok(Approved { game: a.game, rtp, odds_disclosure: a.odds_disclosure, bet_rtp, side_bet_rtp })
    }

    /// Each bet configuration's RTP in millionths, rounded down (B-16's
    /// wager categories: 962_345 is 96.2345%).
    pub fn rtp_ppm(&self) -> Vec<(u64, u32)> {
        self.rtp.iter().filter_map(|(key, r)| ppm(r).map(|ppm| (*key, ppm))).collect()
    }

    /// Each bet of a table game and its RTP in millionths, rounded down
    /// (B-16's wager categories, issue 77).
    pub fn bet_rtp_ppm(&self) -> Vec<(String, u32)> {
        self.bet_rtp.iter().filter_map(|(bet, r)| ppm(r).map(|ppm| (bet.clone(), ppm))).collect()
    }

    /// The side bet's RTP in millionths, rounded down (B-16's wager
    /// category of stud's jackpot bet, issue 77).
    pub fn side_bet_rtp_ppm(&self) -> Option<u32> {
        self.side_bet_rtp.as_ref().and_then(ppm)
    }

    /// The RTP as the help screen shows it, to two decimals: one figure,
    /// or the lowest and highest over the bet configurations.
    pub fn rtp_text(&self) -> Option<String> {
        let percent = |r: &BigRational| decimal(&(r * BigRational::from_integer(100.into())), 2);
        let lo = self.rtp.iter().map(|x| &x.1).min()?;
        let hi = self.rtp.iter().map(|x| &x.1).max()?;
        Some(if percent(lo) == percent(hi) { format!("{} %", percent(lo)) } else { format!("{} – {} %", percent(lo), percent(hi)) })
    }
}

/// [`load_approved`], with the artifact's exact RTP kept.
pub fn load_approved_with_rtp(path: &Path, manifest: &Manifest, floor: &Floor) -> Result<Approved, ArtifactError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| ArtifactError::Io(file.clone(), e))?;
    let digest = sha256_hex(&bytes);
    if !manifest.approved.iter().any(|e| e.sha256 == digest) {
        return Err(ArtifactError::NotApproved { file, digest });
    }
    let a: Artifact = serde_json::from_slice(&bytes).map_err(|e| ArtifactError::Format(file.clone(), e.to_string()))?;
    if a.format != FORMAT {
        return Err(ArtifactError::Format(file, format!("format {:?}, expected {FORMAT:?}", a.format)));
    }
    let unit = a.game.bet_unit();
    let mut figures: Vec<(String, &String)> = a.rtp.iter().map(|(bet, r)| (format!("{bet} {unit}"), r)).collect();
    if let Some(side) = &a.side_bet_rtp {
        figures.push(("the side bet".to_owned(), side));
    }
    // M-17, B-16: each bet of a table on its own.
    figures.extend(a.bet_rtp.iter().map(|(bet, r)| (format!("the bet {bet}"), r)));
    let percent = |r: &BigRational| decimal(&(r * BigRational::from_integer(100.into())), 4) + "%";
    for (bet, rtp) in figures {
        let r = parse_ratio(rtp).ok_or_else(|| ArtifactError::Format(file.clone(), format!("bad RTP {rtp:?}")))?;
        if r < *floor.value() {
            return Err(ArtifactError::UnderFloor { file, game: a.game.id().to_owned(), bet, rtp: percent(&r), floor: percent(floor.value()) });
        }
    }
    let rtp = a.rtp.iter().filter_map(|(bet, r)| parse_ratio(r).map(|r| (*bet, r))).collect();
    let bet_rtp = a.bet_rtp.iter().filter_map(|(bet, r)| parse_ratio(r).map(|r| (bet.clone(), r))).collect();
    let side_bet_rtp = a.side_bet_rtp.as_deref().and_then(parse_ratio);
    Ok(Approved { game: a.game, rtp, odds_disclosure: a.odds_disclosure, bet_rtp, side_bet_rtp })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, file: &str, sha: char) -> ManifestEntry {
        ManifestEntry { id: id.into(), file: file.into(), sha256: sha.to_string().repeat(64) }
    }

    fn manifest() -> Manifest {
        Manifest {
            approved: vec![entry("minas", "minas.json", 'b'), entry("bacara", "bacara.json", 'a')],
            programs: vec![entry("egm-lab", "egm-lab", 'd'), entry("cabinet", "cabinet", 'c')],
            signature: None,
        }
    }

    /// Issue 68, attack 4: the release is the programs and every approved
    /// paytable, as the documented lines say (an independent SHA-256 of
    /// them), whatever the entries' order; an edited or added paytable is
    /// another release.
    #[test]
    fn the_release_digest_covers_the_programs_and_every_approved_paytable() {
        let lines = format!(
            "{c}  cabinet\n{d}  egm-lab\npaytable bacara {a}  bacara.json\npaytable minas {b}  minas.json\n",
            a = "a".repeat(64),
            b = "b".repeat(64),
            c = "c".repeat(64),
            d = "d".repeat(64)
        );
        let expected: [u8; 32] = Sha256::digest(lines.as_bytes()).into();
        let m = manifest();
        assert_eq!(m.release_digest(), expected);
        let mut reordered = manifest();
        reordered.approved.reverse();
        reordered.programs.reverse();
        assert_eq!(reordered.release_digest(), expected);
        let mut edited = manifest();
        edited.approved[0].sha256 = "e".repeat(64);
        assert_ne!(edited.release_digest(), expected);
        let mut added = manifest();
        added.approved.push(entry("roleta", "roleta.json", 'f'));
        assert_ne!(added.release_digest(), expected);
        let mut renamed = manifest();
        renamed.approved[1].id = "bacara-ez".into();
        assert_ne!(renamed.release_digest(), expected);
    }
}
