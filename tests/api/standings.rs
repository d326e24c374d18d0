//! A tournament's tie-breaks as a setting: validated, and used by default by the standings,
//! the rank column of both TRF versions (TRF26 naming them in its `202`/`212` records), the
//! chief arbiter's report and the printable standings page.

use crate::client::{Api, api};
use crate::support::TestDb;
use actix_web::test;
use arbiter::interchange::trf::read_report;
use serde_json::{Value, json};
use uuid::Uuid;

/// Creates a tournament with `settings` added to a name and a time control, and plays two
/// rounds: A-B 1-0, C-D 1-0, then A-C ½-½, B-D ½-½ (results reported, 8.7). A and C end on
/// 1.5, B and D on 0.5; Buchholz leaves both pairs equal, games with Black puts C before A
/// and D before B.
async fn two_rounds(api: &Api<'_>, settings: Value) -> String {
    let mut body = json!({
        "name": "Standings Open", "site": "Galway",
        "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000},
        "arbiters": ["IA Chief Arbiter"]
    });
    if let (Some(body), Some(extra)) = (body.as_object_mut(), settings.as_object()) {
        body.extend(extra.clone());
    }
    let created = api.create_tournament(&body).await.expect(201);
    let id = created["tournament_id"].as_str().expect("id").to_string();
    for (round, boards) in [
        (1, [("A", "B", "1-0"), ("C", "D", "1-0")]),
        (2, [("A", "C", "1/2-1/2"), ("B", "D", "1/2-1/2")]),
    ] {
        let pairings: Vec<Value> = boards
            .iter()
            .enumerate()
            .map(|(at, (white, black, _))| {
                json!({"board": at + 1, "white": {"name": white}, "black": {"name": black}})
            })
            .collect();
        let loaded = api
            .load_round(&id, round, &json!({ "pairings": pairings }))
            .await
            .expect(201);
        for (game, (_, _, result)) in loaded["games"]
            .as_array()
            .expect("games")
            .iter()
            .zip(boards)
        {
            let game_id: Uuid = game["game_id"].as_str().expect("id").parse().expect("uuid");
            api.append_events(
                game_id,
                1,
                json!([{"type": "arbiter_decision", "decision": "game_ended", "result": result,
                        "cause": "reported_result", "reason": "Reported by the players (8.7)."}]),
            )
            .await
            .expect(201);
        }
    }
    id
}

fn ranks(text: &str) -> Vec<(u32, Option<u32>)> {
    read_report(text)
        .expect("readable")
        .players
        .iter()
        .map(|p| (p.start_number, p.rank))
        .collect()
}

