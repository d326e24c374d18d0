//! The arbiter's words for a game's events: one narration for the desk's timeline and answers,
//! the decision review, the reports and the PGN's comments, so that the same event reads the
//! same wherever an arbiter, a committee or a spectator meets it.
//!
//! What a person reads names the players and the moves as a scoresheet does (`Carlsen`,
//! `31... Kg7`), cites the articles of the Laws and says what happened in words. It never
//! shows what only the machine needs: `seq` numbers, UUIDs, the API's snake_case names or a
//! FEN. An event that refers to another (a ruling on a claim, an appeal against a decision, a
//! correction) names that event by what it was and the move it followed, as in "the claim
//! after 31... Kg7" ([`Narrator::reference`]).

use std::collections::BTreeMap;

use super::event::{
    ArbiterRuling, ClaimKind, ClaimOutcome, ClaimRuling, EndCause, Event, Forfeit, GameResult,
    GameSettings, IllegalMoveKind, RecordedEvent, ServiceEvent, Side, Termination, TimePenalty,
};

/// Tells a game's events in words: the players' names, and for every event of the log the
/// words another event uses to refer to it.
#[derive(Clone, Debug, Default)]
pub struct Narrator {
    /// White's and Black's names as the pairing gives them (empty: the colour alone).
    names: [String; 2],
    /// For each `seq` of the log, what a reference to it reads as.
    references: BTreeMap<u64, String>,
    /// For each move's `seq`, its scoresheet label (`31... Kg7`).
    moves: BTreeMap<u64, String>,
    /// The labels of the moves standing at the end of the log, in order: ply `n` of the game
    /// is `plies[n - 1]`.
    plies: Vec<String>,
}

impl Narrator {
    /// A narrator knowing the players only: a reference to another event reads "an earlier
    /// event" and a move is written without its number.
    pub fn with_names(white: &str, black: &str) -> Narrator {
        Narrator {
            names: [white.trim().to_string(), black.trim().to_string()],
            ..Narrator::default()
        }
    }

