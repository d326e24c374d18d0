//! Shapes the OpenAPI document so that stock client generators read all of it.
//!
//! utoipa describes a `#[serde(tag = "type")]` enum as a `oneOf` of anonymous inline objects
//! (or, for a variant that wraps a struct, an `allOf` of the struct and the tag), an
//! untagged enum of two such enums as a `oneOf` of two `oneOf`s, and a struct that flattens
//! one as an `allOf` over a `oneOf`. The JSON on the wire is plain: every event is one object
//! with a unique `type`. But generators cannot name anonymous variants, cannot take `allOf`
//! of a union, and without a discriminator try the variants blindly; openapi-python-client
//! 0.29.1 dropped every schema holding an event ("Invalid property in union", "Cannot take
//! allOf a non-object"), and with them the routes that record a game.
//!
//! [`EventContract`] rewrites those schemas after utoipa has collected them from the real
//! types, so the document cannot drift from what serde reads and writes:
//!
//! * every variant of `RecordedEvent` and `ServiceEvent` becomes a named object component
//!   (`MoveEvent`, `ClaimEvent`, ..., `GameCreatedEvent`, `ClaimRuledEvent`) whose `title` is
//!   its name, and each union carries a `discriminator` on `type` with a mapping;
//! * `Event` is one `oneOf` over all of them with one discriminator (not a union of unions);
//! * `NewEventRequest` (an event with the optional envelope fields `event_id`, `occurred_at`
//!   and `clock` beside its own) is a `oneOf` over one request component per recorded event
//!   (`MoveEventRequest`, ...) that carries those fields, instead of `allOf` over a `oneOf`.
//!
//! The wire format does not change. See docs/interchange.md, "The OpenAPI document and
//! generated clients".

use std::collections::BTreeMap;
use utoipa::openapi::OpenApi as OpenApiDocument;
use utoipa::openapi::schema::{AdditionalProperties, Discriminator, Object, OneOfBuilder, Schema};
use utoipa::openapi::{Ref, RefOr};

// PGN is text; the import's body says `application/octet-stream`, `format: binary`, so that
// generated clients send it as a file (openapi-python-client takes a raw request body only
// as a file); the answers are PGN or, on request, the same `text/plain`
// ([`TextAlternatives`]). Used only to describe the routes.
/// A PGN file (UTF-8 text), sent and received as a file.
#[derive(utoipa::ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct PgnFile(pub String);

/// An evidence file (any media type: a photo, a scanner's log, a statement), as stored.
#[derive(utoipa::ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct EvidenceFileBody(pub Vec<u8>);

/// The media types of the files the service answers with (PGN, SVG diagrams, JSON lines)
/// that a client may also ask for as `text/plain` (see [`TEXT_ALTERNATIVE`]).
pub const FILE_MEDIA_TYPES: [&str; 3] = [
    "application/x-chess-pgn",
    "image/svg+xml",
    "application/x-ndjson",
];

/// What a file answer is served as when the request's `Accept` asks for `text/plain` and not
/// for the file's own media type: the same text.
pub const TEXT_ALTERNATIVE: &str = "text/plain; charset=utf-8";

/// Declares the `text/plain` alternative of every file answer, so that a client generator
/// that reads only JSON and text (openapi-python-client) generates every download from the
/// served document alone; the service answers it as [`TEXT_ALTERNATIVE`] on request.
pub struct TextAlternatives;

impl utoipa::Modify for TextAlternatives {
    fn modify(&self, document: &mut OpenApiDocument) {
        for item in document.paths.paths.values_mut() {
            let Some(get) = item.get.as_mut() else {
                continue;
            };
            for response in get.responses.responses.values_mut() {
                let utoipa::openapi::RefOr::T(response) = response else {
                    continue;
                };
                let file = response
                    .content
                    .iter()
                    .find(|(media_type, _)| FILE_MEDIA_TYPES.contains(&media_type.as_str()))
                    .map(|(_, content)| content.clone());
                if let Some(content) = file {
                    let mut text = utoipa::openapi::ContentBuilder::new()
                        .schema(Some(
                            utoipa::openapi::ObjectBuilder::new()
                                .schema_type(utoipa::openapi::Type::String)
                                .description(Some(
                                    "The same text, when the request's Accept asks for \
                                     text/plain and not for the file's own media type.",
                                ))
                                .build(),
                        ))
                        .build();
                    if let utoipa::openapi::RefOr::T(content) = &content {
                        text.example = content.example.clone();
                    }
                    response.content.insert("text/plain".into(), text.into());
                }
            }
        }
    }
}

/// Merges into one object every `allOf` component whose parts include an object that
/// forbids additional properties (`#[serde(deny_unknown_fields)]` on a struct another one
/// flattens, e.g. `Tournament` over `TournamentSettings`): such an `allOf` rejects every
/// instance, since each part's properties are "additional" to the closed one. The merged
/// object has all the parts' properties and stays closed, as serde is.
pub struct ClosedAllOf;

