//! Stock client generators read the document the service serves (`/api-docs/openapi.json`,
//! equal to the committed one; docs/interchange.md, "The OpenAPI document and generated
//! clients"), with no configuration file: openapi-python-client 0.29.1 generates a client
//! with no warning, a model for every schema and every operation (PGN import, PGN and SVG
//! downloads, the export), and that client alone records a whole real game against a live
//! server; openapi-typescript 7.13.0 writes types that pass `tsc --strict`, with events told
//! apart by `type`.
//!
//! The generators come from PyPI and npm and are installed, when missing, under
//! `target/tmp/generated-client/` (a virtualenv and an npm prefix), so the system stays
//! clean. Without python3 (>= 3.11, with venv), npm, or a reachable registry these tests
//! fail and say which.

use crate::support::TestDb;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;
use std::time::Duration;

/// The Python generator, as pinned in the issue.
const PYTHON_GENERATOR: &str = "openapi-python-client==0.29.1";
/// The npm packages: TypeScript 7 crashes openapi-typescript 7.13.0, so 5 is pinned.
const NPM_PACKAGES: &[&str] = &["openapi-typescript@7.13.0", "typescript@5"];
/// The real game recorded through the Python client: a blitz game of the shared lichess
/// file that ends by a threefold repetition after 30 plies, with `[%clk]` on every move.
const GAME_SITE: &str = "https://lichess.org/tagfiGhD";

/// Where the tools and the generated code live.
fn work_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("generated-client")
}

fn repository(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// Runs a command to the end; panics with `what` and its output when it cannot start or
/// fails.
fn run(command: &mut Command, what: &str) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("could not {what}: {error} (running {command:?})"));
    assert!(
        output.status.success(),
        "could not {what} ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Whether `program --version` runs and prints `version`.
fn has_version(program: &Path, version: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains(version))
}

/// One test at a time installs tools (they share the directories).
static INSTALLING: Mutex<()> = Mutex::new(());

/// The virtualenv with openapi-python-client, httpx and ruff (the generator's default
/// formatter, run after generating), created when missing.
fn python_environment() -> PathBuf {
    let _one_at_a_time = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    let venv = work_dir().join("venv");
    let ready = has_version(&venv.join("bin/openapi-python-client"), "0.29.1")
        && Command::new(venv.join("bin/python"))
            .args(["-c", "import httpx"])
            .output()
            .is_ok_and(|o| o.status.success())
        && has_version(&venv.join("bin/ruff"), "ruff");
    if !ready {
        std::fs::create_dir_all(work_dir()).expect("create target/tmp/generated-client");
        run(
            Command::new("python3")
                .args(["-m", "venv", "--clear"])
                .arg(&venv),
            "create a virtualenv with `python3 -m venv` (install python3 >= 3.11 and, on \
             Debian, python3-venv)",
        );
        run(
            Command::new(venv.join("bin/pip")).args([
                "install",
                "--quiet",
                "--disable-pip-version-check",
                PYTHON_GENERATOR,
                "httpx",
                "ruff",
            ]),
            "install openapi-python-client 0.29.1, httpx and ruff from PyPI (is the registry \
             reachable?)",
        );
    }
    venv
}

/// The npm prefix with openapi-typescript and TypeScript 5, installed when missing.
fn npm_environment() -> PathBuf {
    let _one_at_a_time = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    let prefix = work_dir().join("npm");
    let bin = prefix.join("node_modules/.bin");
    let ready = has_version(&bin.join("openapi-typescript"), "7.13.0")
        && has_version(&bin.join("tsc"), "Version 5.");
    if !ready {
        std::fs::create_dir_all(&prefix).expect("create the npm prefix");
        run(
            Command::new("npm")
                .args([
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                    "--prefix",
                ])
                .arg(&prefix)
                .args(NPM_PACKAGES),
            "install openapi-typescript 7.13.0 and typescript 5 with npm (install npm; is the \
             npm registry reachable?)",
        );
    }
    bin
}

