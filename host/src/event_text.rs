//! The event log as the operator reads it (issue 29): each journal entry
//! as one sentence in the operator's language, amounts in the currency.
//! No `Debug` output and no raw record reaches a screen.

use meters::{AnchorReason, Currency, Entry, TransferTarget, WinPayment};

use crate::names::{Lang, door, handpay, list, tilt};

/// Why the anchor counter moved, as a phrase.
fn anchor_reason(r: AnchorReason, lang: Lang) -> &'static str {
    match r {
        AnchorReason::Provisioned => lang.t("máquina instalada"),
        AnchorReason::PowerUp => lang.t("arranque"),
        AnchorReason::CashOut => lang.t("pagamento por bilhete"),
        AnchorReason::Handpay => lang.t("pagamento manual"),
        AnchorReason::TransferOut => lang.t("transferência de fundo"),
        AnchorReason::RamClear => lang.t("limpeza da RAM"),
        AnchorReason::DoorClosed => lang.t("porta fechada"),
        AnchorReason::Tick => lang.t("intervalo de jogadas"),
        AnchorReason::FinishedAtBoot => lang.t("jogada terminada no arranque"),
    }
}

/// One journal entry as a sentence.
/// A power-up's window since the last anchor (issue 47, hole 3), as the
/// event log and the audit menu say it.
pub fn window(w: &meters::anchor::PowerUpWindow, lang: Lang, currency: &Currency) -> String {
    let t = |key: &'static str| lang.t(key);
    let money = |c: u64| currency.format(c);
    let (a, p) = (&w.at_anchor, &w.at_power_up);
    format!(
        "{} {}: {} {} → {}, {} {}, {} {}, {} {}, {} {}",
        t("janela desde a âncora"),
        w.anchor,
        t("crédito"),
        money(a.credit),
        money(p.credit),
        t("jogado"),
        money(p.wagered.saturating_sub(a.wagered)),
        t("ganho"),
        money(p.won.saturating_sub(a.won)),
        t("entrado"),
        money(p.money_in.saturating_sub(a.money_in)),
        t("pago|out"),
        money(p.money_out.saturating_sub(a.money_out)),
    )
}

/// A RAM clear (D-32), as the event log lists it before the epoch it
/// began: its number, who made it and why (its record is the clears' own
/// MAC-chained table, not the journal it archived).
pub fn ram_clear(clear: &meters::RamClearRecord, lang: Lang) -> String {
    format!("{} {} — {} {}: {}", lang.t("Limpeza da RAM"), clear.n, lang.t("operador"), clear.operator, clear.reason)
}

/// A record's UTC time as the audit menu shows it, to the second (issue
/// 75: the journal keeps nanoseconds): `2026-11-30T13:24:46.123456789Z`
/// → `2026-11-30 13:24:46`.
pub fn at(at_utc: &str) -> String {
    let seconds = at_utc.split_once('.').map_or(at_utc, |(whole, _)| whole);
    seconds.trim_end_matches('Z').replacen('T', " ", 1)
}

