//! Performance report (issue 5): the start-up time to the first screen
//! (attract or idle), and every 10 seconds the mean, 95th percentile and
//! worst frame time of the last period with the processor time used and
//! the process's resident memory,
//! so a lab can read them from the log of a real run.

use std::time::Duration;

use bevy::prelude::*;

const PERIOD: Duration = Duration::from_secs(10);

pub struct FrameStatsPlugin;

impl Plugin for FrameStatsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FrameTimes>().add_systems(Last, (record_frame_time, report_start_up));
    }
}

/// The processor time the process has used (user and system, Linux), in
/// seconds, if it can be read.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's name (which may hold spaces).
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let (user, system): (u64, u64) = (fields.get(11)?.parse().ok()?, fields.get(12)?.parse().ok()?);
    // Linux counts in clock ticks of 1/100 s (USER_HZ).
    Some((user + system) as f64 / 100.0)
}

/// The process's resident memory in KiB (Linux), if it can be read.
pub fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Once, when the first screen has been drawn whole (every pipeline it
/// draws with compiled): the time since the process began, and the mode
/// it stood in (a cabinet may boot into a tilt, or into a round it
/// resumes). The window tests wait for this line (issue 76).
fn report_start_up(mode: Res<State<crate::modes::Mode>>, frames: Res<FrameTimes>, drawn: Res<crate::pipelines::Drawn>, mut done: Local<bool>) {
    if *done || frames.samples.len() < 2 || !drawn.whole() {
        return;
    }
    *done = true;
    let started = crate::STARTED.get().map_or(Duration::ZERO, |t| t.elapsed());
    info!("start-up: first screen ({:?}) after {:.2} s; resident memory {} MiB", mode.get(), started.as_secs_f64(), resident_kib().unwrap_or(0) / 1024);
}

#[derive(Resource, Default)]
struct FrameTimes {
    samples: Vec<f32>,
    since: Duration,
    cpu_at_start: Option<f64>,
}

/// The summary of a period's frame times, in milliseconds.
pub fn summary(samples: &mut [f32]) -> Option<(f32, f32, f32)> {
    if samples.is_empty() {
        return None;
    }
    samples.sort_by(f32::total_cmp);
    let mean = samples.iter().sum::<f32>() / samples.len() as f32;
    let p95 = samples[((samples.len() - 1) as f32 * 0.95).round() as usize];
    let max = samples[samples.len() - 1];
    Some((mean, p95, max))
}

fn record_frame_time(time: Res<Time<Real>>, mut frames: ResMut<FrameTimes>) {
    frames.samples.push(time.delta_secs() * 1000.0);
    frames.since += time.delta();
    if frames.since >= PERIOD {
        let n = frames.samples.len();
        let cpu = cpu_seconds();
        let used = cpu.zip(frames.cpu_at_start).map_or(f64::NAN, |(now, then)| (now - then) / frames.since.as_secs_f64() * 100.0);
        if let Some((mean, p95, max)) = summary(&mut frames.samples) {
            info!(
                "frame time over {n} frames: mean {mean:.1} ms ({:.0} fps), p95 {p95:.1} ms, max {max:.1} ms; processor {used:.0}% of a core; resident memory {} MiB",
                1000.0 / mean,
                resident_kib().unwrap_or(0) / 1024
            );
        }
        frames.cpu_at_start = cpu;
        frames.samples.clear();
        frames.since = Duration::ZERO;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    #[test]
    fn summary_of_known_frames() {
        let mut v: Vec<f32> = (1..=100).map(|x| x as f32).collect();
        let (mean, p95, max) = super::summary(&mut v).unwrap();
        assert_eq!((mean, p95, max), (50.5, 95.0, 100.0));
        assert!(super::summary(&mut []).is_none());
    }
}
