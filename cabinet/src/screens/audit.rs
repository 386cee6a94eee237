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

impl Tab {
    const ALL: [Tab; 8] = [Tab::Meters, Tab::Events, Tab::Recall, Tab::Attendant, Tab::Verification, Tab::Configuration, Tab::Progressives, Tab::RamClear];

    /// The tab `delta` places along, wrapping round.
    fn step(self, delta: isize) -> Tab {
        let at = Tab::ALL.iter().position(|t| *t == self).unwrap_or(0);
        Tab::ALL[(at as isize + delta).rem_euclid(Tab::ALL.len() as isize) as usize]
    }
}

/// What the menu shows, read from critical memory when it opens.
#[derive(Resource, Default)]
pub struct AuditView {
    pub tab: Tab,
    pub recall: Vec<RoundRecall>,
    pub events: Vec<Record>,
    /// The RAM clears before this epoch, newest last (D-32): the events
    /// tab lists them below the epoch they began.
    pub clears: Vec<meters::RamClearRecord>,
    /// Why critical memory could not be read for the menu, said on it,
    /// never an empty list in its place (issue 74).
    pub unreadable: Option<String>,
    pub selected: Option<usize>,
    /// The RAM clear form: PIN, reason, confirmation, and the last result.
    pub pin: String,
    pub reason: String,
    pub confirmed: bool,
    pub result: Option<String>,
    /// The last RTP variant choice's result (issue 50).
    pub variant_result: Option<String>,
    /// The last AFT registration action's result (issue 71).
    pub registration_result: Option<String>,
    /// H-52: the lab's seed and offset as typed, and the answer, computed
    /// on a thread of its own beside play.
    pub seed: String,
    pub offset: String,
    pub seeded: SeededAnswer,
    /// H-53: the download/verification log, newest first.
    pub software: Vec<Record>,
}

/// A digest in the verification grid: its first 12 and last 8 hex digits
/// (issue 75: 64 digits ran off the screen), the whole on hover.
fn digest(ui: &mut egui::Ui, hex: &str) {
    let shown = match (hex.get(..12), hex.len().checked_sub(8).and_then(|from| hex.get(from..))) {
        (Some(head), Some(tail)) if hex.len() > 24 => format!("{head}…{tail}"),
        _ => hex.to_owned(),
    };
    ui.monospace(shown).on_hover_text(hex);
}

/// What an operator did to the floor's AFT registration (issue 71).
#[derive(Clone, Copy)]
enum Registration {
    Acknowledge,
    Request,
    Cancel,
}

/// The AFT registration's line and its buttons: acknowledge the one the
/// floor asked the operator to confirm, ask the floor for one, cancel it.
fn registration_controls(ui: &mut egui::Ui, s: &game_host::session::Session, reg: meters::AftRegistration, result: Option<&str>) -> Option<Registration> {
    use meters::RegistrationStatus as S;
    ui.separator();
    let status = match reg.status {
        S::Ready => s.t("registo AFT iniciado pelo piso").to_owned(),
        S::Registered => format!("{} ({} {}, {} {})", s.t("máquina registada para AFT"), s.t("activo"), reg.asset, s.t("ponto de venda"), reg.pos_id),
        S::Pending => s.t("registo AFT à espera do operador").to_owned(),
        S::NotRegistered => s.t("não registada").to_owned(),
    };
    ui.label(format!("{}: {status}", s.t("Registo AFT")));
    let mut asked = None;
    ui.horizontal(|ui| {
        if reg.status == S::Pending && ui.button(s.t("Confirmar o registo AFT")).clicked() {
            asked = Some(Registration::Acknowledge);
        }
        if ui.button(s.t("Pedir o registo AFT ao piso")).clicked() {
            asked = Some(Registration::Request);
        }
        if reg.status != S::NotRegistered && ui.button(s.t("Cancelar o registo AFT")).clicked() {
            asked = Some(Registration::Cancel);
        }
    });
    if let Some(r) = result {
        ui.label(r);
    }
    asked
}

/// The external verification's answer (H-52): none asked, being computed,
/// or each component's HMAC (or why it has none); a bad request's reason.
pub type SeededAnswer = std::sync::Arc<std::sync::Mutex<Option<Result<Vec<game_host::verification::Seeded>, String>>>>;

