//! One answer from every surface: for the same parameters, `mangekyo`
//! (the CLI), `mangekyo serve` (HTTP) and the WebAssembly package's
//! operations (`mangekyo_wasm::api`, plain Rust, called natively here) hand
//! out the same dungeon document, the same cave chunk bytes and the same
//! planet chunk from one parameter object (every default, the edge
//! included, the same), with the mesher and format names parsed the same
//! way.

mod common;

use common::mangekyo;
use common::serve::Replica;
use mangekyo_store::Backend;
use mangekyo_store::testing::TestDb;

/// The CLI's stdout, which must be a success.
fn cli(args: &[&str]) -> Vec<u8> {
    let out = mangekyo(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

async fn get(client: &reqwest::Client, server: &Replica, path: &str) -> Vec<u8> {
    let r = client.get(server.url(path)).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200, "{path}");
    r.bytes().await.unwrap().to_vec()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_the_service_and_the_wasm_api_agree() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = Replica::start(&db);
    let client = reqwest::Client::new();

    // (kind, CLI subcommand and flags, query, the same as JSON)
    let dungeons: [(&str, &[&str], &str, &str); 4] = [
        (
            "room",
            &["room", "--width", "30", "--height", "20", "--cutoff", "40"],
            "width=30&height=20&cutoff=40",
            r#"{"width": 30, "height": 20, "cutoff": 40}"#,
        ),
        (
            "cavern",
            &["cavern", "--width", "60", "--height", "30"],
            "width=60&height=30",
            r#"{"width": 60, "height": 30}"#,
        ),
        (
            "lake",
            &["lake", "--kind", "lava", "--width", "40", "--height", "20"],
            "kind=lava&width=40&height=20",
            r#"{"kind": "lava", "width": 40, "height": 20}"#,
        ),
        (
            "level",
            &[
                "level", "--width", "64", "--height", "32", "--rooms", "3", "--light",
            ],
            "width=64&height=32&rooms=3&light=true",
            r#"{"width": 64, "height": 32, "rooms": 3, "light": true}"#,
        ),
    ];
    for (kind, flags, query, params) in dungeons {
        let mut args = vec!["dungeon"];
        args.extend(flags);
        args.extend(["--seed", "5", "--format", "json"]);
        let from_cli = cli(&args);
        let from_server = get(&client, &server, &format!("/v1/dungeon/{kind}s/5?{query}")).await;
        let from_wasm = mangekyo_wasm::api::dungeon(kind, "5", Some(params)).unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&from_server).unwrap();
        assert_eq!(doc["kind"], kind);
        assert!(doc["grid"]["features"].is_array(), "{kind}: {doc}");
        assert_eq!(
            from_cli,
            [&from_server[..], b"\n"].concat(),
            "{kind}: the CLI's document (and its newline) is the service's"
        );
        assert_eq!(
            from_wasm.as_bytes(),
            &from_server[..],
            "{kind}: the wasm api's document is the service's"
        );
    }

    let dir = std::env::temp_dir().join(format!("mangekyo-surfaces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut caves = mangekyo_wasm::api::Caves::new("9", None, None).unwrap();
    for (format, mesher) in [
        ("mesh", "smooth"),
        ("mesh", "blocky"),
        ("density", "smooth"),
        ("glb", "blocky"),
    ] {
        let ext = mangekyo_caves::CaveFormat::ALL
            .into_iter()
            .find(|f| f.name() == format)
            .unwrap()
            .extension();
        let file = dir.join(format!("chunk.{ext}"));
        cli(&[
            "caves",
            "chunk",
            "--seed",
            "9",
            "--chunk",
            "0,1,0",
            "--mesher",
            mesher,
            "-o",
            file.to_str().unwrap(),
        ]);
        let from_cli = std::fs::read(&file).unwrap();
        let path = format!("/v1/caves/9/chunks/0/1/0?format={format}&mesher={mesher}");
        let from_server = get(&client, &server, &path).await;
        let from_wasm = caves.chunk(0, 1, 0, Some(format), Some(mesher)).unwrap();
        assert!(!from_server.is_empty(), "{path}");
        assert_eq!(from_cli, from_server, "{format} {mesher}: CLI and service");
        assert_eq!(
            from_wasm, from_server,
            "{format} {mesher}: wasm and service"
        );
    }
    // A world pinned to caves version 2: the same bytes from all three,
    // and not the newest version's.
    let file = dir.join("pinned.mkcd");
    let pinned = ["--generator-version", "2"];
    cli(&[
        &["caves", "chunk", "--seed", "9", "--chunk", "0,1,0"][..],
        &pinned[..],
        &["-o", file.to_str().unwrap()][..],
    ]
    .concat());
    let from_cli = std::fs::read(&file).unwrap();
    let from_server = get(
        &client,
        &server,
        "/v1/caves/9/chunks/0/1/0?format=density&v=2",
    )
    .await;
    let mut old = mangekyo_wasm::api::Caves::new("9", None, Some(2)).unwrap();
    let from_wasm = old.chunk(0, 1, 0, Some("density"), None).unwrap();
    assert_eq!(from_cli, from_server, "version 2: CLI and service");
    assert_eq!(from_wasm, from_server, "version 2: wasm and service");
    let newest = caves.chunk(0, 1, 0, Some("density"), None).unwrap();
    assert_ne!(from_server, newest, "version 2 is its own world");

    // One planet parameter object, one chunk: the CLI's file, the
    // service's answer and the wasm api's text, all with every default
    // (edge, layers) left unsaid. Version 1 has no coarse tier, so this
    // stays cheap; the version a JSON object means is the shared table's
    // business (`params_parity.rs`).
    let params = r#"{"seed": "parity", "generator_version": 1, "radius": 300000}"#;
    let params_file = dir.join("planet.json");
    std::fs::write(&params_file, params).unwrap();
    let chunk_file = dir.join("chunk.json");
    cli(&[
        "planet",
        "chunk",
        "--params",
        params_file.to_str().unwrap(),
        "--cx",
        "1",
        "--format",
        "json",
        "-o",
        chunk_file.to_str().unwrap(),
    ]);
    let from_cli = std::fs::read(&chunk_file).unwrap();
    let created = client
        .post(server.url("/v1/planets"))
        .json(&serde_json::json!({
            "name": "parity",
            "params": serde_json::from_str::<serde_json::Value>(params).unwrap(),
        }))
        .send()
        .await
        .unwrap();
    assert!(created.status().is_success(), "{}", created.status());
    let id = created.json::<serde_json::Value>().await.unwrap()["id"].clone();
    let path = format!("/v1/planets/{id}/chunks/tangent_cube/0/1/0?format=json");
    let from_server = get(&client, &server, &path).await;
    let planet = mangekyo_wasm::api::planet(Some(params)).unwrap();
    let chunk =
        mangekyo_wasm::api::planet_chunk(&planet, "tangent_cube", 0, 1, 0, None, None).unwrap();
    let from_wasm = mangekyo_wasm::api::planet_chunk_json(&chunk).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&from_server).unwrap();
    assert_eq!(doc["edge"], "exclusive", "the one default edge");
    assert_eq!(
        from_cli.trim_ascii_end(),
        &from_server[..],
        "planet chunk: CLI and service"
    );
    assert_eq!(
        from_wasm.as_bytes(),
        &from_server[..],
        "planet chunk: wasm and service"
    );
    let _ = std::fs::remove_dir_all(&dir);

    // An unknown name is refused by every surface with the one message.
    let refused = client
        .get(server.url("/v1/caves/9/chunks/0/1/0?mesher=voxel"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 400);
    let body: serde_json::Value = refused.json().await.unwrap();
    let wasm = caves.chunk(0, 1, 0, None, Some("voxel")).unwrap_err();
    assert_eq!(body["error"]["message"], wasm.as_str());
    assert_eq!(body["error"]["parameter"], "mesher");
    let out = mangekyo(&["caves", "chunk", "--mesher", "voxel"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("voxel") && err.contains("smooth") && err.contains("blocky"),
        "{err}"
    );
}
