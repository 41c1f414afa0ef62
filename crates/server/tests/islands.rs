//! Islands from posted definitions: the example world posted back gives
//! the same island as the built-in route, and broken definitions are
//! answered with every diagnostic.

mod common;

use common::TestServer;
use mangekyo_store::{Backend, testing::TestDb};
use serde_json::{Value, json};

fn example_sources() -> Vec<Value> {
    mangekyo_island::example::sources()
        .iter()
        .map(|(name, text)| json!({ "name": name, "text": text }))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posted_definitions_make_the_same_island_as_the_example_route() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let body = json!({ "sources": example_sources(), "seed": "7", "format": "svg" });
    let posted = server.post_json("/v1/islands", &body).await;
    assert_eq!(posted.status(), 200);
    assert_eq!(posted.headers()["content-type"], "image/svg+xml");
    let posted_etag = posted.headers()["etag"].clone();
    let svg = posted.text().await.unwrap();
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{}",
        &svg[..80.min(svg.len())]
    );
    let builtin = server.get("/v1/islands/example/7?format=svg").await;
    assert_eq!(
        builtin.headers()["etag"],
        posted_etag,
        "same definitions and seed, same bytes"
    );

    let json_island: Value = server
        .post_json(
            "/v1/islands",
            &json!({ "sources": example_sources(), "seed": "7" }),
        )
        .await
        .json()
        .await
        .unwrap();
    assert!(json_island.is_object());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_definitions_get_every_diagnostic() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let mut sources = example_sources();
    sources[0]["text"] = json!("object_defs: [unclosed");
    let r = server
        .post_json("/v1/islands", &json!({ "sources": sources }))
        .await;
    assert_eq!(r.status(), 422);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "invalid_definitions");
    let first = mangekyo_island::example::sources()[0].0;
    // The syntax error's place: line 1, column 14 (the unclosed list).
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("{first}:1:14: invalid YAML")),
        "{message}"
    );
    assert!(
        body["error"]["parameter"]
            .as_str()
            .unwrap()
            .starts_with(first),
        "{body}"
    );

    // Many errors at once: the island crate's broken fixture, whose
    // expected diagnostics (file:line:column: path: message) are pinned in
    // its expected.txt. The answer counts them all and quotes the first
    // ten, each at its line and column, in order.
    let fixture = [
        (
            "bad_values/axes.yaml",
            include_str!("../../island/tests/fixtures/broken/bad_values/axes.yaml"),
        ),
        (
            "bad_values/base.yaml",
            include_str!("../../island/tests/fixtures/broken/bad_values/base.yaml"),
        ),
    ];
    let expected: Vec<&str> =
        include_str!("../../island/tests/fixtures/broken/bad_values/expected.txt")
            .lines()
            .collect();
    let sources: Vec<Value> = fixture
        .iter()
        .map(|(name, text)| json!({ "name": name, "text": text }))
        .collect();
    let r = server
        .post_json("/v1/islands", &json!({ "sources": sources }))
        .await;
    assert_eq!(r.status(), 422);
    let body: Value = r.json().await.unwrap();
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("{} error(s)", expected.len())),
        "{message}"
    );
    let mut from = 0;
    for want in expected.iter().take(10) {
        let at = message[from..]
            .find(want)
            .unwrap_or_else(|| panic!("{want:?} missing (or out of order) in {message}"));
        from += at + want.len();
    }
    assert!(
        message.contains(&format!("and {} more", expected.len() - 10)),
        "{message}"
    );
    let (place, path) = expected[0].split_once(": ").unwrap();
    assert_eq!(
        body["error"]["parameter"],
        format!(
            "{}: {}",
            place.split(':').next().unwrap(),
            path.split(':').next().unwrap()
        )
    );
    for (bad, parameter) in [
        (json!({ "sources": [] }), "sources"),
        (
            json!({ "sources": example_sources(), "format": "gif" }),
            "format",
        ),
        (
            json!({ "sources": example_sources(), "scope": "continent" }),
            "scope",
        ),
        (
            json!({ "sources": example_sources(), "lang": "xx" }),
            "lang",
        ),
    ] {
        let r = server.post_json("/v1/islands", &bad).await;
        assert_eq!(r.status(), 400, "{parameter}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"]["parameter"], parameter);
    }
    assert_eq!(server.get_json("/healthz", 200).await["status"], "ok");
    server.stop().await;
}
