//! The harness of the window tests: a private Xvfb, the real cabinet
//! binary in it with its own critical memory and configuration, X key
//! events (xdotool), critical memory read through the read-only inspector,
//! and the screenshots the cabinet takes, kept in
//! `target/cabinet-screenshots/<test>/` as artifacts. Its note acceptor is
//! an ID-003 acceptor emulated on a pty (issue 70): the lab build's note
//! keys feed it through its control socket, so every note of every window
//! test goes the real driver's path (escrow, stack, vend valid, credit).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use meters::inspect::Inspection;

#[path = "../../../tests/support/test_config.rs"]
mod test_config;

#[path = "../../../host/tests/host/device_end.rs"]
pub mod device_end;

pub use test_config::workspace;

pub struct Xvfb {
    child: Child,
    pub display: String,
}

impl Xvfb {
    pub fn start() -> Xvfb {
        // One display per rig: test binaries run one after another, the
        // tests of one binary may not.
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = 100 + (std::process::id() % 100) * 4 + NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 4;
        let display = format!(":{n}");
        // -noreset: when the killed cabinet was the last client, a resetting
        // server could refuse the restarted one's connection.
        let child = Command::new("Xvfb")
            .args([&display, "-screen", "0", "1920x1200x24", "-nolisten", "tcp", "-noreset"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb (tools/test.sh installs it)");
        std::thread::sleep(Duration::from_millis(800));
        Xvfb { child, display }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the cabinet logs once its first screen is drawn whole
/// (`frame_stats::report_start_up`).
const STARTED: &str = "start-up: first screen";

/// Cabinets of one test binary run one at a time: two software-rendered
/// windows on two cores would starve each other's frames.
pub static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub struct Rig {
    pub dir: tempfile::TempDir,
    pub x: Xvfb,
    /// The window's size at the last launch (for touches by the layout).
    size: std::cell::Cell<(f32, f32)>,
    /// The lab seed the next launch passes (7 unless a test sets another).
    seed: std::cell::Cell<u64>,
    /// The emulated note acceptor the rig fitted (none where the test's
    /// configuration names its own).
    pub acceptor: Option<device_end::AcceptorEnd>,
}

/// The escrow codes of the rig's acceptor, as `tools/run-cabinet.sh` sets
/// its emulated one: the lab keys 1–4's notes.
const NOTES: &str = "[(code: 0x62, cents: 500), (code: 0x63, cents: 1000), (code: 0x64, cents: 2000), (code: 0x65, cents: 5000)]";

impl Rig {
    pub fn new() -> Rig {
        Rig::with_config(|c| c)
    }

    /// A rig whose configuration is the default one as `edit` changes it.
    pub fn with_config(edit: impl FnOnce(String) -> String) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let mut text = edit(test_config::text(dir.path()));
        let acceptor = (!text.contains("    acceptor: Some(")).then(|| {
            let socket = dir.path().join("acceptor.sock");
            let end = device_end::AcceptorEnd::new().with_control(&socket);
            let line = format!(
                "    acceptor: Some((port: {:?}, notes: {NOTES}, emulator: Some({:?}))),\n",
                end.path.display().to_string(),
                socket.display().to_string()
            );
            assert!(text.contains("    autoplay_max:"), "the configuration has no autoplay_max line to fit the acceptor before");
            text = text.replacen("    autoplay_max:", &format!("{line}    autoplay_max:"), 1);
            end
        });
        test_config::write(dir.path(), &text);
        Rig { dir, x: Xvfb::start(), size: std::cell::Cell::new((1280.0, 720.0)), seed: std::cell::Cell::new(7), acceptor }
    }

    /// Launch the next time with lab seed `seed` (the draws of a fresh
    /// machine follow from it).
    pub fn set_lab_seed(&self, seed: u64) {
        self.seed.set(seed);
    }

    /// The cabinet's log (its stderr, every run appended).
    pub fn log_path(&self) -> PathBuf {
        self.dir.path().join("cabinet.log")
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    fn log_tail(&self) -> String {
        let log = self.log();
        log.lines().rev().take(30).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("\n")
    }

    /// Wait until the cabinet's log holds `needle`.
    pub fn wait_for_log(&self, needle: &str) -> String {
        self.wait_for_log_count(needle, 1)
    }

    /// Wait until `needle` is in the log `times` times: a key that must be
    /// refused is confirmed handled by the host's log of the refusal.
    pub fn wait_for_log_count(&self, needle: &str, times: usize) -> String {
        self.wait_for_log_within(needle, times, Duration::from_secs(30))
    }

    fn wait_for_log_within(&self, needle: &str, times: usize, within: Duration) -> String {
        let deadline = Instant::now() + within;
        loop {
            let log = self.log();
            if log.matches(needle).count() >= times {
                return log;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {needle:?} in the cabinet's log:\n{}", self.log_tail());
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("egm.sqlite")
    }

    pub fn shots(&self) -> PathBuf {
        self.dir.path().join("shots")
    }

    pub fn launch(&self) -> Child {
        self.launch_with(&[])
    }

    /// Launch with more command-line arguments.
    pub fn launch_with(&self, extra: &[&str]) -> Child {
        self.launch_sized(1280, 720, extra)
    }

    /// Launch in a window of `w` × `h` with more command-line arguments.
    pub fn launch_sized(&self, w: u32, h: u32, extra: &[&str]) -> Child {
        self.size.set((w as f32, h as f32));
        let started = self.log().matches(STARTED).count();
        let child = Command::new(env!("CARGO_BIN_EXE_cabinet"))
            .args(["--windowed", "--size", &format!("{w}x{h}"), "--lab-seed", &self.seed.get().to_string()])
            .args(extra)
            .arg("--config")
            .arg(self.dir.path().join("cabinet.ron"))
            .arg("--db")
            .arg(self.db())
            .arg("--screenshot-dir")
            .arg(self.shots())
            .env("DISPLAY", &self.x.display)
            .env("XDG_RUNTIME_DIR", self.dir.path())
            .stdout(Stdio::null())
            .stderr(std::fs::OpenOptions::new().create(true).append(true).open(self.log_path()).unwrap())
            .spawn()
            .unwrap();
        // Wait for the window, then give it the keyboard focus.
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let out = self.xdotool(&["search", "--name", "EGM cabinet"]);
            if let Some(id) = out.lines().next().filter(|l| !l.trim().is_empty()) {
                let id = id.trim().to_owned();
                self.xdotool(&["windowfocus", &id]);
                break;
            }
            assert!(Instant::now() < deadline, "the cabinet window never appeared");
            std::thread::sleep(Duration::from_millis(300));
        }
        // The first screen drawn whole (every render pipeline it needs
        // compiled: the cabinet's start-up report), however long a busy
        // machine takes (issue 76), then a moment for the boot to settle.
        self.wait_for_log_within(STARTED, started + 1, Duration::from_secs(180));
        std::thread::sleep(Duration::from_millis(500));
        if !extra.contains(&"--demo") {
            self.wait_for_the_acceptor();
        }
        child
    }

    /// Wait until the cabinet has enabled the rig's acceptor (a note key
    /// pressed before is refused at the acceptor, as a player's note is),
    /// unless the cabinet has a reason to keep it inhibited: play blocked
    /// (a door, a tilt, a hand-pay). A demonstration (`--demo`) takes no
    /// money: not waited for.
    fn wait_for_the_acceptor(&self) {
        let Some(acceptor) = &self.acceptor else { return };
        let deadline = Instant::now() + Duration::from_secs(30);
        while acceptor.with(|e| e.inhibited()) {
            if let Ok(i) = Inspection::open(&self.db()) {
                let s = i.state();
                if !s.doors_open.is_empty() || !s.tilts.is_empty() || !s.handpays.is_empty() {
                    return;
                }
            }
            if Instant::now() > deadline {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn xdotool(&self, args: &[&str]) -> String {
        let out = Command::new("xdotool").args(args).env("DISPLAY", &self.x.display).output().expect("xdotool (tools/test.sh installs it)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A touch (a click) at a point of the design screen (`layout`),
    /// wherever the window's size puts it.
    pub fn touch(&self, x: f32, y: f32) {
        let (w, h) = self.size.get();
        let (scale, ox, oy) = layout::fit(w, h);
        let (px, py) = ((ox + x * scale).round() as i64, (oy + y * scale).round() as i64);
        self.xdotool(&["mousemove", &px.to_string(), &py.to_string(), "click", "1"]);
        std::thread::sleep(Duration::from_millis(300));
    }

    /// A touch on a button of the deck.
    pub fn touch_button(&self, b: layout::DeckButton) {
        let (x, y) = b.area().centre();
        self.touch(x, y);
    }

    pub fn key(&self, k: &str) {
        self.xdotool(&["key", "--delay", "80", k]);
        std::thread::sleep(Duration::from_millis(250));
    }

    /// Poll critical memory until `cond` holds.
    pub fn wait_for(&self, what: &str, cond: impl Fn(&Inspection) -> bool) -> Inspection {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(i) = Inspection::open(&self.db())
                && cond(&i)
            {
                return i;
            }
            assert!(Instant::now() < deadline, "timed out waiting for: {what}; the cabinet's log ends:\n{}", self.log_tail());
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    pub fn screenshot(&self) {
        self.key("F12");
        std::thread::sleep(Duration::from_millis(800));
    }

    fn pngs(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.shots())
            .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "png")).collect())
            .unwrap_or_default();
        files.sort();
        files
    }

    /// Take a screenshot (F12) of the screen as it is now and wait until
    /// the cabinet has written it whole; its path.
    pub fn shot(&self) -> PathBuf {
        let newest_f12 = |files: Vec<PathBuf>| files.into_iter().filter(|p| p.to_string_lossy().ends_with("-f12.png")).max();
        let before = newest_f12(self.pngs());
        self.key("F12");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(p) = newest_f12(self.pngs()).filter(|p| Some(p) > before.as_ref())
                && whole_png(&p)
            {
                return p;
            }
            assert!(Instant::now() < deadline, "timed out waiting for an F12 screenshot; the cabinet's log ends:\n{}", self.log_tail());
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// The screen as it stands, switched to English and back by the
    /// language key (issue 45, defect 10): what it shows in English names
    /// nothing in Portuguese, and no key, rule or file. Each game's window
    /// test takes one over its played round.
    pub fn shot_in_english(&self) -> PathBuf {
        self.key("e");
        std::thread::sleep(Duration::from_millis(600));
        let shot = self.shot();
        self.key("e");
        let text = text_beside(&shot);
        assert!(text.contains("CREDIT"), "{}: not in English:\n{text}", shot.display());
        if let Some(pt) = untranslated(&text) {
            let line = text.lines().find(|l| l.contains(&pt)).unwrap_or_default();
            panic!("{} shows {pt:?} in English ({line:?}):\n{text}", shot.display());
        }
        if let Some(bad) = player_text_problem(&text) {
            panic!("{} shows the player {bad:?}:\n{text}", shot.display());
        }
        shot
    }

    /// The centre (window pixels) of the first text on screen now that
    /// starts with `prefix`, read from the layout the cabinet writes beside
    /// a fresh screenshot: a control found by its label, wherever it stands.
    pub fn text_at(&self, prefix: &str) -> Option<(i64, i64)> {
        let shot = self.shot();
        let deadline = Instant::now() + Duration::from_secs(10);
        while !shot.with_extension("layout").exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
        }
        layout_beside(&shot).into_iter().find(|p| p.text.starts_with(prefix)).map(|p| {
            let [x0, y0, x1, y1] = p.rect;
            (((x0 + x1) / 2.0).round() as i64, ((y0 + y1) / 2.0).round() as i64)
        })
    }

    /// Touch the first text on screen that starts with `prefix`.
    pub fn touch_text(&self, prefix: &str) {
        let (x, y) = self.text_at(prefix).unwrap_or_else(|| panic!("no text {prefix:?} on screen"));
        self.xdotool(&["mousemove", &x.to_string(), &y.to_string(), "click", "1"]);
        std::thread::sleep(Duration::from_millis(300));
    }

    /// Open the player's history by touch, as a player does (help, then its
    /// HISTÓRICO button), and take a screenshot of it once it is drawn.
    pub fn open_history_by_touch(&self) -> PathBuf {
        self.touch_button(layout::DeckButton::Help);
        std::thread::sleep(Duration::from_millis(500));
        let n = self.shot_count();
        let (x, y) = layout::HELP_TO_HISTORY.centre();
        self.touch(x, y);
        self.shot_of_mode("recall", n);
        std::thread::sleep(Duration::from_millis(400));
        self.shot()
    }

    /// Wait for the screenshot the cabinet takes on entering `mode`
    /// (`tilt`, `audit`, `recall`, …), newer than `after` files; its path.
    pub fn shot_of_mode(&self, mode: &str, after: usize) -> PathBuf {
        let suffix = format!("-{mode}.png");
        self.wait_for_png(|p| self.pngs().len() > after && p.to_string_lossy().ends_with(&suffix), &format!("the {mode} screen's screenshot"))
    }

    /// Wait until the folder `sub` of the rig holds a file named
    /// `prefix…suffix`; every such file, sorted.
    pub fn wait_for_files(&self, sub: &str, prefix: &str, suffix: &str) -> Vec<PathBuf> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let mut files: Vec<PathBuf> = std::fs::read_dir(self.dir.path().join(sub))
                .map(|d| {
                    d.filter_map(|e| e.ok())
                        .map(|e| e.path())
                        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(prefix) && n.ends_with(suffix)))
                        .collect()
                })
                .unwrap_or_default();
            if !files.is_empty() {
                files.sort();
                return files;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {prefix}…{suffix} in {sub}; the cabinet's log ends:\n{}", self.log_tail());
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// How many screenshots there are so far.
    pub fn shot_count(&self) -> usize {
        self.pngs().len()
    }

    fn wait_for_png(&self, want: impl Fn(&Path) -> bool, what: &str) -> PathBuf {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(p) = self.pngs().pop().filter(|p| want(p))
                && whole_png(&p)
            {
                return p;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}; the cabinet's log ends:\n{}", self.log_tail());
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// Keep the screenshots as artifacts; each must be a real PNG frame,
    /// and there must be at least `at_least` of them (an empty list would
    /// make every check on them vacuous).
    pub fn keep_screenshots(&self, name: &str, at_least: usize) -> Vec<PathBuf> {
        let keep = workspace().join("target/cabinet-screenshots").join(name);
        let _ = std::fs::remove_dir_all(&keep);
        std::fs::create_dir_all(&keep).unwrap();
        // Files only: the cabinet writes each under `.partial/` first.
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(self.shots()).map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect()).unwrap_or_default();
        files.sort();
        for f in &files {
            std::fs::copy(f, keep.join(f.file_name().unwrap())).unwrap();
        }
        // The screenshots (each with the text its screen drew beside it).
        let files: Vec<PathBuf> = files.into_iter().filter(|p| p.extension().is_some_and(|x| x == "png")).collect();
        assert!(files.len() >= at_least, "{name}: only {} screenshots, expected at least {at_least}", files.len());
        for f in &files {
            assert_png(f);
        }
        // Issue 45, defect 6: no screen draws two texts over each other.
        let overlaps = overlaps_on(&files);
        assert!(overlaps.is_empty(), "{name}: texts drawn over each other:\n{}", overlaps.join("\n"));
        files
    }
}

/// A PNG written to its end (its IEND chunk's CRC), not one being written.
fn whole_png(p: &Path) -> bool {
    std::fs::read(p).is_ok_and(|b| b.len() > 8_000 && b.ends_with(&[0xAE, 0x42, 0x60, 0x82]))
}

impl Drop for Rig {
    /// A failed test keeps what the screen showed, as evidence.
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return;
        }
        let name = std::thread::current().name().unwrap_or("unnamed").replace("::", "-");
        let keep = workspace().join("target/cabinet-screenshots/failed").join(name);
        let _ = std::fs::create_dir_all(&keep);
        for f in self.pngs() {
            if let Some(n) = f.file_name() {
                let _ = std::fs::copy(&f, keep.join(n));
            }
        }
    }
}

/// The text the cabinet drew in the frame of screenshot `shot` (written
/// beside it, `NNN-label.txt`).
/// Stop a launched cabinet (a power cut: no shutdown of its own).
pub fn stop(mut cab: Child) {
    let _ = cab.kill();
    let _ = cab.wait();
}

pub fn text_beside(shot: &Path) -> String {
    std::fs::read_to_string(shot.with_extension("txt")).unwrap_or_else(|e| panic!("{}: no text beside it: {e}", shot.display()))
}

pub fn assert_png(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{} is not a PNG", path.display());
    assert!(bytes.len() > 8_000, "{} is suspiciously small ({} bytes): a blank frame?", path.display(), bytes.len());
}

/// A screenshot's pixels, RGB.
pub fn pixels(path: &Path) -> Vec<[u8; 3]> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let step = match info.color_type {
        png::ColorType::Rgba => 4,
        png::ColorType::Rgb => 3,
        other => panic!("{}: unexpected colour type {other:?}", path.display()),
    };
    assert_eq!(info.bit_depth, png::BitDepth::Eight, "{}", path.display());
    buf[..info.buffer_size()].chunks_exact(step).map(|p| [p[0], p[1], p[2]]).collect()
}

/// How many pixels of a screenshot are within `tol` of `rgb` on every channel.
pub fn count_pixels(path: &Path, rgb: [u8; 3], tol: u8) -> usize {
    pixels(path).iter().filter(|p| (0..3).all(|c| p[c].abs_diff(rgb[c]) <= tol)).count()
}

/// The share of pixels (0 to 1) that differ between two screenshots of
/// the same size: how much of the screen a change redrew.
pub fn changed(a: &Path, b: &Path) -> f64 {
    let (a, b) = (pixels(a), pixels(b));
    assert_eq!(a.len(), b.len(), "screenshots of different sizes");
    a.iter().zip(&b).filter(|(x, y)| x != y).count() as f64 / a.len().max(1) as f64
}

/// The newest screenshot the cabinet has saved.
pub fn newest_png(dir: &Path) -> PathBuf {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "png")).collect();
    files.sort();
    files.pop().expect("no screenshot yet")
}

/// The cabinet's own layout (`cabinet/src/layout.rs`): where the tests look.
#[path = "../../src/layout.rs"]
pub mod layout;

/// A file of the art kit, read from `assets/art` and rasterised here with
/// resvg (independently of the cabinet's embedded copy) to `w` × `h`
/// pixels, composited over `under`: RGB.
pub fn art_pixels(name: &str, w: u32, h: u32, under: [u8; 3]) -> Vec<[u8; 3]> {
    use resvg::{tiny_skia, usvg};
    let data = std::fs::read(workspace().join("assets/art").join(name)).unwrap();
    let tree = usvg::Tree::from_data(&data, &usvg::Options::default()).unwrap();
    let size = tree.size();
    let mut pixmap = tiny_skia::Pixmap::new(w, h).unwrap();
    resvg::render(&tree, tiny_skia::Transform::from_scale(w as f32 / size.width(), h as f32 / size.height()), &mut pixmap.as_mut());
    pixmap
        .pixels()
        .iter()
        .map(|p| {
            let c = p.demultiply();
            let a = u32::from(c.alpha());
            let mix = |x: u8, u: u8| ((u32::from(x) * a + u32::from(u) * (255 - a)) / 255) as u8;
            [mix(c.red(), under[0]), mix(c.green(), under[1]), mix(c.blue(), under[2])]
        })
        .collect()
}

/// The screenshot's width and its pixels.
pub fn shot_pixels(path: &Path) -> (usize, Vec<[u8; 3]>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let reader = decoder.read_info().unwrap();
    let width = reader.info().width as usize;
    (width, pixels(path))
}

/// How far (mean of the largest channel difference, 0–255) the inner part
/// of `area` (design units) of a screenshot is from the art file `name`
/// drawn over it.
pub fn distance_to_art(width: usize, shot: &[[u8; 3]], area: layout::Area, name: &str) -> f64 {
    let scale = width as f32 / layout::WIDTH;
    let (x0, y0) = ((area.x * scale).round() as usize, (area.y * scale).round() as usize);
    let (w, h) = ((area.w * scale).round() as u32, (area.h * scale).round() as u32);
    // The reel window's backdrop shows through the tile's rounded corners.
    let art = art_pixels(name, w, h, [13, 15, 31]);
    let margin = (w / 8) as usize;
    let mut total = 0u64;
    let mut n = 0u64;
    for y in margin..h as usize - margin {
        for x in margin..w as usize - margin {
            let a = art[y * w as usize + x];
            let s = shot[(y0 + y) * width + x0 + x];
            total += u64::from((0..3).map(|c| a[c].abs_diff(s[c])).max().unwrap_or(0));
            n += 1;
        }
    }
    total as f64 / n.max(1) as f64
}

/// Where cell (`reel`, `row`) of `game`'s reel window stands: a reel
/// shorter than the window centred in it (issue 50).
pub fn reel_cell_of(game: &game_core::reels::ReelGame, reel: usize, row: usize) -> layout::Area {
    let (reels, rows) = (game.reels.len(), game.rows as usize);
    let window = layout::reel_window(reels, rows);
    let mut cell = layout::reel_cell(window, reels, rows, reel, row);
    let own = game.reel_rows.get(reel).map_or(rows, |&r| usize::from(r));
    cell.y += (rows - own) as f32 / 2.0 * cell.h;
    cell
}

/// What each reel of `game` shows at `stops` (base strips), read here from
/// the strips: its own rows, and an expanding wild filling the reel it
/// shows on (issue 50).
pub fn window_at(game: &game_core::reels::ReelGame, stops: &[u32]) -> Vec<Vec<usize>> {
    let expanding = game.symbols.iter().position(|s| matches!(s.kind, game_core::reels::SymbolKind::Wild { expanding: true, .. }));
    game.strips(false)
        .iter()
        .enumerate()
        .map(|(reel, strip)| {
            let own = game.reel_rows.get(reel).map_or(game.rows as usize, |&r| usize::from(r));
            let cells: Vec<usize> = (0..own).map(|row| strip.symbols[(stops[reel] as usize + row) % strip.len()] as usize).collect();
            match expanding {
                Some(w) if cells.contains(&w) => vec![w; own],
                _ => cells,
            }
        })
        .collect()
}

/// Which of the game's symbols each cell of its reel window shows, cell by
/// cell (reel, row): the symbol whose art is nearest, and how near.
pub fn symbols_on_screen(path: &Path, game: &game_core::reels::ReelGame) -> Vec<Vec<(usize, f64)>> {
    let (width, shot) = shot_pixels(path);
    (0..game.reels.len())
        .map(|reel| {
            let own = game.reel_rows.get(reel).map_or(game.rows as usize, |&r| usize::from(r));
            (0..own)
                .map(|row| {
                    let cell = reel_cell_of(game, reel, row);
                    game.symbols
                        .iter()
                        .enumerate()
                        .map(|(i, s)| (i, distance_to_art(width, &shot, cell, &format!("games/{}/symbols/{}.svg", game.id, s.id))))
                        .min_by(|a, b| a.1.total_cmp(&b.1))
                        .unwrap()
                })
                .collect()
        })
        .collect()
}

/// Whether the reel window shows exactly the symbols of `stops` (base
/// strips, as [`window_at`] reads them), each drawn from its art.
pub fn shows_stops(path: &Path, game: &game_core::reels::ReelGame, stops: &[u32]) -> Result<(), String> {
    let seen = symbols_on_screen(path, game);
    let want = window_at(game, stops);
    let mut wrong = Vec::new();
    for (reel, cells) in seen.iter().enumerate() {
        for (row, &(got, distance)) in cells.iter().enumerate() {
            let want = want[reel][row];
            if got != want || distance > ART_DISTANCE {
                wrong.push(format!("reel {reel} row {row}: {} expected, {} nearest at {distance:.0}", game.symbols[want].id, game.symbols[got].id));
            }
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(format!("{}: {}", path.display(), wrong.join("; "))) }
}

/// The cells of the reel window framed by a win's mark: the bar along a
/// cell's top edge (4 units in, 8 high) in one of the screen's win colours.
pub fn framed_cells(path: &Path, game: &game_core::reels::ReelGame) -> Vec<(usize, usize)> {
    const WIN_COLOURS: [[u8; 3]; 5] = [[255, 230, 26], [26, 255, 255], [255, 51, 255], [51, 255, 51], [255, 140, 0]];
    let (width, shot) = shot_pixels(path);
    let scale = width as f32 / layout::WIDTH;
    let mut framed = Vec::new();
    for reel in 0..game.reels.len() {
        let own = game.reel_rows.get(reel).map_or(game.rows as usize, |&r| usize::from(r));
        for row in 0..own {
            let c = reel_cell_of(game, reel, row);
            let (y0, y1) = (((c.y + 6.0) * scale).round() as usize, ((c.y + 10.0) * scale).round() as usize);
            let (x0, x1) = (((c.x + 0.2 * c.w) * scale).round() as usize, ((c.x + 0.8 * c.w) * scale).round() as usize);
            let (mut inked, mut all) = (0, 0);
            for y in y0..y1 {
                for x in x0..x1 {
                    let p = shot[y * width + x];
                    inked += usize::from(WIN_COLOURS.iter().any(|w| (0..3).all(|k| p[k].abs_diff(w[k]) <= 40)));
                    all += 1;
                }
            }
            if inked * 10 >= all * 6 {
                framed.push((reel, row));
            }
        }
    }
    framed
}

/// The shipped menu's games, in order: the configuration's games less the
/// RTP variants waiting aside (issue 50: each game shows its first variant
/// listed, the others name it in `variant_of`).
pub fn menu_games() -> Vec<String> {
    game_host::config::CabinetConfig::load(&workspace().join("assets/config/cabinet.ron"))
        .unwrap()
        .games
        .into_iter()
        .filter(|id| !std::fs::read_to_string(workspace().join(format!("assets/paytables/{id}.ron"))).unwrap_or_default().contains("variant_of: Some("))
        .collect()
}

/// A shipped reel game's compiled paytable.
pub fn reel_game(id: &str) -> game_core::reels::ReelGame {
    let bytes = std::fs::read(workspace().join(format!("assets/paytables/compiled/{id}.json"))).unwrap();
    match serde_json::from_slice::<paytables::artifact::Artifact>(&bytes).unwrap().game {
        paytables::artifact::CompiledGame::Reels(g) => g,
        other => panic!("{id} is not a reel game: {other:?}"),
    }
}

/// Whether row `row` of the player's history draws the window of `stops`
/// (base strips) of `game`, each symbol from its art (issue 45, defect 4).
pub fn history_shows_stops(path: &Path, row: usize, game: &game_core::reels::ReelGame, stops: &[u32]) -> Result<(), String> {
    let (width, shot) = shot_pixels(path);
    let (reels, rows) = (game.reels.len(), game.rows as usize);
    let strips = game.strips(false);
    let mut wrong = Vec::new();
    for (reel, strip) in strips.iter().enumerate() {
        for r in 0..rows {
            let cell = layout::history_symbol(row, reels, rows, reel, r);
            let (got, distance) = game
                .symbols
                .iter()
                .enumerate()
                .map(|(i, s)| (i, distance_to_art(width, &shot, cell, &format!("games/{}/symbols/{}.svg", game.id, s.id))))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap();
            let want = strip.at(stops[reel] as usize, r) as usize;
            if got != want || distance > ART_DISTANCE {
                wrong.push(format!("reel {reel} row {r}: {} expected, {} nearest at {distance:.0}", game.symbols[want].id, game.symbols[got].id));
            }
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(format!("{}: history row {row}: {}", path.display(), wrong.join("; "))) }
}

/// Which of the 52 cards the art of `area` of a screenshot is nearest, and how near.
pub fn card_at(path: &Path, area: layout::Area) -> (game_core::cards::Card, f64) {
    let (width, shot) = shot_pixels(path);
    (0..52u8)
        .map(|i| {
            let c = game_core::cards::Card::new(i / 4, i % 4);
            let shown = c.to_string();
            let (rank, suit) = shown.split_at(1);
            let rank = if rank == "T" { "10" } else { rank };
            (c, distance_to_art(width, &shot, area, &format!("cards/{rank}{}.svg", suit.to_uppercase())))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap()
}

/// The most a cell drawn from its symbol's art may differ from it (the
/// win line and caption drawn over it included); a flat tile or another
/// screen is far beyond it.
pub const ART_DISTANCE: f64 = 45.0;

/// The mean brightness (0–255) of the inner part of `area` on a screenshot.
pub fn brightness(width: usize, shot: &[[u8; 3]], area: layout::Area) -> f64 {
    let scale = width as f32 / layout::WIDTH;
    let (x0, y0, w, h) = ((area.x * scale) as usize, (area.y * scale) as usize, (area.w * scale) as usize, (area.h * scale) as usize);
    let m = w / 8;
    let mut total = 0u64;
    let mut n = 0u64;
    for y in y0 + m..y0 + h - m {
        for x in x0 + m..x0 + w - m {
            total += shot[y * width + x].iter().map(|&c| u64::from(c)).sum::<u64>() / 3;
            n += 1;
        }
    }
    total as f64 / n.max(1) as f64
}

/// What must never reach a screen: `Debug` output, record syntax, a raw
/// OS error. The first such thing in `text`, if any.
pub fn debug_output(text: &str) -> Option<&'static str> {
    ["Some(", "None", "Ok(", "Err(", "{", "}", "::", "os error", "Os {", "kind: ", "\"kind\""].into_iter().find(|bad| text.contains(bad))
}

/// Text a player must never read (issue 45): a key's name on a control
/// ("(F1)", "F1–F5", "(Enter)", "(G)"), a rule's number ("(regra 13)",
/// "(AR 21)"), or a path; the first such piece found.
pub fn player_text_problem(text: &str) -> Option<String> {
    let keys = ["(F1", "(F2", "(F3", "F1–F5", "(Enter)", "(G)", "(B)", "(J)", "(C)", "(O)", "(H)", "(R)", "(Tab)"];
    if let Some(k) = keys.into_iter().find(|k| text.contains(k)) {
        return Some(k.to_owned());
    }
    for rule in ["(regra ", "(rule ", "(AR ", "(FR ", "(PB ", "(BJ ", "(BF ", "(PSD ", "(M-"] {
        if let Some(at) = text.find(rule) {
            return Some(text[at..].chars().take(16).collect());
        }
    }
    ["var/", "tickets/", ".txt"].into_iter().find(|p| text.contains(p)).map(str::to_owned)
}

/// A name a paytable gives in Portuguese that an English screen shows
/// (issue 45, defect 10): the first glossary name whose English differs,
/// found as a whole word in `text`.
pub fn portuguese_name(text: &str) -> Option<&'static str> {
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    game_host::texts::terms()
        .iter()
        .filter(|(pt, en)| pt != en)
        .map(|(pt, _)| *pt)
        .find(|pt| text.match_indices(pt).any(|(at, _)| !word(text[..at].chars().next_back()) && !word(text[at + pt.len()..].chars().next())))
}

/// Portuguese left on an English screen (issue 45, defect 10): a
/// paytable's name the glossary translates ([`portuguese_name`]), a word
/// spelt with a letter English never uses (ã, õ, ç, á, é, í, ó, ú, â, ê,
/// ô, à), or one of the player's common Portuguese words; the first found.
/// The names of the games that are Portuguese in English too (Banca
/// Francesa, Cussec… whose glossary English is their own name), the
/// language button's PORTUGUÊS and the French call bets are left out.
pub fn untranslated(text: &str) -> Option<String> {
    if let Some(pt) = portuguese_name(text) {
        return Some(pt.to_owned());
    }
    let kept: Vec<&str> = game_host::texts::terms().iter().filter(|(pt, en)| pt == en).map(|(pt, _)| *pt).collect();
    // The language button names the language it switches to, in it; the
    // French roulette's call bets keep their French names in English.
    let mut rest = text.replace("PORTUGUÊS", " ");
    for french in ["VOISINS DU ZÉRO", "Voisins du Zéro", "voisins du zéro", "JEU ZÉRO", "Jeu Zéro", "jeu zéro"] {
        rest = rest.replace(french, " ");
    }
    for k in kept {
        rest = rest.replace(k, " ");
    }
    const WORDS: [&str; 24] = [
        "aposta",
        "apostas",
        "crédito",
        "créditos",
        "prémio",
        "prémios",
        "jogada",
        "jogadas",
        "linha",
        "linhas",
        "jogar",
        "ajuda",
        "dobrar",
        "ganho",
        "cartão",
        "cartões",
        "bolas",
        "mão",
        "não",
        "para",
        "com",
        "jogo",
        "jogos",
        "sem",
    ];
    // Any phrase of the catalogue left in Portuguese (its Portuguese is
    // not English too, nor part of an English text of the catalogue).
    let english: Vec<String> = game_host::texts::words().iter().map(|(_, en)| en.to_lowercase()).collect();
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    if let Some(pt) = game_host::texts::words()
        .iter()
        .map(|(k, en)| (game_host::texts::portuguese(k), *en))
        .filter(|(pt, en)| pt.chars().count() >= 6 && !pt.eq_ignore_ascii_case(en) && !english.iter().any(|e| e.contains(&pt.to_lowercase())))
        .map(|(pt, _)| pt)
        .find(|pt| rest.match_indices(pt).any(|(at, _)| !word(rest[..at].chars().next_back()) && !word(rest[at + pt.len()..].chars().next())))
    {
        return Some(pt.to_owned());
    }
    rest.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).find_map(|w| {
        let lower = w.to_lowercase();
        (lower.chars().any(|c| "ãõçáéíóúâêôà".contains(c)) || WORDS.contains(&lower.as_str())).then(|| w.to_owned())
    })
}

/// One text of a screen and where it lay (the cabinet's `NNN-label.layout`).
#[derive(Clone, Debug)]
pub struct Placed {
    pub source: String,
    pub rect: [f32; 4],
    pub text: String,
}

/// Where every text of screenshot `shot` lay in the window.
pub fn layout_beside(shot: &Path) -> Vec<Placed> {
    let layout = std::fs::read_to_string(shot.with_extension("layout")).unwrap_or_else(|e| panic!("{}: no layout beside it: {e}", shot.display()));
    layout
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let mut parts = l.splitn(6, ' ');
            let source = parts.next().unwrap().to_owned();
            let mut rect = [0.0; 4];
            for r in &mut rect {
                *r = parts.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{}: a layout line without its rectangle: {l}", shot.display()));
            }
            Placed { source, rect, text: parts.next().unwrap_or("").replace("\\n", "\n") }
        })
        .collect()
}

