//! The page shell every screen shares (header, navigation, who is signed in, sign-out) and
//! small pieces of presentation: clock times, results, badges, links.

use super::PREFIX;
use super::viewer::{CSRF_FIELD, Viewer};
use crate::access::Role;
use crate::game::event::{GameResult, Side};
use crate::tournament::{TimeZone, Tournament};
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::http::header;
use chrono::{DateTime, Utc};
use maud::{DOCTYPE, Markup, PreEscaped, html};

/// Which part of the back office a page belongs to (highlighted in the navigation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nav {
    /// No navigation (sign-in, errors).
    None,
    /// Events, rounds, the floor, the desk.
    Events,
    /// Claims and incidents.
    Incidents,
    /// Appeals.
    Appeals,
    /// Results.
    Results,
    /// Tokens (admin).
    Tokens,
}

/// The name of a role as shown.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Admin => "admin",
        Role::Arbiter => "arbiter",
        Role::Appeals => "appeals committee",
        Role::Reader => "reader",
    }
}

/// A whole page.
pub fn page(title: &str, viewer: Option<&Viewer>, current: Nav, body: Markup) -> Markup {
    let link = |nav: Nav, href: String, label: &str, key: &str| {
        html! {
            a href=(href) accesskey=(key) aria-current=[(nav == current).then_some("page")] { (label) }
        }
    };
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · Arbiter back office" }
                link rel="stylesheet" href={ (PREFIX) "/assets/office.css" };
                script src={ (PREFIX) "/assets/office.js" } defer {}
            }
            body {
                header.top {
                    a.brand href={ (PREFIX) "/" } { span.mark { "♜" } " Arbiter" }
                    @if let Some(viewer) = viewer {
                        nav aria-label="Sections" {
                            (link(Nav::Events, format!("{PREFIX}/"), "Events", "e"))
                            (link(Nav::Incidents, format!("{PREFIX}/incidents"), "Incidents", "i"))
                            (link(Nav::Appeals, format!("{PREFIX}/appeals"), "Appeals", "a"))
                            (link(Nav::Results, format!("{PREFIX}/results"), "Results", "r"))
                            @if viewer.principal.role == Role::Admin {
                                (link(Nav::Tokens, format!("{PREFIX}/tokens"), "Tokens", "t"))
                            }
                        }
                        div.signed-in {
                            span.name { (viewer.principal.name) }
                            " "
                            span class={ "role role-" (viewer.principal.role.as_str()) } { (role_name(viewer.principal.role)) }
                            form.inline method="post" action={ (PREFIX) "/sign-out" } {
                                (csrf_field(viewer))
                                button.link type="submit" { "Sign out" }
                            }
                        }
                    }
                }
                main id="main" { (body) }
                footer.bottom {
                    "Arbiter back office · every record is kept in a hash-chained, append-only log · "
                    "keys: Alt+E events, Alt+I incidents, Alt+A appeals, Alt+R results, Alt+M move"
                }
            }
        }
    }
}

/// The hidden field with the session's synchronizer token, for every form.
pub fn csrf_field(viewer: &Viewer) -> Markup {
    html! { input type="hidden" name=(CSRF_FIELD) value=(viewer.csrf_token); }
}

/// An HTML response.
pub fn html_response(status: StatusCode, markup: Markup) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(markup.into_string())
}

/// A 200 HTML page.
pub fn ok(markup: Markup) -> HttpResponse {
    html_response(StatusCode::OK, markup)
}

/// A 303 to `location` (post/redirect/get).
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location.to_string()))
        .finish()
}

/// Escapes text for a URL query value.
pub fn query_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// A link to a page of an event's round (floor, results, incidents).
pub fn round_link(page: &str, event: &str, round: Option<&str>) -> String {
    match round {
        Some(round) => format!(
            "{PREFIX}/{page}?event={}&round={}",
            query_escape(event),
            query_escape(round)
        ),
        None => format!("{PREFIX}/{page}?event={}", query_escape(event)),
    }
}

