//! The baccarat screen (issue 31): the ponto's and the banca's hands,
//! their cards turned in the order of the text (the ponto's two, the
//! banca's two, then the thirds, PB 23) from the six the core committed;
//! the totals; the spots by touch or keys (F1 ponto, F2 banca, F3 empate,
//! F7 and F8 the pairs; the side bets F4 either pair, F9 perfect pair, F10
//! dragon 7, F11 panda 8) with the shared chips and edit buttons; the result
//! itemised; a bead-plate road of this table's recent coups, read from the
//! journal. Help from the paytable; recall with every card.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy_egui::egui;
use game_core::baccarat::{Commission, Coup, Payouts, Spot, Winner};
use game_host::command::Command;
use game_host::kind::GameKind;
use game_host::kinds::baccarat::{Baccarat, BaccaratBet, BaccaratRound, Shoe, announce};
use game_host::round::{Opening, Phase};
use game_host::session::{Lang, Session};
use meters::RoundRecall;
use serde_json::json;

use game_host::help::baccarat_pays as pays;

use crate::SessionRes;
use crate::layout::Area;
use crate::modes::Mode;
use crate::screens::KindPages;
use crate::screens::cards::{RECALL_CARD, paint_card_sized};
use crate::screens::chips::{self, EditButton, spawn_box};
use crate::screens::help::HelpOpen;
use crate::screens::reels::Reveal;
use crate::screens::table::{self, CardLook};
use crate::stage::{self, ArtTextures, Fonts};
use crate::touches::Presses;

pub struct BaccaratScreenPlugin;

impl Plugin for BaccaratScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        app.init_resource::<BaccaratTable>()
            .add_systems(Update, advance_coup.run_if(in_state(Mode::Playing)))
            .add_systems(Update, touch_spots.run_if(in_state(Mode::Idle)))
            .add_systems(Update, (build_table, show_coup, show_road).chain());
    }
}

/// Seconds between two cards turned, and the turn itself.
const CARD_EVERY_S: f32 = 0.7;
const TURN_S: f32 = 0.3;
/// The last card rests this long before the round may settle (and its
/// result is itemised, with the win on the meter).
const REST_S: f32 = 0.4;
const HAND_CARD: Vec2 = Vec2::new(132.0, 185.0);
/// The hands' centres: ponto left, banca right.
const HANDS: [(f32, f32); 2] = [(330.0, 330.0), (930.0, 330.0)];
const RESULT_AT: (f32, f32) = (1290.0, 170.0);
/// The bead plate: 6 rows down, columns left to right.
const ROAD: Area = Area { x: 1290.0, y: 420.0, w: 560.0, h: 280.0 };
const ROAD_ROWS: usize = 6;
const ROAD_COLUMNS: usize = 12;

/// The keys that place a chip on each spot.
fn key_of(spot: Spot) -> KeyCode {
    match spot {
        Spot::Player => KeyCode::F1,
        Spot::Banker => KeyCode::F2,
        Spot::Tie => KeyCode::F3,
        Spot::PlayerPair => KeyCode::F7,
        Spot::BankerPair => KeyCode::F8,
        Spot::EitherPair => KeyCode::F4,
        Spot::PerfectPair => KeyCode::F9,
        Spot::Dragon7 => KeyCode::F10,
        Spot::Panda8 => KeyCode::F11,
    }
}

/// Where a spot of the table's `spots` stands (design units): one row of
/// up to five across the felt's foot; a table with more (issue 49's side
/// bets) puts ponto, banca and empate in a first row, the rest in a
/// second beneath it.
pub fn spot_area(spot: Spot, spots: &[Spot]) -> Area {
    let k = spots.iter().position(|&s| s == spot).unwrap_or(0);
    if spots.len() <= 5 {
        return Area::new(60.0 + k as f32 * 240.0, 520.0, 228.0, 170.0);
    }
    let (row, i, n) = if k < 3 { (0.0, k, 3) } else { (1.0, k - 3, spots.len() - 3) };
    let w = 1180.0 / n as f32;
    Area::new(60.0 + i as f32 * w, 520.0 + row * 90.0, w - 12.0, 82.0)
}

#[derive(Resource, Default)]
struct BaccaratTable {
    key: Option<String>,
    spots: Vec<Spot>,
    chips_on: Option<Vec<(Spot, u64)>>,
    /// The last round the road was read at, and whether it had settled.
    road_at: Option<(u64, bool)>,
}

