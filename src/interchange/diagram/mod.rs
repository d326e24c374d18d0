//! Board diagrams as SVG, for the arbiter's desk, appeals committees and the notice board.
//!
//! Why our own renderer: a diagram for an arbiter shows what a diagram service does not
//! (lichess's web-boardimage, python-chess's `chess.svg`): the square of a piece touched with
//! intent to move it (4.3, which also costs the right to claim on that move, 9.4), an illegal
//! move drawn as a red arrow (7.5), a caption with the move number, the side to move, the
//! clocks and the event the diagram was drawn at, and a *sheet* of several positions side by
//! side, for the occurrences of a repeated position in a repetition claim (9.2). The rest is
//! what those services offer: orientation, coordinates, size, the last move, check, and
//! arrows and circled squares in the four colours of PGN's `[%cal Ge2e4]` / `[%csl Rd5]`
//! (green, red, yellow, blue).
//!
//! The piece images are the cburnett set by Colin M.L. Burnett (triple licensed GFDL, BSD and
//! GPL; taken from python-chess 1.11.2, see `assets/pieces/cburnett/README.md`), embedded in
//! the binary so that diagrams render offline. Output is deterministic: the same input gives
//! the same bytes, which is what the golden-file tests rely on.
//!
//! Pure: no I/O, no database, no clock. The drawing is here (a diagram, a sheet, the SVG
//! document); what is marked on a board is read in `marks.rs`, and a game's diagrams and
//! captions are made from its log in `of_game.rs`.

use std::fmt::Write as _;

use shakmaty::{Chess, Color, Position, Role, Square};

mod marks;
mod of_game;

pub use marks::{
    Arrow, Circle, MarkColour, MarkError, illegal_move_squares, marks_in_pgn_comment, move_squares,
};
pub use of_game::{
    DrawnAt, board_at, clock_text, clocks_line, game_diagram, last_clock_readings,
    occurrence_sheet, ply_diagram, position_line,
};

/// The side of a square, in drawing units (the pieces are drawn on a 45-unit grid).
const SQUARE: f64 = 45.0;
/// The width of the coordinate margin (left and bottom), in units.
const MARGIN: f64 = 15.0;
/// The height of a caption line, in units.
const CAPTION_LINE: f64 = 16.0;
/// The gap between the panels of a sheet, in units.
const GAP: f64 = 12.0;
/// The most panels a sheet puts in one row.
const SHEET_COLUMNS: usize = 4;

/// The default width of one board drawing, in pixels.
pub const DEFAULT_SIZE: u32 = 360;
/// The smallest width accepted, in pixels.
pub const MIN_SIZE: u32 = 64;
/// The largest width accepted, in pixels.
pub const MAX_SIZE: u32 = 2048;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const LAST_MOVE: &str = "#9bc700";
const TOUCHED: &str = "#1565c0";
const ILLEGAL: &str = "#d50000";

/// One board drawing: a position and what is marked on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    board: shakmaty::Board,
    flipped: bool,
    coordinates: bool,
    size: u32,
    last_move: Option<(Square, Square)>,
    check: Option<Square>,
    touched: Option<Square>,
    illegal_move: Option<(Square, Square)>,
    arrows: Vec<Arrow>,
    circles: Vec<Circle>,
    caption: Vec<String>,
}

impl Diagram {
    /// The diagram of `position` from White's side, with coordinates, [`DEFAULT_SIZE`] pixels
    /// wide; the king of the side to move is marked when it is in check.
    pub fn new(position: &Chess) -> Diagram {
        let check = if position.is_check() {
            position.board().king_of(position.turn())
        } else {
            None
        };
        Diagram {
            board: position.board().clone(),
            flipped: false,
            coordinates: true,
            size: DEFAULT_SIZE,
            last_move: None,
            check,
            touched: None,
            illegal_move: None,
            arrows: Vec::new(),
            circles: Vec::new(),
            caption: Vec::new(),
        }
    }

    /// Black at the bottom when `flipped`.
    pub fn flipped(mut self, flipped: bool) -> Self {
        self.flipped = flipped;
        self
    }

    /// Files and ranks in a margin on the left and at the bottom.
    pub fn coordinates(mut self, coordinates: bool) -> Self {
        self.coordinates = coordinates;
        self
    }

