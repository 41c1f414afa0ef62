//! Who may write: tokens and scopes, the safe default off loopback, writes
//! from other web origins, owners, quotas, read-only replicas and private
//! servers — against the real server on SQLite.

mod common;

use common::{TestServer, small_params, small_params_v2};
use mangekyo_server::access::{Scope, Tokens, token_line};
use mangekyo_server::{AccessOptions, Config};
use mangekyo_store::Backend;
use mangekyo_store::testing::TestDb;
use reqwest::Method;
use serde_json::{Value, json};

const ALICE: &str = "mgk_alice_secret";
const BOB: &str = "mgk_bob_secret";
const ROOT: &str = "mgk_root_secret";
const READER: &str = "mgk_reader_secret";

fn tokens(extra: &str) -> Tokens {
    let lines = [
        token_line("alice", Scope::Create, ALICE).unwrap() + extra,
        token_line("bob", Scope::Create, BOB).unwrap(),
        token_line("root", Scope::Admin, ROOT).unwrap(),
        token_line("reader", Scope::Read, READER).unwrap(),
    ];
    Tokens::parse(&lines.join("\n"), "test").unwrap()
}

async fn start(db: &TestDb, addr: &str, access: AccessOptions) -> TestServer {
    let config = Config {
        addr: addr.parse().unwrap(),
        access,
        ..Config::default()
    };
    TestServer::start_config(db, config).await
}

/// Sends `method path` with an optional token, origin and JSON body.
async fn send(
    server: &TestServer,
    method: Method,
    path: &str,
    token: Option<&str>,
    origin: Option<&str>,
    body: Option<Value>,
) -> (u16, reqwest::header::HeaderMap, Value) {
    let mut request = server.client.request(method, server.url(path));
    if let Some(t) = token {
        request = request.bearer_auth(t);
    }
    if let Some(o) = origin {
        request = request.header("origin", o);
    }
    if let Some(b) = body {
        request = request.json(&b);
    }
    let r = request.send().await.unwrap();
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let bytes = r.bytes().await.unwrap();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, headers, json)
}

async fn create(server: &TestServer, name: &str, token: Option<&str>) -> (u16, Value) {
    let body = json!({"name": name, "params": small_params(1)});
    let (status, _, json) =
        send(server, Method::POST, "/v1/planets", token, None, Some(body)).await;
    (status, json)
}

/// Creates a planet from `body` with `token`.
async fn post(
    server: &TestServer,
    token: &str,
    body: Value,
) -> (u16, reqwest::header::HeaderMap, Value) {
    send(
        server,
        Method::POST,
        "/v1/planets",
        Some(token),
        None,
        Some(body),
    )
    .await
}

fn code(json: &Value) -> &str {
    json["error"]["code"].as_str().unwrap_or("(no error code)")
}

#[tokio::test]
async fn anonymous_writes_are_refused_off_loopback() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = start(&db, "0.0.0.0:0", AccessOptions::default()).await;
    let (status, json) = create(&server, "Terra", None).await;
    assert_eq!((status, code(&json)), (401, "unauthorized"), "{json}");
    // Reading stays open.
    assert_eq!(server.get("/v1/planets").await.status(), 200);
    assert_eq!(server.get("/v1/dungeon/rooms/1").await.status(), 200);

    // A planet stored before (by an operator) cannot be deleted anonymously.
    let store = mangekyo_store::Store::open(db.url()).await.unwrap();
    let planet = store
        .create(&mangekyo_store::NewPlanet {
            name: "Kept".into(),
            params: small_params(2),
            generator_version: 1,
            owner: None,
        })
        .await
        .unwrap();
    let path = format!("/v1/planets/{}", planet.id);
    let (status, headers, json) = send(&server, Method::DELETE, &path, None, None, None).await;
    assert_eq!((status, code(&json)), (401, "unauthorized"), "{json}");
    assert!(
        headers["www-authenticate"]
            .to_str()
            .unwrap()
            .starts_with("Bearer"),
        "{headers:?}"
    );
    assert_eq!(server.get(&path).await.status(), 200, "still there");

    // The operator opts out by name.
    let open = start(
        &db,
        "0.0.0.0:0",
        AccessOptions {
            allow_anonymous_writes: true,
            ..AccessOptions::default()
        },
    )
    .await;
    let (status, _, _) = send(&open, Method::DELETE, &path, None, None, None).await;
    assert_eq!(status, 204);
}