#[derive(Component)]
struct TableRoot;
#[derive(Component)]
struct HandCard(usize);
#[derive(Component)]
struct TableChip;
/// The gold light around a spot the coup made win (issue 75).
#[derive(Component)]
struct SpotLight(Spot);
#[derive(Component)]
struct Bead;
#[derive(Component)]
enum TableText {
    Result,
    Chip,
    Total(Winner),
}

fn build_table(
    mut commands: Commands,
    game_screen: Res<crate::screens::GameScreen>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<BaccaratTable>,
    mut roots: Query<(Entity, &mut Visibility), With<TableRoot>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let game = s.rules::<Baccarat>();
    let key = game.map(|_| format!("{}/{:?}", s.game().id(), s.lang()));
    let Some(visibility) = table::rebuild(&mut commands, game_screen.0, key, &mut table.key, &mut roots) else { return };
    *table = BaccaratTable { key: table.key.take(), ..default() };
    let Some(g) = game else { return };
    let pt = s.lang() == Lang::Pt;
    table.spots = g.0.spots();
    commands.spawn((TableRoot, Transform::default(), visibility)).with_children(|root| {
        let felt = Area::new(40.0, 150.0, 1200.0, 560.0);
        let (fx, fy) = felt.centre();
        root.spawn((Sprite::from_color(Color::srgb(0.05, 0.36, 0.18), Vec2::new(felt.w, felt.h)), Transform::from_translation(stage::at(fx, fy, 0.9))));
        for (side, (x, _)) in [(Winner::Player, HANDS[0]), (Winner::Banker, HANDS[1])] {
            let name = if side == Winner::Player { s.t("PONTO") } else { s.t("BANCA|banker") };
            root.spawn((stage::text(&fonts, name, 30.0, table::GOLD), Transform::from_translation(stage::at(x, 190.0, 1.2))));
            root.spawn((TableText::Total(side), stage::text(&fonts, "", 34.0, Color::WHITE), Transform::from_translation(stage::at(x, 460.0, 1.2))));
        }
        for k in 0..6 {
            root.spawn((HandCard(k), Sprite::default(), Transform::default(), Visibility::Hidden));
        }
        for &spot in &table.spots {
            let label = format!("{}\n{}", spot.name(pt).to_uppercase(), pays(spot, g.0.payouts(), s.lang()));
            let fill = match spot {
                Spot::Player => Color::srgb(0.08, 0.2, 0.55),
                Spot::Banker => Color::srgb(0.55, 0.08, 0.1),
                Spot::Tie => Color::srgb(0.06, 0.4, 0.2),
                _ => Color::srgb(0.3, 0.2, 0.45),
            };
            let a = spot_area(spot, &table.spots);
            let (x, y) = a.centre();
            root.spawn((
                SpotLight(spot),
                Sprite::from_color(table::GOLD, Vec2::new(a.w + 10.0, a.h + 10.0)),
                Transform::from_translation(stage::at(x, y, 1.05)),
                Visibility::Hidden,
            ));
            spawn_box(root, &fonts, a, fill, label, 22.0, 1.1);
        }
        chips::spawn_edit_buttons(root, &fonts, &s);
        let (lx, ly) = chips::CHIP_LABEL;
        root.spawn((TableText::Chip, stage::text(&fonts, "", 26.0, table::GOLD), Anchor::CENTER_LEFT, Transform::from_translation(stage::at(lx, ly, 1.2))));
        root.spawn((
            TableText::Result,
            stage::text(&fonts, "", 24.0, Color::WHITE),
            Anchor::TOP_LEFT,
            Transform::from_translation(stage::at(RESULT_AT.0, RESULT_AT.1, 1.2)),
        ));
        let (rx, ry) = ROAD.centre();
        root.spawn((Sprite::from_color(Color::srgb(0.95, 0.95, 0.92), Vec2::new(ROAD.w, ROAD.h)), Transform::from_translation(stage::at(rx, ry, 1.0))));
        // The plate's grid and its name, so that a table with no coup yet
        // shows an empty plate, not a blank box (issue 45).
        let (cw, ch) = (ROAD.w / ROAD_COLUMNS as f32, ROAD.h / ROAD_ROWS as f32);
        let line = Color::srgb(0.8, 0.8, 0.76);
        for c in 1..ROAD_COLUMNS {
            root.spawn((Sprite::from_color(line, Vec2::new(2.0, ROAD.h)), Transform::from_translation(stage::at(ROAD.x + c as f32 * cw, ry, 1.05))));
        }
        for r in 1..ROAD_ROWS {
            root.spawn((Sprite::from_color(line, Vec2::new(ROAD.w, 2.0)), Transform::from_translation(stage::at(rx, ROAD.y + r as f32 * ch, 1.05))));
        }
        root.spawn((stage::text(&fonts, s.t("ÚLTIMOS GOLPES"), 20.0, table::GOLD), Transform::from_translation(stage::at(rx, ROAD.y - 16.0, 1.2))));
    });
}

