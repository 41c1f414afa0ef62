//! `mangekyo token new` and `serve --tokens`: the secret is printed once and
//! only its hash goes to the server's file; bad token files and settings
//! are refused before the server binds, naming the line and the fix.

mod common;
use common::{mangekyo, scratch};

use mangekyo_server::access::{Scope, Tokens};

#[test]
fn a_new_token_prints_its_secret_and_the_line_that_finds_it() {
    let out = mangekyo(&[
        "token",
        "new",
        "alice",
        "--scope",
        "create",
        "--planets",
        "3",
        "--tiers-per-hour",
        "5",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines().map(str::trim);
    let secret = lines.find(|l| l.starts_with("mgk_")).expect("a secret");
    let line = lines
        .find(|l| l.starts_with("alice "))
        .expect("a tokens-file line");
    assert_eq!(secret.len(), 4 + 64, "256 random bits in hex: {secret}");
    assert!(!line.contains(secret), "the file line holds no secret");
    let tokens = Tokens::parse(line, "printed").unwrap();
    let token = tokens.find(secret).expect("the line finds its secret");
    assert_eq!((token.name.as_str(), token.scope), ("alice", Scope::Create));
    assert_eq!(
        (token.quota.planets, token.quota.tiers_per_hour),
        (Some(3), Some(5))
    );

    let again = mangekyo(&["token", "new", "alice", "--scope", "create"]);
    let again = String::from_utf8(again.stdout).unwrap();
    assert!(!again.contains(secret), "every token is new");

    let bad = mangekyo(&["token", "new", "al/ice", "--scope", "read"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("must be 1 to 64"));
}

#[test]
fn bad_token_settings_stop_the_server_before_it_binds() {
    let dir = scratch("tokens");
    let file = dir.join("tokens");
    std::fs::write(&file, "# ops\nalice create mgk_plaintext\n").unwrap();
    let db = dir.join("t.db");
    let serve = |extra: &[&str]| {
        let mut args = vec![
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--db",
            db.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        mangekyo(&args)
    };
    let out = serve(&["--tokens", file.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("line 2") && err.contains("never the secret itself"),
        "{err}"
    );

    let out = serve(&["--private"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("--private needs tokens"), "{err}");

    let out = serve(&["--write-origin", "https://tools.example/app"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no path"), "{err}");
}
