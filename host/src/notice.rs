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
    /// Issue 47, hole 6: the round a power loss interrupted cannot be
    /// resumed by its game: it stays open, never voided.
    CannotResume { round: u64, game: String },
    /// The floor's system holds the cabinet for a transfer (SAS AFT lock).
    FloorLocked,
    /// A ticket another cabinet printed is with the floor's system for
    /// validation (SAS, issue 48).
    TicketWithFloor,
    /// Issue 71: the floor's system disabled the note acceptor (SAS LP 07).
    NotesOffByFloor,
    /// Issue 71: the floor's system does not let the acceptor take a note
    /// of this value (SAS LP 08).
    NoteOffByFloor { value: Cents },
    /// Issue 71: the floor's system disabled this game (SAS LP 09).
    GameOffByFloor,
    /// Issue 71: the floor's system delays the next game (SAS LP 2E).
    GameDelayedByFloor,
    /// The cash-out waits for the floor's system to assign the ticket's
    /// validation number (SAS system validation, LP 57/58).
    CashOutWithFloor,
    /// The floor's system refused the cash-out ticket or did not answer:
    /// nothing moved, the credit stays on the meter.
    CashOutRefusedByFloor,
    /// The floor's system redeemed that ticket for this amount.
    TicketRedeemed { value: Cents },
    /// A ticket was printed for this amount (issue 45: the player sees the
    /// amount and takes the ticket; the printer's file is the attendant's).
    TicketPrinted { value: Cents },
    /// An overlay is open over the game: close it to play (issue 45).
    OverlayOpen(crate::session::Overlay),
    /// Issue 70: the printer cannot print now (a fault, a ticket still in
    /// hand): the cash-out did not happen, the credit stays.
    PrinterNotReady,
    /// Issue 70: a note or a ticket from the operator panel or a key on a
    /// cabinet with a note acceptor: money comes in through it alone.
    ThroughAcceptor,
    /// Issue 70: the acceptor's emulator could not be fed.
    AcceptorEmulator(String),
    /// Issue 70: the door has sensors, which alone say whether it is open
    /// (the operator panel's button for it does nothing).
    DoorHasSensors(meters::Door),
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
        format!("JACKPOT {} {} — {} {}", self.level, show(self.amount), lang.t("máquina"), self.machine)
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
    /// Issue 46: the same, where the configuration plays on: the bets do
    /// not compete for the linked pool.
    PlayingUnlinked { pool: String },
}

impl Warning {
    pub fn text(&self, lang: Lang) -> String {
        let t = |key: &'static str| lang.t(key);
        match self {
            Warning::SessionEnding { seconds } => {
                format!("{} {seconds} s — {}", t("A sessão termina por inactividade dentro de"), t("prima qualquer tecla para continuar"))
            }
            Warning::CreditShort => t("Crédito insuficiente para a aposta escolhida: reduza a aposta, introduza notas ou receba o crédito").to_owned(),
            Warning::LinkDown { pool } => format!("{} ({pool})", t("Sem ligação ao progressivo: as apostas neste jogo estão suspensas")),
            Warning::PlayingUnlinked { pool } => {
                format!("{} ({pool})", t("Sem ligação ao progressivo: as apostas neste jogo não concorrem ao progressivo ligado"))
            }
        }
    }
}

