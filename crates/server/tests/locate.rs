//! `/v1/planets/{id}/locate`: the chunk of any projection holding a
//! latitude/longitude is the planet crate's own answer, its URL serves that
//! chunk, and bad coordinates are refused by name.

mod common;

use common::{TestServer, small_params};
use mangekyo_planet::{LatLon, PlanetParams, PlanetSpace, Projection};
use mangekyo_store::testing::TestDb;
use reqwest::header;
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_projection_locates_points_as_the_planet_crate_does() {
    let db = TestDb::new(mangekyo_store::Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    // Levels of detail 0..=4, so that lods differ in the chunk they pick.
    let planet = server
        .create_planet(
            "Atlas",
            serde_json::json!({"seed": 5, "radius": 1_000_000.0, "pixel_size": 10.0, "generator_version": 1}),
        )
        .await;
    let params: PlanetParams = serde_json::from_value(planet["params"].clone()).unwrap();
    let space = PlanetSpace::new(&params);
    let template = planet["links"]["locate"].as_str().unwrap().to_owned();
    let points = [
        (0.0, 0.0),
        (89.9, 10.0),
        (-90.0, 0.0),
        (35.7, 139.7),
        (-33.9, -70.6),
        (44.99, 45.01),
        (12.5, 540.0),
    ];
    for projection in Projection::ALL {
        assert_eq!(space.max_lod(), 4);
        for lod in [0, 1, space.max_lod()] {
            for (lat, lon) in points {
                let url = format!(
                    "{template}&lat={lat}&lon={lon}&projection={}&lod={lod}",
                    projection.name()
                );
                let r = server.get(&url).await;
                assert_eq!(r.status(), 200, "{url}");
                assert_eq!(
                    r.headers()[header::CACHE_CONTROL],
                    "public, max-age=31536000, immutable",
                    "{url}: pinned by the template's v and p"
                );
                let got: Value = r.json().await.unwrap();
                let want = space.locate(projection, lod, LatLon { lat, lon }).unwrap();
                let (face, _, _) = space.face_of(&want.address);
                assert_eq!(got["projection"], projection.name(), "{url}");
                assert_eq!(got["lod"], lod, "{url}");
                assert_eq!(got["cx"], want.address.cx, "{url}");
                assert_eq!(got["cy"], want.address.cy, "{url}");
                // serde_json's default float parsing may be one ulp off.
                let close = |v: &Value, want: f64| (v.as_f64().unwrap() - want).abs() < 1e-9;
                assert!(
                    close(&got["i"], want.i) && close(&got["j"], want.j),
                    "{url}: {got}"
                );
                assert_eq!(got["face"].as_str(), face.map(|f| f.name()), "{url}");
                assert!((0.0..=256.0).contains(&want.i) && (0.0..=256.0).contains(&want.j));
            }
        }
    }

    // The answer's chunk URL serves that very chunk.
    let located = server
        .get_json(
            &format!("{template}&lat=35.7&lon=139.7&projection=cube&lod=4"),
            200,
        )
        .await;
    let chunk = server
        .get_json(
            &format!("{}&layers=height", located["chunk"].as_str().unwrap()),
            200,
        )
        .await;
    for key in ["projection", "face", "lod", "cx", "cy"] {
        assert_eq!(chunk[key], located[key], "{key}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_points_are_refused_by_name() {
    let db = TestDb::new(mangekyo_store::Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("Refusals", small_params(6)).await;
    let id = planet["id"].as_i64().unwrap();
    let max_lod = planet["space"]["max_lod"].as_u64().unwrap();
    let base = format!("/v1/planets/{id}/locate");
    let cases = [
        ("?lon=3", 400, "lat"),
        ("?lat=91&lon=0", 400, "lat"),
        ("?lat=NaN&lon=0", 400, "lat"),
        ("?lat=0&lon=inf", 400, "lon"),
        ("?lat=0&lon=east", 400, "lon"),
        ("?lat=0&lon=0&projection=mercator", 400, "projection"),
        (&*format!("?lat=0&lon=0&lod={}", max_lod + 1), 400, "lod"),
        ("?lat=0&lon=0&lod=-1", 400, "lod"),
        ("?lat=0&lon=0&zoom=3", 400, "zoom"),
        ("?lat=0&lon=0&p=0000", 404, "p"),
    ];
    for (query, status, parameter) in cases {
        let body = server.get_json(&format!("{base}{query}"), status).await;
        assert_eq!(body["error"]["parameter"], parameter, "{query}: {body}");
    }
    server
        .get_json(&format!("/v1/planets/{}/locate?lat=0&lon=0", id + 100), 404)
        .await;
    server.get_json("/healthz", 200).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn far_longitudes_wrap_exactly() {
    let db = TestDb::new(mangekyo_store::Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("Wrap", small_params(9)).await;
    let template = planet["links"]["locate"].as_str().unwrap().to_owned();
    // 1e17 = 277,777,777,777,777 · 360 + 280: the point at 280 − 360 = −80.
    // Through 1e17 · π/180 it would land anywhere (the radians are a
    // quarter apart at that size).
    for (far, near) in [
        ("100000000000000000", "-80"),
        ("-100000000000000000", "80"),
        ("360000000000045.5", "45.5"),
        ("-190.5", "169.5"),
    ] {
        for projection in ["equirectangular", "cube"] {
            let at =
                |lon: &str| format!("{template}&lat=20.25&lon={lon}&projection={projection}&lod=0");
            let a: Value = server.get_json(&at(far), 200).await;
            let b: Value = server.get_json(&at(near), 200).await;
            assert_eq!(a, b, "lon {far} is lon {near} ({projection})");
        }
    }
    server.stop().await;
}
