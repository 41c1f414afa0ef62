//! Two `mangekyo serve` processes over one MariaDB store, as replicas
//! behind a load balancer run: a planet created through one is served
//! byte for byte (and ETag for ETag) by the other; one is killed with
//! SIGKILL mid-load and the other keeps answering; afterwards every
//! planet a client was told about is in the store exactly once.
//!
//! Needs the MariaDB of README.md (`MANGEKYO_TEST_MYSQL`, default
//! `mysql://root@127.0.0.1:3306/test`); each run makes its own database
//! and drops it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

mod common;

use common::serve::Replica;
use mangekyo_store::testing::TestDb;
use mangekyo_store::{Backend, Store};
use serde_json::{Value, json};

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

/// Status, ETag and body of a GET.
async fn fetch(c: &reqwest::Client, url: &str) -> (u16, String, Vec<u8>) {
    let r = c.get(url).send().await.unwrap();
    let status = r.status().as_u16();
    let etag = r
        .headers()
        .get("etag")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, etag, r.bytes().await.unwrap().to_vec())
}

/// Polls `done` until it holds, failing after two minutes.
async fn until(what: &str, done: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while !done() {
        assert!(
            std::time::Instant::now() < deadline,
            "{what} did not happen within 120 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The `v=…&p=…` pin of a created planet's URLs.
fn pin_of(created: &Value) -> String {
    created["links"]["chunk"]
        .as_str()
        .unwrap()
        .split_once('?')
        .unwrap()
        .1
        .to_owned()
}

/// Asserts both replicas answer every path 200 with the same bytes and ETag.
async fn same_answers(c: &reqwest::Client, a: &Replica, b: &Replica, paths: &[String]) {
    for path in paths {
        // B may never have seen the planet: it reads it from the store.
        let from_b = fetch(c, &b.url(path)).await;
        let from_a = fetch(c, &a.url(path)).await;
        assert_eq!(from_b.0, 200, "{path}");
        assert!(from_a == from_b, "{path}: the replicas answer differently");
        assert!(!from_a.1.is_empty(), "{path}: no ETag");
    }
}

fn params(seed: u64) -> Value {
    json!({"seed": seed, "radius": 200000.0, "pixel_size": 50.0, "generator_version": 1})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_serve_identical_bytes_and_survive_a_kill() {
    let db = TestDb::new(Backend::MySql).await;
    let (mut a, b) = (Replica::start(&db), Replica::start(&db));
    let c = client();
    let created = a.create_planet(&c, "Shared", params(3)).await;
    let id = created["id"].as_i64().unwrap();
    let pin = pin_of(&created);
    let urls = [
        format!("/v1/planets/{id}/chunks/tangent_cube/0/7/3?format=bin&{pin}"),
        format!("/v1/planets/{id}/chunks/octahedral/0/2/9?format=json&layers=height,biome&{pin}"),
        format!("/v1/planets/{id}/chunks/cube/0/1/1?format=png&{pin}"),
        format!("/v1/planets/{id}/tiles/2/1/1?{pin}"),
        format!("/v1/planets/{id}/preview?width=64&{pin}"),
        format!("/v1/planets/{id}"),
    ];
    same_answers(&c, &a, &b, &urls).await;
    let batch = json!({"planet": id, "chunks": [[1, 2], [2, 2]], "p": created["params_hash"]});
    let post = |r: &Replica| c.post(r.url("/v1/roblox/chunks")).json(&batch).send();
    let (ra, rb) = (post(&a).await.unwrap(), post(&b).await.unwrap());
    assert_eq!(ra.headers()["etag"], rb.headers()["etag"]);
    assert_eq!(ra.bytes().await.unwrap(), rb.bytes().await.unwrap());

    // Load through both: chunk reads and planet creations (writes), each
    // retried on the other replica when one does not answer, as a load
    // balancer's health check would route them.
    let stop = Arc::new(AtomicBool::new(false));
    let served_by_b = Arc::new(AtomicU64::new(0));
    let refused_by_a = Arc::new(AtomicU64::new(0));
    let created = Arc::new(AtomicU64::new(0));
    let mut workers = Vec::new();
    for w in 0..4u64 {
        let (a_base, b_base, pin) = (a.base.clone(), b.base.clone(), pin.clone());
        let (stop, served_by_b, refused_by_a, created) = (
            Arc::clone(&stop),
            Arc::clone(&served_by_b),
            Arc::clone(&refused_by_a),
            Arc::clone(&created),
        );
        workers.push(tokio::spawn(async move {
            let c = client();
            let mut names = Vec::new();
            let mut k = 0u64;
            while !stop.load(Ordering::Relaxed) {
                k += 1;
                let (first, second) = if k.is_multiple_of(2) {
                    (&a_base, &b_base)
                } else {
                    (&b_base, &a_base)
                };
                let path = format!(
                    "/v1/planets/{id}/chunks/tangent_cube/0/{}/{}?format=bin&{pin}",
                    (w * 17 + k) % 75,
                    k % 50
                );
                let mut ok = false;
                for base in [first, second] {
                    match c.get(format!("{base}{path}")).send().await {
                        Ok(r) => {
                            assert_eq!(r.status().as_u16(), 200, "{base}{path}");
                            r.bytes().await.unwrap();
                            if base == &b_base {
                                served_by_b.fetch_add(1, Ordering::Relaxed);
                            }
                            ok = true;
                            break;
                        }
                        Err(_) if base == &a_base => {
                            refused_by_a.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(e) => panic!("replica B failed: {e}"),
                    }
                }
                assert!(ok, "no replica answered {path}");
                if k.is_multiple_of(3) {
                    let name = format!("load-{w}-{k}");
                    let body = json!({"name": name, "params": params(w * 1000 + k)});
                    for base in [first, second] {
                        match c
                            .post(format!("{base}/v1/planets"))
                            .json(&body)
                            .send()
                            .await
                        {
                            // 409: the first attempt reached the store
                            // before its replica died; the planet exists.
                            Ok(r) if [201, 409].contains(&r.status().as_u16()) => break,
                            Ok(r) => panic!("create {name} on {base}: {}", r.status()),
                            Err(_) if base == &a_base => {
                                refused_by_a.fetch_add(1, Ordering::Relaxed);
                            }
                            Err(e) => panic!("replica B failed: {e}"),
                        }
                    }
                    names.push(name);
                    created.fetch_add(1, Ordering::Relaxed);
                }
            }
            names
        }));
    }
    // Events, not fixed windows: A dies once both replicas have served
    // reads and writes under load, and the load stops once B has served
    // more after the kill and a client has seen A refuse.
    until("load on both replicas", || {
        served_by_b.load(Ordering::Relaxed) >= 8 && created.load(Ordering::Relaxed) >= 4
    })
    .await;
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let served_at_kill = served_by_b.load(Ordering::Relaxed);
    let created_at_kill = created.load(Ordering::Relaxed);
    until("B serving on after the kill", || {
        served_by_b.load(Ordering::Relaxed) >= served_at_kill + 16
            && created.load(Ordering::Relaxed) >= created_at_kill + 2
            && refused_by_a.load(Ordering::Relaxed) > 0
    })
    .await;
    stop.store(true, Ordering::Relaxed);
    let mut names = Vec::new();
    for w in workers {
        names.extend(w.await.unwrap());
    }
    assert!(
        served_by_b.load(Ordering::Relaxed) > served_at_kill,
        "B kept answering after A died"
    );
    assert!(
        refused_by_a.load(Ordering::Relaxed) > 0,
        "A was really gone"
    );
    let health = c.get(b.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status().as_u16(), 200);

    // The store: the shared planet, and every planet a client was told
    // exists, each exactly once.
    let store = Store::open(db.url()).await.unwrap();
    let listed = store.list(0, 1000).await.unwrap();
    let mut stored: Vec<&str> = listed.iter().map(|p| p.name.as_str()).collect();
    stored.sort_unstable();
    let mut unique = stored.clone();
    unique.dedup();
    assert_eq!(stored, unique, "duplicated planets");
    assert!(
        names.len() >= 4,
        "only {} creations under load",
        names.len()
    );
    names.push("Shared".to_owned());
    names.sort();
    assert_eq!(stored, names, "the store holds exactly the planets created");
    store.close().await;
    drop(b);
}

/// Version 4 (the default) over MariaDB: the replica that creates a planet
/// computes its coarse tier (erosion, rivers, climate) and stores it; the
/// other loads it from the store (never computing it again) and serves the
/// same bytes and ETags, rivers and biomes from the loaded tier included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_serve_identical_version_4_bytes_computing_or_loading_the_tier() {
    let db = TestDb::new(Backend::MySql).await;
    let (mut a, b) = (Replica::start(&db), Replica::start(&db));
    let c = client();
    let params = json!({"seed": 21, "radius": 200000.0, "pixel_size": 50.0, "graph_n": 128});
    let created = a.create_planet(&c, "Rivers", params).await;
    assert_eq!(created["generator_version"], 4);
    let on_a = a.status(&c, &created).await;
    assert_eq!(
        (&on_a["state"], &on_a["origin"]),
        (&json!("ready"), &json!("computed"))
    );
    let id = created["id"].as_i64().unwrap();
    let pin = pin_of(&created);
    assert!(pin.starts_with("v=4&"), "{pin}");
    b.until_ready(&c, &created).await;
    let on_b = b.status(&c, &created).await;
    assert_eq!(on_b["origin"], "loaded", "{on_b}");
    assert_eq!(on_b["blob_hash"], on_a["blob_hash"]);
    let urls = [
        format!("/v1/planets/{id}/chunks/tangent_cube/0/7/3?format=bin&{pin}"),
        format!("/v1/planets/{id}/chunks/octahedral/0/2/9?format=json&layers=uplift,plate&{pin}"),
        format!("/v1/planets/{id}/chunks/cube/0/1/1?format=r16&layers=plate&{pin}"),
        format!("/v1/planets/{id}/plates.geojson?cell_deg=3&{pin}"),
        format!("/v1/planets/{id}/preview?width=64&overlay=plates&{pin}"),
        format!("/v1/planets/{id}/chunks/tangent_cube/0/7/4?format=f32&layers=water&{pin}"),
        format!("/v1/planets/{id}/chunks/tangent_cube/0/8/3?format=json&layers=height,flow&{pin}"),
        format!("/v1/planets/{id}/rivers.geojson?{pin}"),
        format!(
            "/v1/planets/{id}/chunks/cube/0/2/1?format=json&layers=biome,precipitation,biome_weights&{pin}"
        ),
        format!("/v1/planets/{id}/preview?width=64&layer=precipitation&{pin}"),
    ];
    same_answers(&c, &a, &b, &urls).await;

    // A replica killed (SIGKILL) while a large tier computes loses nothing
    // stored: the planet is there, and the other replica makes its tier.
    let r = c
        .post(a.url("/v1/planets"))
        .json(&json!({"name": "Large", "params": {"seed": 5, "graph_n": 400}}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.status(),
        202,
        "a million-node tier takes longer than the create wait"
    );
    let large: Value = r.json().await.unwrap();
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let store = Store::open(db.url()).await.unwrap();
    let id = large["id"].as_i64().unwrap();
    assert_eq!(store.get(id).await.unwrap().unwrap().name, "Large");
    store.close().await;
    b.until_ready(&c, &large).await;
    let on_b = b.status(&c, &large).await;
    assert_eq!(on_b["state"], "ready", "{on_b}");
}
