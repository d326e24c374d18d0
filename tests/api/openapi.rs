//! The committed OpenAPI document is the one the code generates.

#[test]
fn the_committed_openapi_document_equals_the_generated_one() {
    let generated = serde_json::to_value(arbiter::http::openapi()).expect("serialize document");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(path).expect("openapi/openapi.json is committed"),
    )
    .expect("openapi/openapi.json is JSON");
    assert!(
        generated == committed,
        "openapi/openapi.json is out of date: regenerate it with \
         `cargo run -- openapi > openapi/openapi.json`"
    );
}

#[test]
fn the_openapi_document_is_version_3_1_and_lists_every_route() {
    let document = serde_json::to_value(arbiter::http::openapi()).expect("serialize document");
    assert!(
        document["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.1"))
    );
    for path in [
        "/healthz",
        "/readyz",
        "/v1/games",
        "/v1/games/{id}",
        "/v1/games/{id}/events",
        "/v1/feed",
    ] {
        assert!(
            document["paths"].get(path).is_some(),
            "{path} is documented"
        );
    }
}

#[test]
fn the_document_has_an_example_request_for_every_event_type_and_each_one_decodes() {
    let document = serde_json::to_value(arbiter::http::openapi()).expect("serialize document");
    let examples = &document["paths"]["/v1/games/{id}/events"]["post"]["requestBody"]["content"]["application/json"]
        ["examples"];
    for kind in arbiter::game::event::RECORDED_EVENT_TYPES {
        let example = &examples[*kind]["value"];
        let events = example["events"]
            .as_array()
            .unwrap_or_else(|| panic!("an example for {kind}"));
        assert!(
            events.iter().any(|e| e["type"] == *kind),
            "the {kind} example records a {kind}"
        );
        for event in events {
            let mut event = event.clone();
            let object = event.as_object_mut().unwrap();
            for envelope_field in ["event_id", "clock", "occurred_at"] {
                object.remove(envelope_field);
            }
            serde_json::from_value::<arbiter::game::event::RecordedEvent>(event.clone())
                .unwrap_or_else(|e| panic!("the {kind} example's {event} decodes: {e}"));
        }
    }
}

/// The names of the schemas a `oneOf` refers to, or `None` for a nullable field
/// (`oneOf: [{$ref}, {type: null}]`).
fn union_variants(schema: &serde_json::Value) -> Option<Vec<String>> {
    let items = schema["oneOf"].as_array()?;
    if items.iter().any(|item| item["type"] == "null") {
        return None;
    }
    Some(
        items
            .iter()
            .map(|item| {
                item["$ref"]
                    .as_str()
                    .and_then(|r| r.strip_prefix("#/components/schemas/"))
                    .unwrap_or_else(|| panic!("a union variant is a named schema, not {item}"))
                    .to_owned()
            })
            .collect(),
    )
}

#[test]
fn every_union_names_its_variants_and_is_discriminated_by_type() {
    let document = serde_json::to_value(arbiter::http::openapi()).expect("serialize document");
    let schemas = document["components"]["schemas"].as_object().unwrap();
    let mut unions = Vec::new();
    for (name, schema) in schemas {
        let Some(variants) = union_variants(schema) else {
            continue;
        };
        unions.push(name.as_str());
        let mapping = schema["discriminator"]["mapping"]
            .as_object()
            .unwrap_or_else(|| panic!("{name} has a discriminator with a mapping"));
        assert_eq!(schema["discriminator"]["propertyName"], "type", "{name}");
        assert_eq!(mapping.len(), variants.len(), "{name}: one tag per variant");
        for variant in &variants {
            let target = &schemas[variant];
            assert_eq!(target["type"], "object", "{variant} is an object");
            assert_eq!(
                target["title"],
                variant.as_str(),
                "{variant} has its name as title"
            );
            let tags = target["properties"]["type"]["enum"]
                .as_array()
                .unwrap_or_else(|| panic!("{variant} has a `type` tag"));
            assert_eq!(tags.len(), 1, "{variant} has one tag");
            let tag = tags[0].as_str().unwrap();
            assert_eq!(
                mapping[tag],
                format!("#/components/schemas/{variant}"),
                "{name} maps {tag} to {variant}"
            );
            assert!(
                target["required"]
                    .as_array()
                    .is_some_and(|r| r.iter().any(|f| f == "type")),
                "{variant} requires its tag"
            );
        }
    }
    assert_eq!(
        unions,
        [
            "Attention",
            "Event",
            "FairPlayFact",
            "NewEventRequest",
            "PlayerStatus",
            "RecordedEvent",
            "ServiceEvent",
            "TournamentEntry"
        ]
    );

    // No `allOf` takes a union; no union holds an anonymous object.
    fn walk(value: &serde_json::Value, schemas: &serde_json::Map<String, serde_json::Value>) {
        match value {
            serde_json::Value::Object(object) => {
                for part in object
                    .get("allOf")
                    .and_then(|a| a.as_array())
                    .into_iter()
                    .flatten()
                {
                    if let Some(name) = part["$ref"]
                        .as_str()
                        .and_then(|r| r.strip_prefix("#/components/schemas/"))
                    {
                        assert!(
                            schemas[name].get("oneOf").is_none(),
                            "allOf over the union {name}"
                        );
                    }
                }
                object.values().for_each(|v| walk(v, schemas));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| walk(v, schemas)),
            _ => {}
        }
    }
    walk(&document, schemas);
}

