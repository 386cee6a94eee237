//! The desafio ao casino screen, drawn by Bevy (DC-1…14): what each ending
//! pays beside the table; the player's card and the bank's turned from
//! the deal the core committed; on equal cards GUERRA or DESISTIR (touch,
//! or F1/F2), then, for a war, three burned cards and each side's war card
//! laid from the same committed deal; the tie bet by touch between
//! rounds. Nothing is decided here: the screen only turns over what the
//! host reports. Recall stays egui.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy_egui::egui;
use game_core::desafio_ao_casino::{TieChoice, WarDeal};
use game_host::command::Command;
use game_host::kind::{BetControl, GameKind};
use game_host::kinds::desafio_ao_casino::{DesafioAoCasino, WarBet, WarRound, announce};
use game_host::round::{Opening, Phase};
use game_host::session::Session;
use meters::RoundRecall;

use crate::SessionRes;
use crate::layout::Area;
use crate::modes::Mode;
use crate::screens::KindPages;
use crate::screens::cards::paint_hand;
use crate::screens::reels::Reveal;
use crate::screens::table::{self, CARD, CardLook};
use crate::stage::{self, ArtTextures, Fonts};
use crate::touches::Presses;

pub struct DesafioScreenPlugin;

impl Plugin for DesafioScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        app.init_resource::<DesafioTable>()
            .add_systems(Update, (decision_keys, advance_deal).run_if(in_state(Mode::Playing)))
            .add_systems(Update, (build_table, (show_table, touch_buttons).run_if(desafio_selected)).chain());
    }
}

fn desafio_selected(session: Res<SessionRes>) -> bool {
    session.0.lock().is_ok_and(|s| s.rules::<DesafioAoCasino>().is_some())
}

/// The table on screen: built for the game selected and the language.
#[derive(Resource, Default)]
struct DesafioTable {
    key: Option<String>,
}

#[derive(Component)]
struct Root;
/// A card: the side (0 the bank, 1 the player) and its slot (0 the first
/// card, 1–3 the burned ones, 4 the war card).
#[derive(Component)]
struct WarCard(usize, usize);
#[derive(Component)]
enum Line {
    Bank,
    Player,
    Stakes,
    War,
    Result,
    /// A button's own label.
    Button,
}
/// A touch button of the screen: the decisions, the tie bet.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
enum WarButton {
    War,
    Surrender,
    TieBet,
}

const PAYS: Area = Area::new(40.0, 106.0, 600.0, 370.0);
const HANDS_X: f32 = 1250.0;
const BANK_Y: f32 = 250.0;
const PLAYER_Y: f32 = 510.0;
/// The first cards' column, the burned cards' and the war cards'.
const FIRST_X: f32 = HANDS_X - 250.0;
const WAR_X: f32 = HANDS_X + 250.0;
const BURNED_STEP: f32 = 30.0;
/// The deal: the player's card turns, then the bank's.
const CARD_EVERY_S: f32 = 0.35;
const TURN_S: f32 = 0.3;
const REST_S: f32 = 0.6;
/// The war: each side's three burned cards laid, then its war card turned.
const BURN_EVERY_S: f32 = 0.12;
const SIDE_EVERY_S: f32 = 0.8;
/// A piece seen whole long ago.
const AT_REST: f32 = 100.0;

/// When the deal has been shown whole.
const fn deal_shown_by() -> f32 {
    CARD_EVERY_S + TURN_S + REST_S
}

/// When the war has been shown whole: both sides' burned cards and war
/// cards (a surrender only rests).
fn war_shown_by(choice: Option<TieChoice>) -> f32 {
    match choice {
        Some(TieChoice::War) => SIDE_EVERY_S + war_card_turns_at() + TURN_S + REST_S,
        _ => REST_S,
    }
}

/// When, in a side's part of the war, its war card starts to turn.
const fn war_card_turns_at() -> f32 {
    4.0 * BURN_EVERY_S
}

