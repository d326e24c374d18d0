//! Offline verification of a game's exported log, without a database.
//!
//! The database computes each event's hash as
//! `SHA-256(prev_hash || event_hash_input(row))`, where `event_hash_input` is PostgreSQL's
//! canonical `jsonb` text of the row (see `migrations/0001_event_log.sql`). This module
//! rebuilds exactly those bytes from an exported envelope, so that an appeals committee or a
//! federation can check a copy of a game's log without trusting the server: the chain from
//! `seq` 1, each hash, and (given a digest obtained separately) that the copy ends at the
//! chain head the server published.
//!
//! `jsonb` text is canonical: object keys are ordered by length and then bytewise, duplicate
//! keys are gone, separators are `", "` and `": "`, and strings escape only `"`, `\`, and
//! control characters.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

/// The hash before `seq` 1: 32 zero bytes.
pub const GENESIS_HASH: [u8; 32] = [0; 32];

/// The published head of a game's chain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChainDigest {
    /// The game.
    pub game_id: uuid::Uuid,
    /// The last `seq`.
    pub seq: u64,
    /// The hash of the last event, hex.
    pub hash: String,
}

/// Why an export does not verify: the line (1-based) and `seq` where it first fails.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}{}: {reason}", seq.map(|s| format!(" (seq {s})")).unwrap_or_default())]
pub struct ExportBroken {
    /// The 1-based line of the export.
    pub line: usize,
    /// The `seq` the line holds or should hold.
    pub seq: Option<u64>,
    /// What is wrong.
    pub reason: String,
}

/// What a verified export contains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedExport {
    /// The game.
    pub game_id: uuid::Uuid,
    /// How many events.
    pub events: u64,
    /// The last `seq` and its hash.
    pub head: ChainDigest,
}

/// Writes `value` as PostgreSQL's `jsonb` text output.
pub fn canonical_jsonb(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => out.push_str(&number.to_string()),
        Value::String(text) => escape_json(text, out),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                canonical_jsonb(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| {
                a.len()
                    .cmp(&b.len())
                    .then_with(|| a.as_bytes().cmp(b.as_bytes()))
            });
            out.push('{');
            for (index, key) in keys.into_iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                escape_json(key, out);
                out.push_str(": ");
                canonical_jsonb(&map[key], out);
            }
            out.push('}');
        }
    }
}

