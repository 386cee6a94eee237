//! What the player and the operator read for the core's typed facts, in
//! Portuguese (M-10) with English on request: a door, a tilt, a hand-pay.
//! No `Debug` output reaches a screen.

use meters::{Door, HandpayKind, Tilt};

/// The language of the text the host produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Lang {
    Pt,
    En,
}

impl Lang {
    /// The text in this language.
    pub fn pick<'a>(self, pt: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Pt => pt,
            Lang::En => en,
        }
    }

    /// A name a paytable gives in Portuguese (a game, a reel symbol, a
    /// bingo pattern) in this language: the glossary's English, or the
    /// name as written where the glossary has none (issue 45, defect 10).
    pub fn term(self, pt: &str) -> &str {
        match self {
            Lang::Pt => pt,
            Lang::En => crate::glossary::english(pt).unwrap_or(pt),
        }
    }

    /// `n` and its noun, singular for one and plural otherwise (issue 45:
    /// "1 linha", "2 linhas"): `pt` and `en` are (singular, plural).
    pub fn count(self, n: u64, pt: (&str, &str), en: (&str, &str)) -> String {
        let (one, many) = match self {
            Lang::Pt => pt,
            Lang::En => en,
        };
        format!("{n} {}", if n == 1 { one } else { many })
    }
}

/// A door by the name the floor uses.
pub fn door(d: Door, lang: Lang) -> &'static str {
    match d {
        Door::Main => lang.pick("porta principal", "main door"),
        Door::Logic => lang.pick("porta lógica", "logic door"),
        Door::CashBox => lang.pick("cofre", "cash box"),
        Door::Stacker => lang.pick("caixa de notas", "note stacker"),
        Door::Belly => lang.pick("porta inferior", "belly door"),
        Door::TopBox => lang.pick("caixa superior", "top box"),
    }
}

/// A tilt by what it means (E-38).
pub fn tilt(t: Tilt, lang: Lang) -> &'static str {
    match t {
        Tilt::SelfAudit => lang.pick("falha na auto-verificação dos contadores", "meter self-audit failure"),
        Tilt::LogicDoorAccess => lang.pick("acesso à porta lógica", "logic door accessed"),
        Tilt::ProgramVerification => lang.pick("falha na verificação do programa", "program verification failure"),
        Tilt::DeviceFault => lang.pick("avaria de dispositivo", "device fault"),
    }
}

/// A double-up colour (M-11).
pub fn colour(c: game_core::double_up::Colour, lang: Lang) -> &'static str {
    match c {
        game_core::double_up::Colour::Red => lang.pick("vermelho", "red"),
        game_core::double_up::Colour::Black => lang.pick("preto", "black"),
    }
}

/// A list of numbers as a person writes it: "1, 4, 9".
pub fn list<T: std::fmt::Display>(items: &[T]) -> String {
    items.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

/// What a hand-pay is for (M-12, F-43, F-44).
pub fn handpay(h: &HandpayKind, lang: Lang) -> String {
    match h {
        HandpayKind::Jackpot { round, game, .. } => format!("{} {round} ({game})", lang.pick("prémio da jogada", "win of round")),
        HandpayKind::CancelledCredits => lang.pick("créditos cancelados", "cancelled credits").to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every door and tilt has its own name in each language.
    #[test]
    fn names_are_distinct_in_each_language() {
        for lang in [Lang::Pt, Lang::En] {
            let doors: std::collections::BTreeSet<&str> = Door::ALL.iter().map(|d| door(*d, lang)).collect();
            assert_eq!(doors.len(), Door::ALL.len());
            let all = [Tilt::SelfAudit, Tilt::LogicDoorAccess, Tilt::ProgramVerification, Tilt::DeviceFault];
            let tilts: std::collections::BTreeSet<&str> = all.iter().map(|t| tilt(*t, lang)).collect();
            assert_eq!(tilts.len(), all.len());
        }
        assert_eq!(door(Door::Logic, Lang::Pt), "porta lógica");
        assert_eq!(tilt(Tilt::DeviceFault, Lang::En), "device fault");
    }
}
