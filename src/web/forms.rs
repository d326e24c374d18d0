//! The game desk's forms read into event objects of the wire vocabulary, which the API's own
//! decoder then checks ([`crate::app::commands::decode_event`]): a form is judged exactly like an API request.
//! This module only reads what a person typed (clock times such as `1:29:51`, sides, numbers);
//! it knows nothing of chess.

use super::session::Fields;
use serde_json::{Map, Value, json};

/// Reads a clock time: `h:mm:ss`, `mm:ss` or a number of seconds; milliseconds.
pub fn parse_clock(text: &str) -> Result<u64, String> {
    let parts: Vec<&str> = text.trim().split(':').collect();
    let numbers: Option<Vec<u64>> = parts.iter().map(|p| p.trim().parse().ok()).collect();
    let seconds = match numbers.as_deref() {
        Some([s]) => Some(*s),
        Some([m, s]) if *s < 60 => Some(m * 60 + s),
        Some([h, m, s]) if *m < 60 && *s < 60 => Some(h * 3600 + m * 60 + s),
        _ => None,
    };
    match seconds {
        Some(s) if s <= 86_400 => Ok(s * 1000),
        _ => Err(format!(
            "`{text}` is not a clock time: write it as the clock shows it, e.g. 1:29:51 or \
             4:05 (or a number of seconds)."
        )),
    }
}

/// Reads a signed change of a clock: `+2:00`, `-1:00`, `+120` (seconds); milliseconds.
pub fn parse_delta(text: &str) -> Result<i64, String> {
    let text = text.trim();
    let (sign, rest) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text.strip_prefix('+').unwrap_or(text)),
    };
    let ms = parse_clock(rest).map_err(|_| {
        format!("`{text}` is not a change of time: write e.g. +2:00 to add two minutes or -1:00 to take one away.")
    })?;
    Ok(sign * i64::try_from(ms).unwrap_or(i64::MAX))
}

fn side(fields: &Fields, name: &str, label: &str) -> Result<String, String> {
    match fields.get(name) {
        Some(side @ ("white" | "black")) => Ok(side.to_string()),
        _ => Err(format!("Choose {label}: White or Black.")),
    }
}

fn number(fields: &Fields, name: &str, label: &str) -> Result<Option<u64>, String> {
    fields
        .get(name)
        .map(|text| {
            text.trim_start_matches('#')
                .parse::<u64>()
                .map_err(|_| format!("{label} must be an event number (seq), not `{text}`."))
        })
        .transpose()
}

fn text(fields: &Fields, name: &str, label: &str) -> Result<String, String> {
    fields.require(name, label).map(str::to_string)
}

