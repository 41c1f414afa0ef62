//! The plates of a planet as GeoJSON: plate polygons traced on a
//! latitude/longitude raster and the boundaries between them with their
//! type and relative velocity (what `mangekyo planet plates` writes).

use super::*;

/// The plates of a version-2 planet as GeoJSON (a `FeatureCollection`
/// that QGIS opens): one `MultiPolygon` per plate, traced on a raster of
/// `cell_deg` degrees (row runs of cells, so edges are stair-stepped at
/// that resolution), with its Euler pole and rate; and one `LineString` per
/// raster edge where two plates meet, with the boundary `type`
/// (convergent, divergent, transform) and the relative velocity at the
/// edge's midpoint (`convergence_mm_yr` > 0 closing, `shear_mm_yr`;
/// Earth-scale: angular rates × 6371 km). A pure function: the CLI and
/// the server write or serve the value.
pub fn plates_geojson(
    planet: &crate::Planet,
    cell_deg: f64,
) -> Result<serde_json::Value, crate::PlanetError> {
    plates_geojson_cancellable(planet, cell_deg, &|| true)
}

/// [`plates_geojson`], asking `keep_going` once per raster row (and per
/// plate): [`crate::PlanetError::Cancelled`] once it answers `false`. What
/// it answers changes no byte of a finished document.
pub fn plates_geojson_cancellable(
    planet: &crate::Planet,
    cell_deg: f64,
    keep_going: &dyn Fn() -> bool,
) -> Result<serde_json::Value, crate::PlanetError> {
    use serde_json::json;
    let check = || {
        if keep_going() {
            Ok(())
        } else {
            Err(crate::PlanetError::Cancelled)
        }
    };
    let (plates, w, h, id) = plate_raster(planet, cell_deg, keep_going)?;
    let radius = planet.params().radius;
    let lon = |x: f64| -180.0 + x * cell_deg;
    let lat = |y: f64| 90.0 - y * cell_deg;
    let dir = |la: f64, lo: f64| crate::LatLon { lat: la, lon: lo }.to_dir();
    let mut features = Vec::new();
    for k in 0..plates.len() as u16 {
        check()?;
        let mut polygons = Vec::new();
        let mut area = 0.0;
        for y in 0..h {
            let mut x = 0;
            while x < w {
                if id[y * w + x] != k {
                    x += 1;
                    continue;
                }
                let start = x;
                while x < w && id[y * w + x] == k {
                    x += 1;
                }
                let (x0, x1, y0, y1) = (
                    lon(start as f64),
                    lon(x as f64),
                    lat(y as f64),
                    lat(y as f64 + 1.0),
                );
                area += (x1 - x0).to_radians()
                    * (libm::sin(y0.to_radians()) - libm::sin(y1.to_radians()));
                polygons.push(json!([[[x0, y1], [x1, y1], [x1, y0], [x0, y0], [x0, y1]]]));
            }
        }
        let w_k = plates.omega(k as usize);
        let rate = dot(w_k, w_k).sqrt();
        let pole = crate::LatLon::from_dir(normalise(w_k));
        features.push(json!({
            "type": "Feature",
            "geometry": {"type": "MultiPolygon", "coordinates": polygons},
            "properties": {
                "kind": "plate",
                "plate": k,
                "area_fraction": area / (4.0 * std::f64::consts::PI),
                "euler_pole_lat": pole.lat,
                "euler_pole_lon": pole.lon,
                "rate_deg_per_myr": rate.to_degrees(),
            }
        }));
    }
    // Edges between raster cells of different plates: east (wrapping at
    // the date line) and south neighbours.
    for y in 0..h {
        check()?;
        for x in 0..w {
            let a = id[y * w + x];
            let mut edges = Vec::with_capacity(2);
            let east = (x + 1) % w;
            if id[y * w + east] != a {
                let e = lon(x as f64 + 1.0);
                edges.push((
                    id[y * w + east],
                    [[e, lat(y as f64)], [e, lat(y as f64 + 1.0)]],
                ));
            }
            if y + 1 < h && id[(y + 1) * w + x] != a {
                let s = lat(y as f64 + 1.0);
                edges.push((
                    id[(y + 1) * w + x],
                    [[lon(x as f64), s], [lon(x as f64 + 1.0), s]],
                ));
            }
            for (b, line) in edges {
                let mid = dir(
                    0.5 * (line[0][1] + line[1][1]),
                    0.5 * (line[0][0] + line[1][0]),
                );
                let qm = plates.warped(&[mid], radius, Level::best())[0];
                let p = plates.pair(qm, a as usize, b as usize);
                features.push(json!({
                    "type": "Feature",
                    "geometry": {"type": "LineString", "coordinates": line},
                    "properties": {
                        "kind": "boundary",
                        "plates": [a, b],
                        "type": p.kind().name(),
                        "convergence_mm_yr": p.convergence,
                        "shear_mm_yr": p.shear,
                    }
                }));
            }
        }
    }
    Ok(json!({
        "type": "FeatureCollection",
        "properties": {
            "generator_version": planet.version(),
            "params_hash": format!("{:016x}", planet.params().content_hash()),
            "cell_deg": cell_deg,
            "plates": plates.len(),
        },
        "features": features,
    }))
}

