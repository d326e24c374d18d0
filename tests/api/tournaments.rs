//! Tournaments and rounds through the JSON API: settings, pairings from a list, a CSV file
//! and a real TRF-16 file, idempotent loading, conflicts, and games created the old way.

use crate::support::{TestDb, assert_problem, bearer, send, send_raw, standard_game};
use actix_web::test;
use serde_json::{Value, json};

/// The sample TRF(x) of the JaVaFo manual: the XX Open Internacional de Gros (Donostia,
/// 2010) after four rounds (see tests/data/README.md).
pub const GROS_TRF: &str = include_str!("../data/gros-2010.trf");

pub fn city_open() -> Value {
    json!({
        "name": "City Open 2026",
        "site": "Town Hall, Ghent",
        "starts_on": "2026-11-20",
        "ends_on": "2026-11-24",
        "time_control": {"kind": "standard", "base_ms": 7_200_000, "increment_ms": 0},
        "laws_edition": "2023",
        "regulations": {"draw_offers": "allowed", "earliest_agreement_move": 20, "quickplay_finish": true},
        "arbiters": ["IA Anna Sokolova (chief)", "FA Ben Okafor"]
    })
}

macro_rules! app {
    ($db:expr) => {
        test::init_service(arbiter::startup::app($db.state())).await
    };
}

async fn create<S, B>(app: &S, db: &TestDb, settings: Value) -> String
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let (status, body, _) = send(app, db.post().uri("/v1/tournaments").set_json(settings)).await;
    assert_eq!(status, 201, "{body}");
    body["tournament_id"].as_str().expect("id").to_string()
}

#[actix_web::test]
async fn a_tournament_is_created_listed_fetched_and_changed_but_never_renamed() {
    let db = TestDb::new().await;
    let app = app!(db);
    let id = create(&app, &db, city_open()).await;
    let (status, list, _) = send(&app, db.get().uri("/v1/tournaments")).await;
    assert_eq!(status, 200);
    assert_eq!(list[0]["name"], "City Open 2026");
    assert_eq!(list[0]["arbiters"][0], "IA Anna Sokolova (chief)");
    let (status, one, _) = send(&app, db.get().uri(&format!("/v1/tournaments/{id}"))).await;
    assert_eq!(status, 200);
    assert_eq!(one["regulations"]["earliest_agreement_move"], 20);

    let mut changed = city_open();
    changed["time_control"]["increment_ms"] = json!(30_000);
    let (status, body, _) = send(
        &app,
        test::TestRequest::put()
            .insert_header(bearer(&db.arbiter))
            .uri(&format!("/v1/tournaments/{id}"))
            .set_json(&changed),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["time_control"]["increment_ms"], 30_000);

    changed["name"] = json!("Another name");
    let reply = send(
        &app,
        test::TestRequest::put()
            .insert_header(bearer(&db.arbiter))
            .uri(&format!("/v1/tournaments/{id}"))
            .set_json(&changed),
    )
    .await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.1["field"], "name");

    let reply = send(&app, db.post().uri("/v1/tournaments").set_json(city_open())).await;
    assert_problem(&reply, 409, "tournament_name_taken");
    db.finish().await;
}

#[actix_web::test]
async fn a_reader_cannot_set_up_a_tournament_and_wrong_settings_name_their_field() {
    let db = TestDb::new().await;
    let app = app!(db);
    let reply = send(
        &app,
        test::TestRequest::post()
            .insert_header(bearer(&db.reader))
            .uri("/v1/tournaments")
            .set_json(city_open()),
    )
    .await;
    assert_problem(&reply, 403, "forbidden");
    let mut wrong = city_open();
    wrong["ends_on"] = json!("2026-11-01");
    let reply = send(&app, db.post().uri("/v1/tournaments").set_json(&wrong)).await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.1["field"], "ends_on");
    let mut wrong = city_open();
    wrong["time_control"]["base_ms"] = json!(0);
    let reply = send(&app, db.post().uri("/v1/tournaments").set_json(&wrong)).await;
    assert_eq!(reply.1["field"], "time_control.base_ms");
    // The fair-play report's deadline is at most a year after the event, as the document
    // says (schemathesis found 366 accepted and then served against the document).
    let mut wrong = city_open();
    wrong["regulations"]["fair_play_report_days"] = json!(366);
    let reply = send(&app, db.post().uri("/v1/tournaments").set_json(&wrong)).await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.1["field"], "regulations.fair_play_report_days");
    // The appeals procedure's texts are as long as the document says (schemathesis found a
    // regulation of 300 characters accepted and then served against the document).
    let mut wrong = city_open();
    wrong["regulations"]["appeals"] = json!({"regulation": "0".repeat(201)});
    let reply = send(&app, db.post().uri("/v1/tournaments").set_json(&wrong)).await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.1["field"], "regulations.appeals.regulation");
    db.finish().await;
}