#[actix_web::test]
async fn the_tournaments_tie_breaks_rank_the_standings_and_both_trf_versions_unless_others_are_asked_for()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let id = two_rounds(
        &api,
        json!({"tie_breaks": ["BH", "BPG"], "unplayed_rounds": "before_2023"}),
    )
    .await;
    let tournament = api.tournament(&id).await.expect(200);
    assert_eq!(tournament["tie_breaks"], json!(["BH", "BPG"]));
    assert_eq!(tournament["unplayed_rounds"], "before_2023");

    let broken = vec![(1, Some(2)), (2, Some(4)), (3, Some(1)), (4, Some(3))];
    for version in ["16", "26"] {
        let reply = api.trf(&id, &format!("version={version}")).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        let text = reply.text;
        assert_eq!(ranks(&text), broken, "TRF-{version}");
        // TRF26 names the tie-breaks: `202` those that break ties, `212` the standings'
        // order with the points first; TRF-16 has no such record.
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("2")).collect();
        if version == "26" {
            assert!(lines.contains(&"202 BH,BPG"), "{text}");
            assert!(lines.contains(&"212 PTS,BH,BPG"), "{text}");
        } else {
            assert!(
                !text.contains("\n202 ") && !text.contains("\n212 "),
                "{text}"
            );
        }
    }
    // Asked for others, or for none, the answer follows the question.
    let shared = api.trf(&id, "tie_breaks=").await.text;
    assert_eq!(
        ranks(&shared),
        vec![(1, Some(1)), (2, Some(3)), (3, Some(1)), (4, Some(3))]
    );

    let page = api.tournament_standings(&id, "").await.expect(200);
    assert_eq!(page["tie_breaks"], json!(["BH", "BPG"]));
    assert_eq!(page["unplayed_rounds"], "before_2023");
    let order: Vec<&str> = page["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .map(|l| l["name"].as_str().expect("name"))
        .collect();
    assert_eq!(order, vec!["C", "A", "D", "B"]);
    let page = api
        .tournament_standings(&id, "tie_breaks=DE,WIN")
        .await
        .expect(200);
    // A and C drew, B and D drew: direct encounter leaves them equal; so do their wins.
    let places: Vec<u64> = page["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .map(|l| l["rank"].as_u64().expect("rank"))
        .collect();
    assert_eq!(places, vec![1, 1, 3, 3]);
}

#[actix_web::test]
async fn a_tie_break_the_service_does_not_compute_or_one_named_twice_is_refused_naming_its_place() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let base = json!({
        "name": "Refused Open",
        "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000},
    });
    for (tie_breaks, field, words) in [
        (
            json!(["BH", "XYZ"]),
            "tie_breaks[1]",
            "`XYZ` is not a tie-break",
        ),
        (
            json!(["BH", "SB", "BH"]),
            "tie_breaks[2]",
            "already in the list",
        ),
    ] {
        let mut body = base.clone();
        body["tie_breaks"] = tie_breaks;
        let problem = api.create_tournament(&body).await.expect(422);
        assert_eq!(problem["field"], field, "{problem}");
        assert!(
            problem["detail"]
                .as_str()
                .unwrap_or_default()
                .contains(words),
            "{problem}"
        );
    }
    let mut body = base.clone();
    body["unplayed_rounds"] = json!("2009");
    let problem = api.create_tournament(&body).await.expect(422);
    assert_eq!(problem["field"], "unplayed_rounds", "{problem}");
}

#[actix_web::test]
async fn the_chief_arbiters_report_and_the_printable_page_show_the_standings_by_the_tournaments_tie_breaks()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let id = two_rounds(&api, json!({"tie_breaks": ["BH", "BPG"]})).await;
    let cookie = crate::office::signed_in(&api, &db.arbiter).await;
    // The back office's pages, sent as built: the session's cookie, no token.
    let get = |uri: String| {
        test::TestRequest::get()
            .uri(&uri)
            .insert_header(("Cookie", cookie.clone()))
    };
    let reply = api
        .send_for_text_as_built(get(format!("/office/events/{id}")))
        .await;
    assert_eq!(reply.status, 200);
    let tournament = reply.text;
    assert!(
        tournament.contains(&format!("/office/events/{id}/standings")),
        "the tournament page links the standings"
    );
    let reply = api
        .send_for_text_as_built(get(format!("/office/events/{id}/report")))
        .await;
    assert_eq!(reply.status, 200);
    let report = reply.text;
    let reply = api
        .send_for_text_as_built(get(format!("/office/events/{id}/standings")))
        .await;
    assert_eq!(reply.status, 200);
    let standings = reply.text;
    for text in [&report, &standings] {
        let from = text.find("Standings after round 2").expect("the standings");
        let table = &text[from..];
        let at = |name: &str| table.find(&format!("<td>{name}</td>")).expect(name);
        assert!(
            at("C") < at("A") && at("A") < at("D") && at("D") < at("B"),
            "C, A, D, B in that order"
        );
        assert!(text.contains("<th scope=\"col\">BPG</th>"), "{text}");
    }
    let reply = api
        .send_for_text_as_built(get(format!("/office/events/{id}/standings?round=1")))
        .await;
    assert_eq!(reply.status, 200);
    let first = reply.text;
    assert!(first.contains("Standings after round 1"), "{first}");
    let reply = api
        .send_for_text_as_built(get(format!("/office/events/{id}/standings?round=0")))
        .await;
    assert_eq!(reply.status, 400);
}
