//! Whether the renderer has compiled every pipeline it was asked for.
//!
//! Bevy compiles its render pipelines (sprites, text, egui) on a thread of
//! their own; until a pipeline is ready, whatever it draws is simply not
//! drawn. On a cabinet rendered in software (a lab's window, Xvfb with
//! lavapipe) the first pipelines take seconds, longer on a loaded machine:
//! a screenshot taken "half a second after the screen changed" could show
//! the bare clear colour (the window tests' blank attract screen). A
//! screen counts as drawn only once no pipeline is waiting, for a few
//! frames in a row (`Drawn`): a pipeline asked for by this frame's new
//! sprites is queued after this frame's extraction, so one ready frame
//! alone proves nothing.

use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::{ExtractSchedule, MainWorld, RenderApp};

pub struct PipelinesPlugin;

impl Plugin for PipelinesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PipelinesWaiting>().init_resource::<Drawn>().add_systems(Last, count_frames_drawn);
        // The render world's pipeline cache is read while the render world
        // extracts from the main world (the one place the two meet).
        if let Some(render) = app.get_sub_app_mut(RenderApp) {
            render.add_systems(ExtractSchedule, report_waiting_pipelines);
        }
    }
}

/// How many pipelines the renderer was still compiling at its last
/// extraction (none without a renderer).
#[derive(Resource, Default)]
struct PipelinesWaiting(usize);

/// Frames in a row drawn with every pipeline ready.
#[derive(Resource, Default)]
pub struct Drawn {
    frames: u32,
}

impl Drawn {
    /// Frames in a row that drew everything: how many make a screen whole.
    const FRAMES: u32 = 3;

    /// Whether what the screen shows now is drawn whole.
    pub fn whole(&self) -> bool {
        self.frames >= Self::FRAMES
    }
}

fn report_waiting_pipelines(mut main_world: ResMut<MainWorld>, pipelines: Res<PipelineCache>) {
    if let Some(mut waiting) = main_world.get_resource_mut::<PipelinesWaiting>() {
        waiting.0 = pipelines.waiting_pipelines().count();
    }
}

fn count_frames_drawn(waiting: Res<PipelinesWaiting>, mut drawn: ResMut<Drawn>) {
    drawn.frames = if waiting.0 == 0 { drawn.frames.saturating_add(1) } else { 0 };
}
