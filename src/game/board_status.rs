//! What a round floor and a scoresheet show beyond the game's view: which clock runs, and
//! the clock press that completed each move. Read from the standing events of a game
//! (corrections honoured), pure like the rest of the game core.

use super::Game;
use super::event::{Event, RecordedEvent, ServiceEvent, Side};
use serde::Serialize;

/// The clock of a board.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BoardStatus {
    /// Whose clock runs now, as far as the recorded presses, pauses and resumptions say;
    /// `None` before the first press, while paused, and after the end.
    pub running_clock: Option<Side>,
    /// Whether the clock was paused by the last clock event.
    pub paused: bool,
}

/// Reads the board status of `game` from its standing events.
pub fn board_status(game: &Game) -> BoardStatus {
    let mut running: Option<Side> = None;
    let mut before_pause: Option<Side> = None;
    let mut paused = false;
    let mut ended = false;
    let mut turn = game
        .position_at_ply(0)
        .map(|start| Side::from(shakmaty::Position::turn(start)))
        .unwrap_or(Side::White);
    for (_, event, reading) in game.standing_events_with_readings() {
        match event {
            Event::Recorded(RecordedEvent::Move { by, .. }) => {
                turn = by.opponent();
                // A move recorded with the clock's reading was recorded with its press
                // (6.2.1: the move is completed by pressing the clock), so the opponent's
                // clock runs, as it does after a separate `clock_press`.
                if reading.is_some() {
                    running = Some(by.opponent());
                    paused = false;
                }
            }
            Event::Recorded(RecordedEvent::ClockPress { by, .. }) => {
                running = Some(by.opponent());
                paused = false;
            }
            Event::Recorded(RecordedEvent::ClockPause { .. }) => {
                if running.is_some() {
                    before_pause = running;
                }
                running = None;
                paused = true;
            }
            Event::Recorded(RecordedEvent::ClockResume {}) => {
                // 6.2.1: the clock that was running before the pause runs again; if it had not
                // been started, the player having the move starts.
                running = before_pause.take().or(Some(turn));
                paused = false;
            }
            Event::Service(ServiceEvent::GameEnded { .. }) => ended = true,
            _ => {}
        }
    }
    if ended {
        return BoardStatus::default();
    }
    BoardStatus {
        running_clock: running,
        paused,
    }
}

/// A standing move with the clock press that completed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveRecord {
    /// The `seq` of the move.
    pub seq: u64,
    /// Who moved.
    pub by: Side,
    /// The `seq` of the mover's clock press after it (before the next move), if recorded.
    pub press_seq: Option<u64>,
    /// The mover's time read off the clock at that press, if given.
    pub press_ms: Option<u64>,
}

/// The standing moves in order, each with the mover's clock press that followed it: what a
/// scoresheet with clock times shows.
pub fn move_records(game: &Game) -> Vec<MoveRecord> {
    let mut moves: Vec<MoveRecord> = Vec::new();
    for (seq, event) in game.standing_events() {
        match event {
            Event::Recorded(RecordedEvent::Move { by, .. }) => moves.push(MoveRecord {
                seq,
                by: *by,
                press_seq: None,
                press_ms: None,
            }),
            Event::Recorded(RecordedEvent::ClockPress {
                by,
                white_ms,
                black_ms,
            }) => {
                if let Some(last) = moves.last_mut()
                    && last.by == *by
                    && last.press_seq.is_none()
                {
                    last.press_seq = Some(seq);
                    last.press_ms = match by {
                        Side::White => *white_ms,
                        Side::Black => *black_ms,
                    };
                }
            }
            _ => {}
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::event::{ClockReading, GameSettings, Player, TimeControl, TimeControlKind};

    fn game() -> Game {
        let settings = GameSettings {
            white: Player {
                name: "W".into(),
                fide_id: None,
            },
            black: Player {
                name: "B".into(),
                fide_id: None,
            },
            event: "E".into(),
            round: "1".into(),
            board: Some(1),
            site: None,
            start_fen: None,
            date: None,
            start_moves_completed: None,
            start_clocks: None,
            time_control: TimeControl::from_legacy(TimeControlKind::Standard, 60_000, 0),
            clock_behaviour: Default::default(),
            laws_edition: Default::default(),
            regulations: Default::default(),
        };
        let mut game = Game::new(&settings).expect("valid");
        game.apply(
            1,
            &Event::Service(ServiceEvent::GameCreated(Box::new(settings))),
        )
        .expect("created");
        game
    }

    fn record(game: &mut Game, seq: u64, event: RecordedEvent) {
        game.apply(seq, &Event::Recorded(event)).expect("applies");
    }

    #[test]
    fn the_clock_of_the_player_to_move_runs_after_a_press_and_stops_on_a_pause() {
        let mut game = game();
        assert_eq!(board_status(&game).running_clock, None);
        record(
            &mut game,
            2,
            RecordedEvent::Move {
                by: Side::White,
                san: "e4".into(),
            },
        );
        record(
            &mut game,
            3,
            RecordedEvent::ClockPress {
                by: Side::White,
                white_ms: None,
                black_ms: None,
            },
        );
        assert_eq!(board_status(&game).running_clock, Some(Side::Black));
        record(&mut game, 4, RecordedEvent::ClockPause { by: None });
        let status = board_status(&game);
        assert_eq!(status.running_clock, None);
        assert!(status.paused);
        record(&mut game, 5, RecordedEvent::ClockResume {});
        assert_eq!(board_status(&game).running_clock, Some(Side::Black));
    }

    #[test]
    fn a_move_recorded_with_the_clocks_reading_runs_the_opponents_clock() {
        let mut game = game();
        let reading = ClockReading {
            white_ms: Some(5_395_000),
            black_ms: Some(5_400_000),
        };
        let e4 = Event::Recorded(RecordedEvent::Move {
            by: Side::White,
            san: "e4".into(),
        });
        game.apply_with_clock(2, &e4, Some(&reading))
            .expect("applies");
        assert_eq!(board_status(&game).running_clock, Some(Side::Black));
        // A move without a reading says nothing about the clock: Black's keeps running.
        record(
            &mut game,
            3,
            RecordedEvent::Move {
                by: Side::Black,
                san: "c5".into(),
            },
        );
        assert_eq!(board_status(&game).running_clock, Some(Side::Black));
    }

    #[test]
    fn a_corrected_press_no_longer_runs_the_clock() {
        let mut game = game();
        record(
            &mut game,
            2,
            RecordedEvent::Move {
                by: Side::White,
                san: "e4".into(),
            },
        );
        record(
            &mut game,
            3,
            RecordedEvent::ClockPress {
                by: Side::White,
                white_ms: None,
                black_ms: None,
            },
        );
        record(
            &mut game,
            4,
            RecordedEvent::Correction {
                retracts_seq: 3,
                reason: "pressed twice".into(),
            },
        );
        assert_eq!(board_status(&game).running_clock, None);
    }
}