#[tokio::test]
async fn writes_from_other_web_origins_are_refused_everywhere() {
    let db = TestDb::new(Backend::Sqlite).await;
    // Open loopback server: the local viewer may do anything.
    let server = start(&db, "127.0.0.1:0", AccessOptions::default()).await;
    let (status, planet) = create(&server, "Terra", None).await;
    assert_eq!(status, 201, "{planet}");
    let path = format!("/v1/planets/{}", planet["id"]);
    let evil = Some("https://evil.example");
    let (status, _, json) = send(&server, Method::DELETE, &path, None, evil, None).await;
    assert_eq!((status, code(&json)), (403, "cross_origin"), "{json}");
    let (status, _, json) = send(&server, Method::DELETE, &path, Some(ROOT), evil, None).await;
    assert_eq!(
        status, 403,
        "a token does not make a foreign page's write ours: {json}"
    );
    let body = json!({"name": "Evil", "params": small_params(3)});
    let (status, _, _) = send(&server, Method::POST, "/v1/planets", None, evil, Some(body)).await;
    assert_eq!(status, 403);
    assert_eq!(server.get(&path).await.status(), 200, "still there");

    // The preflight lets any origin read, no origin write.
    let preflight = |method: &'static str| {
        server
            .client
            .request(Method::OPTIONS, server.url(&path))
            .header("origin", "https://evil.example")
            .header("access-control-request-method", method)
            .send()
    };
    let get = preflight("GET").await.unwrap();
    assert_eq!(get.headers()["access-control-allow-origin"], "*");
    let delete = preflight("DELETE").await.unwrap();
    let methods = delete
        .headers()
        .get("access-control-allow-methods")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    assert!(!methods.contains("DELETE"), "{methods}");

    // The server's own pages (the viewer) write.
    let own = server.base.clone();
    let (status, _, _) = send(&server, Method::DELETE, &path, None, Some(&own), None).await;
    assert_eq!(status, 204);

    // An origin the operator lists may write, and its preflight says so.
    let listed = start(
        &db,
        "127.0.0.1:0",
        AccessOptions {
            write_origins: vec!["https://tools.example".into()],
            ..AccessOptions::default()
        },
    )
    .await;
    let (_, planet) = create(&listed, "Listed", None).await;
    let path = format!("/v1/planets/{}", planet["id"]);
    let tools = Some("https://tools.example");
    let (status, _, json) = send(&listed, Method::DELETE, &path, None, evil, None).await;
    assert_eq!(status, 403, "{json}");
    let (status, _, _) = send(&listed, Method::DELETE, &path, None, tools, None).await;
    assert_eq!(status, 204);
}

