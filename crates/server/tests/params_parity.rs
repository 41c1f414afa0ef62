//! One parameter object is one planet on every surface: the service reads
//! the shared table (`crates/planet/tests/params_json_cases.txt`) as the
//! WebAssembly `Planet` does (`crates/wasm/src/api.rs`, same table), and
//! `POST /v1/planets` refuses what the table refuses.

mod common;

use common::TestServer;
use mangekyo_planet::Version;
use mangekyo_store::testing::TestDb;
use serde_json::{Value, json};

fn cases() -> Vec<(&'static str, &'static str)> {
    include_str!("../../planet/tests/params_json_cases.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_once('\t').expect("verdict<TAB>json"))
        .collect()
}

#[test]
fn the_service_reads_the_shared_table() {
    let cases = cases();
    assert!(cases.len() >= 20);
    for (verdict, json) in cases {
        let value: Value = serde_json::from_str(json).unwrap();
        let got = mangekyo_server::parse_new_params(value);
        match verdict {
            "refuse" => {
                let e = got.expect_err(json);
                assert_eq!(e.status, 400, "{json}");
                assert!(
                    e.parameter
                        .as_deref()
                        .is_some_and(|p| p.starts_with("params")),
                    "{json}: {e:?}"
                );
            }
            "default" => assert_eq!(
                got.unwrap_or_else(|e| panic!("{json}: {e:?}"))
                    .generator_version,
                Version::DEFAULT,
                "{json}"
            ),
            name => assert_eq!(
                got.unwrap_or_else(|e| panic!("{json}: {e:?}"))
                    .generator_version
                    .name(),
                name,
                "{json}"
            ),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posts_refuse_what_the_table_refuses() {
    let db = TestDb::new(mangekyo_store::Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    for (verdict, text) in cases() {
        if verdict != "refuse" {
            // Accepted rows make planets whose tiers compute for seconds;
            // the reader they share is checked above.
            continue;
        }
        let params: Value = serde_json::from_str(text).unwrap();
        let r = server
            .post_json(
                "/v1/planets",
                &json!({ "name": "Refused", "params": params }),
            )
            .await;
        assert_eq!(r.status(), 400, "{text}");
    }
    let list = server.get_json("/v1/planets", 200).await;
    assert_eq!(list["planets"].as_array().unwrap().len(), 0);
    server.stop().await;
}
