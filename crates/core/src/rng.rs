//! PCG32 (PCG-XSH-RR, 64-bit state, selectable stream) and the bounded
//! integers, floats and shuffles built on it.
//!
//! These helpers are ours on purpose: `rand`'s distributions have changed
//! their output between releases, and a Mangekyo world must not.

use crate::seed::Seed;

const MULTIPLIER: u64 = 6_364_136_223_846_793_005;

/// O'Neill's PCG32: 64-bit LCG state, 32-bit XSH-RR output, a selectable
/// stream. `Pcg32::new(initstate, initseq)` is exactly the reference
/// `pcg32_srandom_r`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pcg32 {
    state: u64,
    inc: u64,
}

impl Pcg32 {
    /// Seeds a generator as the reference `pcg32_srandom_r(initstate, initseq)`.
    pub fn new(initstate: u64, initseq: u64) -> Self {
        let mut rng = Pcg32 {
            state: 0,
            inc: (initseq << 1) | 1,
        };
        rng.step();
        rng.state = rng.state.wrapping_add(initstate);
        rng.step();
        rng
    }

    /// The independent stream of `seed` for one purpose (`"layout"`,
    /// `"names"`, `"play"`, …; see [`crate::seed::purpose`]).
    ///
    /// The purpose name is hashed with FNV-1a; state and stream are then
    /// `mix64(seed ^ p)` and `mix64(p + seed)` (SplitMix64 finaliser). Two
    /// purposes differ in both state and stream, so how many numbers one
    /// purpose draws never moves another's.
    pub fn for_purpose(seed: Seed, purpose: &str) -> Self {
        let p = crate::hash::fnv1a64(purpose.as_bytes());
        let s = seed.value();
        Pcg32::new(
            crate::hash::mix64(s ^ p),
            crate::hash::mix64(p.wrapping_add(s)),
        )
    }

    #[inline]
    fn step(&mut self) {
        self.state = self.state.wrapping_mul(MULTIPLIER).wrapping_add(self.inc);
    }

    /// The next 32 uniformly distributed bits (`pcg32_random_r`).
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.step();
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// 64 bits from two draws: the first draw is the high half.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let hi = self.next_u32() as u64;
        let lo = self.next_u32() as u64;
        (hi << 32) | lo
    }

    /// Uniform on `0..bound` without bias (`pcg32_boundedrand_r`: rejects
    /// draws below `2^32 mod bound`). `bound` 0 and 1 return 0 without
    /// drawing.
    pub fn bounded(&mut self, bound: u32) -> u32 {
        if bound <= 1 {
            return 0;
        }
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let r = self.next_u32();
            if r >= threshold {
                return r % bound;
            }
        }
    }

    /// Uniform on `0..bound` for 64-bit bounds, by rejection (the same rule
    /// as [`Pcg32::bounded`], on [`Pcg32::next_u64`]).
    pub fn bounded_u64(&mut self, bound: u64) -> u64 {
        if bound <= 1 {
            return 0;
        }
        if bound <= u32::MAX as u64 {
            return self.bounded(bound as u32) as u64;
        }
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let r = self.next_u64();
            if r >= threshold {
                return r % bound;
            }
        }
    }

    /// Uniform integer on the half-open range `lo..hi`, unbiased.
    ///
    /// # Panics
    /// If `hi <= lo`: an empty range has no value to give.
    pub fn next_int(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo < hi, "next_int: empty range {lo}..{hi}");
        let span = hi.wrapping_sub(lo) as u64;
        lo.wrapping_add(self.bounded_u64(span) as i64)
    }

    /// Uniform `f64` on `[0, 1)` with 53 random bits (two draws).
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform `f32` on `[0, 1)` with 24 random bits (one draw).
    #[inline]
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 * (1.0 / (1u32 << 24) as f32)
    }

    /// Uniform `f64` on `[lo, hi)`.
    #[inline]
    pub fn next_range_f64(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }

    /// `true` with probability `p` (one `f64`, two draws).
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        self.next_f64() < p
    }

    /// Fisher–Yates, from the last element down: element `i` swaps with
    /// `bounded(i + 1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.bounded_u64(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduces_the_reference_pcg32_demo() {
        // pcg32-demo: pcg32_srandom_r(&rng, 42u, 54u).
        let mut rng = Pcg32::new(42, 54);
        let got: Vec<u32> = (0..6).map(|_| rng.next_u32()).collect();
        assert_eq!(
            got,
            [
                0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e
            ]
        );
    }

    #[test]
    fn bounded_stays_in_range_and_hits_every_value() {
        let mut rng = Pcg32::new(1, 2);
        let mut hits = [0u32; 7];
        for _ in 0..7000 {
            hits[rng.bounded(7) as usize] += 1;
        }
        assert!(hits.iter().all(|&h| h > 850 && h < 1150), "{hits:?}");
        assert_eq!(rng.bounded(0), 0);
        assert_eq!(rng.bounded(1), 0);
    }

    #[test]
    fn next_int_is_half_open_and_handles_wide_ranges() {
        let mut rng = Pcg32::new(3, 4);
        for _ in 0..1000 {
            let v = rng.next_int(-3, 4);
            assert!((-3..4).contains(&v));
        }
        for _ in 0..100 {
            let v = rng.next_int(i64::MIN, i64::MAX);
            assert!(v < i64::MAX);
        }
    }

    #[test]
    fn floats_are_in_the_unit_interval() {
        let mut rng = Pcg32::new(5, 6);
        for _ in 0..10_000 {
            let f = rng.next_f64();
            assert!((0.0..1.0).contains(&f));
            let g = rng.next_f32();
            assert!((0.0..1.0).contains(&g));
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = Pcg32::new(7, 8);
        let mut v: Vec<u32> = (0..100).collect();
        rng.shuffle(&mut v);
        assert_ne!(v, (0..100).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn purposes_are_independent_streams() {
        let seed = Seed::new(42);
        let mut a = Pcg32::for_purpose(seed, "layout");
        let mut b = Pcg32::for_purpose(seed, "names");
        let xs: Vec<u32> = (0..64).map(|_| a.next_u32()).collect();
        let ys: Vec<u32> = (0..64).map(|_| b.next_u32()).collect();
        assert_ne!(xs, ys);
        // No shifted overlap either: b's first values do not appear in a's run.
        assert!(!xs.windows(4).any(|w| w == &ys[..4]));
        // Drawing from one stream leaves the other untouched.
        let mut b2 = Pcg32::for_purpose(seed, "names");
        let mut a2 = Pcg32::for_purpose(seed, "layout");
        for _ in 0..1000 {
            a2.next_u32();
        }
        let ys2: Vec<u32> = (0..64).map(|_| b2.next_u32()).collect();
        assert_eq!(ys, ys2);
    }

    #[test]
    fn golden_purpose_streams() {
        // Changing these moves every world: bump the generator versions.
        let mut l = Pcg32::for_purpose(Seed::new(42), "layout");
        let got: Vec<u32> = (0..3).map(|_| l.next_u32()).collect();
        assert_eq!(got, GOLDEN_LAYOUT_42);
    }

    const GOLDEN_LAYOUT_42: [u32; 3] = [440641613, 1250003715, 2003748487];
}
