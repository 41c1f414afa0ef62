//! The package's operations as plain Rust: parameters in as JSON text,
//! bytes and JSON documents out, every refusal a message that names the
//! parameter. `lib.rs` only moves these across the JavaScript boundary, so
//! everything here is tested natively and the bytes are the generator
//! crates' own (the server encodes with the same calls).

use mangekyo_caves::{
    CaveField, CaveFormat, CaveParams, ChunkCoord, Manifest, MeshKind, Sampler, Seed,
    Version as CaveVersion,
};
use mangekyo_dungeon::{CavernParams, LakeParams, LevelParams, RoomParams};
use mangekyo_formats::cave_models;
use mangekyo_formats::dungeon::{self as dungeon_doc, DungeonKind, DungeonParams};
use mangekyo_planet::{ChunkAddress, ChunkRequest, Edge, Layers, Planet, PlanetParams, Projection};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// A refusal: what was wrong, for the JavaScript `Error`'s message.
pub type Refusal = String;

/// The generator versions compiled in, as the service's `/v1` lists them.
pub fn generator_versions() -> Value {
    json!({
        "caves": mangekyo_caves::GENERATOR_VERSION,
        "planet": mangekyo_planet::Version::DEFAULT,
        "dungeon": mangekyo_dungeon::GENERATOR_VERSION,
        "island": mangekyo_island::GENERATOR_VERSION,
    })
}

/// Parameters from JSON text, refused with serde's own account of the
/// field at fault. Empty or absent text is `{}`. (A planet's are read by
/// the planet crate, as every surface reads them: see [`planet`].)
fn params<P: DeserializeOwned>(what: &str, text: Option<&str>) -> Result<P, Refusal> {
    let text = match text.map(str::trim) {
        None | Some("") => "{}",
        Some(t) => t,
    };
    serde_json::from_str(text).map_err(|e| format!("{what} parameters: {e}"))
}

/// A cave world: one seed and parameter set, and a sampler whose buffers
/// are reused from chunk to chunk.
#[derive(Debug)]
pub struct Caves {
    seed: Seed,
    params: CaveParams,
    field: CaveField,
    sampler: Sampler,
}

impl Caves {
    /// The world of `seed` (digits are that number, other text is hashed,
    /// as in the service's URLs) and `params` (`CaveParams` as JSON), made
    /// by generator `version` (the service's `v`; `None`: the newest).
    pub fn new(seed: &str, params: Option<&str>, version: Option<u32>) -> Result<Caves, Refusal> {
        let seed = Seed::parse(seed);
        let params: CaveParams = self::params("cave", params)?;
        let version = match version {
            None => CaveVersion::DEFAULT,
            Some(v) => CaveVersion::from_code(v.into()).map_err(|e| e.to_string())?,
        };
        let field = CaveField::with_version(&params, seed, version).map_err(|e| e.to_string())?;
        Ok(Caves {
            seed,
            params,
            field,
            sampler: Sampler::new(),
        })
    }

    /// The manifest document, byte for byte the service's
    /// `/v1/caves/{seed}` body.
    pub fn manifest(&self) -> Result<String, Refusal> {
        let doc = Manifest::of(&self.field)
            .document(self.seed, &self.params)
            .map_err(|e| e.to_string())?;
        Ok(doc.to_string())
    }

    /// One chunk as the service sends it: `format` `mesh` (MKCM, with
    /// `mesher` `smooth` or `blocky`), `density` (MKCD) or `glb`.
    pub fn chunk(
        &mut self,
        cx: i32,
        cy: i32,
        cz: i32,
        format: Option<&str>,
        mesher: Option<&str>,
    ) -> Result<Vec<u8>, Refusal> {
        let coord = ChunkCoord::checked(cx, cy, cz).map_err(|e| e.to_string())?;
        // The names every surface parses (`mangekyo_caves::names`).
        let kind: MeshKind = mesher
            .map_or(Ok(MeshKind::default()), str::parse)
            .map_err(|e| e.to_string())?;
        let format: CaveFormat = format
            .map_or(Ok(CaveFormat::default()), str::parse)
            .map_err(|e| e.to_string())?;
        let samples = self.sampler.chunk(&self.field, coord);
        cave_models::encode_chunk(&self.field, coord, &samples, format, kind)
            .map_err(|e| e.to_string())
    }