/// Start the seeded verification of `components` on a thread (the files
/// are only read; the game goes on), its answer into `answer`.
fn verify_beside_play(seed: &str, offset: &str, components: Vec<game_host::verification::Component>, answer: &SeededAnswer) {
    let request = game_host::verification::parse_seed(seed)
        .and_then(|seed| offset.trim().parse::<u64>().map(|o| (seed, o)).map_err(|_| format!("the offset {offset:?} is not a whole number of bytes")));
    let answer = answer.clone();
    match request {
        Err(why) => {
            if let Ok(mut a) = answer.lock() {
                *a = Some(Err(why));
            }
        }
        Ok((seed, offset)) => {
            if let Ok(mut a) = answer.lock() {
                *a = None;
            }
            std::thread::spawn(move || {
                let digests = game_host::verification::seeded(&seed, offset, &components);
                if let Ok(mut a) = answer.lock() {
                    *a = Some(Ok(digests));
                }
            });
        }
    }
}

impl Plugin for AuditPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<AuditView>()
            .init_resource::<KindPages>()
            .add_systems(OnEnter(Mode::Audit), load_audit_view)
            .add_systems(Update, turn_tabs_by_key.run_if(in_state(Mode::Audit)))
            .add_systems(EguiPrimaryContextPass, draw_audit.run_if(in_state(Mode::Audit)));
    }
}

/// The menu by keys alone, for a cabinet whose operator has no pointer:
/// the arrows (or Tab) turn the tabs, Page Up/Down pick an older or newer
/// round in recall. Not while the RAM clear form has the keyboard (its
/// PIN and reason are typed; K still leaves the menu).
fn turn_tabs_by_key(keys: Res<ButtonInput<KeyCode>>, mut view: ResMut<AuditView>) {
    if view.tab == Tab::RamClear {
        return;
    }
    if keys.just_pressed(KeyCode::ArrowRight) || keys.just_pressed(KeyCode::Tab) {
        view.tab = view.tab.step(1);
    }
    if keys.just_pressed(KeyCode::ArrowLeft) {
        view.tab = view.tab.step(-1);
    }
    if view.tab == Tab::Recall && !view.recall.is_empty() {
        let newest = view.recall.len() - 1;
        let at = view.selected.unwrap_or(newest);
        if keys.just_pressed(KeyCode::PageUp) {
            view.selected = Some(at.saturating_sub(1));
        }
        if keys.just_pressed(KeyCode::PageDown) {
            view.selected = Some((at + 1).min(newest));
        }
    }
}

fn load_audit_view(session: Res<SessionRes>, mut view: ResMut<AuditView>) {
    let Ok(s) = session.0.lock() else { return };
    view.reload(s.machine());
    view.selected = view.recall.len().checked_sub(1);
}

impl AuditView {
    /// Read recall, events, clears and the software log from critical
    /// memory; what cannot be read is said (`unreadable`).
    fn reload(&mut self, machine: &meters::Machine) {
        let mut problems = Vec::new();
        let mut read = |what: &str, r: Result<(), meters::StoreError>| {
            if let Err(e) = r {
                problems.push(format!("{what}: {e}"));
            }
        };
        read("recall", machine.recall(100).map(|v| self.recall = v));
        read("events", machine.events(1000).map(|v| self.events = v));
        read("RAM clears", machine.ram_clears().map(|v| self.clears = v));
        read("software log", machine.software_log().map(|v| self.software = v));
        self.unreadable = (!problems.is_empty()).then(|| problems.join("; "));
    }
}

/// A progressive award as the operator reads it: the machine, the round,
/// the level and the amount in the currency.
fn award_line(s: &game_host::session::Session, machine: &str, round: u64, level: impl std::fmt::Display, amount: meters::Cents) -> String {
    format!("{} {machine}, {} {round}, {} {level}: {}", s.t("máquina"), s.t("jogada|round"), s.t("nível"), s.machine().config().currency.format(amount))
}

/// Money that may be negative (d) receita bruta), in the currency.
fn signed_money(cur: &meters::Currency, v: i128) -> String {
    let shown = cur.format(u64::try_from(v.unsigned_abs()).unwrap_or(u64::MAX));
    if v < 0 { format!("−{shown}") } else { shown }
}