    /// The width of the board drawing in pixels, clamped to [`MIN_SIZE`]..=[`MAX_SIZE`].
    pub fn size(mut self, pixels: u32) -> Self {
        self.size = pixels.clamp(MIN_SIZE, MAX_SIZE);
        self
    }

    /// Highlights the squares of the last move.
    pub fn last_move(mut self, from: Square, to: Square) -> Self {
        self.last_move = Some((from, to));
        self
    }

    /// Marks the square of a piece touched with intent to move or capture it (4.3).
    pub fn touched(mut self, square: Square) -> Self {
        self.touched = Some(square);
        self
    }

    /// Draws an illegal move as a red arrow (7.5).
    pub fn illegal_move(mut self, from: Square, to: Square) -> Self {
        self.illegal_move = Some((from, to));
        self
    }

    /// Adds arrows.
    pub fn arrows(mut self, arrows: impl IntoIterator<Item = Arrow>) -> Self {
        self.arrows.extend(arrows);
        self
    }

    /// Adds circled squares.
    pub fn circles(mut self, circles: impl IntoIterator<Item = Circle>) -> Self {
        self.circles.extend(circles);
        self
    }

    /// Adds lines of caption under the board.
    pub fn caption(mut self, lines: impl IntoIterator<Item = String>) -> Self {
        self.caption.extend(lines);
        self
    }

    /// The diagram as a standalone SVG document.
    pub fn render(&self) -> String {
        let (width, height) = self.units();
        let mut body = String::new();
        self.draw(&mut body, 0.0, 0.0);
        document(width, height, self.size, std::slice::from_ref(self), &body)
    }

    /// The caption, wrapped to the width of the drawing.
    fn caption_lines(&self) -> Vec<String> {
        let margin = if self.coordinates { MARGIN } else { 0.0 };
        let width = 8.0 * SQUARE + margin;
        self.caption
            .iter()
            .flat_map(|line| wrap(line, (width / 6.6) as usize))
            .collect()
    }

    /// Width and height in drawing units.
    fn units(&self) -> (f64, f64) {
        let margin = if self.coordinates { MARGIN } else { 0.0 };
        let lines = self.caption_lines().len();
        let captions = if lines == 0 {
            0.0
        } else {
            lines as f64 * CAPTION_LINE + 6.0
        };
        (8.0 * SQUARE + margin, 8.0 * SQUARE + margin + captions)
    }

    /// The top-left corner of `square`, relative to the board's corner.
    fn corner(&self, square: Square) -> (f64, f64) {
        let file = f64::from(u8::from(square.file()));
        let rank = f64::from(u8::from(square.rank()));
        if self.flipped {
            ((7.0 - file) * SQUARE, rank * SQUARE)
        } else {
            (file * SQUARE, (7.0 - rank) * SQUARE)
        }
    }

    fn centre(&self, square: Square, bx: f64, by: f64) -> (f64, f64) {
        let (x, y) = self.corner(square);
        (bx + x + SQUARE / 2.0, by + y + SQUARE / 2.0)
    }

