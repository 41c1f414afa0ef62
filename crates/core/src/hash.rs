//! Integer hashing: the only source of "randomness" inside the noise kernels.
//!
//! Everything here is a pure function of its integer inputs, so a lattice
//! cell hashes to the same value on every machine. There are no permutation
//! tables: a 256-entry table repeats every 256 cells, which an Earth-sized
//! planet sampled at 1.5 m crosses millions of times.

/// The SplitMix64 finaliser (Steele, Lea and Flood): a bijection on `u64`
/// with full avalanche. Used to derive seeds and streams.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The MurmurHash3 32-bit finaliser: a bijection on `u32` with good
/// avalanche, cheap in SIMD (two 32-bit multiplies).
#[inline]
pub const fn fmix32(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// FNV-1a over bytes, 64-bit. Stable by definition; used to turn names
/// (random-stream purposes, text seeds) into numbers.
pub const fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    h
}

/// Odd multipliers that tell the axes apart in [`axis_hash`], so cell
/// (a, b) and cell (b, a) hash differently.
pub const AXIS_PRIMES: [u32; 3] = [0x9e37_79b1, 0x85eb_ca77, 0xc2b2_ae3d];
/// Multiplier folding the high half of a 64-bit lattice coordinate in.
pub const HIGH_PRIME: u32 = 0x27d4_eb2f;

/// The per-axis part of a lattice cell's hash: `(lo + hi·HIGH_PRIME)·P_axis`
/// over the two 32-bit halves of the i64 cell.
///
/// Both halves take part, so cells 2^32 apart differ; for a fixed high half
/// the map is a bijection of the low half, so neighbouring cells never
/// collide. It is deliberately linear (the next cell's value is this one
/// plus a constant, which the kernels exploit); the non-linear mixing
/// happens once per corner in [`combine2`] / [`combine3`], which XOR the
/// axes together with the seed and apply [`fmix32`]. XOR and the modular
/// products do not commute, so the result has no lattice period.
///
/// The limit of a 32-bit lane: along one axis the fold is injective over
/// any run of [`AXIS_HASH_RUN`] = 2³² − `HIGH_PRIME` ≈ 3.6·10⁹ consecutive
/// cells, and cells exactly that far apart can share their axis part. An
/// Earth-sized planet sampled at 1.5 m spans about 2.7·10⁷ cells at its
/// finest octave, 130 times less; the caves and islands far less still.
/// Making this a full 64-bit hash would halve the lanes of every kernel.
#[inline]
pub const fn axis_hash(cell: i64, axis: usize) -> u32 {
    let lo = cell as u32;
    let hi = (cell >> 32) as u32;
    lo.wrapping_add(hi.wrapping_mul(HIGH_PRIME))
        .wrapping_mul(AXIS_PRIMES[axis])
}

/// The longest run of consecutive cells along one axis whose
/// [`axis_hash`]es are all distinct (see there).
pub const AXIS_HASH_RUN: i64 = (1i64 << 32) - HIGH_PRIME as i64;

/// The hash of a 2D lattice cell from its axis parts and a kernel seed.
#[inline]
pub const fn combine2(hx: u32, hy: u32, seed: u32) -> u32 {
    fmix32(hx ^ hy ^ seed)
}

/// The hash of a 3D lattice cell from its axis parts and a kernel seed.
#[inline]
pub const fn combine3(hx: u32, hy: u32, hz: u32, seed: u32) -> u32 {
    fmix32(hx ^ hy ^ hz ^ seed)
}

/// Odd multipliers of lattice hash 2's per-axis mix ([`axis_hash2`]): the
/// axes of hash 1, so (a, b) and (b, a) still hash apart.
pub const AXIS_PRIMES2: [u32; 3] = AXIS_PRIMES;
/// Multiplier folding a cell's 2³²-block index into its low half in
/// [`axis_hash2`].
pub const BLOCK_PRIME2: u32 = 0x2c1b_3c6d;
/// Lattice hash 2's one multiply per corner ([`finish2`]): FastNoise2's.
pub const CORNER_PRIME2: u32 = 0x27d4_eb2d;

