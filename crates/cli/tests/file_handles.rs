//! The real binary under a low file-handle limit (issue 38): 400 clients
//! that open a connection and send nothing do not keep `/healthz` out.
//! `--max-connections` (512 by default) is clamped below the limit, so
//! the server closes the oldest silent connection to make room instead of
//! failing to accept until the 10 s header timeout frees a handle.

#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

mod common;

use common::serve::Replica;
use mangekyo_store::{Backend, testing::TestDb};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_connections_past_the_file_limit_leave_room_for_health_checks() {
    let db = TestDb::new(Backend::Sqlite).await;
    // prlimit is util-linux's: a hard limit of 256 the server cannot raise.
    let replica = Replica::start_under(&db, &["prlimit", "--nofile=256:256", "--"]);
    let addr = replica.base.trim_start_matches("http://").to_owned();
    let silent: Vec<TcpStream> = (0..400)
        .map(|_| TcpStream::connect(&addr).expect("the kernel queues the connection"))
        .collect();
    let started = Instant::now();
    let mut health = TcpStream::connect(&addr).unwrap();
    health
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    health
        .write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    let read = health.read_to_string(&mut answer);
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "after {:?}: {read:?} {answer:?}",
        started.elapsed()
    );
    drop(silent);
}