    /// Writes the drawing with its top-left corner at `(x0, y0)`.
    fn draw(&self, out: &mut String, x0: f64, y0: f64) {
        let (width, _) = self.units();
        let margin = if self.coordinates { MARGIN } else { 0.0 };
        let (bx, by) = (x0 + margin, y0);
        let side = 8.0 * SQUARE;
        let _ = writeln!(out, "<g class=\"board\">");
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{LIGHT}\"/>",
            n(bx),
            n(by),
            n(side),
            n(side)
        );
        for square in Square::ALL {
            if square.is_dark() {
                self.square_rect(out, square, bx, by, DARK, None, None);
            }
        }
        if let Some((from, to)) = self.last_move {
            for square in [from, to] {
                self.square_rect(
                    out,
                    square,
                    bx,
                    by,
                    LAST_MOVE,
                    Some("0.41"),
                    Some("last-move"),
                );
            }
        }
        if let Some(square) = self.check {
            self.square_rect(
                out,
                square,
                bx,
                by,
                "url(#check-gradient)",
                None,
                Some("check"),
            );
        }
        if let Some(square) = self.touched {
            let (x, y) = self.corner(square);
            let _ = writeln!(
                out,
                "<rect class=\"touched\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{TOUCHED}\" stroke-width=\"4\" stroke-dasharray=\"6 3\"/>",
                n(bx + x + 2.0),
                n(by + y + 2.0),
                n(SQUARE - 4.0),
                n(SQUARE - 4.0)
            );
        }
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#404040\" stroke-width=\"1\"/>",
            n(bx + 0.5),
            n(by + 0.5),
            n(side - 1.0),
            n(side - 1.0)
        );
        if self.coordinates {
            self.draw_coordinates(out, x0, bx, by);
        }
        for (square, piece) in &self.board {
            let (x, y) = self.corner(square);
            let id = piece_id(piece.color, piece.role);
            let _ = writeln!(
                out,
                "<use href=\"#{id}\" xlink:href=\"#{id}\" transform=\"translate({}, {})\"/>",
                n(bx + x),
                n(by + y)
            );
        }
        for circle in &self.circles {
            let (cx, cy) = self.centre(circle.square, bx, by);
            let (colour, opacity) = circle.colour.paint();
            let _ = writeln!(
                out,
                "<circle class=\"circle {}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-opacity=\"{opacity}\" stroke-width=\"{}\"/>",
                circle.colour.name(),
                n(cx),
                n(cy),
                n(SQUARE * 0.45 - 2.0),
                n(SQUARE * 0.09)
            );
        }
        for arrow in &self.arrows {
            let (colour, opacity) = arrow.colour.paint();
            let class = format!("arrow {}", arrow.colour.name());
            self.draw_arrow(out, arrow.from, arrow.to, bx, by, &class, colour, opacity);
        }
        if let Some((from, to)) = self.illegal_move {
            self.draw_arrow(out, from, to, bx, by, "illegal-move", ILLEGAL, "0.85");
        }
        for (index, line) in self.caption_lines().iter().enumerate() {
            let y = by + side + margin + 4.0 + CAPTION_LINE * (index as f64 + 1.0) - 4.0;
            let _ = writeln!(
                out,
                "<text class=\"caption\" x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\" fill=\"#202020\">{}</text>",
                n(x0 + width / 2.0),
                n(y),
                escape(line)
            );
        }
        let _ = writeln!(out, "</g>");
    }

    #[allow(clippy::too_many_arguments)]
    fn square_rect(
        &self,
        out: &mut String,
        square: Square,
        bx: f64,
        by: f64,
        fill: &str,
        opacity: Option<&str>,
        class: Option<&str>,
    ) {
        let (x, y) = self.corner(square);
        let class = class.map(|c| format!(" class=\"{c}\"")).unwrap_or_default();
        let opacity = opacity
            .map(|o| format!(" fill-opacity=\"{o}\""))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "<rect{class} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"{opacity}/>",
            n(bx + x),
            n(by + y),
            n(SQUARE),
            n(SQUARE)
        );
    }

    fn draw_coordinates(&self, out: &mut String, x0: f64, bx: f64, by: f64) {
        let text = |out: &mut String, x: f64, y: f64, label: char| {
            let _ = writeln!(
                out,
                "<text class=\"coordinate\" x=\"{}\" y=\"{}\" dy=\"0.35em\" font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"middle\" fill=\"#404040\">{label}</text>",
                n(x),
                n(y)
            );
        };
        for index in 0..8u8 {
            let rank = if self.flipped { index } else { 7 - index };
            text(
                out,
                x0 + MARGIN / 2.0,
                by + f64::from(index) * SQUARE + SQUARE / 2.0,
                char::from(b'1' + rank),
            );
        }
        for index in 0..8u8 {
            let file = if self.flipped { 7 - index } else { index };
            text(
                out,
                bx + f64::from(index) * SQUARE + SQUARE / 2.0,
                by + 8.0 * SQUARE + MARGIN / 2.0,
                char::from(b'a' + file),
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn draw_arrow(
        &self,
        out: &mut String,
        from: Square,
        to: Square,
        bx: f64,
        by: f64,
        class: &str,
        colour: &str,
        opacity: &str,
    ) {
        let (xt, yt) = self.centre(from, bx, by);
        let (xh, yh) = self.centre(to, bx, by);
        if from == to {
            let _ = writeln!(
                out,
                "<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-opacity=\"{opacity}\" stroke-width=\"{}\"/>",
                n(xh),
                n(yh),
                n(SQUARE * 0.45 - 2.0),
                n(SQUARE * 0.09)
            );
            return;
        }
        let head = 0.75 * SQUARE;
        let gap = 0.1 * SQUARE;
        let (dx, dy) = (xh - xt, yh - yt);
        let length = dx.hypot(dy);
        let (ux, uy) = (dx / length, dy / length);
        let (shaft_x, shaft_y) = (xh - ux * (head + gap), yh - uy * (head + gap));
        let (tip_x, tip_y) = (xh - ux * gap, yh - uy * gap);
        let half = head / 2.0;
        let _ = writeln!(
            out,
            "<g class=\"{class}\" fill=\"{colour}\" stroke=\"{colour}\" fill-opacity=\"{opacity}\" stroke-opacity=\"{opacity}\">\
             <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke-width=\"{}\" stroke-linecap=\"butt\"/>\
             <polygon stroke=\"none\" points=\"{},{} {},{} {},{}\"/></g>",
            n(xt),
            n(yt),
            n(shaft_x),
            n(shaft_y),
            n(SQUARE * 0.2),
            n(tip_x),
            n(tip_y),
            n(shaft_x + uy * half),
            n(shaft_y - ux * half),
            n(shaft_x - uy * half),
            n(shaft_y + ux * half),
        );
    }
}

/// Several diagrams side by side with a title: the occurrences of a repeated position in a
/// repetition claim (9.2), for the players, the arbiter and an appeals committee.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    title: Vec<String>,
    panels: Vec<Diagram>,
}

impl Sheet {
    /// A sheet with title lines and no panel yet.
    pub fn new(title: impl IntoIterator<Item = String>) -> Sheet {
        Sheet {
            title: title.into_iter().collect(),
            panels: Vec::new(),
        }
    }

    /// Adds a panel (at most four in a row; more go on the next row).
    pub fn panel(mut self, diagram: Diagram) -> Self {
        self.panels.push(diagram);
        self
    }

    /// The sheet as a standalone SVG document; its pixel width is that of the panels' `size`
    /// (the first panel's) times their number in a row.
    pub fn render(&self) -> String {
        let columns = self.panels.len().clamp(1, SHEET_COLUMNS);
        let cell_width = self
            .panels
            .iter()
            .map(|p| p.units().0)
            .fold(8.0 * SQUARE, f64::max);
        let cell_height = self
            .panels
            .iter()
            .map(|p| p.units().1)
            .fold(8.0 * SQUARE, f64::max);
        let rows = self.panels.len().div_ceil(columns).max(1);
        let width = columns as f64 * cell_width + (columns as f64 - 1.0) * GAP + 2.0 * GAP;
        let title: Vec<(usize, String)> = self
            .title
            .iter()
            .enumerate()
            .flat_map(|(index, line)| {
                let per_char = if index == 0 { 9.0 } else { 7.2 };
                wrap(line, ((width - 2.0 * GAP) / per_char) as usize)
                    .into_iter()
                    .map(move |part| (index, part))
            })
            .collect();
        let title_height = if title.is_empty() {
            0.0
        } else {
            title.len() as f64 * 20.0 + 8.0
        };
        let height = title_height + rows as f64 * cell_height + rows as f64 * GAP + GAP;
        let mut body = String::new();
        for (row, (index, line)) in title.iter().enumerate() {
            let _ = writeln!(
                body,
                "<text class=\"title\" x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"{}\" font-weight=\"{}\" text-anchor=\"middle\" fill=\"#202020\">{}</text>",
                n(width / 2.0),
                n(GAP + 20.0 * (row as f64 + 1.0) - 4.0),
                if *index == 0 { 16 } else { 13 },
                if *index == 0 { "bold" } else { "normal" },
                escape(line)
            );
        }
        for (index, panel) in self.panels.iter().enumerate() {
            let column = (index % columns) as f64;
            let row = (index / columns) as f64;
            panel.draw(
                &mut body,
                GAP + column * (cell_width + GAP),
                title_height + GAP + row * (cell_height + GAP),
            );
        }
        let panel_size = self.panels.first().map_or(DEFAULT_SIZE, |p| p.size);
        let pixels = (f64::from(panel_size) * width / cell_width).round() as u32;
        document(width, height, pixels, &self.panels, &body)
    }
}

/// The `id` of a piece's drawing in `<defs>`.
fn piece_id(color: Color, role: Role) -> &'static str {
    match (color, role) {
        (Color::White, Role::King) => "white-king",
        (Color::White, Role::Queen) => "white-queen",
        (Color::White, Role::Rook) => "white-rook",
        (Color::White, Role::Bishop) => "white-bishop",
        (Color::White, Role::Knight) => "white-knight",
        (Color::White, Role::Pawn) => "white-pawn",
        (Color::Black, Role::King) => "black-king",
        (Color::Black, Role::Queen) => "black-queen",
        (Color::Black, Role::Rook) => "black-rook",
        (Color::Black, Role::Bishop) => "black-bishop",
        (Color::Black, Role::Knight) => "black-knight",
        (Color::Black, Role::Pawn) => "black-pawn",
    }
}

