//! The reader and the writer checked against a real tournament's file and the format's codes.

use super::*;

const GROS: &str = include_str!("../../../tests/data/gros-2010.trf");

#[test]
fn every_player_line_of_the_real_tournament_is_written_back_identical() {
    let report = read_report(GROS).expect("readable");
    assert_eq!(report.players.len(), 52);
    let original: Vec<&str> = GROS
        .lines()
        .filter(|l| l.starts_with("001"))
        .map(str::trim_end)
        .collect();
    let written = write_report(&report, TrfVersion::Trf16);
    let ours: Vec<&str> = written.lines().filter(|l| l.starts_with("001")).collect();
    assert_eq!(ours.len(), original.len());
    for (ours, original) in ours.iter().zip(&original) {
        assert_eq!(ours, original);
    }
}

#[test]
fn the_header_of_the_real_tournament_is_read_and_written() {
    let report = read_report(GROS).expect("readable");
    let header = &report.tournament;
    assert_eq!(header.name, "XX Open Internacional de Gros");
    assert_eq!(header.city.as_deref(), Some("Donostia"));
    assert_eq!(
        header.chief_arbiter.as_deref(),
        Some("IA Mikel Larreategi Arana (22232540)")
    );
    assert!(header.deputies.is_empty());
    assert_eq!(header.rounds, Some(9));
    let written = write_report(&report, TrfVersion::Trf16);
    assert!(written.starts_with("012 XX Open Internacional de Gros\r\n022 Donostia\r\n"));
    assert!(written.contains("\r\n062 52\r\n072 41\r\n"));
    assert!(written.contains("\r\n102 IA Mikel Larreategi Arana (22232540)\r\n"));
    assert!(written.ends_with("\r\n"));
    assert!(!written.contains("\r\n142 "), "TRF-16 has no 142");
}

#[test]
fn the_real_tournament_scores_as_its_file_says() {
    let report = read_report(GROS).expect("readable");
    let mut players = report.players.clone();
    score(&mut players);
    for (scored, original) in players.iter().zip(&report.players) {
        assert_eq!(
            scored.half_points, original.half_points,
            "{}",
            original.name
        );
    }
    // Ranks: the file's come from tie-breaks; ours share the rank on equal points.
    assert_eq!(players[0].rank, Some(1));
    assert_eq!(players[1].rank, Some(1));
    assert_eq!(players[2].rank, Some(3));
}

#[test]
fn trf26_writes_titles_rounds_time_control_and_bye_records() {
    let mut report = read_report(GROS).expect("readable");
    report.tournament.encoded_time_control = Some(encoded_time_control(5_400_000, 30_000));
    let written = write_report(&report, TrfVersion::Trf26);
    assert!(
        written.contains("\r\n142 9\r\n222 5400+30\r\n"),
        "{written}"
    );
    let first = written
        .lines()
        .find(|l| l.starts_with("001"))
        .expect("a player");
    assert_eq!(&first[9..13], "m GM");
    // Round 3: 14, 16, 29, 35, 36, 39, 45, 47 half-point byes; round 5: 28 and 22 absent.
    assert!(
        written.contains("\r\n240 H 003   14   16   29   35   36   38   39   45   47\r\n"),
        "{written}"
    );
    assert!(written.contains("\r\n240 Z 005   22   28\r\n"), "{written}");
    let again = read_report(&written).expect("readable again");
    let untitled = |players: &[TrfPlayer]| {
        players
            .iter()
            .map(|p| TrfPlayer {
                title: String::new(),
                ..p.clone()
            })
            .collect::<Vec<_>>()
    };
    assert!(untitled(&again.players) == untitled(&report.players));
    assert_eq!(again.players[1].title, "IM");
    assert_eq!(again.tournament.rounds, Some(9));
}

#[test]
fn a_double_forfeit_and_games_of_less_than_one_move_are_written_with_their_codes() {
    let round = |opponent, colour, result| TrfRound {
        opponent: Some(opponent),
        colour,
        result,
    };
    let mut players = vec![
        TrfPlayer {
            start_number: 1,
            name: "One".into(),
            rounds: vec![
                round(2, TrfColour::White, TrfResult::ForfeitLoss),
                round(2, TrfColour::Black, TrfResult::UnratedWin),
            ],
            ..TrfPlayer::default()
        },
        TrfPlayer {
            start_number: 2,
            name: "Two".into(),
            rounds: vec![
                round(1, TrfColour::Black, TrfResult::ForfeitLoss),
                round(1, TrfColour::White, TrfResult::UnratedLoss),
            ],
            ..TrfPlayer::default()
        },
    ];
    score(&mut players);
    let report = TrfReport {
        tournament: TrfTournament {
            name: "Test".into(),
            ..TrfTournament::default()
        },
        players,
    };
    let written = write_report(&report, TrfVersion::Trf16);
    let lines: Vec<&str> = written.lines().filter(|l| l.starts_with("001")).collect();
    assert_eq!(&lines[0][80..], " 1.0    1     2 w -     2 b W");
    assert_eq!(&lines[1][80..], " 0.0    2     1 b -     1 w L");
}

#[test]
fn a_result_code_that_is_not_one_is_named_with_its_column() {
    let line = format!("{:<91}   2 w X", "001    1 m    A");
    let error = read_report(&line).expect_err("refused");
    assert!(error.0.contains("columns 99-99"), "{error}");
}
