//! The snapshot the floor's polls are answered from (issue 48), built
//! from the core's state after a commit: every SAS meter is one of the
//! core's M-25 meters, read here once (certification H-54; docs/install.md's
//! table), and each game's identity from its approved paytable.

use std::path::Path;

use meters::HandpayKind;
use meters::{CriticalState, Door, GameMeters};
use sas::snapshot::{Counted, Game, Handpay, ProgressiveWin, Scope, Snapshot, TicketOut};
use sha2::{Digest, Sha256};

/// One game's identity as LP 1F / 53 give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameIdentity {
    pub id: String,
    pub sas_id: [u8; 2],
    pub additional_id: [u8; 3],
    pub paytable_id: [u8; 6],
    pub base_percent: u32,
    /// The largest stake in the game's credits (LP 1F, 53); FF when the
    /// paytable does not bound it or it is over 255 [R].
    pub max_bet: u64,
}

impl GameIdentity {
    /// A game's identity from its approved artifact: the SAS game ID from
    /// the initials of its id ("ocean-treasure" → "OT"), the paytable ID
    /// from the artifact's SHA-256 (its first six hex digits, the digest
    /// the manifest approves), and the base percentage from its lowest
    /// exact RTP, in hundredths of a percent, rounded down.
    pub(crate) fn of(id: &str, artifact: &Path, largest_stake: Option<u64>) -> Result<GameIdentity, String> {
        let bytes = std::fs::read(artifact).map_err(|e| format!("{}: {e}", artifact.display()))?;
        let digest = hex::encode_upper(Sha256::digest(&bytes));
        let mut paytable_id = [b'0'; 6];
        paytable_id.copy_from_slice(&digest.as_bytes()[..6]);
        let a: paytables::artifact::Artifact = serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", artifact.display()))?;
        let base_percent = a.rtp.iter().filter_map(|(_, r)| hundredths(r)).min().unwrap_or(0);
        let mut initials = id.split(['-', '_', ' ']).filter_map(|w| w.bytes().next()).map(|b| b.to_ascii_uppercase());
        let first = initials.next().unwrap_or(b'G');
        let second = initials.next().or_else(|| id.as_bytes().get(1).map(u8::to_ascii_uppercase)).unwrap_or(b'0');
        let max_bet = largest_stake.unwrap_or(u64::MAX).min(0xFF);
        Ok(GameIdentity { id: id.to_owned(), sas_id: [first, second], additional_id: additional_id(id), paytable_id, base_percent, max_bet })
    }
}

/// LP 1F's additional ID of the game `id` (issue 71: "000" for every
/// game): three ASCII digits from the id's CRC-16, the same on every
/// cabinet, so that two games whose initials make the same two-character
/// game ID ("ouro-tesouro", "ocean-treasure") are told apart.
fn additional_id(id: &str) -> [u8; 3] {
    let n = sas::crc::crc(id.as_bytes()) % 1_000;
    let digits = format!("{n:03}");
    let mut out = [b'0'; 3];
    out.copy_from_slice(digits.as_bytes());
    out
}

/// An exact RTP "n/d" in hundredths of a percent, rounded down.
fn hundredths(ratio: &str) -> Option<u32> {
    let (n, d) = ratio.split_once('/').unwrap_or((ratio, "1"));
    let (n, d) = (n.trim().parse::<u128>().ok()?, d.trim().parse::<u128>().ok()?);
    u32::try_from(n.checked_mul(10_000)?.checked_div(d)?).ok()
}

fn scope(m: &GameMeters) -> Scope {
    Scope {
        coin_in: m.creditos_jogados,
        // Wins the machine paid: every prize (M-25 b) less the attendant's.
        coin_out: m.creditos_ganhos.saturating_sub(m.premio_acumulado_manual),
        jackpot: m.premio_acumulado_manual,
        games_played: m.jogadas_efectuadas,
        games_won: m.jogadas_ganhas,
        games_lost: m.jogadas_perdidas,
    }
}

