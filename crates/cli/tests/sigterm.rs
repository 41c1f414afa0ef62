//! The real binary drains on SIGTERM (as `kill`, systemd and Kubernetes
//! stop it): a request in flight when the signal comes is answered in
//! full, new connections are refused meanwhile, and the process then
//! exits successfully; and it exits within the request timeout even when
//! a generation job outlives its request.
//!
//! The request is held in flight by an event: it carries
//! `Expect: 100-continue`, so the server says `100 Continue` only once a
//! handler is reading its body, and the body goes out only after the
//! signal.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

mod common;

use common::serve::Replica;
use mangekyo_store::{Backend, testing::TestDb};
use serde_json::json;

/// Reads from `stream` until `needle` has arrived.
fn read_until(stream: &mut TcpStream, needle: &str) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&got).contains(needle) {
        let n = stream.read(&mut buf).unwrap_or_else(|e| {
            panic!(
                "no {needle:?}: {e}; got {:?}",
                String::from_utf8_lossy(&got)
            )
        });
        assert!(
            n > 0,
            "closed before {needle:?}: {:?}",
            String::from_utf8_lossy(&got)
        );
        got.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&got).into_owned()
}

#[test]
fn sigterm_drains_the_request_in_flight_then_exits() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let db = rt.block_on(TestDb::new(Backend::Sqlite));
    let mut server = Replica::start(&db);
    let addr = server.base.trim_start_matches("http://").to_owned();

    let sources: Vec<_> = mangekyo_island::example::sources()
        .iter()
        .map(|(name, text)| json!({ "name": name, "text": text }))
        .collect();
    let body = serde_json::to_vec(&json!({ "sources": sources, "seed": "7" })).unwrap();
    let mut stream = TcpStream::connect(&addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "POST /v1/islands HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    let interim = read_until(&mut stream, "\r\n\r\n");
    assert!(interim.starts_with("HTTP/1.1 100"), "{interim}");

    let killed = std::process::Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(&addr).is_ok() {
        assert!(
            Instant::now() < deadline,
            "still accepting 30 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the process exited with a request in flight"
    );

    stream.write_all(&body).unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).unwrap();
    let reply = String::from_utf8_lossy(&reply);
    assert!(
        reply.starts_with("HTTP/1.1 200"),
        "{}",
        &reply[..reply.len().min(300)]
    );
    let (_, island) = reply.split_once("\r\n\r\n").unwrap();
    assert!(
        serde_json::from_str::<serde_json::Value>(island)
            .unwrap()
            .is_object()
    );

    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "still running 30 s after draining"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "exit after SIGTERM: {status}");
    drop(server);
    rt.block_on(async move { drop(db) });
}

/// Sends `request` on a fresh connection and reads until the server closes.
fn exchange(addr: &str, request: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    String::from_utf8_lossy(&reply).into_owned()
}

#[test]
fn sigterm_exits_within_the_request_timeout_while_a_job_runs_on() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let db = rt.block_on(TestDb::new(Backend::Sqlite));
    let mut server = Replica::start_with(&db, &[], &["--timeout", "2"]);
    let addr = server.base.trim_start_matches("http://").to_owned();
    // Version 4 on a small graph: its tier is quick, its previews are not.
    let body = r#"{"name": "wide", "params": {"seed": 3, "generator_version": 4, "graph_n": 24}}"#;
    let created = exchange(
        &addr,
        &format!(
            "POST /v1/planets HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(created.starts_with("HTTP/1.1 20"), "{created}");
    let (_, doc) = created.split_once("\r\n\r\n").unwrap();
    let id = serde_json::from_str::<serde_json::Value>(doc).unwrap()["id"].clone();
    let status = format!(
        "GET /v1/planets/{id}/status HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    );
    let ready_by = Instant::now() + Duration::from_secs(60);
    while !exchange(&addr, &status).contains("\"ready\"") {
        assert!(Instant::now() < ready_by, "the tier never became ready");
        std::thread::sleep(Duration::from_millis(100));
    }
    // The widest preview: seconds of CPU in a release build, about ten
    // in a debug one; its request times out and the job runs on.
    let asked = Instant::now();
    let reply = exchange(
        &addr,
        &format!(
            "GET /v1/planets/{id}/preview?width=4096 HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        ),
    );
    assert!(
        reply.starts_with("HTTP/1.1 503"),
        "{}",
        &reply[..reply.len().min(300)]
    );
    assert!(
        asked.elapsed() < Duration::from_secs(20),
        "{:?}",
        asked.elapsed()
    );

    let killed = std::process::Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let signalled = Instant::now();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            signalled.elapsed() < Duration::from_secs(5),
            "still running {:?} after SIGTERM with a job in the background",
            signalled.elapsed()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "exit after SIGTERM: {status}");
    eprintln!("exited {:?} after SIGTERM", signalled.elapsed());
    drop(server);
    rt.block_on(async move { drop(db) });
}
