//! The events the follower appends for a board's moves, pure: their ids derived from the feed
//! (so that a retried or replayed poll stores nothing twice) and their clock readings, each
//! set aside where it would make its side's clock go up without a reason (6.3.2).

use super::*;

/// The namespace of the event ids the follower derives from the feed.
pub(super) const FEED_EVENT_NAMESPACE: Uuid =
    Uuid::from_u128(0x6f1c_2b7e_94d3_4c1a_8e55_0d2f_a7b3_c911);

/// The round's folder URL: the setting without a trailing `/` or `/index.json`.
pub fn round_base(url: &str) -> String {
    let url = url.trim();
    let url = url.strip_suffix("/index.json").unwrap_or(url);
    url.trim_end_matches('/').to_string()
}

/// The player who makes ply `ply` (1 = the first move) of a game that started from `start`.
pub(super) fn side_of_ply(start: &shakmaty::Chess, ply: usize) -> Side {
    use shakmaty::Position;
    let first = match start.turn() {
        shakmaty::Color::White => Side::White,
        shakmaty::Color::Black => Side::Black,
    };
    if ply % 2 == 1 {
        first
    } else {
        first.opponent()
    }
}

/// The event id of the board's move at `ply`, appended after `after_seq`: derived from the
/// feed, so the same move of the same board appended at the same place always has the same
/// id (a move played again after a correction is appended elsewhere, as a new event).
pub fn feed_event_id(follow_id: Uuid, board: u32, after_seq: u64, ply: usize, san: &str) -> Uuid {
    Uuid::new_v5(
        &FEED_EVENT_NAMESPACE,
        format!("{follow_id}/board/{board}/after/{after_seq}/ply/{ply}/{san}").as_bytes(),
    )
}

/// The moves to record with every reading set aside that would make its side's clock go up
/// by more than the move may add (its increment, and the next period's time after the move
/// that completes a period, 6.3.2): such a frame is evidence of a fault, not a reading.
/// Returns the moves and how many readings were set aside.
pub(super) fn with_admissible_readings(
    game: &Game,
    start: &shakmaty::Chess,
    first_ply: usize,
    moves: &[FeedMove],
) -> (Vec<FeedMove>, usize) {
    let control = &game.settings().time_control;
    let clocks = game.clocks();
    let (mut white, mut black) = (clocks.white_ms, clocks.black_ms);
    let first = side_of_ply(start, 1);
    let mut set_aside = 0;
    let checked = moves
        .iter()
        .enumerate()
        .map(|(index, feed_move)| {
            let ply = first_ply + index;
            let by = side_of_ply(start, ply);
            let previous = match by {
                Side::White => &mut white,
                Side::Black => &mut black,
            };
            let mut feed_move = feed_move.clone();
            if let Some(seconds) = feed_move.seconds_left {
                let ms = seconds.saturating_mul(1000);
                let rise = admissible_rise_ms(control, move_number(ply, by, first));
                if reading_admissible(*previous, ms, rise) {
                    *previous = Some(ms);
                } else {
                    feed_move.seconds_left = None;
                    set_aside += 1;
                }
            }
            feed_move
        })
        .collect();
    (checked, set_aside)
}

pub(super) fn move_event(
    start: &shakmaty::Chess,
    follow_id: Uuid,
    board: u32,
    after_seq: u64,
    ply: usize,
    feed_move: &FeedMove,
) -> NewEvent {
    let by = side_of_ply(start, ply);
    let ms = feed_move.seconds_left.map(|s| s.saturating_mul(1000));
    let clock = ms.map(|ms| match by {
        Side::White => ClockReading {
            white_ms: Some(ms),
            black_ms: None,
        },
        Side::Black => ClockReading {
            white_ms: None,
            black_ms: Some(ms),
        },
    });
    NewEvent {
        event_id: feed_event_id(follow_id, board, after_seq, ply, &feed_move.san),
        event: Event::Recorded(RecordedEvent::Move {
            by,
            san: feed_move.san.clone(),
        }),
        occurred_at: None,
        clock,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_url_is_read_with_or_without_its_index() {
        assert_eq!(round_base("http://h/r/index.json"), "http://h/r");
        assert_eq!(round_base("http://h/r/"), "http://h/r");
    }

    #[test]
    fn a_move_appended_at_another_place_gets_another_id() {
        let follow = Uuid::from_u128(7);
        assert_eq!(
            feed_event_id(follow, 1, 1, 1, "e4"),
            feed_event_id(follow, 1, 1, 1, "e4")
        );
        assert_ne!(
            feed_event_id(follow, 1, 1, 1, "e4"),
            feed_event_id(follow, 1, 5, 1, "e4")
        );
    }
}
