//! The store against real SQLite, MariaDB and PostgreSQL: every test runs
//! on all three, each in its own throwaway database.

use mangekyo_store::testing::{BACKENDS, TestDb};
use mangekyo_store::{Backend, NewPlanet, Store, StoreError};
use serde_json::json;

fn new_planet(name: &str, seed: u64) -> NewPlanet {
    NewPlanet {
        name: name.to_owned(),
        params: json!({ "seed": seed, "radius": 6.371e6 }),
        generator_version: 1,
        owner: None,
    }
}

async fn open(db: &TestDb) -> Store {
    Store::open(db.url())
        .await
        .unwrap_or_else(|e| panic!("{}: {e}", db.url().redacted()))
}

#[tokio::test]
async fn create_get_list_delete() {
    for backend in BACKENDS {
        let db = TestDb::new(backend).await;
        let store = open(&db).await;
        assert_eq!(store.backend(), backend);
        let a = store.create(&new_planet("Terra", 42)).await.unwrap();
        let b = store.create(&new_planet("Mars", 7)).await.unwrap();
        assert!(b.id > a.id, "{backend}: ids increase");
        assert_eq!(
            a.params,
            json!({ "seed": 42, "radius": 6.371e6 }),
            "{backend}"
        );
        assert_eq!(a.generator_version, 1);
        assert!(
            a.created_at_ms > 1_700_000_000_000,
            "{backend}: created time is now-ish"
        );

        assert_eq!(
            store.get(a.id).await.unwrap().as_ref(),
            Some(&a),
            "{backend}"
        );
        assert_eq!(
            store.get_by_name("Mars").await.unwrap().as_ref(),
            Some(&b),
            "{backend}"
        );
        assert_eq!(store.get(b.id + 100).await.unwrap(), None, "{backend}");

        let all = store.list(0, 10).await.unwrap();
        assert_eq!(all, vec![a.clone(), b.clone()], "{backend}");
        assert_eq!(
            store.list(a.id, 10).await.unwrap(),
            vec![b.clone()],
            "{backend}: paging by id"
        );
        assert_eq!(
            store.list(0, 1).await.unwrap(),
            vec![a.clone()],
            "{backend}: limit"
        );

        assert!(store.delete(a.id).await.unwrap(), "{backend}");
        assert!(
            !store.delete(a.id).await.unwrap(),
            "{backend}: second delete finds nothing"
        );
        assert_eq!(store.get(a.id).await.unwrap(), None, "{backend}");
        store.close().await;
    }
}

#[tokio::test]
async fn names_are_unique_exact_and_stored_verbatim() {
    for backend in BACKENDS {
        let db = TestDb::new(backend).await;
        let store = open(&db).await;
        store.create(&new_planet("Terra", 1)).await.unwrap();
        let err = store.create(&new_planet("Terra", 2)).await.unwrap_err();
        assert!(
            matches!(err, StoreError::NameTaken { ref name } if name == "Terra"),
            "{backend}: {err}"
        );
        assert!(err.is_client_error());
        // Byte-exact comparison everywhere: case and accents make new names.
        for name in [
            "terra",
            "TERRA",
            "Terrá",
            "Robert'); DROP TABLE planets;--",
            "惑星🌍",
            "a\"b\\c%_",
        ] {
            let p = store
                .create(&new_planet(name, 3))
                .await
                .unwrap_or_else(|e| panic!("{backend} {name:?}: {e}"));
            assert_eq!(
                store.get(p.id).await.unwrap().unwrap().name,
                name,
                "{backend}"
            );
        }
        assert_eq!(
            store.list(0, 100).await.unwrap().len(),
            7,
            "{backend}: the table survived"
        );
        store.close().await;
    }
}

#[tokio::test]
async fn concurrent_creators_of_one_name_get_one_planet() {
    for backend in BACKENDS {
        let db = TestDb::new(backend).await;
        let store = open(&db).await;
        let tasks: Vec<_> = (0..8)
            .map(|i| {
                let store = store.clone();
                tokio::spawn(async move { store.create(&new_planet("Contested", i)).await })
            })
            .collect();
        let mut won = 0;
        for task in tasks {
            match task.await.unwrap() {
                Ok(_) => won += 1,
                Err(StoreError::NameTaken { .. }) => {}
                Err(e) => panic!("{backend}: {e}"),
            }
        }
        assert_eq!(won, 1, "{backend}");
        assert_eq!(store.list(0, 100).await.unwrap().len(), 1, "{backend}");
        store.close().await;
    }
}