#[actix_web::test]
async fn a_round_loaded_twice_creates_its_games_once_with_the_tournament_settings() {
    let db = TestDb::new().await;
    let app = app!(db);
    let id = create(&app, &db, city_open()).await;
    let pairings = json!({"pairings": [
        {"board": 2, "white": {"name": "Okafor, Ben"}, "black": {"name": "Lee, Ann", "fide_id": 4100002}},
        {"board": 1, "white": {"name": "Sokolova, Anna", "fide_id": 4100001}, "black": {"name": "Meier, Jan"}}
    ], "overrides": {"2": {"laws_edition": "2018"}}});
    let uri = format!("/v1/tournaments/{id}/rounds/1/pairings");
    let (status, first, _) = send(&app, db.post().uri(&uri).set_json(&pairings)).await;
    assert_eq!(status, 201, "{first}");
    assert_eq!(first["games"].as_array().map(Vec::len), Some(2));
    assert_eq!(first["games"][0]["board"], 1);
    assert_eq!(first["games"][0]["created"], true);
    let events_after_first = db.event_count().await;

    let (status, again, _) = send(&app, db.post().uri(&uri).set_json(&pairings)).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["games"][0]["game_id"], first["games"][0]["game_id"]);
    assert_eq!(again["games"][0]["created"], false);
    assert_eq!(
        db.event_count().await,
        events_after_first,
        "nothing stored twice"
    );

    let game = first["games"][0]["game_id"].as_str().expect("id");
    let (_, detail, _) = send(&app, db.get().uri(&format!("/v1/games/{game}"))).await;
    let settings = &detail["game"]["settings"];
    assert_eq!(settings["event"], "City Open 2026");
    assert_eq!(settings["round"], "1");
    assert_eq!(settings["board"], 1);
    assert_eq!(settings["site"], "Town Hall, Ghent");
    assert_eq!(settings["time_control"]["base_ms"], 7_200_000);
    assert_eq!(settings["regulations"]["quickplay_finish"], true);
    assert_eq!(settings["laws_edition"], "2023");
    let other = first["games"][1]["game_id"].as_str().expect("id");
    let (_, detail, _) = send(&app, db.get().uri(&format!("/v1/games/{other}"))).await;
    assert_eq!(
        detail["game"]["settings"]["laws_edition"], "2018",
        "the board's override"
    );
    db.finish().await;
}

#[actix_web::test]
async fn a_tournament_with_the_fide_standard_preset_and_dgt_clocks_gives_its_games_both() {
    let db = TestDb::new().await;
    let app = app!(db);
    let mut settings = city_open();
    settings["time_control"] = json!({"preset": "fide_standard"});
    settings["clock_behaviour"] =
        json!({"period_time_added": "at_zero_both_clocks", "increment_credit": "before_move"});
    let id = create(&app, &db, settings).await;
    let (_, stored, _) = send(&app, db.get().uri(&format!("/v1/tournaments/{id}"))).await;
    let periods = json!([
        {"time_ms": 5_400_000, "moves": 40, "bonus": {"mode": "increment", "ms": 30_000}},
        {"time_ms": 1_800_000, "bonus": {"mode": "increment", "ms": 30_000}}
    ]);
    assert_eq!(
        stored["time_control"],
        json!({"kind": "standard", "periods": periods})
    );
    assert_eq!(
        stored["clock_behaviour"]["period_time_added"],
        "at_zero_both_clocks"
    );
    let uri = format!("/v1/tournaments/{id}/rounds/1/pairings");
    let csv = "board,white,black\n1,\"Sokolova, Anna\",\"Meier, Jan\"\n";
    let (status, loaded, _) = send(&app, db.post().uri(&uri).set_json(json!({"csv": csv}))).await;
    assert_eq!(status, 201, "{loaded}");
    let game = loaded["games"][0]["game_id"].as_str().expect("id");
    let (_, detail, _) = send(&app, db.get().uri(&format!("/v1/games/{game}"))).await;
    let game_settings = &detail["game"]["settings"];
    assert_eq!(game_settings["time_control"]["periods"], periods);
    assert_eq!(
        game_settings["clock_behaviour"],
        json!({"period_time_added": "at_zero_both_clocks", "increment_credit": "before_move"})
    );
    // The DGT habit: the first increment is on both clocks before move 1.
    assert_eq!(detail["state"]["clocks"]["white_ms"], 5_430_000);
    assert_eq!(
        detail["state"]["time_control"]["white"]["moves_to_control"],
        40
    );

    // A tournament of the old one-period form has no clock behaviour written.
    let old = create(&app, &db, {
        let mut s = city_open();
        s["name"] = json!("Old Open");
        s
    })
    .await;
    let (_, stored, _) = send(&app, db.get().uri(&format!("/v1/tournaments/{old}"))).await;
    assert!(stored.get("clock_behaviour").is_none(), "{stored}");
    assert_eq!(stored["time_control"]["base_ms"], 7_200_000);
    db.finish().await;
}

