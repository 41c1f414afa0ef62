//! Answers a CDN may keep: nothing a client controls (`Host`,
//! `X-Forwarded-Proto`) reaches an answer cached as shared or immutable,
//! `--public-url` decides absolute URLs when set, and every parameter has
//! one spelling, so one answer has one URL.

mod common;

use common::{TestServer, chunk_url, small_params};
use mangekyo_server::Config;
use mangekyo_store::testing::TestDb;
use reqwest::header;
use serde_json::Value;

/// GET `url` with a `Host` and an `X-Forwarded-Proto` of the caller's.
async fn get_as(
    server: &TestServer,
    url: &str,
    host: &str,
    proto: Option<&str>,
) -> (u16, header::HeaderMap, String) {
    let mut request = server
        .client
        .get(server.url(url))
        .header(header::HOST, host);
    if let Some(proto) = proto {
        request = request.header("x-forwarded-proto", proto);
    }
    let r = request.send().await.unwrap();
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    (status, headers, r.text().await.unwrap())
}

fn cache_control(headers: &header::HeaderMap) -> &str {
    headers
        .get(header::CACHE_CONTROL)
        .map_or("", |v| v.to_str().unwrap())
}

fn vary(headers: &header::HeaderMap) -> String {
    headers
        .get_all(header::VARY)
        .iter()
        .map(|v| v.to_str().unwrap().to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Hosts and protocols a client may send, and a marker of each in answers.
const POISONED: [(&str, Option<&str>, &str); 6] = [
    ("evil.example", Some("javascript"), "javascript"),
    (
        "evil.example",
        Some("https://evil.example/x"),
        "evil.example",
    ),
    ("a\"b<script>", None, "<script>"),
    ("evil.example/x", None, "evil.example"),
    ("user@evil.example", None, "evil.example"),
    ("evil.example:8080", Some("https"), "evil.example"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_poisoned_host_never_reaches_a_shared_or_immutable_answer() {
    let db = TestDb::new(mangekyo_store::Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("Shared", small_params(5)).await;
    let mut urls: Vec<String> = planet["links"]
        .as_object()
        .unwrap()
        .values()
        .filter_map(Value::as_str)
        .filter(|u| !u.contains('{'))
        .map(str::to_owned)
        .collect();
    urls.push(format!(
        "{}&lat=10&lon=20",
        planet["links"]["locate"].as_str().unwrap()
    ));
    urls.push(chunk_url(&planet, "cube", 0, 0, 0, "format=json"));
    let tilejson = planet["links"]["tilejson"].as_str().unwrap();
    assert!(urls.iter().any(|u| u == tilejson));
    for url in &urls {
        for (host, proto, marker) in POISONED {
            let (status, headers, body) = get_as(&server, url, host, proto).await;
            let cc = cache_control(&headers);
            if body.contains(marker) {
                assert!(
                    !cc.contains("immutable") && !cc.contains("public"),
                    "GET {url} as {host} / {proto:?}: {status} {cc}: {body}"
                );
            }
        }
    }
    // Refused outright where the header is no host or no http(s).
    for (host, proto, _) in &POISONED[..5] {
        let (status, headers, body) = get_as(&server, tilejson, host, *proto).await;
        assert_eq!(status, 400, "{host} / {proto:?}: {body}");
        let e: Value = serde_json::from_str(&body).unwrap();
        let named = e["error"]["parameter"].as_str().unwrap();
        assert!(["Host", "X-Forwarded-Proto"].contains(&named), "{e}");
        assert!(!cache_control(&headers).contains("public"));
    }
    // A well-formed Host is used, but only for this client: private, and
    // the shared caches that keep private answers at all key on it.
    let (status, headers, body) =
        get_as(&server, tilejson, "Maps.example:8080", Some("https")).await;
    assert_eq!(status, 200, "{body}");
    let doc: Value = serde_json::from_str(&body).unwrap();
    let template = doc["tiles"][0].as_str().unwrap();
    assert!(
        template.starts_with("https://maps.example:8080/v1/planets/"),
        "{template}"
    );
    assert_eq!(cache_control(&headers), "private, max-age=300");
    let vary = vary(&headers);
    assert!(
        vary.contains("host") && vary.contains("x-forwarded-proto"),
        "{vary}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_public_url_absolute_urls_use_it_and_stay_immutable() {
    let db = TestDb::new(mangekyo_store::Backend::Sqlite).await;
    let config = Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        public_url: Some("https://tiles.example/terrain/".parse().unwrap()),
        ..Config::default()
    };
    let server = TestServer::start_config(&db, config).await;
    let planet = server.create_planet("Public", small_params(6)).await;
    let tilejson = planet["links"]["tilejson"].as_str().unwrap();
    let mut bodies = Vec::new();
    for (host, proto, marker) in POISONED {
        let (status, headers, body) = get_as(&server, tilejson, host, proto).await;
        assert_eq!(status, 200, "{host}: {body}");
        assert!(!body.contains(marker), "{host}: {body}");
        assert_eq!(
            cache_control(&headers),
            "public, max-age=31536000, immutable"
        );
        assert!(!vary(&headers).contains("host"), "{}", vary(&headers));
        bodies.push(body);
    }
    assert!(
        bodies.windows(2).all(|w| w[0] == w[1]),
        "one answer for all"
    );
    let doc: Value = serde_json::from_str(&bodies[0]).unwrap();
    let template = doc["tiles"][0].as_str().unwrap();
    let id = planet["id"].as_i64().unwrap();
    let prefix = format!("https://tiles.example/terrain/v1/planets/{id}/tiles/");
    assert!(template.starts_with(&prefix), "{template}");
    // Behind the proxy that strips /terrain, the URL is this server's tile.
    let tile = template
        .replace("https://tiles.example/terrain", "")
        .replace("{z}", "0")
        .replace("{x}", "0")
        .replace("{y}", "0");
    assert_eq!(server.get(&tile).await.status(), 200, "{tile}");
    server.stop().await;
}

/// GETs `url` and asserts a 400 naming `parameter` with `expected`.
async fn refused(server: &TestServer, url: &str, parameter: &str, expected: &str) {
    let r = server.get(url).await;
    assert_eq!(r.status(), 400, "GET {url}");
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["error"]["parameter"], parameter, "GET {url}: {e}");
    assert_eq!(e["error"]["expected"], expected, "GET {url}: {e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_parameter_has_one_spelling() {
    let db = TestDb::new(mangekyo_store::Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("Spelled", small_params(7)).await;
    let chunk = |extra: &str| chunk_url(&planet, "cube", 0, 0, 0, extra);
    for (layers, canonical) in [
        (",,,height,,", "height"),
        (",height", "height"),
        ("height,", "height"),
        ("height,height", "height"),
        ("biome,height", "height,biome"),
        ("height,all", "all"),
    ] {
        refused(
            &server,
            &chunk(&format!("format=bin&layers={layers}")),
            "layers",
            canonical,
        )
        .await;
    }
    assert_eq!(
        server
            .get(&chunk("format=bin&layers=height,biome"))
            .await
            .status(),
        200
    );
    let id = planet["id"].as_i64().unwrap();
    let pin = format!("v=1&p={}", planet["params_hash"].as_str().unwrap());
    refused(
        &server,
        &format!("/v1/planets/{id}/pyramid/0/0/0/0?{pin}&layers=biome,height"),
        "layers",
        "height,biome",
    )
    .await;
    // Integers: no sign, no leading zero, no fraction.
    let chunk_at = |lod: &str| format!("/v1/planets/{id}/chunks/cube/{lod}/0/0?{pin}");
    refused(&server, &chunk_at("01"), "lod", "1").await;
    refused(&server, &chunk_at("+1"), "lod", "1").await;
    refused(
        &server,
        &format!(
            "/v1/planets/{id}/tiles/0/0/0?v=01&p={}",
            planet["params_hash"].as_str().unwrap()
        ),
        "v",
        "1",
    )
    .await;
    refused(
        &server,
        &format!("/v1/planets/{id}/tiles/0/0/0?{pin}&size=0256"),
        "size",
        "256",
    )
    .await;
    refused(
        &server,
        &format!("/v1/planets/0{id}"),
        "id",
        &id.to_string(),
    )
    .await;
    // Numbers with a fraction: as a browser writes them.
    let locate = planet["links"]["locate"].as_str().unwrap();
    refused(&server, &format!("{locate}&lat=45.0&lon=20"), "lat", "45").await;
    // (`+` in a query is a space; %2B is the sign.)
    refused(&server, &format!("{locate}&lat=45&lon=%2B20"), "lon", "20").await;
    refused(&server, &format!("{locate}&lat=0.50&lon=20"), "lat", "0.5").await;
    assert_eq!(
        server
            .get(&format!("{locate}&lat=45.5&lon=-20"))
            .await
            .status(),
        200
    );
    // Generator parameters from the query, and seeds in paths.
    refused(&server, "/v1/dungeon/rooms/7?width=%2B40", "width", "40").await;
    refused(&server, "/v1/dungeon/rooms/7?width=040", "width", "40").await;
    refused(&server, "/v1/dungeon/rooms/007", "seed", "7").await;
    refused(&server, "/v1/caves/007", "seed", "7").await;
    server.stop().await;
}