/// The core's AFT registration in the wire's terms (LP 73).
pub(crate) fn registration_on_wire(r: &meters::AftRegistration) -> sas::registration::Registration {
    use meters::RegistrationStatus as S;
    use sas::registration::status;
    let status = match r.status {
        S::Ready => status::READY,
        S::Registered => status::REGISTERED,
        S::Pending => status::PENDING,
        S::NotRegistered => status::NOT_REGISTERED,
    };
    sas::registration::Registration { status, asset: r.asset, key: r.key, pos_id: r.pos_id }
}

/// The floor's LP 73 registration in the core's terms; `None` for a
/// status the wire does not define.
pub(crate) fn registration_in_core(r: &sas::registration::Registration) -> Option<meters::AftRegistration> {
    use meters::RegistrationStatus as S;
    use sas::registration::status;
    let status = match r.status {
        status::READY => S::Ready,
        status::REGISTERED => S::Registered,
        status::PENDING => S::Pending,
        status::NOT_REGISTERED => S::NotRegistered,
        _ => return None,
    };
    Some(meters::AftRegistration { status, asset: r.asset, key: r.key, pos_id: r.pos_id })
}

/// What the cabinet chose besides the core's state.
pub(crate) struct Choices<'a> {
    pub asset_number: u32,
    pub system_validation: bool,
    pub secure_enhanced: bool,
    /// The SAS progressive group and the games in it (LP 1F, 53).
    pub progressive: Option<&'a super::SasProgressive>,
    pub idle: bool,
    /// The machine's credit limit, in cents (LP 74's transfer limit).
    pub credit_limit: u64,
    /// The digits the meters keep (LP 6F/AF's meter size).
    pub meter_digits: u8,
    /// The days a printed ticket is valid (the printer's `expiry_days`; 0
    /// without a printer: the evaluation printer's tickets carry none).
    pub ticket_expiry_days: u16,
    /// The games the floor disabled (LP 09, 56).
    pub games_off: &'a std::collections::BTreeSet<String>,
    pub accounting_denom: u64,
    pub games: &'a [GameIdentity],
    pub selected: usize,
    pub player_denom: u64,
    pub player_denoms: &'a [u64],
    pub last_note: Option<u64>,
    /// The last tickets printed, newest first (kept by the link as the
    /// journal tells them, not sorted out of every ticket at each commit).
    pub tickets_printed: &'a [TicketOut],
}

