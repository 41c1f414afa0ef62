//! The web viewer at `/`: the files of `web/` served from disk, or a small
//! built-in page when no viewer is installed.
//!
//! Serving from a directory (rather than embedding at compile time) lets
//! the viewer be rebuilt without rebuilding the server and keeps the
//! binary free of front-end build output; `--web DIR` points anywhere, and
//! by default the server looks for `web/dist` (a bundler's output) or
//! `web/` with an `index.html` in the working directory, then beside the
//! source tree it was built from. Embedding can be added here without
//! touching the routes: this module only turns a request into a response.

use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::ServeDir;

use crate::error::ApiError;

/// Where the viewer's files come from.
#[derive(Debug, Clone)]
pub struct Viewer {
    dir: Option<PathBuf>,
}

/// The header on the viewer's files when its WebAssembly package
/// (`pkg/`, built by scripts/build-wasm) is missing: the caves mode then
/// generates on the server without asking for the package, whose 404
/// would greet the README's first command with a console error.
pub(crate) const WASM_HEADER: &str = "x-mangekyo-wasm";

/// The package's file the header stands for.
const WASM_FILE: &str = "pkg/mangekyo_bg.wasm";

/// Path prefixes that belong to the API: unknown paths under them get the
/// JSON 404, never the viewer.
const API_PREFIXES: [&str; 4] = ["/v1", "/healthz", "/metrics", "/openapi.json"];

impl Viewer {
    /// Serves `dir` if given, else the first of the default places holding
    /// an `index.html`, else the built-in page.
    pub fn locate(dir: Option<PathBuf>) -> Viewer {
        if dir.is_some() {
            return Viewer { dir };
        }
        let source_web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let candidates = [
            PathBuf::from("web/dist"),
            PathBuf::from("web"),
            source_web.join("dist"),
            source_web,
        ];
        Viewer {
            dir: candidates
                .into_iter()
                .find(|d| d.join("index.html").is_file()),
        }
    }

    /// The directory served, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Answers a request no API route matched.
    pub async fn serve(&self, request: Request) -> Response {
        let path = request.uri().path().to_owned();
        let method = request.method().clone();
        if API_PREFIXES
            .iter()
            .any(|p| path == *p || path.starts_with(&format!("{p}/")))
        {
            return ApiError::no_route(method.as_str(), &path).into_response();
        }
        if method != Method::GET && method != Method::HEAD {
            return ApiError::method_not_allowed(method.as_str(), &path).into_response();
        }
        match &self.dir {
            Some(dir) => serve_file(dir, request).await,
            None if path == "/" => landing_page(),
            None => ApiError::no_route(method.as_str(), &path).into_response(),
        }
    }
}

async fn serve_file(dir: &Path, request: Request) -> Response {
    let path = request.uri().path().to_owned();
    let method = request.method().clone();
    match ServeDir::new(dir)
        .append_index_html_on_directories(true)
        .oneshot(request)
        .await
    {
        Ok(response) if response.status() == StatusCode::NOT_FOUND => {
            ApiError::no_route(method.as_str(), &path).into_response()
        }
        Ok(response) => {
            let mut response = response.map(Body::new);
            // The viewer changes with deployments: revalidate every time
            // (ServeDir sends Last-Modified, so that is a cheap 304).
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            if !tokio::fs::metadata(dir.join(WASM_FILE))
                .await
                .is_ok_and(|m| m.is_file())
            {
                response
                    .headers_mut()
                    .insert(WASM_HEADER, HeaderValue::from_static("missing"));
            }
            response
        }
        Err(e) => ApiError::internal("serving the viewer", &e).into_response(),
    }
}

fn landing_page() -> Response {
    let mut response = Html(LANDING).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

const LANDING: &str = r#"<!doctype html>
<html lang="en"><meta charset="utf-8"><title>Mangekyo</title>
<body style="font-family: system-ui, sans-serif; max-width: 40em; margin: 3em auto">
<h1>Mangekyo</h1>
<p>The server is running. The web viewer is not installed here: no <code>web/</code>
directory with an <code>index.html</code> was found (start the server with
<code>--web DIR</code> to serve one).</p>
<ul>
<li><a href="/v1">/v1</a>: the generators and their versions</li>
<li><a href="/openapi.json">/openapi.json</a>: every route</li>
<li><a href="/healthz">/healthz</a>, <a href="/metrics">/metrics</a></li>
<li><a href="/v1/dungeon/levels/42?format=png">/v1/dungeon/levels/42?format=png</a>: a dungeon level</li>
</ul>
</body></html>
"#;
