//! What the host tells the player or the attendant, as typed values. The
//! text is made only when a screen shows it, in Portuguese or English
//! ([`crate::names::Lang`]); no `Debug` output ever reaches a screen.

use meters::{Cents, CoreError, MoneyRefusal, PlayBlock};

use crate::kind::Refusal;
use crate::names::{self, Lang};

/// One notice on the cabinet's message line.
#[derive(Debug)]
pub enum Notice {
    /// The core refused or failed an action.
    Core(CoreError),
    /// The game's rules refused a decision.
    Refused(Refusal),
    /// M-19: a linked pool the bet would feed has no controller.
    LinkedUnavailable { pool: String },
    /// The credit does not cover what the round may need (stud: the raise).
    CreditShort { needed: Cents },
    /// A linked progressive hit: the round waits for the controller's award.
    AwaitingController,
    /// A linked award above the pool's confirmation amount: the cabinet
    /// is locked up until an attendant checks it and the operator confirms
    /// it at the controller (M-12; issue 35, attack 1).
    AwaitingAttendant { amount: Cents },
    /// A progressive award was paid with the round.
    Progressive { amount: Cents },
    /// M-12: a win at or above the limit waits for an attendant.
    WinHandpay,
    /// M-36: the interrupted round was resumed at its last step.
    Resumed,
    /// M-36: the interrupted round could not be resumed: voided, stake refunded.
    Voided { refund: Cents },
    /// A ticket was printed for this amount (issue 45: the player sees the
    /// amount and takes the ticket; the printer's file is the attendant's).
    TicketPrinted { value: Cents },
    /// An overlay is open over the game: close it to play (issue 45).
    OverlayOpen(crate::session::Overlay),
    /// The printer failed: the ticket is kept and the cabinet tilted.
    TicketNotPrinted { validation: String, value: Cents, error: String },
    /// A cash-out above the ticket limit (M-12).
    CashOutHandpay { amount: Cents },
    /// M-39: a demonstration takes no money and pays nothing.
    Demonstration,
    /// M-39: the demonstration ended for inactivity.
    DemonstrationEnded,
    /// M-35: the session ended for inactivity (with what the cash-out said).
    SessionEnded { then: Option<Box<Notice>> },
    /// D-32: critical memory was cleared.
    RamCleared { reason: String },
    /// A linked pool's delivery failed (its outbox is kept).
    Linked { pool: String, error: String },
}

/// M-22: a linked pool's award, signalled on every machine of the pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AwardBanner {
    /// The level's name (or number, when the controller gave no name).
    pub level: String,
    pub amount: Cents,
    /// The machine that won it.
    pub machine: String,
}

impl AwardBanner {
    pub fn text(&self, lang: Lang, show: &dyn Fn(Cents) -> String) -> String {
        format!("JACKPOT {} {} — {} {}", self.level, show(self.amount), lang.pick("máquina", "machine"), self.machine)
    }
}

/// An M-38 warning, shown for as long as its cause lasts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// M-35: the session ends for inactivity in this many seconds.
    SessionEnding { seconds: u64 },
    /// The credit does not cover the chosen bet.
    CreditShort,
    /// M-19: the selected game feeds a linked pool whose controller is unreachable.
    LinkDown { pool: String },
}

impl Warning {
    pub fn text(&self, lang: Lang) -> String {
        let t = |pt: &'static str, en: &'static str| lang.pick(pt, en);
        match self {
            Warning::SessionEnding { seconds } => format!(
                "{} {seconds} s — {}",
                t("A sessão termina por inactividade dentro de", "The session ends for inactivity in"),
                t("prima qualquer tecla para continuar", "press any key to continue")
            ),
            Warning::CreditShort => t(
                "Crédito insuficiente para a aposta escolhida: reduza a aposta, introduza notas ou receba o crédito",
                "Not enough credit for the chosen bet: lower the bet, insert notes or cash out",
            )
            .to_owned(),
            Warning::LinkDown { pool } => format!(
                "{} ({pool})",
                t("Sem ligação ao progressivo: as apostas neste jogo estão suspensas", "No link to the progressive: bets on this game are suspended")
            ),
        }
    }
}