/// The 32-bit word lattice hash 2 mixes for an i64 cell: the cell itself
/// when it fits in an i32 (the fast path the kernels take), otherwise its
/// low half XOR its block index `t = ⌊(cell + 2³¹) / 2³²⌋` times an odd
/// constant. `t` is `hi + lo>>31`, which is 0 exactly for i32 cells, so the
/// two routes agree where both apply. No translation maps every cell of a
/// region onto cells with the same word: by a multiple of 2³² the low
/// halves match but the block terms differ (an odd multiply is a
/// bijection), by anything else `lo ^ (lo + d)` varies with `lo`.
#[inline]
pub const fn fold2(cell: i64) -> u32 {
    let lo = cell as u32;
    let hi = (cell >> 32) as u32;
    lo ^ hi.wrapping_add(lo >> 31).wrapping_mul(BLOCK_PRIME2)
}

/// The per-axis part of lattice hash 2: MurmurHash3's first half
/// (`x ^= x >> 16; x *= P; x ^= x >> 13`) over [`fold2`]. Unlike hash 1's
/// linear [`axis_hash`] it is non-linear per axis, which is what lets the
/// per-corner step be one multiply ([`finish2`]) and still avalanche: a
/// flipped cell bit passes two multiplies, one here and one at the corner.
/// The grid fills compute it once per row and column, so most samples pay
/// only the corner's multiply.
#[inline]
pub const fn axis_hash2(cell: i64, axis: usize) -> u32 {
    mix_axis2(fold2(cell), axis)
}

/// [`axis_hash2`] after the fold.
#[inline]
pub const fn mix_axis2(word: u32, axis: usize) -> u32 {
    let v = (word ^ (word >> 16)).wrapping_mul(AXIS_PRIMES2[axis]);
    v ^ (v >> 13)
}

/// Lattice hash 2's corner step: one multiply and a fold of the high half
/// down, over the XOR of the axis parts and the seed.
#[inline]
pub const fn finish2(v: u32) -> u32 {
    let h = v.wrapping_mul(CORNER_PRIME2);
    h ^ (h >> 16)
}

/// The hash 2 of a 2D lattice cell from its axis parts and a kernel seed.
#[inline]
pub const fn combine2_v2(hx: u32, hy: u32, seed: u32) -> u32 {
    finish2(hx ^ hy ^ seed)
}

/// The hash 2 of a 3D lattice cell from its axis parts and a kernel seed.
#[inline]
pub const fn combine3_v2(hx: u32, hy: u32, hz: u32, seed: u32) -> u32 {
    finish2(hx ^ hy ^ hz ^ seed)
}

/// Derives the 32-bit seed a noise kernel uses from a 64-bit world seed and
/// a small salt (the octave index, a layer's offset, …).
#[inline]
pub const fn kernel_seed(seed: u64, salt: u64) -> u32 {
    (mix64(seed ^ mix64(salt.wrapping_add(0x6a09_e667_f3bc_c909))) >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_published_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn axis_hash_tells_far_cells_apart() {
        // Cells exactly 2^32 apart share their low half.
        let a = axis_hash(5, 0);
        let b = axis_hash(5 + (1 << 32), 0);
        assert_ne!(a, b);
        assert_ne!(axis_hash(-1, 0), axis_hash(i64::MAX, 0));
    }

    #[test]
    fn the_axis_run_is_exactly_as_documented() {
        // Distinct over the run (the fold is lo + hi·K: two cells in one
        // high block never meet, cells in adjacent blocks meet only at
        // distance 2^32 − K) and meeting exactly at its end.
        let k = i64::from(HIGH_PRIME);
        for c in [k, k + 1, (1 << 40) + k, -(1 << 33) + k + 7] {
            assert_eq!(axis_hash(c, 0), axis_hash(c + AXIS_HASH_RUN, 0), "{c}");
            for d in [1, 2, 1 << 20, 1 << 31, AXIS_HASH_RUN - 1, AXIS_HASH_RUN + 1] {
                assert_ne!(axis_hash(c, 0), axis_hash(c + d, 0), "{c} + {d}");
            }
        }
        // Far beyond an Earth at 1.5 m (2πR / 1.5 ≈ 2.67e7 cells).
        const { assert!(AXIS_HASH_RUN > 100 * 26_700_000) };
    }

    #[test]
    fn neighbouring_cells_never_collide_in_a_long_run() {
        // Locally injective: 2^16 consecutive cells at a planet-scale offset.
        let mut seen: Vec<u32> = (0..65_536i64)
            .map(|i| combine2(axis_hash(4_250_000_000 + i, 0), 0, 99))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 65_536);
    }
}
