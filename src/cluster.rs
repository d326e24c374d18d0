//! The embedded default: a private PostgreSQL cluster started from the installed PostgreSQL
//! binaries, so that `arbiter serve` works on a fresh machine with no `DATABASE_URL`.
//!
//! The cluster lives in a data directory of its own (kept between runs), listens on
//! 127.0.0.1 on a free port, and is stopped cleanly when the service shuts down. `initdb`
//! refuses to run as root, so when the service runs as root the cluster runs as the
//! unprivileged `postgres` user (through `runuser`), with the data directory owned by it.

use anyhow::{Context, Result, anyhow, bail};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A running private cluster.
#[derive(Debug)]
pub struct Cluster {
    bin_dir: PathBuf,
    data_dir: PathBuf,
    run_as: Option<String>,
    port: u16,
    started_here: bool,
}

/// The unprivileged user the cluster runs as when the service runs as root.
const CLUSTER_USER: &str = "postgres";

impl Cluster {
    /// Starts the cluster in `base_dir` (initialising it on first use), or attaches to it if it
    /// is already running.
    pub fn start(base_dir: &Path) -> Result<Cluster> {
        let bin_dir = find_binaries()?;
        let run_as = running_as_root().then(|| CLUSTER_USER.to_string());
        let data_dir = base_dir.join("pgdata");
        std::fs::create_dir_all(base_dir)
            .with_context(|| format!("cannot create the data directory {}", base_dir.display()))?;
        if let Some(user) = &run_as {
            run(Command::new("chown")
                .arg("-R")
                .arg(format!("{user}:{user}"))
                .arg(base_dir))
            .with_context(|| {
                format!(
                    "cannot give {} to the `{user}` user, who runs the private cluster \
                         (initdb refuses root)",
                    base_dir.display()
                )
            })?;
        }
        let mut cluster = Cluster {
            bin_dir,
            data_dir,
            run_as,
            port: 0,
            started_here: false,
        };
        if !cluster.data_dir.join("PG_VERSION").exists() {
            tracing::info!(dir = %cluster.data_dir.display(), "initialising a private PostgreSQL cluster");
            let initdb = cluster.tool("initdb");
            run(cluster
                .command(&initdb)
                .arg("-D")
                .arg(&cluster.data_dir)
                .args(["-U", "arbiter", "--auth=trust", "-E", "UTF8", "--no-locale"]))
            .context("initdb failed")?;
        }
        if let Some(port) = cluster.running_port() {
            tracing::info!(
                port,
                "attaching to the private PostgreSQL cluster already running"
            );
            cluster.port = port;
            return Ok(cluster);
        }
        cluster.port = free_port()?;
        let log = base_dir.join("postgres.log");
        let pg_ctl = cluster.tool("pg_ctl");
        let options = format!(
            "-p {} -c listen_addresses=127.0.0.1 -k {}",
            cluster.port,
            cluster.data_dir.display()
        );
        run(cluster
            .command(&pg_ctl)
            .arg("-D")
            .arg(&cluster.data_dir)
            .arg("-l")
            .arg(&log)
            .args(["-w", "-t", "60", "-o", &options, "start"]))
        .with_context(|| format!("the private cluster did not start; see {}", log.display()))?;
        cluster.started_here = true;
        tracing::info!(port = cluster.port, dir = %cluster.data_dir.display(), "private PostgreSQL cluster started");
        Ok(cluster)
    }

    /// The URL of the cluster's maintenance database.
    pub fn admin_url(&self) -> String {
        format!("postgres://arbiter@127.0.0.1:{}/postgres", self.port)
    }

    /// The URL of the service's database (created by [`crate::store`] on first use).
    pub fn database_url(&self) -> String {
        format!("postgres://arbiter@127.0.0.1:{}/arbiter", self.port)
    }

    /// Stops the cluster if this process started it.
    pub fn stop(&self) -> Result<()> {
        if !self.started_here {
            return Ok(());
        }
        let pg_ctl = self.tool("pg_ctl");
        run(self
            .command(&pg_ctl)
            .arg("-D")
            .arg(&self.data_dir)
            .args(["-m", "fast", "-w", "stop"]))
        .context("stopping the private cluster failed")?;
        tracing::info!("private PostgreSQL cluster stopped");
        Ok(())
    }

    /// The port of the cluster if its postmaster is alive.
    fn running_port(&self) -> Option<u16> {
        let pg_ctl = self.tool("pg_ctl");
        let status = self
            .command(&pg_ctl)
            .arg("-D")
            .arg(&self.data_dir)
            .arg("status")
            .output()
            .ok()?;
        if !status.status.success() {
            return None;
        }
        let pid_file = std::fs::read_to_string(self.data_dir.join("postmaster.pid")).ok()?;
        pid_file.lines().nth(3)?.trim().parse().ok()
    }

    fn tool(&self, name: &str) -> PathBuf {
        self.bin_dir.join(name)
    }

    fn command(&self, program: &Path) -> Command {
        match &self.run_as {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--"]).arg(program);
                command
            }
            None => Command::new(program),
        }
    }
}

/// The directory of the newest installed PostgreSQL's server binaries.
fn find_binaries() -> Result<PathBuf> {
    if let Ok(dir) = std::env::var("ARBITER_PG_BIN") {
        return Ok(PathBuf::from(dir));
    }
    let mut candidates: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version: u32 = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            (bin.join("initdb").exists() && bin.join("pg_ctl").exists()).then_some((version, bin))
        })
        .collect();
    candidates.sort();
    candidates.pop().map(|(_, bin)| bin).ok_or_else(|| {
        anyhow!(
            "no DATABASE_URL is set and no PostgreSQL server binaries were found (looked in \
             /usr/lib/postgresql/*/bin and $ARBITER_PG_BIN). Install PostgreSQL (Debian or \
             Ubuntu: `apt-get install -y postgresql`) so that arbiter can run a private \
             cluster, or set DATABASE_URL to a database arbiter may create tables in."
        )
    })
}

/// Whether this process runs as root (initdb refuses root).
pub fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("Uid:"))
                .and_then(|line| line.split_whitespace().nth(2).map(|uid| uid == "0"))
        })
        .unwrap_or(false)
}

/// A TCP port nobody listens on right now.
fn free_port() -> Result<u16> {
    let listener =
        TcpListener::bind("127.0.0.1:0").context("cannot find a free port for the cluster")?;
    Ok(listener.local_addr()?.port())
}

/// Runs a command, failing with its output if it fails.
fn run(command: &mut Command) -> Result<()> {
    let output = command
        .output()
        .with_context(|| format!("cannot run {command:?}"))?;
    if !output.status.success() {
        bail!(
            "{command:?} failed ({}): {}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout).trim(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(())
}
