//! The text on screen, written beside each screenshot the cabinet takes
//! (`NNN-label.txt` by `NNN-label.png`): every string egui drew that frame
//! and every visible text of the Bevy screens, one per line. A lab reads
//! exactly what a screen said, and the window tests check that no `Debug`
//! output or raw OS error ever reaches a screen (issue 29).

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiFullOutput, EguiPostUpdateSet, egui};

pub struct ScreenTextPlugin;

/// Where the next frame's text goes (set when a screenshot is taken).
#[derive(Resource, Default)]
pub struct TextDump(pub Option<PathBuf>);

impl Plugin for ScreenTextPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<TextDump>().add_systems(PostUpdate, write_screen_text.after(EguiPostUpdateSet::EndPass).before(EguiPostUpdateSet::ProcessOutput));
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

fn write_screen_text(mut dump: ResMut<TextDump>, egui_outputs: Query<&EguiFullOutput>, bevy_texts: Query<(&Text2d, &InheritedVisibility)>) {
    let Some(path) = dump.0.take() else { return };
    let mut lines = Vec::new();
    for full in egui_outputs.iter().filter_map(|o| o.0.as_ref()) {
        for clipped in &full.shapes {
            texts_of(&clipped.shape, &mut lines);
        }
    }
    lines.extend(bevy_texts.iter().filter(|(t, v)| v.get() && !t.0.is_empty()).map(|(t, _)| t.0.clone()));
    if let Err(e) = crate::capture::write_whole(&path, lines.join("\n").as_bytes()) {
        warn!("the screen's text was not written to {}: {e}", path.display());
    }
}
