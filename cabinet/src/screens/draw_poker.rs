//! The draw-poker screen, drawn by Bevy (issue 29): the paytable glass at
//! the current bet always on screen (M-8: a column per coin count, the
//! bet's lit), the deal turning over, the holds (touch a card or keys
//! F1–F5), the draw, the further hands of multi-hand play, the winning hand
//! with its amount (M-5). It only shows what the session committed; the
//! cards of the draw were drawn at the deal. Help and recall stay egui.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy_egui::egui;
use game_core::cards::Card;
use game_core::draw_poker::DrawPokerGame;
use game_host::kind::GameKind;
use game_host::kinds::draw_poker::{DrawBet, DrawDeal, DrawRecord};
use game_host::round::Opening;
use meters::RoundRecall;

use crate::SessionRes;
use crate::layout::{Area, WIDTH};
use crate::modes::Mode;
use crate::screens::KindPages;
use crate::screens::cards::{paint_hand, paint_small_hand, turned};
use crate::screens::table::{self, CARD, CardLook};
use crate::stage::{self, ArtTextures, Fonts};
use crate::touches::Presses;
use game_host::kinds::draw_poker::{DrawDecision, DrawPoker};
use game_host::round::Phase;
use game_host::session::{Lang, Session};

pub struct DrawPokerScreenPlugin;

impl Plugin for DrawPokerScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        app.init_resource::<DrawTable>()
            .add_systems(Update, (hold_keys, touch_holds).run_if(in_state(Mode::Playing)))
            .add_systems(Update, (build_draw_table, show_draw_table.run_if(draw_poker_selected), put_the_glass_away_for_double_up).chain());
    }
}

fn draw_poker_selected(session: Res<SessionRes>) -> bool {
    session.0.lock().is_ok_and(|s| s.rules::<DrawPoker>().is_some())
}

const HOLD_KEYS: [KeyCode; 5] = [KeyCode::F1, KeyCode::F2, KeyCode::F3, KeyCode::F4, KeyCode::F5];

/// The hold buttons: F1–F5 hold or release the card above them.
fn hold_keys(keys: Res<ButtonInput<KeyCode>>, session: Res<SessionRes>) {
    let Ok(mut s) = session.0.lock() else { return };
    for (i, k) in HOLD_KEYS.iter().enumerate() {
        if keys.just_pressed(*k) {
            s.decide::<DrawPoker>(DrawDecision::Toggle(i));
        }
    }
}

/// The draw-poker table on screen: built for the game selected (and the
/// player's language), taken down for any other.
#[derive(Resource, Default)]
struct DrawTable {
    game: Option<String>,
    /// The deal or the draw on screen and when it began: its cards turn
    /// over one after another (presentation only).
    turning: Option<(u64, bool)>,
    since: f32,
    /// The most further hands the game plays (their places are laid out
    /// for that many).
    further_max: usize,
}

#[derive(Component)]
struct DrawRoot;
/// A card: hand (0 the main hand, k the further hand k + 1) and place.
#[derive(Component)]
struct HandCard(usize, usize);
#[derive(Component)]
struct HoldFrame(usize);
#[derive(Component)]
struct HoldLabel(usize);
/// A further hand's label and what it pays.
#[derive(Component)]
struct HandLabel(usize);
#[derive(Component)]
struct HandPays(usize);
/// The glass: a hand's row (its name and its pays), the lit column's
/// backdrop.
#[derive(Component)]
struct GlassCell(usize);
#[derive(Component)]
struct LitColumn;
/// The paytable's glass and everything on it.
#[derive(Component)]
struct PayGlass;
#[derive(Component)]
struct Verdict;

/// Where the screen's parts stand (design units, `layout`).
const GLASS: Area = Area::new(40.0, 106.0, 800.0, 370.0);
const HANDS: Area = Area::new(860.0, 106.0, 1040.0, 370.0);
const MAIN_Y: f32 = 607.0;
const SMALL: Vec2 = Vec2::new(50.0, 70.0);

fn glass_column_x(c: usize) -> f32 {
    if c == 0 { GLASS.x + 24.0 } else { GLASS.x + 350.0 + (c as f32 - 1.0) * 92.0 }
}

fn glass_row_y(g: &DrawPokerGame, r: usize) -> f32 {
    let step = (330.0 / (g.entries.len() + 1) as f32).min(34.0);
    GLASS.y + 24.0 + r as f32 * step
}

/// A point of the design screen.
type Point = (f32, f32);

