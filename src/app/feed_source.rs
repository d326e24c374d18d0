//! Where the follower fetches a board feed from, and the only HTTP client it has.
//!
//! An arbiter types the feed's URL; the service must never become a way to reach what only it
//! can reach. So a feed URL is `http(s)` only, and every address it names or resolves to is
//! checked before any connection: loopback, link-local (cloud metadata services live there),
//! private and shared ranges, unspecified, multicast and broadcast addresses, and this
//! machine's own addresses (the service itself, its database) are refused, unless the operator
//! lists the URL's host in `--follow-allow-hosts` (a DGT LiveChess PC on the venue's LAN). The
//! check is made when the follow is set (a 422 naming the option) and again at every poll,
//! after DNS resolution and before connecting (the client's resolver refuses the addresses, so
//! a name that later resolves inward is caught, and no second lookup can differ from the one
//! checked); a redirect is followed only to a URL that passes the same check. A response is
//! bounded in time (`--follow-timeout-ms`, default 10 s; half of it to connect) and in size
//! ([`MAX_FEED_BYTES`]).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// The longest a feed's answer may take by default (`--follow-timeout-ms`).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest feed response read (a round's PGN of a thousand boards with clock comments is
/// a few megabytes).
pub const MAX_FEED_BYTES: usize = 16 * 1024 * 1024;

/// The hosts an operator allows although they are internal (`--follow-allow-hosts`).
#[derive(Clone, Debug, Default)]
pub struct AddressPolicy {
    allowed: Vec<String>,
}

impl AddressPolicy {
    /// The policy allowing `hosts` (as URLs write them: `127.0.0.1`, `[::1]`, `feed.lan`).
    pub fn allowing(hosts: &[String]) -> AddressPolicy {
        AddressPolicy {
            allowed: hosts
                .iter()
                .map(|host| normalise_host(host))
                .filter(|host| !host.is_empty())
                .collect(),
        }
    }

    /// Whether the operator allows `host` whatever it resolves to.
    pub fn allows_host(&self, host: &str) -> bool {
        let host = normalise_host(host);
        self.allowed.contains(&host)
    }

    /// Refuses `ip` (an address `host` names or resolves to) unless the host is allowed.
    pub fn check_address(&self, host: &str, ip: IpAddr) -> Result<(), String> {
        if self.allows_host(host) {
            return Ok(());
        }
        match inward(ip) {
            None => Ok(()),
            Some(why) => Err(refusal(host, ip, why)),
        }
    }

    /// Checks a feed URL as far as it can be without the network: `http(s)`, a host, and, when
    /// the host is an address, that address. Returns the host.
    pub fn check_url_syntax(&self, url: &str) -> Result<String, String> {
        let parsed = reqwest::Url::parse(url.trim()).map_err(|e| {
            format!("The feed's URL cannot be read ({e}); give it as https://host/path.")
        })?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(format!(
                "The feed's URL must be http:// or https://, not {}://.",
                parsed.scheme()
            ));
        }
        let host = parsed
            .host_str()
            .ok_or_else(|| "The feed's URL names no host.".to_string())?
            .to_string();
        if let Some(ip) = literal_ip(&host) {
            self.check_address(&host, ip)?;
        }
        Ok(host)
    }

    /// [`AddressPolicy::check_url_syntax`], then every address the host resolves to now. A
    /// name that does not resolve is let through (the polls will say the feed fails, and
    /// check again).
    pub async fn check_url(&self, url: &str) -> Result<(), String> {
        let host = self.check_url_syntax(url)?;
        if literal_ip(&host).is_some() || self.allows_host(&host) {
            return Ok(());
        }
        if let Ok(addresses) = tokio::net::lookup_host((host.as_str(), 0)).await {
            for address in addresses {
                self.check_address(&host, address.ip())?;
            }
        }
        Ok(())
    }
}

