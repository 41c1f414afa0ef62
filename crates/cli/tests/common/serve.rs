//! A `mangekyo serve` child process on a loopback port, as a replica or a
//! CDN's origin runs it.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use mangekyo_store::testing::TestDb;
use serde_json::{Value, json};

/// A running `mangekyo serve`; killed when dropped.
pub(crate) struct Replica {
    /// The process.
    pub child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Replica {
    /// Starts `mangekyo serve` over `db` on a free port and waits until it
    /// says where it serves.
    pub(crate) fn start(db: &TestDb) -> Replica {
        Replica::start_under(db, &[])
    }

    /// [`Replica::start`], run by `wrapper` (a command and its arguments,
    /// followed by the server's command line: `prlimit --nofile=256 --`).
    pub(crate) fn start_under(db: &TestDb, wrapper: &[&str]) -> Replica {
        Replica::start_with(db, wrapper, &[])
    }

    /// [`Replica::start_under`] with `extra` flags for `mangekyo serve`.
    pub(crate) fn start_with(db: &TestDb, wrapper: &[&str], extra: &[&str]) -> Replica {
        let exe = env!("CARGO_BIN_EXE_mangekyo");
        let mut command = match wrapper.split_first() {
            Some((program, args)) => {
                let mut c = Command::new(program);
                c.args(args).arg(exe);
                c
            }
            None => Command::new(exe),
        };
        let mut child = command
            .args(["serve", "--db", db.url().as_str(), "--addr", "127.0.0.1:0"])
            // One worker unless `extra` says otherwise.
            .args(if extra.contains(&"--workers") {
                &[][..]
            } else {
                &["--workers", "1"][..]
            })
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mangekyo serve starts");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let base = loop {
            let line = lines
                .next()
                .expect("mangekyo serve exited before serving")
                .unwrap();
            if let Some(addr) = line.strip_prefix("mangekyo serving on ") {
                break addr.trim().to_owned();
            }
        };
        // Keep draining the log so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines.by_ref() {});
        Replica { child, base }
    }

    /// The absolute URL of `path`.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Creates a planet through this server and waits until its coarse
    /// tier is ready (version 2: `202` while it computes); its JSON.
    pub(crate) async fn create_planet(
        &self,
        client: &reqwest::Client,
        name: &str,
        params: Value,
    ) -> Value {
        let r = client
            .post(self.url("/v1/planets"))
            .json(&json!({ "name": name, "params": params }))
            .send()
            .await
            .unwrap();
        assert!(
            [201, 202].contains(&r.status().as_u16()),
            "creating planet {name}: {}",
            r.status()
        );
        let planet: Value = r.json().await.unwrap();
        self.until_ready(client, &planet).await;
        planet
    }

    /// A planet's tier status on this replica (its `links.status`).
    pub(crate) async fn status(&self, client: &reqwest::Client, planet: &Value) -> Value {
        let status = self.url(planet["links"]["status"].as_str().unwrap());
        let r = client.get(&status).send().await.unwrap();
        r.json().await.unwrap()
    }

    /// Polls a planet's status link until its tier is ready (or not needed).
    pub(crate) async fn until_ready(&self, client: &reqwest::Client, planet: &Value) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        loop {
            let s = self.status(client, planet).await;
            match s["state"].as_str().unwrap() {
                "ready" | "not_needed" => return,
                "computing" => {}
                other => panic!("tier {other}: {s}"),
            }
            assert!(
                std::time::Instant::now() < deadline,
                "tier not ready in 120 s"
            );
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
