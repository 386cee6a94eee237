//! The póquer de 3 cartas screen, drawn by Bevy: the combinations in
//! their order (P3-7) beside the table, the player's three cards and the
//! bank's turned one after the other from the deal the core committed,
//! each hand's combination under it, and who wins. The ante is the deck's
//! bet button; there is no decision. Recall stays egui.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy_egui::egui;
use game_core::poquer_3_cartas::{self as p3, Deal3};
use game_host::kind::GameKind;
use game_host::kinds::poquer_3_cartas::{Poquer3Bet, Poquer3Cartas, announce};
use game_host::round::{Opening, Phase};
use game_host::session::{Lang, Session};
use meters::RoundRecall;

use crate::SessionRes;
use crate::layout::Area;
use crate::modes::Mode;
use crate::screens::KindPages;
use crate::screens::cards::paint_hand;
use crate::screens::reels::Reveal;
use crate::screens::table::{self, CARD, CardLook};
use crate::stage::{self, ArtTextures, Fonts};

pub struct Poquer3ScreenPlugin;

impl Plugin for Poquer3ScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        app.init_resource::<Poquer3Table>()
            .add_systems(Update, advance_deal.run_if(in_state(Mode::Playing)))
            .add_systems(Update, (build_table, show_table).chain());
    }
}

/// The table on screen: built for the game selected and the language.
#[derive(Resource, Default)]
struct Poquer3Table {
    key: Option<String>,
}

#[derive(Component)]
struct Root;
/// A card: 0 the bank's hand, 1 the player's; its place.
#[derive(Component)]
struct HandCard(usize, usize);
#[derive(Component)]
enum Line {
    Bank,
    Player,
    Result,
}

const ORDER: Area = Area::new(40.0, 106.0, 560.0, 600.0);
const HANDS_X: f32 = 1250.0;
const BANK_Y: f32 = 270.0;
const PLAYER_Y: f32 = 560.0;
/// Seconds between two cards' turns, a turn, and the rest after the last.
const CARD_EVERY_S: f32 = 0.35;
const TURN_S: f32 = 0.3;
const REST_S: f32 = 0.6;

/// When the deal has been shown whole: the player's three cards, then the
/// bank's, turned and at rest.
fn shown_by() -> f32 {
    5.0 * CARD_EVERY_S + TURN_S + REST_S
}

fn hand_row(y: f32) -> Vec<(f32, f32)> {
    table::row(3, CARD, 30.0, HANDS_X, y)
}

fn build_table(
    mut commands: Commands,
    game_screen: Res<crate::screens::GameScreen>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<Poquer3Table>,
    mut roots: Query<(Entity, &mut Visibility), With<Root>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let key = s.rules::<Poquer3Cartas>().map(|r| format!("{}/{:?}", r.0.id, s.lang()));
    let Some(visibility) = table::rebuild(&mut commands, game_screen.0, key, &mut table.key, &mut roots) else { return };
    if table.key.is_none() {
        return;
    }
    let pt = s.lang() == Lang::Pt;
    commands.spawn((Root, Transform::default(), visibility)).with_children(|root| {
        let (ox, oy) = ORDER.centre();
        root.spawn((Sprite::from_color(table::GOLD, Vec2::new(ORDER.w + 8.0, ORDER.h + 8.0)), Transform::from_translation(stage::at(ox, oy, 1.0))));
        root.spawn((Sprite::from_color(Color::srgb(0.05, 0.09, 0.31), Vec2::new(ORDER.w, ORDER.h)), Transform::from_translation(stage::at(ox, oy, 1.1))));
        root.spawn((stage::text(&fonts, s.t("GANHA A MÃO MAIS ALTA"), 22.0, Color::WHITE), Transform::from_translation(stage::at(ox, ORDER.y + 26.0, 2.0))));
        // P3-7's order, best first: three pictures, each point with two,
        // one and no pictures, every third line shown.
        let lines: Vec<String> =
            [1u8, 2, 3, 4, 5, 8, 11, 14, 17, 20, 23, 26, 29, 30, 31].iter().map(|&n| format!("{n}. {}", p3::combination_name(n, pt))).collect();
        for (k, line) in lines.iter().enumerate() {
            root.spawn((
                stage::text(&fonts, line.clone(), 19.0, table::GOLD),
                Anchor::CENTER_LEFT,
                Transform::from_translation(stage::at(ORDER.x + 24.0, ORDER.y + 66.0 + k as f32 * 33.0, 2.0)),
            ));
        }
        root.spawn((
            stage::text(&fonts, s.t("Paga 1:1 menos 5% de comissão"), 20.0, Color::WHITE),
            Transform::from_translation(stage::at(ox, ORDER.bottom() - 24.0, 2.0)),
        ));
        for (hand, y) in [(0, BANK_Y), (1, PLAYER_Y)] {
            for (i, &(x, y)) in hand_row(y).iter().enumerate() {
                root.spawn((HandCard(hand, i), Sprite::default(), Transform::from_translation(stage::at(x, y, 3.0))));
            }
        }
        let line = |l: Line, y: f32, size: f32| (l, stage::text(&fonts, "", size, Color::WHITE), Transform::from_translation(stage::at(HANDS_X, y, 3.0)));
        root.spawn(line(Line::Bank, BANK_Y - CARD.y / 2.0 - 20.0, 24.0));
        root.spawn(line(Line::Player, PLAYER_Y + CARD.y / 2.0 + 24.0, 26.0));
        root.spawn(line(Line::Result, 744.0, 28.0));
    });
}

