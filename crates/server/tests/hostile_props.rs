//! Hostile input as property tests (issue 22): planet parameter JSON,
//! request bodies, query strings and Roblox batch bodies never panic the
//! server or draw a 5xx; what is accepted is what the checks allow.
//! Bounded case counts, so the suite runs in CI in seconds.

mod common;

use axum::extract::FromRequestParts;
use common::TestServer;
use mangekyo_server::CreatePlanet;
use mangekyo_server::parse_params;
use mangekyo_server::{QueryParams, parse_json};
use mangekyo_store::{Backend, testing::TestDb};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Numbers at and past every edge a parameter has.
fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e3f64..1e3).prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        prop::sample::select(vec![
            0.0, -0.0, 1e-300, 1e300, 6371000.0, 1e8, 1e9, 2.0, 90.0, 4.0
        ])
        .prop_map(Value::from),
    ]
}

/// Any JSON, with keys that are often the real parameter names.
fn json_value() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        prop::sample::select(vec![
            "seed",
            "radius",
            "pixel_size",
            "sea_level",
            "plate_activity",
            "humidity_global",
            "axial_tilt",
            "solar_intensity",
            "generator_version",
        ])
        .prop_map(str::to_owned),
        "[a-z_]{0,10}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        ".{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map(key.clone(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

#[test]
fn planet_params_are_accepted_only_when_valid_and_round_trip() {
    let cases = std::cell::Cell::new(0u32);
    let accepted = std::cell::Cell::new(0u32);
    runner(1024)
        .run(&json_value(), |value| {
            cases.set(cases.get() + 1);
            if let Ok(params) = parse_params(value) {
                accepted.set(accepted.get() + 1);
                prop_assert!(params.validate().is_ok());
                let again = parse_params(serde_json::to_value(params).unwrap());
                prop_assert!(again.is_ok(), "accepted params re-parse");
                prop_assert_eq!(again.unwrap(), params);
            }
            Ok(())
        })
        .unwrap();
    eprintln!(
        "params JSON: {} values ({} accepted and round-tripped)",
        cases.get(),
        accepted.get()
    );
}

#[test]
fn request_bodies_are_one_object_or_a_named_refusal() {
    let body = (
        json_value(),
        ".{0,6}",
        prop::sample::select(vec!["", " ", "\n", "x", "}", "{}", "[]"]),
    );
    let cases = std::cell::Cell::new(0u32);
    runner(1024)
        .run(&body, |(params, name, tail)| {
            cases.set(cases.get() + 1);
            let doc = json!({ "name": name, "params": params });
            let mut bytes = serde_json::to_vec(&doc).unwrap();
            bytes.extend_from_slice(tail.as_bytes());
            let parsed = parse_json::<CreatePlanet>(&bytes);
            if !tail.trim().is_empty() {
                prop_assert!(parsed.is_err(), "text after the object is refused");
            }
            if let Err(e) = parsed {
                prop_assert_eq!(e.status.as_u16(), 400);
                prop_assert!(!e.message.is_empty());
            }
            Ok(())
        })
        .unwrap();
    eprintln!("request bodies: {} bodies", cases.get());
}

/// Query strings: key=value pairs over real names, with the characters
/// that matter to a parser (escapes, separators, NaN, overflow) mixed in.
fn query() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        prop::sample::select(vec!["lod", "x", "v", "format", "layers"]).prop_map(str::to_owned),
        "[a-z%0-9+]{0,4}",
    ];
    let value = prop_oneof![
        "[-0-9.eE]{0,8}",
        prop::sample::select(vec![
            "NaN",
            "inf",
            "-inf",
            "1e999",
            "20",
            "21",
            "-0",
            "0x10",
            "%00",
            "%zz",
            "%FF",
            "1%2E5",
            "%26lod%3D1",
            "4294967296",
            "",
        ])
        .prop_map(str::to_owned),
        ".{0,4}".prop_map(|s| s.replace(['#', ' '], "")),
    ];
    let sep = prop::sample::select(vec!["&", "&", "&", ";", "&&", "=&"]);
    proptest::collection::vec(
        (
            key,
            prop::sample::select(vec!["=", "=", "", "=="]),
            value,
            sep,
        ),
        0..8,
    )
    .prop_map(|pairs| {
        pairs
            .into_iter()
            .map(|(k, eq, v, sep)| format!("{k}{eq}{v}{sep}"))
            .collect()
    })
}

#[test]
fn query_strings_parse_into_named_values_or_a_named_refusal() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let cases = std::cell::Cell::new(0u32);
    let parsed = std::cell::Cell::new(0u32);
    runner(2048)
        .run(&query(), |q| {
            cases.set(cases.get() + 1);
            let Ok(request) = axum::http::Request::builder()
                .uri(format!("/v1/x?{q}"))
                .body(())
            else {
                return Ok(());
            };
            let (mut parts, ()) = request.into_parts();
            let got = runtime.block_on(QueryParams::from_request_parts(&mut parts, &()));
            match got {
                Ok(QueryParams(params)) => {
                    parsed.set(parsed.get() + 1);
                    if let Ok(Some(lod)) = params.in_range("lod", 0u32..=20) {
                        prop_assert!(lod <= 20);
                    }
                    if let Ok(Some(x)) = params.in_range("x", -1.0f64..=1.0) {
                        prop_assert!((-1.0..=1.0).contains(&x), "{x}");
                    }
                    let _ = params.only(&["lod", "x"]);
                }
                Err(e) => {
                    prop_assert_eq!(e.status.as_u16(), 400);
                    prop_assert!(e.parameter.is_some());
                }
            }
            Ok(())
        })
        .unwrap();
    eprintln!(
        "query strings: {} strings ({} parsed)",
        cases.get(),
        parsed.get()
    );
}