/// When the last card has turned and the result has rested.
fn shown_by(cards: usize) -> f32 {
    cards as f32 * CARD_EVERY_S + TURN_S + REST_S
}

/// Each card of the coup, in the order turned, with where it stands.
fn laid_out(coup: &Coup) -> Vec<(Winner, game_core::cards::Card, (f32, f32))> {
    let rows = [table::row(3, HAND_CARD, 14.0, HANDS[0].0, HANDS[0].1), table::row(3, HAND_CARD, 14.0, HANDS[1].0, HANDS[1].1)];
    let mut seen = [0usize; 2];
    coup.turned()
        .into_iter()
        .map(|(side, card)| {
            let h = usize::from(side == Winner::Banker);
            let at = rows[h][seen[h]];
            seen[h] += 1;
            (side, card, at)
        })
        .collect()
}

/// The result, itemised spot by spot, in cents shown as credits.
fn result_text(s: &Session, round: &BaccaratRound, denom: meters::Cents) -> String {
    let pt = s.lang() == Lang::Pt;
    let mut lines = vec![announce(&round.coup, s.lang())];
    let mut total = 0u64;
    for (spot, stake, back) in round.settlement(denom) {
        let back = back.unwrap_or(0);
        if back > 0 {
            lines.push(format!("{}: {stake} {} → {}", spot.name(pt), s.t("créd."), s.show(back)));
            total += back;
        }
    }
    if total > 0 {
        lines.push(format!("{} {}", s.t("TOTAL DEVOLVIDO"), s.show(total)));
    }
    lines.join("\n")
}