fn meter_grid(ui: &mut egui::Ui, id: &str, g: &GameMeters, digits: u8, cur: &meters::Currency, s: &game_host::session::Session) {
    egui::Grid::new(id).striped(true).num_columns(3).show(ui, |ui| {
        for (label, v) in g.labelled() {
            ui.label(label);
            ui.monospace(format!("{:0>width$}", displayed(v, digits), width = usize::from(digits)));
            ui.label(if label.contains("jogadas") { s.lang().count(v, "jogada|game", "jogadas|games") } else { cur.format(v) });
            ui.end_row();
        }
        ui.label("d) receita bruta");
        ui.monospace(displayed_signed(g.receita_bruta(), digits).to_string());
        ui.label(signed_money(cur, g.receita_bruta()));
        ui.end_row();
    });
}

fn draw_audit(mut contexts: EguiContexts, hud: Res<HudLayout>, session: Res<SessionRes>, pages: Res<KindPages>, mut view: ResMut<AuditView>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "audit", &hud);
    let Ok(mut s) = session.0.lock() else { return Ok(()) };
    let mut attendant_clear = false;
    let mut registration: Option<Registration> = None;
    let mut clear = false;
    let mut choose: Option<String> = None;
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.heading(s.t("MENU DE AUDITORIA"));
        ui.horizontal(|ui| {
            for (tab, label) in [
                (Tab::Meters, s.t("Contadores")),
                (Tab::Events, s.t("Eventos")),
                (Tab::Recall, "RECALL"),
                (Tab::Attendant, s.t("Pagamentos e tilts")),
                (Tab::Verification, s.t("Verificação")),
                (Tab::Configuration, s.t("Configuração")),
                (Tab::Progressives, s.t("Progressivos")),
                (Tab::RamClear, s.t("Limpeza da RAM")),
            ] {
                if ui.selectable_label(view.tab == tab, label).clicked() {
                    view.tab = tab;
                }
            }
        });
        ui.separator();
        if let Some(problem) = &view.unreadable {
            ui.colored_label(egui::Color32::from_rgb(255, 90, 90), format!("{} {problem}", s.t("ERRO DE MEMÓRIA CRÍTICA:")));
        }
        let digits = s.machine().config().meter_digits;
        egui::ScrollArea::vertical().show(ui, |ui| match view.tab {
            Tab::Meters => {
                let st = s.machine().state();
                let cur = &s.machine().config().currency;
                ui.heading(format!("{} — {}", s.t("Máquina"), st.machine_id));
                // Each meter as the law names it (M-25), its display of
                // `digits` digits (C-21), and what it is in money or games.
                egui::Grid::new("m25").striped(true).num_columns(3).show(ui, |ui| {
                    ui.strong(s.t("contador|meter"));
                    ui.strong(format!("{} ({digits} {})", s.t("mostrador"), s.t("dígitos")));
                    ui.strong(s.t("valor|amount"));
                    ui.end_row();
                    for m in M25::ALL {
                        ui.label(m.legal_name());
                        match m.machine_value(&st.totals) {
                            Some(v) => {
                                ui.monospace(format!("{:0>width$}", displayed(v, digits), width = usize::from(digits)));
                                ui.label(if m.is_count() { s.lang().count(v, "jogada|game", "jogadas|games") } else { cur.format(v) });
                            }
                            None => {
                                let v = st.totals.games.receita_bruta();
                                ui.monospace(displayed_signed(v, digits).to_string());
                                ui.label(signed_money(cur, v));
                            }
                        };
                        ui.end_row();
                    }
                    ui.label(s.t("crédito"));
                    ui.monospace("");
                    ui.label(cur.format(st.credit));
                    ui.end_row();
                    ui.label(s.t("arranques"));
                    ui.monospace("");
                    ui.label(st.totals.arranques.to_string());
                    ui.end_row();
                });
                ui.add_space(8.0);
                ui.columns(2, |cols| {
                    cols[0].strong(s.t("Notas aceites por valor"));
                    egui::Grid::new("notes").striped(true).show(&mut cols[0], |ui| {
                        for &v in &s.machine().config().accepted_notes {
                            ui.label(cur.format(v));
                            ui.label(s.lang().count(st.totals.notas_por_valor.get(&v).copied().unwrap_or(0), "nota", "notas"));
                            ui.end_row();
                        }
                    });
                    cols[1].strong(s.t("Aberturas por porta"));
                    egui::Grid::new("doors").striped(true).show(&mut cols[1], |ui| {
                        for d in meters::Door::ALL {
                            ui.label(game_host::names::door(d, s.lang()));
                            ui.label(st.totals.aberturas_porta.get(&d).copied().unwrap_or(0).to_string());
                            ui.end_row();
                        }
                    });
                });
                // B-16: per wager category, coin-in and theoretical payback.
                if !st.categories.is_empty() {
                    ui.add_space(8.0);
                    ui.strong(s.t("Categorias de aposta (B-16): entradas e retorno teórico"));
                    egui::Grid::new("categories").striped(true).num_columns(5).show(ui, |ui| {
                        for (game, categories) in &st.categories {
                            for (name, c) in categories {
                                ui.label(game);
                                ui.label(name);
                                ui.label(cur.format(c.coin_in));
                                ui.label(cur.format(u64::try_from(c.theoretical_cents()).unwrap_or(u64::MAX)));
                                ui.label(c.weighted_basis_points().map_or_else(|| "—".to_owned(), |b| format!("{}.{:02}%", b / 100, b % 100)));
                                ui.end_row();
                            }
                        }
                    });
                }
                // Issue 21: what holds the key and the anchor, and the
                // anchor's wear meter (NV writes against the budget).
                let wear = s.machine().anchor_wear();
                egui::Grid::new("anchor").striped(true).show(ui, |ui| {
                    ui.label(s.t("chave e âncora"));
                    ui.label(&wear.key_store);
                    ui.end_row();
                    if let Some(limits) = s.evaluation_limits() {
                        ui.label(s.evaluation_mark().unwrap_or_default());
                        ui.label(limits);
                        ui.end_row();
                    }
                    ui.label(s.t("âncora: escritas / orçamento"));
                    ui.label(format!("{} / {} ({} {})", wear.writes, wear.budget, s.t("contador|counter"), wear.counter));
                    ui.end_row();
                    // Issue 47, hole 3: what the last power-up found since
                    // its anchor, as the event log records it.
                    if let Some(w) = st.last_window {
                        ui.label(s.t("última janela (desde a âncora)"));
                        ui.label(game_host::event_text::window(&w, s.lang(), cur));
                        ui.end_row();
                    }
                });
                for (name, g) in &st.per_game {
                    ui.collapsing(format!("{} {name}", s.t("Jogo")), |ui| meter_grid(ui, &format!("g-{name}"), g, digits, cur, &s));
                }
                for (d, g) in &st.per_denom {
                    ui.collapsing(format!("{} {}", s.t("Denominação"), cur.format(*d)), |ui| meter_grid(ui, &format!("d-{d}"), g, digits, cur, &s));
                }
                ui.label(match st.self_audit() {
                    Ok(()) => s.t("Auto-auditoria: OK").to_owned(),
                    Err(e) => format!("{} {e}", s.t("Auto-auditoria FALHOU:")),
                });
            }
            Tab::Events => {
                let cur = s.machine().config().currency.clone();
                egui::Grid::new("events").striped(true).num_columns(3).show(ui, |ui| {
                    ui.strong("#");
                    ui.strong(s.t("hora (UTC)"));
                    ui.strong(s.t("evento"));
                    ui.end_row();
                    for r in view.events.iter().rev() {
                        ui.monospace(r.seq.to_string());
                        ui.monospace(game_host::event_text::at(&r.at_utc));
                        ui.label(game_host::event_text::event(&r.entry, s.lang(), &cur));
                        ui.end_row();
                    }
                    // Below the epoch: the clears that began it and the
                    // epochs before (D-32), newest first.
                    for c in view.clears.iter().rev() {
                        ui.monospace("—");
                        ui.monospace(game_host::event_text::at(&c.at_utc));
                        ui.label(game_host::event_text::ram_clear(c, s.lang()));
                        ui.end_row();
                    }
                });
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
                    let cur = s.machine().config().currency.clone();
                    egui::Grid::new("recall-round").striped(true).num_columns(2).show(ui, |ui| {
                        let mut row = |k: &str, v: String| {
                            ui.label(k);
                            ui.label(v);
                            ui.end_row();
                        };
                        row(s.t("jogada|round"), r.round.to_string());
                        row(s.t("jogo|game"), r.game.clone());
                        row(s.t("início (UTC)"), game_host::event_text::at(&r.started_utc));
                        row(s.t("denominação"), cur.format(r.denom));
                        row(s.t("crédito antes"), cur.format(r.credit_before));
                        row(s.t("aposta"), cur.format(r.stake));
                        match &r.outcome {
                            RecallOutcome::Settled { win, credit_after, .. } => {
                                row(s.t("prémio|win"), cur.format(*win));
                                row(s.t("crédito depois"), cur.format(*credit_after));
                            }
                            RecallOutcome::Voided { refund, reason, .. } => row(s.t("anulada, devolvido"), format!("{} — {reason}", cur.format(*refund))),
                            RecallOutcome::InProgress => row(s.t("estado"), s.t("em curso").to_owned()),
                        }
                        if !r.resumed_at.is_empty() {
                            row(s.t("retomada no passo"), game_host::names::list(&r.resumed_at));
                        }
                    });
                    egui::Grid::new("recall-steps").striped(true).num_columns(3).show(ui, |ui| {
                        ui.strong(s.t("hora (UTC)"));
                        ui.strong(s.t("passo"));
                        ui.strong(s.t("aposta adicional"));
                        ui.end_row();
                        for st in &r.steps {
                            ui.monospace(game_host::event_text::at(&st.at_utc));
                            ui.label(&st.step.name);
                            ui.label(if st.extra_stake > 0 { cur.format(st.extra_stake) } else { "—".to_owned() });
                            ui.end_row();
                        }
                    });
                    // Replayed by its kind's own screen (M-15).
                    pages.replay.iter().any(|replay| replay(ui, &s, r));
                }
            }
            Tab::Attendant => {
                let st = s.machine().state();
                for h in st.handpays.values() {
                    ui.label(format!(
                        "{} {}: {} ({})",
                        s.t("Pagamento manual"),
                        h.id,
                        s.show(h.amount),
                        game_host::names::handpay(&h.handpay, s.lang())
                    ));
                }
                for t in &st.tilts {
                    ui.label(format!("Tilt: {}", game_host::names::tilt(*t, s.lang())));
                }
                let doors: Vec<&str> = st.doors_open.iter().map(|d| game_host::names::door(*d, s.lang())).collect();
                // Issue 75: "none" said, never a label followed by nothing.
                let doors = if doors.is_empty() { s.t("nenhuma").to_owned() } else { doors.join(", ") };
                ui.label(format!("{}: {doors}", s.t("Portas abertas")));
                if ui.button(s.t("Pagar e limpar (chave do empregado)")).clicked() {
                    attendant_clear = true;
                }
                // Issue 71: the floor's AFT registration (SAS LP 73).
                if let Some(reg) = s.aft_registration() {
                    registration = registration_controls(ui, &s, reg, view.registration_result.as_deref());
                }
            }
            Tab::Verification => {
                egui::Grid::new("verification").striped(true).show(ui, |ui| {
                    ui.strong(s.t("ficheiro"));
                    ui.strong(s.t("esperado"));
                    ui.strong(s.t("actual"));
                    ui.strong("");
                    ui.end_row();
                    for c in &s.verification().checks {
                        ui.monospace(c.file.display().to_string());
                        digest(ui, &c.expected);
                        digest(ui, &c.actual);
                        // Issue 75: the verdict in the menu's language, in
                        // colour.
                        if c.ok() {
                            ui.colored_label(egui::Color32::LIGHT_GREEN, s.t("CORRECTO"));
                        } else {
                            ui.colored_label(egui::Color32::LIGHT_RED, s.t("FALHOU"));
                        }
                        ui.end_row();
                    }
                    if let Some(p) = &s.verification().program {
                        ui.monospace(p.file.display().to_string());
                        digest(ui, &p.expected);
                        digest(ui, &p.actual);
                        ui.label(s.t("programa (registar)"));
                        ui.end_row();
                    }
                });
                // H-53: every component installed, replaced, refused or
                // removed, with its digests and the verification's authority.
                ui.separator();
                ui.strong(s.t("Registo de instalações e verificações (H-53)"));
                let cur = s.machine().config().currency.clone();
                egui::Grid::new("software").striped(true).num_columns(2).show(ui, |ui| {
                    for r in &view.software {
                        ui.monospace(game_host::event_text::at(&r.at_utc));
                        ui.label(game_host::event_text::event(&r.entry, s.lang(), &cur));
                        ui.end_row();
                    }
                });
                // H-52: the lab's seeded verification, while play goes on.
                ui.separator();
                ui.strong(s.t("Verificação externa (H-52): HMAC-SHA256 com a semente do laboratório"));
                ui.horizontal(|ui| {
                    ui.label(s.t("semente (hex)"));
                    ui.text_edit_singleline(&mut view.seed);
                    ui.label(s.t("deslocamento"));
                    ui.add(egui::TextEdit::singleline(&mut view.offset).desired_width(80.0));
                    if ui.button(s.t("Calcular")).clicked() {
                        let offset = if view.offset.trim().is_empty() { "0".to_owned() } else { view.offset.clone() };
                        verify_beside_play(&view.seed, &offset, s.verification_components(), &view.seeded);
                    }
                });
                let answer = view.seeded.lock().ok().and_then(|a| a.clone());
                match answer {
                    Some(Err(why)) => {
                        ui.colored_label(egui::Color32::LIGHT_RED, why);
                    }
                    Some(Ok(digests)) => {
                        egui::Grid::new("seeded").striped(true).show(ui, |ui| {
                            for d in &digests {
                                ui.label(&d.component.name);
                                match &d.hmac {
                                    Ok(h) => ui.monospace(h),
                                    Err(e) => ui.colored_label(egui::Color32::LIGHT_RED, e),
                                };
                                ui.end_row();
                            }
                        });
                    }
                    None => {}
                }
            }
            Tab::Configuration => {
                let c = s.machine().config();
                let cur = &c.currency;
                let money_list = |v: &[u64]| v.iter().map(|&x| cur.format(x)).collect::<Vec<_>>().join(", ");
                egui::Grid::new("configuration").striped(true).num_columns(2).show(ui, |ui| {
                    let rows: Vec<(&str, String)> = vec![
                        (s.t("máquina"), c.machine_id.clone()),
                        (s.t("modo"), if c.mode.is_lab() { s.t("laboratório").to_owned() } else { s.t("produção").to_owned() }),
                        (s.t("moeda"), cur.code.clone()),
                        (s.t("denominações"), money_list(&c.denominations)),
                        (s.t("notas aceites"), money_list(&c.accepted_notes)),
                        (s.t("limite de crédito"), cur.format(c.credit_limit)),
                        (s.t("limite de bilhete de entrada"), cur.format(c.ticket_in_limit)),
                        (s.t("limite de bilhete de saída"), cur.format(c.ticket_out_limit)),
                        (s.t("limite de pagamento manual"), cur.format(c.handpay_limit)),
                        (s.t("limiar de prémio acumulado"), cur.format(c.jackpot_threshold)),
                        (s.t("prémio máximo"), cur.format(c.max_win)),
                        (s.t("dígitos dos contadores"), c.meter_digits.to_string()),
                        // Six ids to a line: the list stays inside the screen.
                        (s.t("jogos"), s.config().games.chunks(6).map(|ids| ids.join(", ")).collect::<Vec<_>>().join(",\n")),
                        (s.t("retorno mínimo ao jogador"), format!("{} %", s.config().rtp_floor_percent)),
                        (s.t("jogo automático, no máximo"), s.lang().count(u64::from(s.config().autoplay_max), "jogada|game", "jogadas|games")),
                        (s.t("fim de sessão sem jogo"), format!("{} s", s.config().inactivity_timeout_s)),
                        (s.t("celebração a partir de"), format!("{} × {}", s.config().big_win_multiple, s.t("a aposta"))),
                    ];
                    for (k, v) in rows {
                        ui.label(k);
                        ui.label(v);
                        ui.end_row();
                    }
                });
                // Issue 50: each game's RTP variants; the operator offers
                // one, with the logic door open, between rounds.
                let choices = s.variant_choices();
                if !choices.is_empty() {
                    ui.separator();
                    ui.label(s.t("Variantes de RTP (com a porta lógica aberta, entre jogadas)"));
                    // The answer above the list: always in sight, however
                    // many games have variants.
                    if let Some(r) = &view.variant_result {
                        ui.label(r);
                    }
                    let open = s.machine().state().doors_open.contains(&meters::Door::Logic);
                    egui::Grid::new("variants").striped(true).num_columns(3).show(ui, |ui| {
                        for c in &choices {
                            for (id, rtp, offered) in &c.variants {
                                ui.label(&c.family);
                                ui.label(format!("{id} — RTP {}", rtp.as_deref().unwrap_or("—")));
                                if *offered {
                                    ui.label(s.t("EM OFERTA"));
                                } else if ui.add_enabled(open, egui::Button::new(s.t("OFERECER"))).clicked() {
                                    choose = Some(id.clone());
                                }
                                ui.end_row();
                            }
                        }
                    });
                }
            }
            Tab::Progressives => {
                // M-24 liability report and the per-level meters (issue 6).
                ui.heading(s.t("Responsabilidade por nível (M-24)"));
                egui::Grid::new("liability").striped(true).show(ui, |ui| {
                    for h in [s.t("fundo"), s.t("nível"), s.t("valor|value"), s.t("reserva"), s.t("responsabilidade"), s.t("contribuições"), s.t("prémios"), s.t("pago")] {
                        ui.strong(h);
                    }
                    ui.end_row();
                    let cur = s.machine().config().currency.clone();
                    for l in s.machine().liability_report() {
                        ui.label(&l.pool);
                        ui.label(&l.name);
                        ui.label(cur.format(l.current));
                        ui.label(cur.format(l.reserve));
                        ui.label(cur.format(l.liability));
                        ui.label(cur.format(l.contributed_cents));
                        ui.label(l.hits.to_string());
                        ui.label(cur.format(l.won));
                        ui.end_row();
                    }
                });
                for (id, pool) in s.machine().pools() {
                    ui.collapsing(format!("{id}: {} {}", s.t("últimos prémios"), pool.last_hits.len()), |ui| {
                        for h in &pool.last_hits {
                            ui.label(format!("{} — {}", h.time, award_line(&s, &h.machine, h.round, h.level, h.amount)));
                        }
                    });
                }
                for p in s.linked() {
                    let v = p.view();
                    ui.heading(format!("{} {} — {}", s.t("Ligado"), p.setup.pool, if v.available() { s.t("ligação activa") } else { s.t("SEM LIGAÇÃO") }));
                    for l in &v.levels {
                        let value = s.machine().config().currency.format(l.value);
                        ui.label(format!("{} {} — {value} ({} {})", s.t("nível"), l.name, s.t("prémios"), l.hits));
                    }
                    if let Some(a) = &v.last_award {
                        ui.label(format!("{} #{}: {}", s.t("último prémio"), a.seq, award_line(&s, &a.machine, a.round, a.level, a.amount)));
                    }
                }
                let pending = s.machine().linked_pending().len();
                ui.label(format!("{}: {pending}", s.t("contribuições por entregar ao controlador")));
            }
            Tab::RamClear => {
                ui.label(s.t("Limpa a memória crítica (D-32): os contadores antes da limpeza ficam registados, o diário é arquivado e começa uma nova época. Exige o PIN do operador."));
                ui.horizontal(|ui| {
                    ui.label("PIN");
                    ui.add(egui::TextEdit::singleline(&mut view.pin).password(true).id_salt("ram_clear_pin"));
                });
                ui.horizontal(|ui| {
                    ui.label(s.t("Motivo"));
                    ui.add(egui::TextEdit::singleline(&mut view.reason).id_salt("ram_clear_reason"));
                });
                ui.checkbox(&mut view.confirmed, s.t("Confirmo a limpeza da memória crítica"));
                if ui.add_enabled(view.confirmed, egui::Button::new(s.t("LIMPAR A RAM"))).clicked() {
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
    if let Some(r) = registration {
        let done = match r {
            Registration::Acknowledge => s.acknowledge_aft_registration(),
            Registration::Request => s.request_aft_registration(),
            Registration::Cancel => s.cancel_aft_registration(),
        };
        view.registration_result = Some(done.map_or_else(|e| e, |()| "OK".to_owned()));
    }
    if let Some(id) = choose {
        view.variant_result = Some(match s.choose_variant(&id) {
            Ok(()) => format!("OK — {id}"),
            Err(e) => e,
        });
        view.reload(s.machine());
    }
    if clear {
        let (pin, reason) = (std::mem::take(&mut view.pin), view.reason.clone());
        view.confirmed = false;
        view.result = Some(match s.ram_clear(&pin, &reason) {
            Ok(epoch) => format!("OK — {} {epoch}", s.t("nova época")),
            Err(e) => e,
        });
        view.reload(s.machine());
        view.selected = None;
    }
    Ok(())
}