    /// The density at a point (trilinear between voxels; > 0 is rock).
    pub fn density_at(&self, x: f64, y: f64, z: f64) -> f64 {
        f64::from(self.field.density_at(x, y, z))
    }
}

/// A new planet from its parameters (`PlanetParams` as JSON text, read as
/// the service's `POST /v1/planets` and `mangekyo planet --params` read
/// them: an object only, a text seed hashed, without `generator_version`
/// the newest version; empty or absent text is the default planet).
pub fn planet(params: Option<&str>) -> Result<Planet, Refusal> {
    let params = PlanetParams::from_new_json_text(params.unwrap_or_default())
        .map_err(|e| format!("planet parameters: {e}"))?;
    Planet::new(params).map_err(|e| e.to_string())
}

/// One chunk of `planet` and the layers asked for (`height`, `biome`, …,
/// comma separated; all of the version's when absent), with `edge`
/// `exclusive` (256² samples, the default on every surface) or `shared`
/// (257²).
pub fn planet_chunk(
    planet: &Planet,
    projection: &str,
    lod: u32,
    cx: u32,
    cy: u32,
    layers: Option<&str>,
    edge: Option<&str>,
) -> Result<mangekyo_planet::Chunk, Refusal> {
    let projection = parse_projection(projection)?;
    let edge = match edge {
        None | Some("") => Edge::default(),
        Some(name) => name.parse::<Edge>().map_err(|e| e.to_string())?,
    };
    let version = planet.version();
    let layers = match layers {
        None | Some("") => version.layers(),
        Some(list) => Layers::parse_for(list, version).map_err(|e| e.to_string())?,
    };
    let req = ChunkRequest {
        address: ChunkAddress {
            projection,
            lod,
            cx,
            cy,
        },
        edge,
        layers,
    };
    planet.sample_chunk(&req).map_err(|e| e.to_string())
}

/// The chunk of `projection` at `lod` that holds latitude `lat`, longitude
/// `lon` (degrees): its `[cx, cy]`.
pub fn planet_locate(
    planet: &Planet,
    projection: &str,
    lod: u32,
    lat: f64,
    lon: f64,
) -> Result<[u32; 2], Refusal> {
    let projection = parse_projection(projection)?;
    let found = planet
        .space()
        .locate(projection, lod, mangekyo_planet::LatLon { lat, lon })
        .map_err(|e| e.to_string())?;
    Ok([found.address.cx, found.address.cy])
}

/// A chunk's JSON document (`Chunk::json`, as the service's JSON chunks).
pub fn planet_chunk_json(chunk: &mangekyo_planet::Chunk) -> Result<String, Refusal> {
    serde_json::to_string(&chunk.json()).map_err(|e| e.to_string())
}

/// A Hengband dungeon of `kind` (`room`, `cavern`, `lake`, `level`) as the
/// service's JSON (`mangekyo_formats::dungeon::json`, which the service
/// and the CLI write too).
pub fn dungeon(kind: &str, seed: &str, params: Option<&str>) -> Result<String, Refusal> {
    let seed = Seed::parse(seed);
    let kind = kind.parse::<DungeonKind>().map_err(|e| e.to_string())?;
    match kind {
        DungeonKind::Room => dungeon_json::<RoomParams>(seed, params),
        DungeonKind::Cavern => dungeon_json::<CavernParams>(seed, params),
        DungeonKind::Lake => dungeon_json::<LakeParams>(seed, params),
        DungeonKind::Level => dungeon_json::<LevelParams>(seed, params),
    }
}

fn dungeon_json<P: DungeonParams + DeserializeOwned>(
    seed: Seed,
    params: Option<&str>,
) -> Result<String, Refusal> {
    let p: P = self::params(P::KIND.name(), params)?;
    let built = dungeon_doc::build(&p, seed).map_err(|e| e.to_string())?;
    Ok(dungeon_doc::json(&p, seed, &built).to_string())
}