impl Notice {
    /// The notice for the player or the attendant; `show` writes an amount
    /// as the player chose to see amounts (M-16).
    pub fn text(&self, lang: Lang, show: &dyn Fn(Cents) -> String) -> String {
        let t = |pt: &'static str, en: &'static str| lang.pick(pt, en);
        match self {
            Notice::Core(e) => core_error(e, lang, show),
            Notice::Refused(r) => (if lang == Lang::En { &r.en } else { &r.pt }).clone(),
            Notice::LinkedUnavailable { pool } => {
                format!("{} ({pool})", t("Progressivo ligado indisponível: apostas suspensas", "Linked progressive unavailable: bets suspended"))
            }
            Notice::CreditShort { needed } => {
                format!("{} {}", t("Crédito insuficiente para a jogada; são precisos", "Not enough credit for the round; it needs"), show(*needed))
            }
            Notice::AwaitingController => t("PROGRESSIVO LIGADO! A aguardar o controlador…", "LINKED PROGRESSIVE! Waiting for the controller…").to_owned(),
            Notice::AwaitingAttendant { amount } => format!(
                "{} {} {}",
                t("PROGRESSIVO LIGADO!", "LINKED PROGRESSIVE!"),
                show(*amount),
                t("— chame o empregado: o prémio é confirmado antes de pago", "— call an attendant: the award is confirmed before it is paid")
            ),
            Notice::Progressive { amount } => format!("{} {}", t("PROGRESSIVO!", "PROGRESSIVE!"), show(*amount)),
            Notice::WinHandpay => t("Prémio a pagar manualmente: chame o empregado", "Hand-pay: call an attendant").to_owned(),
            Notice::Resumed => t("Jogada interrompida retomada", "Interrupted game resumed").to_owned(),
            Notice::Voided { refund } => format!("{}: {}", t("Jogada anulada, aposta devolvida", "Game voided, stake refunded"), show(*refund)),
            Notice::TicketPrinted { value } => {
                format!("{} {} — {}", t("Bilhete impresso:", "Ticket printed:"), show(*value), t("retire o seu bilhete", "please take your ticket"))
            }
            Notice::OverlayOpen(o) => match o {
                crate::session::Overlay::Help => t("Feche a ajuda para jogar", "Close the help to play"),
                crate::session::Overlay::GameMenu => t("Escolha um jogo ou feche o menu para jogar", "Choose a game or close the menu to play"),
                crate::session::Overlay::History => t("Feche o histórico para jogar", "Close the history to play"),
            }
            .to_owned(),
            Notice::TicketNotPrinted { validation, value, error } => {
                format!("{} {} ({validation}) — {error}", t("Impressora: bilhete por imprimir de", "Printer: ticket not printed of"), show(*value))
            }
            Notice::CashOutHandpay { amount } => format!("{} {}", t("Pagamento manual:", "Hand-pay:"), show(*amount)),
            Notice::Demonstration => {
                t("Modo de demonstração: sem dinheiro, bilhetes nem pagamentos", "Demonstration mode: no money, tickets or payments").to_owned()
            }
            Notice::DemonstrationEnded => t("Demonstração terminada por inactividade", "Demonstration ended for inactivity").to_owned(),
            Notice::SessionEnded { then } => {
                let then = then.as_ref().map(|n| format!(" {}", n.text(lang, show))).unwrap_or_default();
                format!("{}{then}", t("Sessão terminada por inactividade.", "Session ended for inactivity."))
            }
            Notice::RamCleared { reason } => format!("{} ({reason})", t("Memória crítica limpa", "Critical memory cleared")),
            Notice::Linked { pool, error } => format!("{} {pool}: {error}", t("Progressivo ligado", "Linked progressive")),
        }
    }
}