/// Issue 45, defect 6: two texts of one of the player's screens drawn
/// over each other (a panel's label over a hand's win, a table's columns
/// run together). The texts' boxes hold their lines' leading, so each is
/// first shrunk by a fifth of a line vertically and 2 pixels across. Texts
/// on a plate of their own (a chip's value, a banner) hide what they cover
/// and are compared only among themselves; the operator's egui screens are
/// laid out by egui's own layouts (their pictures in recall put chips over
/// the cloth's labels as a cloth does) and are not compared.
pub fn overlapping_texts(placed: &[Placed]) -> Vec<(Placed, Placed)> {
    let inner = |p: &Placed| {
        let lines = p.text.lines().count().max(1) as f32;
        let pad = (p.rect[3] - p.rect[1]) / lines / 5.0;
        [p.rect[0] + 2.0, p.rect[1] + pad, p.rect[2] - 2.0, p.rect[3] - pad]
    };
    let mut found = Vec::new();
    for (i, a) in placed.iter().enumerate() {
        for b in &placed[i + 1..] {
            if a.source != b.source || a.source == "egui" {
                continue;
            }
            let (p, q) = (inner(a), inner(b));
            if p[0] < q[2] && q[0] < p[2] && p[1] < q[3] && q[1] < p[3] {
                found.push((a.clone(), b.clone()));
            }
        }
    }
    found
}

/// Every overlap of texts on the screenshots `shots`, one line each.
pub fn overlaps_on(shots: &[PathBuf]) -> Vec<String> {
    let mut said = Vec::new();
    for shot in shots {
        for (a, b) in overlapping_texts(&layout_beside(shot)) {
            said.push(format!("{}: {:?} at {:?} over {:?} at {:?}", shot.file_name().unwrap().to_string_lossy(), a.text, a.rect, b.text, b.rect));
        }
    }
    said
}