impl Notice {
    /// The notice for the player or the attendant; `show` writes an amount
    /// as the player chose to see amounts (M-16).
    pub fn text(&self, lang: Lang, show: &dyn Fn(Cents) -> String) -> String {
        let t = |key: &'static str| lang.t(key);
        match self {
            Notice::Core(e) => core_error(e, lang, show),
            Notice::Refused(r) => (if lang == Lang::En { &r.en } else { &r.pt }).clone(),
            Notice::LinkedUnavailable { pool } => {
                format!("{} ({pool})", t("Progressivo ligado indisponível: apostas suspensas"))
            }
            Notice::CreditShort { needed } => {
                format!("{} {}", t("Crédito insuficiente para a jogada; são precisos"), show(*needed))
            }
            Notice::AwaitingController => t("PROGRESSIVO LIGADO! A aguardar o controlador…").to_owned(),
            Notice::AwaitingAttendant { amount } => {
                format!("{} {} {}", t("PROGRESSIVO LIGADO!"), show(*amount), t("— chame o empregado: o prémio é confirmado antes de pago"))
            }
            Notice::Progressive { amount } => format!("{} {}", t("PROGRESSIVO!"), show(*amount)),
            Notice::WinHandpay => t("Prémio a pagar manualmente: chame o empregado").to_owned(),
            Notice::Resumed => t("Jogada interrompida retomada").to_owned(),
            Notice::ThroughAcceptor => t("As notas e os bilhetes entram pelo leitor de notas").to_owned(),
            Notice::AcceptorEmulator(why) => format!("{} {why}", t("Emulador do leitor de notas:")),
            Notice::DoorHasSensors(d) => {
                format!("{} ({})", t("Esta porta tem sensores: só eles dizem se está aberta"), crate::names::door(*d, lang))
            }
            Notice::CannotResume { round, game } => {
                format!("{} {round} ({game}) {}", t("A jogada"), t("não pode ser retomada: o seu resultado está registado e nunca se anula; chame o técnico"))
            }
            Notice::FloorLocked => t("TRANSFERÊNCIA DO SISTEMA DO PISO EM CURSO").to_owned(),
            Notice::TicketWithFloor => t("BILHETE EM VALIDAÇÃO PELO SISTEMA DO PISO").to_owned(),
            Notice::NotesOffByFloor => t("O sistema do piso desactivou o aceitador de notas").to_owned(),
            Notice::NoteOffByFloor { value } => format!("{} {}", t("O sistema do piso não aceita notas de"), show(*value)),
            Notice::GameOffByFloor => t("O sistema do piso desactivou este jogo").to_owned(),
            Notice::GameDelayedByFloor => t("AGUARDE: O SISTEMA DO PISO ADIA O PRÓXIMO JOGO").to_owned(),
            Notice::CashOutWithFloor => t("PAGAMENTO EM VALIDAÇÃO PELO SISTEMA DO PISO").to_owned(),
            Notice::CashOutRefusedByFloor => t("O sistema do piso não validou o bilhete: o crédito fica na máquina").to_owned(),
            Notice::TicketRedeemed { value } => format!("{} {}", t("Bilhete pago:"), show(*value)),
            Notice::TicketPrinted { value } => {
                format!("{} {} — {}", t("Bilhete impresso:"), show(*value), t("retire o seu bilhete"))
            }
            Notice::OverlayOpen(o) => match o {
                crate::session::Overlay::Help => t("Feche a ajuda para jogar"),
                crate::session::Overlay::GameMenu => t("Escolha um jogo ou feche o menu para jogar"),
                crate::session::Overlay::History => t("Feche o histórico para jogar"),
            }
            .to_owned(),
            Notice::PrinterNotReady => t("Impressora indisponível: o crédito fica na máquina").to_owned(),
            Notice::TicketNotPrinted { validation, value, error } => {
                format!("{} {} ({validation}) — {error}", t("Impressora: bilhete por imprimir de"), show(*value))
            }
            Notice::CashOutHandpay { amount } => format!("{} {}", t("Pagamento manual:"), show(*amount)),
            Notice::Demonstration => t("Modo de demonstração: sem dinheiro, bilhetes nem pagamentos").to_owned(),
            Notice::DemonstrationEnded => t("Demonstração terminada por inactividade").to_owned(),
            Notice::SessionEnded { then } => {
                let then = then.as_ref().map(|n| format!(" {}", n.text(lang, show))).unwrap_or_default();
                format!("{}{then}", t("Sessão terminada por inactividade."))
            }
            Notice::RamCleared { reason } => format!("{} ({reason})", t("Memória crítica limpa")),
            Notice::Linked { pool, error } => format!("{} {pool}: {error}", t("Progressivo ligado")),
        }
    }
}

/// Why money in was refused, in the player's language (issue 45: never
/// the core's own English).
fn money_refusal(why: &MoneyRefusal, lang: Lang, show: &dyn Fn(Cents) -> String) -> String {
    let t = |key: &'static str| lang.t(key);
    match why {
        MoneyRefusal::Disabled(b) => {
            let cause = match b {
                PlayBlock::DoorOpen(d) => format!("{} {}", names::door(*d, lang), t("aberta")),
                PlayBlock::Tilt(x) => format!("tilt: {}", names::tilt(*x, lang)),
                PlayBlock::HandpayPending(_) => t("pagamento manual pendente").to_owned(),
                PlayBlock::CriticalMemory(_) => t("erro de memória crítica").to_owned(),
                PlayBlock::RoundInProgress(_) => t("jogada em curso").to_owned(),
            };
            format!("{} — {cause}", t("leitor desactivado"))
        }
        MoneyRefusal::NoteNotAccepted(v) => format!("{} {}", t("esta máquina não aceita notas de"), show(*v)),
        MoneyRefusal::CreditLimit(limit) => format!("{} {}", t("o crédito passaria o limite de"), show(*limit)),
        MoneyRefusal::Malformed => t("o número de validação não tem 18 algarismos").to_owned(),
        MoneyRefusal::UnknownTicket => t("bilhete desconhecido nesta máquina").to_owned(),
        MoneyRefusal::AlreadyRedeemed => t("bilhete já pago").to_owned(),
        MoneyRefusal::AboveTicketLimit(limit) => format!("{} {}", t("bilhete acima do limite de"), show(*limit)),
        MoneyRefusal::FloorRefused(code) => format!("{} ({code:#04x})", t("bilhete recusado pelo sistema do piso")),
        MoneyRefusal::FloorNoAnswer(s) => format!("{} {s} s", t("o sistema do piso não respondeu em")),
        MoneyRefusal::FloorAmount(_) => t("o valor do sistema do piso não pode ser creditado nesta máquina").to_owned(),
        MoneyRefusal::FloorValidates => t("os bilhetes desta máquina são validados pelo sistema do piso").to_owned(),
    }
}

