//! The tier's canonical little-endian blob: writing it, its hash, and
//! reading it back (a corrupt or foreign blob is refused, never half-read).

use super::{
    ClimateTier, CoarseTier, HydroFields, LAYOUT, LAYOUT_CLIMATE, LAYOUT_WATER, LakeRecord, MAGIC,
};
use crate::PlanetError;
use crate::atmosphere::fields::ClimateGrid;
use crate::ecology::{BANDS, BiomeTables, KNOTS};
use crate::hydro::rivers::Segment;
use crate::hydro::routing::NONE;
use crate::version::TierLayout;
use mangekyo_core::hash::fnv1a64;
use std::sync::Arc;

impl CoarseTier {
    /// The canonical blob: magic, layout, N, key, node count, then the
    /// height, uplift (f32) and plate (u16) arrays; with water (layout 2)
    /// the eroded heights (f32), receivers and lake ids (u32), the lakes
    /// and the river segments; all little-endian, and last an FNV-1a hash
    /// of everything before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let count = self.height.len();
        let mut out = Vec::with_capacity(32 + count * 22);
        let layout = layout_code(self.layout());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&layout.to_le_bytes());
        out.extend_from_slice(&self.n.to_le_bytes());
        out.extend_from_slice(&self.key.to_le_bytes());
        out.extend_from_slice(&(count as u64).to_le_bytes());
        for v in &self.height {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.uplift {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.plate {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if let Some(w) = &self.hydro {
            for v in &w.eroded {
                out.extend_from_slice(&v.to_le_bytes());
            }
            for v in w.receiver.iter().chain(&w.lake) {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&(w.lakes.len() as u32).to_le_bytes());
            for l in &w.lakes {
                for f in [l.level, l.area_km2, l.inflow] {
                    out.extend_from_slice(&f.to_le_bytes());
                }
                out.extend_from_slice(&l.outlet.to_le_bytes());
                out.extend_from_slice(&[u8::from(l.endorheic), 0, 0, 0]);
            }
            out.extend_from_slice(&(w.segments.len() as u32).to_le_bytes());
            for g in &w.segments {
                out.extend_from_slice(&g.from.to_le_bytes());
                out.extend_from_slice(&g.to.to_le_bytes());
                for f in [
                    g.z_from,
                    g.z_to,
                    g.discharge,
                    g.width,
                    g.depth,
                    g.area_km2,
                    g.main_stem_km,
                ] {
                    out.extend_from_slice(&f.to_le_bytes());
                }
                out.extend_from_slice(&[g.order, g.mouth, 0, 0]);
                out.extend_from_slice(&g.link.to_le_bytes());
            }
        }
        if let Some(c) = &self.climate {
            out.extend_from_slice(&c.grid.n.to_le_bytes());
            for v in c
                .grid
                .sea_temperature
                .iter()
                .chain(&c.grid.ln_precipitation)
            {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&c.wetland);
            out.resize(out.len().next_multiple_of(4), 0);
            for row in &c.tables.knots {
                for v in row {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
            for a in &c.tables.area {
                out.extend_from_slice(&a.to_le_bytes());
            }
        }
        let hash = fnv1a64(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// The blob's own hash (its last 8 bytes).
    pub fn hash(&self) -> u64 {
        let b = self.to_bytes();
        let mut last = [0u8; 8];
        last.copy_from_slice(&b[b.len() - 8..]);
        u64::from_le_bytes(last)
    }

    /// Reads a blob back, checking magic, layout, sizes and hash (a
    /// corrupt or foreign blob is refused, never half-read): the header,
    /// then one section per part its layout holds, then nothing.
    pub fn from_bytes(bytes: &[u8]) -> Result<CoarseTier, PlanetError> {
        if bytes.len() < 36 || bytes[..4] != MAGIC {
            return Err(bad("no MKT1 header"));
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let mut h = [0u8; 8];
        h.copy_from_slice(tail);
        if fnv1a64(body) != u64::from_le_bytes(h) {
            return Err(bad("hash mismatch"));
        }
        let mut r = Reader { body, at: 4 };
        let layout = r
            .u32()
            .and_then(layout_of_code)
            .ok_or_else(|| bad("another layout"))?;
        let n = r.u32().ok_or_else(|| bad("truncated"))?;
        let key = r.u64().ok_or_else(|| bad("truncated"))?;
        let count = r.u64().ok_or_else(|| bad("truncated"))? as usize;
        if count != 6 * (n as usize) * (n as usize) {
            return Err(sizes());
        }
        let height = r.f32s(count).ok_or_else(sizes)?;
        let uplift = r.f32s(count).ok_or_else(sizes)?;
        let plate = r.u16s(count).ok_or_else(sizes)?;
        let hydro = match layout {
            TierLayout::Water | TierLayout::Climate => Some(read_water(&mut r, count)?),
            TierLayout::None | TierLayout::Plates => None,
        };
        let climate = match layout {
            TierLayout::Climate => Some(read_climate(&mut r, n, count)?),
            _ => None,
        };
        if r.at != body.len() {
            return Err(sizes());
        }
        Ok(CoarseTier {
            n,
            key,
            height,
            uplift,
            plate,
            hydro,
            climate,
        })
    }
}

/// The blob's layout number of a tier layout: 1 plates, 2 water, 3
/// climate (`LAYOUT`, `LAYOUT_WATER`, `LAYOUT_CLIMATE`).
fn layout_code(layout: TierLayout) -> u32 {
    match layout {
        TierLayout::None | TierLayout::Plates => LAYOUT,
        TierLayout::Water => LAYOUT_WATER,
        TierLayout::Climate => LAYOUT_CLIMATE,
    }
}

fn layout_of_code(code: u32) -> Option<TierLayout> {
    [TierLayout::Plates, TierLayout::Water, TierLayout::Climate]
        .into_iter()
        .find(|&l| layout_code(l) == code)
}

fn bad(why: &str) -> PlanetError {
    PlanetError::address("blob", why.to_string(), "a coarse-tier blob of this build")
}

fn sizes() -> PlanetError {
    bad("sizes disagree")
}

/// The water section: eroded heights, receivers, lake ids, the lakes and
/// the river segments, every node index in range.
fn read_water(r: &mut Reader<'_>, count: usize) -> Result<HydroFields, PlanetError> {
    let eroded = r.f32s(count).ok_or_else(sizes)?;
    let receiver = r.u32s(count).ok_or_else(sizes)?;
    let lake = r.u32s(count).ok_or_else(sizes)?;
    let lakes_len = r.u32().ok_or_else(sizes)? as usize;
    let mut lakes = Vec::with_capacity(lakes_len.min(count));
    for _ in 0..lakes_len {
        let (level, area_km2, inflow) = (r.f32(), r.f32(), r.f32());
        let outlet = r.u32();
        let flags = r.u32();
        match (level, area_km2, inflow, outlet, flags) {
            (Some(level), Some(area_km2), Some(inflow), Some(outlet), Some(f)) => {
                lakes.push(LakeRecord {
                    level,
                    area_km2,
                    inflow,
                    outlet,
                    endorheic: f & 1 == 1,
                })
            }
            _ => return Err(sizes()),
        }
    }
    let segments_len = r.u32().ok_or_else(sizes)? as usize;
    let mut segments = Vec::with_capacity(segments_len.min(count));
    for _ in 0..segments_len {
        segments.push(r.segment().ok_or_else(sizes)?);
    }
    let nodes_ok = |v: &[u32], limit: usize| v.iter().all(|&k| k == NONE || (k as usize) < limit);
    if !nodes_ok(&receiver, count)
        || !nodes_ok(&lake, lakes.len())
        || segments
            .iter()
            .any(|s| s.from as usize >= count || s.to as usize >= count)
    {
        return Err(sizes());
    }
    Ok(HydroFields {
        eroded,
        receiver,
        lake,
        lakes,
        segments,
        field: Arc::default(),
        budget: None,
    })
}

/// The climate section: the climate grid, the wetland weights (padded to
/// 4 bytes) and the biome tables.
fn read_climate(r: &mut Reader<'_>, n: u32, count: usize) -> Result<ClimateTier, PlanetError> {
    let cn = r.u32().ok_or_else(sizes)?;
    if cn != crate::atmosphere::fields::climate_n(n) {
        return Err(sizes());
    }
    let cc = 6 * (cn as usize) * (cn as usize);
    let sea_temperature = r.f32s(cc).ok_or_else(sizes)?;
    let ln_precipitation = r.f32s(cc).ok_or_else(sizes)?;
    let wetland = r.bytes(count).ok_or_else(sizes)?;
    r.at = r.at.next_multiple_of(4);
    let mut knots = [[0f32; KNOTS]; BANDS];
    for row in &mut knots {
        for v in row.iter_mut() {
            *v = r.f32().ok_or_else(sizes)?;
        }
    }
    let mut area = [0u64; BANDS];
    for a in &mut area {
        *a = r.u64().ok_or_else(sizes)?;
    }
    Ok(ClimateTier {
        grid: ClimateGrid::from_parts(cn, sea_temperature, ln_precipitation),
        wetland,
        tables: BiomeTables { knots, area },
    })
}

/// Little-endian reads that answer `None` past the end.
struct Reader<'a> {
    body: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let b = self.body.get(self.at..self.at + N)?;
        self.at += N;
        b.try_into().ok()
    }
    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }
    fn f32(&mut self) -> Option<f32> {
        self.take().map(f32::from_le_bytes)
    }
    fn f32s(&mut self, n: usize) -> Option<Vec<f32>> {
        (0..n).map(|_| self.f32()).collect()
    }
    fn u32s(&mut self, n: usize) -> Option<Vec<u32>> {
        (0..n).map(|_| self.u32()).collect()
    }
    fn bytes(&mut self, n: usize) -> Option<Vec<u8>> {
        let b = self.body.get(self.at..self.at + n)?.to_vec();
        self.at += n;
        Some(b)
    }
    fn u16s(&mut self, n: usize) -> Option<Vec<u16>> {
        (0..n)
            .map(|_| self.take().map(u16::from_le_bytes))
            .collect()
    }
    fn segment(&mut self) -> Option<Segment> {
        let from = self.u32()?;
        let to = self.u32()?;
        let mut f = [0f32; 7];
        for v in &mut f {
            *v = self.f32()?;
        }
        let [order, mouth, _, _] = self.take::<4>()?;
        let link = self.u32()?;
        Some(Segment {
            from,
            to,
            z_from: f[0],
            z_to: f[1],
            discharge: f[2],
            width: f[3],
            depth: f[4],
            area_km2: f[5],
            main_stem_km: f[6],
            order,
            mouth,
            link,
        })
    }
}
