//! Limits over the real server: a full generation queue answers 503 with
//! Retry-After (and the server recovers), the request timeout answers a
//! JSON 503, compression and CORS headers are there.

mod common;

use std::time::Duration;

use common::TestServer;
use mangekyo_server::Limits;
use mangekyo_store::{Backend, testing::TestDb};
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_refuses_then_recovers() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start_with(
        &db,
        Limits {
            workers: 1,
            queue: 1,
            ..Limits::default()
        },
    )
    .await;
    // Sixteen different large levels at once: one runs, one waits, the
    // rest are refused at once.
    let requests = (0..16).map(|i| {
        let url = server.url(&format!(
            "/v1/dungeon/levels/busy{i}?width=512&height=512&rooms=32"
        ));
        let client = server.client.clone();
        tokio::spawn(async move { client.get(url).send().await.unwrap() })
    });
    let mut statuses = Vec::new();
    for r in futures_join(requests.collect()).await {
        let status = r.status().as_u16();
        if status == 503 {
            assert_eq!(r.headers()["retry-after"], "1");
            let body: Value = r.json().await.unwrap();
            assert_eq!(body["error"]["code"], "busy");
        }
        statuses.push(status);
    }
    let ok = statuses.iter().filter(|&&s| s == 200).count();
    let busy = statuses.iter().filter(|&&s| s == 503).count();
    assert!(ok >= 2 && busy >= 1 && ok + busy == 16, "{statuses:?}");
    assert_eq!(
        server
            .get("/v1/dungeon/levels/after?width=64&height=64")
            .await
            .status(),
        200
    );
    let metrics = server.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains("mangekyo_generation_rejected_total"),
        "{metrics}"
    );
    server.stop().await;
}

async fn futures_join(
    handles: Vec<tokio::task::JoinHandle<reqwest::Response>>,
) -> Vec<reqwest::Response> {
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_requests_time_out_as_json() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start_with(
        &db,
        Limits {
            timeout: Duration::from_millis(20),
            ..Limits::default()
        },
    )
    .await;
    let r = server
        .get("/v1/dungeon/levels/slow?width=1024&height=1024&rooms=64&format=png")
        .await;
    assert_eq!(r.status(), 503);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "timeout");
    assert_eq!(server.get_json("/healthz", 200).await["status"], "ok");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn responses_are_compressed_and_cross_origin() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let url = server.url("/v1/dungeon/caverns/7?v=1");
    for coding in ["gzip", "br"] {
        let r = server
            .client
            .get(&url)
            .header("accept-encoding", coding)
            .header("origin", "https://example.org")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-encoding"], coding);
        assert_eq!(r.headers()["access-control-allow-origin"], "*");
        assert!(
            r.headers()["access-control-expose-headers"]
                .to_str()
                .unwrap()
                .contains("etag")
        );
        let etag = r.headers()["etag"].to_str().unwrap().to_owned();
        assert!(
            etag.ends_with(&format!("-{coding}\"")),
            "a compressed body has its own ETag: {etag}"
        );
        let again = server
            .client
            .get(&url)
            .header("accept-encoding", coding)
            .header("if-none-match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), 304);
        assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
    }
    let identity = server.client.get(&url).send().await.unwrap();
    assert!(identity.headers().get("content-encoding").is_none());
    let preflight = server
        .client
        .request(reqwest::Method::OPTIONS, server.url("/v1/planets"))
        .header("origin", "https://example.org")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    assert!(
        preflight.headers()["access-control-allow-methods"]
            .to_str()
            .unwrap()
            .contains("POST")
    );
    server.stop().await;
}