#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn show_coup(
    mut commands: Commands,
    session: Res<SessionRes>,
    reveal: Res<Reveal>,
    time: Res<Time>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<BaccaratTable>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    roots: Query<Entity, With<TableRoot>>,
    chips_shown: Query<Entity, With<TableChip>>,
    mut cards: Query<(&HandCard, &mut Sprite, &mut Transform, &mut Visibility)>,
    mut lights: Query<(&SpotLight, &mut Visibility), Without<HandCard>>,
    mut texts: Query<(&TableText, &mut Text2d)>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    if table.key.is_none() || s.rules::<Baccarat>().is_none() {
        return;
    }
    let now = time.elapsed_secs();
    let round = s.round::<Baccarat>();
    let laid = round.map(|r| laid_out(&r.state.coup)).unwrap_or_default();
    let t = round.map_or(0.0, |r| if reveal.round == Some(r.id) { now - reveal.started } else { shown_by(laid.len()) });
    // How far each card has turned.
    let turn = |k: usize| ((t - k as f32 * CARD_EVERY_S) / TURN_S).clamp(0.0, 1.0);
    for (card, mut sprite, mut tf, mut vis) in &mut cards {
        let Some(&(_, face, centre)) = laid.get(card.0).filter(|_| t >= card.0 as f32 * CARD_EVERY_S) else {
            vis.set_if_neq(Visibility::Hidden);
            continue;
        };
        vis.set_if_neq(Visibility::Inherited);
        table::show_card(&mut sprite, &mut tf, &CardLook { face: Some(face), turn: turn(card.0), centre, size: HAND_CARD }, 1.5, &mut art, &mut images);
    }
    let total_of = |side: Winner| -> String {
        let shown: Vec<game_core::cards::Card> =
            laid.iter().enumerate().filter(|(k, (w, _, _))| *w == side && turn(*k) >= 1.0).map(|(_, (_, c, _))| *c).collect();
        if shown.is_empty() { String::new() } else { game_core::baccarat::tableau::total(&shown).to_string() }
    };
    // The result is itemised once the coup is settled, in the frame the
    // win meter shows its win (issue 75: "TOTAL DEVOLVIDO" stood beside a
    // PRÉMIO of 0.00 for a second).
    let done = round.is_some_and(|r| r.phase != Phase::Presenting && t >= shown_by(laid.len()) - REST_S);
    let result = match round {
        Some(r) if done => result_text(&s, &r.state, r.denom),
        Some(_) => String::new(),
        None => s.t("FAÇAM AS VOSSAS APOSTAS").to_owned(),
    };
    // The spots the coup made win, lit with its result.
    for (light, mut vis) in &mut lights {
        let won = round.filter(|_| done).is_some_and(|r| {
            let (num, den) = light.0.returns(&r.state.coup, r.state.payouts);
            num > den
        });
        vis.set_if_neq(if won { Visibility::Inherited } else { Visibility::Hidden });
    }
    let bet = s.game().bet::<Baccarat>();
    let chip = bet.map_or(String::new(), |b| format!("{} {}", s.t("FICHA"), b.chip));
    for (which, mut text) in &mut texts {
        let want = match which {
            TableText::Result => result.clone(),
            TableText::Chip => chip.clone(),
            TableText::Total(side) => total_of(*side),
        };
        if text.0 != want {
            text.0 = want;
        }
    }
    // The chips: the round's while it is open, else the bet on the table.
    let layout: Vec<(Spot, u64)> = match round.filter(|r| r.phase != Phase::Ended) {
        Some(r) => r.state.bet.spots.clone(),
        None => bet.map(|b| b.spots.clone()).unwrap_or_default(),
    };
    if table.chips_on.as_ref() == Some(&layout) {
        return;
    }
    for e in &chips_shown {
        commands.entity(e).despawn();
    }
    let Ok(root) = roots.single() else { return };
    commands.entity(root).with_children(|r| {
        for &(spot, stake) in &layout {
            let a = spot_area(spot, &table.spots);
            chips::spawn_chip(r, &fonts, &mut art, &mut images, stake, (a.x + a.w - 30.0, a.y + a.h - 30.0), TableChip);
        }
    });
    table.chips_on = Some(layout);
}

/// This table's coups, oldest first, from the journal: who won each.
fn road(s: &Session, id: &str) -> Vec<Winner> {
    let mut rounds = s.machine().recall(100).unwrap_or_default();
    rounds.retain(|r| r.game == id && matches!(r.outcome, meters::RecallOutcome::Settled { .. }));
    rounds.sort_by_key(|r| r.round);
    rounds
        .iter()
        .filter_map(|r| serde_json::from_value::<Opening<BaccaratBet, Shoe>>(r.steps.first()?.step.data.clone()).ok())
        .map(|o| Coup::play(&o.deal.cards).winner())
        .collect()
}

/// The bead plate: the last coups of this table, a bead each (P blue, B
/// red, E green), read again when a round settles.
fn show_road(
    mut commands: Commands,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<BaccaratTable>,
    roots: Query<Entity, With<TableRoot>>,
    beads: Query<Entity, With<Bead>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    if table.key.is_none() || s.rules::<Baccarat>().is_none() {
        return;
    }
    let state = s.machine().state();
    let at = (state.last_round, state.open_round.is_none());
    if table.road_at == Some(at) {
        return;
    }
    table.road_at = Some(at);
    for e in &beads {
        commands.entity(e).despawn();
    }
    let wins = road(&s, s.game().id());
    let shown = &wins[wins.len().saturating_sub(ROAD_ROWS * ROAD_COLUMNS)..];
    let Ok(root) = roots.single() else { return };
    let cell = ROAD.w / ROAD_COLUMNS as f32;
    commands.entity(root).with_children(|r| {
        for (k, w) in shown.iter().enumerate() {
            let (col, row) = (k / ROAD_ROWS, k % ROAD_ROWS);
            let (x, y) = (ROAD.x + (col as f32 + 0.5) * cell, ROAD.y + (row as f32 + 0.5) * (ROAD.h / ROAD_ROWS as f32));
            let (fill, letter) = match w {
                Winner::Player => (Color::srgb(0.1, 0.3, 0.8), s.t("P")),
                Winner::Banker => (Color::srgb(0.8, 0.1, 0.12), s.t("B")),
                Winner::Tie => (Color::srgb(0.1, 0.55, 0.25), s.t("E")),
            };
            r.spawn((Bead, Sprite::from_color(fill, Vec2::splat(cell * 0.8)), Transform::from_translation(stage::at(x, y, 1.3)))).with_children(|b| {
                b.spawn((stage::text(&fonts, letter, 20.0, Color::WHITE), Transform::from_xyz(0.0, 0.0, 0.1)));
            });
        }
    });
}

