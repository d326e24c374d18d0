//! Differential tests: the analyser against the python-chess oracle (shared/data/oracle)
//! over every game in shared/data/games, and mating potential against chasolver's own
//! classified positions (shared/data/dead-positions).

use std::collections::HashSet;

use arbiter::analyze::{GameReport, analyze_games, analyze_games_with_effort};
use arbiter::rules::mating_potential::{
    MatingPotential, SearchEffort, mating_potential, mating_potential_with,
};
use arbiter::rules::move_parsing::position_from_fen;
use serde_json::Value;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color};

/// The shared data directory (`../shared/data`, or the copy in `tests/shared/data`).
fn data() -> String {
    crate::shared::shared("data").display().to_string()
}

fn plies(value: &Value) -> Vec<usize> {
    value
        .as_array()
        .expect("a ply list")
        .iter()
        .map(|p| p.as_u64().expect("a ply") as usize)
        .collect()
}

fn compare_with_oracle(name: &str) {
    let pgn = std::fs::read(format!("{}/games/{name}.pgn", data())).expect("PGN readable");
    let oracle_text = std::fs::read_to_string(format!("{}/oracle/{name}.jsonl", data()))
        .expect("oracle readable");
    let oracle: Vec<Value> = oracle_text
        .lines()
        .map(|line| serde_json::from_str(line).expect("oracle line is JSON"))
        .collect();
    let mut reports = Vec::new();
    analyze_games(&pgn[..], |report| reports.push(report.clone())).expect("analysis runs");
    assert_eq!(reports.len(), oracle.len(), "{name}: number of games");
    let mut earlier_dead = 0;
    for (report, expected) in reports.iter().zip(&oracle) {
        let GameReport::Analysed(mine) = report else {
            panic!("{name}: game {} unreadable: {report:?}", expected["index"]);
        };
        let game = format!("{name} game {}", mine.index);
        assert_eq!(
            mine.index as u64,
            expected["index"].as_u64().expect("index"),
            "{game}"
        );
        assert_eq!(
            mine.plies as u64,
            expected["plies"].as_u64().expect("plies"),
            "{game}: plies"
        );
        assert_eq!(
            mine.threefold,
            plies(&expected["threefold"]),
            "{game}: threefold"
        );
        assert_eq!(
            mine.fivefold,
            plies(&expected["fivefold"]),
            "{game}: fivefold"
        );
        assert_eq!(mine.fifty, plies(&expected["fifty"]), "{game}: fifty");
        assert_eq!(
            mine.seventyfive,
            plies(&expected["seventyfive"]),
            "{game}: seventyfive"
        );
        let dead: HashSet<usize> = mine.dead.iter().copied().collect();
        for ply in plies(&expected["insufficient"]) {
            assert!(
                dead.contains(&ply),
                "{game}: oracle says insufficient material at ply {ply}, not dead here"
            );
        }
        for (key, list) in [
            ("flag_draw_if_white_flags", &mine.flag_draw_if_white_flags),
            ("flag_draw_if_black_flags", &mine.flag_draw_if_black_flags),
        ] {
            let ours: HashSet<usize> = list.iter().copied().collect();
            for ply in plies(&expected[key]) {
                assert!(ours.contains(&ply), "{game}: {key} misses oracle ply {ply}");
            }
        }
        let theirs = expected["first_automatic_end"].as_object().map(|end| {
            let reason = match end["reason"].as_str().expect("reason") {
                "insufficient_material" => "dead_position",
                other => other,
            };
            (
                end["ply"].as_u64().expect("ply") as usize,
                reason.to_string(),
            )
        });
        let ours = mine
            .first_automatic_end
            .as_ref()
            .map(|end| (end.ply, end.reason.to_string()));
        if ours != theirs {
            let earlier = match (&ours, &theirs) {
                (Some((p, r)), Some((q, _))) => r == "dead_position" && p < q,
                (Some((_, r)), None) => r == "dead_position",
                _ => false,
            };
            assert!(
                earlier,
                "{game}: first automatic end {ours:?}, oracle {theirs:?}"
            );
            earlier_dead += 1;
        }
    }
    eprintln!(
        "{name}: {} games equal; {earlier_dead} end earlier by a dead position the oracle cannot see",
        reports.len()
    );
}

