//! The dice tables' help pages: banca francesa, sic bo and
//! peixe-camarão-caranguejo.

use game_core::dice::banca_francesa::Chance;
use game_core::dice::fish_prawn_crab::{self as pcc, Colour};
use game_core::dice::sic_bo::{Spot, total_payout};

use super::{Block, HelpContext, HelpDoc, bet_range};
use crate::catalogue::HostedGame;
use crate::kinds::banca_francesa::BancaFrancesa;
use crate::kinds::fish_prawn_crab::FishPrawnCrab;
use crate::kinds::sic_bo::SicBo;
use crate::names::Lang;

pub(crate) fn banca_page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<BancaFrancesa>()?;
    let pt = s.lang() == Lang::Pt;
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    b.push(Block::Text(s.t("Coloque fichas em ases, pequeno ou grande e prima JOGAR. Lançam-se três dados; se a soma não for 3, 5, 6, 7, 14, 15 ou 16, os dados lançam-se de novo até sair uma combinação vencedora. As apostas ficam como estavam durante os lançamentos. Ases (1-1-1) paga 61 para 1; pequeno (5, 6, 7) e grande (14, 15, 16) pagam 1 para 1; ases faz perder pequeno e grande, e o inverso.").into()));
    b.push(bet_range(s, g.0.minimum, g.0.maximum(Chance::Pequeno)));
    let rows = Chance::ALL
        .iter()
        .map(|&c| vec![c.name(pt).to_owned(), format!("{}:1", c.payout()), format!("{} – {}", g.0.minimum, g.0.maximum(c)), "98.41%".to_owned()])
        .collect();
    b.push(Block::Table { header: vec![s.t("chance").into(), s.t("paga").into(), s.t("limites (créd.)").into(), s.t("retorno").into()], rows });
    b.push(Block::Text(s.t("Cada chance devolve 62/63 do apostado (98,41%) contando só os lançamentos que decidem.").into()));
    Some(HelpDoc { blocks: b, double_up: None })
}

pub fn label(spot: Spot, lang: Lang) -> String {
    match spot {
        Spot::Small => lang.t("PEQUENO\n4-10  1:1").to_owned(),
        Spot::Big => lang.t("GRANDE\n11-17  1:1").to_owned(),
        Spot::AnyTriple => lang.t("QUALQUER TRIPLO\n32:1").to_owned(),
        Spot::Double(n) => format!("{n}-{n}\n10:1"),
        Spot::Triple(n) => format!("{n}-{n}-{n}\n190:1"),
        Spot::Total(t) => format!("{t}\n{}:1", total_payout(t)),
        Spot::Pair(a, b) => format!("{a}-{b}\n5:1"),
        Spot::Single(n) => format!("{n}\n1:1 2:1 3:1"),
    }
}

pub(crate) fn sic_bo_page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<SicBo>()?;
    let pt = s.lang() == Lang::Pt;
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    b.push(Block::Text(s.t("Coloque fichas nas casas do pano e prima JOGAR: três dados são lançados sob a campânula. Cada casa paga como diz a tabela, a aposta devolvida. Pequeno (4 a 10) e grande (11 a 17) perdem com qualquer triplo.").into()));
    b.push(bet_range(s, g.0.minimum, g.0.maximum));
    let rows = [
        Spot::Small,
        Spot::Single(1),
        Spot::Pair(1, 2),
        Spot::Double(1),
        Spot::Triple(1),
        Spot::AnyTriple,
        Spot::Total(4),
        Spot::Total(5),
        Spot::Total(6),
        Spot::Total(7),
        Spot::Total(8),
        Spot::Total(9),
        Spot::Total(10),
    ]
    .into_iter()
    .map(|spot| {
        let back: u64 = game_core::dice::every_throw().map(|t| spot.returned(1, &t)).sum();
        vec![spot.name(pt), label(spot, s.lang()).replace('\n', "  "), format!("{:.2}%", back as f64 * 100.0 / 216.0)]
    })
    .collect();
    b.push(Block::Table { header: vec![s.t("aposta").into(), s.t("paga").into(), s.t("retorno").into()], rows });
    b.push(Block::Text(s.t("Os totais 11 a 17 pagam como os seus simétricos (17 como 4, 16 como 5, …).").into()));
    Some(HelpDoc { blocks: b, double_up: None })
}

/// A place of the fish-prawn-crab cloth: its name and what it pays.
pub fn fish_prawn_crab_label(spot: pcc::Spot, lang: Lang) -> String {
    let pt = lang == Lang::Pt;
    // What it pays, each prize once (a figure pays 1, 2 or 3 to 1).
    let mut pays: Vec<u64> = game_core::dice::every_throw().map(|t| spot.payout(&t)).filter(|&p| p > 0).collect();
    pays.sort_unstable();
    pays.dedup();
    let pays = pays.iter().map(|p| format!("{p}:1")).collect::<Vec<_>>().join(" ");
    let head = match spot {
        pcc::Spot::Small => return lang.t("PEQUENO\n4-10  1:1").to_owned(),
        pcc::Spot::Big => return lang.t("GRANDE\n11-17  1:1").to_owned(),
        pcc::Spot::Figure(f) => pcc::figure(f, pt).to_uppercase(),
        pcc::Spot::Total(t) => t.to_string(),
        other => other.name(pt).to_uppercase(),
    };
    format!("{head}\n{pays}")
}

pub(crate) fn fish_prawn_crab_page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<FishPrawnCrab>()?;
    let pt = s.lang() == Lang::Pt;
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    b.push(Block::Text(s.t("Coloque fichas nas casas do pano e prima JOGAR: três dados de figuras são lançados sob a campânula. Cada dado tem peixe (1) e galo (6) vermelhos, camarão (2) e caranguejo (5) verdes, cabaço (3) e moeda (4) azuis; o total soma os números das figuras. Cada casa paga como diz a tabela, a aposta devolvida. Pequeno (4 a 10) e grande (11 a 17) perdem com três figuras iguais.").into()));
    b.push(bet_range(s, g.0.minimum, g.0.maximum));
    let rows =
        g.0.bets
            .iter()
            .filter_map(|bet| bet.spots().first().copied().map(|spot| (*bet, spot)))
            .map(|(bet, spot)| {
                let back: u64 = game_core::dice::every_throw().map(|t| spot.returned(1, &t)).sum();
                let pays = fish_prawn_crab_label(spot, s.lang()).split('\n').nth(1).unwrap_or_default().to_owned();
                vec![bet.name(pt), pays, format!("{:.2}%", back as f64 * 100.0 / 216.0)]
            })
            .collect();
    b.push(Block::Table { header: vec![s.t("aposta").into(), s.t("paga").into(), s.t("retorno").into()], rows });
    let colours: Vec<&str> = Colour::ALL.iter().map(|c| c.name(pt, 1)).collect();
    b.push(Block::Text(format!(
        "{} ({})",
        s.t("As apostas de cor escolhem uma das três cores; as apostas do regulamento que devolvem menos de 80% não são oferecidas nesta mesa."),
        colours.join(", ")
    )));
    Some(HelpDoc { blocks: b, double_up: None })
}
