//! The engine's cost per recorded move: every main-line move of every game of the PGN files
//! recorded through `Game::record`, the path the service's warm-state append uses
//! (`Game::record_with_clock` in `src/app/arbitration.rs`), each call timed alone.
//!
//! Prints, per file and for all files, the number of moves recorded, the mean, median, p90,
//! p99, p99.9 and maximum cost, then how the dead-position check after each move (5.2.2) was
//! answered (`rules::mating_potential::dead_position_after_move`, replayed with the same
//! inputs the game gives it): the share of moves that ran the helpmate search, and the mean
//! cost of the check by way of answering.
//!
//! Then the same moves again in appends of 100 (`--appends N`), each append's moves told to
//! the game before they are recorded (`Game::look_ahead`, as the service's append does): the
//! cost per move, the look-ahead's counted with each append's first move.
//!
//! With `--upstream`, then the helpmate search alone on the positions where the check ran it
//! (the witness's player first, as the check asks): the service's chasolver
//! (`vendor/chasolver-arbiter`) and chasolver 3.0.0 as published, three rounds interleaved,
//! the mean per search of each.
//!
//! `cargo run --release --example bench_engine [-- [--appends N] [--upstream] FILE.pgn ...]`; without files, every
//! `*.pgn` of `../shared/data/games` (or `tests/shared/data/games`). `scripts/bench-engine.sh`
//! runs it three times.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use arbiter::game::Game;
use arbiter::game::event::{
    Event, GameSettings, LawsEdition, Player, RecordedEvent, Regulations, ServiceEvent, Side,
    TimeControl, TimeControlKind,
};
use arbiter::rules::automatic_end::automatic_end_after;
use arbiter::rules::mating_potential::{
    AfterMoveProof, MateWitness, MatingPotential, dead_position_after_move,
};
use arbiter::rules::move_parsing::parse_move;
use arbiter::rules::position_identity::PositionHistory;
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// The main-line SAN of every game of a PGN file.
struct Moves;

impl Visitor for Moves {
    type Tags = ();
    type Movetext = Vec<String>;
    type Output = Vec<String>;

    fn begin_tags(&mut self) -> ControlFlow<Vec<String>, ()> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), _: &[u8], _: RawTag<'_>) -> ControlFlow<Vec<String>> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<Vec<String>, Vec<String>> {
        ControlFlow::Continue(Vec::new())
    }

    fn san(&mut self, moves: &mut Vec<String>, san: SanPlus) -> ControlFlow<Vec<String>> {
        moves.push(san.san.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, moves: Vec<String>) -> Vec<String> {
        moves
    }
}

fn settings() -> GameSettings {
    GameSettings {
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
    }
}

fn games(path: &Path) -> Vec<Vec<String>> {
    let pgn = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = Reader::new(&pgn[..]);
    let mut games = Vec::new();
    while let Some(moves) = reader.read_game(&mut Moves).expect("PGN reads") {
        games.push(moves);
    }
    games
}

/// What one file's games cost.
#[derive(Default)]
struct Figures {
    games: usize,
    /// The cost of each recorded move.
    costs: Vec<Duration>,
    /// Moves after the game had ended by itself (refused, not timed).
    after_the_end: usize,
    /// How the check after each move was answered: count and total cost of the check alone.
    proofs: BTreeMap<&'static str, (usize, Duration)>,
    /// Moves after which the check did not run (mate or stalemate on the board).
    unchecked: usize,
    /// The positions where the check ran the helpmate search, with the player it searched
    /// for first (as FEN, for the `chess` crate's board).
    searched: Vec<(String, chess::Color)>,
}

