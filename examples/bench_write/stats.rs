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
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may contain spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
}
