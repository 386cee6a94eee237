//! The help pages of every kind of game (M-8, M-31, M-40): the rules,
//! bets, pays and return of a game, from its approved paytable, as blocks
//! of text and tables in the player's language. The cabinet's help screen
//! lays them out into pages; `paytable rules` publishes the same blocks
//! as a document. Pure text: no Bevy, no layout, no money movement.
//!
//! What a page depends on beyond the paytable (the language, the
//! currency and denomination, the progressives a cabinet attaches) comes
//! from a [`HelpContext`]: the session implements it on a cabinet, the
//! paytable tool for a published page.

mod baccarat;
mod bingo;
mod blackjack;
mod craps;
mod desafio_ao_casino;
mod dice;
mod draw_poker;
mod fantan;
mod poquer_3_cartas;
mod reels;
mod roulette;
mod stud_poker;
mod wheels;

use game_core::double_up::DoubleUpRule;
use game_core::poker::Category;
use meters::Cents;
use meters::money::Currency;

pub use baccarat::pays as baccarat_pays;
pub use craps::craps_label;
pub use dice::fish_prawn_crab_label;
pub use dice::label as sic_bo_label;

use crate::catalogue::HostedGame;
use crate::names::Lang;
use crate::session::Session;

/// One block of a help page.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Heading(String),
    /// A paragraph, wrapped to the page's width.
    Text(String),
    /// A table: a header row and its rows, column by column.
    Table {
        header: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    /// A reel game's paylines: each line's row on each reel, in a window
    /// of `rows` rows.
    Lines {
        rows: u8,
        lines: Vec<Vec<u8>>,
    },
}

/// A kind's help: its blocks, and the double-up its paytable offers.
pub struct HelpDoc {
    pub blocks: Vec<Block>,
    pub double_up: Option<DoubleUpRule>,
}

/// What a help page needs beyond the game's paytable.
pub trait HelpContext {
    /// The language the page is written in.
    fn lang(&self) -> Lang;
    /// The page's words in its language.
    fn t(&self, key: &'static str) -> &'static str {
        self.lang().t(key)
    }
    /// The currency amounts are written in.
    fn currency(&self) -> Currency;
    /// The credit's value in cents.
    fn denom(&self) -> Cents;
    /// How each progressive level attached to the game is won (M-31), or
    /// `None` where the page is written apart from any cabinet (what is
    /// attached is then the cabinet's configuration's).
    fn progressive_conditions(&self) -> Option<Vec<String>>;
    /// C-26: the cabinet's limit of a play's coin-in, in cents, or `None`
    /// where the page is written apart from any cabinet.
    fn coin_in_limit(&self) -> Option<Cents>;
}

impl HelpContext for Session {
    fn lang(&self) -> Lang {
        Session::lang(self)
    }

    fn currency(&self) -> Currency {
        self.machine().config().currency.clone()
    }

    fn denom(&self) -> Cents {
        Session::denom(self)
    }

    fn progressive_conditions(&self) -> Option<Vec<String>> {
        Some(Session::progressive_conditions(self))
    }

    fn coin_in_limit(&self) -> Option<Cents> {
        Some(self.machine().config().excessive_increment.coin_in)
    }
}

/// The kind's own page of `game`: one line per kind of game.
pub fn page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    reels::page(s, game)
        .or_else(|| draw_poker::page(s, game))
        .or_else(|| stud_poker::page(s, game))
        .or_else(|| poquer_3_cartas::page(s, game))
        .or_else(|| desafio_ao_casino::page(s, game))
        .or_else(|| roulette::page(s, game))
        .or_else(|| dice::banca_page(s, game))
        .or_else(|| dice::sic_bo_page(s, game))
        .or_else(|| dice::fish_prawn_crab_page(s, game))
        .or_else(|| craps::page(s, game))
        .or_else(|| baccarat::page(s, game))
        .or_else(|| blackjack::page(s, game))
        .or_else(|| bingo::page(s, game))
        .or_else(|| wheels::boule_page(s, game))
        .or_else(|| wheels::roda_page(s, game))
        .or_else(|| fantan::page(s, game))
}

/// The whole help of `game`: its kind's page, then what every game's
/// help ends with.
pub fn document(s: &dyn HelpContext, game: &HostedGame) -> Vec<Block> {
    let (mut blocks, double_up) = page(s, game).map_or((Vec::new(), None), |d| (d.blocks, d.double_up));
    // Certification.md 15: a prize rarer than 1 in 100,000,000 is
    // disclosed as its paytable words it.
    if let Some(odds) = game.odds_disclosure() {
        blocks.push(Block::Heading(s.t("Probabilidades").into()));
        blocks.push(Block::Text(odds.to_owned()));
    }
    blocks.extend(round_limit(s));
    blocks.extend(common_help(s, double_up));
    blocks
}