/// Records every move of `games` through `Game::record`, timing each call; with `run` above
/// one, the moves come in appends of `run` moves, each told to the game first
/// (`Game::look_ahead`, as the service's append does), whose cost is counted with the
/// append's first move.
fn record_all(games: &[Vec<String>], run: usize, figures: &mut Figures) {
    let settings = settings();
    for sans in games {
        figures.games += 1;
        let mut game = Game::new(&settings).expect("settings");
        game.apply(
            1,
            &Event::Service(ServiceEvent::GameCreated(Box::new(settings.clone()))),
        )
        .expect("created");
        let mut seq = 1;
        let mut told = Duration::ZERO;
        for (ply, san) in sans.iter().enumerate() {
            if game.is_over() {
                figures.after_the_end += sans.len() - ply;
                break;
            }
            if run > 1 && ply % run == 0 {
                let events = append_of(game.position(), &sans[ply..sans.len().min(ply + run)]);
                let start = Instant::now();
                game.look_ahead(&events);
                told = start.elapsed();
            }
            seq += 1;
            let by: Side = game.position().turn().into();
            let event = RecordedEvent::Move {
                by,
                san: san.clone(),
            };
            let start = Instant::now();
            let decisions = game.record(seq, &event);
            figures
                .costs
                .push(start.elapsed() + std::mem::take(&mut told));
            let decisions = decisions.unwrap_or_else(|refusal| panic!("{san}: {refusal}"));
            seq += decisions.len() as u64;
        }
    }
}

/// The events of an append of `sans` from `position`, each move by the player to move.
fn append_of(position: &Chess, sans: &[String]) -> Vec<Event> {
    let mut position = position.clone();
    sans.iter()
        .map_while(|san| {
            let by: Side = position.turn().into();
            let m = parse_move(&position, san, CastlingMode::Standard).ok()?;
            position.play_unchecked(m);
            Some(Event::Recorded(RecordedEvent::Move {
                by,
                san: san.clone(),
            }))
        })
        .collect()
}

/// Replays the dead-position check after each move as `Game::record` runs it (the same
/// function, the same witness handed from one move to the next), timing the check alone.
fn replay_checks(games: &[Vec<String>], figures: &mut Figures) {
    for sans in games {
        let mut history = PositionHistory::new(Chess::default());
        let mut witness = None;
        for san in sans {
            let before = history.current().clone();
            let m = parse_move(&before, san, CastlingMode::Standard).expect("legal move");
            let mut after = before.clone();
            after.play_unchecked(m);
            let mut checked = None;
            let first = witness
                .as_ref()
                .map_or(shakmaty::Color::White, MateWitness::side);
            let end = automatic_end_after(&history, &after, |position| {
                let start = Instant::now();
                let check = dead_position_after_move(&before, m, position, witness.as_ref());
                checked = Some((check.proof.name(), start.elapsed()));
                if check.proof == AfterMoveProof::Search {
                    let fen = Fen::from_position(position, EnPassantMode::Legal).to_string();
                    let first = match first {
                        shakmaty::Color::White => chess::Color::White,
                        shakmaty::Color::Black => chess::Color::Black,
                    };
                    figures.searched.push((fen, first));
                }
                witness = check.witness;
                check.potential == MatingPotential::CannotMate
            });
            match checked {
                Some((proof, cost)) => {
                    let entry = figures.proofs.entry(proof).or_default();
                    entry.0 += 1;
                    entry.1 += cost;
                }
                None => figures.unchecked += 1,
            }
            if end.is_some() {
                break;
            }
            history.play(m);
        }
    }
}