/// A local path to return to after a form, or the fallback: never another site.
pub fn local_path(path: Option<&str>, fallback: String) -> String {
    match path {
        Some(p)
            if p.starts_with(&format!("{PREFIX}/")) && !p.contains("//") && !p.contains('\\') =>
        {
            p.to_string()
        }
        _ => fallback,
    }
}

/// A clock time as a clock shows it: `1:29:51`, or `4:05` under an hour.
pub fn clock(ms: Option<u64>) -> String {
    crate::game::narration::clock(ms)
}

/// A span of time in words, e.g. `2 min` or `1 h 05 min`.
pub fn elapsed(since: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let seconds = (now - since).num_seconds().max(0);
    if seconds < 60 {
        format!("{seconds} s")
    } else if seconds < 3600 {
        format!("{} min", seconds / 60)
    } else {
        format!("{} h {:02} min", seconds / 3600, (seconds / 60) % 60)
    }
}

/// A date and time as printed on reports (UTC).
pub fn timestamp(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%d %H:%M:%S UTC").to_string()
}

/// A time of day (UTC), for timelines.
pub fn time_of_day(at: DateTime<Utc>) -> String {
    at.format("%H:%M:%S").to_string()
}

/// How a printed sheet shows the times of the log: in the venue's time zone when its
/// tournament has one (with the zone's abbreviation, so that a sheet read months later, or
/// across a change to summer time, is not misread), else in UTC.
#[derive(Clone, Copy, Debug, Default)]
pub struct HallTime(Option<TimeZone>);

impl HallTime {
    /// The venue's time of the tournament, UTC when there is none or it has no zone.
    pub fn of(tournament: Option<&Tournament>) -> HallTime {
        HallTime(tournament.and_then(|t| t.settings.time_zone))
    }

    /// The heading of a column of times: `Time (Europe/Brussels)` or `Time (UTC)`.
    pub fn heading(self) -> String {
        format!("Time ({})", self.0.map_or("UTC", TimeZone::name))
    }

    /// A date and time: `2026-11-20 14:32:05 CET`.
    pub fn timestamp(self, at: DateTime<Utc>) -> String {
        match self.0 {
            Some(zone) => at
                .with_timezone(&zone.0)
                .format("%Y-%m-%d %H:%M:%S %Z")
                .to_string(),
            None => timestamp(at),
        }
    }

    /// A time of day: `14:32:05 CET` (`14:32:05` in UTC, named by the column's heading).
    pub fn time_of_day(self, at: DateTime<Utc>) -> String {
        match self.0 {
            Some(zone) => at.with_timezone(&zone.0).format("%H:%M:%S %Z").to_string(),
            None => time_of_day(at),
        }
    }
}

/// A result as printed on a pairing list: `1-0`, `½-½`, `0-1`, `0-0` (a double forfeit).
pub fn result_text(result: GameResult) -> &'static str {
    crate::game::narration::result_text(result)
}

/// A result as a pairing list writes it: [`result_text`], or for a game not played (a
/// forfeit, 6.7.1) `+/−`, `−/+` and the double forfeit `−/−`; `*` while it goes on.
pub fn pairing_result(result: Option<GameResult>, forfeit: bool) -> &'static str {
    match (result, forfeit) {
        (Some(GameResult::WhiteWins), true) => "+/−",
        (Some(GameResult::BlackWins), true) => "−/+",
        (Some(GameResult::BothLose), true) => "−/−",
        (Some(result), _) => result_text(result),
        (None, _) => "*",
    }
}

/// How a game ended, in words.
pub fn termination_text(termination: crate::game::event::Termination) -> &'static str {
    use crate::game::event::Termination;
    match termination {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::DeadPosition => "dead position",
        Termination::FivefoldRepetition => "fivefold repetition",
        Termination::SeventyFiveMoves => "75 moves",
        Termination::Agreement => "agreement",
        Termination::RepetitionClaim => "repetition claim",
        Termination::FiftyMovesClaim => "50-move claim",
        Termination::Flag => "flag fall",
        Termination::Resignation => "resignation",
        Termination::IllegalMoves => "illegal moves",
        Termination::Arbiter => "arbiter's decision",
        Termination::Appeal => "appeal",
    }
}

