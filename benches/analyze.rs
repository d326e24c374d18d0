//! Benchmarks: the analyser over twic1599.pgn in plies per second, and the time to rule on a
//! claim in a 300-ply game.

use std::ops::ControlFlow;

use arbiter::analyze::analyze_games;
use arbiter::game::Game;
use arbiter::game::event::{
    ClaimKind, Event, GameSettings, LawsEdition, Player, RecordedEvent, Regulations, ServiceEvent,
    Side, TimeControl, TimeControlKind,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgn_reader::{Reader, SanPlus, Visitor};
use shakmaty::Position;

/// twic1599.pgn: in `../shared` beside the repository, or the copy in `tests/shared`.
fn twic() -> std::path::PathBuf {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let beside = root.join("../shared/data/games/twic1599.pgn");
    if beside.exists() {
        beside
    } else {
        root.join("tests/shared/data/games/twic1599.pgn")
    }
}

fn analyse_twic(c: &mut Criterion) {
    let pgn = std::fs::read(twic()).expect("twic1599.pgn is readable");
    let summary = analyze_games(&pgn[..], |_| {}).expect("analysis runs");
    let mut group = c.benchmark_group("analyze");
    group.throughput(Throughput::Elements(summary.plies as u64));
    group.sample_size(20);
    group.bench_function("twic1599_plies", |b| {
        b.iter(|| analyze_games(&pgn[..], |_| {}).expect("analysis runs"))
    });
    group.finish();
}

struct SanCollector;

impl Visitor for SanCollector {
    type Tags = ();
    type Movetext = Vec<String>;
    type Output = Vec<String>;

    fn begin_tags(&mut self) -> ControlFlow<Vec<String>, ()> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Vec<String>, Vec<String>> {
        ControlFlow::Continue(Vec::new())
    }

    fn san(&mut self, moves: &mut Vec<String>, san_plus: SanPlus) -> ControlFlow<Vec<String>> {
        moves.push(san_plus.san.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, moves: Vec<String>) -> Vec<String> {
        moves
    }
}

/// A game of 300 plies: the first 300 half-moves of the longest game in twic1599.pgn.
fn game_of_300_plies() -> (Game, u64) {
    let pgn = std::fs::read(twic()).expect("twic1599.pgn is readable");
    let mut reader = Reader::new(&pgn[..]);
    let mut longest = Vec::new();
    while let Some(moves) = reader.read_game(&mut SanCollector).expect("PGN reads") {
        if moves.len() > longest.len() {
            longest = moves;
        }
    }
    assert!(
        longest.len() >= 300,
        "the longest game has {} plies",
        longest.len()
    );
    let settings = GameSettings {
        white: Player {
            name: "White".into(),
            fide_id: None,
        },
        black: Player {
            name: "Black".into(),
            fide_id: None,
        },
        event: "Bench".into(),
        round: "1".into(),
        board: None,
        site: None,
        start_fen: None,
        date: None,
        start_moves_completed: None,
        start_clocks: None,
        time_control: TimeControl::from_legacy(TimeControlKind::Standard, 5_400_000, 0),
        clock_behaviour: Default::default(),
        laws_edition: LawsEdition::Y2023,
        regulations: Regulations::default(),
    };
    let mut game = Game::new(&settings).expect("settings");
    game.apply(
        1,
        &Event::Service(ServiceEvent::GameCreated(Box::new(settings))),
    )
    .expect("created");
    let mut seq = 1;
    for san in &longest[..300] {
        seq += 1;
        let by: Side = game.position().turn().into();
        game.apply(
            seq,
            &Event::Recorded(RecordedEvent::Move {
                by,
                san: san.clone(),
            }),
        )
        .expect("move applies");
    }
    (game, seq)
}

fn rule_on_claim(c: &mut Criterion) {
    let (game, seq) = game_of_300_plies();
    let by: Side = game.position().turn().into();
    let claim = RecordedEvent::Claim {
        by,
        kind: ClaimKind::Repetition,
        intended_move: None,
    };
    let legal = game.position().legal_moves();
    let intended = shakmaty::san::San::from_move(game.position(), legal[0]).to_string();
    let claim_with_move = RecordedEvent::Claim {
        by,
        kind: ClaimKind::Repetition,
        intended_move: Some(intended),
    };
    let mut group = c.benchmark_group("claim_300_plies");
    group.bench_function("repetition_has_just_appeared", |b| {
        b.iter(|| game.decide(seq + 1, &claim).expect("decided"))
    });
    group.bench_function("repetition_intended_move", |b| {
        b.iter(|| game.decide(seq + 1, &claim_with_move).expect("decided"))
    });
    let next_move = RecordedEvent::Move {
        by,
        san: shakmaty::san::San::from_move(game.position(), legal[0]).to_string(),
    };
    group.bench_function("decide_move_with_dead_position_check", |b| {
        b.iter(|| game.decide(seq + 1, &next_move).expect("decided"))
    });
    group.finish();
}

criterion_group!(benches, analyse_twic, rule_on_claim);
criterion_main!(benches);