/// The event objects a desk form records (usually one; a move with its clock press two),
/// each with the event id the page gave it, so that sending the same form twice stores it
/// once.
pub fn events_from_form(fields: &Fields) -> Result<Vec<Value>, String> {
    let kind = fields.require("type", "The kind of event")?;
    let mut object = Map::new();
    object.insert("type".into(), json!(kind));
    if let Some(id) = fields.get("event_id") {
        object.insert("event_id".into(), json!(id));
    }
    let mut events = Vec::new();
    match kind {
        "move" => {
            let by = side(fields, "by", "who moved")?;
            object.insert("by".into(), json!(by));
            object.insert("san".into(), json!(text(fields, "san", "The move")?));
            events.push(Value::Object(object));
            if fields.get("press").is_some() {
                let mut press = Map::new();
                press.insert("type".into(), json!("clock_press"));
                press.insert("by".into(), json!(by));
                if let Some(id) = fields.get("event_id_press") {
                    press.insert("event_id".into(), json!(id));
                }
                if let Some(time) = fields.get("clock") {
                    press.insert(format!("{by}_ms"), json!(parse_clock(time)?));
                }
                events.push(Value::Object(press));
            }
            return Ok(events);
        }
        "clock_press" => {
            object.insert("by".into(), json!(side(fields, "by", "who pressed")?));
            for colour in ["white", "black"] {
                if let Some(time) = fields.get(&format!("{colour}_time")) {
                    object.insert(format!("{colour}_ms"), json!(parse_clock(time)?));
                }
            }
        }
        "clock_pause" => {
            if let Some(by @ ("white" | "black")) = fields.get("by") {
                object.insert("by".into(), json!(by));
            }
        }
        "clock_resume" => {}
        "clock_adjust" => {
            object.insert("side".into(), json!(side(fields, "side", "whose clock")?));
            object.insert(
                "delta_ms".into(),
                json!(parse_delta(fields.require("delta", "The change of time")?)?),
            );
            object.insert(
                "reason".into(),
                json!(text(fields, "reason", "The reason")?),
            );
        }
        "touch" => {
            object.insert("by".into(), json!(side(fields, "by", "who touched")?));
            object.insert(
                "square".into(),
                json!(text(fields, "square", "The square")?.to_lowercase()),
            );
        }
        "draw_offer" | "draw_accept" | "draw_decline" | "resign" => {
            object.insert("by".into(), json!(side(fields, "by", "the player")?));
        }
        "flag" => {
            object.insert("side".into(), json!(side(fields, "side", "whose flag")?));
        }
        "claim" => {
            object.insert("by".into(), json!(side(fields, "by", "the claimant")?));
            object.insert("kind".into(), json!(text(fields, "kind", "The claim")?));
            if let Some(intended) = fields.get("intended_move") {
                object.insert("intended_move".into(), json!(intended));
            }
        }
        "illegal_move" => {
            object.insert("by".into(), json!(side(fields, "by", "who made it")?));
            object.insert(
                "description".into(),
                json!(text(fields, "description", "What happened")?),
            );
            object.insert("completed".into(), json!(fields.get("completed").is_some()));
            if let Some(attempted) = fields.get("attempted_move") {
                object.insert("attempted_move".into(), json!(attempted));
            }
            if let Some(kind) = fields.get("kind").filter(|k| *k != "illegal_move") {
                object.insert("kind".into(), json!(kind));
            }
        }
        "arbiter_decision" => {
            if let Some(subject) = number(fields, "subject_seq", "The event decided on")? {
                object.insert("subject_seq".into(), json!(subject));
            }
            object.insert(
                "decision".into(),
                json!(text(fields, "decision", "The decision")?),
            );
            object.insert(
                "reason".into(),
                json!(text(fields, "reason", "The reason")?),
            );
            if let Some(result) = fields.get("result") {
                object.insert("result".into(), json!(result));
                // What the end rests on, for the reports (a forfeit only when said so).
                if let Some(cause) = fields.get("cause") {
                    object.insert("cause".into(), json!(cause));
                }
            }
            if let Some(attempted) = fields.get("attempted_move") {
                object.insert("attempted_move".into(), json!(attempted));
            }
            if let Some(fen) = fields.get("fen") {
                object.insert("fen".into(), json!(fen));
            }
            if let Some(seconds) = fields.get("increment") {
                let seconds: u64 = seconds.parse().map_err(|_| {
                    format!(
                        "The increment is a number of seconds (5 under III.4), not `{seconds}`."
                    )
                })?;
                object.insert("increment_ms".into(), json!(seconds * 1000));
            }
            if fields.get("decision") == Some("move_count_set") {
                // 6.10.2 / 8.5: the completed moves counted; none when the count cannot be
                // established (8.6).
                let mut count = Map::new();
                count.insert(
                    "side".into(),
                    json!(side(fields, "count_side", "whose moves are counted")?),
                );
                if let Some(moves) = fields.get("count_moves") {
                    let moves: u32 = moves.trim().parse().map_err(|_| {
                        format!(
                            "The move count is a number of completed moves (e.g. 40), not \
                             `{moves}`; leave it empty when the count cannot be established."
                        )
                    })?;
                    count.insert("moves".into(), json!(moves));
                }
                object.insert("move_count".into(), Value::Object(count));
            }
            if let Some(time) = fields.get("penalty_time") {
                object.insert(
                    "penalty".into(),
                    json!({
                        "side": side(fields, "penalty_side", "who receives the time")?,
                        "add_ms": parse_clock(time)?,
                    }),
                );
            }
        }
        "result" => {
            // A result reported at the end of the game (8.7), or a forfeit before the first
            // move (6.7.1): an arbiter's decision that the game ended.
            object.insert("type".into(), json!("arbiter_decision"));
            object.insert("decision".into(), json!("game_ended"));
            // The cause says how the reports write it: a forfeit is a game not played, a
            // reported result a game played (crate::game::outcome).
            let (result, reason, cause) = match fields.require("result", "The result")? {
                "forfeit:white" => (
                    "1-0",
                    "Forfeit: Black did not play the game (6.7.1); White wins by forfeit.",
                    "forfeit",
                ),
                "forfeit:black" => (
                    "0-1",
                    "Forfeit: White did not play the game (6.7.1); Black wins by forfeit.",
                    "forfeit",
                ),
                "forfeit:both" => (
                    "0-0",
                    "Double forfeit: neither player played the game (6.7.1); both lose.",
                    "forfeit",
                ),
                result @ ("1-0" | "1/2-1/2" | "0-1") => (
                    result,
                    "Result reported by both players at the end of the game (8.7).",
                    "reported_result",
                ),
                other => {
                    return Err(format!(
                        "`{other}` is not a result; choose 1-0, ½-½, 0-1 or a forfeit."
                    ));
                }
            };
            object.insert("result".into(), json!(result));
            object.insert("cause".into(), json!(cause));
            object.insert(
                "reason".into(),
                json!(fields.get("reason").unwrap_or(reason)),
            );
        }
        "appeal_lodged" => {
            object.insert(
                "by".into(),
                json!(text(fields, "appellant", "Who appeals")?),
            );
            object.insert(
                "against_seq".into(),
                json!(
                    number(fields, "against_seq", "The decision appealed against")?
                        .ok_or("Give the event number of the decision appealed against.")?
                ),
            );
            object.insert(
                "grounds".into(),
                json!(text(fields, "grounds", "The grounds")?),
            );
        }
        "appeal_decided" => {
            object.insert(
                "against_seq".into(),
                json!(
                    number(fields, "against_seq", "The decision appealed against")?
                        .ok_or("Give the event number of the decision appealed against.")?
                ),
            );
            let upheld = match fields.get("upheld") {
                Some("yes") => true,
                Some("no") => false,
                _ => return Err("Say whether the appeal is upheld or dismissed.".into()),
            };
            object.insert("upheld".into(), json!(upheld));
            match fields.get("result") {
                // Play resumes, with the times the committee sets.
                Some("resume") => {
                    let white = parse_clock(fields.require("resume_white", "White's clock")?)?;
                    let black = parse_clock(fields.require("resume_black", "Black's clock")?)?;
                    object.insert(
                        "resume".into(),
                        json!({"white_ms": white, "black_ms": black}),
                    );
                }
                Some(result) => {
                    object.insert("result".into(), json!(result));
                }
                None => {}
            }
            object.insert(
                "reason".into(),
                json!(text(fields, "reason", "The reasons")?),
            );
        }
        "undo" => {
            // "Undo the last entry": one correction per event, newest first, each with the
            // event id the page gave it (the page drew the list; expected_seq guards it).
            let reason = text(fields, "reason", "The reason")?;
            let retracts = fields.require("retracts", "The events retracted")?;
            let ids = fields.require("event_ids", "The event ids")?;
            let retracts: Vec<&str> = retracts.split(',').collect();
            let ids: Vec<&str> = ids.split(',').collect();
            if retracts.len() != ids.len() {
                return Err("The undo form is damaged; open the desk again.".into());
            }
            return retracts
                .iter()
                .zip(ids)
                .map(|(seq, id)| {
                    let seq: u64 = seq.trim().parse().map_err(|_| {
                        "The undo form is damaged; open the desk again.".to_string()
                    })?;
                    Ok(json!({
                        "type": "correction",
                        "event_id": id.trim(),
                        "retracts_seq": seq,
                        "reason": reason,
                    }))
                })
                .collect();
        }
        "correction" => {
            object.insert(
                "retracts_seq".into(),
                json!(
                    number(fields, "retracts_seq", "The event retracted")?
                        .ok_or("Give the event number (seq) to retract.")?
                ),
            );
            object.insert(
                "reason".into(),
                json!(text(fields, "reason", "The reason")?),
            );
        }
        other => {
            return Err(format!(
                "`{other}` is not an event the desk records; choose one of the forms."
            ));
        }
    }
    events.push(Value::Object(object));
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_times_are_read_as_the_clock_shows_them() {
        assert_eq!(parse_clock("1:29:51"), Ok(5_391_000));
        assert_eq!(parse_clock("4:05"), Ok(245_000));
        assert_eq!(parse_clock("90"), Ok(90_000));
        assert!(parse_clock("4:75").is_err());
        assert!(parse_clock("soon").is_err());
        assert_eq!(parse_delta("+2:00"), Ok(120_000));
        assert_eq!(parse_delta("-1:00"), Ok(-60_000));
    }

    #[test]
    fn a_move_with_a_press_becomes_two_events_with_the_movers_time() {
        let fields = Fields(
            [
                ("type", "move"),
                ("by", "black"),
                ("san", "Nf6"),
                ("press", "on"),
                ("clock", "1:29:48"),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        );
        let events = events_from_form(&fields).expect("readable");
        assert_eq!(events.len(), 2);
        assert_eq!(events[1]["type"], "clock_press");
        assert_eq!(events[1]["black_ms"], 5_388_000);
        assert!(events[1].get("white_ms").is_none());
    }
}