impl WarButton {
    fn area(self) -> Area {
        match self {
            WarButton::War => Area::new(HANDS_X - 380.0, 700.0, 360.0, 72.0),
            WarButton::Surrender => Area::new(HANDS_X + 20.0, 700.0, 360.0, 72.0),
            WarButton::TieBet => Area::new(PAYS.x, PAYS.bottom() + 30.0, PAYS.w, 72.0),
        }
    }
}

/// Where a card stands: the first cards on the left, the burned ones
/// overlapping in the middle, the war cards on the right.
fn card_centre(side: usize, slot: usize) -> (f32, f32) {
    let y = if side == 0 { BANK_Y } else { PLAYER_Y };
    match slot {
        0 => (FIRST_X, y),
        4 => (WAR_X, y),
        k => (HANDS_X + (k as f32 - 2.0) * BURNED_STEP, y),
    }
}

fn build_table(
    mut commands: Commands,
    game_screen: Res<crate::screens::GameScreen>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<DesafioTable>,
    mut roots: Query<(Entity, &mut Visibility), With<Root>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let key = s.rules::<DesafioAoCasino>().map(|r| format!("{}/{:?}", r.0.id, s.lang()));
    let Some(visibility) = table::rebuild(&mut commands, game_screen.0, key, &mut table.key, &mut roots) else { return };
    let Some(g) = s.rules::<DesafioAoCasino>().map(|r| r.0.clone()) else { return };
    commands.spawn((Root, Transform::default(), visibility)).with_children(|root| {
        let (px, py) = PAYS.centre();
        root.spawn((Sprite::from_color(table::GOLD, Vec2::new(PAYS.w + 8.0, PAYS.h + 8.0)), Transform::from_translation(stage::at(px, py, 1.0))));
        root.spawn((Sprite::from_color(Color::srgb(0.05, 0.09, 0.31), Vec2::new(PAYS.w, PAYS.h)), Transform::from_translation(stage::at(px, py, 1.1))));
        root.spawn((stage::text(&fonts, s.t("A CARTA MAIS ALTA GANHA"), 22.0, Color::WHITE), Transform::from_translation(stage::at(px, PAYS.y + 24.0, 2.0))));
        // DC-9…14 as the player meets them.
        let mut pays = vec![
            (s.t("Carta mais alta"), "1:1"),
            (s.t("Cartas iguais: desistir"), s.t("metade do ante")),
            (s.t("Guerra ganha"), "1:1"),
            (s.t("Empate na guerra"), s.t("1:1 + bónus")),
        ];
        if g.tie_bet.is_some() {
            pays.push((s.t("Aposta de empate"), "10:1"));
        }
        for (k, (name, pay)) in pays.into_iter().enumerate() {
            let y = PAYS.y + 66.0 + k as f32 * 44.0;
            root.spawn((stage::text(&fonts, name, 21.0, table::GOLD), Anchor::CENTER_LEFT, Transform::from_translation(stage::at(PAYS.x + 24.0, y, 2.0))));
            root.spawn((
                stage::text(&fonts, pay, 21.0, table::GOLD),
                Anchor::CENTER_RIGHT,
                Transform::from_translation(stage::at(PAYS.x + PAYS.w - 24.0, y, 2.0)),
            ));
        }
        root.spawn((
            stage::text(&fonts, format!("{} {}", s.t("Baralhos no sapato:"), g.decks), 20.0, Color::WHITE),
            Transform::from_translation(stage::at(px, PAYS.bottom() - 26.0, 2.0)),
        ));
        for side in 0..2 {
            for slot in 0..5 {
                let (x, y) = card_centre(side, slot);
                // Later slots over earlier ones: the burned cards overlap.
                let z = 3.0 + slot as f32 * 0.1;
                root.spawn((WarCard(side, slot), Sprite::default(), Transform::from_translation(stage::at(x, y, z)), Visibility::Hidden));
            }
        }
        let line =
            |l: Line, x: f32, y: f32, size: f32, colour: Color| (l, stage::text(&fonts, "", size, colour), Transform::from_translation(stage::at(x, y, 3.0)));
        root.spawn(line(Line::Bank, FIRST_X, BANK_Y - CARD.y / 2.0 - 18.0, 22.0, Color::WHITE));
        root.spawn(line(Line::War, WAR_X, BANK_Y - CARD.y / 2.0 - 18.0, 22.0, table::GOLD));
        root.spawn(line(Line::Player, HANDS_X, PLAYER_Y + CARD.y / 2.0 + 22.0, 26.0, Color::WHITE));
        root.spawn(line(Line::Stakes, HANDS_X, PLAYER_Y + CARD.y / 2.0 + 54.0, 20.0, Color::WHITE));
        root.spawn(line(Line::Result, HANDS_X, 736.0, 28.0, Color::WHITE));
        for (b, fill) in [
            (WarButton::War, Color::srgb(0.12, 0.55, 0.23)),
            (WarButton::Surrender, Color::srgb(0.7, 0.08, 0.16)),
            (WarButton::TieBet, Color::srgb(0.36, 0.16, 0.53)),
        ] {
            let a = b.area();
            let (cx, cy) = a.centre();
            root.spawn((b, Sprite::from_color(fill, Vec2::new(a.w, a.h)), Transform::from_translation(stage::at(cx, cy, 2.5)), Visibility::Hidden))
                .with_children(|button| {
                    button.spawn((Line::Button, stage::text(&fonts, "", 24.0, Color::WHITE), Transform::from_xyz(0.0, 0.0, 0.5)));
                });
        }
    });
}

