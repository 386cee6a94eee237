//! What the host tells the player or the attendant, as typed values. The
//! text is made only when a screen shows it, in Portuguese or English
//! ([`crate::names::Lang`]); no `Debug` output ever reaches a screen.

use meters::{Cents, CoreError, PlayBlock};

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
    /// A ticket was printed to this file.
    TicketPrinted { path: String },
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
                "Crédito insuficiente para a aposta escolhida: reduza a aposta, introduza notas ou receba o crédito (C)",
                "Not enough credit for the chosen bet: lower the bet, insert notes or cash out (C)",
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
            Notice::TicketPrinted { path } => format!("{} {path}", t("Bilhete impresso:", "Ticket printed:")),
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
        CoreError::NoteRejected(why) => format!("{} {why}", t("Nota recusada:", "Note refused:")),
        CoreError::TicketRejected(why) => format!("{} {why}", t("Bilhete recusado:", "Ticket refused:")),
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
