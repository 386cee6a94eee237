//! A portrait cabinet's top box (issue 29): the window above the stage
//! (`layout::top_box`, a 1080 × 1920 screen) shows the game on screen's
//! logo, large, and its progressive levels with their values (M-30). A
//! landscape window has none.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use crate::SessionRes;
use crate::layout::{self, WIDTH};
use crate::stage::{self, ArtTextures, Fonts};

pub struct TopBoxPlugin;

impl Plugin for TopBoxPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, show_top_box);
    }
}

#[derive(Component)]
struct TopBox;
#[derive(Component)]
struct TopLogo;
#[derive(Component)]
struct TopText;

#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn show_top_box(
    mut commands: Commands,
    window: Query<&Window, With<PrimaryWindow>>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    boxes: Query<Entity, With<TopBox>>,
    mut logo: Query<(&mut Sprite, &mut Transform), (With<TopLogo>, Without<TopText>)>,
    mut text: Query<(&mut Text2d, &mut Transform), (With<TopText>, Without<TopLogo>)>,
) {
    let (Ok(w), Some(fonts)) = (window.single(), fonts) else { return };
    let Some(area) = layout::top_box(w.width(), w.height()) else {
        for e in &boxes {
            commands.entity(e).despawn();
        }
        return;
    };
    if boxes.is_empty() {
        commands.spawn((TopBox, Transform::default(), Visibility::Inherited)).with_children(|b| {
            b.spawn((TopLogo, Sprite::default(), Transform::default()));
            b.spawn((TopText, stage::text(&fonts, "", 64.0, Color::srgb(1.0, 0.85, 0.25)), Transform::default()));
        });
        return;
    }
    let Ok(s) = session.0.lock() else { return };
    // The logo fills the upper part of the box (2 : 1), the progressives
    // under it.
    let logo_w = (WIDTH * 0.8).min(area.h * 1.2);
    let logo_y = area.y + area.h * 0.38;
    let image = art.get(&mut images, &format!("games/{}/logo.svg", s.game().variant_family()), 400);
    for (mut sprite, mut t) in &mut logo {
        if sprite.image != image {
            sprite.image = image.clone();
        }
        sprite.custom_size = Some(Vec2::new(logo_w, logo_w / 2.0));
        t.translation = stage::at(WIDTH / 2.0, logo_y, 1.0);
    }
    let lines = s.progressive_lines();
    let want = if lines.is_empty() { s.game().title(s.lang()).to_owned() } else { lines.join("\n") };
    for (mut t, mut tr) in &mut text {
        if t.0 != want {
            t.0.clone_from(&want);
        }
        tr.translation = stage::at(WIDTH / 2.0, area.y + area.h * 0.82, 1.0);
    }
}
