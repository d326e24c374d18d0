//! A PGN file as written, before anything is checked against a position: each game's tags,
//! its moves with their `[%clk]` readings and its result token, and the comments opened with
//! `{` and never closed, which would otherwise hide the games after them. Apart from the
//! plan, since the live PGN feed (`super::super::pgn_feed`) reads a round's file the same way
//! and makes something else of it.

use std::ops::ControlFlow;

use pgn_reader::{RawComment, RawTag, SanPlus, Visitor};

use super::{ReadGame, UnreadableGame};
use crate::interchange::pgn_clock::parse_clock_comment;

/// A comment opened with `{` (on 1-based `line`) that runs into the tags of a following game,
/// which start at byte `resume_at` (on `resume_line`).
#[derive(Clone, Copy, Debug)]
pub(super) struct UnterminatedComment {
    line: usize,
    pub(super) resume_at: usize,
    resume_line: usize,
}

/// The comments of `text` that are not closed before the tags of a following game begin (a
/// line starting `[Name "`), in file order. Tag values, `;` comments and `%` escape lines
/// are skipped, so a brace inside them opens nothing.
pub(super) fn unterminated_comments(text: &[u8]) -> Vec<UnterminatedComment> {
    let line_of = |at: usize| text[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let tag_line_at = |at: usize| {
        let rest = &text[at..];
        let name = rest
            .iter()
            .skip(1)
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        rest.first() == Some(&b'[')
            && name > 0
            && rest[1 + name..]
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|&b| b == b'"')
    };
    let end_of_line = |at: usize| {
        text[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |n| at + n)
    };
    let mut found = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let at_line_start = i == 0 || text[i - 1] == b'\n';
        match text[i] {
            b'%' if at_line_start => i = end_of_line(i),
            b';' => i = end_of_line(i),
            b'[' => {
                // A tag: skip its quoted value (with `\"` escapes) up to `]`.
                let mut j = i + 1;
                let mut quoted = false;
                while j < text.len() && (quoted || text[j] != b']') && text[j] != b'\n' {
                    match text[j] {
                        b'\\' if quoted => j += 1,
                        b'"' => quoted = !quoted,
                        _ => {}
                    }
                    j += 1;
                }
                i = j + 1;
            }
            b'{' => {
                let mut j = i + 1;
                let mut hidden = None;
                while j < text.len() && text[j] != b'}' {
                    if text[j - 1] == b'\n' && tag_line_at(j) {
                        hidden = Some(j);
                        break;
                    }
                    j += 1;
                }
                match hidden {
                    Some(resume_at) => {
                        found.push(UnterminatedComment {
                            line: line_of(i),
                            resume_at,
                            resume_line: line_of(resume_at),
                        });
                        i = resume_at;
                    }
                    None => i = j + 1,
                }
            }
            _ => i += 1,
        }
    }
    found
}

/// The game a comment was left open in, as an unreadable game.
pub(super) fn unreadable_by_comment(
    game: ReadGame,
    broken: &UnterminatedComment,
) -> UnreadableGame {
    let error = format!(
        "The comment opened with `{{` on line {} is never closed: it runs into the next \
         game's tags on line {}. Nothing of this game is recorded; close the comment with `}}` \
         and import the file again (the games after it are read as usual).",
        broken.line, broken.resume_line
    );
    match game {
        ReadGame::Planned(plan) => UnreadableGame {
            index: plan.index,
            error,
            white: Some(plan.settings.white.name.clone()),
            black: Some(plan.settings.black.name.clone()),
            event: Some(plan.settings.event.clone()),
        },
        ReadGame::Unreadable(unreadable) => UnreadableGame {
            error,
            ..unreadable
        },
    }
}

/// A game as written in the file.
#[derive(Clone, Debug, Default)]
pub(crate) struct RawGame {
    /// The tags, in file order.
    pub(crate) tags: Vec<(String, String)>,
    /// The moves as written (not checked against any position), each with its `[%clk]`
    /// reading in milliseconds.
    pub(crate) moves: Vec<(SanPlus, Option<u64>)>,
    /// The movetext's result token.
    pub(crate) outcome: Option<String>,
}

impl RawGame {
    /// Whether this is a game: it has a move or one of the seven tags of the PGN roster. Text
    /// with neither (a note before the first game, stray words or brackets) is not.
    pub(crate) fn is_game(&self) -> bool {
        let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
        !self.moves.is_empty()
            || self
                .tags
                .iter()
                .any(|(name, _)| roster.contains(&name.as_str()))
    }

    pub(crate) fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Collects each game of a file as written ([`RawGame`]).
#[derive(Default)]
pub(crate) struct CollectingVisitor {
    pub(super) game: RawGame,
}

impl Visitor for CollectingVisitor {
    type Tags = ();
    type Movetext = ();
    type Output = RawGame;

    fn begin_tags(&mut self) -> ControlFlow<RawGame, ()> {
        self.game = RawGame::default();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<RawGame> {
        self.game.tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<RawGame, ()> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _movetext: &mut (), san_plus: SanPlus) -> ControlFlow<RawGame> {
        self.game.moves.push((san_plus, None));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _movetext: &mut (), comment: RawComment<'_>) -> ControlFlow<RawGame> {
        if let Some(ms) = parse_clock_comment(comment.as_bytes())
            && let Some((_, clock)) = self.game.moves.last_mut()
        {
            *clock = Some(ms);
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _movetext: &mut (), outcome: shakmaty::Outcome) -> ControlFlow<RawGame> {
        self.game.outcome = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _movetext: ()) -> RawGame {
        std::mem::take(&mut self.game)
    }
}
