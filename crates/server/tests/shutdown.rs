//! Graceful shutdown: a request in flight when the signal comes still gets
//! its answer, new connections are refused meanwhile, and the store is
//! closed (the SQLite file can be reopened at once).
//!
//! The request is held in flight by an event, not a guessed delay: it
//! carries `Expect: 100-continue`, so the server says `100 Continue` only
//! once a handler is reading its body, and the body is sent only after the
//! stop signal. A server that dropped in-flight requests on shutdown would
//! never answer it.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use mangekyo_store::{Backend, Store, testing::TestDb};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Reads from `stream` until `needle` has arrived (or the deadline passes).
async fn read_until(stream: &mut TcpStream, needle: &str) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + Duration::from_secs(30);
    while !String::from_utf8_lossy(&got).contains(needle) {
        let left = deadline.saturating_duration_since(Instant::now());
        let n = tokio::time::timeout(left, stream.read(&mut buf))
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "no {needle:?} within 30 s; got {:?}",
                    String::from_utf8_lossy(&got)
                )
            })
            .unwrap();
        assert!(
            n > 0,
            "connection closed before {needle:?}: {:?}",
            String::from_utf8_lossy(&got)
        );
        got.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// A POST of an island whose body waits for the server's `100 Continue`.
pub async fn held_island_request(addr: &str) -> (TcpStream, Vec<u8>) {
    let sources: Vec<_> = mangekyo_island::example::sources()
        .iter()
        .map(|(name, text)| json!({ "name": name, "text": text }))
        .collect();
    let body = serde_json::to_vec(&json!({ "sources": sources, "seed": "7" })).unwrap();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /v1/islands HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    // The handler is reading the body: the request is in flight.
    let interim = read_until(&mut stream, "\r\n\r\n").await;
    assert!(interim.starts_with("HTTP/1.1 100"), "{interim}");
    (stream, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_flight_requests_finish_then_the_store_closes() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut server = TestServer::start(&db).await;
    let addr = server.base.trim_start_matches("http://").to_owned();
    let (mut stream, body) = held_island_request(&addr).await;

    server.signal_stop();
    // New connections are refused while the held request is still open.
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(&addr).await.is_ok() {
        assert!(
            Instant::now() < deadline,
            "the server still accepts after the stop signal"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        !server.has_stopped(),
        "the server stopped with a request in flight"
    );

    // Only now the body: the drained server still answers it in full.
    stream.write_all(&body).await.unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).await.unwrap();
    let reply = String::from_utf8_lossy(&reply);
    assert!(
        reply.starts_with("HTTP/1.1 200"),
        "{}",
        &reply[..reply.len().min(300)]
    );
    let (_, json_body) = reply.split_once("\r\n\r\n").unwrap();
    let island: serde_json::Value = serde_json::from_str(json_body).unwrap();
    assert!(island.is_object(), "a whole island came back");

    server.stop().await;
    let reopened = Store::open(db.url()).await.unwrap();
    reopened.ping().await.unwrap();
    reopened.close().await;
}