/// The document the service at `base` serves, saved as `name` in the work directory (the
/// generators then read the file: they run as blocking processes, which must not hold up
/// the test's runtime while it serves them).
async fn served_document(base: &str, name: &str) -> PathBuf {
    let text = reqwest::get(format!("{base}/api-docs/openapi.json"))
        .await
        .expect("the service serves its document")
        .text()
        .await
        .expect("the document's text");
    let path = work_dir().join(name);
    std::fs::create_dir_all(work_dir()).expect("create the work directory");
    std::fs::write(&path, text).expect("save the served document");
    path
}

/// Generates the Python client from the `document` the service served (no configuration
/// file) into `into/arbiter_client`, and returns what the generator printed.
fn generate_python_client(venv: &Path, into: &Path, document: &Path) -> String {
    let package = into.join("arbiter_client");
    if into.exists() {
        std::fs::remove_dir_all(into).expect("remove the previous generated client");
    }
    std::fs::create_dir_all(into).expect("create the client directory");
    let output = run(
        Command::new(venv.join("bin/openapi-python-client"))
            .arg("generate")
            .arg("--path")
            .arg(document)
            .args(["--meta", "none"])
            .env("PATH", path_with(&venv.join("bin")))
            .arg("--output-path")
            .arg(&package),
        "generate the Python client",
    );
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The class names the generated package exports from `models`.
fn generated_models(package: &Path) -> Vec<String> {
    let init = std::fs::read_to_string(package.join("models/__init__.py"))
        .expect("the client has models/__init__.py");
    let all = init
        .split_once("__all__")
        .map(|(_, all)| all)
        .expect("models/__init__.py lists __all__");
    all.lines()
        .filter_map(|line| {
            line.trim()
                .strip_prefix('"')
                .and_then(|rest| rest.strip_suffix("\","))
        })
        .map(str::to_owned)
        .collect()
}

/// `PATH` with `dir` first (for the generator's post hook, ruff, in the virtualenv).
fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut paths = vec![dir.to_path_buf()];
    paths.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(paths).unwrap_or_default()
}

fn committed_document() -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(repository("openapi/openapi.json"))
            .expect("openapi/openapi.json is committed"),
    )
    .expect("openapi/openapi.json is JSON")
}

#[actix_web::test]
async fn openapi_python_client_generates_every_operation_and_model_from_the_served_document_without_a_warning()
 {
    let venv = python_environment();
    let into = work_dir().join("python-models");
    let db = TestDb::new().await;
    let server = db.spawn_app(|_| {}).await;
    let document = served_document(&server.base, "served-models.json").await;
    let printed = generate_python_client(&venv, &into, &document);
    server.stop().await;
    // On success the generator prints one line; any warning ("Unable to parse", "removal
    // of", an unsupported content type, a skipped hook) adds more.
    let others: Vec<&str> = printed
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("Generating "))
        .collect();
    assert!(
        others.is_empty(),
        "openapi-python-client printed more than `Generating`:\n{printed}"
    );

    // Every operation, the file uploads and downloads too.
    let api = into.join("arbiter_client/api");
    for operation in [
        "games/import_games.py",
        "records/pgn.py",
        "records/board_svg.py",
        "records/occurrences_svg.py",
        "integrity/export.py",
        "streams/round_pgn.py",
        "streams/public_round_pgn.py",
    ] {
        assert!(
            api.join(operation).exists(),
            "the client has no {operation}:\n{printed}"
        );
    }

    // A model per object or enum schema; a union (`oneOf`) becomes a Python union of the
    // models of its variants, so each variant must have one.
    let models = generated_models(&into.join("arbiter_client"));
    let document = committed_document();
    let schemas = document["components"]["schemas"]
        .as_object()
        .expect("components.schemas");
    let mut missing = Vec::new();
    for (name, schema) in schemas {
        match schema["oneOf"].as_array() {
            Some(variants) => {
                for variant in variants {
                    let target = variant["$ref"]
                        .as_str()
                        .and_then(|r| r.rsplit('/').next())
                        .unwrap_or_else(|| panic!("{name}: every variant is a named schema"));
                    if !models.iter().any(|m| m == target) {
                        missing.push(format!("{target} (a variant of {name})"));
                    }
                }
            }
            None if !models.iter().any(|m| m == name) => missing.push(name.clone()),
            None => {}
        }
    }
    assert!(
        missing.is_empty(),
        "no model was generated for: {}",
        missing.join(", ")
    );
    assert!(!schemas.is_empty(), "the document has schemas");
}

