//! Tournaments and rounds through the JSON API: settings, pairings from a list, a CSV file
//! and a real TRF-16 file, idempotent loading, conflicts, and games created the old way.

use crate::client::{Api, api};
use crate::support::{TestDb, standard_game};
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

/// Creates a tournament and returns its id.
async fn create(api: &Api<'_>, settings: Value) -> String {
    let body = api.create_tournament(&settings).await.expect(201);
    body["tournament_id"].as_str().expect("id").to_string()
}

#[actix_web::test]
async fn a_tournament_is_created_listed_fetched_and_changed_but_never_renamed() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let id = create(&api, city_open()).await;
    let list = api.tournaments().await.expect(200);
    assert_eq!(list[0]["name"], "City Open 2026");
    assert_eq!(list[0]["arbiters"][0], "IA Anna Sokolova (chief)");
    let one = api.tournament(&id).await.expect(200);
    assert_eq!(one["regulations"]["earliest_agreement_move"], 20);

    let mut changed = city_open();
    changed["time_control"]["increment_ms"] = json!(30_000);
    let body = api.update_tournament(&id, &changed).await.expect(200);
    assert_eq!(body["time_control"]["increment_ms"], 30_000);

    changed["name"] = json!("Another name");
    let reply = api
        .update_tournament(&id, &changed)
        .await
        .problem(422, "invalid_field");
    assert_eq!(reply.body["field"], "name");

    api.create_tournament(&city_open())
        .await
        .problem(409, "tournament_name_taken");
}

#[actix_web::test]
async fn a_reader_cannot_set_up_a_tournament_and_wrong_settings_name_their_field() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let api = api.with_token(&db.reader);
    api.create_tournament(&city_open())
        .await
        .problem(403, "forbidden");
    let api = api.with_token(&db.arbiter);
    let mut wrong = city_open();
    wrong["ends_on"] = json!("2026-11-01");
    let reply = api
        .create_tournament(&wrong)
        .await
        .problem(422, "invalid_field");
    assert_eq!(reply.body["field"], "ends_on");
    let mut wrong = city_open();
    wrong["time_control"]["base_ms"] = json!(0);
    let reply = api.create_tournament(&wrong).await;
    assert_eq!(reply.body["field"], "time_control.base_ms");
    // The fair-play report's deadline is at most a year after the event, as the document
    // says (schemathesis found 366 accepted and then served against the document).
    let mut wrong = city_open();
    wrong["regulations"]["fair_play_report_days"] = json!(366);
    let reply = api
        .create_tournament(&wrong)
        .await
        .problem(422, "invalid_field");
    assert_eq!(reply.body["field"], "regulations.fair_play_report_days");
    // The appeals procedure's texts are as long as the document says (schemathesis found a
    // regulation of 300 characters accepted and then served against the document).
    let mut wrong = city_open();
    wrong["regulations"]["appeals"] = json!({"regulation": "0".repeat(201)});
    let reply = api
        .create_tournament(&wrong)
        .await
        .problem(422, "invalid_field");
    assert_eq!(reply.body["field"], "regulations.appeals.regulation");
}

#[actix_web::test]
async fn a_round_loaded_twice_creates_its_games_once_with_the_tournament_settings() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let id = create(&api, city_open()).await;
    let pairings = json!({"pairings": [
        {"board": 2, "white": {"name": "Okafor, Ben"}, "black": {"name": "Lee, Ann", "fide_id": 4100002}},
        {"board": 1, "white": {"name": "Sokolova, Anna", "fide_id": 4100001}, "black": {"name": "Meier, Jan"}}
    ], "overrides": {"2": {"laws_edition": "2018"}}});
    let first = api.load_round(&id, 1, &pairings).await.expect(201);
    assert_eq!(first["games"].as_array().map(Vec::len), Some(2));
    assert_eq!(first["games"][0]["board"], 1);
    assert_eq!(first["games"][0]["created"], true);
    let events_after_first = db.event_count().await;

    let again = api.load_round(&id, 1, &pairings).await.expect(200);
    assert_eq!(again["games"][0]["game_id"], first["games"][0]["game_id"]);
    assert_eq!(again["games"][0]["created"], false);
    assert_eq!(
        db.event_count().await,
        events_after_first,
        "nothing stored twice"
    );

    let game = first["games"][0]["game_id"].as_str().expect("id");
    let detail = api.game(game).await.body;
    let settings = &detail["game"]["settings"];
    assert_eq!(settings["event"], "City Open 2026");
    assert_eq!(settings["round"], "1");
    assert_eq!(settings["board"], 1);
    assert_eq!(settings["site"], "Town Hall, Ghent");
    assert_eq!(settings["time_control"]["base_ms"], 7_200_000);
    assert_eq!(settings["regulations"]["quickplay_finish"], true);
    assert_eq!(settings["laws_edition"], "2023");
    let other = first["games"][1]["game_id"].as_str().expect("id");
    let detail = api.game(other).await.body;
    assert_eq!(
        detail["game"]["settings"]["laws_edition"], "2018",
        "the board's override"
    );
}

