//! Loading a round's pairings: entered on the screen, or a CSV or TRF-16 file sent as a
//! multipart form (its CSRF token checked from the multipart fields).

use crate::app::commands::pairings_from;
use crate::app::rounds::{self, LoadError, RoundGame};
use crate::app::trf;
use crate::interchange::pairings::{RoundPairings, decode_text};
use crate::state::AppState;
use crate::store::Store;
use crate::tournament::{self, Tournament};
use crate::web::PREFIX;
use crate::web::error::WebError;
use crate::web::layout;
use crate::web::session::{self, Flash, Viewer, leave_flash};
use actix_multipart::Multipart;
use actix_web::{HttpResponse, web};
use futures_util::TryStreamExt;
use std::collections::HashMap;
use uuid::Uuid;

pub(super) async fn tournament_or_404(store: &Store, id: Uuid) -> Result<Tournament, WebError> {
    store
        .tournament(id)
        .await?
        .ok_or_else(|| WebError::NotFound(format!("There is no tournament with id {id}.")))
}

/// The most a pairing upload may hold.
pub(super) const MAX_UPLOAD: usize = 2 * 1024 * 1024;

/// Reads a multipart form's text fields and its file.
pub(super) async fn read_multipart(
    mut multipart: Multipart,
) -> Result<HashMap<String, Vec<u8>>, WebError> {
    let mut fields = HashMap::new();
    let mut total = 0usize;
    while let Some(mut field) = multipart
        .try_next()
        .await
        .map_err(|e| WebError::BadRequest(format!("The form cannot be read: {e}.")))?
    {
        let name = field.name().unwrap_or_default().to_string();
        let mut bytes = Vec::new();
        while let Some(chunk) = field
            .try_next()
            .await
            .map_err(|e| WebError::BadRequest(format!("The form cannot be read: {e}.")))?
        {
            total += chunk.len();
            if total > MAX_UPLOAD {
                return Err(WebError::BadRequest(
                    "The file is larger than 2 MiB; a pairing file is much smaller. Check that \
                     the right file was chosen."
                        .into(),
                ));
            }
            bytes.extend_from_slice(&chunk);
        }
        fields.insert(name, bytes);
    }
    Ok(fields)
}

/// The round upload as sent: the round, the pairings typed in, and the file chosen (which
/// wins when both are given).
struct RoundUpload {
    round: String,
    typed: String,
    file: Option<String>,
}

impl RoundUpload {
    /// Reads the upload's parts (their text in the file's encoding, [`decode_text`]).
    fn from_parts(parts: &HashMap<String, Vec<u8>>) -> RoundUpload {
        let text_of = |name: &str| parts.get(name).map(|b| decode_text(b));
        RoundUpload {
            round: text_of("round").unwrap_or_default().trim().to_string(),
            typed: text_of("pairings").unwrap_or_default(),
            file: text_of("file").filter(|f| !f.trim().is_empty()),
        }
    }

    /// The pairings to load: the file's, or else those typed in.
    fn content(&self) -> &str {
        self.file.as_deref().unwrap_or(&self.typed)
    }

    /// Whether the pairings are a TRF-16 file (it has a player line) rather than CSV.
    fn is_trf(&self) -> bool {
        self.content().lines().any(|l| l.starts_with("001 "))
    }

    /// What a refused upload shows again: the round, and what was typed (a file is chosen
    /// again).
    fn kept(&self) -> HashMap<String, String> {
        let mut values = HashMap::from([("round".to_string(), self.round.clone())]);
        if self.file.is_none() {
            values.insert("pairings".to_string(), self.typed.clone());
        }
        values
    }

