//! The mandatory meters (M-25, decisions.md "Meters", certification.md §C).
//!
//! All amounts are cents in `u64`; only the credit meter may go down (C-24).
//! Game meters are kept for the machine, per game and per denomination, and
//! the per-game and per-denomination sets each sum to the machine totals
//! (C-27). Money-in and cash-out meters belong to the machine alone: a note
//! or a cash-out is not part of any game.
//!
//! Display and export show `meter_digits` (≥ 10) digits and roll over to 0
//! past 10^digits − 1 (C-21); the `u64` inside never rolls over in practice.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::money::Cents;

/// Meters kept for the machine, for each game and for each denomination.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameMeters {
    /// a) créditos jogados: every stake of every settled game (cents).
    pub creditos_jogados: Cents,
    /// b) créditos ganhos: every prize awarded, however paid (cents).
    pub creditos_ganhos: Cents,
    /// c) jogadas efectuadas: games completed.
    pub jogadas_efectuadas: u64,
    /// Games completed with a prize.
    pub jogadas_ganhas: u64,
    /// Games completed without a prize.
    pub jogadas_perdidas: u64,
    /// Games voided (M-36), counted apart from c).
    pub jogadas_anuladas: u64,
    /// Stakes refunded by voided games (cents).
    pub reembolsos_anulacao: Cents,
    /// g) prémios acumulados: machine-paid wins at or above the jackpot threshold.
    pub premios_acumulados: Cents,
    /// g) prémios acumulados progressivos.
    pub premios_acumulados_progressivos: Cents,
    /// g) prémio acumulado manual: wins paid by an attendant (hand-pay).
    pub premio_acumulado_manual: Cents,
}

impl GameMeters {
    /// d) receita bruta = créditos jogados − créditos ganhos (decisions.md).
    /// Signed: a lucky period makes it negative.
    pub fn receita_bruta(&self) -> i128 {
        i128::from(self.creditos_jogados) - i128::from(self.creditos_ganhos)
    }

    /// Every counted meter with its name (for meter readers and the audit
    /// menu); d) receita bruta is derived and signed, see [`Self::receita_bruta`].
    pub fn labelled(&self) -> [(&'static str, u64); 10] {
        [
            ("a) créditos jogados", self.creditos_jogados),
            ("b) créditos ganhos", self.creditos_ganhos),
            ("c) jogadas efectuadas", self.jogadas_efectuadas),
            ("jogadas ganhas", self.jogadas_ganhas),
            ("jogadas perdidas", self.jogadas_perdidas),
            ("jogadas anuladas", self.jogadas_anuladas),
            ("reembolsos de anulação", self.reembolsos_anulacao),
            ("g) prémios acumulados", self.premios_acumulados),
            ("g) prémios acumulados progressivos", self.premios_acumulados_progressivos),
            ("g) prémio acumulado manual", self.premio_acumulado_manual),
        ]
    }

    /// Field-wise sum, for the reconciliation of per-game and
    /// per-denomination meters with the totals.
    pub fn sum<'a>(sets: impl IntoIterator<Item = &'a GameMeters>) -> GameMeters {
        let mut t = GameMeters::default();
        for m in sets {
            t.creditos_jogados += m.creditos_jogados;
            t.creditos_ganhos += m.creditos_ganhos;
            t.jogadas_efectuadas += m.jogadas_efectuadas;
            t.jogadas_ganhas += m.jogadas_ganhas;
            t.jogadas_perdidas += m.jogadas_perdidas;
            t.jogadas_anuladas += m.jogadas_anuladas;
            t.reembolsos_anulacao += m.reembolsos_anulacao;
            t.premios_acumulados += m.premios_acumulados;
            t.premios_acumulados_progressivos += m.premios_acumulados_progressivos;
            t.premio_acumulado_manual += m.premio_acumulado_manual;
        }
        t
    }
}

/// The monitored doors (certification.md E-37).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Door {
    Main,
    Logic,
    CashBox,
    Stacker,
    Belly,
    TopBox,
}

