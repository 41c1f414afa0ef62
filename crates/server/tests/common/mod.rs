//! A real server on a loopback port over a throwaway database, and a
//! client for it.

#![allow(dead_code)]

use std::time::Duration;

use mangekyo_server::{AppState, Config, Limits, Server, Viewer};
use mangekyo_store::Backend;
use mangekyo_store::Store;
use mangekyo_store::testing::TestDb;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A small version-1 planet: chunks are quick to sample in test builds
/// (version 2 has its own tests, `planets_v2.rs`, with [`small_params_v2`]).
pub(crate) fn small_params(seed: u64) -> Value {
    json!({ "seed": seed, "radius": 200_000.0, "pixel_size": 50.0, "generator_version": 1 })
}

/// A small version-2 planet with a small coarse tier (N = 24: 3,456 nodes).
pub(crate) fn small_params_v2(seed: u64) -> Value {
    json!({ "seed": seed, "radius": 200_000.0, "pixel_size": 50.0, "graph_n": 24, "generator_version": 2 })
}

/// A small version-3 planet (water) with a small coarse tier (N = 32:
/// 6,144 nodes).
pub(crate) fn small_params_v3(seed: u64) -> Value {
    json!({ "seed": seed, "radius": 400_000.0, "pixel_size": 50.0, "graph_n": 32, "generator_version": 3 })
}

/// A small planet of the newest version (4: climate and blended biomes)
/// with a small coarse tier (N = 32), its version left to the default.
pub(crate) fn small_params_v4(seed: u64) -> Value {
    json!({ "seed": seed, "radius": 400_000.0, "pixel_size": 50.0, "graph_n": 32 })
}

/// The planet the server stored (its answer to a create or get), built
/// here with the library.
pub(crate) fn built(planet: &Value) -> mangekyo_planet::Planet {
    let params: mangekyo_planet::PlanetParams =
        serde_json::from_value(planet["params"].clone()).unwrap();
    mangekyo_planet::Planet::new(params).unwrap()
}

/// A running server.
pub(crate) struct TestServer {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// A client without automatic decompression.
    pub client: reqwest::Client,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

impl TestServer {
    /// Starts a server over `db` with `limits`.
    pub(crate) async fn start_with(db: &TestDb, limits: Limits) -> TestServer {
        TestServer::start_config(
            db,
            Config {
                addr: "127.0.0.1:0".parse().unwrap(),
                limits,
                ..Config::default()
            },
        )
        .await
    }

    /// Starts a server over `db` as `config` says (its `db` is replaced by
    /// `db`'s); a server bound to 0.0.0.0 is reached on 127.0.0.1.
    pub(crate) async fn start_config(db: &TestDb, config: Config) -> TestServer {
        let config = Config {
            db: db.url().clone(),
            ..config
        };
        let server = Server::bind(config)
            .await
            .unwrap_or_else(|e| panic!("{}: {e:#}", db.url().redacted()));
        let port = server.local_addr().port();
        let base = format!("http://127.0.0.1:{port}");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(server.run(async {
            let _ = stopped.await;
        }));
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(120))
            .build()
            .unwrap();
        TestServer {
            base,
            client,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Starts the router of [`mangekyo_server::app`] over `db` in this
    /// process and returns its state too, so a test can hold the compute
    /// gate (`state.gate.run` with a job that waits on a channel) or close
    /// the store under the running server.
    pub(crate) async fn start_in_process(db: &TestDb, limits: Limits) -> (TestServer, AppState) {
        let store = Store::open(db.url()).await.unwrap();
        let (router, state) = mangekyo_server::app(store, limits, Viewer::locate(None));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = oneshot::channel::<()>();
        let closing = state.clone();
        let task = tokio::spawn(async move {
            let served = axum::serve(listener, router)
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await;
            closing.store.close().await;
            served.map_err(anyhow::Error::from)
        });
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(120))
            .build()
            .unwrap();
        let server = TestServer {
            base,
            client,
            stop: Some(stop),
            task: Some(task),
        };
        (server, state)
    }

    /// Asks the server to stop without waiting for it; [`TestServer::stopped`]
    /// waits.
    pub(crate) fn signal_stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    /// Whether the server task has ended.
    pub(crate) fn has_stopped(&self) -> bool {
        self.task.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Starts a server over `db` with default limits.
    pub(crate) async fn start(db: &TestDb) -> TestServer {
        TestServer::start_with(db, Limits::default()).await
    }

    /// The absolute URL of `path`.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// GET `path`.
    pub(crate) async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    /// GET `path` and its JSON body, asserting the status.
    /// GET `path`: the status, headers and body.
    pub(crate) async fn bytes(&self, path: &str) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
        let r = self.get(path).await;
        let status = r.status().as_u16();
        let headers = r.headers().clone();
        (status, headers, r.bytes().await.unwrap().to_vec())
    }

    pub(crate) async fn get_json(&self, path: &str, status: u16) -> Value {
        let r = self.get(path).await;
        assert_eq!(r.status().as_u16(), status, "GET {path}");
        r.json().await.unwrap()
    }

    /// POST `body` as JSON to `path`.
    pub(crate) async fn post_json(&self, path: &str, body: &Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .unwrap()
    }

    /// Creates a planet, waits until its coarse tier is ready (version 2
    /// answers `202` while it computes) and returns its JSON.
    pub(crate) async fn create_planet(&self, name: &str, params: Value) -> Value {
        let r = self
            .post_json("/v1/planets", &json!({ "name": name, "params": params }))
            .await;
        assert!(
            [201, 202].contains(&r.status().as_u16()),
            "create {name}: {}",
            r.status()
        );
        let planet: Value = r.json().await.unwrap();
        self.until_ready(&planet).await;
        planet
    }

    /// Polls a planet's status link until its tier is ready (or not needed).
    pub(crate) async fn until_ready(&self, planet: &Value) -> Value {
        let status = planet["links"]["status"].as_str().unwrap().to_owned();
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        loop {
            let s = self.get_json(&status, 200).await;
            match s["state"].as_str().unwrap() {
                "ready" | "not_needed" => return s,
                "computing" => {}
                other => panic!("tier {other}: {s}"),
            }
            assert!(
                std::time::Instant::now() < deadline,
                "tier not ready in 120 s"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Asks the server to stop and waits until it has (store closed).
    pub(crate) async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.unwrap().unwrap();
        }
    }
}

/// The pinned chunk URL of a planet JSON.
pub(crate) fn chunk_url(
    planet: &Value,
    projection: &str,
    lod: u32,
    cx: u32,
    cy: u32,
    extra: &str,
) -> String {
    let template = planet["links"]["chunk"].as_str().unwrap();
    let url = template
        .replace("{projection}", projection)
        .replace("{lod}", &lod.to_string())
        .replace("{cx}", &cx.to_string())
        .replace("{cy}", &cy.to_string());
    if extra.is_empty() {
        url
    } else {
        format!("{url}&{extra}")
    }
}

/// Every backend, labelled.
pub(crate) fn backends() -> [Backend; 3] {
    mangekyo_store::testing::BACKENDS
}
