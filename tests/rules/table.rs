//! A test table: a game recorded event by event as the service records it.

use arbiter::game::Game;
use arbiter::game::event::{
    Event, GameSettings, LawsEdition, Player, RecordedEvent, Regulations, ServiceEvent, Side,
    TimeControl, TimeControlKind,
};
use arbiter::game::refusal::Refusal;
use serde_json::Value;

/// The worked arbiter cases (`../shared/cases`, or the copy in `tests/shared/cases`).
pub fn cases_path() -> std::path::PathBuf {
    crate::shared::shared("cases/article9-cases.json")
}

/// A case from article9-cases.json.
pub struct Case {
    pub fen: Option<String>,
    pub sans: Vec<String>,
}

pub fn all_cases() -> Vec<Value> {
    let text = std::fs::read_to_string(cases_path()).expect("article9-cases.json is readable");
    serde_json::from_str(&text).expect("article9-cases.json is JSON")
}

pub fn case(id: &str) -> Case {
    let cases = all_cases();
    let found = cases
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("case {id} is in article9-cases.json"));
    Case {
        fen: found["fen"].as_str().map(str::to_string),
        sans: found["sans"]
            .as_array()
            .expect("sans is a list")
            .iter()
            .map(|s| s.as_str().expect("a SAN string").to_string())
            .collect(),
    }
}

pub fn settings(fen: Option<&str>, kind: TimeControlKind) -> GameSettings {
    GameSettings {
        white: Player {
            name: "White, Wanda".into(),
            fide_id: None,
        },
        black: Player {
            name: "Black, Bob".into(),
            fide_id: None,
        },
        event: "Test".into(),
        round: "1".into(),
        board: None,
        site: None,
        start_fen: fen.map(str::to_string),
        date: None,
        start_moves_completed: None,
        start_clocks: None,
        time_control: TimeControl::from_legacy(kind, 5_400_000, 0),
        clock_behaviour: Default::default(),
        laws_edition: LawsEdition::Y2023,
        regulations: Regulations::default(),
    }
}

#[derive(Clone)]
pub struct Table {
    pub game: Game,
    pub seq: u64,
    pub log: Vec<(u64, Event)>,
}

impl Table {
    pub fn with_settings(settings: GameSettings) -> Table {
        let mut game = Game::new(&settings).expect("valid settings");
        let created = Event::Service(ServiceEvent::GameCreated(Box::new(settings)));
        game.apply(1, &created).expect("game_created applies");
        Table {
            game,
            seq: 1,
            log: vec![(1, created)],
        }
    }

    pub fn new(fen: Option<&str>) -> Table {
        Table::with_settings(settings(fen, TimeControlKind::Standard))
    }

    pub fn from_case(id: &str, kind: TimeControlKind) -> Table {
        let c = case(id);
        let mut table = Table::with_settings(settings(c.fen.as_deref(), kind));
        table.play_all(&c.sans);
        table
    }

    /// Record the event as the service does (`Game::record`: judged and applied with its
    /// decisions in one step) and keep the log it would store.
    pub fn record(&mut self, event: RecordedEvent) -> Result<Vec<ServiceEvent>, Refusal> {
        let seq = self.seq + 1;
        let decisions = self.game.record(seq, &event)?;
        self.log.push((seq, Event::Recorded(event)));
        self.seq = seq;
        for decision in &decisions {
            self.seq += 1;
            self.log.push((self.seq, Event::Service(decision.clone())));
        }
        Ok(decisions)
    }

    pub fn play(&mut self, san: &str) -> Vec<ServiceEvent> {
        let by: Side = self.game.position_turn();
        self.record(RecordedEvent::Move {
            by,
            san: san.to_string(),
        })
        .unwrap_or_else(|r| panic!("{san} is accepted: {r}"))
    }

    pub fn play_all(&mut self, sans: &[String]) {
        for san in sans {
            self.play(san);
        }
    }
}

pub trait TurnOf {
    fn position_turn(&self) -> Side;
}

impl TurnOf for Game {
    fn position_turn(&self) -> Side {
        use shakmaty::Position;
        self.position().turn().into()
    }
}

/// The `claim_ruled` among `decisions`.
pub fn ruling(decisions: &[ServiceEvent]) -> &arbiter::game::event::ClaimRuling {
    decisions
        .iter()
        .find_map(|d| match d {
            ServiceEvent::ClaimRuled(r) => Some(r.as_ref()),
            _ => None,
        })
        .expect("a claim_ruled decision")
}

/// The result, termination and article of the `game_ended` among `decisions`.
pub fn ended(
    decisions: &[ServiceEvent],
) -> Option<(
    arbiter::game::event::GameResult,
    arbiter::game::event::Termination,
    String,
)> {
    decisions.iter().find_map(|d| match d {
        ServiceEvent::GameEnded {
            result,
            termination,
            article,
            ..
        } => Some((*result, *termination, article.clone())),
        _ => None,
    })
}
