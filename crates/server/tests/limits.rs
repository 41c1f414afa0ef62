//! Limits over the real server: a full generation queue answers 503 with
//! Retry-After (and the server recovers), the request timeout answers a
//! JSON 503, compression (with `Vary: accept-encoding`) and CORS headers
//! are there. Generation is held by a job on the compute gate, so no test
//! depends on how fast this machine generates.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use mangekyo_server::{ApiError, AppState, Estimate, Limits};
use mangekyo_store::{Backend, testing::TestDb};
use serde_json::Value;

/// Takes the gate's only worker with a job that waits until the returned
/// sender is used (or dropped): generation is held by an event, not by a
/// request slow enough on this machine.
async fn hold_the_worker(
    state: &AppState,
) -> (
    std::sync::mpsc::Sender<()>,
    tokio::task::JoinHandle<Result<(), ApiError>>,
) {
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (started, running) = tokio::sync::oneshot::channel::<()>();
    let gate = state.clone();
    let job = tokio::spawn(async move {
        gate.gate
            .run("test", Estimate::NONE, move |_| {
                let _ = started.send(());
                let _ = held.recv();
                Ok(())
            })
            .await
    });
    running.await.expect("the holding job got the worker");
    (release, job)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_refuses_then_recovers() {
    let db = TestDb::new(Backend::Sqlite).await;
    let limits = Limits {
        workers: 1,
        queue: 1,
        ..Limits::default()
    };
    let (server, state) = TestServer::start_in_process(&db, limits).await;
    let (release, holder) = hold_the_worker(&state).await;
    // Sixteen different levels while the worker is held: exactly one
    // fits the queue, the other fifteen are refused at once.
    let requests: Vec<_> = (0..16)
        .map(|i| {
            let url = server.url(&format!("/v1/dungeon/levels/busy{i}?width=64&height=64"));
            let client = server.client.clone();
            tokio::spawn(async move { client.get(url).send().await.unwrap() })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    while requests.iter().filter(|r| r.is_finished()).count() < 15 {
        assert!(
            Instant::now() < deadline,
            "only {} of 16 requests answered while the worker was held",
            requests.iter().filter(|r| r.is_finished()).count()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (done, queued): (Vec<_>, Vec<_>) = requests.into_iter().partition(|r| r.is_finished());
    assert_eq!(queued.len(), 1, "one request waits in the queue");
    for r in done {
        let r = r.await.unwrap();
        assert_eq!(r.status().as_u16(), 503);
        assert_eq!(r.headers()["retry-after"], "1");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"]["code"], "busy");
    }
    release.send(()).unwrap();
    holder.await.unwrap().unwrap();
    let waited = queued.into_iter().next().unwrap().await.unwrap();
    assert_eq!(
        waited.status().as_u16(),
        200,
        "the queued request is served"
    );
    assert_eq!(
        server
            .get("/v1/dungeon/levels/after?width=64&height=64")
            .await
            .status(),
        200
    );
    let metrics = server.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics
            .lines()
            .any(|l| l.starts_with("mangekyo_generation_rejected_total") && l.ends_with(" 15")),
        "{metrics}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_requests_time_out_as_json() {
    let db = TestDb::new(Backend::Sqlite).await;
    let limits = Limits {
        workers: 1,
        timeout: Duration::from_millis(20),
        ..Limits::default()
    };
    let (server, state) = TestServer::start_in_process(&db, limits).await;
    // The request cannot finish while the worker is held: it times out
    // whatever the machine's speed.
    let (release, holder) = hold_the_worker(&state).await;
    let r = tokio::time::timeout(
        Duration::from_secs(30),
        server.get("/v1/dungeon/levels/slow?width=64&height=64"),
    )
    .await
    .expect("the timeout answered while generation was held");
    assert_eq!(r.status(), 503);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "timeout");
    release.send(()).unwrap();
    holder.await.unwrap().unwrap();
    assert_eq!(server.get_json("/healthz", 200).await["status"], "ok");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn responses_are_compressed_and_cross_origin() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let url = server.url("/v1/dungeon/caverns/7?v=1");
    for coding in ["zstd", "gzip"] {
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
        // Caches must key on the encoding, or a gzip body reaches a client
        // that asked for none.
        assert!(
            r.headers().get_all("vary").iter().any(|v| v
                .to_str()
                .unwrap()
                .to_ascii_lowercase()
                .contains("accept-encoding")),
            "{coding}: Vary names accept-encoding: {:?}",
            r.headers()
        );
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
    // Any origin may read (a GET with `If-None-Match` is preflighted);
    // writing takes an origin the operator listed (tests/access.rs).
    let preflight = |method: &'static str, headers: &'static str| {
        server
            .client
            .request(reqwest::Method::OPTIONS, server.url("/v1/planets"))
            .header("origin", "https://example.org")
            .header("access-control-request-method", method)
            .header("access-control-request-headers", headers)
            .send()
    };
    let read = preflight("GET", "if-none-match").await.unwrap();
    assert!(read.status().is_success(), "{}", read.status());
    assert_eq!(read.headers()["access-control-allow-origin"], "*");
    let allowed = read.headers()["access-control-allow-methods"]
        .to_str()
        .unwrap();
    assert!(
        allowed.contains("GET") && !allowed.contains("POST"),
        "{allowed}"
    );
    server.stop().await;
}

/// Tiers heavier than the tier cap allows (issue 38): creating a planet
/// whose tier, or its computation's working memory, would not fit is
/// refused by name; one created elsewhere (a replica with a larger cap) is
/// still computed, alone, and kept alone, so its status stays `ready` and
/// its chunks answer 200 every time instead of reloading the tier.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tiers_larger_than_the_cache_are_refused_or_kept_alone() {
    use mangekyo_planet::tier::CoarseTier;
    use mangekyo_planet::{PlanetParams, Version};
    let db = TestDb::new(Backend::Sqlite).await;
    // The computation of small_params_v4's tier (graph_n 32, ~170 KiB)
    // holds about 2 MiB: more than the 768 KiB working share of this cap.
    let cap = 1 << 20;
    let limits = Limits {
        tier_cache_bytes: cap,
        ..Limits::default()
    };
    let (server, state) = TestServer::start_in_process(&db, limits).await;
    let r = server
        .post_json(
            "/v1/planets",
            &serde_json::json!({ "name": "big", "params": common::small_params_v4(1) }),
        )
        .await;
    assert_eq!(r.status(), 400);
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["error"]["parameter"], "params.graph_n", "{e}");
    let message = e["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("graph_n 32") && message.contains("MiB"),
        "{message}"
    );
    // The largest graph_n it names does fit, and the next one does not.
    let expected = e["error"]["expected"].as_str().unwrap();
    let fits: u32 = expected
        .split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{expected}"));
    let fit = |n| {
        CoarseTier::estimated_heap_bytes(Version::DEFAULT, n) + 64 <= cap * 97 / 100
            && CoarseTier::estimated_work_bytes(Version::DEFAULT, n) <= cap / 4 * 3
    };
    assert!(fit(fits) && !fit(fits + 1), "{fits}");
    let small =
        serde_json::json!({ "seed": 1, "radius": 400_000.0, "pixel_size": 50.0, "graph_n": fits });
    server.create_planet("small", small).await;

    // Stored by a replica with a larger cache: a tier heavier than this
    // whole cache (~1.8 MiB).
    let mut big = common::small_params_v4(2);
    big["graph_n"] = serde_json::json!(96);
    let params = PlanetParams::from_new_json(big).unwrap();
    assert!(CoarseTier::estimated_heap_bytes(params.generator_version, 96) > cap);
    assert!(params.generator_version.has_plates());
    let record = state
        .store
        .create(&mangekyo_store::NewPlanet {
            name: "elsewhere".into(),
            params: serde_json::to_value(params).unwrap(),
            generator_version: params.generator_version.code(),
            owner: None,
        })
        .await
        .unwrap();
    let planet = server
        .get_json(&format!("/v1/planets/{}", record.id), 200)
        .await;
    server.until_ready(&planet).await;
    let status = planet["links"]["status"].as_str().unwrap();
    for i in 0..20 {
        let s = server.get_json(status, 200).await;
        assert_eq!(s["state"], "ready", "poll {i}: {s}");
        let url = common::chunk_url(&planet, "cube", 0, 0, 0, "format=bin");
        let (code, _, _) = server.bytes(&url).await;
        assert_eq!(code, 200, "chunk {i}");
    }
    server.stop().await;
}

/// Posted island definitions are parsed on a generation worker (issue
/// 38): with the only worker held and room for one job in the queue, of
/// three posts of definitions that do not even load, one waits and two
/// are refused at once; parsed outside the gate, all three would have
/// answered 422 while the worker was busy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posted_definitions_are_parsed_under_the_worker_limit() {
    let db = TestDb::new(Backend::Sqlite).await;
    let limits = Limits {
        workers: 1,
        queue: 1,
        ..Limits::default()
    };
    let (server, state) = TestServer::start_in_process(&db, limits).await;
    let (release, holder) = hold_the_worker(&state).await;
    let posts: Vec<_> = (0..3)
        .map(|i| {
            let body = serde_json::json!({
                "sources": [{ "name": "types.yaml", "text": format!("object_types: [unclosed {i}") }],
                "seed": i.to_string(),
            });
            let (client, url) = (server.client.clone(), server.url("/v1/islands"));
            tokio::spawn(async move { client.post(url).json(&body).send().await.unwrap() })
        })
        .collect();
    // The refusals come while the worker is still held.
    let mut refused = 0;
    let deadline = Instant::now() + Duration::from_secs(60);
    while refused < 2 {
        assert!(
            Instant::now() < deadline,
            "no refusals while the worker is held"
        );
        refused = posts.iter().filter(|p| p.is_finished()).count();
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    release.send(()).unwrap();
    holder.await.unwrap().unwrap();
    let mut codes = Vec::new();
    for p in posts {
        codes.push(p.await.unwrap().status().as_u16());
    }
    codes.sort_unstable();
    assert_eq!(codes, [422, 503, 503]);
    server.stop().await;
}

/// The count of `mangekyo_generation_cancelled_total` lines for `kind`
/// (any reason) in the server's metrics.
async fn cancelled(server: &TestServer, kind: &str) -> u64 {
    let text = server.get("/metrics").await.text().await.unwrap();
    let prefix = format!("mangekyo_generation_cancelled_total{{kind=\"{kind}\"");
    text.lines()
        .filter(|l| l.starts_with(&prefix))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
        .sum()
}

/// Work whose client went away stops (issue 38): a client asks for the
/// largest preview (seconds of work in a test build) and gives up after
/// a moment; the one worker comes back long before the preview could have
/// finished, the cancellation is counted, and nothing was cached (the
/// same URL asked again is a miss that generates).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_leaves_frees_its_worker() {
    let db = TestDb::new(Backend::Sqlite).await;
    let limits = Limits {
        workers: 1,
        ..Limits::default()
    };
    // The real accept loop (`conn.rs`), which must drop the request's
    // future when its connection closes.
    let server = TestServer::start_with(&db, limits).await;
    let planet = server.create_planet("big", common::small_params(5)).await;
    let id = planet["id"].as_i64().unwrap();
    let preview = format!("/v1/planets/{id}/preview?width=4096");
    let impatient = reqwest::Client::builder()
        .timeout(Duration::from_millis(400))
        .build()
        .unwrap();
    let started = Instant::now();
    let gone = impatient.get(server.url(&preview)).send().await;
    assert!(gone.is_err(), "the preview answered within 400 ms");
    // Another request needs the only worker: it gets it once the
    // preview's work has stopped at a checkpoint.
    let next = server
        .get("/v1/dungeon/levels/after-preview?width=64&height=64")
        .await;
    assert_eq!(next.status(), 200);
    let freed = started.elapsed();
    let deadline = Instant::now() + Duration::from_secs(10);
    while cancelled(&server, "planet_preview").await == 0 {
        assert!(
            Instant::now() < deadline,
            "the abandoned preview was never cancelled"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The whole preview, for comparison (and it was not cached: this is
    // a miss that generates).
    let t = Instant::now();
    let (status, _, png) = server.bytes(&preview).await;
    assert_eq!(status, 200);
    assert!(png.starts_with(b"\x89PNG"));
    let full = t.elapsed();
    eprintln!("worker free after {freed:?}; the full preview takes {full:?}");
    assert!(
        freed < full / 2,
        "the worker came back after {freed:?}, the full preview takes {full:?}"
    );
    let text = server.get("/metrics").await.text().await.unwrap();
    assert!(
        text.contains(r#"mangekyo_cache_lookups_total{kind="planet_preview",result="miss"} 2"#),
        "{text}"
    );
    server.stop().await;
}

/// Work past the request timeout stops too: the client waits, gets the
/// 503 `timeout` at the deadline, and the worker is free again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn work_past_the_request_timeout_stops() {
    let db = TestDb::new(Backend::Sqlite).await;
    let limits = Limits {
        workers: 1,
        timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let (server, _state) = TestServer::start_in_process(&db, limits).await;
    let planet = server.create_planet("slow", common::small_params(6)).await;
    let id = planet["id"].as_i64().unwrap();
    let r = server
        .get(&format!("/v1/planets/{id}/preview?width=4096"))
        .await;
    assert_eq!(r.status(), 503);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "timeout", "{body}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while cancelled(&server, "planet_preview").await == 0 {
        assert!(Instant::now() < deadline, "the preview ran on");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.stop().await;
}

/// Work over the cost budget is refused before it starts, naming the
/// parameter and the largest value that fits; what fits is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_over_the_cost_budget_are_refused_by_name() {
    let db = TestDb::new(Backend::Sqlite).await;
    let limits = Limits {
        job_cost: 3_000_000,
        ..Limits::default()
    };
    let server = TestServer::start_with(&db, limits).await;
    let planet = server.create_planet("v2", common::small_params_v2(3)).await;
    let id = planet["id"].as_i64().unwrap();
    // The default preview fits; the largest does not.
    let r = server.get(&format!("/v1/planets/{id}/preview")).await;
    assert_eq!(r.status(), 200);
    let e = server
        .get_json(&format!("/v1/planets/{id}/preview?width=4096"), 422)
        .await;
    assert_eq!(e["error"]["code"], "over_budget", "{e}");
    assert_eq!(e["error"]["parameter"], "width", "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("job_cost of 3000000"),
        "{e}"
    );
    let expected = e["error"]["expected"].as_str().unwrap();
    let widest: u32 = expected
        .split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{expected}"));
    assert!(widest < 4096 && widest.is_multiple_of(2), "{expected}");
    let at = |w: u32| format!("/v1/planets/{id}/preview?width={w}");
    assert_eq!(server.get(&at(widest + 2)).await.status(), 422);
    assert_eq!(server.get(&at(widest)).await.status(), 200);
    // Plates at the default cell fit; the finest does not.
    let plates = format!("/v1/planets/{id}/plates.geojson");
    assert_eq!(server.get(&plates).await.status(), 200);
    let e = server
        .get_json(&format!("{plates}?cell_deg=0.1"), 422)
        .await;
    assert_eq!(e["error"]["parameter"], "cell_deg", "{e}");
    // A malformed cell is still a 400, not an estimate.
    let e = server.get_json(&format!("{plates}?cell_deg=0"), 400).await;
    assert_eq!(e["error"]["parameter"], "cell_deg", "{e}");
    server.stop().await;
}
