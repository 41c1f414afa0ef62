//! The example world's game over HTTP: a game played one stateless request
//! at a time (the save going back and forth) says and saves exactly what
//! the same commands give in one uninterrupted in-process session, and bad
//! saves or mixed fields get a JSON 4xx naming the field.

mod common;

use common::TestServer;
use mangekyo_core::Seed;
use mangekyo_island::example;
use mangekyo_store::{Backend, testing::TestDb};
use mangekyo_world::{Game, Session};
use serde_json::{Value, json};

const COMMANDS: [&str; 12] = [
    "explore", "explore", "explore", "travel 1", "explore", "rest", "explore", "travel 1", "look",
    "explore", "ask", "paths",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_over_http_equals_an_uninterrupted_session() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let defs = example::definitions();
    let mut local = Session::new(Game::new(&defs, "island", Seed::parse("7")).unwrap(), "en");

    let r = server
        .post_json("/v1/islands/example/play", &json!({ "seed": "7" }))
        .await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["cache-control"], "no-store");
    let first: Value = r.json().await.unwrap();
    assert_eq!(first["text"], local.intro());
    let mut save = first["save"].as_str().unwrap().to_owned();
    let mut clocks = vec![first["status"]["clock_minutes"].as_u64().unwrap()];
    for command in COMMANDS {
        let answer: Value = server
            .post_json(
                "/v1/islands/example/play",
                &json!({ "save": save, "command": command }),
            )
            .await
            .json()
            .await
            .unwrap();
        let reply = local.handle(command);
        assert_eq!(answer["text"], reply.text, "after {command}");
        assert_eq!(answer["save"], local.game().save(), "after {command}");
        assert_eq!(
            answer["status"],
            serde_json::to_value(local.status()).unwrap(),
            "after {command}"
        );
        save = answer["save"].as_str().unwrap().to_owned();
        clocks.push(answer["status"]["clock_minutes"].as_u64().unwrap());
    }
    assert!(
        clocks.windows(2).all(|w| w[0] <= w[1]),
        "the clock never runs back: {clocks:?}"
    );
    assert!(clocks.last() > clocks.first(), "time passed: {clocks:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_plays_are_refused_with_the_field() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let first: Value = server
        .post_json("/v1/islands/example/play", &json!({}))
        .await
        .json()
        .await
        .unwrap();
    let save = first["save"].as_str().unwrap();
    let cases = [
        (json!({ "save": "{\"version\": 2" }), 422, "save"),
        (json!({ "save": "{}" }), 422, "save"),
        (json!({ "save": save, "seed": "8" }), 400, "seed"),
        (json!({ "save": save, "scope": "island" }), 400, "scope"),
        (json!({ "lang": "xx" }), 400, "lang"),
        (json!({ "scope": "nowhere" }), 400, "scope"),
        (json!({ "command": "x".repeat(201) }), 400, "command"),
    ];
    for (body, status, field) in cases {
        let r = server.post_json("/v1/islands/example/play", &body).await;
        assert_eq!(r.status(), status, "{body}");
        let err: Value = r.json().await.unwrap();
        assert_eq!(err["error"]["parameter"], field, "{body}: {err}");
    }
    let unknown = server
        .post_json("/v1/islands/example/play", &json!({ "cmd": "explore" }))
        .await;
    assert_eq!(unknown.status(), 400, "unknown fields are refused");
    server.stop().await;
}