/// PostgreSQL's `escape_json`.
fn escape_json(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A timestamp as the hash input writes it: UTC, microseconds, `Z`.
fn hash_timestamp(time: Option<&DateTime<Utc>>) -> Value {
    match time {
        Some(time) => Value::String(time.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()),
        None => Value::Null,
    }
}

/// The fields of an exported envelope that the hash covers.
#[derive(Debug, Deserialize)]
struct ExportedEnvelope {
    game_id: uuid::Uuid,
    seq: u64,
    event_id: uuid::Uuid,
    recorded_at: DateTime<Utc>,
    recorded_by: String,
    occurred_at: Option<DateTime<Utc>>,
    clock: Option<Value>,
    prev_hash: String,
    hash: String,
    event: Value,
}

/// The exact bytes `event_hash_input` gives for an exported envelope.
fn hash_input(envelope: &ExportedEnvelope) -> Result<String, String> {
    let kind = envelope
        .event
        .get("type")
        .and_then(Value::as_str)
        .ok_or("the event has no `type`")?;
    let mut metadata = serde_json::Map::new();
    if let Some(clock) = envelope.clock.as_ref().filter(|c| !c.is_null()) {
        metadata.insert("clock".into(), clock.clone());
    }
    let input = serde_json::json!({
        "game_id": envelope.game_id,
        "seq": envelope.seq,
        "event_id": envelope.event_id,
        "type": kind,
        "payload": envelope.event,
        "metadata": Value::Object(metadata),
        "recorded_at": hash_timestamp(Some(&envelope.recorded_at)),
        "occurred_at": hash_timestamp(envelope.occurred_at.as_ref()),
        "recorded_by": envelope.recorded_by,
    });
    let mut text = String::new();
    canonical_jsonb(&input, &mut text);
    Ok(text)
}

/// Verifies an export (JSON Lines, one envelope per line, in `seq` order) and, if given,
/// that it ends at `digest`.
pub fn verify_export(
    text: &str,
    digest: Option<&ChainDigest>,
) -> Result<VerifiedExport, ExportBroken> {
    let mut previous = GENESIS_HASH.to_vec();
    let mut game_id = None;
    let mut last_seq = 0u64;
    let mut lines = 0usize;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        lines = number;
        let expected_seq = last_seq + 1;
        let broken = |reason: String| ExportBroken {
            line: number,
            seq: Some(expected_seq),
            reason,
        };
        let envelope: ExportedEnvelope = serde_json::from_str(line)
            .map_err(|e| broken(format!("not an event envelope: {e}")))?;
        if *game_id.get_or_insert(envelope.game_id) != envelope.game_id {
            return Err(broken(format!(
                "the line belongs to game {}, not to the game of line 1",
                envelope.game_id
            )));
        }
        if envelope.seq != expected_seq {
            return Err(broken(format!(
                "the line holds seq {} where seq {expected_seq} must come: lines are missing, \
                 reordered or duplicated",
                envelope.seq
            )));
        }
        let prev_hash =
            hex::decode(&envelope.prev_hash).map_err(|_| broken("prev_hash is not hex".into()))?;
        if prev_hash != previous {
            return Err(broken(format!(
                "prev_hash {} is not the hash of the line before ({})",
                envelope.prev_hash,
                hex::encode(&previous)
            )));
        }
        let input = hash_input(&envelope).map_err(broken)?;
        let mut hasher = Sha256::new();
        hasher.update(&previous);
        hasher.update(input.as_bytes());
        let computed = hasher.finalize().to_vec();
        let stored = hex::decode(&envelope.hash).map_err(|_| broken("hash is not hex".into()))?;
        if computed != stored {
            return Err(broken(format!(
                "the content does not give the recorded hash {} (it gives {}): the event was \
                 altered",
                envelope.hash,
                hex::encode(&computed)
            )));
        }
        previous = stored;
        last_seq = envelope.seq;
    }
    let Some(game_id) = game_id else {
        return Err(ExportBroken {
            line: 1,
            seq: None,
            reason: "the export holds no events".into(),
        });
    };
    let head = ChainDigest {
        game_id,
        seq: last_seq,
        hash: hex::encode(&previous),
    };
    if let Some(digest) = digest {
        if digest.game_id != head.game_id {
            return Err(ExportBroken {
                line: lines,
                seq: Some(last_seq),
                reason: format!(
                    "the digest is for game {}, the export for game {}",
                    digest.game_id, head.game_id
                ),
            });
        }
        if digest.seq != head.seq || !digest.hash.eq_ignore_ascii_case(&head.hash) {
            return Err(ExportBroken {
                line: lines,
                seq: Some(last_seq),
                reason: format!(
                    "the export ends at seq {} with hash {}, but the digest is seq {} with hash \
                     {}: the export is truncated or is not the published log",
                    head.seq, head.hash, digest.seq, digest.hash
                ),
            });
        }
    }
    Ok(VerifiedExport {
        game_id,
        events: last_seq,
        head,
    })
}

/// The seal of a tournament's report (issue 35): SHA-256 over the chain head of every game,
/// so that one hash printed on the final report (a `###` line of the TRF26 export and the
/// chief arbiter's report) tells whether any game's log changed after the report left.
///
/// The bytes hashed are one line per game, in the order of the games' ids (as their
/// hyphenated lower-case text sorts): `{game_id} {seq} {hash}\n`, the hash in lower-case hex.
/// Anyone can recompute it from the heads the report lists, or from the games' exports.
pub fn tournament_seal(heads: &[ChainDigest]) -> String {
    let mut lines: Vec<String> = heads
        .iter()
        .map(|head| {
            format!(
                "{} {} {}\n",
                head.game_id,
                head.seq,
                head.hash.to_ascii_lowercase()
            )
        })
        .collect();
    lines.sort();
    let mut hasher = Sha256::new();
    for line in &lines {
        hasher.update(line.as_bytes());
    }
    hex::encode(hasher.finalize())
}

#[cfg(test)]
mod seal_tests {
    use super::*;

    fn head(game: u128, seq: u64, hash: &str) -> ChainDigest {
        ChainDigest {
            game_id: uuid::Uuid::from_u128(game),
            seq,
            hash: hash.into(),
        }
    }

    #[test]
    fn the_seal_does_not_depend_on_the_order_the_heads_are_listed_in_but_on_every_head() {
        let a = head(1, 12, "aa");
        let b = head(2, 7, "BB");
        let seal = tournament_seal(&[a.clone(), b.clone()]);
        assert_eq!(seal, tournament_seal(&[b.clone(), a.clone()]));
        // The hash of the two lines as documented, computed here independently.
        let text = format!("{} 12 aa\n{} 7 bb\n", a.game_id, b.game_id);
        assert_eq!(seal, hex::encode(Sha256::digest(text.as_bytes())));
        assert_ne!(seal, tournament_seal(&[a.clone(), head(2, 8, "bb")]));
        assert_ne!(seal, tournament_seal(&[a]));
    }
}
