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