#[tokio::test]
async fn tokens_scope_and_own_what_they_create() {
    let db = TestDb::new(Backend::Sqlite).await;
    let access = AccessOptions {
        tokens: tokens(""),
        ..AccessOptions::default()
    };
    // On loopback too: with tokens configured, writes need one.
    let server = start(&db, "127.0.0.1:0", access).await;
    let (status, json) = create(&server, "Anon", None).await;
    assert_eq!((status, code(&json)), (401, "unauthorized"), "{json}");
    let (status, json) = create(&server, "Unknown", Some("mgk_not_a_token")).await;
    assert_eq!((status, code(&json)), (401, "unauthorized"), "{json}");
    let (status, json) = create(&server, "Reader", Some(READER)).await;
    assert_eq!((status, code(&json)), (403, "insufficient_scope"), "{json}");
    assert!(
        json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("scope create")
    );

    let (status, planet) = create(&server, "Alice's", Some(ALICE)).await;
    assert_eq!(status, 201, "{planet}");
    let path = format!("/v1/planets/{}", planet["id"]);
    let store = mangekyo_store::Store::open(db.url()).await.unwrap();
    let stored = store
        .get(planet["id"].as_i64().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.owner.as_deref(), Some("alice"));

    let (status, _, json) = send(&server, Method::DELETE, &path, Some(BOB), None, None).await;
    assert_eq!((status, code(&json)), (403, "not_owner"), "{json}");
    let (status, _, json) = send(&server, Method::DELETE, &path, Some(READER), None, None).await;
    assert_eq!((status, code(&json)), (403, "insufficient_scope"), "{json}");
    let (status, _, _) = send(&server, Method::DELETE, &path, Some(ALICE), None, None).await;
    assert_eq!(status, 204, "the owner deletes");

    let (_, planet) = create(&server, "Bob's", Some(BOB)).await;
    let path = format!("/v1/planets/{}", planet["id"]);
    let (status, _, _) = send(&server, Method::DELETE, &path, Some(ROOT), None, None).await;
    assert_eq!(status, 204, "an admin deletes any planet");

    // Malformed credentials are named.
    let r = server
        .client
        .get(server.url("/v1/planets"))
        .header("authorization", "Basic YWxpY2U6eA==")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
    let json: Value = r.json().await.unwrap();
    assert!(
        json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Bearer"),
        "{json}"
    );
}

#[tokio::test]
async fn quotas_refuse_with_429() {
    let db = TestDb::new(Backend::Sqlite).await;
    let access = AccessOptions {
        tokens: tokens(" planets=2 tiers_per_hour=1"),
        ..AccessOptions::default()
    };
    let server = start(&db, "127.0.0.1:0", access).await;
    let (status, _) = create(&server, "One", Some(ALICE)).await;
    assert_eq!(status, 201);
    // A version-2 planet starts a tier computation: one an hour.
    let body = |name: &str| json!({"name": name, "params": small_params_v2(5)});
    let (status, _, json) = post(&server, ALICE, body("Two")).await;
    assert!([201, 202].contains(&status), "{json}");
    let (status, _, json) = post(&server, ALICE, body("Three")).await;
    assert_eq!((status, code(&json)), (429, "quota_exceeded"), "{json}");
    assert!(
        json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("2 planets of 2"),
        "{json}"
    );
    // Another token has its own quotas.
    let (status, _) = create(&server, "Bob's", Some(BOB)).await;
    assert_eq!(status, 201);

    let per_hour = start(
        &db,
        "127.0.0.1:0",
        AccessOptions {
            tokens: tokens(" tiers_per_hour=1"),
            ..AccessOptions::default()
        },
    )
    .await;
    let (status, _, json) = post(&per_hour, ALICE, body("Four")).await;
    assert!([201, 202].contains(&status), "{json}");
    let (status, headers, json) = post(&per_hour, ALICE, body("Five")).await;
    assert_eq!((status, code(&json)), (429, "quota_exceeded"), "{json}");
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((3000..=3600).contains(&retry), "{retry}");
    // A planet without a tier is not a tier computation.
    let (status, _) = create(&per_hour, "Six", Some(ALICE)).await;
    assert_eq!(status, 201);

    let no_storage = start(
        &db,
        "127.0.0.1:0",
        AccessOptions {
            tokens: tokens(" storage_mib=0"),
            ..AccessOptions::default()
        },
    )
    .await;
    let (status, json) = create(&no_storage, "Seven", Some(ALICE)).await;
    assert_eq!((status, code(&json)), (429, "quota_exceeded"), "{json}");
    assert!(
        json["error"]["message"].as_str().unwrap().contains("MiB"),
        "{json}"
    );
}