/// The cburnett drawing of a piece: a `<g>` with its `id`, on a 45-unit square.
fn piece_drawing(color: Color, role: Role) -> &'static str {
    match (color, role) {
        (Color::White, Role::King) => {
            include_str!("../../../assets/pieces/cburnett/white-king.svg")
        }
        (Color::White, Role::Queen) => {
            include_str!("../../../assets/pieces/cburnett/white-queen.svg")
        }
        (Color::White, Role::Rook) => {
            include_str!("../../../assets/pieces/cburnett/white-rook.svg")
        }
        (Color::White, Role::Bishop) => {
            include_str!("../../../assets/pieces/cburnett/white-bishop.svg")
        }
        (Color::White, Role::Knight) => {
            include_str!("../../../assets/pieces/cburnett/white-knight.svg")
        }
        (Color::White, Role::Pawn) => {
            include_str!("../../../assets/pieces/cburnett/white-pawn.svg")
        }
        (Color::Black, Role::King) => {
            include_str!("../../../assets/pieces/cburnett/black-king.svg")
        }
        (Color::Black, Role::Queen) => {
            include_str!("../../../assets/pieces/cburnett/black-queen.svg")
        }
        (Color::Black, Role::Rook) => {
            include_str!("../../../assets/pieces/cburnett/black-rook.svg")
        }
        (Color::Black, Role::Bishop) => {
            include_str!("../../../assets/pieces/cburnett/black-bishop.svg")
        }
        (Color::Black, Role::Knight) => {
            include_str!("../../../assets/pieces/cburnett/black-knight.svg")
        }
        (Color::Black, Role::Pawn) => {
            include_str!("../../../assets/pieces/cburnett/black-pawn.svg")
        }
    }
}

