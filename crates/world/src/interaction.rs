//! Running an interaction from its definition (the guide's
//! `InteractionDef`, `minutesFor`, `ObjectRef.resolve` and `MoveEffect`).
//! Nothing here knows any interaction, object def or property by name:
//! what happens is whatever the definitions say.

use crate::object::{ObjectId, World, WorldError};
use mangekyo_defs::interact::{
    BinOp, ChangeMode, Condition, EffectDef, Expr, ID_PROPERTY, InteractionDef, ObjectRef, RefRoot,
    ValueRef,
};

/// Who is acting on what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context {
    /// The object the interaction belongs to (`self`).
    pub this: ObjectId,
    /// The character acting (`agent`).
    pub agent: ObjectId,
    /// The object a reveal is considering (`it`).
    pub it: Option<ObjectId>,
}

/// Why an interaction did not run; the world is unchanged.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum NotRun {
    /// A requirement does not hold: its index in `requires`.
    #[error("requirement {0} does not hold")]
    Requirement(usize),
    /// A reference or property failed at run time (loading rules this out
    /// for the shapes it can see; a world from other definitions can still
    /// get here).
    #[error(transparent)]
    World(#[from] WorldError),
    /// An object reference named an instance id that is not in the world.
    #[error("'{0}' names no object in the world")]
    Dangling(String),
}

/// What an interaction did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ran {
    /// Minutes the clock advanced.
    pub minutes: u32,
    /// Objects moved by reveals (the partners not included), in order.
    pub revealed: Vec<ObjectId>,
    /// Whether the interaction has a reveal effect.
    pub reveals: bool,
    /// Objects moved by move effects, with their destinations.
    pub moved: Vec<(ObjectId, ObjectId)>,
}

/// Resolves an object reference (the guide's `ObjectRef.resolve`): a
/// property hop reads an instance id and finds it below the holder's root
/// (`findRoot().findSelfOrDescendantByInstanceId`).
pub fn resolve(world: &World, ctx: &Context, r: &ObjectRef) -> Result<ObjectId, NotRun> {
    let mut at = match r.root {
        RefRoot::This => ctx.this,
        RefRoot::Agent => ctx.agent,
        RefRoot::Here => world
            .parent(ctx.agent)
            .map(|(p, _)| p)
            .ok_or_else(|| NotRun::Dangling(r.to_string()))?,
        RefRoot::World => world.root(),
        RefRoot::It => ctx.it.ok_or_else(|| NotRun::Dangling(r.to_string()))?,
    };
    for hop in &r.hops {
        let id = world.object_ref(at, hop)?;
        at = world
            .find_self_or_descendant(world.find_root(at), id)
            .ok_or_else(|| NotRun::Dangling(r.to_string()))?;
    }
    Ok(at)
}

/// A property's value (`id`: the instance id).
pub fn value(world: &World, ctx: &Context, v: &ValueRef) -> Result<f64, NotRun> {
    let obj = resolve(world, ctx, &v.object)?;
    if v.property == ID_PROPERTY {
        return Ok(f64::from(obj.0));
    }
    Ok(world.number(obj, &v.property)?)
}

/// Evaluates an expression.
pub fn eval(world: &World, ctx: &Context, e: &Expr) -> Result<f64, NotRun> {
    Ok(match e {
        Expr::Num(n) => *n,
        Expr::Clock => world.clock_minutes() as f64,
        Expr::Value(v) => value(world, ctx, v)?,
        Expr::Neg(x) => -eval(world, ctx, x)?,
        Expr::Bin(op, a, b) => {
            let (a, b) = (eval(world, ctx, a)?, eval(world, ctx, b)?);
            match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div if b == 0.0 => 0.0,
                BinOp::Div => a / b,
                BinOp::Min => a.min(b),
                BinOp::Max => a.max(b),
            }
        }
    })
}

/// Whether a condition holds.
pub fn holds(world: &World, ctx: &Context, c: &Condition) -> Result<bool, NotRun> {
    Ok(c.op.holds(eval(world, ctx, &c.left)?, eval(world, ctx, &c.right)?))
}

/// Minutes the interaction takes (the guide's `minutesFor`): its duration
/// rounded to whole minutes, never negative; 0 without a duration.
pub fn minutes_for(def: &InteractionDef, world: &World, ctx: &Context) -> Result<u32, NotRun> {
    match &def.duration {
        None => Ok(0),
        Some(e) => Ok(eval(world, ctx, e)?.round().clamp(0.0, f64::from(u32::MAX)) as u32),
    }
}

/// The index of the first requirement that does not hold, if any.
pub fn first_unmet(
    def: &InteractionDef,
    world: &World,
    ctx: &Context,
) -> Result<Option<usize>, NotRun> {
    for (i, r) in def.requires.iter().enumerate() {
        if !holds(world, ctx, &r.test)? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// Runs an interaction: requirements, then the duration, then the effects
/// in order, then the clock. On any failure the world is left as it was.
pub fn run(def: &InteractionDef, world: &mut World, ctx: &Context) -> Result<Ran, NotRun> {
    if let Some(i) = first_unmet(def, world, ctx)? {
        return Err(NotRun::Requirement(i));
    }
    let minutes = minutes_for(def, world, ctx)?;
    let mut scratch = world.clone();
    let mut ran = Ran {
        minutes,
        ..Ran::default()
    };
    for effect in &def.effects {
        apply(effect, &mut scratch, ctx, &mut ran)?;
    }
    scratch.advance_clock(u64::from(minutes));
    *world = scratch;
    Ok(ran)
}

fn apply(
    effect: &EffectDef,
    world: &mut World,
    ctx: &Context,
    ran: &mut Ran,
) -> Result<(), NotRun> {
    match effect {
        EffectDef::Change {
            target,
            mode,
            value,
        } => {
            let obj = resolve(world, ctx, &target.object)?;
            let amount = eval(world, ctx, value)?;
            let now = world.number(obj, &target.property)?;
            let (min, max) = world.range(obj, &target.property)?;
            let new = match mode {
                ChangeMode::Set => amount,
                ChangeMode::Add => now + amount,
            };
            // Clamped: a rest that would overfill stamina fills it.
            world.set_number(obj, &target.property, new.clamp(min, max))?;
        }
        EffectDef::Move { mover, to, slot } => {
            let m = resolve(world, ctx, mover)?;
            let dest = resolve(world, ctx, to)?;
            match slot {
                Some(s) => world.move_to_slot(m, dest, s)?,
                None => {
                    world.move_into_first_accepting_slot(m, dest)?;
                }
            }
            ran.moved.push((m, dest));
        }
        EffectDef::Reveal {
            from,
            to,
            when,
            partner,
        } => {
            ran.reveals = true;
            let due: Vec<ObjectId> = world
                .slot(ctx.this, from)
                .iter()
                .copied()
                .filter_map(|o| {
                    let c = Context {
                        it: Some(o),
                        ..*ctx
                    };
                    match holds(world, &c, when) {
                        Ok(true) => Some(Ok(o)),
                        Ok(false) => None,
                        Err(e) => Some(Err(e)),
                    }
                })
                .collect::<Result<_, _>>()?;
            for &o in &due {
                world.move_to_slot(o, ctx.this, to)?;
                if let Some(p) = partner {
                    let other = world.object_ref(o, p)?;
                    if let Some((holder, s)) = world.parent(other)
                        && s == from
                    {
                        world.move_to_slot(other, holder, to)?;
                    }
                }
            }
            ran.revealed.extend(due);
        }
    }
    Ok(())
}
