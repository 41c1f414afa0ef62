//! Mangekyo's generators in the browser and Node: WebAssembly bindings.
//!
//! `scripts/build-wasm` compiles this crate for `wasm32-unknown-unknown`
//! with SIMD128 and runs `wasm-bindgen --target web` over it, giving an
//! npm-ready package (ES module, `.wasm`, TypeScript types) in
//! `target/wasm-pkg/`; its README is `crates/wasm/README.md`. The viewer's
//! chunk workers import it to generate caves with no server.
//!
//! The same bytes as native: every operation is a call into the generator
//! crates ([`api`]), whose outputs are pure functions of (parameters, seed,
//! coordinates) on every target; `scripts/cross-check` proves the golden
//! hashes under WebAssembly (scalar and SIMD128) and the browser test
//! `web/tests/static.test.mjs` compares worker chunks with the server's.
//!
//! ```js
//! import init, { CaveWorld } from 'mangekyo';
//! await init();
//! const mkcm = new CaveWorld('42').chunk(0, 1, 0); // the chunk's mesh, as /v1/caves/42/chunks/0/1/0
//! ```
#![deny(missing_docs)]

pub mod api;

use wasm_bindgen::prelude::*;

/// Every refusal crosses as a JavaScript `Error` carrying the message.
fn refused(message: api::Refusal) -> JsError {
    JsError::new(&message)
}

/// The generator versions compiled in, as a JSON object's text
/// (`{"caves":2,"planet":4,…}`): the `v` the service pins URLs with.
#[wasm_bindgen(js_name = generatorVersions)]
pub fn generator_versions() -> String {
    api::generator_versions().to_string()
}

/// A seamless world of voxel caves: 32³ chunks (density, meshes) and point
/// queries, the same bytes as the server and the CLI give.
#[wasm_bindgen]
#[derive(Debug)]
pub struct CaveWorld(api::Caves);

#[wasm_bindgen]
impl CaveWorld {
    /// The world of `seed` (digits are that number, other text is hashed)
    /// with `params`, the cave parameters as JSON text (`{"mode":"sheets"}`;
    /// absent: the defaults), made by caves generator `version` (the
    /// service's `v`; absent: the newest). Throws naming a parameter out
    /// of range or a version this build does not generate.
    #[wasm_bindgen(constructor)]
    pub fn new(
        seed: &str,
        params: Option<String>,
        version: Option<u32>,
    ) -> Result<CaveWorld, JsError> {
        api::Caves::new(seed, params.as_deref(), version)
            .map(CaveWorld)
            .map_err(refused)
    }

    /// The manifest (JSON text): chunk layers holding surfaces, the
    /// ceiling, a spawn point above a karst shaft.
    pub fn manifest(&self) -> Result<String, JsError> {
        self.0.manifest().map_err(refused)
    }

    /// Chunk `(cx, cy, cz)` (32³ voxels, y up) as bytes: `format` `"mesh"`
    /// (MKCM; the default), `"density"` (MKCD) or `"glb"`, `mesher`
    /// `"smooth"` (the default) or `"blocky"`. The same bytes as the
    /// service's chunk URL.
    pub fn chunk(
        &mut self,
        cx: i32,
        cy: i32,
        cz: i32,
        format: Option<String>,
        mesher: Option<String>,
    ) -> Result<Vec<u8>, JsError> {
        self.0
            .chunk(cx, cy, cz, format.as_deref(), mesher.as_deref())
            .map_err(refused)
    }

    /// The density at a point, voxels (trilinear; > 0 is rock).
    #[wasm_bindgen(js_name = densityAt)]
    pub fn density_at(&self, x: f64, y: f64, z: f64) -> f64 {
        self.0.density_at(x, y, z)
    }
}

/// A planet: one seeded function of the sphere, sampled into chunks.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Planet(mangekyo_planet::Planet);

#[wasm_bindgen]
impl Planet {
    /// A planet from its parameters as JSON text (`{"seed":7}`, read as
    /// the service's `POST /v1/planets` reads them: an object, a text seed
    /// hashed, without `generator_version` the newest version; absent: the
    /// default planet). Versions 3 and later compute their coarse tier on
    /// the first chunk (seconds; `"generator_version":1` has none).
    #[wasm_bindgen(constructor)]
    pub fn new(params: Option<String>) -> Result<Planet, JsError> {
        api::planet(params.as_deref()).map(Planet).map_err(refused)
    }

    /// The heights (metres above sea level) of chunk `(cx, cy)` at level
    /// `lod` of `projection` (`equirectangular`, `cube`, `tangent_cube`,
    /// `octahedral`), row-major: with `edge` `"exclusive"` (the default, as
    /// the service and the CLI) 256 × 256 samples, with `"shared"` 257 × 257
    /// whose last row and column are the neighbours' first, bit for bit.
    pub fn heights(
        &self,
        projection: &str,
        lod: u32,
        cx: u32,
        cy: u32,
        edge: Option<String>,
    ) -> Result<Vec<f32>, JsError> {
        api::planet_chunk(
            &self.0,
            projection,
            lod,
            cx,
            cy,
            Some("height"),
            edge.as_deref(),
        )
        .map(|c| c.height)
        .map_err(refused)
    }

    /// The chunk `[cx, cy]` of `projection` at `lod` that holds latitude
    /// `lat` and longitude `lon` (degrees).
    pub fn locate(
        &self,
        projection: &str,
        lod: u32,
        lat: f64,
        lon: f64,
    ) -> Result<Vec<u32>, JsError> {
        api::planet_locate(&self.0, projection, lod, lat, lon)
            .map(Vec::from)
            .map_err(refused)
    }

    /// The chunk's JSON text with `layers` (comma separated; absent: all
    /// of the planet's version) and `edge` (`"exclusive"`, the default, or
    /// `"shared"`), as the service's JSON chunks.
    pub fn chunk(
        &self,
        projection: &str,
        lod: u32,
        cx: u32,
        cy: u32,
        layers: Option<String>,
        edge: Option<String>,
    ) -> Result<String, JsError> {
        api::planet_chunk(
            &self.0,
            projection,
            lod,
            cx,
            cy,
            layers.as_deref(),
            edge.as_deref(),
        )
        .and_then(|c| api::planet_chunk_json(&c))
        .map_err(refused)
    }
}

/// A Hengband dungeon (`kind`: `room`, `cavern`, `lake` or `level`) of
/// `seed` with `params` as JSON text, as JSON text: generator, version,
/// kind, seed, parameters and the grid.
#[wasm_bindgen]
pub fn dungeon(kind: &str, seed: &str, params: Option<String>) -> Result<String, JsError> {
    api::dungeon(kind, seed, params.as_deref()).map_err(refused)
}

/// The example world's island of `seed` as JSON text, names in `lang`
/// (`en`, the default, or `ja`).
#[wasm_bindgen]
pub fn island(seed: &str, lang: Option<String>) -> Result<String, JsError> {
    api::island(seed, lang.as_deref()).map_err(refused)
}