impl utoipa::Modify for ClosedAllOf {
    fn modify(&self, document: &mut OpenApiDocument) {
        let Some(components) = document.components.as_mut() else {
            return;
        };
        let schemas = &mut components.schemas;
        let mut merged = Vec::new();
        for (name, schema) in schemas.iter() {
            let RefOr::T(Schema::AllOf(all_of)) = schema else {
                continue;
            };
            let parts: Option<Vec<Object>> = all_of
                .items
                .iter()
                .map(|part| match part {
                    RefOr::T(Schema::Object(object)) => Some(object.clone()),
                    RefOr::Ref(reference) => match schemas.get(reference_name(reference)?) {
                        Some(RefOr::T(Schema::Object(object))) => Some(object.clone()),
                        _ => None,
                    },
                    RefOr::T(_) => None,
                })
                .collect();
            let Some(mut parts) = parts else {
                continue;
            };
            if !parts.iter().any(is_closed) || parts.is_empty() {
                continue;
            }
            let mut object = parts.remove(0);
            for part in parts {
                object.properties.extend(part.properties);
                for key in part.required {
                    if !object.required.contains(&key) {
                        object.required.push(key);
                    }
                }
            }
            object.description = all_of.description.clone();
            object.example = all_of.example.clone();
            object.examples = all_of.examples.clone();
            object.additional_properties = Some(Box::new(AdditionalProperties::FreeForm(false)));
            merged.push((name.clone(), object));
        }
        for (name, object) in merged {
            schemas.insert(name, RefOr::T(Schema::Object(object)));
        }
    }
}

/// Whether an object forbids properties it does not list.
fn is_closed(object: &Object) -> bool {
    matches!(
        object.additional_properties.as_deref(),
        Some(AdditionalProperties::FreeForm(false))
    )
}

/// The component a reference names.
fn reference_name(reference: &Ref) -> Option<&str> {
    reference.ref_location.strip_prefix("#/components/schemas/")
}

/// The property that names an event's kind, on the wire and in the discriminators.
const TAG: &str = "type";

/// The rewrite of the event schemas described in the module documentation; applied to the
/// served and the committed document alike by `http::openapi()` and `http::app()`.
pub struct EventContract;

impl utoipa::Modify for EventContract {
    fn modify(&self, document: &mut OpenApiDocument) {
        let Some(components) = document.components.as_mut() else {
            return;
        };
        let schemas = &mut components.schemas;
        name_variants(schemas, "FairPlayFact", "Event");
        let recorded = name_variants(schemas, "RecordedEvent", "Event");
        let service = name_variants(schemas, "ServiceEvent", "Event");
        // What a board feed says against the log: a union like the events.
        name_variants(schemas, "Attention", "Attention");
        // A tournament's log entries and players' statuses (issue 35).
        name_variants(schemas, "PlayerStatus", "Status");
        name_variants(schemas, "TournamentEntry", "Entry");
        if recorded.is_empty() || service.is_empty() {
            // Not the shapes this rewrite knows; the contract test names what is wrong.
            return;
        }
        let every_event: Vec<Variant> = recorded.iter().chain(&service).cloned().collect();
        if let Some(RefOr::T(event)) = schemas.get("Event") {
            let description = schema_description(event);
            schemas.insert(
                "Event".into(),
                RefOr::T(discriminated_union(&every_event, description, None)),
            );
        }
        requests_per_event(schemas, &recorded);
    }
}

/// A variant of a tagged union, now a named component.
#[derive(Clone, Debug)]
struct Variant {
    /// The value of `type`, e.g. `claim_ruled`.
    tag: String,
    /// The component's name, e.g. `ClaimRuledEvent`.
    name: String,
    /// What the variant means (its doc comment).
    description: Option<String>,
}

/// Moves every variant of the tagged union `union` into a component of its own named after
/// its tag (and `suffix`), and makes the union a discriminated `oneOf` of references to them.
/// Returns the variants, or nothing when `union` is not a union of tagged objects.
fn name_variants(
    schemas: &mut BTreeMap<String, RefOr<Schema>>,
    union: &str,
    suffix: &str,
) -> Vec<Variant> {
    let Some(RefOr::T(Schema::OneOf(one_of))) = schemas.get(union) else {
        return Vec::new();
    };
    let mut named = Vec::new();
    for item in &one_of.items {
        let RefOr::T(schema) = item else {
            return Vec::new();
        };
        let Some(object) = variant_object(schemas, schema) else {
            return Vec::new();
        };
        let Some(tag) = tag_of(&object) else {
            return Vec::new();
        };
        let name = format!("{}{suffix}", pascal_case(&tag));
        named.push((tag, name, object));
    }
    let description = one_of.description.clone();
    let mut variants = Vec::new();
    for (tag, name, mut object) in named {
        object.title = Some(name.clone());
        variants.push(Variant {
            tag,
            name: name.clone(),
            description: object.description.clone(),
        });
        schemas.insert(name, RefOr::T(Schema::Object(object)));
    }
    schemas.insert(
        union.into(),
        RefOr::T(discriminated_union(&variants, description, None)),
    );
    variants
}

