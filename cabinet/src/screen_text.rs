//! The text on screen, written beside each screenshot the cabinet takes
//! (`NNN-label.txt` by `NNN-label.png`): every string egui drew that frame
//! and every visible text of the Bevy screens, one per line. A lab reads
//! exactly what a screen said, and the window tests check that no `Debug`
//! output or raw OS error ever reaches a screen (issue 29).
//!
//! Beside them, `NNN-label.layout`: where each text lay in the window, one
//! line per text, `bevy|plate|egui x0 y0 x1 y1 text` in the window's pixels (the
//! text's newlines as `\n`), for the window tests' check that no two texts
//! of a screen overlap (issue 45).

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::TextLayoutInfo;
use bevy_egui::{EguiFullOutput, EguiPostUpdateSet, egui};

pub struct ScreenTextPlugin;

/// A text written on a plate of its own that covers what lies under it
/// (a chip's value on the cloth, a banner over the game): it hides what it
/// covers rather than running into it, so the layout check compares it
/// only with other such texts (layout source `plate`).
#[derive(Component)]
pub struct OnPlate;

/// Where the next frame's text goes (set when a screenshot is taken).
#[derive(Resource, Default)]
pub struct TextDump(pub Option<PathBuf>);

impl Plugin for ScreenTextPlugin {
    fn build(&self, app: &mut App) {
        // After this frame's visibility is propagated: a text hidden this
        // frame (a screen put away under help) is not read as shown.
        app.init_resource::<TextDump>().add_systems(
            PostUpdate,
            write_screen_text
                .after(EguiPostUpdateSet::EndPass)
                .after(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate)
                .before(EguiPostUpdateSet::ProcessOutput),
        );
    }
}

/// Every text a shape draws, nested shapes included.
fn texts_of(shape: &egui::Shape, out: &mut Vec<String>) {
    match shape {
        egui::Shape::Text(t) => out.push(t.galley.text().to_owned()),
        egui::Shape::Vec(v) => v.iter().for_each(|s| texts_of(s, out)),
        _ => {}
    }
}

/// Every text a shape draws with where it lies (egui's points), clipped.
fn placed_texts_of(shape: &egui::Shape, clip: egui::Rect, out: &mut Vec<(egui::Rect, String)>) {
    match shape {
        egui::Shape::Text(t) => {
            let rect = shape.visual_bounding_rect().intersect(clip);
            if rect.is_positive() && !t.galley.text().trim().is_empty() {
                out.push((rect, t.galley.text().to_owned()));
            }
        }
        egui::Shape::Vec(v) => v.iter().for_each(|s| placed_texts_of(s, clip, out)),
        _ => {}
    }
}

/// Where a Bevy text lies in the window (pixels, top left and bottom
/// right), from its laid-out size, anchor and transform.
fn window_rect(info: &TextLayoutInfo, anchor: &Anchor, at: &GlobalTransform, camera: (&Camera, &GlobalTransform), scale: f32) -> Option<[f32; 4]> {
    let (w, h) = (info.size.x, info.size.y);
    let a = anchor.as_vec();
    let (x0, x1) = ((-0.5 - a.x) * w, (0.5 - a.x) * w);
    let (y0, y1) = ((-0.5 - a.y) * h, (0.5 - a.y) * h);
    let corner = |x: f32, y: f32| camera.0.world_to_viewport(camera.1, at.transform_point(Vec3::new(x, y, 0.0))).ok();
    let (p, q) = (corner(x0, y1)?, corner(x1, y0)?);
    Some([p.x.min(q.x) * scale, p.y.min(q.y) * scale, p.x.max(q.x) * scale, p.y.max(q.y) * scale])
}

fn layout_line(source: &str, [x0, y0, x1, y1]: [f32; 4], text: &str) -> String {
    format!("{source} {x0:.0} {y0:.0} {x1:.0} {y1:.0} {}", text.replace('\n', "\\n"))
}

#[allow(clippy::type_complexity)]
fn write_screen_text(
    mut dump: ResMut<TextDump>,
    egui_outputs: Query<&EguiFullOutput>,
    bevy_texts: Query<(&Text2d, &InheritedVisibility, Option<&TextLayoutInfo>, Option<&Anchor>, &GlobalTransform, Has<OnPlate>)>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
) {
    let Some(path) = dump.0.take() else { return };
    let mut lines = Vec::new();
    let mut layout = Vec::new();
    for full in egui_outputs.iter().filter_map(|o| o.0.as_ref()) {
        let mut placed = Vec::new();
        for clipped in &full.shapes {
            texts_of(&clipped.shape, &mut lines);
            placed_texts_of(&clipped.shape, clipped.clip_rect, &mut placed);
        }
        let ppp = full.pixels_per_point;
        layout.extend(placed.iter().map(|(r, t)| layout_line("egui", [r.min.x * ppp, r.min.y * ppp, r.max.x * ppp, r.max.y * ppp], t)));
    }
    let scale = window.single().map_or(1.0, Window::scale_factor);
    let camera = cameras.iter().find(|(c, _)| c.is_active);
    for (text, visible, info, anchor, at, plate) in &bevy_texts {
        if !visible.get() || text.0.is_empty() {
            continue;
        }
        lines.push(text.0.clone());
        if let (Some(info), Some(camera)) = (info, camera)
            && let Some(rect) = window_rect(info, anchor.unwrap_or(&Anchor::CENTER), at, camera, scale)
        {
            layout.push(layout_line(if plate { "plate" } else { "bevy" }, rect, &text.0));
        }
    }
    if let Err(e) = crate::capture::write_whole(&path, lines.join("\n").as_bytes()) {
        warn!("the screen's text was not written to {}: {e}", path.display());
    }
    if let Err(e) = crate::capture::write_whole(&path.with_extension("layout"), layout.join("\n").as_bytes()) {
        warn!("the screen's layout was not written beside {}: {e}", path.display());
    }
}
