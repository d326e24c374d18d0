//! `arbiter`: the command line of the arbitration record service. The subcommands are in
//! [`arbiter::cli`]; `serve` builds the service through [`arbiter::startup`].

/// The service's allocator: mimalloc keeps freed memory in per-thread pages instead of handing
/// large buffers back to the kernel and faulting them in again on the next request
/// (docs/write-path.md, "The allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use arbiter::cli::Command;
use clap::Parser;
use std::io::IsTerminal;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Arbitration record service for over-the-board chess"
)]
struct Cli {
    /// Log filter (`info`, `debug`, `arbiter=debug,actix_web=info`, ...).
    #[arg(
        long,
        env = "ARBITER_LOG",
        default_value = "info,sqlx=warn",
        global = true
    )]
    log_level: String,
    /// Log as JSON lines instead of text.
    #[arg(long, env = "ARBITER_LOG_JSON", global = true)]
    log_json: bool,
    #[command(subcommand)]
    command: Command,
}

fn init_logging(cli: &Cli) {
    let filter = tracing_subscriber::EnvFilter::try_new(&cli.log_level)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colours only on a terminal: a log written to a file or read by a collector gets plain
    // text, never escape codes.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    if cli.log_json {
        builder.json().init();
    } else {
        builder.init();
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(&cli);
    match arbiter::cli::run(cli.command).await {
        Ok(code) => code,
        Err(error) => {
            eprintln!("arbiter: {}", arbiter::cli::error_message(&error));
            ExitCode::FAILURE
        }
    }
}