pub fn event(entry: &Entry, lang: Lang, currency: &Currency) -> String {
    let t = |key: &'static str| lang.t(key).to_owned();
    let money = |c: u64| currency.format(c);
    match entry {
        Entry::Genesis { machine_id, after_clear, .. } => match after_clear {
            Some(n) => {
                format!("{} {machine_id} ({} {n})", t("Diário iniciado na máquina"), t("após a limpeza da RAM"))
            }
            None => format!("{} {machine_id}", t("Diário iniciado na máquina")),
        },
        Entry::PowerUp { unclean_shutdown, window: found } => {
            let base = if *unclean_shutdown { t("Arranque após corte de energia") } else { t("Arranque") };
            // Issue 47, hole 3: what this power-up found since the last
            // anchor (a copy restored inside it is undetectable).
            match found {
                Some(w) => format!("{base}; {}", window(w, lang, currency)),
                None => base,
            }
        }
        Entry::PowerDown => t("Encerramento"),
        Entry::Anchored { value, reason, writes } => {
            format!("{} {value} ({}; {} {writes})", t("Âncora avançada para"), anchor_reason(*reason, lang), t("escritas"))
        }
        Entry::CarriedOver { .. } => t("Responsabilidades transitadas da época anterior"),
        Entry::CopyRebuilt { detail } => format!("{}: {detail}", t("Cópia da memória crítica reconstruída")),
        Entry::RngSeeded { source } => match source {
            meters::rng::SeedSource::Entropy => t("Gerador aleatório semeado pela entropia do sistema"),
            meters::rng::SeedSource::Lab(seed) => format!("{} {seed}", t("Gerador aleatório semeado (laboratório) com")),
        },
        Entry::ConfigChanged { digest, .. } => {
            format!("{} ({} {})", t("Configuração alterada"), t("resumo"), digest.chars().take(16).collect::<String>())
        }
        Entry::NoteIn { value } => format!("{} {}", t("Nota aceite:"), money(*value)),
        Entry::NoteStacking { value } => format!("{} {}", t("Nota a empilhar:"), money(*value)),
        Entry::NoteReturned { value } => format!("{} {}", t("Nota devolvida:"), money(*value)),
        Entry::NoteRejected { value, reason } => format!("{} {} — {reason}", t("Nota recusada:"), money(*value)),
        Entry::TicketStacking { validation } => format!("{} {validation}", t("Bilhete a empilhar:")),
        Entry::TicketReturned { validation } => format!("{} {validation}", t("Bilhete devolvido:")),
        Entry::TicketIn { validation, value } => format!("{} {validation}: {}", t("Bilhete aceite"), money(*value)),
        Entry::TicketRejected { validation, reason } => format!("{} {validation} — {reason}", t("Bilhete recusado")),
        Entry::TicketOut { validation, value, .. } => format!("{} {validation}: {}", t("Bilhete emitido"), money(*value)),
        Entry::TicketPrinted { validation } => format!("{} {validation}", t("Bilhete impresso")),
        Entry::HandpayLocked { id, handpay: h, amount } => {
            format!("{} {id}: {} — {}", t("Pagamento manual pendente"), money(*amount), handpay(h, lang))
        }
        Entry::HandpayPaid { id, attendant } => format!("{} {id} {} {attendant}", t("Pagamento manual"), t("pago por")),
        Entry::RoundBegun { round, game, denom, stake, unlinked, .. } => {
            let without = if unlinked.is_empty() { String::new() } else { format!(" — {} {}", t("sem o progressivo ligado"), unlinked.join(", ")) };
            format!("{} {round} ({game}, {} {}): {} {}{without}", t("Jogada"), t("denominação"), money(*denom), t("aposta"), money(*stake))
        }
        Entry::RoundStep { round, step, extra_stake, category, .. } => {
            // B-16 (issue 77): an extra stake on a bet of its own names it.
            let on = category.as_ref().map_or(String::new(), |c| format!(" ({})", c.name));
            let extra = if *extra_stake > 0 { format!(", {} {}{on}", t("aposta adicional"), money(*extra_stake)) } else { String::new() };
            format!("{} {round}: {} «{}»{extra}", t("Jogada"), t("passo"), step.name)
        }
        Entry::DrawDiscarded { game, draws, reason } => {
            format!("{} {game} {} ({draws} {}): {reason}", t("Sorteio de"), t("descartado"), t("valores"))
        }
        Entry::RoundSettled { round, win, payment, credit_after, .. } => {
            let how = match payment {
                WinPayment::Credited { jackpot: true } => t("creditado (prémio acumulado)"),
                WinPayment::Credited { jackpot: false } => t("creditado"),
                WinPayment::Handpay { id } => format!("{} {id}", t("pagamento manual")),
            };
            format!("{} {round} {}: {} {} {how}; {} {}", t("Jogada"), t("terminada"), t("prémio|win"), money(*win), t("crédito"), money(*credit_after))
        }
        Entry::RoundVoided { round, refund, reason, .. } => {
            format!("{} {round} {}: {} {} — {reason}", t("Jogada"), t("anulada"), t("devolvido"), money(*refund))
        }
        Entry::RoundResumed { round, at_step } => format!("{} {round} {} {at_step}", t("Jogada"), t("retomada no passo")),
        Entry::DoorOpened { door: d } => format!("{}: {}", t("Porta aberta"), door(*d, lang)),
        Entry::DoorClosed { door: d } => format!("{}: {}", t("Porta fechada"), door(*d, lang)),
        Entry::TiltSet { tilt: x, detail } => {
            if detail.is_empty() {
                format!("Tilt: {}", tilt(*x, lang))
            } else {
                format!("Tilt: {} — {detail}", tilt(*x, lang))
            }
        }
        Entry::TiltCleared { tilt: x, by } => format!("{}: {} ({by})", t("Tilt limpo"), tilt(*x, lang)),
        Entry::Verification { ok, detail } => {
            let result = if *ok { t("verificação do programa: correcta") } else { t("verificação do programa: FALHOU") };
            if detail.is_empty() { result } else { format!("{result} — {detail}") }
        }
        Entry::MeterRollover { meter, count } => format!("{} «{meter}» ({count})", t("O contador deu a volta:")),
        Entry::FloorTicketIn { validation, value } => format!("{} {} ({validation})", t("Bilhete do piso pago:"), money(*value)),
        Entry::FloorTicketStacking { validation, value } => format!("{} {} ({validation})", t("Bilhete do piso a empilhar:"), money(*value)),
        Entry::FloorTicketRefused { validation, status, reason } => format!("{} {validation} ({status:#04x}): {reason}", t("Bilhete do piso devolvido:")),
        Entry::AftIn { transaction_id, value } => format!("{} {} ({transaction_id})", t("Transferência do piso para a máquina:"), money(*value)),
        Entry::AftOut { transaction_id, value } => format!("{} {} ({transaction_id})", t("Transferência da máquina para o piso:"), money(*value)),
        Entry::AftPending { transaction_id, to_host, value } => {
            let way = if *to_host { t("Transferência pendente da máquina para o piso:") } else { t("Transferência pendente do piso para a máquina:") };
            format!("{way} {} ({transaction_id})", money(*value))
        }
        Entry::AftFailed { transaction_id, status, reason, .. } => {
            format!("{} {transaction_id} ({status:#04x}): {reason}", t("Transferência do piso não feita:"))
        }
        Entry::AftRegistration { registration, by } => {
            let status = match registration.status {
                meters::RegistrationStatus::Ready => t("registo AFT iniciado pelo piso"),
                meters::RegistrationStatus::Registered => t("máquina registada para AFT"),
                meters::RegistrationStatus::Pending => t("registo AFT à espera do operador"),
                meters::RegistrationStatus::NotRegistered => t("registo AFT cancelado"),
            };
            if registration.status == meters::RegistrationStatus::Registered {
                format!("{status}: {} {}, {} {} ({by})", t("activo"), registration.asset, t("ponto de venda"), registration.pos_id)
            } else {
                format!("{status} ({by})")
            }
        }
        Entry::AftRegistrationAcknowledged { by } => format!("{} ({by})", t("O operador confirmou o registo AFT")),
        Entry::AftRegistrationRequested { by } => format!("{} ({by})", t("O operador pediu o registo AFT ao piso")),
        Entry::FloorReported { cursor } => format!("{} {}", t("O sistema de gestão do piso recebeu os eventos até"), cursor.up_to),
        Entry::ValidationIdSet { id, sequence } => format!("{} {id:06X}, {} {sequence}", t("O piso definiu a identificação de validação"), t("sequência")),
        Entry::SoftwareChanged { component, sha256, previous, outcome, by, .. } => {
            let what = match outcome {
                meters::SoftwareOutcome::Installed => t("instalado"),
                meters::SoftwareOutcome::Replaced => t("substituído"),
                meters::SoftwareOutcome::Refused => t("RECUSADO"),
                meters::SoftwareOutcome::Removed => t("retirado"),
            };
            let short = |d: &str| d.chars().take(16).collect::<String>();
            let was = previous.as_deref().map(|p| format!(" ({} {})", t("antes"), short(p))).unwrap_or_default();
            format!("{} {component}: {what} {}{was} — {by}", t("Software"), short(sha256))
        }
        Entry::PrinterPaper { low: true } => t("Impressora: papel a acabar").to_owned(),
        Entry::PrinterPaper { low: false } => t("Impressora: papel reposto").to_owned(),
        Entry::VariantChosen { family, game, sha256, by } => {
            format!("{} {family}: {game} ({} {}) — {by}", t("Variante de RTP escolhida para"), t("resumo"), sha256.chars().take(16).collect::<String>())
        }
        Entry::PoolConfigured { pool, .. } => {
            format!("{} {} ({})", t("Progressivo configurado:"), pool.id, lang.count(pool.levels.len() as u64, "nível", "níveis"))
        }
        Entry::LinkedPoolJoined { pool, games, min_wager } => {
            format!("{} {pool}: {} ({} {})", t("Ligado ao progressivo"), games.join(", "), t("aposta mínima"), money(*min_wager))
        }
        Entry::LinkedDelivered { pool, rounds } => {
            format!("{} {pool}: {} {}", t("Contribuições entregues ao"), t("jogadas|rounds"), list(rounds))
        }
        Entry::LinkedRefused { pool, round, reason } => {
            format!("{} {pool} {} {round}: {reason}", t("O controlador"), t("recusou a jogada"))
        }
        Entry::LinkedWithdrawn { pool, round, reason } => {
            format!("{} {pool} {} {round}: {reason}", t("O controlador"), t("recusou a jogada"))
        }
        Entry::LinkedCommitted { pool, round, stake, .. } => {
            format!("{} {round} {} {pool} ({})", t("Jogada"), t("comprometida com o progressivo"), money(*stake))
        }
        Entry::PoolTransfer { pool, level, amount, to, by } => {
            let to = match to {
                TransferTarget::Pool { pool, level } => format!("{pool} {} {}", t("nível"), level + 1),
                TransferTarget::Authority { reference } => format!("{} {reference}", t("autorização")),
            };
            format!("{} {pool} {} {}: {} → {to} ({by})", t("Transferência do progressivo"), t("nível"), level + 1, money(*amount))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_records_time_is_shown_to_the_second() {
        assert_eq!(at("2026-11-30T13:24:46.123456789Z"), "2026-11-30 13:24:46");
        assert_eq!(at("2026-11-30T13:24:46Z"), "2026-11-30 13:24:46");
    }
    use meters::{Door, HandpayKind, Step, Tilt};

    fn eur() -> Currency {
        Currency { code: "EUR".into(), minor_digits: 2 }
    }

    /// Every kind of entry reads as a sentence in each language: the
    /// amounts in the currency, no record syntax, no Rust names.
    #[test]
    fn every_entry_reads_as_a_sentence_without_record_syntax() {
        let step = Step { name: "draw".into(), data: serde_json::json!({ "hold": 3 }) };
        let entries = vec![
            Entry::Genesis { machine_id: "EGM-0001".into(), after_clear: Some(2), epoch_id: "ab".into() },
            Entry::PowerUp { unclean_shutdown: true, window: None },
            Entry::PowerUp {
                unclean_shutdown: false,
                window: Some(meters::anchor::PowerUpWindow {
                    anchor: 7,
                    at_anchor: meters::anchor::WindowMeters { credit: 1_000, wagered: 5_000, won: 4_000, money_in: 2_000, money_out: 0 },
                    at_power_up: meters::anchor::WindowMeters { credit: 2_500, wagered: 6_000, won: 4_500, money_in: 4_000, money_out: 0 },
                }),
            },
            Entry::PowerDown,
            Entry::Anchored { value: 7, reason: AnchorReason::CashOut, writes: 9 },
            Entry::CopyRebuilt { detail: "copy b was older".into() },
            Entry::RngSeeded { source: meters::rng::SeedSource::Entropy },
            Entry::NoteIn { value: 2_000 },
            Entry::NoteStacking { value: 2_000 },
            Entry::NoteReturned { value: 2_000 },
            Entry::NoteRejected { value: 2_000, reason: "credit limit".into() },
            Entry::TicketStacking { validation: "123".into() },
            Entry::TicketReturned { validation: "123".into() },
            Entry::TicketIn { validation: "123".into(), value: 1_050 },
            Entry::TicketRejected { validation: "123".into(), reason: "already paid".into() },
            Entry::TicketOut { validation: "456".into(), value: 1_050, issued_utc: None, sequence: None },
            Entry::TicketPrinted { validation: "456".into() },
            Entry::HandpayLocked { id: 1, handpay: HandpayKind::CancelledCredits, amount: 500_000 },
            Entry::HandpayPaid { id: 1, attendant: "K".into() },
            Entry::RoundBegun {
                round: 3,
                game: "classic-sevens".into(),
                denom: 5,
                stake: 15,
                credit_before: 100,
                step: step.clone(),
                draws: 3,
                side_stake: 0,
                committed: None,
                unlinked: Vec::new(),
                category: None,
                wagers: Vec::new(),
            },
            Entry::RoundStep { round: 3, step, extra_stake: 5, draws: 0, category: None },
            Entry::RoundSettled {
                round: 3,
                win: 250,
                components: vec![],
                payment: WinPayment::Credited { jackpot: false },
                credit_after: 335,
                progressive: vec![],
            },
            Entry::RoundVoided { round: 4, refund: 15, reason: "not resumable".into(), credit_after: 350 },
            Entry::RoundResumed { round: 4, at_step: 1 },
            Entry::DoorOpened { door: Door::Main },
            Entry::DoorClosed { door: Door::Logic },
            Entry::TiltSet { tilt: Tilt::DeviceFault, detail: "printer".into() },
            Entry::TiltCleared { tilt: Tilt::DeviceFault, by: "attendant".into() },
            Entry::Verification { ok: true, detail: String::new() },
            Entry::MeterRollover { meter: "creditos_jogados".into(), count: 1 },
            Entry::FloorReported { cursor: meters::FloorCursor { up_to: 41, above: vec![44] } },
            Entry::FloorTicketIn { validation: "000000000000004242".into(), value: 2_500 },
            Entry::FloorTicketStacking { validation: "000000000000004242".into(), value: 2_500 },
            Entry::AftIn { transaction_id: "FLOOR-1".into(), value: 2_500 },
            Entry::AftOut { transaction_id: "FLOOR-2".into(), value: 2_500 },
            Entry::ValidationIdSet { id: 0x12_3456, sequence: 0 },
            Entry::AftRegistration {
                registration: meters::AftRegistration { status: meters::RegistrationStatus::Registered, asset: 4242, key: [7; 20], pos_id: 9 },
                by: "SAS host (LP 73)".into(),
            },
            Entry::AftRegistration { registration: meters::AftRegistration::default(), by: "SAS host (LP 73)".into() },
            Entry::AftRegistrationAcknowledged { by: "ana".into() },
            Entry::AftRegistrationRequested { by: "ana".into() },
            Entry::VariantChosen { family: "floresta-243".into(), game: "floresta-243-92".into(), sha256: "ab".repeat(32), by: "ana".into() },
            Entry::PrinterPaper { low: true },
            Entry::PrinterPaper { low: false },
            Entry::SoftwareChanged {
                component: "paytable bingo-75".into(),
                file: "assets/paytables/compiled/bingo-75.json".into(),
                sha256: "cd".repeat(32),
                previous: Some("ab".repeat(32)),
                outcome: meters::SoftwareOutcome::Replaced,
                by: "boot verification".into(),
            },
            Entry::FloorTicketRefused { validation: "000000000000004243".into(), status: 0x88, reason: "no answer".into() },
            Entry::LinkedPoolJoined { pool: "linked-sevens".into(), games: vec!["classic-sevens".into()], min_wager: 1 },
            Entry::LinkedDelivered { pool: "linked-sevens".into(), rounds: vec![1, 2] },
            Entry::LinkedRefused { pool: "linked-sevens".into(), round: 2, reason: "over its bound".into() },
            Entry::LinkedCommitted {
                pool: "linked-sevens".into(),
                round: 4,
                game: "classic-sevens".into(),
                denom: 1,
                stake: 3,
                side_stake: 0,
                bet: "{}".into(),
                key: "00".repeat(32),
            },
            Entry::LinkedWithdrawn { pool: "linked-sevens".into(), round: 4, reason: "another bet".into() },
            Entry::PoolTransfer {
                pool: "sevens".into(),
                level: 0,
                amount: 1_000,
                to: TransferTarget::Authority { reference: "SRIJ-1".into() },
                by: "operator".into(),
            },
        ];
        for lang in [Lang::Pt, Lang::En] {
            let mut seen = std::collections::BTreeSet::new();
            for e in &entries {
                let text = event(e, lang, &eur());
                assert!(text.len() > 8, "{text}");
                for bad in ["{", "}", "Some(", "None", "Entry", "::", "unclean_shutdown", "\"kind\""] {
                    assert!(!text.contains(bad), "{text:?} holds {bad:?}");
                }
                assert!(seen.insert(text.clone()), "two kinds read alike: {text}");
            }
        }
        assert_eq!(event(&Entry::NoteIn { value: 2_000 }, Lang::En, &eur()), "Note accepted: 20.00 EUR");
        assert_eq!(event(&Entry::NoteIn { value: 2_000 }, Lang::Pt, &eur()), "Nota aceite: 20.00 EUR");
        assert_eq!(event(&Entry::NoteStacking { value: 2_000 }, Lang::En, &eur()), "Note being stacked: 20.00 EUR");
        assert_eq!(event(&Entry::NoteReturned { value: 2_000 }, Lang::Pt, &eur()), "Nota devolvida: 20.00 EUR");
        assert_eq!(event(&Entry::TicketStacking { validation: "123".into() }, Lang::En, &eur()), "Ticket being stacked: 123");
        assert_eq!(event(&Entry::TicketReturned { validation: "123".into() }, Lang::Pt, &eur()), "Bilhete devolvido: 123");
        assert_eq!(
            event(&entries[2], Lang::En, &eur()),
            "Power-up; window since anchor 7: credit 10.00 EUR → 25.00 EUR, played 10.00 EUR, won 5.00 EUR, in 20.00 EUR, out 0.00 EUR",
            "issue 47, hole 3: what a power-up found since its anchor"
        );
        let settled = entries.iter().find(|e| matches!(e, Entry::RoundSettled { .. })).expect("a settled round among the samples");
        assert_eq!(event(settled, Lang::En, &eur()), "Round 3 settled: win 2.50 EUR credited; credit 3.35 EUR", "the amounts are in the currency");
    }

    /// Issue 74: the clear that began an epoch heads its events.
    #[test]
    fn a_ram_clear_reads_with_its_number_operator_and_reason() {
        let clear = meters::RamClearRecord {
            n: 2,
            at_utc: "2026-11-29T04:00:00Z".into(),
            operator: "ana".into(),
            reason: "lab reset".into(),
            meters_before: "{}".into(),
        };
        assert_eq!(ram_clear(&clear, Lang::Pt), "Limpeza da RAM 2 — operador ana: lab reset");
        assert_eq!(ram_clear(&clear, Lang::En), "RAM clear 2 — operator ana: lab reset");
    }
}