/// The object a variant describes: an inline object as it is, or `allOf` of a struct's
/// component and the tag (a variant wrapping a struct) merged into one object.
fn variant_object(schemas: &BTreeMap<String, RefOr<Schema>>, schema: &Schema) -> Option<Object> {
    match schema {
        Schema::Object(object) => Some(object.clone()),
        Schema::AllOf(all_of) => {
            let mut merged: Option<Object> = None;
            let mut tag_part: Option<Object> = None;
            for part in &all_of.items {
                match part {
                    RefOr::Ref(reference) => {
                        let name = reference.ref_location.rsplit('/').next()?;
                        let Some(RefOr::T(Schema::Object(object))) = schemas.get(name) else {
                            return None;
                        };
                        merged = Some(object.clone());
                    }
                    RefOr::T(Schema::Object(object)) => tag_part = Some(object.clone()),
                    RefOr::T(_) => return None,
                }
            }
            let (mut merged, tag_part) = (merged?, tag_part?);
            for (key, property) in tag_part.properties {
                merged.properties.insert(key, property);
            }
            for key in tag_part.required {
                if !merged.required.contains(&key) {
                    merged.required.push(key);
                }
            }
            merged.description = all_of.description.clone();
            merged.example = None;
            Some(merged)
        }
        _ => None,
    }
}

/// The one value the object's `type` property may take.
fn tag_of(object: &Object) -> Option<String> {
    let Some(RefOr::T(Schema::Object(tag))) = object.properties.get(TAG) else {
        return None;
    };
    match tag.enum_values.as_deref() {
        Some([serde_json::Value::String(value)]) => Some(value.clone()),
        _ => None,
    }
}

/// A `oneOf` of references to the variants, discriminated by `type` with an explicit
/// mapping from each tag to its component.
fn discriminated_union(
    variants: &[Variant],
    description: Option<String>,
    example: Option<serde_json::Value>,
) -> Schema {
    let mut discriminator = Discriminator::new(TAG);
    let mut builder = OneOfBuilder::new()
        .description(description)
        .examples(example);
    for variant in variants {
        let reference = Ref::from_schema_name(&variant.name);
        discriminator
            .mapping
            .insert(variant.tag.clone(), reference.ref_location.clone());
        builder = builder.item(RefOr::Ref(reference));
    }
    Schema::OneOf(builder.discriminator(Some(discriminator)).build())
}

/// Replaces `NewEventRequest` (`allOf` of `RecordedEvent` and the envelope fields) with a
/// discriminated `oneOf` of one request component per recorded event, each holding the
/// event's own properties and the optional envelope fields.
fn requests_per_event(schemas: &mut BTreeMap<String, RefOr<Schema>>, recorded: &[Variant]) {
    let Some(RefOr::T(Schema::AllOf(request))) = schemas.get("NewEventRequest") else {
        return;
    };
    let envelope = request.items.iter().find_map(|item| match item {
        RefOr::T(Schema::Object(object)) => Some(object.clone()),
        _ => None,
    });
    let Some(envelope) = envelope else {
        return;
    };
    let description = request.description.clone();
    let example = request.example.clone();
    let mut requests = Vec::new();
    for variant in recorded {
        if crate::game::event::SEALED_EVENT_TYPES.contains(&variant.tag.as_str()) {
            // Recorded through its own route, never in a game's `events`.
            continue;
        }
        let Some(RefOr::T(Schema::Object(event))) = schemas.get(&variant.name) else {
            return;
        };
        let mut object = event.clone();
        let name = format!("{}Request", variant.name);
        object.title = Some(name.clone());
        for (key, property) in &envelope.properties {
            object.properties.insert(key.clone(), property.clone());
        }
        object.description = Some(format!(
            "{} With the optional envelope fields `event_id`, `occurred_at` and `clock`.",
            variant.description.as_deref().unwrap_or_default()
        ));
        requests.push(Variant {
            tag: variant.tag.clone(),
            name: name.clone(),
            description: object.description.clone(),
        });
        schemas.insert(name, RefOr::T(Schema::Object(object)));
    }
    schemas.insert(
        "NewEventRequest".into(),
        RefOr::T(discriminated_union(&requests, description, example)),
    );
}

/// The description of a schema, whatever its kind.
fn schema_description(schema: &Schema) -> Option<String> {
    match schema {
        Schema::Object(object) => object.description.clone(),
        Schema::OneOf(one_of) => one_of.description.clone(),
        Schema::AllOf(all_of) => all_of.description.clone(),
        Schema::AnyOf(any_of) => any_of.description.clone(),
        _ => None,
    }
}

/// `claim_ruled` -> `ClaimRuled`.
fn pascal_case(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::pascal_case;

    #[test]
    fn a_tag_becomes_a_component_name() {
        assert_eq!(pascal_case("claim_ruled"), "ClaimRuled");
        assert_eq!(pascal_case("move"), "Move");
    }
}
