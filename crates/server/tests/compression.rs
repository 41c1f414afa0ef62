//! Content codings: a chunk asked for in zstd or gzip decodes to the
//! identity bytes, under its own ETag and `Vary: accept-encoding`; each
//! (content, coding) is compressed once, however many ask; q-values are
//! honoured, a request that accepts nothing gets the JSON 406 before any
//! work, small bodies and PNGs stay identity, and the viewer's files are
//! compressed per request.

mod common;

use std::io::Read;

use common::{TestServer, chunk_url, small_params};
use mangekyo_store::testing::TestDb;
use reqwest::header::{self, HeaderMap};
use serde_json::{Value, json};

async fn get_with(server: &TestServer, url: &str, accept: &str) -> (u16, HeaderMap, Vec<u8>) {
    let r = server
        .client
        .get(server.url(url))
        .header(header::ACCEPT_ENCODING, accept)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    (status, headers, r.bytes().await.unwrap().to_vec())
}

fn text<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers.get(name).map_or("", |v| v.to_str().unwrap())
}

fn varies_on_encoding(headers: &HeaderMap) -> bool {
    headers.get_all(header::VARY).iter().any(|v| {
        v.to_str()
            .unwrap()
            .to_ascii_lowercase()
            .contains("accept-encoding")
    })
}

fn decode(coding: &str, body: &[u8]) -> Vec<u8> {
    match coding {
        "zstd" => zstd::decode_all(body).unwrap(),
        "gzip" => {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(body)
                .read_to_end(&mut out)
                .unwrap();
            out
        }
        other => panic!("unexpected coding {other}"),
    }
}

