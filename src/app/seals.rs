//! The sealed fair-play data of a game checked against the hashes in its log (issue 23): each
//! sealed payload against the hash its public `fair_play` row carries, each evidence file
//! against the SHA-256 its `evidence_added` recorded. Apart from `fair_play` (which records and
//! reads for the capability's holders) because the public audit in `arbitration` needs it too,
//! and it needs nothing of either: only the store.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::game::fair_play::FairPlayFact;
use crate::store::StoreError;

/// A fault the fair-play audit found, naming the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FairPlayFault {
    /// The `seq` of the event.
    pub seq: u64,
    /// What is wrong.
    pub reason: String,
}

/// The sealed fair-play data of a game as the public audit checks it: how many `fair_play`
/// events, and the events whose payload or evidence no longer gives the hash recorded for it,
/// by `seq` only (the reason says nothing of the content).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SealCheck {
    /// How many `fair_play` events were checked.
    pub checked: u64,
    /// True when every payload and file gives its hash.
    pub intact: bool,
    /// The faults, by event.
    pub faults: Vec<FairPlayFault>,
}

/// Checks the sealed payloads and evidence files of `game_id` for the public audit.
pub async fn seal_check(
    store: &crate::store::Store,
    game_id: Uuid,
) -> Result<SealCheck, StoreError> {
    let (checked, faults) = seal_faults(store, game_id).await?;
    let mut seqs: Vec<u64> = faults.iter().map(|f| f.seq).collect();
    seqs.dedup();
    Ok(SealCheck {
        checked,
        intact: faults.is_empty(),
        faults: seqs
            .into_iter()
            .map(|seq| FairPlayFault {
                seq,
                reason: "the sealed fair-play data of this event (its payload or an evidence \
                         file) no longer gives the hash recorded for it"
                    .into(),
            })
            .collect(),
    })
}

/// The faults of the sealed payloads and evidence files of `game_id`, with their reasons,
/// and how many `fair_play` events were checked.
pub(crate) async fn seal_faults(
    store: &crate::store::Store,
    game_id: Uuid,
) -> Result<(u64, Vec<FairPlayFault>), StoreError> {
    let (stored, unsealed) = store.fair_play_events(game_id).await?;
    let mut faults: Vec<FairPlayFault> = unsealed
        .iter()
        .map(|row| FairPlayFault {
            seq: row.seq,
            reason: "the sealed payload of this fair_play event is missing from the \
                     restricted table"
                .into(),
        })
        .collect();
    for item in &stored {
        let kind = item.payload.record.fact.type_name();
        if item.payload_sha256 != item.sealed {
            faults.push(FairPlayFault {
                seq: item.seq,
                reason: format!(
                    "the payload of this {kind} no longer gives the hash sealed in the log \
                     ({}; it gives {}): it was altered after it was recorded",
                    item.sealed, item.payload_sha256
                ),
            });
        }
        if let FairPlayFact::EvidenceAdded {
            file_name,
            sha256: Some(sha256),
            ..
        } = &item.payload.record.fact
        {
            let now = store.fair_play_evidence_hashes(game_id, sha256).await?;
            if now.is_empty() {
                faults.push(FairPlayFault {
                    seq: item.seq,
                    reason: format!("the evidence file `{file_name}` ({sha256}) is missing"),
                });
            }
            for hash in now.iter().filter(|h| *h != sha256) {
                faults.push(FairPlayFault {
                    seq: item.seq,
                    reason: format!(
                        "the evidence file `{file_name}` no longer gives the SHA-256 its \
                         evidence_added recorded ({sha256}; it gives {hash}): the file was \
                         altered"
                    ),
                });
            }
        }
    }
    faults.sort_by_key(|f| f.seq);
    Ok(((stored.len() + unsealed.len()) as u64, faults))
}