#[test]
fn analysis_of_twic1599_agrees_with_the_python_chess_oracle() {
    compare_with_oracle("twic1599");
}

#[test]
fn analysis_of_lichess_2025_05_agrees_with_the_python_chess_oracle() {
    compare_with_oracle("lichess-2025-05");
}

/// Every `step`-th classified position (the full set needs a release build).
// shakmaty's own error type is large; these closures only pass it along.
#[allow(clippy::result_large_err)]
fn check_classified_positions(step: usize) {
    let text = std::fs::read_to_string(format!("{}/dead-positions/cha-positions.txt", data()))
        .expect("positions readable");
    let mut checked = 0;
    let mut inconclusive = Vec::new();
    let mut unreadable = Vec::new();
    let mut fast_misses = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (class, fen) = line.split_at(2);
        let fen = format!("{} 0 1", fen.trim());
        // Some submitted positions are unreachable by shakmaty's strict rules (too much
        // material); chasolver still classifies them, so they are read leniently.
        let position = match position_from_fen(&fen) {
            Ok((position, _)) => position,
            Err(_) => {
                let parsed: Fen = fen.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
                match parsed
                    .into_position::<Chess>(CastlingMode::Standard)
                    .or_else(|e| e.ignore_too_much_material())
                    .or_else(|e| e.ignore_impossible_check())
                {
                    Ok(position) => position,
                    Err(e) => {
                        unreadable.push(format!("{line}: {e}"));
                        continue;
                    }
                }
            }
        };
        let class = class.as_bytes();
        for (color, expected_can) in [
            (Color::White, class[0] == b'W'),
            (Color::Black, class[1] == b'B'),
        ] {
            let fast = mating_potential_with(&position, color, SearchEffort::FastProof).0;
            if !expected_can && fast != MatingPotential::CannotMate {
                fast_misses.push(format!("{color:?} {line}"));
            }
            match mating_potential(&position, color).0 {
                MatingPotential::Inconclusive => inconclusive.push(line.to_string()),
                answer => assert_eq!(
                    answer == MatingPotential::CanMate,
                    expected_can,
                    "{line}: {color:?} mating potential {answer:?}"
                ),
            }
        }
        checked += 1;
    }
    eprintln!(
        "the fast proof alone misses {} of the cannot-mate answers: {:?}",
        fast_misses.len(),
        fast_misses.iter().take(5).collect::<Vec<_>>()
    );
    assert!(checked * step > 3000, "only {checked} positions read");
    assert!(inconclusive.is_empty(), "inconclusive: {inconclusive:?}");
    eprintln!(
        "{checked} classified positions agree; {} not readable by shakmaty: {unreadable:?}",
        unreadable.len()
    );
    assert!(
        unreadable.len() < 20,
        "too many unreadable positions: {unreadable:?}"
    );
}

#[test]
fn mating_potential_agrees_with_every_chasolver_classified_position() {
    check_classified_positions(1);
}

#[test]
fn the_fast_analysis_of_both_game_files_equals_the_full_helpmate_search() {
    for name in ["twic1599", "lichess-2025-05"] {
        let pgn = std::fs::read(format!("{}/games/{name}.pgn", data())).expect("PGN readable");
        let mut fast = Vec::new();
        analyze_games(&pgn[..], |r| fast.push(r.clone())).expect("analysis runs");
        let mut full = Vec::new();
        analyze_games_with_effort(&pgn[..], SearchEffort::Full, |r| full.push(r.clone()))
            .expect("analysis runs");
        assert_eq!(fast.len(), full.len());
        for (a, b) in fast.iter().zip(&full) {
            assert_eq!(a, b, "{name}: fast and full analyses differ");
        }
    }
}