#[actix_web::test]
async fn a_tournament_control_that_contradicts_its_rate_of_play_is_refused_with_the_field_named() {
    let db = TestDb::new().await;
    let app = app!(db);
    let mut wrong = city_open();
    wrong["time_control"] = json!({"kind": "standard", "preset": "blitz_3_plus_2"});
    let reply = send(&app, db.post().uri("/v1/tournaments").set_json(&wrong)).await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.1["field"], "time_control.kind");
    assert!(
        reply.1["detail"]
            .as_str()
            .is_some_and(|d| d.contains("blitz by B.1")),
        "{}",
        reply.1
    );
    let mut wrong = city_open();
    wrong["clock_behaviour"] = json!({"period_time_added": "when_it_likes"});
    let (status, body, _) = send(&app, db.post().uri("/v1/tournaments").set_json(&wrong)).await;
    assert!(matches!(status, 400 | 422), "{status}: {body}");
    assert_eq!(db.event_count().await, 0);
    db.finish().await;
}

#[actix_web::test]
async fn other_players_on_a_loaded_board_refuse_the_whole_round_and_create_nothing() {
    let db = TestDb::new().await;
    let app = app!(db);
    let id = create(&app, &db, city_open()).await;
    let uri = format!("/v1/tournaments/{id}/rounds/1/pairings");
    let csv = "board,white,black\n1,\"Sokolova, Anna\",\"Meier, Jan\"\n";
    let (status, body, _) = send(&app, db.post().uri(&uri).set_json(json!({"csv": csv}))).await;
    assert_eq!(status, 201, "{body}");
    let before = db.event_count().await;
    let changed = "board,white,black\n1,\"Meier, Jan\",\"Sokolova, Anna\"\n2,A,B\n";
    let reply = send(&app, db.post().uri(&uri).set_json(json!({"csv": changed}))).await;
    assert_problem(&reply, 409, "round_conflict");
    assert!(
        reply.1["detail"]
            .as_str()
            .is_some_and(|d| d.contains("board 1"))
    );
    assert_eq!(
        db.event_count().await,
        before,
        "board 2 was not created either"
    );
    db.finish().await;
}

#[actix_web::test]
async fn a_csv_line_that_cannot_be_read_is_named() {
    let db = TestDb::new().await;
    let app = app!(db);
    let id = create(&app, &db, city_open()).await;
    let uri = format!("/v1/tournaments/{id}/rounds/1/pairings");
    let csv = "board;white;black\n1;A;B\nx;C;D\n";
    let reply = send(&app, db.post().uri(&uri).set_json(json!({"csv": csv}))).await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.1["field"], "csv");
    assert!(
        reply.1["detail"]
            .as_str()
            .is_some_and(|d| d.contains("line 3")),
        "{}",
        reply.1
    );
    let reply = send(
        &app,
        db.post()
            .uri(&uri)
            .set_json(json!({"csv": csv, "trf": GROS_TRF})),
    )
    .await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(db.event_count().await, 0);
    db.finish().await;
}