#[test]
fn the_event_unions_cover_every_event_type_and_requests_carry_the_envelope_fields() {
    use arbiter::game::event::{RECORDED_EVENT_TYPES, SEALED_EVENT_TYPES, SERVICE_EVENT_TYPES};
    let document = serde_json::to_value(arbiter::http::openapi()).expect("serialize document");
    let schemas = &document["components"]["schemas"];
    let tags = |union: &str| -> Vec<String> {
        let mut tags: Vec<String> = schemas[union]["discriminator"]["mapping"]
            .as_object()
            .unwrap_or_else(|| panic!("{union} is discriminated"))
            .keys()
            .cloned()
            .collect();
        tags.sort();
        tags
    };
    let sorted = |types: &[&str]| {
        let mut types: Vec<String> = types.iter().map(|t| t.to_string()).collect();
        types.sort();
        types
    };
    let recorded: Vec<&str> = RECORDED_EVENT_TYPES
        .iter()
        .chain(SEALED_EVENT_TYPES)
        .copied()
        .collect();
    let every: Vec<&str> = recorded
        .iter()
        .chain(SERVICE_EVENT_TYPES)
        .copied()
        .collect();
    assert_eq!(tags("RecordedEvent"), sorted(&recorded));
    assert_eq!(tags("ServiceEvent"), sorted(SERVICE_EVENT_TYPES));
    assert_eq!(tags("Event"), sorted(&every));
    assert_eq!(tags("NewEventRequest"), sorted(RECORDED_EVENT_TYPES));

    // Each request variant is its event plus the optional envelope fields, nothing else.
    for (tag, reference) in schemas["NewEventRequest"]["discriminator"]["mapping"]
        .as_object()
        .unwrap()
    {
        let request = &schemas[reference.as_str().unwrap().rsplit('/').next().unwrap()];
        let event_ref = schemas["RecordedEvent"]["discriminator"]["mapping"][tag]
            .as_str()
            .unwrap();
        let event = &schemas[event_ref.rsplit('/').next().unwrap()];
        let mut expected: Vec<&String> = event["properties"].as_object().unwrap().keys().collect();
        let envelope = ["clock".to_string(), "event_id".into(), "occurred_at".into()];
        expected.extend(envelope.iter());
        expected.sort();
        let mut actual: Vec<&String> = request["properties"].as_object().unwrap().keys().collect();
        actual.sort();
        assert_eq!(actual, expected, "{tag}");
        assert_eq!(request["required"], event["required"], "{tag}");
    }
}

#[test]
fn no_all_of_takes_an_object_that_forbids_the_other_parts_properties() {
    let document = serde_json::to_value(arbiter::http::openapi()).expect("serialize document");
    let schemas = document["components"]["schemas"].as_object().unwrap();
    for (name, schema) in schemas {
        for part in schema["allOf"].as_array().into_iter().flatten() {
            let resolved = part["$ref"]
                .as_str()
                .and_then(|r| r.strip_prefix("#/components/schemas/"))
                .map_or(part, |target| &schemas[target]);
            assert!(
                resolved["additionalProperties"] != false,
                "{name} is allOf over a closed object, which no instance can match"
            );
        }
    }
    // The stored tournament (settings flattened beside its id) is one closed object.
    let tournament = &schemas["Tournament"];
    assert_eq!(tournament["additionalProperties"], false);
    for field in ["tournament_id", "name", "time_control", "created_at"] {
        assert!(
            tournament["required"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f == field),
            "Tournament requires {field}"
        );
    }
}

/// Every type the document describes, by the name it has there: its Rust name, or the one
/// `#[schema(as = ...)]` gives it. Read from the source, since the document itself keeps
/// only one of two types with the same name and so cannot show the collision.
fn schema_names_in_source() -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, found: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("source directory")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("source file");
                let mut derives_schema = false;
                let mut renamed: Option<String> = None;
                for line in text.lines().map(str::trim) {
                    if line.starts_with("#[derive(") && line.contains("ToSchema") {
                        derives_schema = true;
                    } else if let Some(rest) = line.strip_prefix("#[schema(as = ") {
                        renamed = rest.split(')').next().map(|n| n.trim().to_string());
                    } else if derives_schema
                        && (line.starts_with("pub struct ") || line.starts_with("pub enum "))
                    {
                        let name = line
                            .split_whitespace()
                            .nth(2)
                            .unwrap_or_default()
                            .split(['<', '{', '(', ';'])
                            .next()
                            .unwrap_or_default()
                            .to_string();
                        found.push((renamed.take().unwrap_or(name), path.display().to_string()));
                        derives_schema = false;
                    } else if !line.starts_with("#[") && !line.starts_with("///") {
                        derives_schema = false;
                        renamed = None;
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut found,
    );
    found
}

#[test]
fn no_two_types_of_the_document_share_a_name() {
    let names = schema_names_in_source();
    assert!(
        names.len() > 100,
        "the scan finds the document's types ({} found)",
        names.len()
    );
    let mut by_name: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for (name, file) in &names {
        by_name.entry(name).or_default().push(file);
    }
    let shared: Vec<String> = by_name
        .iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(name, files)| format!("{name}: {}", files.join(", ")))
        .collect();
    assert!(
        shared.is_empty(),
        "two types with one schema name: the document keeps one of them and a generated client \
         gets the other wrong; rename one or give it #[schema(as = ...)]:\n{}",
        shared.join("\n")
    );
}
