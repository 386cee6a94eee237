//! The stage the player's screens draw on (issue 29): Bevy's 2D camera
//! showing the design screen of `layout` (1920 × 1080) whole and centred in
//! any window, egui zoomed to the same scale for the operator's screens,
//! the shipped font, and the art kit's files as textures, each made once
//! at the size it is drawn.

use std::collections::HashMap;

use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use crate::layout::{self, HEIGHT, WIDTH};

/// The font the player's screens write with: DejaVu Sans Bold, shipped in
/// `assets/fonts` (its licence allows it; `LICENSE-DejaVu.txt`).
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// What shows where nothing is drawn: the reel window's night blue (the
/// backdrop leaves the reel window to it, `BackdropHole`), and the margins
/// of a window of another shape.
pub const WINDOW_BLUE: Color = Color::srgb(0.05, 0.06, 0.12);

/// egui's points across the stage: the operator's screens are laid out for
/// 1280 × 720 and zoomed with the stage.
const EGUI_WIDTH: f32 = 1280.0;

pub struct StagePlugin;

impl Plugin for StagePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ClearColor(WINDOW_BLUE))
            .init_resource::<ArtTextures>()
            .init_resource::<BackdropHole>()
            .add_systems(Startup, (spawn_stage_camera, load_font))
            .add_systems(Update, place_camera)
            // After this frame's glass is shown or put away (PostUpdate), before
            // visibility is propagated: no frame shows a hole without its glass.
            .add_systems(PostUpdate, show_background.after(HoleTheBackdrop).before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate))
            .add_systems(EguiPrimaryContextPass, (give_egui_the_shipped_font, zoom_egui_with_the_stage));
    }
}

/// The shipped font.
#[derive(Resource, Clone)]
pub struct Fonts {
    pub bold: Handle<Font>,
}

fn load_font(mut commands: Commands, mut fonts: ResMut<Assets<Font>>) {
    commands.insert_resource(Fonts { bold: fonts.add(Font::from_bytes(FONT.to_vec())) });
}

/// The 2D camera: at least the whole design screen, centred, at any size.
fn spawn_stage_camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        // No multisampling: the art is rasterised smooth by resvg, and a
        // cabinet rendered in software (labs, Xvfb) pays for every sample.
        bevy::render::view::Msaa::Off,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::AutoMin { min_width: WIDTH, min_height: HEIGHT },
            ..OrthographicProjection::default_2d()
        }),
    ));
}

/// The camera over the stage as `layout::fit` places it in the window
/// (centred; at the bottom of a portrait window).
fn place_camera(window: Query<&Window, With<PrimaryWindow>>, mut camera: Query<&mut Transform, With<Camera2d>>) {
    let Ok(w) = window.single() else { return };
    let (scale, ox, oy) = layout::fit(w.width(), w.height());
    // The window's centre on the design screen, in the camera's world.
    let centre = at((w.width() / 2.0 - ox) / scale, (w.height() / 2.0 - oy) / scale, 0.0);
    for mut t in &mut camera {
        if (t.translation.x - centre.x).abs() > 0.01 || (t.translation.y - centre.y).abs() > 0.01 {
            t.translation.x = centre.x;
            t.translation.y = centre.y;
        }
    }
}

/// The shipped font behind egui's own (issue 45): every glyph the
/// operator's screens write that egui's fonts lack (the suits of a
/// recalled hand, arrows, dice) is drawn from DejaVu Sans, never as "□".
pub fn with_the_shipped_font(mut fonts: bevy_egui::egui::FontDefinitions) -> bevy_egui::egui::FontDefinitions {
    use bevy_egui::egui::{FontData, FontFamily};
    fonts.font_data.insert("dejavu-sans-bold".to_owned(), std::sync::Arc::new(FontData::from_static(FONT)));
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        fonts.families.entry(family).or_default().push("dejavu-sans-bold".to_owned());
    }
    fonts
}

fn give_egui_the_shipped_font(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if !*done {
        contexts.ctx_mut()?.set_fonts(with_the_shipped_font(bevy_egui::egui::FontDefinitions::default()));
        *done = true;
    }
    Ok(())
}

/// egui at the stage's scale: its screens are 1280 points across the stage.
fn zoom_egui_with_the_stage(mut contexts: EguiContexts, window: Query<&Window, With<PrimaryWindow>>) -> Result {
    let Ok(w) = window.single() else { return Ok(()) };
    let (scale, _, _) = layout::fit(w.width(), w.height());
    let zoom = scale * WIDTH / EGUI_WIDTH;
    let ctx = contexts.ctx_mut()?;
    if (ctx.zoom_factor() - zoom).abs() > 1e-3 {
        ctx.set_zoom_factor(zoom);
    }
    Ok(())
}

/// The stage's backdrop: the attract background while nobody plays, the
/// game background otherwise, drawn only where it is seen
/// (`layout::backdrop_pieces`): each piece shows its own part of the art.
#[derive(Component)]
struct Backdrop(usize);

/// The systems that set [`BackdropHole`] in `PostUpdate`; the backdrop is
/// cut after them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct HoleTheBackdrop;

/// What the game on screen draws opaque over the backdrop: the backdrop
/// is not drawn there. Set by the game's screen: the reel window (its
/// blue is the clear colour) and the paytable glass while it shows.
#[derive(Resource, Default, PartialEq)]
pub struct BackdropHole {
    pub window: Option<layout::Area>,
    pub glass: Vec<layout::Area>,
}