/// The example world's island of `seed` as the service's JSON
/// (`/v1/islands/example/{seed}`), names in `lang` (`en` or `ja`).
pub fn island(seed: &str, lang: Option<&str>) -> Result<String, Refusal> {
    let defs = mangekyo_island::example::definitions();
    let lang = lang.unwrap_or("en");
    defs.check_scope_and_lang("island", lang)
        .map_err(|e| e.to_string())?;
    let map = mangekyo_island::generate_island(&defs, "island", Seed::parse(seed))
        .map_err(|e| e.to_string())?;
    Ok(mangekyo_island::view::json::to_string(&map, &defs, lang))
}

fn parse_projection(name: &str) -> Result<Projection, Refusal> {
    name.parse()
        .map_err(|e: mangekyo_planet::PlanetError| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mangekyo_caves::wire;

    #[test]
    fn a_reused_sampler_gives_each_chunk_its_own_bytes() {
        let mut caves = Caves::new("42", None, None).unwrap();
        let a = caves.chunk(0, 1, 0, None, None).unwrap();
        let b = caves.chunk(1, 1, 0, Some("density"), None).unwrap();
        let c = caves.chunk(0, 1, 0, Some("mesh"), Some("smooth")).unwrap();
        assert_eq!(a, c, "the same chunk after another one");
        let fresh = Caves::new("42", None, None)
            .unwrap()
            .chunk(1, 1, 0, Some("density"), None)
            .unwrap();
        assert_eq!(b, fresh);
        let decoded = wire::decode_mesh(&a).unwrap();
        assert!(
            decoded.mesh.triangle_count() > 0,
            "chunk (0,1,0) of seed 42 holds the surface"
        );
        let density = wire::decode_density(&b).unwrap();
        assert_eq!(density.origin, [32, 32, 0]);
    }

    #[test]
    fn the_manifest_is_the_documented_one() {
        let caves = Caves::new("42", Some(r#"{"mode":"sheets"}"#), None).unwrap();
        let doc: Value = serde_json::from_str(&caves.manifest().unwrap()).unwrap();
        assert_eq!(doc["generator"], "caves");
        assert_eq!(doc["seed"], 42);
        assert_eq!(doc["params"]["mode"], "sheets");
        assert_eq!(doc["version"], mangekyo_caves::GENERATOR_VERSION);
        assert!(doc["spawn"].as_array().is_some_and(|s| s.len() == 3));
        // A pinned older version is that version's world, named as such.
        let old = Caves::new("42", None, Some(2)).unwrap();
        let doc: Value = serde_json::from_str(&old.manifest().unwrap()).unwrap();
        assert_eq!(doc["version"], 2);
    }

    #[test]
    fn bad_input_is_refused_by_name() {
        let err = Caves::new("1", Some(r#"{"amplitud": 3}"#), None).unwrap_err();
        assert!(err.contains("amplitud"), "{err}");
        let err = Caves::new("1", Some("{"), None).unwrap_err();
        assert!(err.starts_with("cave parameters"), "{err}");
        let err = Caves::new("1", None, Some(1)).unwrap_err();
        assert!(err.contains("`v`") && err.contains("2, 3"), "{err}");
        let mut caves = Caves::new("1", None, None).unwrap();
        let err = caves.chunk(0, 0, 0, None, Some("voxel")).unwrap_err();
        assert!(err.contains("mesher") && err.contains("voxel"), "{err}");
        let err = caves.chunk(0, 0, 0, Some("obj"), None).unwrap_err();
        assert!(err.contains("format"), "{err}");
        let err = caves.chunk(0, 1 << 21, 0, None, None).unwrap_err();
        assert!(err.contains("cy"), "{err}");
        assert_eq!(
            planet(None).unwrap().version(),
            mangekyo_planet::Version::DEFAULT,
            "no parameters: the default planet, as the service and the CLI make"
        );
        let planet = planet(Some(r#"{"generator_version": 1}"#)).unwrap();
        let err = planet_chunk(&planet, "mercator", 0, 0, 0, None, None)
            .err()
            .unwrap();
        assert!(err.contains("mercator"), "{err}");
        let err = planet_chunk(&planet, "cube", 0, 0, 0, Some("height,precipitation"), None)
            .err()
            .unwrap();
        assert!(err.contains("precipitation"), "{err}");
        let err = planet_chunk(&planet, "cube", 0, u32::MAX, 0, None, None)
            .err()
            .unwrap();
        assert!(err.contains("cx"), "{err}");
        let err = dungeon("maze", "1", None).unwrap_err();
        assert!(err.contains("kind"), "{err}");
        let err = island("1", Some("fr")).unwrap_err();
        assert!(err.contains("fr"), "{err}");
    }

    /// The service's `POST /v1/planets` reads the same table
    /// (`crates/server/tests/params_parity.rs`): one object, one planet.
    #[test]
    fn planets_are_read_as_the_service_reads_them() {
        let table = include_str!("../../planet/tests/params_json_cases.txt");
        let mut rows = 0;
        for line in table
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (verdict, json) = line.split_once('\t').unwrap();
            rows += 1;
            // Building a planet computes nothing yet (its tier waits for
            // the first chunk), so every row is cheap.
            let got = planet(Some(json));
            match verdict {
                "refuse" => assert!(got.is_err(), "{json} is refused"),
                "default" => assert_eq!(
                    got.unwrap_or_else(|e| panic!("{json}: {e}")).version(),
                    mangekyo_planet::Version::DEFAULT,
                    "{json}"
                ),
                name => assert_eq!(
                    got.unwrap_or_else(|e| panic!("{json}: {e}"))
                        .version()
                        .name(),
                    name,
                    "{json}"
                ),
            }
        }
        assert!(rows >= 20);
    }

    #[test]
    fn neighbouring_planet_chunks_share_their_edge() {
        let planet = planet(Some(
            r#"{"radius": 200000, "pixel_size": 50, "generator_version": 1}"#,
        ))
        .unwrap();
        let shared = Some("shared");
        let left = planet_chunk(&planet, "tangent_cube", 0, 4, 3, Some("height"), shared).unwrap();
        let right = planet_chunk(&planet, "tangent_cube", 0, 5, 3, Some("height"), shared).unwrap();
        assert_eq!(left.height.len(), 257 * 257);
        for j in 0..257 {
            assert_eq!(
                left.height[j * 257 + 256].to_bits(),
                right.height[j * 257].to_bits()
            );
        }
        let doc: Value = serde_json::from_str(&planet_chunk_json(&left).unwrap()).unwrap();
        assert_eq!(doc["projection"], "tangent_cube");
        let [cx, cy] = planet_locate(&planet, "equirectangular", 0, 10.0, 20.0).unwrap();
        let chunk =
            planet_chunk(&planet, "equirectangular", 0, cx, cy, Some("height"), None).unwrap();
        assert_eq!(chunk.address.cx, cx);
        // Without `edge`, the service's default: the same heights as its
        // exclusive chunk, not the shared one's.
        assert_eq!(chunk.height.len(), 256 * 256);
        assert_eq!(Edge::default(), Edge::Exclusive);
        let err = planet_chunk(&planet, "cube", 0, 0, 0, None, Some("257x")).unwrap_err();
        assert!(err.contains("edge"), "{err}");
        let err = planet_locate(&planet, "cube", 0, 91.0, 0.0).unwrap_err();
        assert!(err.contains("lat"), "{err}");
    }

    #[test]
    fn dungeons_and_islands_come_as_the_service_documents() {
        let doc: Value = serde_json::from_str(&dungeon("cavern", "8", None).unwrap()).unwrap();
        assert_eq!(doc["kind"], "cavern");
        assert!(doc["grid"].is_object());
        let doc: Value = serde_json::from_str(&island("7", Some("ja")).unwrap()).unwrap();
        assert!(doc.is_object());
    }
}