/// The clocks of the round on screen: the deal's and the war's (a round
/// this screen did not see dealt, or a piece not begun, stands at rest or
/// at its start).
fn clocks(reveal: &Reveal, r: &game_host::round::Round<DesafioAoCasino>, now: f32) -> (f32, f32) {
    if reveal.round != Some(r.id) {
        return (AT_REST, AT_REST);
    }
    let t = now - reveal.started;
    match (reveal.spin, r.state.choice) {
        (0, None) => (t, 0.0),
        (0, Some(_)) => (AT_REST, 0.0),
        _ => (AT_REST, t),
    }
}

/// Which cards a round shows at `deal_t` and `war_t`: each card's face and
/// how far it has turned, None where it is not on the table.
fn card_look(round: &WarRound, side: usize, slot: usize, deal_t: f32, war_t: f32) -> Option<(Option<game_core::cards::Card>, f32)> {
    let d: &WarDeal = &round.deal;
    // The player's card turns first (DC-7), then the bank's.
    let order = if side == 1 { 0.0 } else { 1.0 };
    if slot == 0 {
        let face = if side == 1 { d.player } else { d.house };
        return Some((Some(face), ((deal_t - order * CARD_EVERY_S) / TURN_S).clamp(0.0, 1.0)));
    }
    if round.choice != Some(TieChoice::War) {
        return None;
    }
    let t = war_t - order * SIDE_EVERY_S;
    if slot < 4 {
        // Burned unseen (DC-14): laid face down.
        return (t >= (slot - 1) as f32 * BURN_EVERY_S).then_some((None, 0.0));
    }
    let face = if side == 1 { d.player_war } else { d.house_war };
    (t >= 3.0 * BURN_EVERY_S).then_some((Some(face), ((t - war_card_turns_at()) / TURN_S).clamp(0.0, 1.0)))
}

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn show_table(
    session: Res<SessionRes>,
    reveal: Res<Reveal>,
    time: Res<Time>,
    table: Res<DesafioTable>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    mut cards: Query<(&WarCard, &mut Sprite, &mut Transform, &mut Visibility), Without<WarButton>>,
    mut buttons: Query<(&WarButton, &mut Visibility, &Children), Without<WarCard>>,
    mut lines: Query<(&Line, &mut Text2d)>,
) {
    let Ok(s) = session.0.lock() else { return };
    let Some(game) = s.rules::<DesafioAoCasino>() else { return };
    if table.key.is_none() {
        return;
    }
    let round = s.round::<DesafioAoCasino>();
    let (deal_t, war_t) = round.map_or((0.0, 0.0), |r| clocks(&reveal, r, time.elapsed_secs()));
    for (card, mut sprite, mut tf, mut vis) in &mut cards {
        let Some((face, turn)) = round.and_then(|r| card_look(&r.state, card.0, card.1, deal_t, war_t)) else {
            vis.set_if_neq(Visibility::Hidden);
            continue;
        };
        vis.set_if_neq(Visibility::Inherited);
        let look = CardLook { face, turn, centre: card_centre(card.0, card.1), size: CARD };
        table::show_card(&mut sprite, &mut tf, &look, 3.0 + card.1 as f32 * 0.1, &mut art, &mut images);
    }
    let dealt = deal_t >= CARD_EVERY_S + TURN_S;
    let deciding = round.is_some_and(|r| r.phase == Phase::Decisions) && dealt;
    // Settled, and the last piece at rest (a round without a war has no
    // piece after the deal: `war_shown_by` is then the rest alone).
    let done = round.is_some_and(|r| r.phase != Phase::Presenting && r.phase != Phase::Decisions && war_t >= war_shown_by(r.state.choice) - REST_S);
    let tie_offered = game.0.tie_bet.is_some();
    let tie_on = s.game().bet::<DesafioAoCasino>().is_some_and(|b| b.tie);
    let mut labels: Vec<(Entity, String)> = Vec::new();
    for (b, mut v, children) in &mut buttons {
        let show = match b {
            WarButton::War | WarButton::Surrender => deciding,
            WarButton::TieBet => tie_offered && !s.in_round(),
        };
        v.set_if_neq(if show { Visibility::Inherited } else { Visibility::Hidden });
        let text = match (b, round) {
            (WarButton::War, Some(r)) => format!("{} +{}", s.t("GUERRA"), s.show(r.state.ante * r.denom)),
            (WarButton::War, None) => String::new(),
            (WarButton::Surrender, _) => s.t("DESISTIR|surrender").to_owned(),
            (WarButton::TieBet, _) if tie_on => s.t("APOSTA DE EMPATE: SIM").to_owned(),
            (WarButton::TieBet, _) => s.t("APOSTA DE EMPATE: NÃO").to_owned(),
        };
        labels.extend(children.iter().map(|c| (c, text.clone())));
    }
    for (entity, text) in labels {
        if let Ok((_, mut t)) = lines.get_mut(entity)
            && t.0 != text
        {
            t.0 = text;
        }
    }
    let war_fought = round.is_some_and(|r| r.state.choice == Some(TieChoice::War));
    for (line, mut text) in &mut lines {
        let want = match (line, round) {
            (Line::Bank, _) => s.t("BANCA|banker").to_owned(),
            (Line::War, _) if war_fought => s.t("GUERRA").to_owned(),
            (Line::War, _) => String::new(),
            (Line::Player, None) => s.t("Prima JOGAR para dar cartas").to_owned(),
            (Line::Player, Some(_)) if deciding => s.t("EMPATE: GUERRA OU DESISTIR?").to_owned(),
            (Line::Player, Some(_)) => s.t("JOGADOR").to_owned(),
            (Line::Stakes, Some(r)) if r.state.tie_bet > 0 => {
                format!("{} {} · {} {}", s.t("Ante:"), s.show(r.state.ante * r.denom), s.t("aposta de empate:"), s.show(r.state.tie_bet * r.denom))
            }
            (Line::Stakes, Some(r)) => format!("{} {}", s.t("Ante:"), s.show(r.state.ante * r.denom)),
            (Line::Stakes, None) => String::new(),
            (Line::Result, Some(r)) if done => format!("{} — {}", announce(&r.state, s.lang()), s.show(game.win(&r.state) * r.denom)),
            (Line::Result, _) => String::new(),
            // The buttons' own labels, set above.
            (Line::Button, _) => continue,
        };
        if text.0 != want {
            text.0 = want;
        }
    }
}