impl Door {
    pub const ALL: [Door; 6] = [Door::Main, Door::Logic, Door::CashBox, Door::Stacker, Door::Belly, Door::TopBox];
}

/// The machine's meters: the game meters totalled, plus money in and out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineMeters {
    pub games: GameMeters,
    /// e) dinheiro entrado: notes accepted (cents).
    pub dinheiro_entrado: Cents,
    /// e) notes accepted, a count per note value (cents → count).
    pub notas_por_valor: BTreeMap<Cents, u64>,
    /// f) bilhetes codificados entrados: tickets accepted (cents).
    pub bilhetes_codificados_entrados: Cents,
    pub bilhetes_entrados_contagem: u64,
    /// g) cancelamento de créditos: cash-outs paid by the machine (ticket).
    pub cancelamento_creditos: Cents,
    /// g) bilhetes codificados pagos: value of tickets printed.
    pub bilhetes_codificados_pagos: Cents,
    pub bilhetes_pagos_contagem: u64,
    /// g) cancelamento de créditos manual: cash-outs paid by an attendant.
    pub cancelamento_creditos_manual: Cents,
    /// Prizes paid to the credit meter (for the self-audit).
    pub ganhos_creditados: Cents,
    /// Door openings per door.
    pub aberturas_porta: BTreeMap<Door, u64>,
    /// Power-ups.
    pub arranques: u64,
    /// Hand-pays completed (count).
    pub pagamentos_manuais_contagem: u64,
    /// Credit transferred in from the floor's system (SAS AFT, issue 48),
    /// cents and count.
    #[serde(default)]
    pub transferencias_entrada: Cents,
    #[serde(default)]
    pub transferencias_entrada_contagem: u64,
    /// Credit transferred out to the floor's system (a cash-out by AFT).
    #[serde(default)]
    pub transferencias_saida: Cents,
    #[serde(default)]
    pub transferencias_saida_contagem: u64,
}

/// One of the twelve meters of M-25, in the order of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum M25 {
    CreditosJogados,
    CreditosGanhos,
    JogadasEfectuadas,
    ReceitaBruta,
    DinheiroEntrado,
    BilhetesCodificadosEntrados,
    PremiosAcumulados,
    CancelamentoCreditos,
    BilhetesCodificadosPagos,
    PremiosAcumuladosProgressivos,
    PremioAcumuladoManual,
    CancelamentoCreditosManual,
}

impl M25 {
    pub const ALL: [M25; 12] = [
        M25::CreditosJogados,
        M25::CreditosGanhos,
        M25::JogadasEfectuadas,
        M25::ReceitaBruta,
        M25::DinheiroEntrado,
        M25::BilhetesCodificadosEntrados,
        M25::PremiosAcumulados,
        M25::CancelamentoCreditos,
        M25::BilhetesCodificadosPagos,
        M25::PremiosAcumuladosProgressivos,
        M25::PremioAcumuladoManual,
        M25::CancelamentoCreditosManual,
    ];

