//! The PGN analyser behind `arbiter analyze FILE.pgn`: for every game of a PGN file, in file
//! order, the plies at which the Laws would have let a player claim or would have ended the
//! game, as one JSON object per line.
//!
//! Ply `p` means the position after `p` half-moves (ply 0 is the start position). Fields:
//! `threefold` / `fivefold` (the position has occurred at least 3 / 5 times, 9.2 / 9.6.1),
//! `fifty` / `seventyfive` (at least 100 / 150 half-moves without capture or pawn move and
//! not checkmate, 9.3 / 9.6.2), `dead` (neither side can checkmate, 5.2.2),
//! `flag_draw_if_white_flags` / `flag_draw_if_black_flags` (the opponent cannot checkmate,
//! 6.9) and `first_automatic_end`. The lists cover the whole record, also past an automatic
//! end. A game that cannot be read gives `{index, error}`; the analyser never stops on a
//! messy game.
//!
//! Mating potential is monotone along a game: if a side can mate after the next move, it can
//! mate now (play that move, then the helpmate). So the plies where a side cannot mate form a
//! suffix of the game; the analyser asks the helpmate search about the final position and,
//! only when that side cannot mate there, binary-searches for where the suffix starts.
//!
//! For speed the analyser uses only proofs that cost about a microsecond: the material rule
//! and `chasolver::is_unwinnable_fast`, both sound (they never call a position dead that is
//! not). A position neither proves dead counts as "can mate": no draw is listed without
//! proof. chasolver's authors report the fast proof finds every unwinnable position of their
//! 10-million-game Lichess sample; the full helpmate search, which the game engine uses for
//! its rulings, can prove a few more constructed positions (see docs/rules-figures.md).

use std::io::{self, Read, Write};
use std::ops::ControlFlow;

use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use serde::Serialize;
use shakmaty::{CastlingMode, Chess, Color, Position};

use crate::interchange::pgn_clock::parse_clock_comment;
use crate::rules::automatic_end::automatic_end;
use crate::rules::laws::{LawsEdition, article};
use crate::rules::mating_potential::{MatingPotential, SearchEffort, mating_potential_with};
use crate::rules::move_counting::{fifty_moves_reached, seventy_five_moves_reached};
use crate::rules::move_parsing::position_from_fen;
use crate::rules::position_identity::PositionHistory;

/// The first ply at which the game would have ended by itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FirstAutomaticEnd {
    /// The ply.
    pub ply: usize,
    /// `checkmate`, `stalemate`, `dead_position`, `fivefold_repetition` or
    /// `seventy_five_moves`.
    pub reason: &'static str,
    /// The article (2023 numbering).
    pub article: &'static str,
}

/// The analysis of one readable game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameAnalysis {
    /// The game's 0-based position in the file.
    pub index: usize,
    /// Main-line half-moves.
    pub plies: usize,
    /// Plies where the position has occurred at least 3 times.
    pub threefold: Vec<usize>,
    /// Plies where the position has occurred at least 5 times.
    pub fivefold: Vec<usize>,
    /// Plies with at least 100 half-moves without capture or pawn move.
    pub fifty: Vec<usize>,
    /// Plies with at least 150 such half-moves, not checkmate.
    pub seventyfive: Vec<usize>,
    /// Plies where neither side can checkmate.
    pub dead: Vec<usize>,
    /// Plies where Black cannot checkmate (a White flag fall would draw).
    pub flag_draw_if_white_flags: Vec<usize>,
    /// Plies where White cannot checkmate (a Black flag fall would draw).
    pub flag_draw_if_black_flags: Vec<usize>,
    /// The first automatic end, if any.
    pub first_automatic_end: Option<FirstAutomaticEnd>,
    /// Clock readings (`[%clk h:mm:ss]`) in milliseconds by ply, where given (not printed).
    #[serde(skip)]
    pub clocks_ms: Vec<Option<u64>>,
}

/// What the analyser reports for one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum GameReport {
    /// The game was read.
    Analysed(Box<GameAnalysis>),
    /// The game could not be read.
    Unreadable {
        /// The game's 0-based position in the file.
        index: usize,
        /// Why.
        error: String,
    },
}

/// Totals over a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AnalyzeSummary {
    /// Games read (readable or not).
    pub games: usize,
    /// Games that could not be read.
    pub unreadable: usize,
    /// Half-moves analysed.
    pub plies: usize,
}