#[tokio::test]
async fn ids_are_never_reused_and_data_survives_reopening() {
    for backend in BACKENDS {
        let db = TestDb::new(backend).await;
        let store = open(&db).await;
        let first = store.create(&new_planet("Old", 1)).await.unwrap();
        assert!(store.delete(first.id).await.unwrap());
        store.close().await;

        // Reopening runs the migrations again: a no-op on a current schema.
        let store = open(&db).await;
        let second = store.create(&new_planet("New", 2)).await.unwrap();
        assert!(second.id > first.id, "{backend}: id {} reused", second.id);
        store.close().await;
        let store = open(&db).await;
        assert_eq!(
            store.get(second.id).await.unwrap(),
            Some(second),
            "{backend}"
        );
        store.close().await;
    }
}

#[tokio::test]
async fn replicas_opening_together_migrate_once() {
    for backend in BACKENDS {
        let db = TestDb::new(backend).await;
        let (a, b, c) = tokio::join!(
            Store::open(db.url()),
            Store::open(db.url()),
            Store::open(db.url())
        );
        let (a, b, c) = (a.unwrap(), b.unwrap(), c.unwrap());
        let p = a.create(&new_planet("Shared", 9)).await.unwrap();
        assert_eq!(b.get(p.id).await.unwrap(), Some(p.clone()), "{backend}");
        assert_eq!(c.get_by_name("Shared").await.unwrap(), Some(p), "{backend}");
        for s in [a, b, c] {
            s.close().await;
        }
    }
}

#[tokio::test]
async fn bad_input_is_refused_before_the_database() {
    let db = TestDb::new(Backend::Sqlite).await;
    let store = open(&db).await;
    let mut bad = new_planet("", 1);
    assert!(matches!(
        store.create(&bad).await,
        Err(StoreError::InvalidName { .. })
    ));
    bad.name = "ok".into();
    bad.params = json!([1, 2, 3]);
    assert!(matches!(
        store.create(&bad).await,
        Err(StoreError::InvalidParams { .. })
    ));
    assert!(store.list(0, 10).await.unwrap().is_empty());
    store.close().await;
}

#[tokio::test]
async fn a_sqlite_file_is_created_where_asked() {
    let dir = std::env::temp_dir().join(format!("mk_store_dir_{}", std::process::id()));
    let path = dir.join("fresh.db");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = mangekyo_store::DbUrl::parse(&path.to_string_lossy()).unwrap();
    let store = Store::open(&url).await.unwrap();
    store.create(&new_planet("Here", 1)).await.unwrap();
    store.close().await;
    assert!(path.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn unreachable_databases_are_named_without_passwords() {
    let url = mangekyo_store::DbUrl::parse("mysql://root:sekrit@127.0.0.1:1/none").unwrap();
    let options = mangekyo_store::StoreOptions {
        acquire_timeout: std::time::Duration::from_millis(300),
        ..Default::default()
    };
    let err = Store::open_with(&url, &options)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("cannot open database mysql://root:***@127.0.0.1:1/none"),
        "{err}"
    );
    assert!(!err.contains("sekrit"));
}

/// A port nothing listens on: the error names the URL tried (without its
/// password) and the driver's real cause, not only "pool timed out".
#[tokio::test]
async fn a_refused_connection_says_so_and_what_was_tried() {
    // A port that was free a moment ago: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    for scheme in ["mysql", "postgres"] {
        let text = format!("{scheme}://root:sekrit@127.0.0.1:{port}/test");
        let url = mangekyo_store::DbUrl::parse(&text).unwrap();
        let options = mangekyo_store::StoreOptions {
            acquire_timeout: std::time::Duration::from_millis(500),
            ..Default::default()
        };
        let err = Store::open_with(&url, &options)
            .await
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("{scheme}://root:***@127.0.0.1:{port}/test")),
            "{err}"
        );
        assert!(
            err.to_lowercase().contains("connection refused"),
            "{scheme}: {err}"
        );
        assert!(!err.contains("pool timed out"), "{scheme}: {err}");
        assert!(!err.contains("sekrit"), "{scheme}: {err}");
    }
}

