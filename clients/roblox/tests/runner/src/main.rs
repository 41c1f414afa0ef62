//! Runs a Luau file with Roblox-style `script.Parent.X` requires resolved
//! against one module directory (a throwaway checker for clients/roblox).
use mlua::{Lua, Table, Value};
fn main() -> mlua::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (dir, file) = (args[1].clone(), args[2].clone());
    let lua = Lua::new();
    let cache: Table = lua.create_table()?;
    let proxy_mt = lua.create_table()?;
    proxy_mt.set(
        "__index",
        lua.create_function(|lua, (_t, k): (Table, String)| {
            let t = lua.create_table()?;
            t.set("__module", k)?;
            Ok(t)
        })?,
    )?;
    let parent = lua.create_table()?;
    parent.set_metatable(Some(proxy_mt))?;
    let script = lua.create_table()?;
    script.set("Parent", parent)?;
    lua.globals().set("script", script)?;
    let d = dir.clone();
    let require = lua.create_function(move |lua, m: Table| {
        let name: String = m.get("__module")?;
        let cache: Table = lua.named_registry_value("cache")?;
        if let Value::Table(t) = cache.get::<Value>(name.as_str())? {
            return Ok(Value::Table(t));
        }
        let src =
            std::fs::read_to_string(format!("{d}/{name}.luau")).map_err(mlua::Error::external)?;
        let v: Value = lua.load(src).set_name(name.clone()).eval()?;
        cache.set(name.as_str(), v.clone())?;
        Ok(v)
    })?;
    lua.set_named_registry_value("cache", cache)?;
    lua.globals().set("require", require)?;
    // `readFixture("name")`: a file beside the spec, e.g. the request body
    // a Rust server test also reads (so both sides check the same bytes).
    let spec_dir = std::path::Path::new(&file)
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    let read_fixture = lua.create_function(move |_, name: String| {
        std::fs::read_to_string(spec_dir.join(&name)).map_err(mlua::Error::external)
    })?;
    lua.globals().set("readFixture", read_fixture)?;
    let src = std::fs::read_to_string(&file).map_err(mlua::Error::external)?;
    lua.load(src).set_name(file).exec()
}