    /// A narrator for a whole log, in `seq` order: every move gets its number (counted from
    /// the game's starting position, corrections taken back) and every event a reference.
    pub fn for_log<'a>(log: impl IntoIterator<Item = (u64, &'a Event)>) -> Narrator {
        let mut narrator = Narrator::default();
        // The number of the next move and who makes it.
        let mut fullmove: u32 = 1;
        let mut to_move = Side::White;
        // The moves standing, to take one back when a correction retracts it.
        let mut standing_moves: Vec<u64> = Vec::new();
        for (seq, event) in log {
            match event {
                Event::Service(ServiceEvent::GameCreated(settings)) => {
                    narrator.names = names_of(settings);
                    if let Some((number, side)) =
                        settings.start_fen.as_deref().and_then(start_of_fen)
                    {
                        fullmove = number;
                        to_move = side;
                    }
                }
                Event::Recorded(RecordedEvent::Move { by, san }) => {
                    let label = move_label(fullmove, *by, san);
                    narrator.moves.insert(seq, label.clone());
                    narrator.references.insert(seq, label);
                    standing_moves.push(seq);
                    if *by == Side::Black {
                        fullmove += 1;
                    }
                    to_move = by.opponent();
                }
                Event::Recorded(RecordedEvent::Correction { retracts_seq, .. })
                    if standing_moves.last() == Some(retracts_seq) =>
                {
                    standing_moves.pop();
                    to_move = to_move.opponent();
                    if to_move == Side::Black {
                        fullmove = fullmove.saturating_sub(1).max(1);
                    }
                }
                _ => {}
            }
            if !matches!(event, Event::Recorded(RecordedEvent::Move { .. })) {
                let after = standing_moves
                    .last()
                    .and_then(|m| narrator.moves.get(m))
                    .map(|label| format!("after {label}"))
                    .unwrap_or_else(|| "before the first move".to_string());
                let what = narrator.kind_of(event);
                narrator.references.insert(seq, format!("{what} {after}"));
            }
        }
        narrator.plies = standing_moves
            .iter()
            .filter_map(|seq| narrator.moves.get(seq).cloned())
            .collect();
        narrator
    }

    /// The position after `ply` plies of the game, as a scoresheet places it: "the starting
    /// position", "after 31... Kg7" (or "after ply 62" when the log is not known).
    pub fn position_after_ply(&self, ply: usize) -> String {
        match ply {
            0 => "the starting position".to_string(),
            n => match self.plies.get(n - 1) {
                Some(label) => format!("after {label}"),
                None => format!("after ply {n}"),
            },
        }
    }

    /// A player as the pairing names them, or the colour when the pairing gives no name.
    pub fn player(&self, side: Side) -> String {
        let name = &self.names[side.index()];
        if name.is_empty() || name == "?" {
            colour(side).to_string()
        } else {
            name.clone()
        }
    }

    /// A player with the colour they play (`Carlsen (White)`), for a heading or a claimant.
    pub fn player_and_colour(&self, side: Side) -> String {
        let name = &self.names[side.index()];
        if name.is_empty() || name == "?" {
            colour(side).to_string()
        } else {
            format!("{name} ({})", colour(side))
        }
    }

    /// What a reference to the event at `seq` reads as: the move (`31... Kg7`), or the event
    /// and the move it followed (`Carlsen's claim after 31... Kg7`).
    pub fn reference(&self, seq: u64) -> String {
        self.references
            .get(&seq)
            .cloned()
            .unwrap_or_else(|| "an earlier event".to_string())
    }

    /// A possessive: `Carlsen's`, `White's`.
    fn possessive(&self, side: Side) -> String {
        format!("{}'s", self.player(side))
    }

    /// The event's kind as a noun phrase, with whose it is (`Carlsen's claim`).
    fn kind_of(&self, event: &Event) -> String {
        match event {
            Event::Recorded(recorded) => match recorded {
                RecordedEvent::Move { by, .. } => format!("{} move", self.possessive(*by)),
                RecordedEvent::IllegalMove { by, .. } => {
                    format!("{} illegal move", self.possessive(*by))
                }
                RecordedEvent::ClockPress { by, .. } => {
                    format!("{} clock press", self.possessive(*by))
                }
                RecordedEvent::ClockPause { .. } => "the clock's pause".to_string(),
                RecordedEvent::ClockResume {} => "the clock's restart".to_string(),
                RecordedEvent::ClockAdjust {
                    side,
                    delta_ms,
                    reason,
                } => self.clock_adjusted(*side, *delta_ms, reason),
                RecordedEvent::Touch { by, .. } => format!("{} touch", self.possessive(*by)),
                RecordedEvent::DrawOffer { by } => {
                    format!("{} draw offer", self.possessive(*by))
                }
                RecordedEvent::DrawAccept { by } => {
                    format!("{} acceptance of the draw", self.possessive(*by))
                }
                RecordedEvent::DrawDecline { by } => {
                    format!("{} refusal of the draw", self.possessive(*by))
                }
                RecordedEvent::Claim { by, .. } => format!("{} claim", self.possessive(*by)),
                RecordedEvent::Flag { side } => format!("{} flag fall", self.possessive(*side)),
                RecordedEvent::BothFlags {} => "the fall of both flags".to_string(),
                RecordedEvent::Resign { by } => format!("{} resignation", self.possessive(*by)),
                RecordedEvent::ArbiterDecision { .. } => "the arbiter's decision".to_string(),
                RecordedEvent::AppealLodged { .. } => "the appeal".to_string(),
                RecordedEvent::AppealDecided { .. } => "the appeals committee's decision".into(),
                RecordedEvent::FairPlay { .. } => "the fair-play record".to_string(),
                RecordedEvent::Correction { .. } => "the correction".to_string(),
            },
            Event::Service(service) => match service {
                ServiceEvent::GameCreated(_) => "the game's creation".to_string(),
                ServiceEvent::ClaimRuled(_) => "the ruling on the claim".to_string(),
                ServiceEvent::PenaltyApplied { side, .. } => {
                    format!("the time added to {} clock", self.possessive(*side))
                }
                ServiceEvent::GameEnded { .. } => "the end of the game".to_string(),
                ServiceEvent::GameResumed { .. } => "the resumption of play".to_string(),
                ServiceEvent::AppealDismissed { .. } => "the appeal's dismissal".to_string(),
                ServiceEvent::AppealUpheld { .. } => "the appeal's upholding".to_string(),
            },
        }
    }

    /// The move stored at `seq` as a scoresheet writes it (`31... Kg7`), or `san` alone when
    /// this narrator does not know the log.
    fn move_at(&self, seq: Option<u64>, san: &str) -> String {
        seq.and_then(|seq| self.moves.get(&seq).cloned())
            .unwrap_or_else(|| san.to_string())
    }

    /// One sentence telling the event stored at `seq` (`None` when the log is not known).
    pub fn sentence(&self, seq: Option<u64>, event: &Event) -> String {
        match event {
            Event::Recorded(recorded) => self.recorded(seq, recorded),
            Event::Service(service) => self.decided(service),
        }
    }

    fn recorded(&self, seq: Option<u64>, event: &RecordedEvent) -> String {
        match event {
            RecordedEvent::Move { by, san } => {
                format!("{} plays {}", self.player(*by), self.move_at(seq, san))
            }
            RecordedEvent::IllegalMove { .. } => self.illegal_move(event),
            RecordedEvent::ClockPress {
                by,
                white_ms,
                black_ms,
            } => self.clock_press(*by, *white_ms, *black_ms),
            RecordedEvent::ClockPause { by } => match by {
                Some(by) => format!("{} pauses the clock", self.player(*by)),
                None => "The arbiter pauses the clock".into(),
            },
            RecordedEvent::ClockResume {} => "The clock is restarted".into(),
            RecordedEvent::ClockAdjust {
                side,
                delta_ms,
                reason,
            } => format!(
                "The arbiter {} {} {} clock: {reason}",
                if *delta_ms >= 0 { "adds" } else { "takes" },
                duration(delta_ms.unsigned_abs()),
                if *delta_ms >= 0 {
                    format!("to {}", self.possessive(*side))
                } else {
                    format!("from {}", self.possessive(*side))
                },
            ),
            RecordedEvent::Touch { by, square } => {
                format!("{} touches the piece on {square} (4.3)", self.player(*by))
            }
            RecordedEvent::DrawOffer { by } => {
                format!("{} offers a draw (9.1.2)", self.player(*by))
            }
            RecordedEvent::DrawAccept { by } => format!("{} accepts the draw", self.player(*by)),
            RecordedEvent::DrawDecline { by } => format!("{} declines the draw", self.player(*by)),
            RecordedEvent::Claim {
                by,
                kind,
                intended_move,
            } => self.claim(*by, *kind, intended_move.as_deref()),
            RecordedEvent::Flag { side } => format!("{} flag falls", self.possessive(*side)),
            RecordedEvent::BothFlags {} => {
                "Both flags fall, and which fell first cannot be established".to_string()
            }
            RecordedEvent::Resign { by } => format!("{} resigns", self.player(*by)),
            RecordedEvent::ArbiterDecision { .. } => self.arbiter_decision(event),
            RecordedEvent::AppealLodged {
                by,
                against_seq,
                grounds,
            } => format!(
                "Appeal by {} against {}: {grounds}",
                self.appellant(by),
                self.reference(*against_seq)
            ),
            RecordedEvent::AppealDecided {
                against_seq,
                upheld,
                result,
                resume,
                reason,
                ..
            } => self.appeal_decided(*against_seq, *upheld, *result, resume.is_some(), reason),
            RecordedEvent::Correction {
                retracts_seq,
                reason,
            } => format!(
                "Correction: {} is retracted ({reason})",
                self.reference(*retracts_seq)
            ),
            RecordedEvent::FairPlay {
                forfeit,
                time_penalty,
                ..
            } => self.fair_play(forfeit.as_ref(), time_penalty.as_ref()),
        }
    }

    /// An illegal move or an irregular completion (7.5), with what was attempted.
    fn illegal_move(&self, event: &RecordedEvent) -> String {
        let RecordedEvent::IllegalMove {
            by,
            description,
            completed,
            attempted_move,
            kind,
        } = event
        else {
            return String::new();
        };
        let what = match kind {
            Some(IllegalMoveKind::IllegalMove) | None => "An illegal move",
            Some(IllegalMoveKind::PromotionWithoutPiece) => "A promotion without the new piece",
            Some(IllegalMoveKind::ClockWithoutMove) => "A clock pressed without a move",
            Some(IllegalMoveKind::TwoHands) => "A move made with two hands",
        };
        format!(
            "{what} by {}{}, {} (7.5): {description}",
            self.player(*by),
            attempted_move
                .as_deref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default(),
            if *completed {
                "completed"
            } else {
                "not completed"
            }
        )
    }

    /// Time the arbiter gave or took on one clock.
    fn clock_adjusted(&self, side: Side, delta_ms: i64, reason: &str) -> String {
        format!(
            "The arbiter {} {} {} clock: {reason}",
            if delta_ms >= 0 { "adds" } else { "takes" },
            duration(delta_ms.unsigned_abs()),
            if delta_ms >= 0 {
                format!("to {}", self.possessive(side))
            } else {
                format!("from {}", self.possessive(side))
            },
        )
    }

    /// A press of the clock, with the readings the clock showed when they were recorded.
    fn clock_press(&self, by: Side, white_ms: Option<u64>, black_ms: Option<u64>) -> String {
        let mut text = format!("{} presses the clock", self.player(by));
        if white_ms.is_some() || black_ms.is_some() {
            text.push_str(&format!(
                " (White {}, Black {})",
                clock(white_ms),
                clock(black_ms)
            ));
        }
        text
    }

    /// A claim of a draw (9.2, 9.3) or a request for an increment (Guidelines III).
    fn claim(&self, by: Side, kind: ClaimKind, intended_move: Option<&str>) -> String {
        match intended_move {
            _ if kind == ClaimKind::IncrementRequest => format!(
                "{} asks for an increment of five seconds for both players (Guidelines \
                 III), which is also a draw offer",
                self.player(by)
            ),
            Some(m) => format!(
                "{} claims a draw by {}, writing the intended move {m}",
                self.player(by),
                claim_words(kind)
            ),
            None => format!("{} claims a draw by {}", self.player(by), claim_words(kind)),
        }
    }

    /// The arbiter's decision with what it decided: its subject, result, time and counts.
    fn arbiter_decision(&self, event: &RecordedEvent) -> String {
        let RecordedEvent::ArbiterDecision {
            subject_seq,
            decision,
            reason,
            result,
            penalty,
            attempted_move,
            fen: _,
            increment_ms,
            move_count,
            cause,
        } = event
        else {
            return String::new();
        };
        let mut text = format!("The arbiter {}", ruling_words(*decision));
        if let Some(subject) = subject_seq {
            text.push_str(&format!(" on {}", self.reference(*subject)));
        }
        if let Some(result) = result {
            text.push_str(&format!(", result {}", result_text(*result)));
        }
        if let Some(cause) = cause {
            text.push_str(match cause {
                EndCause::Forfeit => ", a forfeit: the game was not played (6.7.1)",
                EndCause::ReportedResult => ", the result the players reported",
                EndCause::RulesInfraction => ", a loss for breaking the Laws",
                EndCause::Adjudication => "",
            });
        }
        if let Some(bonus) = penalty {
            text.push_str(&format!(
                ", {} to {}",
                duration(bonus.add_ms),
                self.player(bonus.side)
            ));
        }
        if let Some(m) = attempted_move {
            text.push_str(&format!(", the move {m}"));
        }
        if let Some(ms) = increment_ms {
            text.push_str(&format!(", an increment of {}", duration(*ms)));
        }
        if let Some(count) = move_count {
            match count.moves {
                Some(moves) => text.push_str(&format!(
                    ", {} has completed {moves} moves",
                    self.player(count.side)
                )),
                None => text.push_str(&format!(
                    ", {} move count unknown (8.6)",
                    self.possessive(count.side)
                )),
            }
        }
        format!("{text}: {reason}")
    }

    /// The appeals committee's decision (11.10).
    fn appeal_decided(
        &self,
        against_seq: u64,
        upheld: bool,
        result: Option<GameResult>,
        resumes: bool,
        reason: &str,
    ) -> String {
        format!(
            "The appeals committee {} the appeal against {}{}{}: {reason}",
            if upheld { "upholds" } else { "dismisses" },
            self.reference(against_seq),
            result
                .map(|r| format!(", result {}", result_text(r)))
                .unwrap_or_default(),
            if resumes { ", play resumes" } else { "" }
        )
    }

    /// A fair-play record as the game's public log shows it: its effect (12.9), or that it is
    /// sealed.
    fn fair_play(&self, forfeit: Option<&Forfeit>, time_penalty: Option<&TimePenalty>) -> String {
        match (forfeit, time_penalty) {
            (Some(f), _) => format!(
                "Fair play: {} loses the game ({})",
                self.player(f.loser),
                f.article
            ),
            (None, Some(t)) => format!(
                "Fair play: {} {} {} clock ({})",
                duration(t.delta_ms.unsigned_abs()),
                if t.delta_ms > 0 {
                    "added to"
                } else {
                    "taken from"
                },
                self.possessive(t.side),
                t.article
            ),
            (None, None) => {
                "A fair-play record (sealed: only the fair-play roles read it)".to_string()
            }
        }
    }

    fn decided(&self, event: &ServiceEvent) -> String {
        match event {
            ServiceEvent::GameCreated(settings) => created(settings),
            ServiceEvent::ClaimRuled(ruling) => self.claim_ruled(ruling),
            ServiceEvent::PenaltyApplied {
                side,
                add_ms,
                article,
                reason,
                ..
            } => format!(
                "{} added to {} clock ({article}): {reason}",
                capitalised(&duration(*add_ms)),
                self.possessive(*side)
            ),
            ServiceEvent::GameResumed {
                against_seq,
                white_ms,
                black_ms,
                article,
                reason,
                ..
            } => format!(
                "Play resumes on appeal against {} ({article}), the clocks at White {}, Black \
                 {}: {reason}",
                self.reference(*against_seq),
                clock(Some(*white_ms)),
                clock(Some(*black_ms))
            ),
            ServiceEvent::AppealDismissed {
                against_seq,
                article,
                reason,
                ..
            } => format!(
                "The appeal against {} is dismissed ({article}): {reason}",
                self.reference(*against_seq)
            ),
            ServiceEvent::AppealUpheld {
                against_seq,
                article,
                reason,
                ..
            } => format!(
                "The appeal against {} is upheld ({article}): {reason}",
                self.reference(*against_seq)
            ),
            ServiceEvent::GameEnded {
                result,
                termination,
                article,
                reason,
                ..
            } => format!(
                "Game over, {} by {} ({article}): {reason}",
                result_text(*result),
                termination_words(*termination)
            ),
        }
    }

    /// The ruling on a claim, with its article and reason.
    fn claim_ruled(&self, ruling: &ClaimRuling) -> String {
        format!(
            "{} is {} ({}): {}",
            capitalised(&self.reference(ruling.claim_seq)),
            match ruling.outcome {
                ClaimOutcome::Upheld => "upheld",
                ClaimOutcome::Rejected => "rejected",
            },
            ruling.article,
            ruling.reason
        )
    }

    /// Who appeals: a colour names the player; any other text is taken as written.
    fn appellant(&self, by: &str) -> String {
        match by.trim().to_ascii_lowercase().as_str() {
            "white" => self.player(Side::White),
            "black" => self.player(Side::Black),
            _ => by.trim().to_string(),
        }
    }
}

