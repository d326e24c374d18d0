//! Slowing down token guessing: failed authentications counted per client address, in
//! memory, for the API's bearer tokens and the back office's sign-in form alike. Each face
//! answers a throttled address its own way (429 problem, or the sign-in page with
//! `Retry-After`).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// The bookkeeping of failed authentications per client address: a fixed window per
/// address, opened by its first failure, in a bounded cache (`moka`) that forgets an address
/// when its window ends and never holds more than [`FailedAuthentications::ADDRESSES`].
/// IPv6 addresses are counted per /64, the block one client usually holds.
#[derive(Clone)]
pub struct FailedAuthentications {
    windows: moka::sync::Cache<IpAddr, Arc<FailureWindow>>,
    limit: u32,
    window: Duration,
    trust_forwarded_for: bool,
}

/// The failures of one address since its window opened.
#[derive(Debug)]
struct FailureWindow {
    opened: Instant,
    failures: AtomicU32,
}

impl std::fmt::Debug for FailedAuthentications {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FailedAuthentications")
            .field("addresses", &self.windows.entry_count())
            .field("limit", &self.limit)
            .field("window", &self.window)
            .field("trust_forwarded_for", &self.trust_forwarded_for)
            .finish()
    }
}

impl Default for FailedAuthentications {
    /// 10 failures a minute per address.
    fn default() -> Self {
        FailedAuthentications::new(10, Duration::from_secs(60), false)
    }
}

impl FailedAuthentications {
    /// The most addresses remembered at once.
    pub const ADDRESSES: u64 = 100_000;

    /// After `limit` failed authentications from one address within `window`, that
    /// address's failing requests are answered 429 until the window ends. With
    /// `trust_forwarded_for`, the client address is taken from `Forwarded`/`X-Forwarded-For`
    /// (only behind a proxy that sets them), else from the connection.
    pub fn new(limit: u32, window: Duration, trust_forwarded_for: bool) -> Self {
        FailedAuthentications {
            windows: moka::sync::Cache::builder()
                .max_capacity(Self::ADDRESSES)
                .time_to_live(window)
                .build(),
            limit: limit.max(1),
            window,
            trust_forwarded_for,
        }
    }

    /// The address failures are counted under, for a request from `peer` that a proxy
    /// says came from `forwarded` (`Forwarded`/`X-Forwarded-For`, used only when the service
    /// trusts it).
    pub fn address_of(&self, peer: Option<IpAddr>, forwarded: Option<&str>) -> IpAddr {
        let forwarded = forwarded
            .filter(|_| self.trust_forwarded_for)
            .and_then(parse_address);
        let address = forwarded
            .or(peer)
            .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        counted_as(address)
    }

    /// Counts a failed authentication from `address`, unless the address is already over
    /// its limit: then nothing is counted and the answer is how long it must wait
    /// (at least a second).
    pub fn count_failure(&self, address: IpAddr) -> Result<(), Duration> {
        if let Some(wait) = self.throttled(address) {
            return Err(wait);
        }
        let window = self.windows.get_with(address, || {
            Arc::new(FailureWindow {
                opened: Instant::now(),
                failures: AtomicU32::new(0),
            })
        });
        window.failures.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// How long `address` must wait, if it is over its limit.
    fn throttled(&self, address: IpAddr) -> Option<Duration> {
        let window = self.windows.get(&address)?;
        (window.failures.load(Ordering::Relaxed) >= self.limit).then(|| {
            self.window
                .saturating_sub(window.opened.elapsed())
                .max(Duration::from_secs(1))
        })
    }
}

/// Parses `1.2.3.4`, `1.2.3.4:5678`, `[::1]:5678` or `::1`.
fn parse_address(text: &str) -> Option<IpAddr> {
    text.parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<std::net::SocketAddr>().ok().map(|s| s.ip()))
}

/// IPv4 as it is; IPv4-mapped IPv6 as IPv4; other IPv6 by its /64 prefix.
fn counted_as(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let segments = v6.segments();
                IpAddr::V6(Ipv6Addr::new(
                    segments[0],
                    segments[1],
                    segments[2],
                    segments[3],
                    0,
                    0,
                    0,
                    0,
                ))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::counted_as;
    use std::net::IpAddr;

    #[test]
    fn ipv6_clients_are_counted_per_64_and_mapped_ipv4_as_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(counted_as(a), counted_as(b));
        assert_ne!(counted_as(a), counted_as(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(counted_as(mapped), "192.0.2.7".parse::<IpAddr>().unwrap());
    }
}