/// A Roblox batch body: mostly the right shape, with values anywhere.
fn roblox_body(planet: i64) -> impl Strategy<Value = Value> {
    let coord = prop_oneof![
        12 => 0i64..4,
        1 => any::<i64>(),
        1 => prop::sample::select(vec![-1i64, 1 << 31, 1 << 32, i64::MIN, i64::MAX]),
    ];
    let chunks = proptest::collection::vec((coord.clone(), coord), 0..4)
        .prop_map(|v| json!(v.into_iter().map(|(a, b)| [a, b]).collect::<Vec<_>>()));
    let word = |words: Vec<&'static str>| {
        prop_oneof![
            12 => prop::sample::select(words).prop_map(|s| json!(s)),
            1 => ".{0,6}".prop_map(|s| json!(s)),
            1 => Just(Value::Null),
            1 => any::<i64>().prop_map(|n| json!(n)),
        ]
    };
    (
        prop_oneof![9 => Just(planet), 1 => any::<i64>()],
        chunks,
        proptest::option::of(proptest::collection::vec(
            word(vec!["height", "material", "biome"]),
            0..4,
        )),
        proptest::option::of(word(vec![
            "tangent_cube",
            "cube",
            "equirectangular",
            "octahedral",
        ])),
        proptest::option::of(prop_oneof![8 => 0i64..3, 1 => any::<i64>()]),
        proptest::option::of(word(vec!["exclusive", "shared"])),
        proptest::option::of(word(vec!["buffer", "array"])),
        proptest::option::weighted(0.05, json_value()),
    )
        .prop_map(
            |(planet, chunks, layers, projection, lod, edge, encoding, extra)| {
                let mut body = json!({ "planet": planet, "chunks": chunks });
                let set = |b: &mut Value, k: &str, v: Option<Value>| {
                    if let Some(v) = v {
                        b[k] = v;
                    }
                };
                set(&mut body, "layers", layers.map(Value::Array));
                set(&mut body, "projection", projection);
                set(&mut body, "lod", lod.map(Value::from));
                set(&mut body, "edge", edge);
                set(&mut body, "encoding", encoding);
                set(&mut body, "zzz", extra);
                body
            },
        )
}

#[test]
fn roblox_bodies_never_draw_a_server_error() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let db = runtime.block_on(TestDb::new(Backend::Sqlite));
    let server = runtime.block_on(TestServer::start(&db));
    let planet = runtime.block_on(server.create_planet("fuzz", common::small_params(3)));
    let id = planet["id"].as_i64().unwrap();
    let cases = std::cell::Cell::new(0u32);
    let ok = std::cell::Cell::new(0u32);
    runner(96)
        .run(&roblox_body(id), |body| {
            cases.set(cases.get() + 1);
            let (status, answer): (u16, Value) = runtime.block_on(async {
                let r = server.post_json("/v1/roblox/chunks", &body).await;
                let status = r.status().as_u16();
                (status, r.json().await.unwrap_or(Value::Null))
            });
            prop_assert!(status < 500, "{body} → {status} {answer}");
            if status == 200 {
                ok.set(ok.get() + 1);
                prop_assert_eq!(
                    answer["chunks"].as_array().map(Vec::len),
                    body["chunks"].as_array().map(Vec::len)
                );
            } else {
                prop_assert!(answer["error"]["code"].is_string(), "{status} {answer}");
            }
            Ok(())
        })
        .unwrap();
    eprintln!(
        "roblox bodies: {} bodies ({} answered 200)",
        cases.get(),
        ok.get()
    );
    runtime.block_on(server.stop());
}
