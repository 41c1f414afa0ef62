//! Hostile clients and broken surroundings (issue 22): connections that
//! never finish their headers, posted work of unbounded cost, a SQLite file
//! deleted under the server, and HTTP details (406, 412, strict JSON,
//! the statuses in the OpenAPI document).

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use mangekyo_server::Limits;
use mangekyo_store::{Backend, testing::TestDb};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn example_sources() -> Vec<Value> {
    mangekyo_island::example::sources()
        .iter()
        .map(|(name, text)| json!({ "name": name, "text": text }))
        .collect()
}

/// The example world with its island scope resized to `sites` sites (see
/// `example::resized_island`), as request sources.
fn resized_sources(sites: u32, guarantees: &[String]) -> Vec<Value> {
    mangekyo_island::example::resized_island(sites, guarantees, "harbor, beach")
        .into_iter()
        .map(|(name, text)| json!({ "name": name, "text": text }))
        .collect()
}

fn addr(server: &TestServer) -> String {
    server.base.trim_start_matches("http://").to_owned()
}

/// Sends `request` on a fresh connection and reads until the server closes.
async fn raw(addr: &str, request: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).await.unwrap();
    String::from_utf8_lossy(&reply).into_owned()
}

/// Whether the server has closed `stream` (EOF or reset) before `deadline`.
async fn closed_by(stream: &mut TcpStream, deadline: Instant) -> bool {
    let mut buf = [0u8; 512];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            // A 408 or similar before the close is fine.
            Ok(Ok(_)) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_connections_are_closed_by_the_header_timeout_and_healthz_answers() {
    const HALF_OPEN: usize = 300;
    let db = TestDb::new(Backend::Sqlite).await;
    let limits = Limits {
        header_timeout: Duration::from_secs(1),
        max_connections: 64,
        ..Limits::default()
    };
    let server = TestServer::start_with(&db, limits).await;
    let addr = addr(&server);
    let opened = Instant::now();
    let mut flood = Vec::with_capacity(HALF_OPEN);
    for _ in 0..HALF_OPEN {
        let mut s = TcpStream::connect(&addr).await.unwrap();
        // Headers that never end.
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            .await
            .unwrap();
        flood.push(s);
    }
    let asked = Instant::now();
    let health = tokio::time::timeout(
        Duration::from_secs(1),
        raw(
            &addr,
            "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        ),
    )
    .await
    .expect("/healthz answers within 1 s during the flood");
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    eprintln!(
        "healthz during {HALF_OPEN} half-open connections: {:?}",
        asked.elapsed()
    );
    // Every half-open connection is closed within the header timeout (plus
    // slack for a loaded machine), counted from when it was opened.
    let deadline = opened + Duration::from_secs(1) + Duration::from_secs(3);
    for (i, s) in flood.iter_mut().enumerate() {
        assert!(
            closed_by(s, deadline).await,
            "half-open connection {i} still open {:?} after the flood began",
            opened.elapsed()
        );
    }
    eprintln!("all {HALF_OPEN} closed after {:?}", opened.elapsed());
    // And the server still serves.
    let health = raw(
        &addr,
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_alive_connections_serve_a_bounded_number_of_requests() {
    let db = TestDb::new(Backend::Sqlite).await;
    let limits = Limits {
        requests_per_connection: 2,
        ..Limits::default()
    };
    let server = TestServer::start_with(&db, limits).await;
    let one = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    // Three pipelined requests: two answers, then the server closes.
    let reply = tokio::time::timeout(Duration::from_secs(10), raw(&addr(&server), &one.repeat(3)))
        .await
        .expect("the server closes the connection after two requests");
    assert_eq!(reply.matches("HTTP/1.1 200").count(), 2, "{reply}");
    assert!(reply.to_ascii_lowercase().contains("connection: close"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_million_sites_are_refused_before_any_generation() {
    let db = TestDb::new(Backend::Sqlite).await;
    // A short timeout so the old behaviour (generating) fails quickly.
    let limits = Limits {
        timeout: Duration::from_secs(5),
        ..Limits::default()
    };
    let server = TestServer::start_with(&db, limits).await;
    let sources = resized_sources(1_000_000, &["{ type: harbor, count: 1 }".to_owned()]);
    let body = json!({ "sources": sources, "seed": "1" });
    let started = Instant::now();
    let r = server.post_json("/v1/islands", &body).await;
    let took = started.elapsed();
    assert_eq!(r.status(), 422);
    let err: Value = r.json().await.unwrap();
    assert_eq!(err["error"]["code"], "over_budget", "{err}");
    assert_eq!(
        err["error"]["parameter"], "generation_scopes.island.site_count.max",
        "{err}"
    );
    let message = err["error"]["message"].as_str().unwrap();
    assert!(message.contains("island_sites limit of 10000"), "{message}");
    eprintln!("a million sites refused in {took:?}");
    // Generous: a loaded CI machine in a debug build; the release server
    // answers in well under 100 ms (see the closing note of issue 22).
    assert!(took < Duration::from_secs(2), "took {took:?}");
    server.stop().await;
}

/// 9,990 guarantees over ten thousand sites (issue 38): within
/// `island_sites`, but each guarantee sorts every site and keeps two lists
/// of them (762 MiB in all), so the guarantees' memory budget refuses it
/// by naming them, before any generation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_guarantees_are_refused_by_the_cost_budget() {
    let db = TestDb::new(Backend::Sqlite).await;
    let limits = Limits {
        timeout: Duration::from_secs(20),
        ..Limits::default()
    };
    let server = TestServer::start_with(&db, limits).await;
    // A start type guaranteed, then 9,989 more.
    let mut many = vec!["{ type: harbor, count: 1 }".to_owned()];
    many.extend(vec!["{ type: scrub, count: 1 }".to_owned(); 9_989]);
    let sources = resized_sources(10_000, &many);
    let body = json!({ "sources": sources, "seed": "1" });
    let started = Instant::now();
    let r = server.post_json("/v1/islands", &body).await;
    let took = started.elapsed();
    assert_eq!(r.status(), 422);
    let err: Value = r.json().await.unwrap();
    assert_eq!(err["error"]["code"], "over_budget", "{err}");
    assert_eq!(
        err["error"]["parameter"], "generation_scopes.island.guarantees",
        "{err}"
    );
    let message = err["error"]["message"].as_str().unwrap();
    assert!(message.contains("MiB of site lists"), "{message}");
    let expected = err["error"]["expected"].as_str().unwrap();
    assert!(expected.contains("guarantees at 10000 sites"), "{expected}");
    eprintln!("9,990 guarantees refused in {took:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_yaml_syntax_error_is_reported_first() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    // In name order, as `mangekyo island` reads a directory: a broken
    // file's follow-on errors then land in files listed before it.
    let mut in_name_order = example_sources();
    in_name_order.sort_by_key(|s| s["name"].as_str().unwrap().to_owned());
    for broken in 0..in_name_order.len() {
        let mut sources = in_name_order.clone();
        let name = sources[broken]["name"].as_str().unwrap().to_owned();
        sources[broken]["text"] = json!("object_defs: [unclosed\n");
        let r = server
            .post_json("/v1/islands", &json!({ "sources": sources }))
            .await;
        assert_eq!(r.status(), 422);
        let err: Value = r.json().await.unwrap();
        let message = err["error"]["message"].as_str().unwrap();
        let first = message.split_once(": ").unwrap().1;
        assert!(
            first.starts_with(&name) && first.contains("invalid YAML"),
            "broken {name}: the first diagnostic is not its syntax error: {message}"
        );
        assert_eq!(err["error"]["parameter"], name.as_str(), "{err}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_sqlite_file_fails_health_and_refuses_writes() {
    let db = TestDb::new(Backend::Sqlite).await;
    let url = db.url().as_str().to_owned();
    let path = url
        .strip_prefix("sqlite://")
        .and_then(|p| p.split('?').next())
        .unwrap()
        .to_owned();
    let server = TestServer::start(&db).await;
    server
        .create_planet("before", common::small_params(1))
        .await;
    server.get_json("/healthz", 200).await;
    std::fs::remove_file(&path).unwrap();
    let health = server.get_json("/healthz", 503).await;
    assert_eq!(health["error"]["code"], "store_unavailable", "{health}");
    for attempt in 0..4 {
        let r = server
            .post_json(
                "/v1/planets",
                &json!({ "name": format!("after-{attempt}"), "params": common::small_params(2) }),
            )
            .await;
        assert_eq!(
            r.status(),
            503,
            "a write into a deleted file must not be acknowledged (attempt {attempt})"
        );
        let r = server.get("/v1/planets").await;
        assert_eq!(
            r.status(),
            503,
            "reads are refused alike (attempt {attempt})"
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_406_is_a_json_error_never_immutable() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let v = mangekyo_island::GENERATOR_VERSION;
    let pinned = format!("/v1/islands/example/7?v={v}");

    // 406 is an error, never immutable content.
    let r = server
        .client
        .get(server.url(&pinned))
        .header("accept-encoding", "identity;q=0")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 406);
    let cache = r.headers()["cache-control"].to_str().unwrap().to_owned();
    assert!(!cache.contains("immutable"), "{cache}");
    assert!(r.headers().get("etag").is_none());
    let err: Value = r.json().await.unwrap();
    assert_eq!(err["error"]["code"], "not_acceptable");

    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_matching_if_none_match_on_post_is_412() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let v = mangekyo_island::GENERATOR_VERSION;
    let pinned = format!("/v1/islands/example/7?v={v}");
    // If-None-Match on a POST that matches: 412, not 304.
    let body = json!({ "sources": example_sources(), "seed": "7" });
    let first = server.post_json("/v1/islands", &body).await;
    assert_eq!(first.status(), 200);
    let etag = first.headers()["etag"].clone();
    let again = server
        .client
        .post(server.url("/v1/islands"))
        .header("if-none-match", etag)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 412);
    // GET keeps its 304.
    let got = server.get(&pinned).await;
    let etag = got.headers()["etag"].clone();
    let again = server
        .client
        .get(server.url(&pinned))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);

    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn planet_bodies_are_one_json_object_with_object_params() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    for (body, says) in [
        (r#"{"name": "a"} trailing"#, "trailing characters"),
        (r#"{"name": "a"}{"name": "b"}"#, "trailing characters"),
        (r#"{"name": "a", "params": [7]}"#, "got an array"),
        (r#"{"name": "a", "params": null}"#, "got null"),
    ] {
        let r = server
            .client
            .post(server.url("/v1/planets"))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 400, "{body}");
        let err: Value = r.json().await.unwrap();
        let message = err["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{body}: {message}");
    }
    let list = server.get_json("/v1/planets", 200).await;
    assert_eq!(list["planets"].as_array().map(Vec::len), Some(0), "{list}");

    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openapi_document_lists_the_statuses_shared_code_answers() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let doc = server.get_json("/openapi.json", 200).await;
    let responses = |path: &str, method: &str| -> Vec<String> {
        doc["paths"][path][method]["responses"]
            .as_object()
            .unwrap_or_else(|| panic!("{method} {path} is documented"))
            .keys()
            .cloned()
            .collect()
    };
    let example = responses("/v1/islands/example/{seed}", "get");
    for status in ["400", "404", "503"] {
        assert!(example.iter().any(|s| s == status), "{status}: {example:?}");
    }
    let create = responses("/v1/planets", "post");
    for status in ["400", "412", "413", "415", "503"] {
        assert!(create.iter().any(|s| s == status), "{status}: {create:?}");
    }
    let v404 = &doc["paths"]["/v1/islands/example/{seed}"]["get"]["responses"]["404"];
    assert!(
        v404["description"]
            .as_str()
            .unwrap()
            .contains("version_unavailable"),
        "{v404}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_trickled_a_byte_at_a_time_are_cut_after_the_grace() {
    const SLOW: usize = 40;
    let db = TestDb::new(Backend::Sqlite).await;
    let limits = Limits {
        body_grace: Duration::from_millis(500),
        body_min_rate: 1000,
        max_connections: 64,
        ..Limits::default()
    };
    let server = TestServer::start_with(&db, limits).await;
    let addr = addr(&server);
    let opened = Instant::now();
    let mut slow = Vec::with_capacity(SLOW);
    for _ in 0..SLOW {
        let mut s = TcpStream::connect(&addr).await.unwrap();
        // A planet POST announcing 600 bytes and sending one.
        s.write_all(
            b"POST /v1/planets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 600\r\n\r\n{",
        )
        .await
        .unwrap();
        slow.push(s);
    }
    // Each is answered 408 and closed soon after the grace, not at the
    // request timeout (30 s).
    let deadline = opened + Duration::from_millis(500) + Duration::from_secs(4);
    for (i, s) in slow.iter_mut().enumerate() {
        let mut reply = Vec::new();
        let left = deadline.saturating_duration_since(Instant::now());
        let read = tokio::time::timeout(left, s.read_to_end(&mut reply)).await;
        let text = String::from_utf8_lossy(&reply);
        assert!(
            read.is_ok() && text.starts_with("HTTP/1.1 408"),
            "slow body {i} after {:?}: {text}",
            opened.elapsed()
        );
        assert!(text.contains("body_too_slow"), "{text}");
    }
    eprintln!("{SLOW} slow bodies cut after {:?}", opened.elapsed());
    let health = raw(
        &addr,
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    server.stop().await;
}
