//! The coarse tier T1: version 2 at N = 408 (998,784 nodes: plates, crust
//! and heights on the whole sphere graph), and version 3 (with erosion,
//! drainage, lakes and rivers) at N = 129 (99,846 nodes) and N = 408, on the
//! current rayon pool (`RAYON_NUM_THREADS=2` for the 2-core targets: ≤ 2 s
//! for version 2; ≤ 1.5 s at 10⁵ and ≤ 15 s at 10⁶ for version 3). The blob
//! hashes are printed so a run on another machine can be compared bit for
//! bit. Version 4 adds the climate (two climate grids, the coupling with
//! erosion, wetlands and the biome tables) at both sizes.

use mangekyo_bench::criterion;
use mangekyo_core::noise::Level;
use mangekyo_planet::{Planet, PlanetParams, Version};
use std::time::Duration;

fn main() {
    let mut c = criterion();
    let at = |version: Version, n: u32| {
        Planet::new(PlanetParams {
            generator_version: version,
            graph_n: n,
            ..PlanetParams::default()
        })
        .unwrap()
    };
    let cases = [
        ("t1_n408", at(Version::V2, 408)),
        ("t1_water_n129", at(Version::V3, 129)),
        ("t1_water_n408", at(Version::V3, 408)),
        ("t1_climate_n129", at(Version::V4, 129)),
        ("t1_climate_n408", at(Version::V4, 408)),
        ("t1_next_n408", at(Version::Next, 408)),
    ];
    let mut g = c.benchmark_group("planet_tier");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    for (name, planet) in &cases {
        g.bench_function(*name, |b| {
            b.iter(|| planet.compute_tier(Level::best()).unwrap())
        });
    }
    g.finish();
    for (name, planet) in &cases {
        let tier = planet.compute_tier(Level::best()).unwrap();
        println!(
            "{name}: version {}, {} nodes, blob {} bytes, hash {:016x}, {} threads",
            planet.version(),
            tier.height.len(),
            tier.to_bytes().len(),
            tier.hash(),
            rayon::current_num_threads()
        );
    }
    c.final_summary();
}
