//! The statuses every route can answer, added to the OpenAPI document.
//!
//! Some refusals come from shared code rather than the handler: the JSON
//! extractor (400, 413, 415), the version check (`v` → 404
//! `version_unavailable`), parameter parsing (400), preconditions on POST
//! (412), and the gate, the timeout and the store (503). A client
//! generated from the document must know them, so they are added here to
//! every operation they apply to, unless the handler documents them itself.

use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, ResponseBuilder};

/// `doc` with the shared statuses added to each operation.
pub(crate) fn complete(mut doc: OpenApi) -> OpenApi {
    for item in doc.paths.paths.values_mut() {
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
