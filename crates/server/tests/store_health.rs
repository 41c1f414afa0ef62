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