/// Analyse every game of a PGN stream and write one JSON object per game and line.
pub fn analyze_pgn(reader: impl Read, mut writer: impl Write) -> io::Result<AnalyzeSummary> {
    let mut write_error = None;
    let summary = analyze_games(reader, |report| {
        if write_error.is_none() {
            let written = serde_json::to_writer(&mut writer, report)
                .map_err(io::Error::other)
                .and_then(|()| writer.write_all(b"\n"));
            if let Err(e) = written {
                write_error = Some(e);
            }
        }
    })?;
    if let Some(e) = write_error {
        return Err(e);
    }
    writer.flush()?;
    Ok(summary)
}

/// Analyse every game of a PGN stream, handing each report to `each` in file order (the
/// engine of [`analyze_pgn`], also used on in-memory bytes by the benchmark).
pub fn analyze_games(
    reader: impl Read,
    each: impl FnMut(&GameReport),
) -> io::Result<AnalyzeSummary> {
    analyze_games_with_effort(reader, SearchEffort::FastProof, each)
}

/// [`analyze_games`] with a choice of effort for mating potential: `FastProof` (the
/// default, about a microsecond per position) or `Full` (the helpmate search the rulings
/// use; slower, proves a few more constructed positions dead).
pub fn analyze_games_with_effort(
    reader: impl Read,
    effort: SearchEffort,
    mut each: impl FnMut(&GameReport),
) -> io::Result<AnalyzeSummary> {
    let mut pgn = Reader::new(reader);
    let mut visitor = AnalysingVisitor::new(effort);
    let mut summary = AnalyzeSummary::default();
    while let Some(report) = pgn.read_game(&mut visitor)? {
        summary.games += 1;
        match &report {
            GameReport::Analysed(analysis) => summary.plies += analysis.plies,
            GameReport::Unreadable { .. } => summary.unreadable += 1,
        }
        each(&report);
        visitor.index += 1;
    }
    Ok(summary)
}

struct AnalysingVisitor {
    index: usize,
    effort: SearchEffort,
    start_fen: Option<String>,
    tag_error: Option<String>,
    history: PositionHistory,
    castling_mode: CastlingMode,
    clocks_ms: Vec<Option<u64>>,
    error: Option<String>,
}

impl AnalysingVisitor {
    fn new(effort: SearchEffort) -> AnalysingVisitor {
        AnalysingVisitor {
            index: 0,
            effort,
            start_fen: None,
            tag_error: None,
            history: PositionHistory::new(Chess::default()),
            castling_mode: CastlingMode::Standard,
            clocks_ms: Vec::new(),
            error: None,
        }
    }
}

impl Visitor for AnalysingVisitor {
    type Tags = ();
    type Movetext = ();
    type Output = GameReport;