/// The centres of further hand `k`'s cards (of `n` further hands), of its
/// label and of the start of its pays.
fn small_hand(k: usize, n: usize) -> (Vec<Point>, Point, Point) {
    let columns = if n > 4 { 2 } else { 1 };
    let (col, line) = (k % columns, k / columns);
    let width = HANDS.w / columns as f32;
    let x0 = HANDS.x + col as f32 * width;
    let y = HANDS.y + 40.0 + line as f32 * 73.0;
    let cards = (0..5).map(|i| (x0 + 62.0 + i as f32 * (SMALL.x + 6.0), y)).collect();
    (cards, (x0 + 18.0, y), (x0 + 340.0, y))
}

fn main_hand() -> Vec<(f32, f32)> {
    table::row(5, CARD, 24.0, WIDTH / 2.0, MAIN_Y)
}

/// Build the table for the draw-poker game selected.
#[allow(clippy::too_many_arguments)]
fn build_draw_table(
    mut commands: Commands,
    game_screen: Res<crate::screens::GameScreen>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<DrawTable>,
    mut roots: Query<(Entity, &mut Visibility), With<DrawRoot>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let key = s.rules::<DrawPoker>().map(|r| format!("{}/{:?}", r.0.id, s.lang()));
    let Some(visibility) = table::rebuild(&mut commands, game_screen.0, key, &mut table.game, &mut roots) else { return };
    *table = DrawTable { game: table.game.take(), ..default() };
    let Some(g) = s.rules::<DrawPoker>().map(|r| r.0.clone()) else { return };
    let pt = s.lang() == Lang::Pt;
    let hands = g.hands.iter().copied().max().unwrap_or(1) as usize;
    table.further_max = hands.saturating_sub(1);
    commands.spawn((DrawRoot, Transform::default(), visibility)).with_children(|root| {
        // The paytable, under one parent: put away while the double-up's
        // offer stands in its place (`double_up`, issue 75).
        root.spawn((PayGlass, Transform::default(), Visibility::Inherited)).with_children(|root| {
            let (gx, gy) = GLASS.centre();
            root.spawn((
                Sprite::from_color(Color::srgb(0.9, 0.75, 0.2), Vec2::new(GLASS.w + 8.0, GLASS.h + 8.0)),
                Transform::from_translation(stage::at(gx, gy, 1.0)),
            ));
            root.spawn((Sprite::from_color(Color::srgb(0.05, 0.09, 0.31), Vec2::new(GLASS.w, GLASS.h)), Transform::from_translation(stage::at(gx, gy, 1.1))));
            root.spawn((
                LitColumn,
                Sprite::from_color(Color::srgb(0.59, 0.06, 0.12), Vec2::new(86.0, GLASS.h - 12.0)),
                Transform::from_translation(stage::at(gx, gy, 1.2)),
            ));
            for (c, &coins) in g.coins.iter().enumerate() {
                root.spawn((
                    stage::text(&fonts, coins.to_string(), 18.0, Color::srgb(0.8, 0.8, 0.85)),
                    Transform::from_translation(stage::at(glass_column_x(c + 1), glass_row_y(&g, 0), 2.0)),
                ));
            }
            root.spawn((
                stage::text(&fonts, s.t("MOEDAS"), 16.0, Color::srgb(0.8, 0.8, 0.85)),
                Anchor::CENTER_RIGHT,
                Transform::from_translation(stage::at(glass_column_x(1) - 50.0, glass_row_y(&g, 0), 2.0)),
            ));
            for (r, e) in g.entries.iter().enumerate() {
                let y = glass_row_y(&g, r + 1);
                root.spawn((
                    GlassCell(r),
                    stage::text(&fonts, e.name_in(pt), 21.0, table::GOLD),
                    Anchor::CENTER_LEFT,
                    Transform::from_translation(stage::at(glass_column_x(0), y, 2.0)),
                ));
                for (c, &coins) in g.coins.iter().enumerate() {
                    let pay = (g.pays_per_coin(r, coins) * u64::from(coins)).to_string();
                    root.spawn((
                        GlassCell(r),
                        stage::text(&fonts, pay, 21.0, table::GOLD),
                        Transform::from_translation(stage::at(glass_column_x(c + 1), y, 2.0)),
                    ));
                }
            }
        });
        for (i, &(x, y)) in main_hand().iter().enumerate() {
            root.spawn((
                HoldFrame(i),
                Sprite::from_color(table::GOLD, CARD + Vec2::splat(14.0)),
                Transform::from_translation(stage::at(x, y, 2.0)),
                Visibility::Hidden,
            ));
            root.spawn((HandCard(0, i), Sprite::default(), Transform::from_translation(stage::at(x, y, 3.0))));
            root.spawn((HoldLabel(i), stage::text(&fonts, "", 18.0, table::GOLD), Transform::from_translation(stage::at(x, y + CARD.y / 2.0 + 22.0, 3.0))));
        }
        for k in 0..hands.saturating_sub(1) {
            let (cards, label, pays) = small_hand(k, hands - 1);
            let name = (k + 2).to_string();
            root.spawn((
                HandLabel(k),
                stage::text(&fonts, name, 20.0, Color::srgb(0.8, 0.8, 0.85)),
                Transform::from_translation(stage::at(label.0, label.1, 2.0)),
                Visibility::Hidden,
            ));
            for (i, &(x, y)) in cards.iter().enumerate() {
                root.spawn((HandCard(k + 1, i), Sprite::default(), Transform::from_translation(stage::at(x, y, 3.0)), Visibility::Hidden));
            }
            root.spawn((
                HandPays(k),
                stage::text(&fonts, "", 16.0, table::GOLD),
                Anchor::CENTER_LEFT,
                Transform::from_translation(stage::at(pays.0, pays.1, 2.0)),
            ));
        }
        root.spawn((
            Verdict,
            stage::text(&fonts, "", 30.0, table::GOLD),
            Transform::from_translation(stage::at(WIDTH / 2.0, MAIN_Y + CARD.y / 2.0 + 58.0, 3.0)),
        ));
    });
}