/// Refuses a raster cell the plates documents do not take (outside
/// 0.1 ..= 10 degrees, or not dividing 180), by naming `cell_deg`: what
/// an edge checks before it estimates the work.
pub fn check_cell_deg(cell_deg: f64) -> Result<(), crate::PlanetError> {
    if cell_deg.is_finite() && (0.1..=10.0).contains(&cell_deg) && (180.0 / cell_deg).fract() == 0.0
    {
        return Ok(());
    }
    Err(crate::PlanetError::address(
        "cell_deg",
        cell_deg,
        "in 0.1 ..= 10 degrees, dividing 180",
    ))
}

/// The plate of every cell of a `cell_deg` latitude/longitude raster
/// (`h` rows from the north pole, `w` columns from −180°), with the
/// planet's plates: what the plates document and its GIS layers trace.
/// `keep_going` is asked before each row ([`crate::PlanetError::Cancelled`]
/// once it answers `false`); each cell is a function of its centre alone,
/// so rows warped one at a time give the bytes of one batch.
pub(super) fn plate_raster<'p>(
    planet: &'p crate::Planet,
    cell_deg: f64,
    keep_going: &dyn Fn() -> bool,
) -> Result<(&'p Plates, usize, usize, Vec<u16>), crate::PlanetError> {
    let plates = planet.require_plates()?;
    check_cell_deg(cell_deg)?;
    let radius = planet.params().radius;
    let (w, h) = ((360.0 / cell_deg) as usize, (180.0 / cell_deg) as usize);
    let lon = |x: f64| -180.0 + x * cell_deg;
    let lat = |y: f64| 90.0 - y * cell_deg;
    let dir = |la: f64, lo: f64| crate::LatLon { lat: la, lon: lo }.to_dir();
    let mut id: Vec<u16> = Vec::with_capacity(w * h);
    for y in 0..h {
        if !keep_going() {
            return Err(crate::PlanetError::Cancelled);
        }
        let centres: Vec<Dir> = (0..w)
            .map(|x| dir(lat(y as f64 + 0.5), lon(x as f64 + 0.5)))
            .collect();
        let q = plates.warped(&centres, radius, Level::best());
        id.extend(q.iter().map(|&q| plates.locate(q).plate));
    }
    Ok((plates, w, h, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_geojson_has_every_plate_and_typed_boundaries() {
        let planet = crate::Planet::new(crate::PlanetParams {
            plate_count: 9,
            ..crate::PlanetParams::default()
        })
        .unwrap();
        let g = plates_geojson(&planet, 4.0).unwrap();
        let features = g["features"].as_array().unwrap();
        let plates = features
            .iter()
            .filter(|f| f["properties"]["kind"] == "plate");
        let total: f64 = plates
            .map(|f| f["properties"]["area_fraction"].as_f64().unwrap())
            .sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        let kinds: std::collections::BTreeSet<&str> = features
            .iter()
            .filter_map(|f| f["properties"]["type"].as_str())
            .collect();
        assert_eq!(kinds.len(), 3, "{kinds:?}");
        assert!(plates_geojson(&planet, 7.0).is_err());
        let v1 = crate::Planet::new(crate::PlanetParams {
            generator_version: crate::Version::V1,
            ..crate::PlanetParams::default()
        })
        .unwrap();
        assert!(plates_geojson(&v1, 4.0).is_err());
    }
}
