//! The coarse tier T1 of a version-2 planet at N = 408 (998,784 nodes):
//! plates, crust and heights on the whole sphere graph, on the current
//! rayon pool (`RAYON_NUM_THREADS=2` for the 2-core target of
//! ≤ 2 s). The blob hash is printed so a run on another machine can be
//! compared bit for bit.

use mangekyo_bench::criterion;
use mangekyo_core::noise::Level;
use mangekyo_planet::tier::CoarseTier;
use mangekyo_planet::{Planet, PlanetParams};
use std::time::Duration;

fn main() {
    let mut c = criterion();
    let planet = Planet::new(PlanetParams::default()).unwrap();
    let mut g = c.benchmark_group("planet_tier");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    g.bench_function("t1_n408", |b| {
        b.iter(|| CoarseTier::compute(&planet, Level::best()))
    });
    g.finish();
    let tier = CoarseTier::compute(&planet, Level::best());
    println!(
        "T1 N=408: {} nodes, blob {} bytes, hash {:016x}, {} threads",
        tier.height.len(),
        tier.to_bytes().len(),
        tier.hash(),
        rayon::current_num_threads()
    );
    c.final_summary();
}