#[actix_web::test]
async fn a_python_client_generated_from_the_served_document_records_a_whole_real_game() {
    let venv = python_environment();
    let into = work_dir().join("python-game");
    let db = TestDb::new().await;
    let server = db.spawn_app(|_| {}).await;
    let document = served_document(&server.base, "served-game.json").await;
    generate_python_client(&venv, &into, &document);

    let script = tokio::process::Command::new(venv.join("bin/python"))
        .arg(repository("tests/generated-client/record_game.py"))
        .env("PYTHONPATH", &into)
        .env("ARBITER_URL", server.base.clone())
        .env("ARBITER_TOKEN", &db.arbiter)
        .env(
            "ARBITER_PGN",
            crate::shared::shared("data/games/lichess-2025-05.pgn"),
        )
        .env("ARBITER_SITE", GAME_SITE)
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(Duration::from_secs(300), script)
        .await
        .expect("record_game.py finishes within 5 minutes")
        .expect("run record_game.py");
    server.stop().await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "record_game.py failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
    assert!(stdout.contains("the PGN holds every move"), "{stdout}");

    // What the client recorded is in the log, as the service judged it.
    let types: Vec<String> =
        sqlx::query_scalar("SELECT event_type FROM events ORDER BY game_id, seq")
            .fetch_all(db.store.pool())
            .await
            .expect("read the log");
    let count = |kind: &str| types.iter().filter(|t| *t == kind).count();
    assert_eq!(count("move"), 30, "{types:?}");
    assert_eq!(count("claim"), 2, "{types:?}");
    assert_eq!(count("penalty_applied"), 1, "{types:?}");
    assert_eq!(types.last().map(String::as_str), Some("game_ended"));
}

#[actix_web::test]
async fn the_typescript_types_generated_from_the_served_document_type_check_strictly() {
    let bin = npm_environment();
    let db = TestDb::new().await;
    let server = db.spawn_app(|_| {}).await;
    let document = served_document(&server.base, "served-typescript.json").await;
    server.stop().await;
    let dir = work_dir().join("typescript");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("remove the previous types");
    }
    std::fs::create_dir_all(&dir).expect("create the types directory");
    let generated = run(
        Command::new(bin.join("openapi-typescript"))
            .arg(&document)
            .arg("--output")
            .arg(dir.join("schema.d.ts")),
        "generate the TypeScript types",
    );
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&generated.stdout),
        String::from_utf8_lossy(&generated.stderr)
    );
    assert!(
        !printed.to_lowercase().contains("warn") && !printed.to_lowercase().contains("error"),
        "openapi-typescript warned:\n{printed}"
    );
    std::fs::copy(
        repository("tests/generated-client/usage.ts"),
        dir.join("usage.ts"),
    )
    .expect("copy usage.ts beside the types");
    run(
        Command::new(bin.join("tsc"))
            .args([
                "--strict",
                "--noEmit",
                "--target",
                "es2022",
                "--module",
                "es2022",
                "--moduleResolution",
                "bundler",
            ])
            .arg(dir.join("schema.d.ts"))
            .arg(dir.join("usage.ts")),
        "type-check the generated types and usage.ts with `tsc --strict`",
    );
}
