//! The diagrams of a game as the arbiter sees them: the position as it stands or after a ply,
//! the board at an event with its caption (the players, the move, the clocks, the touched
//! piece of 4.3, an illegal move of 7.5, the result), and the sheet of a repetition claim's
//! occurrences (9.2). Apart from the drawing, since this is where the log is read: the
//! drawing knows positions and marks, not games.

use shakmaty::{CastlingMode, Chess, Color, Position, Square};
use uuid::Uuid;

use super::{Diagram, Sheet, illegal_move_squares, move_squares};
use crate::game::Game;
use crate::game::event::{ClaimOutcome, ClaimRuling, ClockReading, Event, RecordedEvent, Side};
use crate::game::narration::Narrator;
use crate::rules::move_parsing::parse_move;

/// `Move 23, Black to move`.
pub fn position_line(position: &Chess) -> String {
    let side = match position.turn() {
        Color::White => "White",
        Color::Black => "Black",
    };
    format!("Move {}, {side} to move", position.fullmoves())
}

/// `h:mm:ss` of a clock time.
pub fn clock_text(ms: u64) -> String {
    let seconds = ms / 1000;
    format!(
        "{}:{:02}:{:02}",
        seconds / 3600,
        (seconds / 60) % 60,
        seconds % 60
    )
}

/// `White 1:23:45 · Black 0:45:12` (a `?` for a clock not read); `None` if neither was read.
pub fn clocks_line(white_ms: Option<u64>, black_ms: Option<u64>) -> Option<String> {
    if white_ms.is_none() && black_ms.is_none() {
        return None;
    }
    let text = |ms: Option<u64>| ms.map(clock_text).unwrap_or_else(|| "?".into());
    Some(format!(
        "White {} · Black {}",
        text(white_ms),
        text(black_ms)
    ))
}

/// The diagram of `game` as it stands: its position, the last standing move, check and the
/// piece touched with intent to move it (4.3).
pub fn game_diagram(game: &Game) -> Diagram {
    let view = game.view();
    let mut diagram = ply_diagram(game, view.ply).unwrap_or_else(|| Diagram::new(game.position()));
    if let Some(touched) = view.obligations.touched
        && let Ok(square) = touched.square.parse::<Square>()
    {
        diagram = diagram.touched(square);
    }
    diagram
}

/// The diagram of the position after `ply` standing half-moves of `game`, with the move that
/// led to it; `None` beyond the last ply.
pub fn ply_diagram(game: &Game, ply: usize) -> Option<Diagram> {
    let position = game.position_at_ply(ply)?;
    let mut diagram = Diagram::new(position);
    if let Some(before) = ply.checked_sub(1).and_then(|p| game.position_at_ply(p))
        && let Some(san) = game.view().moves.get(ply - 1)
        && let Ok(m) = parse_move(before, san, CastlingMode::Standard)
        && let Some((from, to)) = move_squares(m, before.turn())
    {
        diagram = diagram.last_move(from, to);
    }
    Some(diagram)
}

/// The last clock readings up to an event, for a caption: for each side, the latest time read
/// off the clock (the `clock` stored with an event, or the times of a `clock_press`). Penalties
/// added after the reading are not in it: it is what the clock showed.
pub fn last_clock_readings<'a>(
    events: impl IntoIterator<Item = (&'a Event, Option<&'a ClockReading>)>,
) -> (Option<u64>, Option<u64>) {
    let (mut white, mut black) = (None, None);
    for (event, clock) in events {
        if let Event::Recorded(RecordedEvent::ClockPress {
            white_ms, black_ms, ..
        }) = event
        {
            white = white_ms.or(white);
            black = black_ms.or(black);
        }
        if let Some(clock) = clock {
            white = clock.white_ms.or(white);
            black = clock.black_ms.or(black);
        }
    }
    (white, black)
}

/// The event a board is drawn at, for its caption and marks.
#[derive(Clone, Copy, Debug)]
pub struct DrawnAt<'a> {
    /// The event's `seq`.
    pub seq: u64,
    /// The event's id.
    pub event_id: Uuid,
    /// The event.
    pub event: &'a Event,
    /// White's last clock reading ([`last_clock_readings`]).
    pub white_ms: Option<u64>,
    /// Black's last clock reading.
    pub black_ms: Option<u64>,
}

