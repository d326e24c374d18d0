//! The dead-position check after every move (5.2.2) and the proofs that let it skip the
//! helpmate search: a player's helpmate from the position before the move still mates after
//! it, or the players can go back. Each proof is checked against the full search, and the
//! game folded from its log rules as the game that recorded the moves.

use std::ops::ControlFlow;

use arbiter::game::Game;
use arbiter::game::event::{Event, RecordedEvent, ServiceEvent, Side, TimeControlKind};
use arbiter::rules::automatic_end::automatic_end_after;
use arbiter::rules::mating_potential::{
    AfterMoveProof, MateWitness, MatingPotential, dead_position, dead_position_after_move,
    witness_along,
};
use arbiter::rules::move_parsing::{parse_move, position_from_fen};
use arbiter::rules::position_identity::PositionHistory;
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::table::{Table, settings};

fn position(fen: &str) -> Chess {
    position_from_fen(fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .0
}

fn play(position: &Chess, san: &str) -> (Move, Chess) {
    let m = parse_move(position, san, CastlingMode::Standard).expect("a legal move");
    let mut after = position.clone();
    after.play_unchecked(m);
    (m, after)
}

/// Whether `helpmate` is a series of legal moves from `position` ending in checkmate by
/// `side`: checked here with shakmaty alone, independently of the engine.
fn mates(position: &Chess, side: Color, helpmate: &[Move]) -> bool {
    let mut position = position.clone();
    for m in helpmate {
        if !position.is_legal(*m) {
            return false;
        }
        position.play_unchecked(*m);
    }
    position.is_checkmate() && position.turn() != side
}

/// [`mates`] for a line in UCI (the search's line, kept unplayed): each move read in the
/// position it is played from.
fn mates_uci(position: &Chess, side: Color, line: &[UciMove]) -> bool {
    let mut position = position.clone();
    for uci in line {
        let Ok(m) = uci.to_move(&position) else {
            return false;
        };
        position.play_unchecked(m);
    }
    position.is_checkmate() && position.turn() != side
}

fn sans(position: &Chess, sans: &[&str]) -> Vec<Move> {
    let mut position = position.clone();
    sans.iter()
        .map(|san| {
            let (m, after) = play(&position, san);
            position = after;
            m
        })
        .collect()
}

#[test]
fn a_helpmate_found_before_a_pawn_move_still_proves_after_it_that_its_player_can_checkmate() {
    // 1. e4 e5 2. Qh5 Nc6 3. Bc4: White's helpmate is 3... a6 4. Qxf7#.
    let before = position("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3");
    let witness =
        MateWitness::from_helpmate(&before, Color::White, &sans(&before, &["a6", "Qxf7#"]))
            .expect("a6 Qxf7# mates");
    assert!(mates(&before, Color::White, witness.helpmate()));
    // Black plays another pawn move: no way back, but Qxf7# still mates.
    let (m, after) = play(&before, "h6");
    let check = dead_position_after_move(&before, m, &after, Some(&witness));
    assert_eq!(check.proof, AfterMoveProof::Helpmate);
    assert_eq!(check.potential, MatingPotential::CanMate);
    let found = check.witness.expect("a witness after the move");
    assert_eq!(found.side(), Color::White);
    assert_eq!(found.helpmate(), sans(&after, &["Qxf7#"]));
    assert!(mates(&after, Color::White, found.helpmate()));
    assert_eq!(dead_position(&after), MatingPotential::CanMate);
}

#[test]
fn a_helpmate_the_move_spoils_is_not_taken_as_proof_and_the_search_decides() {
    // The same position; 3... g6 blocks the queen's way to f7, so Qxf7# is no longer legal.
    let before = position("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3");
    let witness =
        MateWitness::from_helpmate(&before, Color::White, &sans(&before, &["a6", "Qxf7#"]))
            .expect("a6 Qxf7# mates");
    let (m, after) = play(&before, "g6");
    let check = dead_position_after_move(&before, m, &after, Some(&witness));
    assert_eq!(check.proof, AfterMoveProof::Search);
    assert_eq!(check.potential, MatingPotential::CanMate);
    let found = check
        .witness
        .expect("the search finds a player able to checkmate");
    assert!(mates_uci(&after, found.side(), found.searched_line()));
}

#[test]
fn a_capture_that_leaves_a_knight_alone_is_dead_though_a_helpmate_was_known_before_it() {
    // White: Kb1, Ng5; Black: Kh8, pawn h7. The search proves White can checkmate (the pawn
    // hems the king in); Nxh7 leaves king and knight against king: dead (5.2.2).
    let earlier = position("6k1/7p/8/6N1/8/8/8/1K6 b - - 0 1");
    let (m0, before) = play(&earlier, "Kh8");
    let searched = dead_position_after_move(&earlier, m0, &before, None);
    assert_eq!(searched.proof, AfterMoveProof::Search);
    assert_eq!(searched.potential, MatingPotential::CanMate);
    let witness = searched.witness.expect("a player able to checkmate");
    assert!(
        !witness.searched_line().is_empty(),
        "the search's helpmate is kept"
    );
    assert!(mates_uci(&before, witness.side(), witness.searched_line()));

    let (m, after) = play(&before, "Nxh7");
    let check = dead_position_after_move(&before, m, &after, Some(&witness));
    assert_eq!(check.proof, AfterMoveProof::Search);
    assert_eq!(check.potential, MatingPotential::CannotMate);
    assert_eq!(check.witness, None);
    assert_eq!(dead_position(&after), MatingPotential::CannotMate);
}

#[test]
fn a_witness_whose_helpmate_is_not_a_series_of_legal_moves_proves_nothing() {
    // A helpmate that does not belong to the position (its first move is not legal there)
    // makes no witness; and a witness of another position, handed to the check, does not
    // stand in for the search: king and knight against king is dead.
    let before = position("7k/7p/8/6N1/8/8/8/1K6 w - - 0 1");
    let elsewhere = position("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3");
    let line = sans(&elsewhere, &["a6", "Qxf7#"]);
    assert_eq!(
        MateWitness::from_helpmate(&before, Color::White, &line),
        None
    );
    let other = MateWitness::from_helpmate(&elsewhere, Color::White, &line)
        .expect("a6 Qxf7# mates where it was found");
    let (m, after) = play(&before, "Nxh7");
    let check = dead_position_after_move(&before, m, &after, Some(&other));
    assert_eq!(check.proof, AfterMoveProof::Search);
    assert_eq!(check.potential, MatingPotential::CannotMate);
}

#[test]
fn the_move_a_helpmate_begins_with_leaves_the_rest_of_it_as_the_proof_without_a_search() {
    let before = position("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3");
    let witness =
        MateWitness::from_helpmate(&before, Color::White, &sans(&before, &["a6", "Qxf7#"]))
            .expect("a6 Qxf7# mates");
    let (m, after) = play(&before, "a6");
    let check = dead_position_after_move(&before, m, &after, Some(&witness));
    assert_eq!(check.proof, AfterMoveProof::FollowsHelpmate);
    assert_eq!(check.potential, MatingPotential::CanMate);
    let found = check.witness.expect("a witness after the move");
    assert_eq!(found.helpmate(), sans(&after, &["Qxf7#"]));
    assert_eq!(found.position(), &after);
    assert!(mates(&after, Color::White, found.helpmate()));
}

#[test]
fn the_line_a_search_returned_is_played_through_when_the_game_follows_it_and_kept_as_checked() {
    // Given a search after 1. e4 (White can checkmate; the line it returned is kept as it
    // came, not played through)
    let start = Chess::default();
    let (m0, before) = play(&start, "e4");
    let searched = dead_position_after_move(&start, m0, &before, None);
    assert_eq!(searched.proof, AfterMoveProof::Search);
    let witness = searched.witness.expect("a player able to checkmate");
    assert!(witness.helpmate().is_empty());
    let line = witness.searched_line().to_vec();
    assert!(line.len() > 2, "{line:?}");
    // When the game plays the line's first move
    let first = line[0]
        .to_move(&before)
        .expect("the line's first move is legal");
    let mut after = before.clone();
    after.play_unchecked(first);
    let check = dead_position_after_move(&before, first, &after, Some(&witness));
    // Then the rest of it, played through, is the proof, and kept as a checked helpmate
    assert_eq!(check.proof, AfterMoveProof::FollowsHelpmate);
    let found = check.witness.expect("a witness after the move");
    assert!(found.searched_line().is_empty());
    assert_eq!(found.helpmate().len(), line.len() - 1);
    assert!(mates(&after, found.side(), found.helpmate()));
}

#[test]
fn after_a_capture_the_search_looks_past_the_recapture_and_the_recapture_needs_no_search() {
    // Given 1. e4 d5 2. exd5: the check after the capture searches from the position after
    // the likeliest recapture, 2... Qxd5
    let start = Chess::default();
    let line = sans(&start, &["e4", "d5"]);
    let mut before = start.clone();
    for m in &line {
        before.play_unchecked(*m);
    }
    let (capture, after) = play(&before, "exd5");
    let check = dead_position_after_move(&before, capture, &after, None);
    assert_eq!(check.proof, AfterMoveProof::Search);
    assert_eq!(check.potential, MatingPotential::CanMate);
    let witness = check.witness.expect("a player able to checkmate");
    let (recapture, recaptured) = play(&after, "Qxd5");
    assert_eq!(
        witness.searched_line().first(),
        Some(&recapture.to_uci(CastlingMode::Standard))
    );
    assert!(mates_uci(&after, witness.side(), witness.searched_line()));
    // When the game recaptures so, the rest of that line is the proof: no search
    let next = dead_position_after_move(&after, recapture, &recaptured, Some(&witness));
    assert_eq!(next.proof, AfterMoveProof::FollowsHelpmate);
    let found = next.witness.expect("a witness after the recapture");
    assert!(mates(&recaptured, found.side(), found.helpmate()));
    // And a move other than that recapture is checked as any other move
    let (other, elsewhere) = play(&after, "Nf6");
    let other_check = dead_position_after_move(&after, other, &elsewhere, Some(&witness));
    assert_ne!(other_check.proof, AfterMoveProof::FollowsHelpmate);
    assert_eq!(other_check.potential, MatingPotential::CanMate);
}

#[test]
fn a_recapture_that_leaves_the_kings_alone_does_not_hide_that_the_capture_left_a_live_position() {
    // White: Kb1, Qf5; Black: Kg7, Nf6. 1. Qxf6+ leaves king and queen against king (live);
    // the likeliest recapture, Kxf6, would leave the kings alone (dead, 5.2.2).
    let before = position("8/6k1/5n2/5Q2/8/8/8/1K6 w - - 0 1");
    let (capture, after) = play(&before, "Qxf6+");
    let check = dead_position_after_move(&before, capture, &after, None);
    assert_eq!(check.proof, AfterMoveProof::Search);
    assert_eq!(check.potential, MatingPotential::CanMate);
    assert_eq!(dead_position(&after), MatingPotential::CanMate);
    let (recapture, recaptured) = play(&after, "Kxf6");
    let next = dead_position_after_move(&after, recapture, &recaptured, check.witness.as_ref());
    assert_eq!(next.potential, MatingPotential::CannotMate);
}

#[test]
fn a_move_the_helpmate_makes_later_is_taken_out_of_it_and_the_rest_reordered_still_mates() {
    // White's helpmate 4. d3 a6 5. Bd2 b6 6. Qxf7#... written so that the bishop's move comes
    // second: when White plays it first, Black's a6 and White's d3 change places.
    let before = position("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    let line = sans(&before, &["d3", "a6", "Kd1", "b6", "Qxf7#"]);
    let witness = MateWitness::from_helpmate(&before, Color::White, &line).expect("the line mates");
    let (m, after) = play(&before, "Kd1");
    let check = dead_position_after_move(&before, m, &after, Some(&witness));
    assert_eq!(check.proof, AfterMoveProof::Helpmate);
    let found = check.witness.expect("a witness after the move");
    assert_eq!(found.helpmate(), sans(&after, &["a6", "d3", "b6", "Qxf7#"]));
    assert!(mates(&after, Color::White, found.helpmate()));
}

#[test]
fn a_line_of_moves_ending_where_a_player_can_checkmate_proves_it_from_its_start() {
    let start = Chess::default();
    let line = sans(&start, &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]);
    let witness = witness_along(&start, &line).expect("the game is live after 3... Nf6");
    assert_eq!(&witness.helpmate()[..line.len()], &line[..]);
    assert!(mates(&start, witness.side(), witness.helpmate()));
    // Each move of the line is then proven live by the rest of it, with no search.
    let (mut before, mut witness) = (start.clone(), Some(witness));
    for m in &line {
        let (_, after) = play(
            &before,
            &shakmaty::san::San::from_move(&before, *m).to_string(),
        );
        let check = dead_position_after_move(&before, *m, &after, witness.as_ref());
        assert_eq!(check.proof, AfterMoveProof::FollowsHelpmate);
        (before, witness) = (after, check.witness);
    }
    // A line that ends in checkmate is its own proof.
    let mated = sans(&start, &["f3", "e5", "g4", "Qh4#"]);
    let witness = witness_along(&start, &mated).expect("mate");
    assert_eq!(
        (witness.side(), witness.helpmate()),
        (Color::Black, &mated[..])
    );
    // A line into a dead position proves nothing: king and knight against king.
    let before = position("7k/7p/8/6N1/8/8/8/1K6 w - - 0 1");
    let dead = sans(&before, &["Nxh7", "Kxh7"]);
    assert_eq!(witness_along(&before, &dead), None);
}

#[test]
fn after_a_quiet_piece_move_the_way_back_proves_the_player_can_still_checkmate() {
    // A knight move White can take back after a quiet reply: no search. The helpmate from
    // before the move (Qxf7#) is not one after it, so none is kept.
    let (_, before) = play(
        &position("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"),
        "a6",
    );
    let witness = MateWitness::from_helpmate(&before, Color::White, &sans(&before, &["Qxf7#"]))
        .expect("Qxf7# mates");
    let (m, after) = play(&before, "Nf3");
    let check = dead_position_after_move(&before, m, &after, Some(&witness));
    assert_eq!(check.proof, AfterMoveProof::WayBack);
    assert_eq!(check.potential, MatingPotential::CanMate);
    let found = check.witness.expect("a witness after the move");
    assert_eq!(found.side(), Color::White);
    assert!(found.helpmate().is_empty());
    assert_eq!(dead_position(&after), MatingPotential::CanMate);
}

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

pub(crate) fn games(name: &str) -> Vec<Vec<String>> {
    let pgn = std::fs::read(crate::shared::shared(&format!("data/games/{name}.pgn")))
        .expect("PGN readable");
    let mut reader = Reader::new(&pgn[..]);
    let mut games = Vec::new();
    while let Some(moves) = reader.read_game(&mut Moves).expect("PGN reads") {
        games.push(moves);
    }
    games
}

#[test]
fn the_check_after_every_move_of_both_game_files_agrees_with_the_full_helpmate_search() {
    // Every move of every game, with the witness handed from move to move as `Game::record`
    // hands it: a position is called dead exactly when the full search of both players
    // calls it dead, and every helpmate kept as a witness mates from its position.
    let mut proofs = std::collections::HashMap::new();
    for name in ["twic1599", "lichess-2025-05"] {
        for (index, sans) in games(name).iter().enumerate() {
            let mut history = PositionHistory::new(Chess::default());
            let mut witness: Option<MateWitness> = None;
            for (ply, san) in sans.iter().enumerate() {
                let before = history.current().clone();
                let (m, after) = play(&before, san);
                let end = automatic_end_after(&history, &after, |position| {
                    let check = dead_position_after_move(&before, m, position, witness.as_ref());
                    let full = dead_position(position);
                    assert_eq!(
                        check.potential == MatingPotential::CannotMate,
                        full == MatingPotential::CannotMate,
                        "{name} game {index} ply {}: {:?} by {:?}, the full search says {full:?}",
                        ply + 1,
                        check.potential,
                        check.proof
                    );
                    if let Some(found) = &check.witness {
                        assert!(
                            found.helpmate().is_empty()
                                || mates(position, found.side(), found.helpmate()),
                            "{name} game {index} ply {}: the helpmate kept does not mate",
                            ply + 1
                        );
                        assert!(
                            found.searched_line().is_empty()
                                || mates_uci(position, found.side(), found.searched_line()),
                            "{name} game {index} ply {}: the searched line kept does not mate",
                            ply + 1
                        );
                        assert!(
                            found.helpmate().is_empty() || found.searched_line().is_empty(),
                            "{name} game {index} ply {}: a witness keeps one line",
                            ply + 1
                        );
                    }
                    *proofs.entry(check.proof).or_insert(0) += 1;
                    witness = check.witness;
                    check.potential == MatingPotential::CannotMate
                });
                if end.is_some() {
                    break;
                }
                history.play(m);
            }
        }
    }
    // The proofs that skip the search are exercised by the games.
    assert!(
        proofs.get(&AfterMoveProof::Helpmate).copied().unwrap_or(0) > 1000,
        "{proofs:?}"
    );
    assert!(
        proofs.get(&AfterMoveProof::WayBack).copied().unwrap_or(0) > 1000,
        "{proofs:?}"
    );
}

#[test]
fn a_game_folded_from_its_log_rules_on_the_next_moves_as_the_game_that_recorded_them() {
    // twic1599 games that end by a dead position (5.2.2): the recording game carries a
    // witness from move to move, the folded one starts without; every later move is ruled
    // alike, the dead position included.
    let games = games("twic1599");
    for index in [1, 66, 827, 870] {
        let sans = &games[index];
        for fold_at in [40, sans.len() - 12] {
            let mut recorded = Table::with_settings(settings(None, TimeControlKind::Standard));
            recorded.play_all(&sans[..fold_at]);
            let mut folded =
                Game::new(&settings(None, TimeControlKind::Standard)).expect("settings");
            for (seq, event) in &recorded.log {
                folded.apply(*seq, event).expect("stored events apply");
            }
            for san in &sans[fold_at..] {
                let by: Side = recorded.game.position().turn().into();
                let event = RecordedEvent::Move {
                    by,
                    san: san.clone(),
                };
                let seq = recorded.seq + 1;
                let on_folded = folded.record(seq, &event);
                let on_recorded = recorded.record(event);
                assert_eq!(
                    on_folded, on_recorded,
                    "game {index}, folded at ply {fold_at}, {san}"
                );
                let ended = on_recorded.is_ok_and(|decisions| {
                    decisions
                        .iter()
                        .any(|decision| matches!(decision, ServiceEvent::GameEnded { .. }))
                });
                if ended {
                    break;
                }
            }
            assert!(
                recorded.game.is_over(),
                "game {index} ends by itself after ply {fold_at}"
            );
            assert_eq!(folded.view(), recorded.game.view(), "game {index}");
        }
    }
}

#[test]
fn moves_recorded_in_long_appends_are_ruled_as_the_same_moves_recorded_one_at_a_time() {
    // The service tells the game an append's moves before recording them (`look_ahead`):
    // one search at the end of the run stands for one per move. The games that end by a
    // dead position (5.2.2) inside a run, and the first games of the file, recorded in runs
    // of 7 and of 100 moves, get the same answers to the same moves as one move at a time.
    let games = games("twic1599");
    let mover = |table: &Table, san: &String| RecordedEvent::Move {
        by: table.game.position().turn().into(),
        san: san.clone(),
    };
    for index in [1, 66, 827, 870].into_iter().chain(0..40) {
        let sans = &games[index];
        let mut one_by_one = Table::with_settings(settings(None, TimeControlKind::Standard));
        let singles: Vec<_> = sans
            .iter()
            .map(|san| one_by_one.record(mover(&one_by_one, san)))
            .collect();
        for run in [7, 100] {
            let mut appended = Table::with_settings(settings(None, TimeControlKind::Standard));
            let mut answers = Vec::new();
            for chunk in sans.chunks(run) {
                // The append's events as a client sends them: each move by the player whose
                // turn it will be.
                let mut position = appended.game.position().clone();
                let events: Vec<Event> = chunk
                    .iter()
                    .map_while(|san| {
                        let by = position.turn().into();
                        let m = parse_move(&position, san, CastlingMode::Standard).ok()?;
                        position.play_unchecked(m);
                        Some(Event::Recorded(RecordedEvent::Move {
                            by,
                            san: san.clone(),
                        }))
                    })
                    .collect();
                appended.game.look_ahead(&events);
                for san in chunk {
                    answers.push(appended.record(mover(&appended, san)));
                }
            }
            assert_eq!(answers, singles, "game {index} in runs of {run}");
            assert_eq!(
                appended.game.view(),
                one_by_one.game.view(),
                "game {index} in runs of {run}"
            );
        }
    }
}
