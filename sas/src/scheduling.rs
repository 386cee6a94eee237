//! The SAS port thread's place on the CPU (issues 48 and 71): a reply must
//! start within 20 ms of the poll's last byte while the cabinet renders,
//! plays and writes critical memory on the same cores — and while anything
//! else loads them. The port thread asks for real-time scheduling
//! (`SCHED_FIFO` at a middle priority: above every ordinary thread, below
//! the kernel's own real-time threads) and, where the cabinet's process may
//! not have it (no `CAP_SYS_NICE`), the highest ordinary priority (nice
//! -20), else stays as it is. It spends its time asleep in `poll()`, so
//! real time costs the rest of the cabinet nothing; the kernel's real-time
//! throttling bounds a fault that spins it.
//!
//! Issue 71 adds what a real-time thread also needs: it is pinned to one
//! CPU (the last the process may use, away from the first, where the
//! kernel and the renderer's main thread start), so it is never migrated
//! in the middle of a reply; and the process's memory is locked in RAM as
//! it is touched (`mlockall` with `MCL_ONFAULT`: nothing is pre-faulted,
//! nothing the port has used is paged out, so no reply waits on a disk),
//! where the process may lock memory (`CAP_IPC_LOCK`, or no limit on
//! locked memory). What was granted is in the port's timing
//! ([`crate::port::Timing`]) for the lab.

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

/// Where a real-time thread runs and whether its memory stays in RAM, as
/// granted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    pub scheduling: Scheduling,
    /// The one CPU the thread is pinned to, if it could be.
    pub cpu: Option<usize>,
    /// Whether the process's memory is locked in RAM.
    pub memory_locked: bool,
}

impl std::fmt::Display for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.scheduling)?;
        match self.cpu {
            Some(cpu) => write!(f, ", pinned to CPU {cpu}")?,
            None => f.write_str(", not pinned")?,
        }
        f.write_str(if self.memory_locked { ", memory locked" } else { ", memory not locked (no CAP_IPC_LOCK)" })
    }
}

/// Which CPU a thread is pinned to: the SAS port the last the process
/// may use, the reference host's measuring thread the first (the two
/// never wait on each other's CPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cpu {
    First,
    Last,
}

/// Raises the calling thread, pins it to `cpu` and locks the process's
/// memory, each as far as the process is allowed.
pub fn place_current_thread(cpu: Cpu) -> Placement {
    Placement { scheduling: raise_current_thread(), cpu: pin_current_thread(cpu), memory_locked: lock_memory() }
}

/// Pins the calling thread to one CPU of those the process may use.
fn pin_current_thread(which: Cpu) -> Option<usize> {
    use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
    use nix::unistd::Pid;
    let allowed = sched_getaffinity(Pid::from_raw(0)).ok()?;
    let mut cpus = (0..CpuSet::count()).filter(|&c| allowed.is_set(c).unwrap_or(false));
    let cpu = match which {
        Cpu::First => cpus.next()?,
        Cpu::Last => cpus.next_back()?,
    };
    let mut one = CpuSet::new();
    one.set(cpu).ok()?;
    // Pid 0: the calling thread alone.
    sched_setaffinity(Pid::from_raw(0), &one).ok()?;
    Some(cpu)
}

/// `MCL_ONFAULT` (Linux 4.4, `<linux/mman.h>`): lock pages as they are
/// faulted in, none pre-faulted (nix 0.31 names only `MCL_CURRENT` and
/// `MCL_FUTURE`).
const MCL_ONFAULT: i32 = 4;

/// Locks the process's memory in RAM as it is touched, where the process
/// may lock any amount: with a limit on locked memory and no
/// `CAP_IPC_LOCK`, `MCL_FUTURE` would make the renderer's allocations fail
/// once the limit is reached, so the memory is left as it is.
fn lock_memory() -> bool {
    use nix::sys::mman::{MlockAllFlags, mlockall};
    use nix::sys::resource::{RLIM_INFINITY, Resource, getrlimit};
    let unlimited = getrlimit(Resource::RLIMIT_MEMLOCK).is_ok_and(|(soft, _)| soft == RLIM_INFINITY);
    if !unlimited && !has_capability(CAP_IPC_LOCK) {
        return false;
    }
    let flags = MlockAllFlags::MCL_CURRENT | MlockAllFlags::MCL_FUTURE | MlockAllFlags::from_bits_retain(MCL_ONFAULT);
    mlockall(flags).is_ok()
}

/// `CAP_IPC_LOCK`'s bit in a capability set (`<linux/capability.h>`).
const CAP_IPC_LOCK: u32 = 14;

/// Whether the process holds capability `bit` in its effective set, as
/// `/proc/self/status` says.
fn has_capability(bit: u32) -> bool {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else { return false };
    status.lines().find_map(|l| l.strip_prefix("CapEff:")).and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok()).is_some_and(|caps| caps & (1 << bit) != 0)
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

/// The machine's monotonic clock (`CLOCK_MONOTONIC`), microseconds: the
/// same clock in every process, so the port's and a host's times of one
/// poll compare (issue 71: where a late reply's time went). 0 if the clock
/// cannot be read.
pub fn monotonic_us() -> u64 {
    nix::time::clock_gettime(nix::time::ClockId::CLOCK_MONOTONIC).map_or(0, |t| {
        let us = i128::from(t.tv_sec()) * 1_000_000 + i128::from(t.tv_nsec()) / 1_000;
        u64::try_from(us).unwrap_or(0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_monotonic_clock_is_read_and_moves_forward() {
        let a = monotonic_us();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = monotonic_us();
        assert!(a > 0 && b >= a + 2_000, "{a} then {b}");
    }

    /// A thread placed as far as this machine allows: pinned, it runs on
    /// that CPU alone; memory locked, the kernel says so.
    #[test]
    fn a_placed_thread_runs_where_it_reports() {
        let (placed, allowed, locked) = std::thread::spawn(|| {
            let placed = place_current_thread(Cpu::Last);
            let allowed = nix::sched::sched_getaffinity(nix::unistd::Pid::from_raw(0)).unwrap();
            let status = std::fs::read_to_string("/proc/self/status").unwrap();
            let locked_kb: u64 =
                status.lines().find_map(|l| l.strip_prefix("VmLck:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()).unwrap();
            (placed, allowed, locked_kb)
        })
        .join()
        .unwrap();
        if let Some(cpu) = placed.cpu {
            let set: Vec<usize> = (0..nix::sched::CpuSet::count()).filter(|&c| allowed.is_set(c).unwrap()).collect();
            assert_eq!(set, [cpu], "pinned to the one CPU it reports");
        }
        assert_eq!(placed.memory_locked, locked > 0, "locked memory: {locked} kB");
        assert_eq!(
            placed.memory_locked,
            has_capability(CAP_IPC_LOCK)
                || nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_MEMLOCK).unwrap().0 == nix::sys::resource::RLIM_INFINITY
        );
    }

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