/// The round's clock on this screen (a round from before it began: at rest).
fn clock(reveal: &Reveal, id: u64, now: f32) -> f32 {
    if reveal.round == Some(id) { now - reveal.started } else { shown_by() + 10.0 }
}

#[allow(clippy::too_many_arguments)]
fn show_table(
    session: Res<SessionRes>,
    reveal: Res<Reveal>,
    time: Res<Time>,
    table: Res<Poquer3Table>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    mut cards: Query<(&HandCard, &mut Sprite, &mut Transform, &mut Visibility)>,
    mut lines: Query<(&Line, &mut Text2d)>,
) {
    let Ok(s) = session.0.lock() else { return };
    if table.key.is_none() || s.rules::<Poquer3Cartas>().is_none() {
        return;
    }
    let pt = s.lang() == Lang::Pt;
    let round = s.round::<Poquer3Cartas>();
    let t = round.map_or(0.0, |r| clock(&reveal, r.id, time.elapsed_secs()));
    // The player's cards turn first (0–2), then the bank's (3–5).
    let turn = |k: usize| ((t - k as f32 * CARD_EVERY_S) / TURN_S).clamp(0.0, 1.0);
    for (card, mut sprite, mut tf, mut vis) in &mut cards {
        let Some(r) = round else {
            vis.set_if_neq(Visibility::Hidden);
            continue;
        };
        vis.set_if_neq(Visibility::Inherited);
        let (face, k) = if card.0 == 0 { (r.state.deal.bank[card.1], 3 + card.1) } else { (r.state.deal.player[card.1], card.1) };
        let centre = hand_row(if card.0 == 0 { BANK_Y } else { PLAYER_Y })[card.1];
        table::show_card(&mut sprite, &mut tf, &CardLook { face: Some(face), turn: turn(k), centre, size: CARD }, 3.0, &mut art, &mut images);
    }
    let done = round.is_some_and(|r| r.phase != Phase::Presenting && t >= shown_by() - REST_S);
    let bank_open = turn(5) >= 1.0;
    let player_open = turn(2) >= 1.0;
    for (line, mut text) in &mut lines {
        let want = match (line, round) {
            (Line::Bank, Some(r)) if bank_open => format!("{} — {}", s.t("BANCA|banker"), p3::combination_name(p3::combination(&r.state.deal.bank), pt)),
            (Line::Bank, _) => s.t("BANCA|banker").to_owned(),
            (Line::Player, Some(r)) if player_open => {
                format!("{} — {}", p3::combination_name(p3::combination(&r.state.deal.player), pt), s.show(r.state.ante * r.denom))
            }
            (Line::Player, Some(_)) => String::new(),
            (Line::Player, None) => s.t("Prima JOGAR para dar cartas").to_owned(),
            (Line::Result, Some(r)) if done => announce(&r.state, s.lang()),
            (Line::Result, _) => String::new(),
        };
        if text.0 != want {
            text.0 = want;
        }
    }
}

/// Tell the host the deal was shown once its last card rests (at once when
/// the player pressed play again, or for a resumed round).
fn advance_deal(time: Res<Time>, session: Res<SessionRes>, mut reveal: ResMut<Reveal>) {
    let Ok(mut s) = session.0.lock() else { return };
    let Some(r) = s.round::<Poquer3Cartas>().filter(|r| r.phase != Phase::Ended) else { return };
    if reveal.shown_whole(r.id, r.resumed, r.phase == Phase::Presenting, time.elapsed_secs(), shown_by()) {
        s.revealed();
    }
}

/// A recalled round: the bank's hand and the player's, as dealt (M-15),
/// with who won.
fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == Poquer3Cartas::OPENING) else { return false };
    let Ok(o) = serde_json::from_value::<Opening<Poquer3Bet, Deal3>>(first.step.data.clone()) else { return false };
    ui.label(s.t("BANCA|banker"));
    paint_hand(ui, &o.deal.bank.map(Some), &[]);
    ui.label(s.t("JOGADOR"));
    paint_hand(ui, &o.deal.player.map(Some), &[]);
    let round = game_host::kinds::poquer_3_cartas::Poquer3Round { ante: o.bet.ante, deal: o.deal };
    ui.label(announce(&round, s.lang()));
    true
}
