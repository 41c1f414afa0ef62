//! The statuses every route can answer, added to the OpenAPI document.
//!
//! Some refusals come from shared code rather than the handler: the JSON
//! extractor (400, 408, 413, 415), the version check (`v` → 404
//! `version_unavailable`), parameter parsing (400), preconditions on POST
//! (412), and the gate, the timeout and the store (503). A client
//! generated from the document must know them, so they are added here to
//! every operation they apply to, unless the handler documents them itself.

use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, ResponseBuilder};

/// The security scheme's name in the document.
const BEARER: &str = "bearer";

/// `doc` with the shared statuses and the security scheme added to each
/// operation.
pub(crate) fn complete(mut doc: OpenApi) -> OpenApi {
    doc.components.get_or_insert_with(Default::default).add_security_scheme(
        BEARER,
        SecurityScheme::Http(
            HttpBuilder::new()
                .scheme(HttpAuthScheme::Bearer)
                .description(Some(
                    "An access token from the operator (`mangekyo token new`), scope read, create or admin. \
Creating and deleting planets needs scope create (deleting another token's planet: admin). Whether a \
request without a token may read or write is the server's choice: an open loopback server allows \
everything, a public one reading only, a private one nothing but /healthz.",
                ))
                .build(),
        ),
    );
    for (path, item) in doc.paths.paths.iter_mut() {
        let writes = path == "/v1/planets" || path == "/v1/planets/{id}";
        let shared_params = item.parameters.clone().unwrap_or_default();
        for op in [
            item.get.as_mut(),
            item.post.as_mut(),
            item.put.as_mut(),
            item.delete.as_mut(),
        ]
        .into_iter()
        .flatten()
        {
            let has_body = op.request_body.is_some();
            complete_operation(op, &shared_params, has_body);
            secure(op, path);
        }
        // Creating and deleting need a token with scope create; reading
        // takes one (a private server) or none.
        if writes {
            for op in [item.post.as_mut(), item.delete.as_mut()]
                .into_iter()
                .flatten()
            {
                op.security = Some(vec![SecurityRequirement::new(BEARER, ["create"])]);
            }
        }
    }
    doc
}

fn complete_operation(
    op: &mut Operation,
    shared: &[RefOr<utoipa::openapi::path::Parameter>],
    has_body: bool,
) {
    let params: Vec<(String, ParameterIn)> = op
        .parameters
        .iter()
        .flatten()
        .chain(shared)
        .filter_map(|p| match p {
            RefOr::T(p) => Some((p.name.clone(), p.parameter_in.clone())),
            RefOr::Ref(_) => None,
        })
        .collect();
    let pinned = params
        .iter()
        .any(|(name, at)| name == "v" && matches!(at, ParameterIn::Query));
    if !params.is_empty() {
        add(
            op,
            "400",
            "A parameter is malformed, unknown, given twice or out of range (named in `parameter`)",
        );
    }
    if pinned {
        add(
            op,
            "404",
            "`version_unavailable`: `v` names a generator version this server does not run (or the thing asked for does not exist)",
        );
    }
    if has_body {
        add(
            op,
            "400",
            "The body is not one JSON object, or a field is malformed (named in `parameter`)",
        );
        add(
            op,
            "408",
            "The body arrived slower than the server's minimum rate (`body_too_slow`)",
        );
        add(op, "412", "`If-None-Match` names the current answer");
        add(op, "413", "The body is larger than the server's limit");
        add(op, "415", "The body is not `application/json`");
    }
    add(
        op,
        "503",
        "Busy (the generation queue is full), over the time limit, or the store is unavailable; retry after `Retry-After`",
    );
}

/// The security every operation but the health check takes: a token, or
/// none where the server allows it; and the refusals that come with it.
fn secure(op: &mut Operation, path: &str) {
    if path == "/healthz" {
        op.security = Some(vec![SecurityRequirement::default()]);
        return;
    }
    op.security = Some(vec![
        SecurityRequirement::default(),
        SecurityRequirement::new(BEARER, ["read"]),
    ]);
    add(
        op,
        "401",
        "`unauthorized`: the bearer token is unknown or malformed, or this route needs one and none was sent (`WWW-Authenticate: Bearer`)",
    );
    add(
        op,
        "403",
        "`insufficient_scope`, `cross_origin` (a write from a web page of another origin), `read_only` (a replica), or `not_owner`",
    );
}

/// Adds an error response under `status` unless the operation has one.
fn add(op: &mut Operation, status: &str, description: &str) {
    if op.responses.responses.contains_key(status) {
        return;
    }
    let content = ContentBuilder::new()
        .schema(Some(Ref::from_schema_name("ErrorBody")))
        .build();
    let response = ResponseBuilder::new()
        .description(description)
        .content("application/json", content)
        .build();
    op.responses
        .responses
        .insert(status.to_owned(), RefOr::T(response));
}
