//! Real games for the benchmark: the main lines of the PGN files, read once with pgn-reader
//! and cut by the service's own engine where the game ends by itself (checkmate, stalemate,
//! dead position, fivefold, 75 moves), so that no request of the benchmark is refused with
//! `game_over`.

use std::fs::File;
use std::io::BufReader;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{Context, bail};
use arbiter::game::Game;
use arbiter::game::event::{Event, GameSettings, RecordedEvent, ServiceEvent, Side};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};

/// A game of a PGN file, as it can be recorded.
#[derive(Clone, Debug)]
pub struct BenchGame {
    /// Which file and the 0-based index in it (for messages).
    pub origin: String,
    /// The `White` tag (or `?`).
    pub white: String,
    /// The `Black` tag (or `?`).
    pub black: String,
    /// The SAN moves of the main line up to the engine's end of the game (inclusive).
    pub sans: Vec<String>,
    /// Whether the engine ends the game with the last move of `sans`.
    pub ends: bool,
    /// The events the service stores after `game_created` when these moves are recorded one
    /// by one (moves and the decisions they cause); filled only when asked for.
    pub stored: Vec<Event>,
}

impl BenchGame {
    /// The side that plays ply `index` (0-based) from the standard start.
    pub fn side(index: usize) -> Side {
        if index.is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        }
    }
}

/// The settings every benchmark game is created with (the README's example time control).
pub fn settings_json(white: &str, black: &str, event: &str, round: &str) -> serde_json::Value {
    serde_json::json!({
        "white": {"name": white},
        "black": {"name": black},
        "event": event,
        "round": round,
        "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000}
    })
}

/// [`settings_json`] as the engine's type.
pub fn settings(white: &str, black: &str, event: &str, round: &str) -> GameSettings {
    serde_json::from_value(settings_json(white, black, event, round))
        .expect("the benchmark's settings are valid")
}

/// The default PGN files: every `*.pgn` of `$BENCH_GAMES_DIR` if set, else of
/// `../shared/data/games` next to the repository, else of `tests/shared/data/games`.
pub fn default_pgn_files() -> anyhow::Result<Vec<PathBuf>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut candidates = vec![root.join("../shared/data/games")];
    if let Ok(main) = std::env::var("BENCH_GAMES_DIR") {
        candidates.insert(0, PathBuf::from(main));
    }
    candidates.push(root.join("tests/shared/data/games"));
    for dir in candidates {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
            .collect();
        files.sort();
        if !files.is_empty() {
            return Ok(files);
        }
    }
    bail!("no PGN files found in ../shared/data/games or tests/shared/data/games; pass --pgn")
}

#[derive(Default)]
struct Raw {
    white: Option<String>,
    black: Option<String>,
    custom_start: bool,
    sans: Vec<String>,
}

struct Collect;

impl Visitor for Collect {
    type Tags = Raw;
    type Movetext = Raw;
    type Output = Raw;

    fn begin_tags(&mut self) -> ControlFlow<Raw, Raw> {
        ControlFlow::Continue(Raw::default())
    }

    fn tag(&mut self, tags: &mut Raw, name: &[u8], value: RawTag<'_>) -> ControlFlow<Raw> {
        let text = || {
            let t: String = value
                .decode_utf8_lossy()
                .chars()
                .filter(|c| !c.is_control())
                .take(100)
                .collect();
            let t = t.trim().to_string();
            if t.is_empty() { "?".to_string() } else { t }
        };
        match name {
            b"White" => tags.white = Some(text()),
            b"Black" => tags.black = Some(text()),
            b"FEN" | b"SetUp" | b"Variant" => tags.custom_start = true,
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Raw) -> ControlFlow<Raw, Raw> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, movetext: &mut Raw, san_plus: SanPlus) -> ControlFlow<Raw> {
        movetext.sans.push(san_plus.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Raw) -> Raw {
        movetext
    }
}

/// Reads the main lines of `files` (games from a custom start position are skipped).
fn read_raw(files: &[PathBuf]) -> anyhow::Result<Vec<(String, Raw)>> {
    let mut out = Vec::new();
    for path in files {
        let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
        let mut reader = Reader::new(BufReader::new(file));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut index = 0;
        while let Some(raw) = reader
            .read_game(&mut Collect)
            .with_context(|| format!("reading {}", path.display()))?
        {
            if !raw.custom_start && !raw.sans.is_empty() {
                out.push((format!("{name}#{index}"), raw));
            }
            index += 1;
        }
    }
    Ok(out)
}

/// Folds `raw` through the engine, as the service would judge it move by move, and cuts it
/// where the game ends or a move is refused.
fn cut(origin: String, raw: Raw, keep_stored: bool) -> Option<BenchGame> {
    let white = raw.white.unwrap_or_else(|| "?".into());
    let black = raw.black.unwrap_or_else(|| "?".into());
    let settings = settings(&white, &black, "cut", "1");
    let mut game = Game::new(&settings).ok()?;
    game.apply(
        1,
        &Event::Service(ServiceEvent::GameCreated(Box::new(settings.clone()))),
    )
    .ok()?;
    let mut seq = 2u64;
    let mut sans = Vec::with_capacity(raw.sans.len());
    let mut stored = Vec::new();
    for (index, san) in raw.sans.into_iter().enumerate() {
        let event = RecordedEvent::Move {
            by: BenchGame::side(index),
            san,
        };
        let Ok(decisions) = game.record(seq, &event) else {
            break;
        };
        seq += 1 + decisions.len() as u64;
        let RecordedEvent::Move { san, .. } = &event else {
            unreachable!()
        };
        sans.push(san.clone());
        if keep_stored {
            stored.push(Event::Recorded(event));
            stored.extend(decisions.into_iter().map(Event::Service));
        }
        if game.is_over() {
            break;
        }
    }
    if sans.is_empty() {
        return None;
    }
    Some(BenchGame {
        origin,
        white,
        black,
        sans,
        ends: game.is_over(),
        stored,
    })
}

/// The games of `files`, each cut by the engine, in file order; the engine runs on
/// `threads` threads.
pub fn load(
    files: &[PathBuf],
    keep_stored: bool,
    threads: usize,
) -> anyhow::Result<Vec<BenchGame>> {
    let raw = read_raw(files)?;
    let total = raw.len();
    let queue = Arc::new(Mutex::new(raw.into_iter().enumerate()));
    let results = Arc::new(Mutex::new(Vec::with_capacity(total)));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let queue = Arc::clone(&queue);
            let results = Arc::clone(&results);
            scope.spawn(move || {
                loop {
                    let item = queue.lock().expect("queue").next();
                    let Some((position, (origin, raw))) = item else {
                        break;
                    };
                    if let Some(game) = cut(origin, raw, keep_stored) {
                        results.lock().expect("results").push((position, game));
                    }
                }
            });
        }
    });
    let mut games = std::mem::take(&mut *results.lock().expect("results"));
    games.sort_by_key(|(position, _)| *position);
    let games: Vec<BenchGame> = games.into_iter().map(|(_, g)| g).collect();
    if games.is_empty() {
        bail!("no playable game in {files:?}");
    }
    Ok(games)
}