/// What the table shows: the bet's column lit; the round's cards (the
/// deal turning over, then the draw's replacements), the holds, the
/// further hands, the paid hand and its win.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn show_draw_table(
    session: Res<SessionRes>,
    time: Res<Time>,
    mut table: ResMut<DrawTable>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    mut cards: Query<(&HandCard, &mut Sprite, &mut Transform, &mut Visibility), (Without<HoldFrame>, Without<LitColumn>, Without<HandLabel>)>,
    mut frames: Query<(&HoldFrame, &mut Visibility), (Without<HandCard>, Without<HandLabel>)>,
    mut lit: Query<&mut Transform, (With<LitColumn>, Without<HandCard>)>,
    mut texts: Query<(Option<&GlassCell>, Option<&HoldLabel>, Option<&HandPays>, Option<&Verdict>, &mut Text2d, &mut TextColor)>,
    mut labels: Query<(&HandLabel, &mut Visibility), (Without<HandCard>, Without<HoldFrame>)>,
) {
    let Ok(s) = session.0.lock() else { return };
    let Some(g) = s.rules::<DrawPoker>().map(|r| r.0.clone()) else { return };
    let pt = s.lang() == Lang::Pt;
    let now = time.elapsed_secs();
    let round = s.round::<DrawPoker>();
    let coins = round.map_or_else(|| s.game().bet::<DrawPoker>().map_or(1, |b| b.coins), |r| r.state.coins);
    if let Some(c) = g.coins.iter().position(|&x| x == coins) {
        for mut t in &mut lit {
            t.translation.x = stage::at(glass_column_x(c + 1), 0.0, 0.0).x;
        }
    }
    let open = round.is_some_and(|r| r.phase != Phase::Ended);
    let stage_key = round.map(|r| (r.id, r.state.drawn.is_some()));
    if stage_key != table.turning {
        // A round this screen did not see dealt is shown as it stands.
        let fresh = open && round.is_some_and(|r| !r.resumed);
        table.turning = stage_key;
        table.since = if fresh { now } else { now - 10.0 };
    }
    let elapsed = now - table.since;
    let held: Vec<bool> = (0..5).map(|i| round.is_some_and(|r| r.state.hold.holds(i))).collect();
    let drawn = round.and_then(|r| r.state.drawn.as_ref());
    let main: [Option<Card>; 5] = round.map_or([None; 5], |r| r.state.hand().map(Some));
    // The deal turns every card over; the draw, the cards replaced.
    let mut k = 0;
    let turns: Vec<f32> = held
        .iter()
        .map(|&h| {
            if round.is_none() {
                0.0
            } else if drawn.is_some() && h {
                1.0
            } else {
                k += 1;
                turned(k - 1, elapsed)
            }
        })
        .collect();
    let further = round.map_or(0, |r| r.state.deal.more.len());
    let dealt = round.map(|r| r.state.deal.first.hand());
    for (card, mut sprite, mut transform, mut visibility) in &mut cards {
        let (hand, i) = (card.0, card.1);
        if hand == 0 {
            let look = CardLook { face: main[i], turn: turns[i], centre: main_hand()[i], size: CARD };
            table::show_card(&mut sprite, &mut transform, &look, 3.0, &mut art, &mut images);
            visibility.set_if_neq(Visibility::Inherited);
            continue;
        }
        // A further hand: nothing until cards are held, then the held
        // cards, then its own final cards.
        let k = hand - 1;
        let face = if k < further {
            match drawn.and_then(|d| d.more.get(k)) {
                Some(f) => Some(f[i]),
                None => dealt.filter(|_| held[i]).map(|d| d[i]),
            }
        } else {
            None
        };
        if face.is_none() {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        }
        let (centres, _, _) = small_hand(k, table.further_max);
        let look = CardLook { face, turn: 1.0, centre: centres[i], size: SMALL };
        table::show_card(&mut sprite, &mut transform, &look, 3.0, &mut art, &mut images);
        visibility.set_if_neq(Visibility::Inherited);
    }
    for (label, mut v) in &mut labels {
        v.set_if_neq(if label.0 < further { Visibility::Inherited } else { Visibility::Hidden });
    }
    for (frame, mut v) in &mut frames {
        v.set_if_neq(if held[frame.0] && open { Visibility::Inherited } else { Visibility::Hidden });
    }
    let paid = round.filter(|_| drawn.is_some()).and_then(|r| g.evaluate(&r.state.hand()));
    let verdict = match round {
        None => s.t("Prima JOGAR para dar cartas").to_owned(),
        Some(r) => match (drawn, paid) {
            (Some(d), _) if !d.more.is_empty() => format!("{} — {}", s.t("Prémio das mãos"), s.show(d.win * r.denom)),
            (Some(d), Some(e)) => format!("{} — {}", g.entries[e].name_in(pt), s.show(d.win * r.denom)),
            (Some(_), None) => s.t("Sem prémio").to_owned(),
            (None, _) => match g.evaluate(&r.state.hand()) {
                Some(e) => format!("{} · {}", g.entries[e].name_in(pt), s.t("guarde as cartas e prima JOGAR")),
                None => s.t("Toque nas cartas a guardar e prima JOGAR").to_owned(),
            },
        },
    };
    for (cell, hold, pays, verdict_text, mut text, mut colour) in &mut texts {
        let want = if let Some(c) = cell {
            colour.set_if_neq(TextColor(if paid == Some(c.0) { Color::WHITE } else { table::GOLD }));
            continue;
        } else if let Some(h) = hold {
            if held[h.0] && open { s.t("GUARDADA").to_owned() } else { String::new() }
        } else if let Some(p) = pays {
            let (coins, denom) = round.map_or((1, 1), |r| (r.state.coins, r.denom));
            drawn
                .and_then(|d| d.more.get(p.0))
                .and_then(|hand| g.evaluate(hand).map(|e| format!("{} {}", g.entries[e].name_in(pt), s.show(g.win(hand, coins) * denom))))
                .unwrap_or_default()
        } else if verdict_text.is_some() {
            verdict.clone()
        } else {
            continue;
        };
        if text.0 != want {
            text.0 = want;
        }
    }
}