#[actix_web::test]
async fn a_tournament_with_the_fide_standard_preset_and_dgt_clocks_gives_its_games_both() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let mut settings = city_open();
    settings["time_control"] = json!({"preset": "fide_standard"});
    settings["clock_behaviour"] =
        json!({"period_time_added": "at_zero_both_clocks", "increment_credit": "before_move"});
    let id = create(&api, settings).await;
    let stored = api.tournament(&id).await.body;
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
    let csv = "board,white,black\n1,\"Sokolova, Anna\",\"Meier, Jan\"\n";
    let loaded = api
        .load_round(&id, 1, &json!({"csv": csv}))
        .await
        .expect(201);
    let game = loaded["games"][0]["game_id"].as_str().expect("id");
    let detail = api.game(game).await.body;
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
    let old = create(&api, {
        let mut s = city_open();
        s["name"] = json!("Old Open");
        s
    })
    .await;
    let stored = api.tournament(&old).await.body;
    assert!(stored.get("clock_behaviour").is_none(), "{stored}");
    assert_eq!(stored["time_control"]["base_ms"], 7_200_000);
}

#[actix_web::test]
async fn a_tournament_control_that_contradicts_its_rate_of_play_is_refused_with_the_field_named() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let mut wrong = city_open();
    wrong["time_control"] = json!({"kind": "standard", "preset": "blitz_3_plus_2"});
    let reply = api
        .create_tournament(&wrong)
        .await
        .problem(422, "invalid_field");
    assert_eq!(reply.body["field"], "time_control.kind");
    assert!(
        reply.body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("blitz by B.1")),
        "{}",
        reply.body
    );
    let mut wrong = city_open();
    wrong["clock_behaviour"] = json!({"period_time_added": "when_it_likes"});
    let reply = api.create_tournament(&wrong).await;
    assert!(matches!(reply.status, 400 | 422), "{reply:?}");
    assert_eq!(db.event_count().await, 0);
}

#[actix_web::test]
async fn other_players_on_a_loaded_board_refuse_the_whole_round_and_create_nothing() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let id = create(&api, city_open()).await;
    let csv = "board,white,black\n1,\"Sokolova, Anna\",\"Meier, Jan\"\n";
    api.load_round(&id, 1, &json!({"csv": csv}))
        .await
        .expect(201);
    let before = db.event_count().await;
    let changed = "board,white,black\n1,\"Meier, Jan\",\"Sokolova, Anna\"\n2,A,B\n";
    let reply = api
        .load_round(&id, 1, &json!({"csv": changed}))
        .await
        .problem(409, "round_conflict");
    assert!(
        reply.body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("board 1"))
    );
    assert_eq!(
        db.event_count().await,
        before,
        "board 2 was not created either"
    );
}

#[actix_web::test]
async fn a_csv_line_that_cannot_be_read_is_named() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let id = create(&api, city_open()).await;
    let csv = "board;white;black\n1;A;B\nx;C;D\n";
    let reply = api
        .load_round(&id, 1, &json!({"csv": csv}))
        .await
        .problem(422, "invalid_field");
    assert_eq!(reply.body["field"], "csv");
    assert!(
        reply.body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("line 3")),
        "{}",
        reply.body
    );
    api.load_round(&id, 1, &json!({"csv": csv, "trf": GROS_TRF}))
        .await
        .problem(422, "invalid_field");
    assert_eq!(db.event_count().await, 0);
}

