//! Latency distributions and the client's own CPU time.

use std::time::Duration;

/// Latencies in microseconds.
#[derive(Debug, Default)]
pub struct Latencies(Vec<u32>);

impl Latencies {
    pub fn push(&mut self, elapsed: Duration) {
        self.0
            .push(u32::try_from(elapsed.as_micros()).unwrap_or(u32::MAX));
    }

    pub fn extend(&mut self, other: Latencies) {
        self.0.extend(other.0);
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Sorts once; the quantiles below expect it.
    pub fn sorted(mut self) -> Sorted {
        self.0.sort_unstable();
        Sorted(self.0)
    }
}

/// Sorted latencies.
pub struct Sorted(Vec<u32>);

impl Sorted {
    /// The `q` quantile in milliseconds (nearest rank), 0 when empty.
    pub fn ms(&self, q: f64) -> f64 {
        if self.0.is_empty() {
            return 0.0;
        }
        let rank = ((q * self.0.len() as f64).ceil() as usize).clamp(1, self.0.len());
        f64::from(self.0[rank - 1]) / 1000.0
    }

    pub fn max_ms(&self) -> f64 {
        self.0.last().map_or(0.0, |&v| f64::from(v) / 1000.0)
    }

    pub fn mean_ms(&self) -> f64 {
        if self.0.is_empty() {
            return 0.0;
        }
        self.0.iter().map(|&v| f64::from(v)).sum::<f64>() / self.0.len() as f64 / 1000.0
    }
}

/// User + system CPU time of this process so far (all threads), from `/proc/self/stat`
/// (clock ticks of 10 ms, `CLK_TCK` = 100 on Linux). `None` where there is no `/proc`.
pub fn process_cpu() -> Option<Duration> {
    pid_cpu(std::process::id(), false)
}

/// User + system CPU time of process `pid` so far (fields 14 and 15 of `/proc/PID/stat`);
/// with `reaped`, also that of its children that have exited and been waited for (16, 17).
fn pid_cpu(pid: u32, reaped: bool) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields = stat_fields(&stat)?;
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    let mut total = ticks(11)? + ticks(12)?;
    if reaped {
        total += ticks(13)? + ticks(14)?;
    }
    Some(Duration::from_millis(total * 10))
}

/// The fields of a `/proc/PID/stat` line after the command name (field 3 onwards).
fn stat_fields(stat: &str) -> Option<Vec<&str>> {
    Some(stat[stat.rfind(')')? + 2..].split_whitespace().collect())
}

/// CPU time of a process (the server) so far.
pub fn server_cpu(pid: u32) -> Option<Duration> {
    pid_cpu(pid, false)
}

/// CPU time of a PostgreSQL cluster so far: the postmaster, its live children (backends,
/// WAL writer, checkpointer, ...) and the children it has reaped (backends that exited).
pub fn cluster_cpu(postmaster: u32) -> Option<Duration> {
    let mut total = pid_cpu(postmaster, true)?;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(fields) = stat_fields(&stat) else {
            continue;
        };
        if fields.get(1).and_then(|p| p.parse::<u32>().ok()) == Some(postmaster) {
            total += pid_cpu(pid, false).unwrap_or_default();
        }
    }
    Some(total)
}
