//! The operator and audit menu, behind the attendant key (bevy_egui): every
//! meter (machine, game, denomination), the event log, recall of the last
//! rounds replayed on the reel screen itself, hand-pays and tilts, the
//! software verification report, the configuration.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use meters::Record;
use meters::meters::{displayed, displayed_signed};
use meters::{GameMeters, M25, RecallOutcome, RoundRecall};

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::KindPages;
use crate::screens::{HudLayout, screen_ui};

pub struct AuditPlugin;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tab {
    #[default]
    Meters,
    Events,
    Recall,
    Attendant,
    Verification,
    Configuration,
    Progressives,
    RamClear,
}

/// What the menu shows, read from critical memory when it opens.
#[derive(Resource, Default)]
pub struct AuditView {
    pub tab: Tab,
    pub recall: Vec<RoundRecall>,
    pub events: Vec<Record>,
    pub selected: Option<usize>,
    /// The RAM clear form: PIN, reason, confirmation, and the last result.
    pub pin: String,
    pub reason: String,
    pub confirmed: bool,
    pub result: Option<String>,
}

impl Plugin for AuditPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<AuditView>()
            .init_resource::<KindPages>()
            .add_systems(OnEnter(Mode::Audit), load_audit_view)
            .add_systems(EguiPrimaryContextPass, draw_audit.run_if(in_state(Mode::Audit)));
    }
}

fn load_audit_view(session: Res<SessionRes>, mut view: ResMut<AuditView>) {
    let Ok(s) = session.0.lock() else { return };
    view.recall = s.machine().recall(100).unwrap_or_default();
    view.events = s.machine().events(1000).unwrap_or_default();
    view.selected = view.recall.len().checked_sub(1);
}

fn meter_grid(ui: &mut egui::Ui, id: &str, g: &GameMeters, digits: u8) {
    egui::Grid::new(id).striped(true).show(ui, |ui| {
        for (label, v) in g.labelled() {
            ui.label(label);
            ui.monospace(format!("{:0>width$}", displayed(v, digits), width = usize::from(digits)));
            ui.end_row();
        }
        ui.label("d) receita bruta");
        ui.monospace(displayed_signed(g.receita_bruta(), digits).to_string());
        ui.end_row();
    });
}

