//! The SAS port thread's place on the CPU (issue 48): a reply must start
//! within 20 ms of the poll's last byte while the cabinet renders, plays
//! and writes critical memory on the same cores. The port thread asks for
//! real-time scheduling (`SCHED_FIFO` at a middle priority: above every
//! ordinary thread, below the kernel's own real-time threads) and, where
//! the cabinet's process may not have it (no `CAP_SYS_NICE`), the highest
//! ordinary priority (nice -20), else stays as it is. It spends its time
//! asleep in `poll()`, so real time costs the rest of the cabinet nothing;
//! the kernel's real-time throttling bounds a fault that spins it. What was
//! granted is in the port's timing ([`crate::port::Timing`]) for the lab.

use thread_priority::{
    NormalThreadSchedulePolicy, RealtimeThreadSchedulePolicy, ThreadPriority, ThreadPriorityValue, ThreadSchedulePolicy, set_thread_priority_and_policy,
    thread_native_id,
};

/// `SCHED_FIFO` priority 1–99: the middle of the range.
const REAL_TIME_PRIORITY: u8 = 50;

/// What scheduling the port thread was granted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scheduling {
    /// As started: an ordinary thread (no privilege to raise it).
    #[default]
    Ordinary,
    /// The highest ordinary priority (nice -20).
    Raised,
    /// Real time (`SCHED_FIFO`).
    RealTime,
}

impl std::fmt::Display for Scheduling {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Scheduling::Ordinary => "ordinary (no privilege to raise it)",
            Scheduling::Raised => "raised (nice -20)",
            Scheduling::RealTime => "real time (SCHED_FIFO 50)",
        })
    }
}

/// Raises the calling thread as far as it is allowed.
pub fn raise_current_thread() -> Scheduling {
    let id = thread_native_id();
    let real_time = ThreadPriorityValue::try_from(REAL_TIME_PRIORITY)
        .ok()
        .map(|p| set_thread_priority_and_policy(id, ThreadPriority::Crossplatform(p), ThreadSchedulePolicy::Realtime(RealtimeThreadSchedulePolicy::Fifo)));
    if matches!(real_time, Some(Ok(()))) {
        return Scheduling::RealTime;
    }
    if set_thread_priority_and_policy(id, ThreadPriority::Max, ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Other)).is_ok() {
        return Scheduling::Raised;
    }
    Scheduling::Ordinary
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread raised as far as this machine allows; what it reports is
    /// what the kernel says the thread has.
    #[test]
    fn the_thread_gets_what_it_reports() {
        let granted = std::thread::spawn(|| {
            let s = raise_current_thread();
            let policy = thread_priority::thread_schedule_policy().unwrap();
            (s, policy)
        })
        .join()
        .unwrap();
        match granted {
            (Scheduling::RealTime, p) => assert_eq!(p, ThreadSchedulePolicy::Realtime(RealtimeThreadSchedulePolicy::Fifo)),
            (_, p) => assert_eq!(p, ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Other)),
        }
    }
}