    /// The rule letter and the name the law gives (M-25).
    pub fn legal_name(self) -> &'static str {
        match self {
            M25::CreditosJogados => "a) créditos jogados",
            M25::CreditosGanhos => "b) créditos ganhos",
            M25::JogadasEfectuadas => "c) jogadas efectuadas",
            M25::ReceitaBruta => "d) receita bruta",
            M25::DinheiroEntrado => "e) dinheiro entrado",
            M25::BilhetesCodificadosEntrados => "f) bilhetes codificados entrados",
            M25::PremiosAcumulados => "g) prémios acumulados",
            M25::CancelamentoCreditos => "g) cancelamento de créditos",
            M25::BilhetesCodificadosPagos => "g) bilhetes codificados pagos",
            M25::PremiosAcumuladosProgressivos => "g) prémios acumulados progressivos",
            M25::PremioAcumuladoManual => "g) prémio acumulado manual",
            M25::CancelamentoCreditosManual => "g) cancelamento de créditos manual",
        }
    }

    /// A stable identifier for exports.
    pub fn key(self) -> &'static str {
        match self {
            M25::CreditosJogados => "creditos_jogados",
            M25::CreditosGanhos => "creditos_ganhos",
            M25::JogadasEfectuadas => "jogadas_efectuadas",
            M25::ReceitaBruta => "receita_bruta",
            M25::DinheiroEntrado => "dinheiro_entrado",
            M25::BilhetesCodificadosEntrados => "bilhetes_codificados_entrados",
            M25::PremiosAcumulados => "premios_acumulados",
            M25::CancelamentoCreditos => "cancelamento_creditos",
            M25::BilhetesCodificadosPagos => "bilhetes_codificados_pagos",
            M25::PremiosAcumuladosProgressivos => "premios_acumulados_progressivos",
            M25::PremioAcumuladoManual => "premio_acumulado_manual",
            M25::CancelamentoCreditosManual => "cancelamento_creditos_manual",
        }
    }

    /// Whether the meter counts games rather than cents.
    pub fn is_count(self) -> bool {
        matches!(self, M25::JogadasEfectuadas)
    }

    /// The meter's value on the machine, or `None` for d) receita bruta,
    /// which is derived and signed (see [`GameMeters::receita_bruta`]).
    pub fn machine_value(self, m: &MachineMeters) -> Option<u64> {
        let g = &m.games;
        Some(match self {
            M25::CreditosJogados => g.creditos_jogados,
            M25::CreditosGanhos => g.creditos_ganhos,
            M25::JogadasEfectuadas => g.jogadas_efectuadas,
            M25::ReceitaBruta => return None,
            M25::DinheiroEntrado => m.dinheiro_entrado,
            M25::BilhetesCodificadosEntrados => m.bilhetes_codificados_entrados,
            M25::PremiosAcumulados => g.premios_acumulados,
            M25::CancelamentoCreditos => m.cancelamento_creditos,
            M25::BilhetesCodificadosPagos => m.bilhetes_codificados_pagos,
            M25::PremiosAcumuladosProgressivos => g.premios_acumulados_progressivos,
            M25::PremioAcumuladoManual => g.premio_acumulado_manual,
            M25::CancelamentoCreditosManual => m.cancelamento_creditos_manual,
        })
    }
}

/// What a meter shows: the value modulo 10^digits (C-21). Exact for every
/// `u64`, so the display rolls over to 0 past 10^digits − 1.
pub fn displayed(value: u64, digits: u8) -> u64 {
    match 10u64.checked_pow(u32::from(digits)) {
        Some(m) => value % m,
        None => value,
    }
}

/// How many times a meter's display has rolled over.
pub fn rollovers(value: u64, digits: u8) -> u64 {
    match 10u64.checked_pow(u32::from(digits)) {
        Some(m) => value / m,
        None => 0,
    }
}

/// Receita bruta as displayed: signed, its magnitude modulo 10^digits.
pub fn displayed_signed(value: i128, digits: u8) -> i128 {
    let m = 10i128.pow(u32::from(digits));
    value.signum() * (value.abs() % m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_digit_meter_rolls_over_to_zero() {
        // C-21: 9,999,999,999 + 1 → 0.
        assert_eq!(displayed(9_999_999_999, 10), 9_999_999_999);
        assert_eq!(displayed(9_999_999_999 + 1, 10), 0);
        assert_eq!(rollovers(9_999_999_999, 10), 0);
        assert_eq!(rollovers(10_000_000_000, 10), 1);
        assert_eq!(displayed(10_000_000_007, 10), 7);
        assert_eq!(displayed(u64::MAX, 18), u64::MAX % 1_000_000_000_000_000_000);
        assert_eq!(displayed_signed(-10_000_000_003, 10), -3);
    }

    #[test]
    fn twelve_meters_with_their_legal_names() {
        assert_eq!(M25::ALL.len(), 12);
        let keys: std::collections::BTreeSet<_> = M25::ALL.iter().map(|m| m.key()).collect();
        assert_eq!(keys.len(), 12);
        assert!(M25::ALL.iter().all(|m| m.legal_name().contains(')')));
    }
}
