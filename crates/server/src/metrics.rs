//! Prometheus metrics: requests, latencies, generation time, cache hits,
//! compressions, cancellations.
//!
//! Built on `prometheus-client`, the Prometheus project's own Rust client,
//! rather than hand-rolled text: it escapes labels, renders histograms
//! with cumulative buckets and `+Inf`, and writes the OpenMetrics format
//! Prometheus scrapes natively, and it keeps a registry per server (no
//! global state, so tests can run several servers in one process). The
//! `metrics` facade crate would add an exporter with its own HTTP stack.

use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// The content type of [`Metrics::render`]'s output.
pub(crate) const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct RequestLabels {
    method: String,
    route: String,
    status: u16,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct KindLabels {
    kind: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct CacheLabels {
    kind: String,
    result: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct CancelLabels {
    kind: String,
    reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct CodingLabels {
    coding: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct ResultLabels {
    result: &'static str,
}

type Timings<L> = Family<L, Histogram, fn() -> Histogram>;

/// Latency buckets from 0.1 ms to about 26 s, doubling: chunk generation
/// spans fractions of a millisecond (cache hits) to seconds (whole-planet
/// previews).
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.0001, 2.0, 19))
}

/// The server's metrics and their registry.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Timings<RouteLabels>,
    generation: Timings<KindLabels>,
    cache: Family<CacheLabels, Counter>,
    busy: Counter,
    cache_bytes: Gauge,
    compressions: Family<CodingLabels, Counter>,
    tier_computes: Family<ResultLabels, Counter>,
    cancelled: Family<CancelLabels, Counter>,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    /// Empty metrics, registered under the `mangekyo_` prefix.
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("mangekyo");
        let requests = Family::<RequestLabels, Counter>::default();
        let latency: Timings<RouteLabels> = Family::new_with_constructor(latency_histogram);
        let generation: Timings<KindLabels> = Family::new_with_constructor(latency_histogram);
        let cache = Family::<CacheLabels, Counter>::default();
        let busy = Counter::default();
        let cache_bytes = Gauge::default();
        let compressions = Family::<CodingLabels, Counter>::default();
        let tier_computes = Family::<ResultLabels, Counter>::default();
        let cancelled = Family::<CancelLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route template and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time to answer, by route template",
            latency.clone(),
        );
        registry.register(
            "generation_duration_seconds",
            "CPU time of one generation job, by kind",
            generation.clone(),
        );
        registry.register(
            "cache_lookups",
            "Generated-content cache lookups, by kind and hit/miss",
            cache.clone(),
        );
        registry.register(
            "generation_rejected",
            "Generation jobs refused because the queue was full",
            busy.clone(),
        );
        registry.register(
            "cache_bytes",
            "Bytes of generated content and its compressed copies held in memory",
            cache_bytes.clone(),
        );
        registry.register(
            "compressions",
            "Bodies compressed, by content coding (a cached copy counts once)",
            compressions.clone(),
        );
        registry.register(
            "tier_computes",
            "Coarse tiers computed here (computed), and tier runs cancelled because their planets were deleted (cancelled)",
            tier_computes.clone(),
        );
        registry.register(
            "generation_cancelled",
            "Generation jobs stopped at a checkpoint, by kind and reason (abandoned: the request went away; deadline: past the request timeout)",
            cancelled.clone(),
        );
        Metrics {
            registry,
            requests,
            latency,
            generation,
            cache,
            busy,
            cache_bytes,
            compressions,
            tier_computes,
            cancelled,
        }
    }

    /// Records one answered request; `route` is the matched template
    /// (`/v1/planets/{id}`), never the raw path, to bound label cardinality.
    pub fn request(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        let labels = RequestLabels {
            method: method.to_owned(),
            route: route.to_owned(),
            status,
        };
        self.requests.get_or_create(&labels).inc();
        self.latency
            .get_or_create(&RouteLabels {
                route: route.to_owned(),
            })
            .observe(elapsed.as_secs_f64());
    }

    /// Records one generation job.
    pub fn generated(&self, kind: &str, elapsed: Duration) {
        self.generation
            .get_or_create(&KindLabels {
                kind: kind.to_owned(),
            })
            .observe(elapsed.as_secs_f64());
    }

    /// Records a cache lookup.
    pub fn cache_lookup(&self, kind: &str, hit: bool) {
        let result = if hit { "hit" } else { "miss" };
        self.cache
            .get_or_create(&CacheLabels {
                kind: kind.to_owned(),
                result: result.to_owned(),
            })
            .inc();
    }

    /// Records one body compressed in `coding`.
    pub fn compressed(&self, coding: &str) {
        self.compressions
            .get_or_create(&CodingLabels {
                coding: coding.to_owned(),
            })
            .inc();
    }

    /// Records a coarse tier computed here.
    pub(crate) fn tier_computed(&self) {
        self.tier_computes
            .get_or_create(&ResultLabels { result: "computed" })
            .inc();
    }

    /// Records a tier run cancelled: its planets were deleted.
    pub(crate) fn tier_cancelled(&self) {
        self.tier_computes
            .get_or_create(&ResultLabels {
                result: "cancelled",
            })
            .inc();
    }

    /// Records a job stopped at a checkpoint (`cancel.rs`).
    pub fn cancelled(&self, kind: &str, reason: &str) {
        self.cancelled
            .get_or_create(&CancelLabels {
                kind: kind.to_owned(),
                reason: reason.to_owned(),
            })
            .inc();
    }

    /// Records a job refused with 503.
    pub fn rejected_busy(&self) {
        self.busy.inc();
    }

    /// The metrics as OpenMetrics text, with the cache size as of now.
    pub fn render(&self, cache_bytes: u64) -> String {
        self.cache_bytes
            .set(i64::try_from(cache_bytes).unwrap_or(i64::MAX));
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_has_every_family_with_labels() {
        let m = Metrics::new();
        m.request("GET", "/v1/planets/{id}", 200, Duration::from_millis(3));
        m.generated("planet_chunk", Duration::from_millis(12));
        m.cache_lookup("planet_chunk", true);
        m.cache_lookup("planet_chunk", false);
        m.rejected_busy();
        m.compressed("zstd");
        m.tier_computed();
        m.tier_cancelled();
        m.tier_cancelled();
        m.cancelled("planet_preview", "abandoned");
        let text = m.render(1234);
        for line in [
            r#"mangekyo_http_requests_total{method="GET",route="/v1/planets/{id}",status="200"} 1"#,
            r#"mangekyo_http_request_duration_seconds_count{route="/v1/planets/{id}"} 1"#,
            r#"mangekyo_generation_duration_seconds_bucket{le="0.0128",kind="planet_chunk"} 1"#,
            r#"mangekyo_cache_lookups_total{kind="planet_chunk",result="hit"} 1"#,
            "mangekyo_generation_rejected_total 1",
            "mangekyo_cache_bytes 1234",
            r#"mangekyo_compressions_total{coding="zstd"} 1"#,
            r#"mangekyo_tier_computes_total{result="computed"} 1"#,
            r#"mangekyo_tier_computes_total{result="cancelled"} 2"#,
            r#"mangekyo_generation_cancelled_total{kind="planet_preview",reason="abandoned"} 1"#,
            "# EOF",
        ] {
            assert!(text.contains(line), "missing {line:?} in\n{text}");
        }
    }
}
