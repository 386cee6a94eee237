//! What the player and the operator read for the core's typed facts, in
//! Portuguese (M-10) with English on request: a door, a tilt, a hand-pay.
//! No `Debug` output reaches a screen.

use meters::{AcceptorFault, Door, HandpayKind, PrinterFault, Tilt};

/// The language of the text the host produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Lang {
    Pt,
    En,
}

impl Lang {
    /// The text of the catalogue's key `key` in this language (issue 45,
    /// defect 10: every text from one catalogue, `texts`): the Portuguese
    /// as the key writes it, less any sense after a bar; the catalogue's
    /// English. A key the catalogue lacks reads in Portuguese (the
    /// catalogue's own test finds every key the sources use).
    pub fn t(self, key: &'static str) -> &'static str {
        match self {
            Lang::Pt => crate::texts::portuguese(key),
            Lang::En => crate::texts::english(key).unwrap_or_else(|| crate::texts::portuguese(key)),
        }
    }

    /// A name a paytable gives in Portuguese (a game, a reel symbol, a
    /// bingo pattern) in this language: the glossary's English, or the
    /// name as written where the glossary has none (issue 45, defect 10).
    pub fn term(self, pt: &str) -> &str {
        match self {
            Lang::Pt => pt,
            Lang::En => crate::texts::term_english(pt).unwrap_or(pt),
        }
    }

    /// `n` and its noun, singular for one and plural otherwise (issue 45:
    /// "1 linha", "2 linhas"): `one` and `many` are the catalogue's keys of
    /// the singular and the plural.
    pub fn count(self, n: u64, one: &'static str, many: &'static str) -> String {
        format!("{n} {}", self.t(if n == 1 { one } else { many }))
    }
}

/// A door by the name the floor uses.
pub fn door(d: Door, lang: Lang) -> &'static str {
    match d {
        Door::Main => lang.t("porta principal"),
        Door::Logic => lang.t("porta lógica"),
        Door::CashBox => lang.t("cofre"),
        Door::Stacker => lang.t("caixa de notas"),
        Door::Belly => lang.t("porta inferior"),
        Door::TopBox => lang.t("caixa superior"),
    }
}

/// A tilt by what it means (E-38).
pub fn tilt(t: Tilt, lang: Lang) -> &'static str {
    match t {
        Tilt::SelfAudit => lang.t("falha na auto-verificação dos contadores"),
        Tilt::LogicDoorAccess => lang.t("acesso à porta lógica"),
        Tilt::ProgramVerification => lang.t("falha na verificação do programa"),
        Tilt::DeviceFault => lang.t("avaria de dispositivo"),
        Tilt::FloorDisabled => lang.t("desactivado pelo sistema de gestão do piso"),
        Tilt::ExcessiveMeterIncrement => lang.t("incremento excessivo de contador"),
        Tilt::NoteAcceptor(f) => acceptor_fault(f, lang),
        Tilt::Printer(f) => printer_fault(f, lang),
        Tilt::DoorSensors(_) => lang.t("sensores da porta em desacordo"),
        Tilt::FloorMaintenance => lang.t("em manutenção pelo sistema de gestão do piso"),
    }
}

/// Why the ticket printer stopped (issue 70, E-38).
pub fn printer_fault(f: PrinterFault, lang: Lang) -> &'static str {
    match f {
        PrinterFault::PaperOut => lang.t("impressora sem papel"),
        PrinterFault::PaperJam => lang.t("papel encravado na impressora"),
        PrinterFault::Open => lang.t("impressora aberta"),
        PrinterFault::Failure => lang.t("avaria da impressora"),
        PrinterFault::Offline => lang.t("impressora fora de linha"),
        PrinterFault::CommunicationLost => lang.t("impressora sem comunicação"),
    }
}

/// Why the note acceptor stopped (issue 70, E-38).
pub fn acceptor_fault(f: AcceptorFault, lang: Lang) -> &'static str {
    match f {
        AcceptorFault::Jam => lang.t("nota encravada no leitor de notas"),
        AcceptorFault::StackerFull => lang.t("caixa de notas cheia"),
        AcceptorFault::StackerRemoved => lang.t("caixa de notas retirada"),
        AcceptorFault::Cheat => lang.t("fraude detectada no leitor de notas"),
        AcceptorFault::Failure => lang.t("avaria do leitor de notas"),
        AcceptorFault::CommunicationLost => lang.t("leitor de notas sem comunicação"),
    }
}

/// A double-up colour (M-11).
pub fn colour(c: game_core::double_up::Colour, lang: Lang) -> &'static str {
    match c {
        game_core::double_up::Colour::Red => lang.t("vermelho"),
        game_core::double_up::Colour::Black => lang.t("preto"),
    }
}

/// A list of numbers as a person writes it: "1, 4, 9".
pub fn list<T: std::fmt::Display>(items: &[T]) -> String {
    items.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

/// What a hand-pay is for (M-12, F-43, F-44).
pub fn handpay(h: &HandpayKind, lang: Lang) -> String {
    match h {
        HandpayKind::Jackpot { round, game, .. } => format!("{} {round} ({game})", lang.t("prémio da jogada")),
        HandpayKind::CancelledCredits => lang.t("créditos cancelados").to_owned(),
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
            let mut all =
                vec![Tilt::SelfAudit, Tilt::LogicDoorAccess, Tilt::ProgramVerification, Tilt::DeviceFault, Tilt::FloorDisabled, Tilt::ExcessiveMeterIncrement];
            all.extend(AcceptorFault::ALL.map(Tilt::NoteAcceptor));
            all.extend(PrinterFault::ALL.map(Tilt::Printer));
            all.push(Tilt::DoorSensors(Door::Main));
            all.push(Tilt::FloorMaintenance);
            let tilts: std::collections::BTreeSet<&str> = all.iter().map(|t| tilt(*t, lang)).collect();
            assert_eq!(tilts.len(), all.len());
        }
        assert_eq!(door(Door::Logic, Lang::Pt), "porta lógica");
        assert_eq!(tilt(Tilt::DeviceFault, Lang::En), "device fault");
        assert_eq!(tilt(Tilt::NoteAcceptor(AcceptorFault::StackerRemoved), Lang::En), "stacker removed");
        assert_eq!(tilt(Tilt::NoteAcceptor(AcceptorFault::Jam), Lang::Pt), "nota encravada no leitor de notas");
        assert_eq!(tilt(Tilt::Printer(PrinterFault::PaperOut), Lang::En), "printer out of paper");
    }
}