/// The game's creation: the players, the event, the round and the board.
fn created(settings: &GameSettings) -> String {
    let [white, black] = names_of(settings);
    let players = Narrator::with_names(&white, &black);
    format!(
        "Game created: {} – {}, {} round {}{}",
        players.player(Side::White),
        players.player(Side::Black),
        settings.event,
        settings.round,
        settings
            .board
            .map(|b| format!(" board {b}"))
            .unwrap_or_default()
    )
}

/// The players' names of a game's settings.
fn names_of(settings: &GameSettings) -> [String; 2] {
    [
        settings.white.name.trim().to_string(),
        settings.black.name.trim().to_string(),
    ]
}

/// The fullmove number and the side to move of a FEN.
fn start_of_fen(fen: &str) -> Option<(u32, Side)> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let side = match fields.get(1).copied() {
        Some("b") => Side::Black,
        _ => Side::White,
    };
    let number = fields
        .get(5)
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| *n >= 1)
        .unwrap_or(1);
    Some((number, side))
}

/// A move as a scoresheet numbers it: `12. e4`, `12... Nf6`.
fn move_label(fullmove: u32, by: Side, san: &str) -> String {
    match by {
        Side::White => format!("{fullmove}. {san}"),
        Side::Black => format!("{fullmove}... {san}"),
    }
}

