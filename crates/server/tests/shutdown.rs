//! Graceful shutdown: a request in flight when the signal comes still gets
//! its answer, new connections are refused afterwards, and the store is
//! closed (the SQLite file can be reopened at once).

mod common;

use std::time::Duration;

use common::TestServer;
use mangekyo_store::{Backend, Store, testing::TestDb};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_flight_requests_finish_then_the_store_closes() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    // A cold, large level takes a noticeable time to build and render.
    let url = server
        .url("/v1/dungeon/levels/shutdown?width=1024&height=1024&rooms=64&format=png&scale=4");
    let client = server.client.clone();
    let in_flight = tokio::spawn(async move { client.get(url).send().await });
    // Stop once the handler has the request (its cache miss is counted),
    // not after a guessed delay a busy machine may outlast.
    let metrics = server.url("/metrics");
    let mut reached = false;
    for _ in 0..400 {
        let text = server.client.get(&metrics).send().await.unwrap();
        let text = text.text().await.unwrap();
        if text
            .lines()
            .any(|l| l.starts_with("mangekyo_cache_lookups_total") && l.contains("result=\"miss\""))
        {
            reached = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(reached, "the level request never reached its handler");
    let base = server.base.clone();
    server.stop().await;
    let response = in_flight
        .await
        .unwrap()
        .expect("the in-flight request was answered");
    assert_eq!(response.status(), 200);
    assert!(!response.bytes().await.unwrap().is_empty());
    assert!(
        reqwest::get(format!("{base}/healthz")).await.is_err(),
        "nothing listens after shutdown"
    );
    let reopened = Store::open(db.url()).await.unwrap();
    reopened.ping().await.unwrap();
    reopened.close().await;
}
