//! A game as far as a stream has read it: folded by the engine, with what its audience saw.

use super::*;

/// A game folded as far as its stream has read, and what its audience saw of it.
pub(super) struct Followed {
    pub(super) game: Game,
    pub(super) seq: u64,
    pub(super) disclosure: Disclosure,
}

impl Followed {
    pub(super) fn new(
        game_id: Uuid,
        envelope: &EventEnvelope,
        audience: Audience,
    ) -> Result<Self, StreamError> {
        let corrupt = |problem: String| StreamError::Corrupt {
            game_id,
            source: CorruptLog {
                seq: envelope.seq,
                problem,
            },
        };
        let Event::Service(ServiceEvent::GameCreated(settings)) = &envelope.event else {
            return Err(corrupt("the log does not begin with game_created".into()));
        };
        let mut game = Game::new(settings).map_err(|e| corrupt(e.to_string()))?;
        game.apply(envelope.seq, &envelope.event)
            .map_err(|source| StreamError::Corrupt { game_id, source })?;
        let mut disclosure = Disclosure::new(audience);
        disclosure.observe(envelope.seq, &envelope.event);
        Ok(Followed {
            game,
            seq: envelope.seq,
            disclosure,
        })
    }

    /// Folds the next event; the message to send, if the audience sees it.
    pub(super) fn fold(
        &mut self,
        envelope: &EventEnvelope,
        cursor: Option<&FeedCursor>,
    ) -> Result<Option<StreamMessage>, StreamError> {
        let game_id = envelope.game_id;
        let positions = fold_for_stream(&mut self.game, envelope.seq, &envelope.event)
            .map_err(|source| StreamError::Corrupt { game_id, source })?;
        self.seq = envelope.seq;
        self.disclosure.observe(envelope.seq, &envelope.event);
        if !self.disclosure.shows(envelope.seq, self.game.is_over()) {
            return Ok(None);
        }
        let cursor = cursor.map(FeedCursor::to_string);
        let item = StreamItem {
            envelope: envelope.clone(),
            position: positions.position,
            returns_to: positions.returns_to,
            cursor: cursor.clone(),
        };
        Ok(Some(StreamMessage {
            id: cursor.unwrap_or_else(|| envelope.seq.to_string()),
            event: envelope.event.type_name().to_string(),
            data: to_json(&item),
        }))
    }

    pub(super) fn snapshot_message(&self, game_id: Uuid, id: String) -> StreamMessage {
        let snapshot: GameSnapshot = snapshot(game_id, self.seq, &self.game);
        StreamMessage {
            id,
            event: "snapshot".into(),
            data: to_json(&snapshot),
        }
    }
}

pub(super) fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "{}".into())
}