/// A refusal or failure of the core, for the player and the attendant.
fn core_error(e: &CoreError, lang: Lang, show: &dyn Fn(Cents) -> String) -> String {
    let t = |key: &'static str| lang.t(key);
    match e {
        CoreError::Blocked(PlayBlock::DoorOpen(d)) => format!("{} ({})", t("PORTA ABERTA"), names::door(*d, lang)),
        CoreError::Blocked(PlayBlock::Tilt(x)) => format!("TILT: {}", names::tilt(*x, lang)),
        CoreError::Blocked(PlayBlock::HandpayPending(_)) => t("Pagamento manual pendente: chame o empregado").to_owned(),
        CoreError::Blocked(PlayBlock::CriticalMemory(m)) | CoreError::CriticalMemory(m) => {
            format!("{} {m}", t("ERRO DE MEMÓRIA CRÍTICA:"))
        }
        CoreError::Blocked(PlayBlock::RoundInProgress(_)) => t("Há uma jogada em curso").to_owned(),
        CoreError::SelfAudit(a) => format!("{} {}", t("Falha na auto-verificação dos contadores:"), a.equation),
        CoreError::InsufficientCredit { needed, .. } => {
            format!("{} {}", t("Crédito insuficiente; a aposta é de"), show(*needed))
        }
        CoreError::UnknownDenomination(d) => format!("{} {}", t("Denominação não configurada:"), show(*d)),
        CoreError::StakeNotWholeCredits { .. } => t("A aposta não é um número inteiro de créditos").to_owned(),
        CoreError::ZeroStake => t("A aposta tem de ser maior que zero").to_owned(),
        CoreError::NoSuchRound(r) => format!("{} {r}", t("Não há jogada aberta com o número")),
        CoreError::NoteRejected(why) => format!("{} {}", t("Nota recusada:"), money_refusal(why, lang, show)),
        CoreError::NoteStillStacking(v) => format!("{} {}", t("Uma nota ainda está a ser empilhada:"), show(*v)),
        CoreError::TicketStillStacking(v) => format!("{} {v}", t("Um bilhete ainda está a ser empilhado:")),
        CoreError::TicketRejected(why) => format!("{} {}", t("Bilhete recusado:"), money_refusal(why, lang, show)),
        CoreError::TransferInRejected(why) => format!("{} {}", t("Transferência recusada:"), money_refusal(why, lang, show)),
        CoreError::NothingToCashOut => t("Não há crédito para receber").to_owned(),
        CoreError::NoSuchHandpay(id) => format!("{} {id}", t("Não há pagamento manual pendente com o número")),
        CoreError::TiltNotActive(x) => format!("{} {}", t("Tilt inactivo:"), names::tilt(*x, lang)),
        CoreError::TiltStillCaused(x) => format!("{} {}", t("A causa do tilt persiste:"), names::tilt(*x, lang)),
        CoreError::Rng(r) => format!("{} {r}", t("Gerador de números aleatórios:")),
        CoreError::Progressive(why) => format!("{} {why}", t("Progressivo:")),
        CoreError::UnknownGame(g) => format!("{} {g}", t("Jogo não configurado:")),
        CoreError::DrawFailed(why) => format!("{} {why}", t("O sorteio do jogo falhou:")),
        CoreError::Refused(why) => format!("{} {why}", t("Recusado pela memória crítica:")),
        CoreError::WinAboveMaximum { win, max } => {
            format!("{} {} > {}", t("Prémio acima do máximo configurado, recusado:"), show(*win), show(*max))
        }
        CoreError::SideBetNotBeside { .. } => t("A aposta lateral só se faz com a aposta principal").to_owned(),
        CoreError::ExcessiveIncrement(_) => t("INCREMENTO EXCESSIVO DE CONTADOR: recusado; chame o empregado").to_owned(),
        CoreError::ValidationIdNotSet => t("O bilhete não pode ser numerado: o sistema do piso ainda não definiu a identificação de validação").to_owned(),
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
            MoneyRefusal::FloorRefused(0x84),
            MoneyRefusal::FloorNoAnswer(15),
            MoneyRefusal::FloorAmount("zero".into()),
            MoneyRefusal::FloorValidates,
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
