//! A real server on a loopback port over a throwaway database, and a
//! client for it.

#![allow(dead_code)]

use std::time::Duration;

use mangekyo_server::{Config, Limits, Server};
use mangekyo_store::Backend;
use mangekyo_store::testing::TestDb;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A small planet: chunks are quick to sample in test builds.
pub fn small_params(seed: u64) -> Value {
    json!({ "seed": seed, "radius": 200_000.0, "pixel_size": 50.0 })
}

/// A running server.
pub struct TestServer {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// A client without automatic decompression.
    pub client: reqwest::Client,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

impl TestServer {
    /// Starts a server over `db` with `limits`.
    pub async fn start_with(db: &TestDb, limits: Limits) -> TestServer {
        let config = Config {
            addr: "127.0.0.1:0".parse().unwrap(),
            db: db.url().clone(),
            limits,
            ..Config::default()
        };
        let server = Server::bind(config)
            .await
            .unwrap_or_else(|e| panic!("{}: {e:#}", db.url().redacted()));
        let base = format!("http://{}", server.local_addr());
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

    /// Starts a server over `db` with default limits.
    pub async fn start(db: &TestDb) -> TestServer {
        TestServer::start_with(db, Limits::default()).await
    }

    /// The absolute URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// GET `path`.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    /// GET `path` and its JSON body, asserting the status.
    pub async fn get_json(&self, path: &str, status: u16) -> Value {
        let r = self.get(path).await;
        assert_eq!(r.status().as_u16(), status, "GET {path}");
        r.json().await.unwrap()
    }

    /// POST `body` as JSON to `path`.
    pub async fn post_json(&self, path: &str, body: &Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .unwrap()
    }

    /// Creates a planet and returns its JSON.
    pub async fn create_planet(&self, name: &str, params: Value) -> Value {
        let r = self
            .post_json("/v1/planets", &json!({ "name": name, "params": params }))
            .await;
        assert_eq!(r.status().as_u16(), 201, "create {name}");
        r.json().await.unwrap()
    }

    /// Asks the server to stop and waits until it has (store closed).
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.unwrap().unwrap();
        }
    }
}

/// The pinned chunk URL of a planet JSON.
pub fn chunk_url(
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
pub fn backends() -> [Backend; 3] {
    mangekyo_store::testing::BACKENDS
}