#[actix_web::test]
async fn the_round_lines_of_a_real_trf_file_give_the_boards_in_pairing_order() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let mut gros = city_open();
    gros["name"] = json!("XX Open Internacional de Gros");
    let id = create(&api, gros).await;
    let body = api
        .load_round(&id, 4, &json!({"trf": GROS_TRF}))
        .await
        .expect(201);
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
    let detail = api.game(first).await.body;
    assert_eq!(detail["game"]["settings"]["white"]["fide_id"], 32_004_478);
    assert_eq!(detail["game"]["settings"]["black"]["fide_id"], 13_400_304);
    assert_eq!(detail["game"]["settings"]["round"], "4");
    // Gorrochategui has FIDE id 0 in the file: no id.
    let third = games[2]["game_id"].as_str().expect("id");
    let detail = api.game(third).await.body;
    assert_eq!(detail["game"]["settings"]["white"]["fide_id"], Value::Null);

    let reply = api
        .load_round(&id, "final", &json!({"trf": GROS_TRF}))
        .await
        .problem(422, "invalid_field");
    assert_eq!(reply.body["field"], "round");
}

#[actix_web::test]
async fn games_created_with_only_an_event_name_keep_working_beside_tournaments() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    api.create_game(&standard_game()).await.expect(201);
    let list = api.games("event=Test%20Open%202026").await.expect(200);
    assert_eq!(list["items"].as_array().map(Vec::len), Some(1));
    // A tournament of that name afterwards: its round 1 board 1 already holds that game.
    let mut same = city_open();
    same["name"] = json!("Test Open 2026");
    let id = create(&api, same).await;
    let reply = api
        .load_round(&id, 1, &json!({"csv": "board,white,black\n1,A,B\n"}))
        .await
        .problem(409, "round_conflict");
    assert!(
        reply.body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("created another way"))
    );
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
    let api = api(&db).await;
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
        let id = create(&api, settings).await;
        // Board 3's game id is taken by a game of another event, so the third creation fails
        // inside the load's transaction, after boards 1 and 2 were written in it.
        let taken = arbiter::tournament::game_id(id.parse().expect("uuid"), "1", 3);
        let mut game = crate::support::standard_game();
        game["game_id"] = json!(taken);
        api.create_game(&game).await.expect(201);

        let reply = api
            .load_round(&id, 1, &body)
            .await
            .problem(409, "round_conflict");
        let detail = reply.body["detail"].as_str().expect("detail");
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
}

#[actix_web::test]
async fn a_trf_file_refused_for_a_player_line_creates_nothing() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let id = create(&api, city_open()).await;
    // A start rank that is not a number: the line cannot be paired.
    let broken = GROS_TRF.replacen("001   30", "001   3x", 1);
    assert_ne!(broken, GROS_TRF);
    let reply = api.load_round(&id, 1, &json!({ "trf": broken })).await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(reply.body["field"], "trf");
    assert_eq!(left_behind(&db, &id, "City Open 2026").await, (0, 0, 0));
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
    let api = api(&db).await;
    let id = create(&api, city_open()).await;
    let loaded = api
        .load_round(&id, 1, &json!({ "trf": gros_the_older_way() }))
        .await
        .expect(201);
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
    let report = api.trf(&id, "").await;
    assert_eq!(report.status, 200, "{}", report.text);
    let text = report.text;
    let line = text
        .lines()
        .find(|l| l.starts_with("001   18"))
        .expect("player 18");
    assert_eq!(&line[57..79], "            1946/03/12", "{line}");
}

#[actix_web::test]
async fn a_board_resumed_from_a_position_takes_its_move_count_and_clock_readings_from_the_round_overrides()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let mut settings = city_open();
    settings["time_control"] = json!({"preset": "fide_standard"});
    let id = create(&api, settings).await;
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
    let loaded = api.load_round(&id, 1, &pairings).await.expect(201);
    let game = loaded["games"][0]["game_id"].as_str().expect("id");
    let detail = api.game(game).await.body;
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
    let reply = api
        .load_round(&id, 2, &wrong)
        .await
        .problem(422, "invalid_field");
    assert_eq!(
        reply.body["field"], "board 1: start_moves_completed",
        "{}",
        reply.body
    );
}

#[actix_web::test]
async fn an_appeals_procedure_sent_as_an_array_is_refused_not_stored_as_an_empty_procedure() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let id = create(&api, city_open()).await;
    let mut changed = city_open();
    changed["regulations"]["appeals"] = json!([null, null]);
    let reply = api.update_tournament(&id, &changed).await;
    assert!(
        reply.status == 422 || reply.status == 400,
        "an array is not a procedure: {:?}",
        reply
    );
}