fn draw_audit(mut contexts: EguiContexts, hud: Res<HudLayout>, session: Res<SessionRes>, pages: Res<KindPages>, mut view: ResMut<AuditView>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "audit", &hud);
    let Ok(mut s) = session.0.lock() else { return Ok(()) };
    let mut attendant_clear = false;
    let mut clear = false;
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.heading(s.t("MENU DE AUDITORIA (K para sair)", "AUDIT MENU (K to leave)"));
        ui.horizontal(|ui| {
            for (tab, label) in [
                (Tab::Meters, s.t("Contadores", "Meters")),
                (Tab::Events, s.t("Eventos", "Events")),
                (Tab::Recall, "RECALL"),
                (Tab::Attendant, s.t("Pagamentos e tilts", "Hand-pays and tilts")),
                (Tab::Verification, s.t("Verificação", "Verification")),
                (Tab::Configuration, s.t("Configuração", "Configuration")),
                (Tab::Progressives, s.t("Progressivos", "Progressives")),
                (Tab::RamClear, s.t("Limpeza da RAM", "RAM clear")),
            ] {
                if ui.selectable_label(view.tab == tab, label).clicked() {
                    view.tab = tab;
                }
            }
        });
        ui.separator();
        let digits = s.machine().config().meter_digits;
        egui::ScrollArea::vertical().show(ui, |ui| match view.tab {
            Tab::Meters => {
                let st = s.machine().state();
                ui.heading(format!("{} — {}", s.t("Máquina", "Machine"), st.machine_id));
                egui::Grid::new("m25").striped(true).show(ui, |ui| {
                    for m in M25::ALL {
                        ui.label(m.legal_name());
                        match m.machine_value(&st.totals) {
                            Some(v) => ui.monospace(format!("{:0>width$}", displayed(v, digits), width = usize::from(digits))),
                            None => ui.monospace(displayed_signed(st.totals.games.receita_bruta(), digits).to_string()),
                        };
                        ui.end_row();
                    }
                    ui.label(s.t("crédito", "credit"));
                    ui.monospace(st.credit.to_string());
                    ui.end_row();
                    ui.label(s.t("notas por valor", "notes by value"));
                    let notes: Vec<String> = st.totals.notas_por_valor.iter().map(|(v, n)| format!("{} × {n}", s.show(*v))).collect();
                    ui.monospace(notes.join(", "));
                    ui.end_row();
                    ui.label(s.t("aberturas de porta", "door openings"));
                    let doors: Vec<String> = st.totals.aberturas_porta.iter().map(|(d, n)| format!("{} {n}", game_host::names::door(*d, s.lang()))).collect();
                    ui.monospace(doors.join(", "));
                    ui.end_row();
                    ui.label(s.t("arranques", "power-ups"));
                    ui.monospace(st.totals.arranques.to_string());
                    ui.end_row();
                    // Issue 21: what holds the key and the anchor, and the
                    // anchor's wear meter (NV writes against the budget).
                    let wear = s.machine().anchor_wear();
                    ui.label(s.t("chave e âncora", "key and anchor"));
                    ui.monospace(&wear.key_store);
                    ui.end_row();
                    ui.label(s.t("âncora: escritas / orçamento", "anchor: writes / budget"));
                    ui.monospace(format!("{} / {} (contador {})", wear.writes, wear.budget, wear.counter));
                    ui.end_row();
                });
                for (name, g) in &st.per_game {
                    ui.collapsing(format!("{} {name}", s.t("Jogo", "Game")), |ui| meter_grid(ui, &format!("g-{name}"), g, digits));
                }
                for (d, g) in &st.per_denom {
                    ui.collapsing(format!("{} {d}", s.t("Denominação (cêntimos)", "Denomination (cents)")), |ui| meter_grid(ui, &format!("d-{d}"), g, digits));
                }
                ui.label(match st.self_audit() {
                    Ok(()) => s.t("Auto-auditoria: OK", "Self-audit: OK").to_owned(),
                    Err(e) => e.to_string(),
                });
            }
            Tab::Events => {
                for r in &view.events {
                    ui.monospace(format!("{:>7} {} {}", r.seq, r.at_utc, serde_json::to_string(&r.entry).unwrap_or_default()));
                }
            }
            Tab::Recall => {
                let mut picked = None;
                ui.horizontal_wrapped(|ui| {
                    for (i, r) in view.recall.iter().enumerate().rev().take(100) {
                        if ui.selectable_label(view.selected == Some(i), r.round.to_string()).clicked() {
                            picked = Some(i);
                        }
                    }
                });
                if picked.is_some() {
                    view.selected = picked;
                }
                if let Some(r) = view.selected.and_then(|i| view.recall.get(i)) {
                    ui.label(format!(
                        "RECALL — {} {} — {} @ {} — {} {} — {} {}",
                        s.t("jogada", "game"),
                        r.round,
                        r.game,
                        r.denom,
                        s.t("crédito antes", "credit before"),
                        r.credit_before,
                        s.t("aposta", "bet"),
                        r.stake
                    ));
                    match &r.outcome {
                        RecallOutcome::Settled { win, credit_after, .. } => ui.label(format!("{} {win} — {} {credit_after}", s.t("prémio", "win"), s.t("crédito depois", "credit after"))),
                        RecallOutcome::Voided { refund, reason, .. } => ui.label(format!("{} {refund}: {reason}", s.t("anulada, devolvido", "voided, refunded"))),
                        RecallOutcome::InProgress => ui.label(s.t("em curso", "in progress")),
                    };
                    if !r.resumed_at.is_empty() {
                        ui.label(format!("{} {}", s.t("retomada no passo", "resumed at step"), game_host::names::list(&r.resumed_at)));
                    }
                    for st in &r.steps {
                        ui.monospace(format!("{} {} {}", st.at_utc, st.step.name, if st.step.name == "gamble" || st.extra_stake > 0 { st.step.data.to_string() } else { String::new() }));
                    }
                    // Replayed by its kind's own screen (M-15).
                    pages.replay.iter().any(|replay| replay(ui, &s, r));
                }
            }
            Tab::Attendant => {
                let st = s.machine().state();
                for h in st.handpays.values() {
                    ui.label(format!(
                        "{} {}: {} ({})",
                        s.t("Pagamento manual", "Hand-pay"),
                        h.id,
                        s.show(h.amount),
                        game_host::names::handpay(&h.handpay, s.lang())
                    ));
                }
                for t in &st.tilts {
                    ui.label(format!("Tilt: {}", game_host::names::tilt(*t, s.lang())));
                }
                let doors: Vec<&str> = st.doors_open.iter().map(|d| game_host::names::door(*d, s.lang())).collect();
                ui.label(format!("{}: {}", s.t("Portas abertas", "Doors open"), doors.join(", ")));
                if ui.button(s.t("Pagar e limpar (chave do empregado)", "Pay and clear (attendant key)")).clicked() {
                    attendant_clear = true;
                }
            }
            Tab::Verification => {
                egui::Grid::new("verification").striped(true).show(ui, |ui| {
                    ui.strong(s.t("ficheiro", "file"));
                    ui.strong(s.t("esperado", "expected"));
                    ui.strong(s.t("actual", "actual"));
                    ui.strong("");
                    ui.end_row();
                    for c in &s.verification().checks {
                        ui.monospace(c.file.display().to_string());
                        ui.monospace(&c.expected);
                        ui.monospace(&c.actual);
                        ui.label(if c.ok() { "OK" } else { "FALHA / FAIL" });
                        ui.end_row();
                    }
                    if let Some(p) = &s.verification().program {
                        ui.monospace(p.file.display().to_string());
                        ui.monospace(&p.expected);
                        ui.monospace(&p.actual);
                        ui.label(s.t("programa (registar)", "program (to record)"));
                        ui.end_row();
                    }
                });
            }
            Tab::Configuration => {
                ui.monospace(ron::ser::to_string_pretty(s.machine().config(), ron::ser::PrettyConfig::default()).unwrap_or_default());
                ui.monospace(format!("games: {}, floor {}%, autoplay ≤ {}", s.config().games.join(", "), s.config().rtp_floor_percent, s.config().autoplay_max));
            }
            Tab::Progressives => {
                // M-24 liability report and the per-level meters (issue 6).
                ui.heading(s.t("Responsabilidade por nível (M-24)", "Liability per level (M-24)"));
                egui::Grid::new("liability").striped(true).show(ui, |ui| {
                    for h in [s.t("fundo", "pool"), s.t("nível", "level"), s.t("valor", "value"), s.t("reserva", "reserve"), s.t("responsabilidade", "liability"), s.t("contribuições", "contributions"), s.t("prémios", "hits"), s.t("pago", "won")] {
                        ui.strong(h);
                    }
                    ui.end_row();
                    for l in s.machine().liability_report() {
                        ui.label(&l.pool);
                        ui.label(&l.name);
                        ui.monospace(l.current.to_string());
                        ui.monospace(l.reserve.to_string());
                        ui.monospace(l.liability.to_string());
                        ui.monospace(l.contributed_cents.to_string());
                        ui.monospace(l.hits.to_string());
                        ui.monospace(l.won.to_string());
                        ui.end_row();
                    }
                });
                for (id, pool) in s.machine().pools() {
                    ui.collapsing(format!("{id}: {} {}", s.t("últimos prémios", "last hits"), pool.last_hits.len()), |ui| {
                        for h in &pool.last_hits {
                            ui.monospace(format!("{} {} round {} level {} {}", h.time, h.machine, h.round, h.level, h.amount));
                        }
                    });
                }
                for p in s.linked() {
                    let v = p.view();
                    ui.heading(format!("{} {} — {}", s.t("Ligado", "Linked"), p.setup.pool, if v.available() { s.t("ligação activa", "link up") } else { s.t("SEM LIGAÇÃO", "LINK DOWN") }));
                    for l in &v.levels {
                        ui.monospace(format!("{} {} {} {} {}", l.level, l.name, l.value, s.t("prémios", "hits"), l.hits));
                    }
                    if let Some(a) = &v.last_award {
                        ui.monospace(format!("{} #{} {} {} level {} {}", s.t("último prémio", "last award"), a.seq, a.machine, a.round, a.level, a.amount));
                    }
                }
                let pending = s.machine().linked_pending().len();
                ui.label(format!("{}: {pending}", s.t("contribuições por entregar ao controlador", "contributions waiting for the controller")));
            }
            Tab::RamClear => {
                ui.label(s.t(
                    "Limpa a memória crítica (D-32): os contadores antes da limpeza ficam registados, o diário é arquivado e começa uma nova época. Exige o PIN do operador.",
                    "Clears critical memory (D-32): the meters before it are recorded, the journal archived, and a new epoch begins. Needs the operator's PIN.",
                ));
                ui.horizontal(|ui| {
                    ui.label("PIN");
                    ui.add(egui::TextEdit::singleline(&mut view.pin).password(true).id_salt("ram_clear_pin"));
                });
                ui.horizontal(|ui| {
                    ui.label(s.t("Motivo", "Reason"));
                    ui.add(egui::TextEdit::singleline(&mut view.reason).id_salt("ram_clear_reason"));
                });
                ui.checkbox(&mut view.confirmed, s.t("Confirmo a limpeza da memória crítica", "I confirm clearing critical memory"));
                if ui.add_enabled(view.confirmed, egui::Button::new(s.t("LIMPAR A RAM", "CLEAR RAM"))).clicked() {
                    clear = true;
                }
                if let Some(r) = &view.result {
                    ui.label(r);
                }
            }
        });
    });
    if attendant_clear {
        s.attendant_clear();
    }
    if clear {
        let (pin, reason) = (std::mem::take(&mut view.pin), view.reason.clone());
        view.confirmed = false;
        view.result = Some(match s.ram_clear(&pin, &reason) {
            Ok(epoch) => format!("OK — {} {epoch}", s.t("nova época", "new epoch")),
            Err(e) => e,
        });
        view.recall = s.machine().recall(100).unwrap_or_default();
        view.events = s.machine().events(1000).unwrap_or_default();
        view.selected = None;
    }
    Ok(())
}
