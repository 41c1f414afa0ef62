//! The GeoJSON layers over HTTP (`kind=`): each is the library's document
//! byte for byte, holds one geometry type, and a wrong `kind` is refused
//! by name; without `kind` the original documents are served unchanged.

mod common;

use common::{TestServer, built, small_params_v3};
use mangekyo_planet::geology::layers::{PlateLayer, plates_layer};
use mangekyo_planet::hydro::layers::{WaterLayer, water_layer};
use mangekyo_store::Backend;
use mangekyo_store::testing::TestDb;
use serde_json::Value;

fn one_type(body: &[u8]) -> String {
    let doc: Value = serde_json::from_slice(body).unwrap();
    let types: std::collections::BTreeSet<String> = doc["features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["geometry"]["type"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(types.len(), 1, "{types:?}");
    types.into_iter().next().unwrap()
}

#[tokio::test]
async fn each_geojson_layer_is_served_alone_and_a_wrong_kind_is_named() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("layers", small_params_v3(5)).await;
    server.until_ready(&planet).await;
    let local = built(&planet);
    let plates = planet["links"]["plates"].as_str().unwrap();
    let rivers = planet["links"]["rivers"].as_str().unwrap();

    for (layer, geometry) in [
        (PlateLayer::Plate, "MultiPolygon"),
        (PlateLayer::Boundary, "LineString"),
    ] {
        let (status, headers, body) = server
            .bytes(&format!("{plates}&kind={}", layer.name()))
            .await;
        assert_eq!(status, 200);
        assert_eq!(headers.get("content-type").unwrap(), "application/geo+json");
        let want = plates_layer(&local, 1.0, layer).unwrap();
        assert_eq!(body, serde_json::to_vec(&want).unwrap(), "{}", layer.name());
        assert_eq!(one_type(&body), geometry);
    }
    for (layer, geometry) in [
        (WaterLayer::River, "MultiLineString"),
        (WaterLayer::Lake, "MultiPolygon"),
        (WaterLayer::Basin, "Point"),
    ] {
        let (status, _, body) = server
            .bytes(&format!("{rivers}&kind={}", layer.name()))
            .await;
        assert_eq!(status, 200);
        let want = water_layer(&local, None, layer).unwrap();
        assert_eq!(body, serde_json::to_vec(&want).unwrap(), "{}", layer.name());
        if !want["features"].as_array().unwrap().is_empty() {
            assert_eq!(one_type(&body), geometry);
        }
    }
    // Without kind: the original documents, unchanged.
    let (_, _, body) = server.bytes(plates).await;
    let want = mangekyo_planet::geology::plates_geojson(&local, 1.0).unwrap();
    assert_eq!(body, serde_json::to_vec(&want).unwrap());

    for url in [
        format!("{plates}&kind=plates"),
        format!("{rivers}&kind=rivers"),
        format!("{rivers}&kind="),
    ] {
        let e = server.get_json(&url, 400).await;
        assert_eq!(e["error"]["parameter"], "kind", "{url}");
    }
    server.stop().await;
}