    /// Reads the whole upload, then loads the round: all or nothing.
    async fn load(
        &self,
        store: &Store,
        tournament: &Tournament,
        recorded_by: &str,
    ) -> Result<(Vec<RoundGame>, RoundPairings), LoadError> {
        let (round, content) = (self.round.as_str(), self.content());
        tournament::check_round(round).map_err(LoadError::Invalid)?;
        let read = if self.is_trf() {
            pairings_from(round, None, None, Some(content))
        } else {
            pairings_from(round, None, Some(content), None)
        }
        .map_err(|e| LoadError::Conflict(e.message))?;
        let file = if self.is_trf() {
            Some(trf::round_file(round, content).map_err(|e| LoadError::Conflict(e.to_string()))?)
        } else {
            None
        };
        let games = rounds::load_round(
            store,
            tournament,
            round,
            &read.boards,
            &HashMap::new(),
            file.as_ref(),
            recorded_by,
        )
        .await?;
        Ok((games, read))
    }
}

/// `POST /office/events/{id}/rounds`: loads a round's pairings (multipart: a file, or the
/// pairings typed in).
pub async fn load_round(
    state: web::Data<AppState>,
    viewer: Viewer,
    id: web::Path<Uuid>,
    multipart: Multipart,
) -> Result<HttpResponse, WebError> {
    let parts = read_multipart(multipart).await?;
    let token = parts.get(session::CSRF_FIELD).map(|b| decode_text(b));
    session::check_csrf(&viewer, token.as_deref())?;
    let upload = RoundUpload::from_parts(&parts);
    let tournament = tournament_or_404(&state.store, id.into_inner()).await?;
    viewer
        .principal
        .may_create_game(&tournament.settings.name)?;
    let recorded_by = viewer.principal.recorder();
    let message = match upload.load(&state.store, &tournament, &recorded_by).await {
        Ok((games, read)) => loaded(&upload.round, &games, &read),
        Err(LoadError::Store(store)) => return Err(store.into()),
        Err(LoadError::Invalid(problem)) => {
            return refuse(&state, &viewer, &upload, &tournament, problem.message).await;
        }
        Err(LoadError::Conflict(message)) => {
            return refuse(&state, &viewer, &upload, &tournament, message).await;
        }
    };
    let flash = Flash {
        form: "load-round".into(),
        refused: false,
        message,
        ..Flash::default()
    };
    leave_flash(&state, &viewer, &flash).await?;
    let floor = layout::round_link("floor", &tournament.settings.name, Some(&upload.round));
    Ok(layout::see_other(
        &layout::after_write(&state, &floor).await,
    ))
}

/// Back to the tournament's load form, which shows why the upload was refused and keeps
/// what was typed.
async fn refuse(
    state: &AppState,
    viewer: &Viewer,
    upload: &RoundUpload,
    tournament: &Tournament,
    message: String,
) -> Result<HttpResponse, WebError> {
    let flash = Flash {
        form: "load-round".into(),
        refused: true,
        message,
        values: upload.kept(),
        code: None,
    };
    leave_flash(state, viewer, &flash).await?;
    Ok(layout::see_other(&format!(
        "{PREFIX}/events/{}#load",
        tournament.tournament_id
    )))
}

/// What the arbiter is told of a loaded round: the games created (and those already there),
/// the players without a board, and what the file's reading noted.
fn loaded(round: &str, games: &[RoundGame], read: &RoundPairings) -> String {
    let created = games.iter().filter(|g| g.created).count();
    let mut message = if created == games.len() {
        format!("Round {round}: {created} games created.")
    } else {
        format!(
            "Round {round}: {created} games created, {} already there from an earlier load.",
            games.len() - created
        )
    };
    if !read.unpaired.is_empty() {
        let unpaired: Vec<String> = read
            .unpaired
            .iter()
            .map(|u| {
                if u.code.is_empty() {
                    u.name.clone()
                } else {
                    format!("{} ({})", u.name, u.code)
                }
            })
            .collect();
        message.push_str(&format!(" Without a board: {}.", unpaired.join(", ")));
    }
    if !read.notes.is_empty() {
        message.push_str(&format!(" Read with notes: {}", read.notes.join(" ")));
    }
    message
}