fn show_background(
    mut commands: Commands,
    mode: Res<State<crate::modes::Mode>>,
    hole: Res<BackdropHole>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    mut pieces: Query<(&Backdrop, &mut Sprite, &mut Transform, &mut Visibility)>,
    mut last: Local<Option<(Handle<Image>, Vec<layout::Area>)>>,
) {
    let attract = *mode.get() == crate::modes::Mode::Attract;
    let file = if attract { "backgrounds/attract.svg" } else { "backgrounds/game.svg" };
    let image = art.get(&mut images, file, 540);
    if pieces.is_empty() {
        for k in 0..layout::BACKDROP_PIECES {
            commands.spawn((Backdrop(k), Sprite::default(), Transform::default(), Visibility::Hidden));
        }
        return;
    }
    let holes: Vec<layout::Area> = if attract { Vec::new() } else { hole.window.iter().chain(&hole.glass).copied().collect() };
    if last.as_ref().is_some_and(|(i, h)| *i == image && *h == holes) {
        return;
    }
    let size = images.get(&image).map_or(Vec2::new(WIDTH, HEIGHT), |i| i.size_f32());
    let (sx, sy) = (size.x / WIDTH, size.y / HEIGHT);
    let cut = layout::backdrop_pieces(attract, &holes);
    for (piece, mut sprite, mut transform, mut visibility) in &mut pieces {
        let Some(a) = cut.get(piece.0) else {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        };
        *sprite = Sprite {
            image: image.clone(),
            rect: Some(Rect::new(a.x * sx, a.y * sy, (a.x + a.w) * sx, a.bottom() * sy)),
            custom_size: Some(Vec2::new(a.w, a.h)),
            ..default()
        };
        let (cx, cy) = a.centre();
        *transform = Transform::from_translation(at(cx, cy, -10.0));
        visibility.set_if_neq(Visibility::Inherited);
    }
    *last = Some((image, holes));
}

/// A point of the design screen (x right, y down from the top-left) in
/// the camera's world, at depth `z`.
pub fn at(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x - WIDTH / 2.0, HEIGHT / 2.0 - y, z)
}

/// A point of the window (logical pixels, as the cursor and touches give
/// them) on the design screen.
pub fn design_point(window: &Window, px: Vec2) -> Vec2 {
    let (scale, ox, oy) = layout::fit(window.width(), window.height());
    Vec2::new((px.x - ox) / scale, (px.y - oy) / scale)
}

/// Text of the player's screens: `size` in design units, in the shipped font.
pub fn text(fonts: &Fonts, value: impl Into<String>, size: f32, colour: Color) -> (Text2d, TextFont, TextColor) {
    (Text2d::new(value), TextFont { font: fonts.bold.clone().into(), font_size: bevy::text::FontSize::Px(size), ..default() }, TextColor(colour))
}

/// The art kit's files as textures, by file and height in pixels: each is
/// rasterised once (every file was drawn at boot by `art::check`, so a
/// failure here is logged and drawn as nothing rather than stop play).
#[derive(Resource, Default)]
pub struct ArtTextures {
    made: HashMap<(String, u32), Handle<Image>>,
}

impl ArtTextures {
    pub fn get(&mut self, images: &mut Assets<Image>, name: &str, height: u32) -> Handle<Image> {
        if let Some(h) = self.made.get(&(name.to_owned(), height)) {
            return h.clone();
        }
        let handle = match crate::art::image(name, height) {
            Ok(image) => images.add(image),
            Err(e) => {
                error!("{e}");
                Handle::default()
            }
        };
        self.made.insert((name.to_owned(), height), handle.clone());
        handle
    }
}

#[cfg(test)]
mod tests {
    use bevy_egui::egui::{FontDefinitions, FontFamily};
    use skrifa::MetadataProvider;

    /// What the operator's screens write beyond plain Latin: recalled
    /// cards' suits, arrows of settlements and page turners, dashes,
    /// halves, the multiplication sign.
    const WRITTEN: &str = "♠♥♦♣→◀▶—…½×·€";

    /// The characters of `text` that none of `family`'s fonts maps (read
    /// from each font file's own character map).
    fn missing(fonts: &FontDefinitions, family: &FontFamily, text: &str) -> Vec<char> {
        let faces: Vec<skrifa::FontRef<'_>> =
            fonts.families[family].iter().map(|name| skrifa::FontRef::new(fonts.font_data[name].font.as_ref()).expect("a font file")).collect();
        text.chars().filter(|&c| faces.iter().all(|f| f.charmap().map(c).is_none())).collect()
    }

    /// Issue 45, defect 5: egui's own fonts lack some of what the audit
    /// recall writes (drawn as "□"); with the shipped font behind them,
    /// every glyph is there, in both of egui's families.
    #[test]
    fn the_operators_screens_have_every_glyph_they_write() {
        let own = FontDefinitions::default();
        assert!(!missing(&own, &FontFamily::Proportional, WRITTEN).is_empty(), "egui's own fonts cover everything: the fallback would prove nothing");
        let with = super::with_the_shipped_font(FontDefinitions::default());
        for family in [FontFamily::Proportional, FontFamily::Monospace] {
            assert_eq!(missing(&with, &family, WRITTEN), Vec::<char>::new(), "{family:?}");
        }
    }
}