/// The floor's snapshot of `state`.
pub(crate) fn of(state: &CriticalState, c: &Choices<'_>) -> Snapshot {
    let t = &state.totals;
    Snapshot {
        accounting_denom: c.accounting_denom,
        machine: scope(&t.games),
        games: c
            .games
            .iter()
            .map(|g| Game {
                id: g.id.clone(),
                sas_id: g.sas_id,
                additional_id: g.additional_id,
                paytable_id: g.paytable_id,
                base_percent: g.base_percent,
                max_bet_credits: g.max_bet,
                progressive_group: c.progressive.filter(|p| p.games.contains(&g.id)).map_or(0, |p| p.group),
                progressive_levels: c
                    .progressive
                    .filter(|p| p.games.contains(&g.id))
                    .map_or(0, |p| p.triggers.iter().filter(|(l, _)| (1..=32).contains(l)).fold(0u32, |m, (l, _)| m | (1 << (l - 1)))),
                enabled: !c.games_off.contains(&g.id),
                meters: state.per_game.get(&g.id).map(scope).unwrap_or_default(),
            })
            .collect(),
        denominations: state.per_denom.iter().map(|(d, m)| (*d, scope(m))).collect(),
        canceled_credits: t.cancelamento_creditos.saturating_add(t.cancelamento_creditos_manual),
        handpaid_canceled_credits: t.cancelamento_creditos_manual,
        drop: t.dinheiro_entrado,
        games_since_power_up: state.games_since_power_up,
        games_since_door_close: state.games_since_door_close,
        credit: state.credit,
        credit_limit: c.credit_limit,
        meter_digits: c.meter_digits,
        slot_door_opens: t.aberturas_porta.get(&Door::Main).copied().unwrap_or(0),
        power_resets: t.arranques,
        notes: t.notas_por_valor.clone(),
        last_note: c.last_note,
        tickets_in: Counted { cents: t.bilhetes_codificados_entrados, count: t.bilhetes_entrados_contagem },
        tickets_out: Counted { cents: t.bilhetes_codificados_pagos, count: t.bilhetes_pagos_contagem },
        serial: state.machine_id.clone(),
        selected_game: u16::try_from(c.selected + 1).unwrap_or(0),
        player_denom: c.player_denom,
        player_denoms: c.player_denoms.to_vec(),
        tickets_printed: c.tickets_printed.to_vec(),
        aft_in: Counted { cents: t.transferencias_entrada, count: t.transferencias_entrada_contagem },
        aft_out: Counted { cents: t.transferencias_saida, count: t.transferencias_saida_contagem },
        idle: c.idle,
        asset_number: c.asset_number,
        ticket_expiry_days: c.ticket_expiry_days,
        aft_registration: registration_on_wire(&state.aft_registration),
        system_validation: c.system_validation,
        handpays: state
            .handpays
            .values()
            .map(|h| Handpay {
                id: h.id,
                cents: h.amount,
                canceled_credits: matches!(h.handpay, HandpayKind::CancelledCredits),
                // A round that won a SAS level locked up for it (issue 48).
                progressive: match (&h.handpay, &state.last_floor_award) {
                    (HandpayKind::Jackpot { round, .. }, Some(a)) if a.round == *round => Some((a.group, a.level)),
                    _ => None,
                },
            })
            .collect(),
        secure_enhanced: c.secure_enhanced,
        validation_id: state.secure_validation.map(|v| (v.id, v.sequence)),
        progressive_win: state.last_floor_award.as_ref().map(|a| ProgressiveWin { group: a.group, level: a.level, cents: a.amount }),
    }
}

/// The most tickets LP 4D's history holds.
pub(crate) const TICKET_HISTORY: usize = 31;

/// One printed ticket of `state`, for the history.
pub(crate) fn ticket_out(state: &CriticalState, validation: &str) -> Option<TicketOut> {
    state.tickets.get(validation).map(|t| TicketOut { validation: validation.to_owned(), cents: t.value, issued: unix(&t.issued_utc) })
}

/// The last 31 cash-out tickets this cabinet printed, newest first (LP
/// 4D), by the time printed on them: once, when the link starts.
pub(crate) fn tickets_printed(state: &CriticalState) -> Vec<TicketOut> {
    let mut all: Vec<TicketOut> = state
        .tickets
        .iter()
        .filter(|(_, t)| t.printed)
        .map(|(v, t)| TicketOut { validation: v.clone(), cents: t.value, issued: unix(&t.issued_utc) })
        .collect();
    all.sort_by(|a, b| b.issued.cmp(&a.issued).then_with(|| b.validation.cmp(&a.validation)));
    all.truncate(TICKET_HISTORY);
    all
}

/// An RFC 3339 time as Unix seconds (0 when it is not one).
fn unix(rfc3339: &str) -> i64 {
    time::OffsetDateTime::parse(rfc3339, &time::format_description::well_known::Rfc3339).map_or(0, time::OffsetDateTime::unix_timestamp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_rtp_in_hundredths_rounds_down() {
        assert_eq!(hundredths("965/1000"), Some(9_650));
        assert_eq!(hundredths("1/3"), Some(3_333));
        assert_eq!(hundredths("99999/100000"), Some(9_999));
        assert_eq!(hundredths("x/3"), None);
        assert_eq!(hundredths("1/0"), None);
    }
}
