//! The OpenAPI document and the router describe the same routes: every
//! documented operation reaches a handler, and every route is registered
//! through `routes!` (which documents it), never through a bare
//! `.route(…)`.

mod common;

use std::path::Path;

use common::TestServer;
use mangekyo_store::{Backend, testing::TestDb};
use serde_json::Value;

/// The operation keys of an OpenAPI path item.
const HTTP_METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// A value for a path parameter that any handler accepts as well-formed.
fn sample(param: &str) -> &'static str {
    match param {
        "projection" => "cube",
        "seed" => "42",
        _ => "1",
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_documented_operation_reaches_its_handler() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let doc = server.get_json("/openapi.json", 200).await;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() >= 10, "only {} paths documented", paths.len());
    let (mut checked, mut operations) = (0, 0);
    for (template, item) in paths {
        let mut path = template.clone();
        while let Some(start) = path.find('{') {
            let end = path[start..].find('}').unwrap() + start;
            let value = sample(&path[start + 1..end]);
            path.replace_range(start..=end, value);
        }
        let methods: Vec<&String> = item
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| HTTP_METHODS.contains(&k.as_str()))
            .collect();
        assert!(!methods.is_empty(), "{template} documents no operation");
        operations += methods.len();
        for method in methods {
            let m = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let mut request = server.client.request(m, server.url(&path));
            if method == "post" {
                request = request
                    .header("content-type", "application/json")
                    .body("{}");
            }
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            let code = body["error"]["code"].as_str().unwrap_or("");
            assert!(
                code != "no_route" && code != "method_not_allowed",
                "{method} {template} ({path}) is documented but not routed: {status} {body}"
            );
            // Well-formed sample parameters and an empty JSON body get an
            // answer or a 4xx naming what is wrong, never a server error.
            assert!(
                status < 500,
                "{method} {template} ({path}) failed: {status} {body}"
            );
            checked += 1;
        }
    }
    // One operation per documented handler in the source (counted there,
    // not from the document): none is missing from /openapi.json.
    let handlers = documented_handlers();
    assert_eq!(
        operations, handlers,
        "/openapi.json has {operations} operations, the source {handlers} documented handlers"
    );
    assert_eq!(checked, operations);
    server.stop().await;
}

/// `#[utoipa::path(` attributes in the server's source: one per handler.
fn documented_handlers() -> usize {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    files
        .iter()
        .map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .matches("#[utoipa::path(")
                .count()
        })
        .sum()
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_route_is_registered_with_its_documentation() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let (mut bare_routes, mut registered, mut documented) = (Vec::new(), 0, 0);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for bare in [".route(", ".route_service(", ".nest(", ".nest_service("] {
                if code.contains(bare) {
                    bare_routes.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
        // `routes!(a, b)` registers the handlers a and b (documented ones:
        // the macro requires their `#[utoipa::path]`).
        for (start, _) in text.match_indices("routes!(") {
            let args = &text[start + "routes!(".len()..];
            let args = &args[..args.find(')').unwrap()];
            registered += args.split(',').filter(|a| !a.trim().is_empty()).count();
        }
        documented += text.matches("#[utoipa::path(").count();
    }
    assert!(
        bare_routes.is_empty(),
        "routes registered without OpenAPI:\n{}",
        bare_routes.join("\n")
    );
    assert_eq!(
        documented, registered,
        "every documented handler is routed and every routed handler documented"
    );
}

/// The parameter `name` of the operation at `path`.
fn parameter<'a>(doc: &'a Value, path: &str, name: &str) -> &'a Value {
    doc["paths"][path]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{path} documents no {name}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn documented_ranges_and_names_are_the_libraries() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let doc = server.get_json("/openapi.json", 200).await;
    // Chunk formats: the pattern admits exactly the formats crate's names
    // and aliases (the attribute is text, so this test ties it to them).
    let format = &parameter(
        &doc,
        "/v1/planets/{id}/chunks/{projection}/{lod}/{cx}/{cy}",
        "format",
    )["schema"]["pattern"];
    let mut names: Vec<&str> = mangekyo_formats::ChunkFormat::ALL
        .iter()
        .map(|f| f.name())
        .chain(
            mangekyo_formats::ChunkFormat::ALIASES
                .iter()
                .map(|(a, _)| *a),
        )
        .collect();
    names.sort_unstable();
    let pattern = format.as_str().unwrap();
    let mut documented: Vec<&str> = pattern
        .trim_start_matches("^(")
        .trim_end_matches(")$")
        .split('|')
        .collect();
    documented.sort_unstable();
    assert_eq!(documented, names, "{pattern}");
    // Cave chunk coordinates: the caves crate's bound.
    let max = mangekyo_caves::MAX_CHUNK_COORD;
    for axis in ["cx", "cy", "cz"] {
        let schema = &parameter(&doc, "/v1/caves/{seed}/chunks/{cx}/{cy}/{cz}", axis)["schema"];
        assert_eq!(
            (schema["minimum"].as_i64(), schema["maximum"].as_i64()),
            (Some(-i64::from(max)), Some(i64::from(max))),
            "{axis}: {schema}"
        );
    }
}
