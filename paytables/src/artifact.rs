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

use game_core::reels::ReelGame;
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::check::Floor;
use crate::reel_math::ReelFigures;

pub const FORMAT: &str = "egm-paytable/1";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifact {
    pub format: String,
    /// SHA-256 of the RON source it was compiled from.
    pub source_sha256: String,
    pub game: ReelGame,
    /// Exact RTP per line count, as `numerator/denominator`.
    pub rtp: Vec<(u32, String)>,
    pub odds_disclosure: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub approved: Vec<ManifestEntry>,
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
    #[error("{file}: {game} with {lines} lines returns {rtp}, under the floor of {floor} (M-17)")]
    UnderFloor { file: String, game: String, lines: u32, rtp: String, floor: String },
}

/// Build the artifact of a checked game.
pub fn build(source_text: &str, game: &ReelGame, figures: &ReelFigures, odds_disclosure: Option<String>) -> Artifact {
    Artifact {
        format: FORMAT.into(),
        source_sha256: hex::encode(Sha256::digest(source_text.as_bytes())),
        game: game.clone(),
        rtp: figures.configs.iter().map(|c| (c.lines, format!("{}/{}", c.rtp.numer(), c.rtp.denom()))).collect(),
        odds_disclosure,
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

/// Load an artifact for play: approved digest and RTP at or above `floor`.
pub fn load_approved(path: &Path, manifest: &Manifest, floor: &Floor) -> Result<ReelGame, ArtifactError> {
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
    for (lines, rtp) in &a.rtp {
        let r = parse_ratio(rtp).ok_or_else(|| ArtifactError::Format(file.clone(), format!("bad RTP {rtp:?}")))?;
        if r < *floor.value() {
            return Err(ArtifactError::UnderFloor {
                file,
                game: a.game.id.clone(),
                lines: *lines,
                rtp: crate::reel_math::decimal(&(r * BigRational::from_integer(100.into())), 4) + "%",
                floor: crate::reel_math::decimal(&(floor.value() * BigRational::from_integer(100.into())), 4) + "%",
            });
        }
    }
    Ok(a.game)
}
