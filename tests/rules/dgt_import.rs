//! Issue 36, item 4: a PGN whose `[%clk]` readings come from DGT clocks (the first increment
//! credited before move 1, the next period added when a display reaches 0:00) is imported
//! with that clock behaviour, read from the readings, so that the readings the clock itself
//! explains are not reported as discrepancies and each player is in the right period.
//!
//! The readings are the 105 of Xiong - Li Yiheng, FIDE World Cup 2025, round 1.2 (see
//! `time_control.rs`), written on a game of quiet moves (the moves play no part in what the
//! clocks show).

use arbiter::game::Game;
use arbiter::game::event::{ClockBehaviour, Event, ServiceEvent};
use arbiter::game::view::DiscrepancyKind;
use arbiter::interchange::pgn_import::{GamePlan, ReadGame, read_games};

use crate::periods::quiet_game;
use crate::time_control::WORLD_CUP_CLOCKS;

fn world_cup_pgn() -> String {
    let sans = quiet_game(WORLD_CUP_CLOCKS.len());
    let mut text = String::from(
        "[Event \"FIDE World Cup 2025\"]\n[Site \"Goa\"]\n[Date \"2025.11.01\"]\n[Round \"1.2\"]\n\
         [White \"Xiong, Jeffery\"]\n[Black \"Li, Yiheng\"]\n[Result \"*\"]\n\
         [TimeControl \"40/5400+30:1800+30\"]\n\n",
    );
    for (ply, (san, clock)) in sans.iter().zip(WORLD_CUP_CLOCKS).enumerate() {
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&format!("{san} {{[%clk {clock}]}} "));
    }
    text.push_str("*\n");
    text
}

fn plan() -> GamePlan {
    let games = read_games(world_cup_pgn().as_bytes()).expect("reads");
    match games.into_iter().next().expect("one game") {
        ReadGame::Planned(plan) => *plan,
        ReadGame::Unreadable(u) => panic!("unreadable: {}", u.error),
    }
}

/// The game replayed with `plan`'s events and readings under `behaviour`.
fn replay(plan: &GamePlan, behaviour: ClockBehaviour) -> Game {
    let mut settings = plan.settings.clone();
    settings.clock_behaviour = behaviour;
    let mut game = Game::new(&settings).expect("valid");
    game.apply(
        1,
        &Event::Service(ServiceEvent::GameCreated(Box::new(settings))),
    )
    .expect("created");
    let mut seq = 1;
    for planned in &plan.events {
        seq += 1;
        let decisions = game
            .record_with_clock(seq, &planned.event, planned.clock.as_ref())
            .expect("recorded");
        seq += decisions.len() as u64;
    }
    game
}

#[test]
fn given_a_dgt_broadcast_pgn_when_it_is_imported_then_the_clock_behaviour_is_read_from_the_readings_and_no_reading_the_clock_explains_is_a_discrepancy()
 {
    let plan = plan();
    // The readings show the DGT: 1:30:55 after 1.e4 (the increment before the move), and no
    // jump at move 40 (the period added at 0:00).
    assert_eq!(
        plan.settings.clock_behaviour,
        ClockBehaviour::DGT_3000_MULTI_PERIOD
    );
    assert!(
        plan.notes
            .iter()
            .any(|n| n.contains("credited before the move")
                && n.contains("when a display reaches 0:00")),
        "{:?}",
        plan.notes
    );
    let game = replay(&plan, plan.settings.clock_behaviour);
    let view = game.view();
    assert!(
        view.time_control.reading_discrepancies.is_empty(),
        "{:?}",
        view.time_control.reading_discrepancies
    );
    // Both players end in the last period, on the clock as in the Laws.
    for player in [&view.time_control.white, &view.time_control.black] {
        assert_eq!((player.period, player.clock_period), (2, 2), "{player:?}");
    }

    // On the default clock (counting presses, increment after the press) the same readings
    // are reported as more than the clock could show.
    let counting = replay(&plan, ClockBehaviour::default());
    let found = counting.view().time_control.reading_discrepancies;
    assert!(
        !found.is_empty()
            && found
                .iter()
                .all(|d| d.kind == DiscrepancyKind::MoreThanPossible),
        "{found:?}"
    );
}

#[test]
fn given_a_dgt_broadcast_when_each_ply_is_replayed_then_a_player_is_shown_in_period_2_on_the_clock_only_once_the_clock_added_it()
 {
    let plan = plan();
    let mut settings = plan.settings.clone();
    settings.clock_behaviour = plan.settings.clock_behaviour;
    let mut game = Game::new(&settings).expect("valid");
    game.apply(
        1,
        &Event::Service(ServiceEvent::GameCreated(Box::new(settings))),
    )
    .expect("created");
    let mut seq = 1;
    let mut clock_periods = Vec::new();
    for planned in &plan.events {
        seq += 1;
        seq += game
            .record_with_clock(seq, &planned.event, planned.clock.as_ref())
            .expect("recorded")
            .len() as u64;
        let view = game.view();
        clock_periods.push((
            view.time_control.white.clock_period,
            view.time_control.black.clock_period,
        ));
    }
    // Ply 81 is Black's 41st move, during which Black's display passed 0:00 and the DGT
    // added the 30 minutes to both displays: until then both clocks count period 1.
    assert!(clock_periods[..81].iter().all(|&p| p == (1, 1)));
    assert_eq!(clock_periods[81], (2, 2));
    assert!(clock_periods[81..].iter().all(|&p| p == (2, 2)));
}