#[actix_web::test]
async fn the_round_lines_of_a_real_trf_file_give_the_boards_in_pairing_order() {
    let db = TestDb::new().await;
    let app = app!(db);
    let mut gros = city_open();
    gros["name"] = json!("XX Open Internacional de Gros");
    let id = create(&app, &db, gros).await;
    let (status, body, _) = send(
        &app,
        db.post()
            .uri(&format!("/v1/tournaments/{id}/rounds/4/pairings"))
            .set_json(json!({"trf": GROS_TRF})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let games = body["games"].as_array().expect("games");
    // 52 players: start number 28 absent (Z), 29, 30, 37, 41 half-point byes, 48 a bye (U).
    assert_eq!(games.len(), 23);
    let unpaired: Vec<(u64, &str)> = body["unpaired"]
        .as_array()
        .expect("unpaired")
        .iter()
        .map(|u| {
            (
                u["start_number"].as_u64().unwrap_or_default(),
                u["code"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        unpaired,
        vec![
            (28, "Z"),
            (29, "H"),
            (30, "H"),
            (37, "H"),
            (41, "H"),
            (48, "U")
        ]
    );
    // Three pairs meet on 3 points each; the better start number in the pair comes first.
    assert_eq!(games[0]["white"], "Guijarro Galan Jose Luis");
    assert_eq!(games[0]["black"], "Mirzoev Azer");
    assert_eq!(games[1]["white"], "Argandona Riveiro Inigo");
    assert_eq!(games[1]["black"], "Sanz Perez Eduardo");
    assert_eq!(games[2]["white"], "Gorrochategui Torres, Eugenio");
    assert_eq!(games[2]["black"], "Hernandez Elvis");
    let first = games[0]["game_id"].as_str().expect("id");
    let (_, detail, _) = send(&app, db.get().uri(&format!("/v1/games/{first}"))).await;
    assert_eq!(detail["game"]["settings"]["white"]["fide_id"], 32_004_478);
    assert_eq!(detail["game"]["settings"]["black"]["fide_id"], 13_400_304);
    assert_eq!(detail["game"]["settings"]["round"], "4");
    // Gorrochategui has FIDE id 0 in the file: no id.
    let third = games[2]["game_id"].as_str().expect("id");
    let (_, detail, _) = send(&app, db.get().uri(&format!("/v1/games/{third}"))).await;
    assert_eq!(detail["game"]["settings"]["white"]["fide_id"], Value::Null);

    let reply = send(
        &app,
        db.post()
            .uri(&format!("/v1/tournaments/{id}/rounds/final/pairings"))
            .set_json(json!({"trf": GROS_TRF})),
    )
    .await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.1["field"], "round");
    db.finish().await;
}

#[actix_web::test]
async fn games_created_with_only_an_event_name_keep_working_beside_tournaments() {
    let db = TestDb::new().await;
    let app = app!(db);
    let (status, body, _) = send(&app, db.post().uri("/v1/games").set_json(standard_game())).await;
    assert_eq!(status, 201, "{body}");
    let (status, list, _) = send(&app, db.get().uri("/v1/games?event=Test%20Open%202026")).await;
    assert_eq!(status, 200);
    assert_eq!(list["items"].as_array().map(Vec::len), Some(1));
    // A tournament of that name afterwards: its round 1 board 1 already holds that game.
    let mut same = city_open();
    same["name"] = json!("Test Open 2026");
    let id = create(&app, &db, same).await;
    let reply = send(
        &app,
        db.post()
            .uri(&format!("/v1/tournaments/{id}/rounds/1/pairings"))
            .set_json(json!({"csv": "board,white,black\n1,A,B\n"})),
    )
    .await;
    assert_problem(&reply, 409, "round_conflict");
    assert!(
        reply.1["detail"]
            .as_str()
            .is_some_and(|d| d.contains("created another way"))
    );
    db.finish().await;
}

/// Counts a tournament's rows in the tables a round load writes: the round's games, the
/// players kept from a TRF file, the byes.
async fn left_behind(db: &TestDb, tournament: &str, event: &str) -> (i64, i64, i64) {
    let id: uuid::Uuid = tournament.parse().expect("uuid");
    let pool = db.store.pool();
    let games: i64 =
        sqlx::query_scalar("SELECT count(*) FROM games WHERE event_name = $1 AND round = '1'")
            .bind(event)
            .fetch_one(pool)
            .await
            .expect("games");
    let players: i64 =
        sqlx::query_scalar("SELECT count(*) FROM tournament_players WHERE tournament_id = $1")
            .bind(id)
            .fetch_one(pool)
            .await
            .expect("players");
    let byes: i64 =
        sqlx::query_scalar("SELECT count(*) FROM tournament_byes WHERE tournament_id = $1")
            .bind(id)
            .fetch_one(pool)
            .await
            .expect("byes");
    (games, players, byes)
}

#[actix_web::test]
async fn a_load_refused_while_its_games_are_being_stored_leaves_no_game_player_or_bye_in_any_form()
{
    let db = TestDb::new().await;
    let app = app!(db);
    let list = json!({"pairings": [
        {"board": 1, "white": {"name": "A"}, "black": {"name": "B"}},
        {"board": 2, "white": {"name": "C"}, "black": {"name": "D"}},
        {"board": 3, "white": {"name": "E"}, "black": {"name": "F"}},
        {"board": 4, "white": {"name": "G"}, "black": {"name": "H"}}
    ]});
    let csv = json!({"csv": "board,white,black\n1,A,B\n2,C,D\n3,E,F\n4,G,H\n"});
    let trf = json!({ "trf": GROS_TRF });
    for (form, body) in [("list", list), ("csv", csv), ("trf", trf)] {
        let mut settings = city_open();
        let event = format!("Atomic Open ({form})");
        settings["name"] = json!(event);
        let id = create(&app, &db, settings).await;
        // Board 3's game id is taken by a game of another event, so the third creation fails
        // inside the load's transaction, after boards 1 and 2 were written in it.
        let taken = arbiter::tournament::game_id(id.parse().expect("uuid"), "1", 3);
        let mut game = crate::support::standard_game();
        game["game_id"] = json!(taken);
        let (status, body_created, _) = send(&app, db.post().uri("/v1/games").set_json(game)).await;
        assert_eq!(status, 201, "{body_created}");

        let uri = format!("/v1/tournaments/{id}/rounds/1/pairings");
        let reply = send(&app, db.post().uri(&uri).set_json(&body)).await;
        assert_problem(&reply, 409, "round_conflict");
        let detail = reply.1["detail"].as_str().expect("detail");
        assert!(
            detail.contains("nothing was stored") && detail.contains("board 3"),
            "{form}: {detail}"
        );
        assert_eq!(
            left_behind(&db, &id, &event).await,
            (0, 0, 0),
            "{form}: no game, no player, no bye"
        );
    }
    db.finish().await;
}

#[actix_web::test]
async fn a_trf_file_refused_for_a_player_line_creates_nothing() {
    let db = TestDb::new().await;
    let app = app!(db);
    let id = create(&app, &db, city_open()).await;
    // A start rank that is not a number: the line cannot be paired.
    let broken = GROS_TRF.replacen("001   30", "001   3x", 1);
    assert_ne!(broken, GROS_TRF);
    let reply = send(
        &app,
        db.post()
            .uri(&format!("/v1/tournaments/{id}/rounds/1/pairings"))
            .set_json(json!({ "trf": broken })),
    )
    .await;
    assert_eq!(reply.0, 422, "{}", reply.1);
    assert_eq!(reply.1["field"], "trf");
    assert_eq!(left_behind(&db, &id, "City Open 2026").await, (0, 0, 0));
    db.finish().await;
}

/// The Gros file as older programs and Irish Swiss Master write theirs: lines ended by CR
/// alone, `N0001` in the FIDE-id columns of line 31, a birth date `yyyy.mm.dd`, and the three
/// forfeits of round 1 without colours (`  39 - +`, as FIDE's 2005 example report writes
/// them).
fn gros_the_older_way() -> String {
    let lines: Vec<String> = GROS_TRF
        .lines()
        .enumerate()
        .map(|(index, line)| {
            let mut chars: Vec<char> = line.trim_end_matches('\r').chars().collect();
            let number = index + 1;
            if number == 31 {
                let id: String = chars[57..68].iter().collect();
                assert_eq!(id, "    2265346");
                chars.splice(57..68, "      N0001".chars());
                chars.splice(69..79, "1946.03.12".chars());
            }
            if [26, 29, 33, 52, 55, 59].contains(&number) {
                assert!(matches!(chars[98], '+' | '-'));
                chars[96] = '-';
            }
            chars.into_iter().collect()
        })
        .collect();
    lines.join("\r")
}

#[actix_web::test]
async fn a_file_in_the_older_conventions_loads_with_a_note_for_each_thing_kept_otherwise() {
    let db = TestDb::new().await;
    let app = app!(db);
    let id = create(&app, &db, city_open()).await;
    let (status, loaded, _) = send(
        &app,
        db.post()
            .uri(&format!("/v1/tournaments/{id}/rounds/1/pairings"))
            .set_json(json!({ "trf": gros_the_older_way() })),
    )
    .await;
    assert_eq!(status, 201, "{loaded}");
    assert_eq!(loaded["games"].as_array().map(Vec::len), Some(25));
    let notes: Vec<&str> = loaded["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .map(|n| n.as_str().expect("text"))
        .collect();
    assert!(
        notes.contains(
            &"line 31: `N0001` (columns 58-68, Tung Siu Hung) is not a FIDE id; the player is \
              loaded without one."
        ),
        "{notes:#?}"
    );
    assert!(
        notes.contains(
            &"line 31: the birth date `1946.03.12` of Tung Siu Hung is kept as `1946/03/12`."
        ),
        "{notes:#?}"
    );
    let forfeits: Vec<&&str> = notes
        .iter()
        .filter(|n| n.contains("without both colours"))
        .collect();
    assert_eq!(forfeits.len(), 3, "{notes:#?}");
    assert!(
        forfeits[0].starts_with("round 1: ") && forfeits[0].contains("is loaded as White"),
        "{forfeits:?}"
    );

    // The report carries the player without a FIDE id, with the birth date as TRF26 writes it.
    let (_, _, text) = send_raw(&app, db.get().uri(&format!("/v1/tournaments/{id}/trf"))).await;
    let line = text
        .lines()
        .find(|l| l.starts_with("001   18"))
        .expect("player 18");
    assert_eq!(&line[57..79], "            1946/03/12", "{line}");
    db.finish().await;
}

#[actix_web::test]
async fn a_board_resumed_from_a_position_takes_its_move_count_and_clock_readings_from_the_round_overrides()
 {
    let db = TestDb::new().await;
    let app = app!(db);
    let mut settings = city_open();
    settings["time_control"] = json!({"preset": "fide_standard"});
    let id = create(&app, &db, settings).await;
    // Board 1 is an adjourned game resumed at move 41, its FEN written from move 1.
    let fen = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1";
    let board = json!({
        "start_fen": fen,
        "start_moves_completed": {"white": 40, "black": 40},
        "start_clocks": {"white_ms": 1_500_000, "black_ms": 1_200_000}
    });
    let pairings = json!({"pairings": [
        {"board": 1, "white": {"name": "Sokolova, Anna"}, "black": {"name": "Meier, Jan"}}
    ], "overrides": {"1": board}});
    let uri = format!("/v1/tournaments/{id}/rounds/1/pairings");
    let (status, loaded, _) = send(&app, db.post().uri(&uri).set_json(&pairings)).await;
    assert_eq!(status, 201, "{loaded}");
    let game = loaded["games"][0]["game_id"].as_str().expect("id");
    let (_, detail, _) = send(&app, db.get().uri(&format!("/v1/games/{game}"))).await;
    let stored = &detail["game"]["settings"];
    assert_eq!(
        stored["start_moves_completed"],
        board["start_moves_completed"]
    );
    assert_eq!(stored["start_clocks"], board["start_clocks"]);
    let control = &detail["state"]["time_control"];
    assert_eq!(control["white"]["moves_completed"], 40, "{control}");
    assert_eq!(control["white"]["period"], 2, "{control}");

    // A count that does not fit the side to move refuses the load, the board and field named.
    let mut wrong = pairings.clone();
    wrong["overrides"]["1"]["start_moves_completed"] = json!({"white": 41, "black": 40});
    let uri = format!("/v1/tournaments/{id}/rounds/2/pairings");
    let reply = send(&app, db.post().uri(&uri).set_json(&wrong)).await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(
        reply.1["field"], "board 1: start_moves_completed",
        "{}",
        reply.1
    );
    db.finish().await;
}

#[actix_web::test]
async fn an_appeals_procedure_sent_as_an_array_is_refused_not_stored_as_an_empty_procedure() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let (status, created, _) =
        send(&app, db.post().uri("/v1/tournaments").set_json(city_open())).await;
    assert_eq!(status, 201, "{created}");
    let id = created["tournament_id"]
        .as_str()
        .expect("an id")
        .to_string();
    let mut changed = city_open();
    changed["regulations"]["appeals"] = json!([null, null]);
    let reply = send(
        &app,
        test::TestRequest::put()
            .insert_header(bearer(&db.arbiter))
            .uri(&format!("/v1/tournaments/{id}"))
            .set_json(&changed),
    )
    .await;
    assert!(
        reply.0 == 422 || reply.0 == 400,
        "an array is not a procedure: {:?}",
        reply
    );
    db.finish().await;
}