/// `White` or `Black`.
fn colour(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// A result as a pairing list prints it: `1-0`, `½-½`, `0-1`, `0-0` (a double forfeit).
pub fn result_text(result: GameResult) -> &'static str {
    match result {
        GameResult::WhiteWins => "1-0",
        GameResult::BlackWins => "0-1",
        GameResult::Draw => "½-½",
        GameResult::BothLose => "0-0",
        GameResult::WhiteLosesBlackHalf => "0-½",
        GameResult::BlackLosesWhiteHalf => "½-0",
    }
}

/// A clock time as a clock shows it: `1:29:51`, or `4:05` under an hour; `–` when unknown.
pub fn clock(ms: Option<u64>) -> String {
    let Some(ms) = ms else {
        return "–".to_string();
    };
    let seconds = ms / 1000;
    if seconds >= 3600 {
        format!(
            "{}:{:02}:{:02}",
            seconds / 3600,
            (seconds / 60) % 60,
            seconds % 60
        )
    } else {
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

/// A span of time in words: `2 minutes`, `30 seconds`, `1 minute 30 seconds`.
fn duration(ms: u64) -> String {
    let seconds = ms / 1000;
    let (minutes, seconds) = (seconds / 60, seconds % 60);
    let unit = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match (minutes, seconds) {
        (0, s) => unit(s, "second", "seconds"),
        (m, 0) => unit(m, "minute", "minutes"),
        (m, s) => format!(
            "{} {}",
            unit(m, "minute", "minutes"),
            unit(s, "second", "seconds")
        ),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The grounds of a draw claim in words.
fn claim_words(kind: ClaimKind) -> &'static str {
    match kind {
        ClaimKind::Repetition => "threefold repetition (9.2)",
        ClaimKind::FiftyMoves => "the 50-move rule (9.3)",
        ClaimKind::QuickplayFinish => "quickplay finish (Guidelines III)",
        ClaimKind::IncrementRequest => "asking for an increment (Guidelines III)",
    }
}

/// What the arbiter's decision does, as a verb phrase.
fn ruling_words(ruling: ArbiterRuling) -> &'static str {
    match ruling {
        ArbiterRuling::GameEnded => "ends the game",
        ArbiterRuling::ClaimRejected => "rejects the claim",
        ArbiterRuling::ClaimPostponed => "postpones the decision on the claim",
        ArbiterRuling::TimePenalty => "gives a time penalty",
        ArbiterRuling::Warning => "warns the player",
        ArbiterRuling::IllegalMoveStands => "lets the illegal move stand",
        ArbiterRuling::IncrementGranted => "grants an increment",
        ArbiterRuling::MoveCountSet => "sets the move count",
        ArbiterRuling::PositionReconstructed => "reconstructs the position",
    }
}

/// How a game ended, in words.
fn termination_words(termination: Termination) -> &'static str {
    match termination {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::DeadPosition => "dead position",
        Termination::FivefoldRepetition => "fivefold repetition",
        Termination::SeventyFiveMoves => "the 75-move rule",
        Termination::Agreement => "agreement",
        Termination::RepetitionClaim => "a repetition claim",
        Termination::FiftyMovesClaim => "a 50-move claim",
        Termination::Flag => "flag fall",
        Termination::Resignation => "resignation",
        Termination::IllegalMoves => "illegal moves",
        Termination::Arbiter => "the arbiter's decision",
        Termination::Appeal => "appeal",
    }
}
