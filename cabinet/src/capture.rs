//! Screenshots taken by the cabinet itself: F12 at any time, and on entering
//! each mode; saved as numbered PNG files in the screenshot folder (labs and
//! the window tests keep them as evidence), each with the text the screen
//! drew (`screen_text`).
//!
//! Every file appears whole or not at all (issue 52): it is written under
//! `.partial/` in the folder and renamed into place when complete, so a lab's
//! script or a window test never reads a screenshot being written.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use crate::modes::Mode;
use crate::screen_text::TextDump;

#[derive(Resource)]
pub struct Capture {
    pub dir: PathBuf,
    pub count: u32,
    /// Screenshots asked for and not yet taken (labels): one is taken at a
    /// time, as Bevy skips a second screenshot of the window while one is
    /// being captured.
    pub queue: Vec<String>,
    /// A new mode's screenshot waits for its screen to settle.
    pub settling: bool,
}

impl Capture {
    /// Whether a screenshot is asked for and not yet taken (frames must
    /// follow each other until it is: `pacing`).
    pub fn busy(&self) -> bool {
        self.settling || !self.queue.is_empty()
    }
}

pub struct CapturePlugin {
    pub dir: PathBuf,
}

impl Plugin for CapturePlugin {
    fn build(&self, app: &mut App) {
        // Continue the numbering of earlier runs: a restart never overwrites.
        let count =
            std::fs::read_dir(&self.dir).map_or(0, |d| d.filter_map(|e| e.ok()).filter(|e| e.path().extension().is_some_and(|x| x == "png")).count()) as u32;
        app.insert_resource(Capture { dir: self.dir.clone(), count, queue: Vec::new(), settling: false })
            .add_systems(Update, (screenshot_on_f12, screenshot_on_mode_change, take_next_screenshot).chain());
    }
}

fn take(commands: &mut Commands, capture: &mut Capture, text: &mut TextDump, label: &str) {
    if std::fs::create_dir_all(&capture.dir).is_err() {
        return;
    }
    capture.count += 1;
    let path = capture.dir.join(format!("{:03}-{label}.png", capture.count));
    text.0 = Some(path.with_extension("txt"));
    commands.spawn(Screenshot::primary_window()).observe(save_whole(path));
}

/// Where a file of the screenshot folder is written before it is complete.
fn partial(path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?.join(".partial");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join(path.file_name()?))
}

/// Write `contents` to `path` whole: under `.partial/`, then renamed into
/// place (a rename within one folder is atomic).
pub fn write_whole(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let Some(tmp) = partial(path) else { return std::fs::write(path, contents) };
    std::fs::write(&tmp, contents)?;
    std::fs::rename(&tmp, path)
}

/// Bevy's own PNG writer, aimed at `.partial/`; the finished file is then
/// renamed into place.
fn save_whole(path: PathBuf) -> impl FnMut(On<ScreenshotCaptured>) {
    let tmp = partial(&path);
    let mut save = save_to_disk(tmp.clone().unwrap_or_else(|| path.clone()));
    move |captured| {
        save(captured);
        if let Some(tmp) = &tmp
            && let Err(e) = std::fs::rename(tmp, &path)
        {
            error!("the screenshot {} was not put in place: {e}", path.display());
        }
    }
}

fn screenshot_on_f12(keys: Res<ButtonInput<KeyCode>>, mut capture: ResMut<Capture>) {
    if keys.just_pressed(KeyCode::F12) {
        capture.queue.push("f12".into());
    }
}

/// The next screenshot asked for, once no other is being captured.
fn take_next_screenshot(mut commands: Commands, mut capture: ResMut<Capture>, mut text: ResMut<TextDump>, capturing: Query<(), With<Screenshot>>) {
    if capture.queue.is_empty() || !capturing.is_empty() {
        return;
    }
    let label = capture.queue.remove(0);
    take(&mut commands, &mut capture, &mut text, &label);
}

fn screenshot_on_mode_change(
    mode: Res<State<Mode>>,
    mut capture: ResMut<Capture>,
    mut last: Local<Option<(Mode, f32)>>,
    time: Res<Time<Real>>,
    drawn: Res<crate::pipelines::Drawn>,
) {
    // Wait a moment after each change so the new screen has been drawn:
    // half a second of its animation, and every pipeline it draws with
    // compiled (a software renderer takes seconds for the first ones).
    let now = time.elapsed_secs();
    let m = *mode.get();
    match *last {
        Some((prev, _)) if prev == m => {}
        _ => *last = Some((m, now)),
    }
    if let Some((lm, at)) = *last
        && at >= 0.0
        && now - at > 0.5
        && drawn.whole()
    {
        capture.queue.push(format!("{lm:?}").to_lowercase());
        *last = Some((lm, -1.0));
    }
    let settling = last.is_some_and(|(_, at)| at >= 0.0);
    if capture.settling != settling {
        capture.settling = settling;
    }
}