#[tokio::test]
async fn blobs_round_trip_in_parts_and_the_last_write_wins() {
    for backend in BACKENDS {
        let db = TestDb::new(backend).await;
        let store = open(&db).await;
        let owner = store.create(&new_planet("Owner", 1)).await.unwrap();
        // Two full parts and a piece: the parts must join in order.
        let len = 2 * mangekyo_store::PART_BYTES + 12_345;
        let blob: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
        assert_eq!(store.get_blob("t1/abc").await.unwrap(), None, "{backend}");
        assert!(store.put_blob(owner.id, "t1/abc", &blob).await.unwrap());
        assert_eq!(
            store.get_blob("t1/abc").await.unwrap().as_deref(),
            Some(&blob[..]),
            "{backend}"
        );
        // A second write replaces the first, parts beyond its end included
        // (the server writes only a blob it computed because the stored one
        // was missing or bad).
        assert!(
            store
                .put_blob(owner.id, "t1/abc", &blob[..10])
                .await
                .unwrap()
        );
        assert_eq!(
            store.get_blob("t1/abc").await.unwrap().as_deref(),
            Some(&blob[..10]),
            "{backend}"
        );
        assert!(store.put_blob(owner.id, "t1/abc", &blob).await.unwrap());
        // Survives reopening (another replica, or a restart).
        store.close().await;
        let again = open(&db).await;
        assert_eq!(
            again.get_blob("t1/abc").await.unwrap().map(|b| b.len()),
            Some(len),
            "{backend}"
        );
        assert!(again.delete_blob("t1/abc").await.unwrap(), "{backend}");
        assert!(!again.delete_blob("t1/abc").await.unwrap(), "{backend}");
        assert_eq!(again.get_blob("t1/abc").await.unwrap(), None, "{backend}");
        let e = again.put_blob(owner.id, "bad key", b"x").await.unwrap_err();
        assert!(
            matches!(e, StoreError::InvalidBlob { .. }),
            "{backend}: {e}"
        );
        again.close().await;
    }
}

#[tokio::test]
async fn owners_are_kept_and_counted_and_blob_bytes_summed() {
    for backend in BACKENDS {
        let db = TestDb::new(backend).await;
        let store = open(&db).await;
        let owned = |name: &str, owner: Option<&str>| NewPlanet {
            owner: owner.map(str::to_owned),
            ..new_planet(name, 1)
        };
        let a = store.create(&owned("A", Some("alice"))).await.unwrap();
        store.create(&owned("B", Some("alice"))).await.unwrap();
        store.create(&owned("C", Some("bob"))).await.unwrap();
        store.create(&owned("D", None)).await.unwrap();
        assert_eq!(a.owner.as_deref(), Some("alice"), "{backend}");
        let got = store.get(a.id).await.unwrap().unwrap();
        assert_eq!(got.owner.as_deref(), Some("alice"), "{backend}: read back");
        let d = store.get_by_name("D").await.unwrap().unwrap();
        assert_eq!(d.owner, None, "{backend}: no owner stays none");
        assert_eq!(store.count_owned("alice").await.unwrap(), 2, "{backend}");
        assert_eq!(store.count_owned("bob").await.unwrap(), 1, "{backend}");
        assert_eq!(store.count_owned("carol").await.unwrap(), 0, "{backend}");
        // Owners are compared byte for byte, as names are.
        assert_eq!(store.count_owned("ALICE").await.unwrap(), 0, "{backend}");
        assert_eq!(store.blob_bytes("t1-none").await.unwrap(), 0, "{backend}");
        // Three parts of at most 4 MiB.
        let bytes = vec![7u8; 9 * 1024 * 1024 + 5];
        assert!(store.put_blob(a.id, "t1-some", &bytes).await.unwrap());
        assert_eq!(
            store.blob_bytes("t1-some").await.unwrap(),
            bytes.len() as u64,
            "{backend}: every part counted"
        );
    }
}
