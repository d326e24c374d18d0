//! The `arbiter analyze` command on the real game files and on a messy one.

use std::process::Command;

fn analyze(path: &std::path::Path) -> (bool, Vec<serde_json::Value>) {
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("analyze")
        .arg(path)
        .output()
        .expect("run arbiter analyze");
    let lines = String::from_utf8(output.stdout)
        .expect("UTF-8 output")
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    (output.status.success(), lines)
}

#[test]
fn analyze_prints_one_object_per_game_for_every_shared_game_file_in_file_order() {
    for (name, games) in [("twic1599", 1110), ("lichess-2025-05", 438)] {
        let (ok, lines) = analyze(&crate::shared::shared(&format!("data/games/{name}.pgn")));
        assert!(ok, "{name}");
        assert_eq!(lines.len(), games, "{name}");
        for (index, line) in lines.iter().enumerate() {
            assert_eq!(line["index"], index, "{name}");
            assert!(line.get("error").is_none(), "{name}: {line}");
            for key in [
                "plies",
                "threefold",
                "fivefold",
                "fifty",
                "seventyfive",
                "dead",
                "flag_draw_if_white_flags",
                "flag_draw_if_black_flags",
                "first_automatic_end",
            ] {
                assert!(line.get(key).is_some(), "{name} game {index} has {key}");
            }
        }
    }
}

#[test]
fn a_messy_pgn_gives_a_per_game_error_and_the_other_games_are_analysed() {
    let dir = std::env::temp_dir().join(format!("arbiter-analyze-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("messy.pgn");
    std::fs::write(
        &path,
        "[Event \"a\"]\n\n1. e4 e5 2. Qxf7 *\n\n[Event \"b\"]\n\n1. e4 {[%clk 0:05:00]} e5 2. Nf3 *\n\n[Event \"c\"\n\n1. zz9 *\n",
    )
    .unwrap();
    let (ok, lines) = analyze(&path);
    assert!(ok, "a messy file is not a crash");
    assert_eq!(lines[0]["index"], 0);
    assert!(
        lines[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("Qxf7")),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1]["plies"], 3);
    assert!(
        lines
            .iter()
            .skip(2)
            .all(|l| l.get("error").is_some() || l.get("plies").is_some())
    );
    std::fs::remove_dir_all(dir).ok();
}

/// The test server's URL with another database name in its path.
fn url_of_database(name: &str) -> String {
    let mut url = url::Url::parse(&crate::support::admin_url()).expect("the test server's URL");
    url.set_path(&format!("/{name}"));
    url.to_string()
}

#[test]
fn a_database_that_does_not_exist_is_named_once_with_what_to_do() {
    let missing = format!("arbiter_missing_{}", uuid::Uuid::new_v4().simple());
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("migrate")
        .env("DATABASE_URL", url_of_database(&missing))
        .env("ARBITER_LOG", "warn")
        .output()
        .expect("run arbiter migrate");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let said = format!("database \"{missing}\" does not exist");
    assert_eq!(stderr.matches(&said).count(), 1, "{stderr}");
    assert!(
        !stderr.contains(" at line "),
        "PostgreSQL's source line: {stderr}"
    );
    assert!(stderr.contains("createdb"), "says what to do: {stderr}");
}

#[test]
fn a_log_written_to_a_pipe_carries_no_terminal_colour_codes() {
    // `analyze` logs nothing; `migrate` on a database that cannot be reached logs its retries
    // at debug, which is enough text to look at.
    let missing = format!("arbiter_missing_{}", uuid::Uuid::new_v4().simple());
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("migrate")
        .env("DATABASE_URL", url_of_database(&missing))
        .env("ARBITER_LOG", "debug")
        .output()
        .expect("run arbiter migrate");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("DEBUG"), "the log was written: {stderr}");
    assert!(
        !stderr.contains('\u{1b}'),
        "escape codes in a piped log: {stderr:?}"
    );
}