/// The diagram an arbiter looks at: `game` as it stood after the event `at` (the game folded
/// to that `seq`), with the last move, check, the touched piece (4.3), an illegal move
/// recorded at that event drawn as a red arrow when its description names the squares (7.5),
/// and a caption: the players, the move number and side to move, the clocks, the result if
/// the game had ended, and the event.
pub fn board_at(game: &Game, at: &DrawnAt<'_>) -> Diagram {
    let view = game.view();
    let settings = game.settings();
    let mut diagram = game_diagram(game);
    let narrator = Narrator::with_names(&settings.white.name, &settings.black.name);
    let mut caption = vec![
        format!("{} – {}", settings.white.name, settings.black.name),
        position_line(game.position()),
    ];
    caption.extend(clocks_line(at.white_ms, at.black_ms));
    if let (Some(result), Some(article)) = (view.result, &view.article) {
        caption.push(format!("Game over: {} (article {article})", result.pgn()));
    }
    if let Some(touched) = &view.obligations.touched {
        caption.push(format!(
            "{} touched the piece on {} (4.3)",
            narrator.player(touched.by),
            touched.square
        ));
    }
    if let Event::Recorded(RecordedEvent::IllegalMove {
        by, description, ..
    }) = at.event
    {
        if let Some((from, to)) = illegal_move_squares(description) {
            diagram = diagram.illegal_move(from, to);
        }
        caption.push(format!(
            "Illegal move by {}: {description} (7.5)",
            narrator.player(*by)
        ));
    }
    // The event drawn at, unless a line above already tells it.
    if !matches!(
        at.event,
        Event::Recorded(RecordedEvent::Touch { .. } | RecordedEvent::IllegalMove { .. })
    ) {
        caption.push(format!(
            "Last recorded: {}",
            narrator.sentence(None, at.event)
        ));
    }
    caption.push(format!("event {}", at.event_id));
    diagram.caption(caption)
}

/// The sheet of a repetition claim (9.2): the positions where the claimed position occurred,
/// side by side, from the ruling's evidence (`occurrences`: the plies, and for a claim with
/// an intended move the position after that move, written but not played, 9.2.1). `game` is
/// the game folded to the claim; `style` sets orientation, coordinates and size on every
/// panel. A claim ruled on before anything was counted (the claimant had already moved, or
/// had touched a piece, 9.4) shows the position at the claim alone.
pub fn occurrence_sheet(
    game: &Game,
    claim_seq: u64,
    claimant: Side,
    ruling: &ClaimRuling,
    style: impl Fn(Diagram) -> Diagram,
) -> Sheet {
    let outcome = match ruling.outcome {
        ClaimOutcome::Upheld => "upheld",
        ClaimOutcome::Rejected => "rejected",
    };
    let mut sheet = Sheet::new([
        format!(
            "Repetition claim by {} at seq {claim_seq}: {outcome} ({})",
            claimant.name(),
            ruling.article
        ),
        ruling.reason.clone(),
    ]);
    let evidence = &ruling.evidence;
    let plies: &[usize] = evidence.occurrences.as_deref().unwrap_or_default();
    let intended = evidence.intended_move.as_deref().and_then(|text| {
        let position = game.position();
        let m = parse_move(position, text, CastlingMode::Standard).ok()?;
        let mut after = position.clone();
        after.play_unchecked(m);
        let mut panel = Diagram::new(&after);
        if let Some((from, to)) = move_squares(m, position.turn()) {
            panel = panel.last_move(from, to);
        }
        Some((text, after, panel))
    });
    let total = plies.len() + usize::from(intended.is_some());
    for (index, &ply) in plies.iter().enumerate() {
        if let (Some(panel), Some(position)) = (ply_diagram(game, ply), game.position_at_ply(ply)) {
            sheet = sheet.panel(style(panel).caption([
                format!("Occurrence {} of {total}: ply {ply}", index + 1),
                position_line(position),
            ]));
        }
    }
    if let Some((text, after, panel)) = intended {
        sheet = sheet.panel(style(panel).caption([
            format!("Occurrence {total} of {total}: after the intended move {text}"),
            "written on the scoresheet, not played (9.2.1)".to_string(),
            position_line(&after),
        ]));
    } else if plies.is_empty() {
        sheet = sheet.panel(style(game_diagram(game)).caption([
            format!("The position at the claim (ply {})", game.view().ply),
            position_line(game.position()),
        ]));
    }
    sheet
}
