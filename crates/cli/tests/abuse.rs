//! Load and abuse beside an innocent client (issue 38): the real
//! `mangekyo serve` binary on defaults, and for each attack of the issue's
//! table an innocent client (its own address, 127.0.0.2) that asks for
//! `/healthz` on fresh connections and for cold chunks, one after
//! another, before and during the attack (from 127.0.0.3).
//!
//! It holds the bar: the innocent client keeps at least half its
//! `/healthz` rate with a median at most 50 ms and at least 30 % of its
//! cold-chunk rate, and the server's resident memory stays under
//! `--cache-mib` + `--tier-cache-mib` + 512 MiB throughout.
//!
//! CI runs it at a scale its budget affords (about a minute, debug build).
//! `MANGEKYO_ABUSE=full` runs the full scale (minutes; build in
//! release): `MANGEKYO_ABUSE=full cargo test --release --locked -p
//! mangekyo-cli --test abuse -- --nocapture`. Either prints the figures.

#![cfg(target_os = "linux")]

mod common;

use std::fmt::Write as _;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use common::serve::Replica;
use mangekyo_store::{Backend, testing::TestDb};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::task::JoinSet;

/// How big the attacks are.
#[derive(Debug, Clone, Copy)]
struct Scale {
    full: bool,
}

impl Scale {
    fn from_env() -> Scale {
        Scale {
            full: std::env::var("MANGEKYO_ABUSE").is_ok_and(|v| v == "full"),
        }
    }

    /// How long each measurement runs.
    fn phase(self) -> Duration {
        Duration::from_secs(if self.full { 10 } else { 3 })
    }

    /// `ci` in CI, `full` at full scale.
    fn n(self, ci: usize, full: usize) -> usize {
        if self.full { full } else { ci }
    }

    /// A version-4 planet's parameters: the default planet at full scale,
    /// a small graph in CI (its tier is seconds in a debug build).
    fn planet(self, seed: u64) -> Value {
        if self.full {
            json!({ "seed": seed })
        } else {
            json!({ "seed": seed, "radius": 400_000.0, "pixel_size": 50.0, "graph_n": 40 })
        }
    }
}

const INNOCENT: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);
const ATTACKER: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 3);

fn client(from: Ipv4Addr, pooled: bool, timeout: Duration) -> reqwest::Client {
    let builder = reqwest::Client::builder()
        .local_address(IpAddr::V4(from))
        .timeout(timeout);
    let builder = if pooled {
        builder
    } else {
        builder.pool_max_idle_per_host(0)
    };
    builder.build().unwrap()
}

/// The innocent client's `/healthz` pace: at most 400 a second.
const HEALTH_INTERVAL: Duration = Duration::from_micros(2500);

/// What the innocent client got in one phase.
#[derive(Debug, Clone, Copy)]
struct Figures {
    healthz_rate: f64,
    healthz_median_ms: f64,
    cold_rate: f64,
}