/// Tell the host the coup was shown once its last card rests (at once
/// when the player pressed play again, or for a resumed round).
fn advance_coup(time: Res<Time>, session: Res<SessionRes>, mut reveal: ResMut<Reveal>) {
    let Ok(mut s) = session.0.lock() else { return };
    let Some(r) = s.round::<Baccarat>().filter(|r| r.phase != Phase::Ended) else { return };
    let length = shown_by(r.state.coup.turned().len());
    if reveal.shown_whole(r.id, r.resumed, r.phase == Phase::Presenting, time.elapsed_secs(), length) {
        s.revealed();
    }
}

/// A touch on a spot, or its key, places a chip; the edit buttons and
/// their keys edit the bet.
#[allow(clippy::too_many_arguments)]
fn touch_spots(keys: Res<ButtonInput<KeyCode>>, presses: Res<Presses>, session: Res<SessionRes>, help: Res<HelpOpen>, table: Res<BaccaratTable>) {
    if help.0 || table.key.is_none() {
        return;
    }
    let points = presses.on_game().to_vec();
    let edits: Vec<EditButton> = EditButton::ALL.into_iter().filter(|b| keys.just_pressed(b.key())).collect();
    let mut spots: Vec<Spot> = table.spots.iter().copied().filter(|&s| keys.just_pressed(key_of(s))).collect();
    if points.is_empty() && edits.is_empty() && spots.is_empty() {
        return;
    }
    let Ok(mut s) = session.0.lock() else { return };
    if s.rules::<Baccarat>().is_none() {
        return;
    }
    for b in edits {
        b.press(&mut s);
    }
    for p in points {
        if let Some(b) = EditButton::at(p.x, p.y) {
            b.press(&mut s);
        } else if let Some(&spot) = table.spots.iter().find(|&&sp| spot_area(sp, &table.spots).contains(p.x, p.y)) {
            info!("baccarat: {spot:?} touched");
            spots.push(spot);
        }
    }
    for spot in spots {
        s.command(Command::EditBet { edit: json!({ "Kind": { "Place": { "spot": spot } } }) });
    }
}

/// A recalled coup: every card of each hand, the totals, each spot's stake
/// and return (M-15).
fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == Baccarat::OPENING) else { return false };
    let Ok(o) = serde_json::from_value::<Opening<BaccaratBet, Shoe>>(first.step.data.clone()) else { return false };
    let pt = s.lang() == Lang::Pt;
    let payouts =
        s.games().iter().find_map(|g| g.rules::<Baccarat>().filter(|b| b.0.id == o.game)).map_or(Payouts::with(Commission::FivePercent), |g| g.0.payouts());
    let round = BaccaratRound { bet: o.bet, coup: Coup::play(&o.deal.cards), payouts };
    // Issue 75: the coup in pictures, each hand's cards as the table
    // turned them, its total beside its name.
    ui.heading(announce(&round.coup, s.lang()));
    ui.horizontal(|ui| {
        for (side, cards, total) in
            [(s.t("PONTO"), &round.coup.player, round.coup.player_total()), (s.t("BANCA|banker"), &round.coup.banker, round.coup.banker_total())]
        {
            ui.vertical(|ui| {
                ui.label(egui::RichText::new(format!("{side} — {total}")).size(20.0).strong());
                ui.horizontal(|ui| {
                    for &c in cards {
                        paint_card_sized(ui, Some(c), false, RECALL_CARD);
                        ui.add_space(6.0);
                    }
                });
            });
            ui.add_space(48.0);
        }
    });
    crate::screens::pictures::paint_settlement(
        ui,
        "baccarat-replay",
        s,
        round.settlement(o.denom).into_iter().map(|(spot, stake, back)| (spot.name(pt).to_string(), stake, s.show(back.unwrap_or(0)))),
    );
    true
}
