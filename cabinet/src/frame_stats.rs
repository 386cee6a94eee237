//! Frame-time report (issue 5): every 10 seconds the cabinet logs the mean,
//! 95th percentile and worst frame time of the last period, so a lab can
//! read the rendering performance from the log of a real run.

use std::time::Duration;

use bevy::prelude::*;

const PERIOD: Duration = Duration::from_secs(10);

pub struct FrameStatsPlugin;

impl Plugin for FrameStatsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FrameTimes>().add_systems(Last, record_frame_time);
    }
}

#[derive(Resource, Default)]
struct FrameTimes {
    samples: Vec<f32>,
    since: Duration,
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

fn record_frame_time(time: Res<Time>, mut frames: ResMut<FrameTimes>) {
    frames.samples.push(time.delta_secs() * 1000.0);
    frames.since += time.delta();
    if frames.since >= PERIOD {
        let n = frames.samples.len();
        if let Some((mean, p95, max)) = summary(&mut frames.samples) {
            info!("frame time over {n} frames: mean {mean:.1} ms ({:.0} fps), p95 {p95:.1} ms, max {max:.1} ms", 1000.0 / mean);
        }
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