/// The refusal's text: what the address is, and how an operator allows it.
fn refusal(host: &str, ip: IpAddr, why: &str) -> String {
    format!(
        "The feed's host {host} is {ip}, {why}: the service does not fetch internal addresses \
         for a feed URL someone typed. If this is a feed on your own network (a DGT LiveChess \
         PC at the venue), the operator allows it by starting the service with \
         --follow-allow-hosts {host} (or ARBITER_FOLLOW_ALLOW_HOSTS)."
    )
}

fn normalise_host(host: &str) -> String {
    host.trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim_end_matches('.')
        .to_ascii_lowercase()
}

/// The address a URL's host writes literally, if it does (`127.0.0.1`, `[::1]`).
fn literal_ip(host: &str) -> Option<IpAddr> {
    normalise_host(host).parse().ok()
}

/// Why `ip` is internal (not to be fetched for a typed URL), if it is.
pub fn inward(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            if v4.is_loopback() {
                Some("a loopback address")
            } else if v4.is_link_local() {
                Some("a link-local address (where cloud metadata services answer)")
            } else if v4.is_private() {
                Some("a private address")
            } else if a == 100 && (64..128).contains(&b) {
                Some("a shared (carrier-grade NAT) address")
            } else if v4.is_unspecified() || a == 0 {
                Some("an unspecified address (this machine)")
            } else if v4.is_broadcast() || v4.is_multicast() || a >= 240 {
                Some("a broadcast, multicast or reserved address")
            } else if is_own_address(ip) {
                Some("an address of this machine (the service's own)")
            } else {
                None
            }
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return inward(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            if v6.is_loopback() {
                Some("a loopback address")
            } else if v6.is_unspecified() {
                Some("an unspecified address (this machine)")
            } else if first & 0xffc0 == 0xfe80 {
                Some("a link-local address")
            } else if first & 0xfe00 == 0xfc00 {
                Some("a private (unique local) address")
            } else if v6.is_multicast() {
                Some("a multicast address")
            } else if is_own_address(ip) {
                Some("an address of this machine (the service's own)")
            } else {
                None
            }
        }
    }
}

/// Whether `ip` is an address of one of this machine's interfaces: binding a socket to it
/// succeeds only then (nothing is sent).
fn is_own_address(ip: IpAddr) -> bool {
    std::net::UdpSocket::bind(SocketAddr::new(ip, 0)).is_ok()
}

/// The client's resolver: resolves as the system does, then refuses the name when any of
/// its addresses is internal and its host is not allowed.
struct CheckedResolver {
    policy: Arc<AddressPolicy>,
}

impl reqwest::dns::Resolve for CheckedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.policy.clone();
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addresses: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            for address in &addresses {
                policy.check_address(&host, address.ip()).map_err(
                    |refused| -> Box<dyn std::error::Error + Send + Sync> { refused.into() },
                )?;
            }
            let addresses: reqwest::dns::Addrs = Box::new(addresses.into_iter());
            Ok(addresses)
        })
    }
}

/// The follower's HTTP client, with the address policy applied to every request.
#[derive(Clone, Debug)]
pub struct FeedClient {
    client: reqwest::Client,
    policy: Arc<AddressPolicy>,
}

/// What fetching a feed answered.
#[derive(Debug)]
pub enum Fetched {
    /// The text.
    Text(String),
    /// 404: not published (yet).
    NotFound,
}

