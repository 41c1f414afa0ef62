//! The generation queue is fair across clients (issue 38): with one
//! worker, a client that queued two hundred cold chunks does not make
//! another client's one chunk wait behind them. Clients are told apart by
//! address here (127.0.0.2 and 127.0.0.3, both loopback on Linux).

mod common;

use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::TestServer;
use mangekyo_server::Limits;
use mangekyo_store::{Backend, testing::TestDb};

fn client_from(last: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)))
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_clients_backlog_does_not_hold_up_another_client() {
    const FLOOD: usize = 200;
    let db = TestDb::new(Backend::Sqlite).await;
    let limits = Limits {
        workers: 1,
        queue: 1024,
        ..Limits::default()
    };
    let server = TestServer::start_with(&db, limits).await;
    let base = server.base.clone();
    let done: Arc<Mutex<Vec<(&'static str, Instant)>>> = Arc::default();
    let flooder = client_from(2);
    let mut flood = Vec::new();
    for seed in 0..FLOOD {
        let (c, base, done) = (flooder.clone(), base.clone(), Arc::clone(&done));
        flood.push(tokio::spawn(async move {
            let r = c
                .get(format!("{base}/v1/caves/{}/chunks/0/0/0", 1000 + seed))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 200);
            r.bytes().await.unwrap();
            done.lock().unwrap().push(("flood", Instant::now()));
        }));
    }
    // Let the flood queue up behind the one worker.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let asked = Instant::now();
    let r = client_from(3)
        .get(format!("{base}/v1/caves/77/chunks/0/0/0"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    r.bytes().await.unwrap();
    let answered = Instant::now();
    done.lock().unwrap().push(("other", answered));
    for f in flood {
        f.await.unwrap();
    }
    let done = done.lock().unwrap().clone();
    let flood_by = |t: Instant| {
        done.iter()
            .filter(|(who, at)| *who == "flood" && *at < t)
            .count()
    };
    let (before_ask, before_answer) = (flood_by(asked), flood_by(answered));
    eprintln!(
        "the other client's chunk took {:?}; the flood had {before_ask} of {FLOOD} done when it \
         asked and {before_answer} when it was answered",
        answered - asked
    );
    // A backlog there was (else this shows nothing)...
    assert!(
        FLOOD - before_ask >= FLOOD / 4,
        "the flood was nearly done ({before_ask} of {FLOOD}) when the other client asked"
    );
    // ...and the other client waited for the flood's chunk in progress,
    // not for the backlog, as first come first served would make it.
    // (A flood chunk counts as done when its client has read it, a little
    // after the server finished it: hence some slack.)
    assert!(
        before_answer - before_ask <= 12,
        "{} flood chunks went first",
        before_answer - before_ask
    );
    server.stop().await;
}