/// How an ended game ended, in words for the results page and the chief arbiter's report,
/// from what the end rests on ([`crate::game::outcome`]): "forfeit (6.7.1)", "result reported
/// (8.7)", "rules infraction (11.3.2.2)", "resignation", ...; a game that lasted less than one
/// move says that it is not rated.
pub fn ended_text(
    termination: crate::game::event::Termination,
    article: Option<&str>,
    outcome: Option<&crate::game::outcome::Outcome>,
) -> String {
    use crate::game::outcome::{EndedAs, Played};
    let with_article = |words: &str| match article {
        Some(article) if !article.is_empty() => format!("{words} ({article})"),
        _ => words.to_string(),
    };
    let Some(outcome) = outcome else {
        return with_article(termination_text(termination));
    };
    let words = match outcome.ended_as {
        EndedAs::Forfeit => "forfeit (6.7.1)".to_string(),
        EndedAs::ReportedResult => "result reported (8.7)".to_string(),
        EndedAs::RulesInfraction => with_article("rules infraction"),
        EndedAs::Adjudication | EndedAs::OverTheBoard => {
            with_article(termination_text(termination))
        }
    };
    if outcome.played == Played::LessThanOneMove {
        format!("{words}; less than one move, not rated")
    } else {
        words
    }
}

/// `White` or `Black`.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// A badge.
pub fn badge(kind: &str, text: &str) -> Markup {
    html! { span class={ "badge badge-" (kind) } { (text) } }
}

/// Words of a snake_case name (`fifty_moves` → `fifty moves`).
pub fn words(name: &str) -> String {
    name.replace('_', " ")
}

/// The snake_case name of a serialisable unit enum value (`ClaimKind::FiftyMoves` →
/// `fifty_moves`).
pub fn wire_name<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Who recorded an event, as `recorded_by` names them (`Name (role, token ID)`): the name
/// and role shown, the token in the title.
pub fn recorder(recorded_by: &str) -> Markup {
    let shown = match recorded_by.split_once(" (") {
        Some((name, rest)) => {
            let role = rest.split(',').next().unwrap_or_default();
            format!("{name} ({role})")
        }
        None => recorded_by.to_string(),
    };
    html! { span.recorder title=(recorded_by) { (shown) } }
}

/// A short form of a hash for tables (the full one in the title).
pub fn short_hash(hash: &str) -> Markup {
    html! { code.hash title=(hash) { (hash.get(..12).unwrap_or(hash)) "…" } }
}

/// Text that must not be escaped (static, known-safe markup such as entities).
pub fn raw(text: &'static str) -> PreEscaped<&'static str> {
    PreEscaped(text)
}

/// `location` for the page a write leads to: with a read replica configured, the primary's
/// WAL position after the write as `min_lsn`, so that the page reads what was just written
/// (read-your-writes; see `src/request.rs`). Without a replica, `location` unchanged.
pub async fn after_write(state: &crate::state::AppState, location: &str) -> String {
    let lsn = match state.store.lsn_for_reads().await {
        Ok(Some(lsn)) => lsn,
        Ok(None) => return location.to_string(),
        Err(error) => {
            tracing::warn!(%error, "cannot read the WAL position after a write; the page may lag behind it");
            return location.to_string();
        }
    };
    let (path, fragment) = match location.split_once('#') {
        Some((path, fragment)) => (path, format!("#{fragment}")),
        None => (location, String::new()),
    };
    let separator = if path.contains('?') { '&' } else { '?' };
    format!(
        "{path}{separator}{}={}{fragment}",
        crate::request::MIN_LSN_PARAMETER,
        query_escape(&lsn.to_string())
    )
}

/// The round's PGN as broadcast relays poll it (`GET /v1/rounds/pgn`, read with the session).
pub fn round_pgn_link(event: &str, round: &str) -> String {
    format!(
        "/v1/rounds/pgn?event={}&round={}",
        query_escape(event),
        query_escape(round)
    )
}