impl FeedClient {
    /// A client that refuses what `policy` refuses, waiting at most `timeout` for an answer
    /// (half of it to connect).
    pub fn new(policy: AddressPolicy, timeout: Duration) -> FeedClient {
        let policy = Arc::new(policy);
        let redirects = policy.clone();
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout / 2)
            .user_agent(concat!("arbiter/", env!("CARGO_PKG_VERSION")))
            .dns_resolver(Arc::new(CheckedResolver {
                policy: policy.clone(),
            }))
            .redirect(reqwest::redirect::Policy::custom(move |attempt| {
                if attempt.previous().len() >= 5 {
                    return attempt.error("more than 5 redirects");
                }
                match redirects.check_url_syntax(attempt.url().as_str()) {
                    Ok(_) => attempt.follow(),
                    Err(refused) => attempt.error(refused),
                }
            }))
            .build()
            .unwrap_or_default();
        FeedClient { client, policy }
    }

    /// The address policy.
    pub fn policy(&self) -> &AddressPolicy {
        &self.policy
    }

    /// Fetches `url`, checked against the policy before any connection, its body bounded by
    /// [`MAX_FEED_BYTES`].
    pub async fn fetch(&self, url: &str) -> Result<Fetched, String> {
        self.policy.check_url_syntax(url)?;
        let mut response = self
            .client
            .get(url)
            .send()
            .await
            .map_err(|e| format!("{url}: {}", error_chain(&e)))?;
        if response.status() == reqwest::StatusCode::NOT_FOUND {
            return Ok(Fetched::NotFound);
        }
        if !response.status().is_success() {
            return Err(format!("{url} answered {}", response.status()));
        }
        if response
            .content_length()
            .is_some_and(|length| length > MAX_FEED_BYTES as u64)
        {
            return Err(too_large(url));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| format!("{url}: {}", error_chain(&e)))?
        {
            if body.len() + chunk.len() > MAX_FEED_BYTES {
                return Err(too_large(url));
            }
            body.extend_from_slice(&chunk);
        }
        String::from_utf8(body)
            .map(Fetched::Text)
            .map_err(|_| format!("{url} answered text that is not UTF-8"))
    }
}

fn too_large(url: &str) -> String {
    format!(
        "{url} answered more than {} MiB; a board feed is far smaller",
        MAX_FEED_BYTES / (1024 * 1024)
    )
}

/// An error with its causes (a refused address is the resolver's error, inside reqwest's).
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn internal_addresses_are_refused_and_public_ones_pass() {
        for internal in [
            "127.0.0.1",
            "127.8.9.10",
            "169.254.169.254",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.10",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "fc00::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
        ] {
            assert!(inward(ip(internal)).is_some(), "{internal} is internal");
        }
        for public in [
            "93.184.216.34",
            "8.8.8.8",
            "172.32.0.1",
            "2001:4860:4860::8888",
        ] {
            assert_eq!(inward(ip(public)), None, "{public} is public");
        }
    }

    #[test]
    fn a_refusal_names_the_option_that_allows_the_host() {
        let policy = AddressPolicy::default();
        let refused = policy
            .check_url_syntax("http://127.0.0.1:5432/")
            .expect_err("the database's port on loopback");
        assert!(
            refused.contains("--follow-allow-hosts 127.0.0.1"),
            "{refused}"
        );
        assert!(refused.contains("loopback"), "{refused}");
        let refused = policy
            .check_url_syntax("http://169.254.169.254/latest/meta-data/")
            .expect_err("the metadata address");
        assert!(refused.contains("link-local"), "{refused}");
        assert!(policy.check_url_syntax("http://[::1]:8080/round/").is_err());
        assert!(policy.check_url_syntax("ftp://93.184.216.34/").is_err());
        assert!(
            policy
                .check_url_syntax("https://93.184.216.34/round/")
                .is_ok()
        );
    }

    #[test]
    fn an_allowed_host_may_be_internal() {
        let policy = AddressPolicy::allowing(&["127.0.0.1".into(), "[::1]".into()]);
        assert!(
            policy
                .check_url_syntax("http://127.0.0.1:8080/round/")
                .is_ok()
        );
        assert!(policy.check_url_syntax("http://[::1]:8080/round/").is_ok());
        assert!(
            policy
                .check_url_syntax("http://127.0.0.2:8080/round/")
                .is_err()
        );
        assert!(
            policy
                .check_address("LiveChess.lan", ip("192.168.1.5"))
                .is_err()
        );
        let lan = AddressPolicy::allowing(&["livechess.lan".into()]);
        assert!(
            lan.check_address("LiveChess.lan", ip("192.168.1.5"))
                .is_ok()
        );
    }

    #[test]
    fn this_machines_own_addresses_are_its_own() {
        assert!(is_own_address(ip("127.0.0.1")));
        assert!(!is_own_address(ip("93.184.216.34")));
    }
}