/// F1 goes to war, F2 surrenders (DC-12).
fn decision_keys(keys: Res<ButtonInput<KeyCode>>, session: Res<SessionRes>) {
    let Ok(mut s) = session.0.lock() else { return };
    if !s.in_round() || s.rules::<DesafioAoCasino>().is_none() {
        return;
    }
    if keys.just_pressed(KeyCode::F1) {
        s.decide::<DesafioAoCasino>(TieChoice::War);
    } else if keys.just_pressed(KeyCode::F2) {
        s.decide::<DesafioAoCasino>(TieChoice::Surrender);
    }
}

/// A touch on a decision (in a round) or on the tie bet (between rounds).
fn touch_buttons(presses: Res<Presses>, session: Res<SessionRes>, mode: Res<State<Mode>>) {
    let points = presses.on_game().to_vec();
    if points.is_empty() || !matches!(mode.get(), Mode::Idle | Mode::Playing | Mode::Attract) {
        return;
    }
    let Ok(mut s) = session.0.lock() else { return };
    for p in points {
        let Some(b) = [WarButton::War, WarButton::Surrender, WarButton::TieBet].into_iter().find(|b| b.area().contains(p.x, p.y)) else { continue };
        match b {
            WarButton::War if s.in_round() => {
                s.decide::<DesafioAoCasino>(TieChoice::War);
            }
            WarButton::Surrender if s.in_round() => {
                s.decide::<DesafioAoCasino>(TieChoice::Surrender);
            }
            WarButton::TieBet if !s.in_round() && s.rules::<DesafioAoCasino>().is_some_and(|g| g.0.tie_bet.is_some()) => {
                s.command(Command::AdjustBet { control: BetControl::SideBet, delta: 1 });
            }
            _ => continue,
        }
        info!("desafio ao casino: {b:?} touched");
    }
}