/// Why money in was refused, in the player's language (issue 45: never
/// the core's own English).
fn money_refusal(why: &MoneyRefusal, lang: Lang, show: &dyn Fn(Cents) -> String) -> String {
    let t = |pt: &'static str, en: &'static str| lang.pick(pt, en);
    match why {
        MoneyRefusal::Disabled(b) => {
            let cause = match b {
                PlayBlock::DoorOpen(d) => format!("{} {}", names::door(*d, lang), t("aberta", "open")),
                PlayBlock::Tilt(x) => format!("tilt: {}", names::tilt(*x, lang)),
                PlayBlock::HandpayPending(_) => t("pagamento manual pendente", "hand-pay pending").to_owned(),
                PlayBlock::CriticalMemory(_) => t("erro de memória crítica", "critical memory error").to_owned(),
                PlayBlock::RoundInProgress(_) => t("jogada em curso", "round in progress").to_owned(),
            };
            format!("{} — {cause}", t("leitor desactivado", "reader disabled"))
        }
        MoneyRefusal::NoteNotAccepted(v) => format!("{} {}", t("esta máquina não aceita notas de", "this machine takes no notes of"), show(*v)),
        MoneyRefusal::CreditLimit(limit) => format!("{} {}", t("o crédito passaria o limite de", "the credit would pass the limit of"), show(*limit)),
        MoneyRefusal::Malformed => t("o número de validação não tem 18 algarismos", "the validation number is not 18 digits").to_owned(),
        MoneyRefusal::UnknownTicket => t("bilhete desconhecido nesta máquina", "a ticket this machine does not know").to_owned(),
        MoneyRefusal::AlreadyRedeemed => t("bilhete já pago", "ticket already paid").to_owned(),
        MoneyRefusal::AboveTicketLimit(limit) => format!("{} {}", t("bilhete acima do limite de", "ticket above the limit of"), show(*limit)),
    }
}

