//! The live engine against the python-chess oracle: every game of shared/data/games recorded
//! move by move through `Game::record`, as the service records it, must end by itself exactly
//! where and why the oracle says the first automatic end is (or not at all). The analyser's
//! comparison (tests/rules/oracle.rs) covers the same `automatic_end` from the other side.

use std::ops::ControlFlow;

use arbiter::game::event::{RecordedEvent, ServiceEvent, Side, Termination, TimeControlKind};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use serde_json::Value;

use crate::table::{Table, settings};

/// The main-line SAN of every game of a PGN file.
struct Moves {
    games: Vec<Vec<String>>,
}

impl Visitor for Moves {
    type Tags = ();
    type Movetext = Vec<String>;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), _: &[u8], _: RawTag<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), Vec<String>> {
        ControlFlow::Continue(Vec::new())
    }

    fn san(&mut self, moves: &mut Vec<String>, san: SanPlus) -> ControlFlow<()> {
        moves.push(san.san.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, moves: Vec<String>) {
        self.games.push(moves);
    }
}

fn termination_of(reason: &str) -> Termination {
    match reason {
        "checkmate" => Termination::Checkmate,
        "stalemate" => Termination::Stalemate,
        "insufficient_material" => Termination::DeadPosition,
        "fivefold_repetition" => Termination::FivefoldRepetition,
        "seventyfive_moves" => Termination::SeventyFiveMoves,
        other => panic!("unknown oracle reason {other}"),
    }
}

fn compare(name: &str) {
    let data = crate::shared::shared("data");
    let pgn = std::fs::read(data.join(format!("games/{name}.pgn"))).expect("PGN readable");
    let oracle: Vec<Value> = std::fs::read_to_string(data.join(format!("oracle/{name}.jsonl")))
        .expect("oracle readable")
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    let mut moves = Moves { games: Vec::new() };
    let mut reader = Reader::new(&pgn[..]);
    while reader.read_game(&mut moves).expect("PGN reads").is_some() {}
    assert_eq!(moves.games.len(), oracle.len(), "{name}: games");
    for (index, (sans, expected)) in moves.games.iter().zip(&oracle).enumerate() {
        let mut table = Table::with_settings(settings(None, TimeControlKind::Standard));
        let mut ended = None;
        for (ply, san) in sans.iter().enumerate() {
            let by: Side = if ply % 2 == 0 {
                Side::White
            } else {
                Side::Black
            };
            let decisions = table
                .record(RecordedEvent::Move {
                    by,
                    san: san.clone(),
                })
                .unwrap_or_else(|refusal| panic!("{name} game {index} ply {}: {refusal}", ply + 1));
            if let Some(ServiceEvent::GameEnded {
                termination,
                evidence,
                ..
            }) = decisions.first()
            {
                let at = evidence
                    .as_ref()
                    .map(|e| e.ply)
                    .expect("an automatic end carries its ply");
                assert_eq!(at, ply + 1, "{name} game {index}");
                ended = Some((ply + 1, *termination));
                break;
            }
        }
        let expected = match &expected["first_automatic_end"] {
            Value::Null => None,
            end => Some((
                end["ply"].as_u64().expect("ply") as usize,
                termination_of(end["reason"].as_str().expect("reason")),
            )),
        };
        assert_eq!(ended, expected, "{name} game {index}: first automatic end");
    }
}

#[test]
fn the_live_engine_ends_every_twic1599_game_where_the_python_chess_oracle_does() {
    compare("twic1599");
}

#[test]
fn the_live_engine_ends_every_lichess_2025_05_game_where_the_python_chess_oracle_does() {
    compare("lichess-2025-05");
}