/// The SVG document around `body`: the drawings of the pieces that appear, the check
/// gradient if a king is in check, and the size.
fn document(width: f64, height: f64, pixels: u32, diagrams: &[Diagram], body: &str) -> String {
    let pixel_height = (f64::from(pixels) * height / width).round() as u32;
    let mut out = String::with_capacity(body.len() + 8192);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" viewBox=\"0 0 {} {}\" width=\"{pixels}\" height=\"{pixel_height}\">",
        n(width),
        n(height)
    );
    let _ = writeln!(
        out,
        "<desc>Chess diagram by arbiter; pieces by Colin M.L. Burnett (cburnett, GPL/BSD/GFDL)</desc>"
    );
    let _ = writeln!(out, "<defs>");
    for color in [Color::White, Color::Black] {
        for role in [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            let used = diagrams
                .iter()
                .any(|d| d.board.by_piece(shakmaty::Piece { color, role }).any());
            if used {
                out.push_str(piece_drawing(color, role).trim_end());
                out.push('\n');
            }
        }
    }
    if diagrams.iter().any(|d| d.check.is_some()) {
        let _ = writeln!(
            out,
            "<radialGradient id=\"check-gradient\" r=\"0.5\"><stop offset=\"0%\" stop-color=\"#ff0000\" stop-opacity=\"1\"/><stop offset=\"50%\" stop-color=\"#e70000\" stop-opacity=\"1\"/><stop offset=\"100%\" stop-color=\"#9e0000\" stop-opacity=\"0\"/></radialGradient>"
        );
    }
    let _ = writeln!(out, "</defs>");
    let _ = writeln!(
        out,
        "<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
        n(width),
        n(height)
    );
    out.push_str(body);
    out.push_str("</svg>\n");
    out
}

/// A number in the drawing: at most two decimals, no trailing zeros.
fn n(value: f64) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// `text` in lines of at most `width` characters, broken between words (a longer word
/// stands alone on its line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Text escaped for XML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}
