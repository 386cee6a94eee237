//! `paytable rules` (M-40): a game's rules page, published from its
//! paytable in Portuguese and English. The page is the help screen's own
//! (`game_host::help::document`, the blocks the cabinet lays out): the
//! rules, the bet range, every pay, the exact RTP the compiler proves, the
//! odds disclosure, the double-up, how to complain. A paytable the
//! compiler refuses has no rules page: the refusal is printed instead.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use game_host::catalogue::HostedGame;
use game_host::help::{Block, HelpContext, document, markdown};
use game_host::names::Lang;
use meters::Cents;
use meters::money::Currency;

/// A published page: written apart from any cabinet, in one language, at
/// a denomination, in the floor's default currency.
struct Published {
    lang: Lang,
    denom: Cents,
    currency: Currency,
    /// How each level a configuration attaches is won, when the page is
    /// published for one (`--config`).
    conditions: Option<Vec<String>>,
}

impl HelpContext for Published {
    fn lang(&self) -> Lang {
        self.lang
    }

    fn currency(&self) -> Currency {
        self.currency.clone()
    }

    fn denom(&self) -> Cents {
        self.denom
    }

    /// What a cabinet attaches is its configuration's: the page lists the
    /// levels of the configuration it is published for, or says so.
    fn progressive_conditions(&self) -> Option<Vec<String>> {
        self.conditions.clone()
    }

    /// A cabinet's limit of a round (C-26) is its configuration's.
    fn coin_in_limit(&self) -> Option<Cents> {
        None
    }
}

/// Write the rules page of `file` in each language: to `out/ID.LANG.md`,
/// or to standard output.
pub(super) fn rules(
    file: &Path,
    floor: &str,
    langs: &[Lang],
    (denom, config): (Cents, Option<&Path>),
    out: Option<&Path>,
    (manifest, compiled): (&Path, &Path),
) -> Result<ExitCode> {
    if denom == 0 {
        return Err(anyhow!("--denom must be at least 1 cent"));
    }
    let artifact = super::compile::artifact(file, floor)?;
    // Issue 77: a page is a game's a cabinet plays only when its compiled
    // paytable is approved; any other is headed as a draft.
    let is_approved = approved_as(&artifact, manifest, compiled)?;
    if !is_approved {
        eprintln!("{}: not approved in {}: the page is headed as a draft", file.display(), manifest.display());
    }
    let approved = paytables::artifact::Approved::of_artifact(artifact)?;
    let game = HostedGame::from_approved(approved).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    // Issue 77: the progressive levels a configuration attaches, with what
    // each asks of the bet (the Grande's largest bet per line).
    let config = config.map(|c| game_host::config::CabinetConfig::load(c).map_err(|e| anyhow!("{}: {e}", c.display()))).transpose()?;
    for &lang in langs {
        let conditions = config.as_ref().map(|c| game_host::session::conditions(lang, &game, &game_host::session::Attached::of_config(c)));
        let context = Published { lang, denom, currency: meters::MachineConfig::default().currency, conditions };
        let mut blocks = document(&context, &game);
        if !is_approved {
            blocks.insert(0, Block::Text(draft(lang, manifest)));
        }
        let page = markdown(lang, game.title(lang), &blocks);
        match out {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| anyhow!("{}: {e}", dir.display()))?;
                let path = dir.join(format!("{}.{}.md", game.id(), code(lang)));
                std::fs::write(&path, page).map_err(|e| anyhow!("{}: {e}", path.display()))?;
                println!("{}", path.display());
            }
            None => println!("{page}"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A language's code in a file name.
fn code(lang: Lang) -> &'static str {
    match lang {
        Lang::Pt => "pt",
        Lang::En => "en",
    }
}

/// Whether `artifact` is the one approved under its id in `manifest`: the
/// approved file in `compiled` (its digest the manifest's) holds this same
/// artifact, source digest included. Compared as values, so that a field
/// the compiler has learned to write since, at its default, is no
/// difference (the cabinet reads the approved file the same way).
fn approved_as(artifact: &paytables::artifact::Artifact, manifest: &Path, compiled: &Path) -> Result<bool> {
    use paytables::artifact::{Artifact, canonical_bytes, read_manifest, sha256_hex};
    let listed = read_manifest(manifest)?;
    let Some(entry) = listed.approved.iter().find(|e| e.id == artifact.game.id()) else { return Ok(false) };
    let Ok(bytes) = std::fs::read(compiled.join(&entry.file)) else { return Ok(false) };
    if sha256_hex(&bytes) != entry.sha256 {
        return Ok(false);
    }
    let Ok(shipped) = serde_json::from_slice::<Artifact>(&bytes) else { return Ok(false) };
    Ok(canonical_bytes(&shipped) == canonical_bytes(artifact))
}

/// The head of a page whose paytable is not approved.
fn draft(lang: Lang, manifest: &Path) -> String {
    match lang {
        Lang::Pt => format!("**RASCUNHO — tabela não aprovada** ({}): esta página não é a de um jogo que uma máquina joga.", manifest.display()),
        Lang::En => format!("**DRAFT — paytable not approved** ({}): this page is not that of a game a cabinet plays.", manifest.display()),
    }
}