/// The innocent client's two loops, for `phase`.
async fn innocent(
    base: &str,
    chunk_template: &str,
    chunks: &Arc<AtomicU32>,
    phase: Duration,
) -> Figures {
    let end = Instant::now() + phase;
    let health = {
        let url = format!("{base}/healthz");
        let c = client(INNOCENT, false, Duration::from_secs(10));
        tokio::spawn(async move {
            let mut latencies = Vec::new();
            while Instant::now() < end {
                let asked = Instant::now();
                let ok = matches!(c.get(&url).send().await, Ok(r) if r.status() == 200);
                if ok && Instant::now() <= end {
                    latencies.push(asked.elapsed().as_secs_f64() * 1000.0);
                } else if !ok {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                // A health checker's pace, not a flood: at most one
                // request per HEALTH_INTERVAL. Thousands of fresh
                // connections a second would leave tens of thousands of
                // loopback ports in TIME_WAIT, and the next phase's
                // connects would crawl for the kernel's port search, not
                // for the server.
                tokio::time::sleep_until((asked + HEALTH_INTERVAL).into()).await;
            }
            latencies
        })
    };
    let cold = {
        let c = client(INNOCENT, true, Duration::from_secs(60));
        let (template, chunks) = (chunk_template.to_owned(), Arc::clone(chunks));
        tokio::spawn(async move {
            let mut done = 0u32;
            while Instant::now() < end {
                let k = chunks.fetch_add(1, Ordering::Relaxed);
                let url = template
                    .replace("{cx}", &(k % 90).to_string())
                    .replace("{cy}", &(k / 90 % 45).to_string());
                let ok = match c.get(&url).send().await {
                    Ok(r) if r.status() == 200 => r.bytes().await.is_ok(),
                    _ => false,
                };
                if ok && Instant::now() <= end {
                    done += 1;
                } else if !ok {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
            done
        })
    };
    let mut latencies = health.await.unwrap();
    let cold = cold.await.unwrap();
    latencies.sort_by(f64::total_cmp);
    let secs = phase.as_secs_f64();
    Figures {
        healthz_rate: latencies.len() as f64 / secs,
        healthz_median_ms: latencies
            .get(latencies.len() / 2)
            .copied()
            .unwrap_or(f64::INFINITY),
        cold_rate: f64::from(cold) / secs,
    }
}

/// The server process's resident memory, MiB.
fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// The highest resident memory since the last [`Peak::take`], sampled
/// every 50 ms on a thread of its own.
struct Peak {
    kib: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl Peak {
    fn watch(pid: u32) -> Peak {
        let (kib, stop) = (
            Arc::new(AtomicU64::new(0)),
            Arc::new(AtomicBool::new(false)),
        );
        let (k, s) = (Arc::clone(&kib), Arc::clone(&stop));
        std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                k.fetch_max((rss_mib(pid) * 1024.0) as u64, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        Peak { kib, stop }
    }

    fn take(&self) -> f64 {
        self.kib.swap(0, Ordering::Relaxed) as f64 / 1024.0
    }
}

impl Drop for Peak {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// What an attack is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bar {
    /// The whole bar.
    Whole,
    /// All but the `/healthz` rate, which is reported only: a client that
    /// re-reads cached bytes in a closed loop on this same machine spends
    /// the cores on its own copying, and in a debug build the innocent
    /// client's own process gets fewer turns whatever the server does (it
    /// held 58 % here, too near the bar for CI; the full-scale release run
    /// holds it to the whole bar). The latency and cold-chunk bars still
    /// hold.
    AllButHealthRate,
}

/// One server under test, its innocent client's planet, and the figures.
struct Bench {
    replica: Replica,
    scale: Scale,
    chunk_template: String,
    chunks: Arc<AtomicU32>,
    peak: Peak,
    bound_mib: f64,
    report: String,
    failures: Vec<String>,
}

impl Bench {
    /// Starts a server (`wrapper` runs it, `flags` added) and measures the
    /// innocent client's baseline.
    async fn start(
        db: &TestDb,
        scale: Scale,
        wrapper: &[&str],
        flags: &[&str],
        bound_mib: f64,
    ) -> Bench {
        let replica = Replica::start_with(db, wrapper, flags);
        let c = client(INNOCENT, true, Duration::from_secs(60));
        // Version 1: cold chunks cost samples, not a tier.
        let planet = replica
            .create_planet(
                &c,
                &format!("innocent {}", wrapper.len()),
                json!({ "seed": 1, "radius": 200_000.0, "pixel_size": 50.0, "generator_version": 1 }),
            )
            .await;
        let chunk_template = replica.url(
            &planet["links"]["chunk"]
                .as_str()
                .unwrap()
                .replace("{projection}", "equirectangular")
                .replace("{lod}", "0"),
        ) + "&format=bin";
        let chunks = Arc::new(AtomicU32::new(0));
        let peak = Peak::watch(replica.child.id());
        // One phase to warm up (the first requests open the store's files).
        innocent(
            &replica.base,
            &chunk_template,
            &chunks,
            Duration::from_secs(1),
        )
        .await;
        let report = String::new();
        Bench {
            replica,
            scale,
            chunk_template,
            chunks,
            peak,
            bound_mib,
            report,
            failures: Vec::new(),
        }
    }

    /// Measures the innocent client alone, then beside the attack `make`
    /// starts (after `settle`; its tasks are aborted after the
    /// measurement), against the bar `bar`. The machine is shared and
    /// noisy: an attempt that misses the bar is run once more, and the
    /// second one counts.
    async fn under(
        &mut self,
        name: &str,
        make: &mut dyn FnMut() -> JoinSet<()>,
        settle: Duration,
        note: &str,
        bar: Bar,
    ) {
        self.under_when(name, make, settle, &|| true, note, bar)
            .await;
    }

    /// [`Bench::under`], measuring only once `ready` says the attack is
    /// in its steady state too (at most a minute after `settle`).
    async fn under_when(
        &mut self,
        name: &str,
        make: &mut dyn FnMut() -> JoinSet<()>,
        settle: Duration,
        ready: &(dyn Fn() -> bool + Sync),
        note: &str,
        bar: Bar,
    ) {
        for attempt in 0..2 {
            let base = &self.replica.base;
            let alone =
                innocent(base, &self.chunk_template, &self.chunks, self.scale.phase()).await;
            let mut attack = make();
            tokio::time::sleep(settle).await;
            let since = Instant::now();
            while !ready() && since.elapsed() < Duration::from_secs(60) {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let during =
                innocent(base, &self.chunk_template, &self.chunks, self.scale.phase()).await;
            attack.abort_all();
            while attack.join_next().await.is_some() {}
            let peak = self.peak.take();
            let missed = self.judge(name, alone, during, peak, note, bar);
            if peak > self.bound_mib || missed.is_empty() || attempt == 1 {
                self.failures.extend(missed);
                return;
            }
        }
    }

    /// Reports one attempt; what missed the bar.
    fn judge(
        &mut self,
        name: &str,
        alone: Figures,
        during: Figures,
        peak: f64,
        note: &str,
        bar: Bar,
    ) -> Vec<String> {
        let health = during.healthz_rate / alone.healthz_rate;
        let before = self.report.len();
        let cold = during.cold_rate / alone.cold_rate.max(f64::MIN_POSITIVE);
        writeln!(
            self.report,
            "| {name} | {:.0} → {:.0} ({:.0} %) | {:.1} | {:.1} → {:.1} ({:.0} %) | {peak:.0} | {note} |",
            alone.healthz_rate,
            during.healthz_rate,
            health * 100.0,
            during.healthz_median_ms,
            alone.cold_rate,
            during.cold_rate,
            cold * 100.0,
        )
        .unwrap();
        // Live, for long runs.
        eprint!("{}", &self.report[before..]);
        let mut missed = Vec::new();
        if health < 0.5 && bar == Bar::Whole {
            missed.push(format!(
                "{name}: /healthz at {:.0} % of its rate alone",
                health * 100.0
            ));
        }
        if during.healthz_median_ms > 50.0 {
            missed.push(format!(
                "{name}: /healthz median {:.1} ms",
                during.healthz_median_ms
            ));
        }
        if cold < 0.3 {
            missed.push(format!(
                "{name}: cold chunks at {:.0} % of their rate alone",
                cold * 100.0
            ));
        }
        if peak > self.bound_mib {
            missed.push(format!(
                "{name}: resident memory reached {peak:.0} MiB, over the bound {:.0} MiB",
                self.bound_mib
            ));
        }
        missed
    }

    fn fail(&mut self, what: String) {
        self.failures.push(what);
    }

    fn attacker(&self) -> reqwest::Client {
        client(ATTACKER, true, Duration::from_secs(120))
    }

    fn url(&self, path: &str) -> String {
        self.replica.url(path)
    }

    fn addr(&self) -> String {
        self.replica.base.trim_start_matches("http://").to_owned()
    }
}

/// The attackers' own runtime: their tasks never delay the innocent
/// client's on the test's runtime (they still share the machine's cores,
/// as two processes would).
fn attackers() -> &'static tokio::runtime::Handle {
    static RUNTIME: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("attacker")
                .enable_all()
                .build()
                .unwrap()
        })
        .handle()
}

/// A raw connection from the attacker's address.
async fn connect(addr: &str) -> Option<TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4().ok()?;
    socket.bind((ATTACKER, 0).into()).ok()?;
    socket.connect(addr.parse().ok()?).await.ok()
}

/// The example world's island scope resized to `sites` sites with one
/// guarantee holding all but one of them (the hostile case of the
/// guarantee matcher: more openings than admissible sites).
fn guarantee_body(sites: u32, seed: u64) -> Value {
    let village = format!(
        "{{ type: village, count: {}, order_by: {{ axis: coastal_distance, prefer: lowest }} }}",
        sites - 1
    );
    let sources: Vec<Value> =
        mangekyo_island::example::resized_island(sites, &[village], "village")
            .into_iter()
            .map(|(name, text)| json!({ "name": name, "text": text }))
            .collect();
    json!({ "sources": sources, "seed": seed.to_string() })
}

/// A YAML source of about `bytes` bytes that parses (every byte through
/// the parser) and then fails the definitions' checks.
fn yaml_body(bytes: usize, n: usize) -> Value {
    let mut text = String::from("filler:\n");
    let mut i = 0;
    while text.len() < bytes {
        writeln!(
            text,
            "  - {{ key_{n}_{i}: [alpha, beta, gamma, {i}], other: \"{i}\" }}"
        )
        .unwrap();
        i += 1;
    }
    json!({ "sources": [{ "name": "filler.yaml", "text": text }] })
}

/// Whether to run the attack `name`: all of them, or those
/// `MANGEKYO_ABUSE_ONLY` names (comma-separated).
fn wants(name: &str) -> bool {
    std::env::var("MANGEKYO_ABUSE_ONLY")
        .map_or(true, |only| only.split(',').any(|n| n.trim() == name))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_innocent_client_is_served_through_every_attack() {
    let scale = Scale::from_env();
    let db = TestDb::new(Backend::Sqlite).await;
    // The default response cache, and in CI a smaller tier cache (at full
    // scale, the default).
    let (cache_mib, tier_mib) = if scale.full { (256, 512) } else { (256, 64) };
    let flags = [
        "--workers".to_owned(),
        "2".to_owned(),
        "--cache-mib".to_owned(),
        cache_mib.to_string(),
        "--tier-cache-mib".to_owned(),
        tier_mib.to_string(),
    ];
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let bound = (cache_mib + tier_mib + 512) as f64;
    let mut bench = Bench::start(&db, scale, &[], &flags, bound).await;
    let seeds = Arc::new(AtomicU32::new(1000));

    // 1. Many connections asking a cached big chunk, gzip-compressed.
    if wants("gzip") {
        let url = bench
            .chunk_template
            .replace("{cx}", "5")
            .replace("{cy}", "5")
            .replace("&format=bin", "&format=json");
        let warm = bench.attacker().get(&url).send().await.unwrap();
        let size = warm.bytes().await.unwrap().len();
        let n = scale.n(8, 16);
        let c = bench.attacker();
        let mut make = || {
            let mut attack = JoinSet::new();
            for _ in 0..n {
                let (c, url) = (c.clone(), url.clone());
                attack.spawn_on(
                    async move {
                        loop {
                            if let Ok(r) =
                                c.get(&url).header("accept-encoding", "gzip").send().await
                            {
                                let _ = r.bytes().await;
                            }
                        }
                    },
                    attackers(),
                );
            }
            attack
        };
        let note = format!("{n} connections, a {:.1} MB chunk", size as f64 / 1e6);
        bench
            .under(
                "gzip",
                &mut make,
                Duration::from_millis(500),
                &note,
                if scale.full {
                    Bar::Whole
                } else {
                    Bar::AllButHealthRate
                },
            )
            .await;
    }

    // 2. An island whose one guarantee holds all its sites but one.
    if wants("guarantee") {
        let sites = 10_000;
        let answered = Arc::new(std::sync::Mutex::new(Vec::<(u16, f64)>::new()));
        let (c, url) = (bench.attacker(), bench.url("/v1/islands"));
        let mut make = || {
            let mut attack = JoinSet::new();
            for _ in 0..2 {
                let (c, url, seeds, answered) = (
                    c.clone(),
                    url.clone(),
                    Arc::clone(&seeds),
                    Arc::clone(&answered),
                );
                attack.spawn_on(
                    async move {
                        loop {
                            let seed = u64::from(seeds.fetch_add(1, Ordering::Relaxed));
                            let body = guarantee_body(sites, seed);
                            let asked = Instant::now();
                            if let Ok(r) = c.post(&url).json(&body).send().await {
                                let status = r.status().as_u16();
                                let _ = r.bytes().await;
                                answered
                                    .lock()
                                    .unwrap()
                                    .push((status, asked.elapsed().as_secs_f64()));
                            }
                        }
                    },
                    attackers(),
                );
            }
            attack
        };
        bench
            .under(
                "guarantee",
                &mut make,
                Duration::from_millis(500),
                "2 connections, 10,000 sites",
                Bar::Whole,
            )
            .await;
        let answered = answered.lock().unwrap().clone();
        let slowest = answered.iter().map(|a| a.1).fold(0.0, f64::max);
        let statuses: std::collections::BTreeSet<u16> = answered.iter().map(|a| a.0).collect();
        writeln!(
            bench.report,
            "  (guarantee bodies: {} answered, statuses {statuses:?}, slowest {slowest:.2} s)",
            answered.len()
        )
        .unwrap();
        if answered.is_empty() || statuses.contains(&503) || statuses.contains(&500) {
            bench.fail(format!(
                "guarantee: answers {statuses:?} ({} in all)",
                answered.len()
            ));
        }
        if scale.full && slowest > 2.0 {
            bench.fail(format!("guarantee: the slowest answer took {slowest:.2} s"));
        }
    }

    // 3. Slow readers of fresh large answers (a byte a second).
    if wants("slow readers") {
        let (n, chunks) = if scale.full { (250, 16) } else { (40, 4) };
        let addr = bench.addr();
        let planet_id: i64 = bench
            .chunk_template
            .split("/v1/planets/")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap()
            .parse()
            .unwrap();
        let round = AtomicU32::new(0);
        // Readers whose answer has started: the attack's steady state is
        // every answer generated and sitting in the server, unread.
        let answering = Arc::new(AtomicU32::new(0));
        let mut make = || {
            answering.store(0, Ordering::Relaxed);
            // Fresh chunks each attempt: the answers are generated, not cached.
            let first = round.fetch_add(1, Ordering::Relaxed) as usize * n * chunks;
            let mut attack = JoinSet::new();
            for i in 0..n {
                let (addr, answering) = (addr.clone(), Arc::clone(&answering));
                let addresses: Vec<[u32; 2]> = (0..chunks)
                    .map(|k| {
                        let j = (first + i * chunks + k) as u32;
                        [j % 90, 44 - j / 90 % 45]
                    })
                    .collect();
                attack.spawn_on(async move {
                    let body = json!({
                        "planet": planet_id, "chunks": addresses, "projection": "equirectangular",
                        "layers": ["height", "material", "biome"], "encoding": "array"
                    })
                    .to_string();
                    let Some(mut s) = connect(&addr).await else { return };
                    let head = format!(
                        "POST /v1/roblox/chunks HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                        body.len()
                    );
                    if s.write_all(head.as_bytes()).await.is_err() {
                        return;
                    }
                    let mut byte = [0u8; 1];
                    let mut first = true;
                    loop {
                        if s.read(&mut byte).await.unwrap_or(0) == 0 {
                            return;
                        }
                        if std::mem::take(&mut first) {
                            answering.fetch_add(1, Ordering::Relaxed);
                        }
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }, attackers());
            }
            attack
        };
        let note = format!("{n} readers of {chunks}-chunk Roblox batches");
        let all = n as u32;
        let ready = || answering.load(Ordering::Relaxed) >= all;
        let settle = Duration::from_secs(1);
        bench
            .under_when("slow readers", &mut make, settle, &ready, &note, Bar::Whole)
            .await;
    }

    // 4. Slow request bodies (a byte every 2 s).
    if wants("slow bodies") {
        let n = scale.n(200, 512);
        let addr = bench.addr();
        let mut make = || {
            let mut attack = JoinSet::new();
            for _ in 0..n {
                let addr = addr.clone();
                attack.spawn_on(async move {
                    let Some(mut s) = connect(&addr).await else { return };
                    let head = "POST /v1/islands HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n";
                    if s.write_all(head.as_bytes()).await.is_err() {
                        return;
                    }
                    loop {
                        if s.write_all(b" ").await.is_err() {
                            return;
                        }
                        tokio::time::sleep(Duration::from_secs(2)).await;
                    }
                }, attackers());
            }
            attack
        };
        let note = format!("{n} connections");
        bench
            .under(
                "slow bodies",
                &mut make,
                Duration::from_secs(1),
                &note,
                Bar::Whole,
            )
            .await;
    }

    // 5. Many planets touched once: the tier cache stays under its cap.
    if wants("planets touched once") {
        let n = scale.n(8, 32);
        let (c, base) = (bench.attacker(), bench.replica.base.clone());
        let mut make = || {
            let mut attack = JoinSet::new();
            for _ in 0..n {
                let (c, base) = (c.clone(), base.clone());
                let params = scale.planet(u64::from(seeds.fetch_add(1, Ordering::Relaxed)));
                attack.spawn_on(async move {
                    let body = json!({ "name": format!("touched once {}", params["seed"]), "params": params });
                    let Ok(r) = c.post(format!("{base}/v1/planets")).json(&body).send().await else { return };
                    let Ok(planet) = r.json::<Value>().await else { return };
                    let Some(url) = planet["links"]["chunk"].as_str() else { return };
                    let url = url
                        .replace("{projection}", "equirectangular")
                        .replace("{lod}", "2")
                        .replace("{cx}", "0")
                        .replace("{cy}", "0");
                    loop {
                        match c.get(format!("{base}{url}")).send().await {
                            Ok(r) if r.status() == 200 => return,
                            _ => tokio::time::sleep(Duration::from_millis(500)).await,
                        }
                    }
                }, attackers());
            }
            attack
        };
        let note = format!("{n} planets");
        bench
            .under(
                "planets touched once",
                &mut make,
                Duration::from_millis(500),
                &note,
                Bar::Whole,
            )
            .await;
    }

    // 6. A planet with the largest graph: its tier's computation alone
    //    needs more memory than the tier cap allows (about 1.6 GB against
    //    the default 512 MiB), so it is refused at creation naming
    //    graph_n and the largest graph_n that fits.
    if wants("graph_n") {
        let r = bench
            .attacker()
            .post(bench.url("/v1/planets"))
            .json(&json!({ "name": "largest", "params": { "seed": 5, "graph_n": 1024 } }))
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let body: Value = r.json().await.unwrap_or(Value::Null);
        writeln!(
            bench.report,
            "  (graph_n 1024 with --tier-cache-mib {tier_mib}: {status} {}, expected {})",
            body["error"]["parameter"], body["error"]["expected"]
        )
        .unwrap();
        if status != 400 || body["error"]["parameter"] != "params.graph_n" {
            bench.fail(format!(
                "graph_n 1024 under a {tier_mib} MiB tier cache: {status} {body}"
            ));
        }
    }

    // 7. A flood of planet creations: an innocent new planet is still
    //    ready soon.
    if wants("planet flood") {
        let n = scale.n(6, 20);
        let (c, base) = (bench.attacker(), bench.replica.base.clone());
        let mut flood = || {
            let mut attack = JoinSet::new();
            for _ in 0..n {
                let (c, base) = (c.clone(), base.clone());
                let params = scale.planet(u64::from(seeds.fetch_add(1, Ordering::Relaxed)));
                attack.spawn_on(async move {
                    let body =
                        json!({ "name": format!("flood {}", params["seed"]), "params": params });
                    let _ = c
                        .post(format!("{base}/v1/planets"))
                        .json(&body)
                        .send()
                        .await;
                    std::future::pending::<()>().await;
                }, attackers());
            }
            attack
        };
        let first = flood();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let asked = Instant::now();
        let innocent = client(INNOCENT, true, Duration::from_secs(60));
        let params = scale.planet(u64::from(seeds.fetch_add(1, Ordering::Relaxed)));
        let planet: Value = innocent
            .post(bench.url("/v1/planets"))
            .json(&json!({ "name": "innocent new", "params": params }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        bench.replica.until_ready(&innocent, &planet).await;
        let waited = asked.elapsed().as_secs_f64();
        drop(first);
        let note = format!("{n} planets at once (an innocent new one was ready in {waited:.1} s)");
        bench
            .under(
                "planet flood",
                &mut flood,
                Duration::from_millis(500),
                &note,
                Bar::Whole,
            )
            .await;
    }

    // 8. Loops of distinct large previews, and the finest plates GeoJSON.
    if wants("previews") {
        let c = bench.attacker();
        let loops = scale.n(2, 4);
        let widths: Vec<u32> = if scale.full {
            (3000..=4096).step_by(2).collect()
        } else {
            (1024..=2048).step_by(2).collect()
        };
        let preview_planet: Value = c
            .post(bench.url("/v1/planets"))
            .json(&json!({ "name": "previews", "params": scale.planet(7) }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        bench.replica.until_ready(&c, &preview_planet).await;
        let preview = bench.url(preview_planet["links"]["preview"].as_str().unwrap());
        let plates = preview.replace("/preview?", "/plates.geojson?cell_deg=0.1&");
        let next = Arc::new(AtomicU32::new(0));
        let mut make = || {
            let mut attack = JoinSet::new();
            for _ in 0..loops {
                let (c, preview, widths, next) = (
                    c.clone(),
                    preview.clone(),
                    widths.clone(),
                    Arc::clone(&next),
                );
                attack.spawn_on(
                    async move {
                        loop {
                            let w = widths
                                [next.fetch_add(1, Ordering::Relaxed) as usize % widths.len()];
                            if let Ok(r) = c.get(format!("{preview}&width={w}")).send().await {
                                let _ = r.bytes().await;
                            }
                        }
                    },
                    attackers(),
                );
            }
            let (c, plates) = (c.clone(), plates.clone());
            attack.spawn_on(
                async move {
                    loop {
                        if let Ok(r) = c.get(&plates).send().await {
                            let _ = r.bytes().await;
                        }
                    }
                },
                attackers(),
            );
            attack
        };
        let note = format!("{loops} preview loops and plates.geojson?cell_deg=0.1");
        bench
            .under(
                "previews and GeoJSON",
                &mut make,
                Duration::from_millis(500),
                &note,
                Bar::Whole,
            )
            .await;
    }

    // 9. Large YAML bodies.
    if wants("yaml") {
        let (c, url) = (bench.attacker(), bench.url("/v1/islands"));
        let bodies: Vec<Value> = (0..8).map(|n| yaml_body(480 * 1024, n)).collect();
        let mut make = || {
            let mut attack = JoinSet::new();
            for body in &bodies {
                let (c, url, body) = (c.clone(), url.clone(), body.clone());
                attack.spawn_on(
                    async move {
                        loop {
                            if let Ok(r) = c.post(&url).json(&body).send().await {
                                let _ = r.bytes().await;
                            }
                        }
                    },
                    attackers(),
                );
            }
            attack
        };
        bench
            .under(
                "480 KB YAML bodies",
                &mut make,
                Duration::from_millis(500),
                "8 connections",
                Bar::Whole,
            )
            .await;
    }

    let mut report = bench.report.clone();
    let mut failures = std::mem::take(&mut bench.failures);
    drop(bench);

    // 10. Half-open connections past the file-handle limit.
    if wants("half-open") {
        let wrapper = ["prlimit", "--nofile=256:256", "--"];
        let mut bench = Bench::start(&db, scale, &wrapper, &flags, bound).await;
        let addr = bench.addr();
        let mut make = || {
            let addr = addr.clone();
            let mut attack = JoinSet::new();
            attack.spawn_on(
                async move {
                    let mut silent = Vec::new();
                    for _ in 0..400 {
                        if let Some(s) = connect(&addr).await {
                            silent.push(s);
                        }
                    }
                    std::future::pending::<()>().await;
                },
                attackers(),
            );
            attack
        };
        let note = "400 connections that send nothing; the server under a 256-handle limit";
        bench
            .under(
                "half-open",
                &mut make,
                Duration::from_millis(500),
                note,
                Bar::Whole,
            )
            .await;
        report.push_str(&bench.report);
        failures.append(&mut bench.failures);
    }

    let table = format!(
        "{}\n| attack | /healthz req/s alone → during | median ms | cold chunks req/s alone → during | peak RSS MiB | |\n|---|---|---|---|---|---|\n{report}",
        if scale.full { "full scale" } else { "CI scale" }
    );
    println!("{table}");
    assert!(failures.is_empty(), "{}\n{table}", failures.join("\n"));
}