/// C-26 on the page: the most one round may stake at this denomination,
/// every stake the round can add counted (issue 77: the cabinet refuses
/// the chip, the button or the denomination that would pass it).
fn round_limit(s: &dyn HelpContext) -> Option<Block> {
    let limit = s.coin_in_limit()?;
    let cap = limit.saturating_sub(1) / s.denom().max(1);
    Some(Block::Text(format!(
        "{} {} ({}) {}",
        s.t("Por jogada, contando tudo o que a jogada pode apostar (duplicações, divisões, seguro, subidas), no máximo"),
        s.lang().count(cap, "crédito", "créditos"),
        s.currency().format(cap.saturating_mul(s.denom())),
        s.t("nesta denominação: o limite de incremento excessivo da máquina (C-26)."),
    )))
}

/// The RTP the game's approved paytable proves, as a line of its page.
fn rtp_line(s: &dyn HelpContext, game: &HostedGame) -> Option<Block> {
    game.rtp().map(|rtp| rtp_text(s, rtp))
}

fn rtp_text(s: &dyn HelpContext, rtp: &str) -> Block {
    Block::Text(format!("{}: {rtp}", s.t("Retorno teórico ao jogador (RTP)")))
}

/// A poker hand's name in `lang`.
pub fn category_name(lang: Lang, c: Category) -> &'static str {
    if lang == Lang::Pt { c.name_pt() } else { c.name_en() }
}

/// `text` cut to `chars` characters, an ellipsis marking the cut.
pub fn clipped(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(chars.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The blocks as a Markdown document in `lang`: headings, paragraphs,
/// tables, and each payline as its row on each reel (1 the top row).
pub fn markdown(lang: Lang, title: &str, blocks: &[Block]) -> String {
    let cell = |t: &str| t.replace('|', "\\|").replace('\n', " ");
    let mut out = format!("# {title}\n");
    for b in blocks {
        match b {
            Block::Heading(h) => out.push_str(&format!("\n## {h}\n")),
            Block::Text(t) => out.push_str(&format!("\n{t}\n")),
            Block::Table { header, rows } => {
                out.push_str(&format!("\n| {} |\n", header.iter().map(|h| cell(h)).collect::<Vec<_>>().join(" | ")));
                out.push_str(&format!("|{}\n", " --- |".repeat(header.len())));
                for r in rows {
                    out.push_str(&format!("| {} |\n", r.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | ")));
                }
            }
            Block::Lines { rows, lines } => {
                out.push('\n');
                for (i, l) in lines.iter().enumerate() {
                    // Each reel's row, 1 the top of a window of `rows`.
                    let rows_of = l.iter().map(|r| (r + 1).to_string()).collect::<Vec<_>>().join("-");
                    out.push_str(&format!("- {} {}: {rows_of} ({rows})\n", lang.t("linha"), i + 1));
                }
            }
        }
    }
    out
}

/// The bet range of a game, in credits and money.
pub(crate) fn bet_range(s: &dyn HelpContext, min_bet: u64, max_bet: u64) -> Block {
    let c = s.currency();
    let credits = |n: u64| s.lang().count(n, "crédito", "créditos");
    Block::Text(format!(
        "{} {} ({}), {} {} ({}).",
        s.t("Aposta mínima"),
        credits(min_bet),
        c.format(min_bet * s.denom()),
        s.t("aposta máxima"),
        credits(max_bet),
        c.format(max_bet * s.denom())
    ))
}

/// What every game's help ends with: the double-up and its odds, the
/// progressives and how they are won (M-31), how to complain.
fn common_help(s: &dyn HelpContext, double_up: Option<DoubleUpRule>) -> Vec<Block> {
    let mut blocks = Vec::new();
    if let Some(d) = double_up {
        blocks.push(Block::Heading(s.t("Dobrar (aposta opcional, regra 11)").into()));
        blocks.push(Block::Text(format!(
            "{} {} {} {} {}.",
            s.t("Depois de um prémio pode escolher vermelho ou preto: 50% de probabilidade de dobrar, 50% de perder o valor em jogo. Até"),
            d.max_doubles,
            s.t("vezes, prémio máximo"),
            d.max_win_credits,
            s.t("créditos")
        )));
    }
    blocks.push(Block::Heading(s.t("Prémios acumulados (progressivos)").into()));
    match s.progressive_conditions() {
        Some(conditions) if conditions.is_empty() => blocks.push(Block::Text(s.t("Este jogo não está ligado a nenhum progressivo.").into())),
        Some(conditions) => blocks.extend(conditions.into_iter().map(Block::Text)),
        None => blocks.push(Block::Text(
            s.t("Os progressivos ligados a este jogo, e como se ganham, são os da configuração de cada máquina e mostram-se no seu ecrã de ajuda.").into(),
        )),
    }
    blocks.push(Block::Heading(s.t("Reclamações").into()));
    blocks.push(Block::Text(
        s.t("Em caso de dúvida, os registos electrónicos da máquina fazem fé. Pode reclamar junto do empregado da sala ou no livro de reclamações do casino; a autoridade reguladora recebe reclamações por escrito.")
        .into(),
    ));
    blocks.push(Block::Text(format!("{}: 80%", s.t("Percentagem de retorno mínima legal"))));
    blocks
}
