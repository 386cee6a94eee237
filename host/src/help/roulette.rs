//! Roulette's help page.

use game_core::roulette::{CallBet, Chance, RouletteGame};

use super::{Block, HelpContext, HelpDoc};
use crate::catalogue::HostedGame;
use crate::kinds::roulette::Roulette;
use crate::names::Lang;

/// `n / d` in hundredths of a percent, rounded to the nearest (half up):
/// M-40's pages round, never cut (issue 77: 36/37 = 97.2973 % reads
/// 97.30 %, not 97.29 %).
fn hundredths(n: u64, d: u64) -> u64 {
    let d = d.max(1);
    (n.saturating_mul(20_000) + d) / (2 * d)
}

/// Roulette's help: the rules, every chance with its payout and limits,
/// the call bets, from the paytable (M-8, AR 60, FR 54).
fn roulette_help(s: &dyn HelpContext, g: &RouletteGame) -> Vec<Block> {
    let pt = s.lang() == Lang::Pt;
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    b.push(Block::Text(s.t("Coloque fichas do valor escolhido (APOSTA − / +) nas casas do pano; prima JOGAR para lançar a bola. Depois de \"nada mais\" nenhuma aposta pode mudar. O número sorteado é sorteado uniformemente entre todas as casas da roda. Cada aposta que contém o número é paga com a sua chance; as outras perdem. No zero perdem as chances simples, as dúzias, as colunas e os seus cavalos (sem partage nem prisão).").into()));
    let wheel = match g.wheel {
        game_core::roulette::Wheel::French => s.t("Roda francesa, um zero, 37 casas."),
        game_core::roulette::Wheel::American37 => s.t("Roda americana, um zero, 37 casas."),
        game_core::roulette::Wheel::American38 => s.t("Roda americana com 0 e 00, 38 casas."),
    };
    b.push(Block::Text(wheel.into()));
    // Issue 77: the limits are each spot's (the table below); the most a
    // round may stake in all is the cabinet's (C-26, after the page).
    let c = s.currency();
    b.push(Block::Text(format!(
        "{} {} ({}). {}",
        s.t("Aposta mínima por casa"),
        s.lang().count(g.minimum, "crédito", "créditos"),
        c.format(g.minimum * s.denom()),
        s.t("O máximo de cada casa está na tabela.")
    )));
    b.push(Block::Heading(s.t("Chances e prémios").into()));
    let mut rows = Vec::new();
    for chance in Chance::ALL {
        let Some(spot) = g.representative_spot(chance) else { continue };
        let (num, den) = chance.payout();
        let (name_pt, name_en) = chance.names();
        let rtp = hundredths(spot.numbers_covered() * (num + den), den * g.wheel.pockets());
        rows.push(vec![
            if pt { name_pt } else { name_en }.to_owned(),
            spot.numbers_covered().to_string(),
            if den == 1 { format!("{num}:1") } else { format!("{num}:{den}") },
            format!("{} – {}", g.minimum, g.maximum(&spot)),
            format!("{}.{:02}%", rtp / 100, rtp % 100),
        ]);
    }
    b.push(Block::Table {
        header: vec![s.t("chance").into(), s.t("números").into(), s.t("paga").into(), s.t("limites (créd.)").into(), s.t("retorno").into()],
        rows,
    });
    b.push(Block::Text(s.t("Os cavalos de dúzia e de coluna pagam metade da aposta (½:1): apostam-se só números pares de créditos. O máximo de cada casa é o mínimo × 30 por número coberto.").into()));
    if g.call_bets && g.wheel.call_bets_allowed() {
        b.push(Block::Heading(s.t("Apostas anunciadas").into()));
        let rows = [CallBet::Voisins, CallBet::Tiers, CallBet::Orphelins, CallBet::Neighbours { number: 0, each_side: 2 }, CallBet::Finals { digit: 0 }]
            .into_iter()
            .filter_map(|c| {
                let chips = c.chips(g.wheel)?;
                let units: u64 = chips.iter().map(|(_, u)| u).sum();
                let parts: Vec<String> = chips.iter().map(|(sp, u)| if *u > 1 { format!("{}×{u}", sp.name(pt)) } else { sp.name(pt) }).collect();
                Some(vec![c.name(pt), units.to_string(), super::clipped(&parts.join(", "), 70)])
            })
            .collect();
        b.push(Block::Table { header: vec![s.t("aposta").into(), s.t("fichas").into(), s.t("composição").into()], rows });
        b.push(Block::Text(s.t("Cada ficha da aposta anunciada fica no pano como a sua chance; só as fichas que contêm o número ganham, cada uma à sua chance. Série grande até 15 unidades do mínimo por ficha, série 5-8 até 20, órfãos até 10.").into()));
    }
    b
}

pub(crate) fn page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<Roulette>()?;
    Some(HelpDoc { blocks: roulette_help(s, &g.0), double_up: None })
}

#[cfg(test)]
mod tests {
    use super::hundredths;

    /// Every chance of a 37- and a 38-pocket wheel to two decimals,
    /// rounded as a calculator does: 36/37 = 97.297297… %, 36/38 =
    /// 94.736842… %, a spot of 24 numbers paying ½:1 (24 × 1.5 / 37) =
    /// 97.297… %.
    #[test]
    fn returns_are_rounded_to_the_nearest_hundredth() {
        assert_eq!(hundredths(36, 37), 9730);
        assert_eq!(hundredths(36, 38), 9474);
        assert_eq!(hundredths(24 * 3, 2 * 37), 9730);
        assert_eq!(hundredths(1, 8), 1250, "exact: 12.50 %");
        assert_eq!(hundredths(1, 20_000), 1, "0.005 % is half a hundredth: up to 0.01 %");
        assert_eq!(hundredths(1, 20_001), 0, "under half a hundredth: down to 0.00 %");
        assert_eq!(hundredths(1, 3), 3333);
        assert_eq!(hundredths(2, 3), 6667);
    }
}