    fn begin_tags(&mut self) -> ControlFlow<GameReport, ()> {
        self.start_fen = None;
        self.tag_error = None;
        self.error = None;
        self.clocks_ms.clear();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<GameReport> {
        if name == b"FEN" {
            self.start_fen = Some(value.decode_utf8_lossy().into_owned());
        } else if name == b"Variant" {
            let variant = value.decode_utf8_lossy();
            let supported = [
                "standard",
                "chess960",
                "from position",
                "fischerandom",
                "chess 960",
            ];
            if !supported.contains(&variant.to_ascii_lowercase().as_str()) {
                self.tag_error = Some(format!("variant `{variant}` is not supported"));
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<GameReport, ()> {
        let start = match self.start_fen.as_deref() {
            None => Ok((Chess::default(), CastlingMode::Standard)),
            Some(fen) => position_from_fen(fen),
        };
        match start {
            Ok((position, mode)) => {
                self.history.reset(position);
                self.castling_mode = mode;
            }
            Err(e) => {
                self.history.reset(Chess::default());
                self.error = Some(e);
            }
        }
        if let Some(e) = self.tag_error.take() {
            self.error = Some(e);
        }
        self.clocks_ms.push(None);
        ControlFlow::Continue(())
    }

    fn san(&mut self, _movetext: &mut (), san_plus: SanPlus) -> ControlFlow<GameReport> {
        if self.error.is_some() {
            return ControlFlow::Continue(());
        }
        let position = self.history.current();
        match san_plus.san.to_move(position) {
            Ok(m) => {
                self.history.play(m);
                self.clocks_ms.push(None);
            }
            Err(e) => {
                self.error = Some(format!(
                    "move {} ({san_plus}) at ply {}: {e}",
                    self.history.ply() / 2 + 1,
                    self.history.ply() + 1
                ));
            }
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _movetext: &mut (), comment: RawComment<'_>) -> ControlFlow<GameReport> {
        if self.error.is_none()
            && let Some(ms) = parse_clock_comment(comment.as_bytes())
            && let Some(slot) = self.clocks_ms.last_mut()
        {
            *slot = Some(ms);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _movetext: ()) -> GameReport {
        if let Some(error) = self.error.take() {
            return GameReport::Unreadable {
                index: self.index,
                error,
            };
        }
        let mut analysis = analyse_history(self.index, &self.history, self.effort);
        analysis.clocks_ms = std::mem::take(&mut self.clocks_ms);
        GameReport::Analysed(Box::new(analysis))
    }
}

/// Analyse the positions of one game (ply 0 = start position).
pub fn analyse_history(
    index: usize,
    history: &PositionHistory,
    effort: SearchEffort,
) -> GameAnalysis {
    let positions = history.positions();
    let plies = history.ply();
    let mut analysis = GameAnalysis {
        index,
        plies,
        threefold: Vec::new(),
        fivefold: Vec::new(),
        fifty: Vec::new(),
        seventyfive: Vec::new(),
        dead: Vec::new(),
        flag_draw_if_white_flags: Vec::new(),
        flag_draw_if_black_flags: Vec::new(),
        first_automatic_end: None,
        clocks_ms: Vec::new(),
    };
    let mut first_fivefold = None;
    let mut first_seventy_five = None;
    for (ply, position) in positions.iter().enumerate() {
        // A third occurrence needs at least 8 half-moves since the first, all reversible.
        if position.halfmoves() >= 8 && ply >= 8 {
            let count = history.count_at_ply(ply);
            if count >= 3 {
                analysis.threefold.push(ply);
            }
            if count >= 5 {
                analysis.fivefold.push(ply);
                first_fivefold.get_or_insert(ply);
            }
        }
        if fifty_moves_reached(position) {
            analysis.fifty.push(ply);
            if seventy_five_moves_reached(position) {
                analysis.seventyfive.push(ply);
                first_seventy_five.get_or_insert(ply);
            }
        }
    }
    let white_cannot_from = cannot_mate_from(positions, Color::White, effort);
    let black_cannot_from = cannot_mate_from(positions, Color::Black, effort);
    analysis.flag_draw_if_white_flags = (black_cannot_from..=plies).collect();
    analysis.flag_draw_if_black_flags = (white_cannot_from..=plies).collect();
    let dead_from = white_cannot_from.max(black_cannot_from);
    analysis.dead = (dead_from..=plies).collect();

    // The first ply where any automatic end can hold; the one rule of the live engine
    // (`automatic_end`) then says which end it is, in its order. Mate and stalemate can only
    // be the last position of a record.
    let last = &positions[plies];
    let last_is_over = last.legal_moves().is_empty();
    let first_candidate = [
        first_fivefold,
        first_seventy_five,
        (dead_from <= plies).then_some(dead_from),
        last_is_over.then_some(plies),
    ]
    .into_iter()
    .flatten()
    .min();
    analysis.first_automatic_end = first_candidate
        .and_then(|ply| automatic_end(history, ply, |_| ply >= dead_from))
        .map(|end| FirstAutomaticEnd {
            ply: end.ply,
            reason: end.kind.name(),
            article: article(LawsEdition::Y2023, end.kind.rule()),
        });
    analysis
}

/// The first ply from which `color` can no longer checkmate (`positions.len()` if it always
/// can). Relies on the monotonicity explained in the module docs.
fn cannot_mate_from(positions: &[Chess], color: Color, effort: SearchEffort) -> usize {
    let last = positions.len() - 1;
    let cannot = |ply: usize| {
        mating_potential_with(&positions[ply], color, effort).0 == MatingPotential::CannotMate
    };
    if !cannot(last) {
        return positions.len();
    }
    let (mut low, mut high) = (0, last);
    while low < high {
        let middle = (low + high) / 2;
        if cannot(middle) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    high
}
