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
        Cluster::start_with_settings(base_dir, &[])
    }

    /// [`Cluster::start`] with server settings (`name=value`, passed as `-c name=value`), e.g.
    /// `max_connections=300` for a test run.
    pub fn start_with_settings(base_dir: &Path, settings: &[&str]) -> Result<Cluster> {
        let cluster = Cluster::prepare(base_dir)?;
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
        cluster.launch(base_dir, settings)
    }

    /// Starts a hot standby of this cluster in `base_dir`: a base backup taken with
    /// `pg_basebackup` (streaming replication, which initdb's `pg_hba.conf` allows from
    /// 127.0.0.1), started on a port of its own. It follows the primary until stopped.
    /// Used to test reading from a replica; a production standby is set up by the operator.
    pub fn start_standby(&self, base_dir: &Path, settings: &[&str]) -> Result<Cluster> {
        let standby = Cluster::prepare(base_dir)?;
        if !standby.data_dir.join("PG_VERSION").exists() {
            let basebackup = standby.tool("pg_basebackup");
            run(standby
                .command(&basebackup)
                .args([
                    "-h",
                    "127.0.0.1",
                    "-p",
                    &self.port.to_string(),
                    "-U",
                    "arbiter",
                ])
                .arg("-D")
                .arg(&standby.data_dir)
                .args(["-R", "-X", "stream", "-c", "fast"]))
            .context("pg_basebackup failed")?;
        }
        standby.launch(base_dir, settings)
    }

    /// The cluster's binaries, user and data directory under `base_dir`, which is created
    /// (and given to the cluster's user).
    fn prepare(base_dir: &Path) -> Result<Cluster> {
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
        Ok(Cluster {
            bin_dir,
            data_dir,
            run_as,
            port: 0,
            started_here: false,
        })
    }

    /// Attaches to the postmaster of the data directory if it runs, else starts it on a free
    /// port of 127.0.0.1.
    fn launch(mut self, base_dir: &Path, settings: &[&str]) -> Result<Cluster> {
        if let Some(port) = self.running_port() {
            tracing::info!(
                port,
                "attaching to the private PostgreSQL cluster already running"
            );
            self.port = port;
            return Ok(self);
        }
        self.port = free_port()?;
        let log = base_dir.join("postgres.log");
        let pg_ctl = self.tool("pg_ctl");
        let mut options = format!(
            "-p {} -c listen_addresses=127.0.0.1 -k {}",
            self.port,
            self.data_dir.display()
        );
        for setting in settings {
            options.push_str(" -c ");
            options.push_str(setting);
        }
        run(self
            .command(&pg_ctl)
            .arg("-D")
            .arg(&self.data_dir)
            .arg("-l")
            .arg(&log)
            .args(["-w", "-t", "60", "-o", &options, "start"]))
        .with_context(|| format!("the private cluster did not start; see {}", log.display()))?;
        self.started_here = true;
        tracing::info!(port = self.port, dir = %self.data_dir.display(), "private PostgreSQL cluster started");
        Ok(self)
    }

    /// The port the cluster listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the cluster, and removes `remove` if given, once the process `pid` has exited:
    /// a small watcher process (in a session of its own, so it outlives the process group)
    /// polls every second. For a cluster that a process cannot stop itself, such as the one a
    /// test run starts from a static (statics are never dropped).
    pub fn stop_when_process_exits(&self, pid: u32, remove: Option<&Path>) -> Result<()> {
        const WATCH: &str = "pid=$1; dir=$2; shift 2; \
            while kill -0 \"$pid\" 2>/dev/null; do sleep 1; done; \
            \"$@\"; if [ -n \"$dir\" ]; then rm -rf -- \"$dir\"; fi";
        let pg_ctl = self.tool("pg_ctl");
        let stop = self.command(&pg_ctl);
        let mut words: Vec<std::ffi::OsString> = vec![stop.get_program().to_owned()];
        words.extend(stop.get_args().map(|a| a.to_owned()));
        words.extend(
            ["-D".into(), self.data_dir.clone().into_os_string()]
                .into_iter()
                .chain(["-m", "immediate", "-w", "stop"].map(std::ffi::OsString::from)),
        );
        let setsid = ["/usr/bin/setsid", "/bin/setsid"]
            .into_iter()
            .find(|path| Path::new(path).exists());
        let mut watcher = match setsid {
            Some(setsid) => {
                let mut command = Command::new(setsid);
                command.arg("sh");
                command
            }
            None => Command::new("sh"),
        };
        watcher
            .args(["-c", WATCH, "arbiter-cluster-watchdog"])
            .arg(pid.to_string())
            .arg(remove.map(Path::as_os_str).unwrap_or_default())
            .args(words)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .context("cannot start the watcher that stops the private cluster")?;
        Ok(())
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