/// The helpmate search alone on `positions`, the service's chasolver against the published
/// one, `ROUNDS` rounds interleaved (the same answers: `tests/rules/helpmate_search_patch.rs`).
fn compare_with_upstream(name: &str, positions: &[(String, chess::Color)]) {
    const ROUNDS: usize = 3;
    let boards: Vec<(chess::Board, chess::Color)> = positions
        .iter()
        .map(|(fen, first)| (chess::Board::from_str(fen).expect("a board"), *first))
        .collect();
    let n = boards.len().max(1) as f64;
    println!(
        "{name}: the helpmate search alone, {} positions where the check ran it",
        boards.len()
    );
    for round in 1..=ROUNDS {
        let start = Instant::now();
        for (board, first) in &boards {
            std::hint::black_box(chasolver_upstream::winnability(board, *first));
        }
        let upstream = micros(start.elapsed()) / n;
        let start = Instant::now();
        for (board, first) in &boards {
            std::hint::black_box(chasolver::winnability(board, *first));
        }
        let ours = micros(start.elapsed()) / n;
        println!(
            "  round {round}: chasolver 3.0.0 {upstream:.2} µs a search, vendor/chasolver-arbiter {ours:.2} µs ({:.2}x)",
            ours / upstream
        );
    }
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn report(name: &str, figures: &Figures) {
    let mut costs = figures.costs.clone();
    costs.sort_unstable();
    let n = costs.len();
    let total: Duration = costs.iter().sum();
    let at = |q: f64| micros(costs[((n as f64 * q).ceil() as usize).clamp(1, n) - 1]);
    println!(
        "{name}: {} games, {n} moves recorded ({} after an automatic end not recorded)",
        figures.games, figures.after_the_end
    );
    println!(
        "  per move: mean {:.2} µs, median {:.2} µs, p90 {:.2} µs, p99 {:.1} µs, p99.9 {:.1} µs, max {:.1} µs (total {:.3} s)",
        micros(total) / n as f64,
        at(0.5),
        at(0.9),
        at(0.99),
        at(0.999),
        micros(costs[n - 1]),
        total.as_secs_f64()
    );
    if figures.proofs.is_empty() {
        return;
    }
    let checked: usize = figures.proofs.values().map(|(count, _)| count).sum();
    let searched = figures.proofs.get("search").map_or(0, |(count, _)| *count);
    println!(
        "  dead-position check (5.2.2): {checked} checks, {searched} ran the helpmate search ({:.2} % of moves); {} moves ended on the board (mate, stalemate)",
        100.0 * searched as f64 / n as f64,
        figures.unchecked
    );
    for (proof, (count, cost)) in &figures.proofs {
        println!(
            "    {proof:<10} {count:>7} checks ({:>6.2} %), mean {:>8.2} µs, total {:.3} s",
            100.0 * *count as f64 / n as f64,
            micros(*cost) / *count as f64,
            cost.as_secs_f64()
        );
    }
}

fn default_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let beside = root.join("../shared/data/games");
    let dir = if beside.exists() {
        beside
    } else {
        root.join("tests/shared/data/games")
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "pgn"))
        .collect();
    files.sort();
    files
}

fn main() {
    // `--appends N` (default 100): the size of the appends in the second measurement.
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut run = 100;
    let upstream = args.iter().any(|arg| arg == "--upstream");
    args.retain(|arg| arg != "--upstream");
    if let Some(at) = args.iter().position(|arg| arg == "--appends") {
        run = args
            .get(at + 1)
            .and_then(|n| n.parse().ok())
            .filter(|n| *n > 1)
            .expect("--appends takes a number above 1");
        args.drain(at..at + 2);
    }
    let args: Vec<PathBuf> = args.into_iter().map(PathBuf::from).collect();
    let files = if args.is_empty() {
        default_files()
    } else {
        args
    };
    let mut all = Figures::default();
    let mut all_appended = Figures::default();
    for file in &files {
        let games = games(file);
        let name = file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        let mut figures = Figures::default();
        record_all(&games, 1, &mut figures);
        replay_checks(&games, &mut figures);
        report(&format!("{name}, one move per append"), &figures);
        if upstream {
            compare_with_upstream(&name, &figures.searched);
        }
        let mut appended = Figures::default();
        record_all(&games, run, &mut appended);
        report(&format!("{name}, appends of {run} moves"), &appended);
        all.add(figures);
        all_appended.add(appended);
    }
    if files.len() > 1 {
        report("all files, one move per append", &all);
        report(&format!("all files, appends of {run} moves"), &all_appended);
    }
}

impl Figures {
    fn add(&mut self, figures: Figures) {
        self.games += figures.games;
        self.costs.extend(figures.costs);
        self.after_the_end += figures.after_the_end;
        self.unchecked += figures.unchecked;
        self.searched.extend(figures.searched);
        for (proof, (count, cost)) in figures.proofs {
            let entry = self.proofs.entry(proof).or_default();
            entry.0 += count;
            entry.1 += cost;
        }
    }
}
