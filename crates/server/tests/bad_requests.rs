//! A table of bad requests, each answered with the right status, code and
//! parameter, and the server healthy and serving after all of them.

mod common;

use common::{TestServer, small_params};
use mangekyo_store::{Backend, testing::TestDb};
use serde_json::Value;

/// One bad request and the answer it must get.
struct Case {
    what: &'static str,
    method: &'static str,
    path: String,
    body: Option<(&'static str, Vec<u8>)>,
    status: u16,
    code: &'static str,
    parameter: Option<&'static str>,
}

fn get(
    what: &'static str,
    path: String,
    status: u16,
    code: &'static str,
    parameter: Option<&'static str>,
) -> Case {
    Case {
        what,
        method: "GET",
        path,
        body: None,
        status,
        code,
        parameter,
    }
}

fn post(
    what: &'static str,
    body: &[u8],
    status: u16,
    code: &'static str,
    parameter: Option<&'static str>,
) -> Case {
    let body = Some(("application/json", body.to_vec()));
    Case {
        what,
        method: "POST",
        path: "/v1/planets".into(),
        body,
        status,
        code,
        parameter,
    }
}

fn cases(id: i64, pin: &str) -> Vec<Case> {
    let chunk = |rest: &str| format!("/v1/planets/{id}/chunks/{rest}");
    let big_name = format!(r#"{{"name": "{}"}}"#, "x".repeat(101));
    let oversized = format!(
        r#"{{"name": "big", "params": {{"pad": "{}"}}}}"#,
        "x".repeat(2 * 1024 * 1024)
    );
    vec![
        get(
            "unknown planet",
            "/v1/planets/999999".into(),
            404,
            "not_found",
            None,
        ),
        get(
            "planet id not a number",
            "/v1/planets/abc".into(),
            400,
            "invalid_parameter",
            Some("id"),
        ),
        get(
            "planet id zero",
            "/v1/planets/0".into(),
            400,
            "invalid_parameter",
            Some("id"),
        ),
        get(
            "chunks of an unknown planet",
            "/v1/planets/999999/chunks/cube/0/0/0".into(),
            404,
            "not_found",
            None,
        ),
        get(
            "wrong projection",
            chunk("mercator/0/0/0"),
            400,
            "invalid_parameter",
            Some("projection"),
        ),
        get(
            "huge chunk column",
            chunk("cube/0/99999999/0"),
            400,
            "invalid_parameter",
            Some("cx"),
        ),
        get(
            "chunk column past u32",
            chunk("cube/0/99999999999/0"),
            400,
            "invalid_parameter",
            Some("cx"),
        ),
        get(
            "negative chunk row",
            chunk("cube/0/0/-1"),
            400,
            "invalid_parameter",
            Some("cy"),
        ),
        get(
            "lod out of range",
            chunk("cube/99/0/0"),
            400,
            "invalid_parameter",
            Some("lod"),
        ),
        get(
            "huge edge",
            chunk("cube/0/0/0?edge=100000"),
            400,
            "invalid_parameter",
            Some("edge"),
        ),
        get(
            "unknown layer",
            chunk("cube/0/0/0?layers=height,gold"),
            400,
            "invalid_parameter",
            Some("layers"),
        ),
        get(
            "png with other layers",
            chunk("cube/0/0/0?format=png&layers=biome"),
            400,
            "invalid_parameter",
            Some("layers"),
        ),
        get(
            "unknown format",
            chunk("cube/0/0/0?format=gif"),
            400,
            "invalid_parameter",
            Some("format"),
        ),
        get(
            "misspelt query parameter",
            chunk("cube/0/0/0?lyers=height"),
            400,
            "invalid_parameter",
            Some("lyers"),
        ),
        get(
            "parameter given twice",
            chunk("cube/0/0/0?format=bin&format=json"),
            400,
            "invalid_parameter",
            Some("format"),
        ),
        get(
            "future generator version",
            chunk("cube/0/0/0?v=999&p=0"),
            404,
            "version_unavailable",
            Some("v"),
        ),
        get(
            "stale parameter hash",
            chunk(&format!("cube/0/0/0?{}", pin.replace("p=", "p=0"))),
            404,
            "version_unavailable",
            Some("p"),
        ),
        get(
            "NaN preview width",
            format!("/v1/planets/{id}/preview?width=NaN"),
            400,
            "invalid_parameter",
            Some("width"),
        ),
        get(
            "huge preview",
            format!("/v1/planets/{id}/preview?width=100000"),
            400,
            "invalid_parameter",
            Some("width"),
        ),
        get(
            "tile zoom too deep",
            format!("/v1/planets/{id}/tiles/31/0/0"),
            400,
            "invalid_parameter",
            Some("z"),
        ),
        get(
            "tile column off the map",
            format!("/v1/planets/{id}/tiles/2/4/0"),
            400,
            "invalid_parameter",
            Some("x"),
        ),
        get(
            "tile size",
            format!("/v1/planets/{id}/tiles/0/0/0?size=4096"),
            400,
            "invalid_parameter",
            Some("size"),
        ),
        get(
            "pyramid face",
            format!("/v1/planets/{id}/pyramid/6/0/0/0"),
            400,
            "invalid_parameter",
            Some("face"),
        ),
        get(
            "pyramid level past the planet's finest",
            format!("/v1/planets/{id}/pyramid/0/6/0/0"),
            400,
            "invalid_parameter",
            Some("level"),
        ),
        get(
            "pyramid column",
            format!("/v1/planets/{id}/pyramid/0/2/4/0"),
            400,
            "invalid_parameter",
            Some("x"),
        ),
        get(
            "pyramid row",
            format!("/v1/planets/{id}/pyramid/0/2/0/4"),
            400,
            "invalid_parameter",
            Some("y"),
        ),
        get(
            "pyramid row not a number",
            format!("/v1/planets/{id}/pyramid/0/2/0/-1"),
            400,
            "invalid_parameter",
            Some("y"),
        ),
        get(
            "pyramid layer it cannot carry",
            format!("/v1/planets/{id}/pyramid/0/0/0/0?layers=height,temperature"),
            400,
            "invalid_parameter",
            Some("layers"),
        ),
        get(
            "terrain level past the planet's finest",
            format!("/v1/planets/{id}/terrain/9/0/0.terrain"),
            400,
            "invalid_parameter",
            Some("z"),
        ),
        get(
            "terrain column",
            format!("/v1/planets/{id}/terrain/1/4/0.terrain"),
            400,
            "invalid_parameter",
            Some("x"),
        ),
        get(
            "terrain row",
            format!("/v1/planets/{id}/terrain/1/0/2.terrain"),
            400,
            "invalid_parameter",
            Some("y"),
        ),
        get(
            "terrain file without its extension",
            format!("/v1/planets/{id}/terrain/1/0/0.png"),
            400,
            "invalid_parameter",
            Some("y"),
        ),
        get(
            "listing limit",
            "/v1/planets?limit=0".into(),
            400,
            "invalid_parameter",
            Some("limit"),
        ),
        get(
            "dungeon NaN width",
            "/v1/dungeon/caverns/1?width=NaN".into(),
            400,
            "invalid_parameter",
            Some("width"),
        ),
        get(
            "dungeon width out of range",
            "/v1/dungeon/caverns/1?width=100000".into(),
            400,
            "invalid_parameter",
            Some("width"),
        ),
        get(
            "dungeon seed too long",
            format!("/v1/dungeon/rooms/{}", "s".repeat(300)),
            400,
            "invalid_parameter",
            Some("seed"),
        ),
        get(
            "dungeon scale",
            "/v1/dungeon/rooms/1?format=png&scale=99".into(),
            400,
            "invalid_parameter",
            Some("scale"),
        ),
        get(
            "no such route",
            "/v1/nothing/here".into(),
            404,
            "no_route",
            None,
        ),
        Case {
            what: "wrong method",
            method: "PUT",
            path: "/v1/planets".into(),
            body: None,
            status: 405,
            code: "method_not_allowed",
            parameter: None,
        },
        post(
            "malformed JSON",
            br#"{"name": "#,
            400,
            "malformed_body",
            Some("name"),
        ),
        post("not an object", b"[1, 2, 3]", 400, "malformed_body", None),
        post(
            "NaN literal",
            br#"{"name": "n", "params": {"radius": NaN}}"#,
            400,
            "malformed_body",
            Some("params.radius"),
        ),
        post(
            "NaN as text",
            br#"{"name": "n", "params": {"radius": "NaN"}}"#,
            400,
            "invalid_parameter",
            Some("params.radius"),
        ),
        post(
            "infinite radius",
            br#"{"name": "n", "params": {"radius": 1e999}}"#,
            400,
            "malformed_body",
            Some("params.radius"),
        ),
        post(
            "radius out of range",
            br#"{"name": "n", "params": {"radius": -1}}"#,
            400,
            "invalid_parameter",
            Some("params.radius"),
        ),
        post(
            "tilt out of range",
            br#"{"name": "n", "params": {"axial_tilt": 91}}"#,
            400,
            "invalid_parameter",
            Some("params.axial_tilt"),
        ),
        post(
            "unknown parameter",
            br#"{"name": "n", "params": {"radus": 5}}"#,
            400,
            "invalid_parameter",
            Some("params.radus"),
        ),
        post(
            "unknown top-level field",
            br#"{"name": "n", "colour": "red"}"#,
            400,
            "malformed_body",
            Some("colour"),
        ),
        post(
            "missing name",
            br#"{"params": {}}"#,
            400,
            "malformed_body",
            None,
        ),
        post(
            "empty name",
            br#"{"name": ""}"#,
            400,
            "invalid_parameter",
            Some("name"),
        ),
        post(
            "name too long",
            big_name.as_bytes(),
            400,
            "invalid_parameter",
            Some("name"),
        ),
        post(
            "name with a control character",
            b"{\"name\": \"a\\u0007b\"}",
            400,
            "invalid_parameter",
            Some("name"),
        ),
        post(
            "name taken",
            br#"{"name": "Taken"}"#,
            409,
            "conflict",
            Some("name"),
        ),
        post(
            "oversized body",
            oversized.as_bytes(),
            413,
            "body_too_large",
            None,
        ),
        Case {
            what: "not JSON",
            method: "POST",
            path: "/v1/planets".into(),
            body: Some(("text/plain", b"name=x".to_vec())),
            status: 415,
            code: "unsupported_media_type",
            parameter: None,
        },
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_request_is_named_and_the_server_keeps_serving() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("Taken", small_params(1)).await;
    let id = planet["id"].as_i64().unwrap();
    let pin = planet["links"]["chunk"]
        .as_str()
        .unwrap()
        .split_once('?')
        .unwrap()
        .1
        .to_owned();
    let mut failures = Vec::new();
    for case in cases(id, &pin) {
        let method = reqwest::Method::from_bytes(case.method.as_bytes()).unwrap();
        let mut request = server.client.request(method, server.url(&case.path));
        if let Some((content_type, body)) = &case.body {
            request = request
                .header("content-type", *content_type)
                .body(body.clone());
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let no_store = response
            .headers()
            .get("cache-control")
            .is_some_and(|v| v == "no-store");
        let body: Value = response.json().await.unwrap_or(Value::Null);
        let error = &body["error"];
        let parameter = error["parameter"].as_str();
        let ok = status == case.status
            && error["code"] == case.code
            && parameter == case.parameter
            && no_store;
        if !ok || error["message"].as_str().is_none_or(str::is_empty) {
            failures.push(format!("{}: got {status} {body}", case.what));
        }
    }
    assert!(
        failures.is_empty(),
        "{} wrong answers:\n{}",
        failures.len(),
        failures.join("\n")
    );

    // SQL-looking names are just names: stored verbatim, the table intact.
    let name = "Robert'); DROP TABLE planets;--";
    let created = server.create_planet(name, small_params(2)).await;
    assert_eq!(created["name"], name);
    let listed = server.get_json("/v1/planets", 200).await;
    assert_eq!(listed["planets"].as_array().unwrap().len(), 2);

    // Still healthy, still generating.
    assert_eq!(server.get_json("/healthz", 200).await["status"], "ok");
    let chunk = server
        .get(&format!(
            "/v1/planets/{id}/chunks/cube/0/0/0?format=bin&{pin}"
        ))
        .await;
    assert_eq!(chunk.status(), 200);
    server.stop().await;
}
