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
use game_host::help::{HelpContext, document, markdown};
use game_host::names::Lang;
use meters::Cents;
use meters::money::Currency;

/// A published page: written apart from any cabinet, in one language, at
/// a denomination, in the floor's default currency.
struct Published {
    lang: Lang,
    denom: Cents,
    currency: Currency,
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

    /// What a cabinet attaches is its configuration's: the page says so.
    fn progressive_conditions(&self) -> Option<Vec<String>> {
        None
    }

    /// A cabinet's limit of a round (C-26) is its configuration's.
    fn coin_in_limit(&self) -> Option<Cents> {
        None
    }
}

/// Write the rules page of `file` in each language: to `out/ID.LANG.md`,
/// or to standard output.
pub(super) fn rules(file: &Path, floor: &str, langs: &[Lang], denom: Cents, out: Option<&Path>) -> Result<ExitCode> {
    if denom == 0 {
        return Err(anyhow!("--denom must be at least 1 cent"));
    }
    let artifact = super::compile::artifact(file, floor)?;
    let approved = paytables::artifact::Approved::of_artifact(artifact)?;
    let game = HostedGame::from_approved(approved).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    for &lang in langs {
        let context = Published { lang, denom, currency: meters::MachineConfig::default().currency };
        let page = markdown(lang, game.title(lang), &document(&context, &game));
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
