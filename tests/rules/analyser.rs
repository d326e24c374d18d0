//! The command-line analyser's output: one JSON object per game, per-game errors, clocks.

use arbiter::analyze::{GameReport, analyze_games, analyze_pgn};
use arbiter::interchange::pgn_clock::parse_clock_comment;
use serde_json::Value;

const MESSY: &str = r#"[Event "good"]
[White "A"]
[Black "B"]

1. Nf3 { [%clk 1:30:00] } Nf6 { [%clk 1:29:58.5] } 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2

[Event "illegal"]

1. e4 e5 2. Ke3 1-0

[Event "bad fen"]
[SetUp "1"]
[FEN "this is not a fen"]

1. e4 *

[Event "from a position"]
[SetUp "1"]
[FEN "8/8/8/4k3/8/8/3r4/3K4 w - - 0 1"]

1. Kxd2 1/2-1/2
"#;

#[test]
fn every_game_gives_one_json_line_and_unreadable_games_give_an_error() {
    let mut out = Vec::new();
    let summary = analyze_pgn(MESSY.as_bytes(), &mut out).expect("analysis runs");
    assert_eq!(summary.games, 4);
    assert_eq!(summary.unreadable, 2);
    let lines: Vec<Value> = String::from_utf8(out)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 4);
    let keys: Vec<&str> = lines[0]
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = vec![
        "index",
        "plies",
        "threefold",
        "fivefold",
        "fifty",
        "seventyfive",
        "dead",
        "flag_draw_if_white_flags",
        "flag_draw_if_black_flags",
        "first_automatic_end",
    ];
    expected.sort_unstable();
    let mut keys_sorted = keys.clone();
    keys_sorted.sort_unstable();
    assert_eq!(keys_sorted, expected);
    assert_eq!(lines[0]["threefold"], serde_json::json!([8]));
    assert_eq!(lines[0]["first_automatic_end"], Value::Null);
    assert_eq!(lines[1]["index"], 1);
    assert!(
        lines[1]["error"].as_str().expect("error").contains("Ke3"),
        "{}",
        lines[1]
    );
    assert!(lines[2]["error"].is_string());
    assert_eq!(
        lines[3]["first_automatic_end"],
        serde_json::json!({"ply": 1, "reason": "dead_position", "article": "5.2.2"})
    );
    assert_eq!(lines[3]["flag_draw_if_white_flags"], serde_json::json!([1]));
}

#[test]
fn clock_comments_are_read_into_per_ply_clocks() {
    assert_eq!(parse_clock_comment(b" [%clk 1:29:58.5] "), Some(5_398_500));
    assert_eq!(
        parse_clock_comment(b"[%eval 0.3] [%clk 0:00:07]"),
        Some(7_000)
    );
    assert_eq!(parse_clock_comment(b"no clock"), None);
    let mut reports = Vec::new();
    analyze_games(MESSY.as_bytes(), |r| reports.push(r.clone())).expect("analysis runs");
    let GameReport::Analysed(first) = &reports[0] else {
        panic!("the first game is readable");
    };
    assert_eq!(
        &first.clocks_ms[..3],
        &[None, Some(5_400_000), Some(5_398_500)]
    );
}
