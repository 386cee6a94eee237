//! The double-up offer (M-11: the odds shown before the player chooses),
//! drawn by Bevy beside any game's screen for every kind whose paytable
//! offers it: the amount at stake and the odds, red, black or collect by
//! touch (or G, B, Enter; the play button takes the win), each gamble's
//! result so far.

use bevy::prelude::*;
use bevy::text::{Justify, TextBounds};
use game_core::double_up::Colour;
use game_host::kinds::draw_poker::DrawPoker;
use game_host::session::Session;

use crate::SessionRes;
use crate::layout::Area;
use crate::modes::Mode;
use crate::screens::table;
use crate::stage::{self, Fonts};
use crate::touches::Presses;

pub struct DoubleUpPlugin;

impl Plugin for DoubleUpPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, (show_double_up, touch_double_up).chain());
    }
}

/// Where the offer stands (design units), in the place of a paytable put
/// away while it stands (issue 75: it was drawn over a 10-hand game's
/// hands): beside the reels, on the right, over the right-hand glass
/// (`reels::glass`); over draw poker's paytable, on the left
/// (`draw_poker`), clear of its hands.
const BESIDE_THE_REELS: Area = Area::new(1540.0, 112.0, 360.0, 420.0);
const OVER_THE_POKER_GLASS: Area = Area::new(60.0, 106.0, 360.0, 420.0);

/// The offer's panel for the game on screen.
fn panel(s: &Session) -> Area {
    if s.rules::<DrawPoker>().is_some() { OVER_THE_POKER_GLASS } else { BESIDE_THE_REELS }
}

#[derive(Component)]
struct Offer;
#[derive(Component)]
struct OfferText;
#[derive(Component)]
struct History;

/// A choice of the offer.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Red,
    Black,
    Collect,
}

impl Choice {
    const ALL: [Choice; 3] = [Choice::Red, Choice::Black, Choice::Collect];

    fn area(self, panel: Area) -> Area {
        let k = Choice::ALL.iter().position(|&c| c == self).unwrap_or(0) as f32;
        Area::new(panel.x + 15.0, panel.y + 140.0 + k * 80.0, panel.w - 30.0, 64.0)
    }
}

#[allow(clippy::type_complexity)]
fn show_double_up(
    mut commands: Commands,
    session: Res<SessionRes>,
    mode: Res<State<Mode>>,
    fonts: Option<Res<Fonts>>,
    offers: Query<Entity, With<Offer>>,
    mut texts: Query<(Option<&OfferText>, Option<&History>, Option<&Choice>, &mut Text2d)>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let offered = *mode.get() == Mode::Playing && s.double_up_offered();
    let Some(r) = s.round_info().filter(|_| offered) else {
        for e in &offers {
            commands.entity(e).despawn();
        }
        return;
    };
    if offers.is_empty() {
        let panel = panel(&s);
        let (cx, cy) = panel.centre();
        commands
            .spawn((
                Offer,
                Sprite::from_color(Color::srgba(0.0, 0.0, 0.0, 0.85), Vec2::new(panel.w, panel.h)),
                Transform::from_translation(stage::at(cx, cy, 50.0)),
            ))
            .with_children(|o| {
                let top = panel.y + 64.0 - cy;
                o.spawn((
                    OfferText,
                    stage::text(&fonts, "", 22.0, table::GOLD),
                    TextLayout::justify(Justify::Center),
                    TextBounds::new_horizontal(panel.w - 30.0),
                    Transform::from_xyz(0.0, -top, 1.0),
                ));
                for (c, fill) in [
                    (Choice::Red, Color::srgb(0.67, 0.08, 0.16)),
                    (Choice::Black, Color::srgb(0.12, 0.12, 0.12)),
                    (Choice::Collect, Color::srgb(0.12, 0.47, 0.2)),
                ] {
                    let a = c.area(panel);
                    let (bx, by) = a.centre();
                    o.spawn((Sprite::from_color(fill, Vec2::new(a.w, a.h)), Transform::from_xyz(bx - cx, cy - by, 1.0))).with_children(|b| {
                        b.spawn((c, stage::text(&fonts, "", 24.0, Color::WHITE), Transform::from_xyz(0.0, 0.0, 0.5)));
                    });
                }
                o.spawn((
                    History,
                    stage::text(&fonts, "", 18.0, Color::WHITE),
                    TextLayout::justify(Justify::Center),
                    Transform::from_xyz(0.0, cy - (panel.bottom() - 36.0), 1.0),
                ));
            });
        return;
    }
    let head = format!("{} {}\n{}", s.t("DOBRAR|double up"), s.show(r.at_stake * r.denom), s.t("vermelho ou preto, 50%: acerte e dobra, falhe e perde"));
    let history: Vec<String> = r
        .gambles
        .iter()
        .map(|g| format!("{} → {}: {}", game_host::names::colour(g.pick, s.lang()), game_host::names::colour(g.drawn, s.lang()), s.show(g.result * r.denom)))
        .collect();
    for (offer, hist, choice, mut text) in &mut texts {
        let want = match (offer, hist, choice) {
            (Some(_), _, _) => head.clone(),
            (_, Some(_), _) => history.join("\n"),
            (_, _, Some(Choice::Red)) => s.t("VERMELHO").to_owned(),
            (_, _, Some(Choice::Black)) => s.t("PRETO").to_owned(),
            (_, _, Some(Choice::Collect)) => s.t("RECEBER|collect").to_owned(),
            _ => continue,
        };
        if text.0 != want {
            text.0 = want;
        }
    }
}

/// A touch on red, black or collect while the offer stands.
fn touch_double_up(presses: Res<Presses>, session: Res<SessionRes>, mode: Res<State<Mode>>) {
    if *mode.get() != Mode::Playing {
        return;
    }
    let points = presses.on_game().to_vec();
    if points.is_empty() {
        return;
    }
    let Ok(mut s) = session.0.lock() else { return };
    if !s.double_up_offered() {
        return;
    }
    let panel = panel(&s);
    for p in points {
        let Some(c) = Choice::ALL.into_iter().find(|c| c.area(panel).contains(p.x, p.y)) else { continue };
        info!("double up: {c:?} touched");
        match c {
            Choice::Red => s.gamble(Colour::Red),
            Choice::Black => s.gamble(Colour::Black),
            Choice::Collect => s.collect(),
        }
        return;
    }
}