#[tokio::test]
async fn read_only_replicas_and_private_servers() {
    let db = TestDb::new(Backend::Sqlite).await;
    let replica = start(
        &db,
        "127.0.0.1:0",
        AccessOptions {
            read_only: true,
            ..AccessOptions::default()
        },
    )
    .await;
    let (status, json) = create(&replica, "Terra", None).await;
    assert_eq!((status, code(&json)), (403, "read_only"), "{json}");
    assert_eq!(replica.get("/v1/planets").await.status(), 200);

    let private = start(
        &db,
        "0.0.0.0:0",
        AccessOptions {
            tokens: tokens(""),
            private: true,
            ..AccessOptions::default()
        },
    )
    .await;
    assert_eq!(
        private.get("/healthz").await.status(),
        200,
        "probes need no token"
    );
    let (status, _, json) = send(&private, Method::GET, "/v1/planets", None, None, None).await;
    assert_eq!((status, code(&json)), (401, "unauthorized"), "{json}");
    let (status, _, json) = send(&private, Method::GET, "/", None, None, None).await;
    assert_eq!(status, 401, "the viewer too: {json}");
    let (status, headers, _) = send(
        &private,
        Method::GET,
        "/v1/planets",
        Some(READER),
        None,
        None,
    )
    .await;
    assert_eq!(status, 200);
    let cache = headers["cache-control"].to_str().unwrap();
    assert!(
        cache.contains("private") && !cache.contains("public"),
        "a shared cache must not serve it to others: {cache}"
    );
}

#[tokio::test]
async fn the_openapi_document_declares_the_bearer_scheme() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = start(&db, "127.0.0.1:0", AccessOptions::default()).await;
    let doc = server.get_json("/openapi.json", 200).await;
    let scheme = &doc["components"]["securitySchemes"]["bearer"];
    assert_eq!(
        (scheme["type"].as_str(), scheme["scheme"].as_str()),
        (Some("http"), Some("bearer"))
    );
    let create = &doc["paths"]["/v1/planets"]["post"];
    assert_eq!(create["security"], json!([{"bearer": ["create"]}]));
    assert!(create["responses"]["401"].is_object() && create["responses"]["429"].is_object());
    let delete = &doc["paths"]["/v1/planets/{id}"]["delete"];
    assert_eq!(delete["security"], json!([{"bearer": ["create"]}]));
    let list = &doc["paths"]["/v1/planets"]["get"];
    assert_eq!(list["security"], json!([{}, {"bearer": ["read"]}]));
    assert_eq!(doc["paths"]["/healthz"]["get"]["security"], json!([{}]));
}

#[tokio::test]
async fn any_authorization_header_is_a_4xx_never_a_5xx() {
    let db = TestDb::new(Backend::Sqlite).await;
    let access = AccessOptions {
        tokens: tokens(""),
        ..AccessOptions::default()
    };
    let server = start(&db, "127.0.0.1:0", access).await;
    let long = format!("Bearer {}", "x".repeat(8000));
    let values: Vec<reqwest::header::HeaderValue> = [
        "Bearer",
        "Bearer ",
        "bearer mgk_alice_secret ",
        "Bearer  mgk_nope",
        "Token mgk_alice_secret",
        "Bearer \u{0}",
        long.as_str(),
    ]
    .iter()
    .filter_map(|v| reqwest::header::HeaderValue::from_str(v).ok())
    .chain([reqwest::header::HeaderValue::from_bytes(b"Bearer \xff\xfe").unwrap()])
    .collect();
    for value in values {
        for (method, path) in [
            (Method::GET, "/v1/planets"),
            (Method::POST, "/v1/planets"),
            (Method::DELETE, "/v1/planets/1"),
        ] {
            let r = server
                .client
                .request(method.clone(), server.url(path))
                .header("authorization", value.clone())
                .json(&json!({"name": "X", "params": small_params(1)}))
                .send()
                .await
                .unwrap();
            let status = r.status().as_u16();
            // A lowercase scheme and outer spaces are still the token.
            let lenient = value
                .to_str()
                .is_ok_and(|v| v.trim_end() == "bearer mgk_alice_secret");
            assert!(
                (400..500).contains(&status) || (lenient && status < 300),
                "{method} {path} with {value:?}: {status}"
            );
        }
    }
}
