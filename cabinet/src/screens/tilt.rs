//! The tilt screen (E-37, E-38), drawn by Bevy: what stopped play, over the
//! whole stage under the top bar, until it is cleared.

use bevy::prelude::*;
use bevy::text::{Justify, TextBounds};

use crate::SessionRes;
use crate::layout::{GAME, HEIGHT, WIDTH};
use crate::modes::Mode;
use crate::stage::{self, Fonts};

pub struct TiltPlugin;

/// The tilt screen's colour (the window tests look for it).
pub const TILT_FILL: Color = Color::srgb_u8(120, 0, 0);

impl Plugin for TiltPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnExit(Mode::Tilt), take_down_tilt).add_systems(Update, show_tilt.run_if(in_state(Mode::Tilt)));
    }
}

#[derive(Component)]
struct Tilt;
#[derive(Component)]
struct Reason;
/// The credit, shown while play is suspended (issue 75: the tilt screen
/// hid it).
#[derive(Component)]
struct Credit;

fn show_tilt(
    mut commands: Commands,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    built: Query<(), With<Tilt>>,
    mut reason: Query<&mut Text2d, (With<Reason>, Without<Credit>)>,
    mut credit: Query<&mut Text2d, (With<Credit>, Without<Reason>)>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    if built.is_empty() {
        let h = HEIGHT - GAME.y;
        commands
            .spawn((Tilt, Sprite::from_color(TILT_FILL, Vec2::new(WIDTH, h)), Transform::from_translation(stage::at(WIDTH / 2.0, GAME.y + h / 2.0, 40.0))))
            .with_children(|t| {
                t.spawn((
                    Reason,
                    stage::text(&fonts, "", 56.0, Color::WHITE),
                    TextLayout::justify(Justify::Center),
                    TextBounds::new_horizontal(WIDTH - 160.0),
                    Transform::from_xyz(0.0, 120.0, 1.0),
                ));
                // Issue 75: no key's name before a player, only what to do.
                t.spawn((stage::text(&fonts, s.t("Jogo suspenso. Chame o empregado."), 32.0, Color::WHITE), Transform::from_xyz(0.0, -80.0, 1.0)));
                t.spawn((Credit, stage::text(&fonts, "", 40.0, Color::WHITE), Transform::from_xyz(0.0, -160.0, 1.0)));
            });
        return;
    }
    let want = s.block_text().unwrap_or_default();
    for mut t in &mut reason {
        if t.0 != want {
            t.0.clone_from(&want);
        }
    }
    let shown = format!("{}: {}", s.t("CRÉDITO"), s.show(s.machine().credit()));
    for mut t in &mut credit {
        if t.0 != shown {
            t.0.clone_from(&shown);
        }
    }
}

fn take_down_tilt(mut commands: Commands, tilts: Query<Entity, With<Tilt>>) {
    for e in &tilts {
        commands.entity(e).despawn();
    }
}