/// How many bodies the server has compressed in `coding`.
async fn compressions(server: &TestServer, coding: &str) -> u64 {
    let metrics = server.get("/metrics").await.text().await.unwrap();
    let prefix = format!("mangekyo_compressions_total{{coding=\"{coding}\"}} ");
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .map_or(0, |n| n.parse().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chunk_is_compressed_once_per_coding_and_decodes_to_its_bytes() {
    let db = TestDb::new(mangekyo_store::Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("Zipped", small_params(3)).await;
    let url = chunk_url(&planet, "cube", 0, 0, 0, "format=json");
    let (status, identity_headers, identity) = server.bytes(&url).await;
    assert_eq!(status, 200);
    assert!(identity.len() > 100_000, "a big body: {}", identity.len());
    assert!(identity_headers.get(header::CONTENT_ENCODING).is_none());
    assert!(varies_on_encoding(&identity_headers));
    let etag = text(&identity_headers, "etag").to_owned();
    let bare = etag.trim_matches('"');

    for coding in ["zstd", "gzip"] {
        let tagged = format!("\"{bare}-{coding}\"");
        let mut first = None;
        for _ in 0..10 {
            let (status, headers, body) = get_with(&server, &url, coding).await;
            assert_eq!(status, 200);
            assert_eq!(text(&headers, "content-encoding"), coding);
            assert_eq!(text(&headers, "etag"), tagged);
            assert!(varies_on_encoding(&headers), "{coding}: {headers:?}");
            assert_eq!(text(&headers, "content-length"), body.len().to_string());
            assert!(body.len() < identity.len() / 2, "{coding}: {}", body.len());
            assert!(
                decode(coding, &body) == identity,
                "{coding} decodes to the identity bytes"
            );
            // The copy is kept: every answer is the same bytes.
            assert_eq!(first.get_or_insert_with(|| body.clone()), &body);
        }
        assert_eq!(
            compressions(&server, coding).await,
            1,
            "{coding}: once for ten requests"
        );

        // Revalidation: the coded ETag gets a 304 that repeats it.
        let again = server
            .client
            .get(server.url(&url))
            .header(header::ACCEPT_ENCODING, coding)
            .header(header::IF_NONE_MATCH, &tagged)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), 304);
        assert_eq!(text(again.headers(), "etag"), tagged);

        // HEAD announces the coded answer's length.
        let head = server
            .client
            .head(server.url(&url))
            .header(header::ACCEPT_ENCODING, coding)
            .send()
            .await
            .unwrap();
        assert_eq!(head.status(), 200);
        assert_eq!(text(head.headers(), "content-encoding"), coding);
        assert_eq!(
            text(head.headers(), "content-length"),
            first.unwrap().len().to_string()
        );
    }
    assert_eq!(
        compressions(&server, "zstd").await,
        1,
        "HEAD reused the copy"
    );

    // Sixteen clients missing together on new content: one compression.
    let other = chunk_url(&planet, "cube", 0, 1, 0, "format=json");
    let tasks: Vec<_> = (0..16)
        .map(|_| {
            let (client, url) = (server.client.clone(), server.url(&other));
            tokio::spawn(async move {
                let r = client
                    .get(url)
                    .header(header::ACCEPT_ENCODING, "gzip")
                    .send()
                    .await
                    .unwrap();
                assert_eq!(r.headers()["content-encoding"], "gzip");
                r.bytes().await.unwrap()
            })
        })
        .collect();
    let mut bodies = Vec::new();
    for t in tasks {
        bodies.push(t.await.unwrap());
    }
    assert!(bodies.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(
        compressions(&server, "gzip").await,
        2,
        "one more for the new chunk"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn q_values_choose_and_nothing_acceptable_is_a_406_before_any_work() {
    let db = TestDb::new(mangekyo_store::Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("Weighed", small_params(4)).await;
    let url = chunk_url(&planet, "cube", 0, 0, 0, "format=json");
    for (accept, expected) in [
        ("gzip, deflate, br, zstd", Some("zstd")),
        ("zstd;q=0.5, gzip", Some("gzip")),
        ("gzip;q=0.5, zstd;q=0.5", Some("zstd")),
        ("gzip;q=0, zstd;q=0", None),
        ("gzip;q=0.5, identity", None),
        ("*", Some("zstd")),
        ("*;q=0.5, zstd;q=0", Some("gzip")),
        ("*;q=0, identity", None),
        // br is no longer offered: identity, acceptable by default.
        ("br", None),
    ] {
        let (status, headers, _) = get_with(&server, &url, accept).await;
        assert_eq!(status, 200, "{accept}");
        assert_eq!(
            headers
                .get(header::CONTENT_ENCODING)
                .map(|v| v.to_str().unwrap()),
            expected,
            "{accept}"
        );
    }

    for accept in [
        "identity;q=0",
        "*;q=0",
        "br, identity;q=0",
        "deflate, *;q=0",
    ] {
        let (status, headers, body) = get_with(&server, &url, accept).await;
        assert_eq!(status, 406, "{accept}");
        assert!(headers.get(header::ETAG).is_none(), "{accept}");
        assert!(!text(&headers, "cache-control").contains("immutable"));
        assert!(varies_on_encoding(&headers));
        let e: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(e["error"]["code"], "not_acceptable");
        assert_eq!(e["error"]["parameter"], "Accept-Encoding");
        assert_eq!(e["error"]["expected"], "one of identity, zstd, gzip");
    }

    // Refused before the handler runs: the planet is not created.
    let refused = server
        .client
        .post(server.url("/v1/planets"))
        .header(header::ACCEPT_ENCODING, "identity;q=0")
        .json(&json!({ "name": "Never", "params": small_params(5) }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 406);
    let list = server.get_json("/v1/planets", 200).await;
    let names: Vec<&str> = list["planets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Weighed"]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn small_bodies_and_pngs_stay_identity() {
    let db = TestDb::new(mangekyo_store::Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("Small", small_params(6)).await;

    let (status, headers, body) = get_with(&server, "/healthz", "zstd, gzip").await;
    assert_eq!(status, 200);
    assert!(body.len() < 1024, "{}", body.len());
    assert!(headers.get(header::CONTENT_ENCODING).is_none());
    serde_json::from_slice::<Value>(&body).unwrap();

    let png = chunk_url(&planet, "cube", 0, 0, 0, "format=png16");
    let (status, headers, body) = get_with(&server, &png, "zstd, gzip").await;
    assert_eq!(status, 200);
    assert_eq!(text(&headers, "content-type"), "image/png");
    assert!(body.len() > 1024);
    assert!(headers.get(header::CONTENT_ENCODING).is_none());
    assert!(body.starts_with(b"\x89PNG"));

    // A client that refuses identity still gets small bodies, compressed.
    let (status, headers, body) = get_with(&server, "/healthz", "gzip, identity;q=0").await;
    assert_eq!(status, 200);
    assert_eq!(text(&headers, "content-encoding"), "gzip");
    serde_json::from_slice::<Value>(&decode("gzip", &body)).unwrap();
    assert_eq!(compressions(&server, "zstd").await, 0, "nothing in zstd");

    // The viewer's files (streams with a length) are compressed too, per
    // request: their ETags are no content hash.
    let (status, headers, plain) = get_with(&server, "/src/api.js", "identity").await;
    assert_eq!(status, 200);
    let (status, coded_headers, coded) = get_with(&server, "/src/api.js", "zstd").await;
    assert_eq!(status, 200);
    assert_eq!(text(&coded_headers, "content-encoding"), "zstd");
    assert!(decode("zstd", &coded) == plain);
    let etag = text(&headers, "etag").trim_end_matches('"');
    assert_eq!(text(&coded_headers, "etag"), format!("{etag}-zstd\""));
    let (_, _, again) = get_with(&server, "/src/api.js", "zstd").await;
    assert_eq!(again, coded);
    assert_eq!(compressions(&server, "zstd").await, 2, "not cached");
    server.stop().await;
}