/// A refusal or failure of the core, for the player and the attendant.
fn core_error(e: &CoreError, lang: Lang, show: &dyn Fn(Cents) -> String) -> String {
    let t = |pt: &'static str, en: &'static str| lang.pick(pt, en);
    match e {
        CoreError::Blocked(PlayBlock::DoorOpen(d)) => format!("{} ({})", t("PORTA ABERTA", "DOOR OPEN"), names::door(*d, lang)),
        CoreError::Blocked(PlayBlock::Tilt(x)) => format!("TILT: {}", names::tilt(*x, lang)),
        CoreError::Blocked(PlayBlock::HandpayPending(_)) => t("Pagamento manual pendente: chame o empregado", "Hand-pay pending: call an attendant").to_owned(),
        CoreError::Blocked(PlayBlock::CriticalMemory(m)) | CoreError::CriticalMemory(m) => {
            format!("{} {m}", t("ERRO DE MEMÓRIA CRÍTICA:", "CRITICAL MEMORY ERROR:"))
        }
        CoreError::Blocked(PlayBlock::RoundInProgress(_)) => t("Há uma jogada em curso", "A round is in progress").to_owned(),
        CoreError::SelfAudit(a) => format!("{} {}", t("Falha na auto-verificação dos contadores:", "Meter self-audit failure:"), a.equation),
        CoreError::InsufficientCredit { needed, .. } => {
            format!("{} {}", t("Crédito insuficiente; a aposta é de", "Not enough credit; the bet is"), show(*needed))
        }
        CoreError::UnknownDenomination(d) => format!("{} {}", t("Denominação não configurada:", "Denomination not configured:"), show(*d)),
        CoreError::StakeNotWholeCredits { .. } => t("A aposta não é um número inteiro de créditos", "The stake is not a whole number of credits").to_owned(),
        CoreError::ZeroStake => t("A aposta tem de ser maior que zero", "The stake must be more than zero").to_owned(),
        CoreError::NoSuchRound(r) => format!("{} {r}", t("Não há jogada aberta com o número", "No open round numbered")),
        CoreError::NoteRejected(why) => format!("{} {}", t("Nota recusada:", "Note refused:"), money_refusal(why, lang, show)),
        CoreError::TicketRejected(why) => format!("{} {}", t("Bilhete recusado:", "Ticket refused:"), money_refusal(why, lang, show)),
        CoreError::NothingToCashOut => t("Não há crédito para receber", "There is no credit to cash out").to_owned(),
        CoreError::NoSuchHandpay(id) => format!("{} {id}", t("Não há pagamento manual pendente com o número", "No pending hand-pay numbered")),
        CoreError::TiltNotActive(x) => format!("{} {}", t("Tilt inactivo:", "Tilt not active:"), names::tilt(*x, lang)),
        CoreError::TiltStillCaused(x) => format!("{} {}", t("A causa do tilt persiste:", "The tilt's cause remains:"), names::tilt(*x, lang)),
        CoreError::Rng(r) => format!("{} {r}", t("Gerador de números aleatórios:", "Random number generator:")),
        CoreError::Progressive(why) => format!("{} {why}", t("Progressivo:", "Progressive:")),
        CoreError::UnknownGame(g) => format!("{} {g}", t("Jogo não configurado:", "Game not configured:")),
        CoreError::DrawFailed(why) => format!("{} {why}", t("O sorteio do jogo falhou:", "The game's draw failed:")),
        CoreError::Refused(why) => format!("{} {why}", t("Recusado pela memória crítica:", "Refused by critical memory:")),
        CoreError::WinAboveMaximum { win, max } => {
            format!("{} {} > {}", t("Prémio acima do máximo configurado, recusado:", "Win above the configured maximum, refused:"), show(*win), show(*max))
        }
        CoreError::SideBetNotBeside { .. } => t("A aposta lateral só se faz com a aposta principal", "A side bet is made only beside the main bet").to_owned(),
        CoreError::VoidRefused(r) => format!(
            "{} {r} {}",
            t("A jogada", "Round"),
            t("pode ser concluída: só se anula uma jogada interrompida (M-36)", "can be finished: only an interrupted round is voided (M-36)")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use meters::Door;

    /// Issue 45, defect 10: a refused note reads in the player's language,
    /// never the core's English ("acceptor disabled (door open: Logic)").
    #[test]
    fn a_refused_note_or_ticket_reads_in_the_players_language() {
        let show = |c: Cents| format!("{}.{:02} EUR", c / 100, c % 100);
        let disabled = Notice::Core(CoreError::NoteRejected(MoneyRefusal::Disabled(PlayBlock::DoorOpen(Door::Logic))));
        assert_eq!(disabled.text(Lang::Pt, &show), "Nota recusada: leitor desactivado — porta lógica aberta");
        assert_eq!(disabled.text(Lang::En, &show), "Note refused: reader disabled — logic door open");
        let limit = Notice::Core(CoreError::TicketRejected(MoneyRefusal::CreditLimit(100_000)));
        assert_eq!(limit.text(Lang::Pt, &show), "Bilhete recusado: o crédito passaria o limite de 1000.00 EUR");
        let every = [
            MoneyRefusal::Disabled(PlayBlock::Tilt(meters::Tilt::DeviceFault)),
            MoneyRefusal::Disabled(PlayBlock::HandpayPending(1)),
            MoneyRefusal::Disabled(PlayBlock::CriticalMemory("x".into())),
            MoneyRefusal::Disabled(PlayBlock::RoundInProgress(1)),
            MoneyRefusal::NoteNotAccepted(700),
            MoneyRefusal::CreditLimit(1),
            MoneyRefusal::Malformed,
            MoneyRefusal::UnknownTicket,
            MoneyRefusal::AlreadyRedeemed,
            MoneyRefusal::AboveTicketLimit(1),
        ];
        for why in every {
            let pt = Notice::Core(CoreError::TicketRejected(why.clone())).text(Lang::Pt, &show);
            let core = why.to_string();
            assert!(!pt.contains(&core), "{pt:?} shows the core's text {core:?}");
            for english in ["disabled", "accepted", "limit of", "validation", "redeemed", "unknown"] {
                assert!(!pt.contains(english), "{pt:?}: {english}");
            }
        }
    }
}
