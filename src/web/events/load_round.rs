//! Loading a round's pairings: entered on the screen, or a CSV or TRF-16 file sent as a
//! multipart form (its CSRF token checked from the multipart fields).

use crate::app::commands::pairings_from;
use crate::app::rounds::{self, LoadError};
use crate::app::trf;
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

/// `POST /office/events/{id}/rounds`: loads a round's pairings (multipart: a file, or the
/// pairings typed in).
pub async fn load_round(
    state: web::Data<AppState>,
    viewer: Viewer,
    id: web::Path<Uuid>,
    multipart: Multipart,
) -> Result<HttpResponse, WebError> {
    let parts = read_multipart(multipart).await?;
    let text_of = |name: &str| {
        parts
            .get(name)
            .map(|b| crate::interchange::pairings::decode_text(b))
    };
    session::check_csrf(&viewer, text_of(session::CSRF_FIELD).as_deref())?;
    let tournament = tournament_or_404(&state.store, id.into_inner()).await?;
    viewer
        .principal
        .may_create_game(&tournament.settings.name)?;
    let round = text_of("round").unwrap_or_default().trim().to_string();
    let typed = text_of("pairings").unwrap_or_default();
    let file = text_of("file").filter(|f| !f.trim().is_empty());
    let content = file.clone().unwrap_or_else(|| typed.clone());
    let is_trf = content.lines().any(|l| l.starts_with("001 "));
    let mut values = HashMap::new();
    values.insert("round".to_string(), round.clone());
    if file.is_none() {
        values.insert("pairings".to_string(), typed.clone());
    }
    let back = format!("{PREFIX}/events/{}", tournament.tournament_id);
    let refused = |message: String| Flash {
        form: "load-round".into(),
        refused: true,
        message,
        values: values.clone(),
        code: None,
    };
    let outcome = async {
        tournament::check_round(&round).map_err(LoadError::Invalid)?;
        let read = if is_trf {
            pairings_from(&round, None, None, Some(&content))
        } else {
            pairings_from(&round, None, Some(&content), None)
        }
        .map_err(|e| LoadError::Conflict(e.message))?;
        // The whole file is read before anything is stored: a load is all or nothing.
        let file = if is_trf {
            Some(
                trf::round_file(&round, &content)
                    .map_err(|e| LoadError::Conflict(e.to_string()))?,
            )
        } else {
            None
        };
        let games = rounds::load_round(
            &state.store,
            &tournament,
            &round,
            &read.boards,
            &HashMap::new(),
            file.as_ref(),
            &viewer.principal.recorder(),
        )
        .await?;
        Ok::<_, LoadError>((games, read.unpaired, read.notes))
    }
    .await;
    match outcome {
        Ok((games, unpaired, notes)) => {
            let created = games.iter().filter(|g| g.created).count();
            let mut message = if created == games.len() {
                format!("Round {round}: {created} games created.")
            } else {
                format!(
                    "Round {round}: {created} games created, {} already there from an earlier load.",
                    games.len() - created
                )
            };
            if !unpaired.is_empty() {
                message.push_str(&format!(
                    " Without a board: {}.",
                    unpaired
                        .iter()
                        .map(|u| if u.code.is_empty() {
                            u.name.clone()
                        } else {
                            format!("{} ({})", u.name, u.code)
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if !notes.is_empty() {
                message.push_str(&format!(" Read with notes: {}", notes.join(" ")));
            }
            leave_flash(
                &state,
                &viewer,
                &Flash {
                    form: "load-round".into(),
                    refused: false,
                    message,
                    ..Flash::default()
                },
            )
            .await?;
            let floor = layout::round_link("floor", &tournament.settings.name, Some(&round));
            Ok(layout::see_other(
                &layout::after_write(&state, &floor).await,
            ))
        }
        Err(LoadError::Store(store)) => Err(store.into()),
        Err(LoadError::Invalid(problem)) => {
            leave_flash(&state, &viewer, &refused(problem.message)).await?;
            Ok(layout::see_other(&format!("{back}#load")))
        }
        Err(LoadError::Conflict(message)) => {
            leave_flash(&state, &viewer, &refused(message)).await?;
            Ok(layout::see_other(&format!("{back}#load")))
        }
    }
}