/// Tell the host each piece was shown whole: the deal, then a war (or a
/// surrender) as its own piece; at once for a resumed round, or when the
/// player pressed play again.
fn advance_deal(time: Res<Time>, session: Res<SessionRes>, mut reveal: ResMut<Reveal>) {
    let Ok(mut s) = session.0.lock() else { return };
    let Some(r) = s.round::<DesafioAoCasino>().filter(|r| r.phase != Phase::Ended) else { return };
    let now = time.elapsed_secs();
    let choice = r.state.choice;
    if choice.is_some() && reveal.round == Some(r.id) && reveal.spin == 0 {
        reveal.spin = 1;
        reveal.started = now;
        reveal.hurry = false;
    }
    let length = if choice.is_some() { war_shown_by(choice) } else { deal_shown_by() };
    if reveal.shown_whole(r.id, r.resumed, r.phase == Phase::Presenting, now, length) {
        s.revealed();
    }
}

/// A recalled round: the first cards and, after a war, the war cards, as
/// dealt and decided (M-15), with how it ended.
fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == DesafioAoCasino::OPENING) else { return false };
    let Ok(o) = serde_json::from_value::<Opening<WarBet, WarDeal>>(first.step.data.clone()) else { return false };
    let choice = r.steps.iter().skip(1).find_map(|st| match st.step.name.as_str() {
        "war" => Some(TieChoice::War),
        "surrender" => Some(TieChoice::Surrender),
        _ => None,
    });
    let d = o.deal;
    let (bank, player) = match choice {
        Some(TieChoice::War) => (vec![Some(d.house), Some(d.house_war)], vec![Some(d.player), Some(d.player_war)]),
        _ => (vec![Some(d.house)], vec![Some(d.player)]),
    };
    ui.label(s.t("BANCA|banker"));
    paint_hand(ui, &bank, &[]);
    ui.label(s.t("JOGADOR"));
    paint_hand(ui, &player, &[]);
    let round = WarRound { ante: o.bet.ante, tie_bet: 0, deal: d, choice };
    ui.label(announce(&round, s.lang()));
    true
}