/// The paytable is put away while the double-up's offer stands over its
/// place, and shown again after.
fn put_the_glass_away_for_double_up(session: Res<SessionRes>, mode: Res<State<Mode>>, mut glass: Query<&mut Visibility, With<PayGlass>>) {
    let offered = *mode.get() == Mode::Playing && session.0.lock().is_ok_and(|s| s.double_up_offered());
    for mut v in &mut glass {
        v.set_if_neq(if offered { Visibility::Hidden } else { Visibility::Inherited });
    }
}

/// A touch on a card of the main hand holds or releases it.
fn touch_holds(presses: Res<Presses>, session: Res<SessionRes>) {
    let points = presses.on_game().to_vec();
    if points.is_empty() {
        return;
    }
    let Ok(mut s) = session.0.lock() else { return };
    for p in points {
        if let Some(i) = main_hand().iter().position(|&c| table::card_area(c, CARD).contains(p.x, p.y)) {
            info!("draw poker: card {} touched", i + 1);
            s.decide::<DrawPoker>(DrawDecision::Toggle(i));
        }
    }
}

/// A recalled draw-poker round: the deal, then the final hand with the
/// cards held (M-15).
fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == DrawPoker::OPENING) else { return false };
    let Ok(rec) = serde_json::from_value::<Opening<DrawBet, DrawDeal>>(first.step.data.clone()) else { return false };
    paint_hand(ui, &rec.deal.first.hand().map(Some), &[]);
    for st in &r.steps[1..] {
        if let Ok(d) = serde_json::from_value::<DrawRecord>(st.step.data.clone()) {
            let held: Vec<bool> = (0..5).map(|i| d.hold.holds(i)).collect();
            paint_hand(ui, &d.hand.map(Some), &held);
            for (k, hand) in d.more.iter().enumerate() {
                paint_small_hand(ui, &format!("{} {}", s.t("Mão"), k + 2), &hand.map(Some), "");
            }
        }
    }
    true
}
