//! One answer from every surface: for the same parameters, `mangekyo`
//! (the CLI), `mangekyo serve` (HTTP) and the WebAssembly package's
//! operations (`mangekyo_wasm::api`, plain Rust, called natively here) hand
//! out the same dungeon document and the same cave chunk bytes, with the
//! mesher and format names parsed the same way.

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
    let mut caves = mangekyo_wasm::api::Caves::new("9", None).unwrap();
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
