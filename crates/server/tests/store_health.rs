//! The store as seen over HTTP: `/healthz` answers 503 with a JSON error
//! while the store is down, and a planet deleted through one replica stops
//! being served by another that had it cached within [`PLANET_TTL`] (the
//! bound docs/scaling.md promises), while the deleting replica answers 404
//! at once.

mod common;

use std::time::{Duration, Instant};

use common::{TestServer, chunk_url, small_params};
use mangekyo_server::Limits;
use mangekyo_server::PLANET_TTL;
use mangekyo_store::{Backend, testing::TestDb};
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_is_503_while_the_store_is_down() {
    let db = TestDb::new(Backend::Sqlite).await;
    let (server, state) = TestServer::start_in_process(&db, Limits::default()).await;
    assert_eq!(server.get_json("/healthz", 200).await["status"], "ok");
    state.store.close().await;
    let r = server.get("/healthz").await;
    assert_eq!(r.status().as_u16(), 503);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "store_unavailable", "{body}");
    // Generation needs no store: the server still serves it.
    assert_eq!(server.get("/v1/dungeon/caverns/3").await.status(), 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_planet_deleted_on_one_replica_leaves_the_other_within_its_cache_lifetime() {
    let db = TestDb::new(Backend::Sqlite).await;
    let a = TestServer::start(&db).await;
    let b = TestServer::start(&db).await;
    let planet = a.create_planet("Doomed", small_params(5)).await;
    let id = planet["id"].as_i64().unwrap();
    let chunk = chunk_url(&planet, "cube", 0, 1, 1, "format=json&layers=height");
    // B reads the planet: now it holds it in its planet cache.
    assert_eq!(
        b.get_json(&format!("/v1/planets/{id}"), 200).await["id"],
        id
    );
    let r = a
        .client
        .delete(a.url(&format!("/v1/planets/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 204);
    let deleted = Instant::now();
    // The deleting replica forgets it at once.
    assert_eq!(a.get(&format!("/v1/planets/{id}")).await.status(), 404);
    assert_eq!(a.get(&chunk).await.status(), 404);
    // The other stops serving it within the lifetime (polled, not slept).
    let deadline = PLANET_TTL + Duration::from_secs(5);
    loop {
        let status = b.get(&format!("/v1/planets/{id}")).await.status().as_u16();
        if status == 404 {
            break;
        }
        assert_eq!(status, 200, "a cached planet is served as it was");
        assert!(
            deleted.elapsed() < deadline,
            "replica B still serves planet {id} {:?} after its deletion (lifetime {PLANET_TTL:?})",
            deleted.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(b.get(&chunk).await.status(), 404, "nor its chunks");
    a.stop().await;
    b.stop().await;
}

/// The hostile run's full disk: no `201` without a commit, `/healthz`
/// names the failure, and both recover when space comes back, with no
/// restart. (The disk is "full" through SQLite's page limit on every
/// connection: no root, no small filesystem.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_gives_no_201_without_a_commit_and_the_server_recovers() {
    let db = TestDb::new(Backend::Sqlite).await;
    let (server, state) = TestServer::start_in_process(&db, Limits::default()).await;
    let create = |name: String| {
        let server = &server;
        async move {
            let body = serde_json::json!({ "name": name, "params": small_params(1) });
            server
                .post_json("/v1/planets", &body)
                .await
                .status()
                .as_u16()
        }
    };
    assert_eq!(create("before".into()).await, 201);
    state.store.set_sqlite_full(true);
    let mut created = vec!["before".to_owned()];
    let mut refused = 0;
    for i in 0..60 {
        let name = format!("full-{i}-{}", "x".repeat(90));
        match create(name.clone()).await {
            201 => created.push(name),
            503 => refused += 1,
            other => panic!("create while full answered {other}"),
        }
    }
    assert!(refused >= 30, "only {refused} of 60 refused while full");
    let r = server.get("/healthz").await;
    assert_eq!(r.status().as_u16(), 503);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "store_unavailable", "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("full"), "{message}");

    state.store.set_sqlite_full(false);
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.get("/healthz").await.status().as_u16() != 200 {
        assert!(
            Instant::now() < deadline,
            "/healthz still 503 after space came back"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(create("after".into()).await, 201);
    created.push("after".into());
    server.stop().await;

    // Every 201 is in the file after a restart.
    let store = mangekyo_store::Store::open(db.url()).await.unwrap();
    let stored: Vec<String> = store
        .list(0, 1000)
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(stored, created);
    store.close().await;
}
