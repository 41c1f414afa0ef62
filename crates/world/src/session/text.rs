//! The game's own words, in English and Japanese. Location names come from
//! the definitions' localisation; everything else is here. Placeholders:
//! `{place}`, `{n}`, `{minutes}`, `{pct}`, `{time}`, `{count}`.

/// One language's strings.
#[derive(Debug)]
pub struct Words {
    /// Shown once at the start.
    pub intro: &'static str,
    /// Shown when a saved game continues: `{time}`, `{place}`.
    pub resumed: &'static str,
    /// The help text: `{commands}` lists the interactions the
    /// definitions give.
    pub help: &'static str,
    /// Which object: the command needs a number from `paths` or a name.
    pub which: &'static str,
    /// The command names nothing within reach: `{n}`.
    pub cannot: &'static str,
    /// Heading of a place: `{place}`, its type `{kind}`, `{pct}`.
    pub place: &'static str,
    /// Heading of a place named by its type alone (the only site of its
    /// type): `{place}`, `{pct}`; "Spring (Spring)" read like a stutter.
    pub place_alone: &'static str,
    /// Heading of the known paths.
    pub paths_header: &'static str,
    /// One known path: `{n}`, `{place}`, `{minutes}`, `{dir}` (compass).
    pub path_line: &'static str,
    /// Compass points from north, clockwise, in eighths.
    pub compass: [&'static str; 8],
    /// One known sea route: as `path_line`, and `{verbs}` (what can be
    /// done on it, from the definitions).
    pub path_line_sea: &'static str,
    /// Mark on a path whose destination was visited.
    pub visited_mark: &'static str,
    /// No path known yet.
    pub no_paths: &'static str,
    /// `{count}` paths still hidden.
    pub hidden: &'static str,
    /// One path still hidden.
    pub hidden_one: &'static str,
    /// Every path from here is known.
    pub all_known: &'static str,
    /// The clock: `{time}`.
    pub clock: &'static str,
    /// Day and time: `{day}`, `{hh}`, `{mm}`.
    pub time: &'static str,
    /// A path found: `{n}` (its number in `paths`), `{dir}`, `{place}`,
    /// `{minutes}`.
    pub found: &'static str,
    /// A sea route found: as `found`, and `{verbs}`.
    pub found_sea: &'static str,
    /// The place is now fully explored: `{place}`.
    pub fully: &'static str,
    /// A walk: `{place}`, `{minutes}`.
    pub walk: &'static str,
    /// First time here (appended to `walk`, with its own leading space
    /// where the language wants one).
    pub first_visit: &'static str,
    /// Refusal: no such path number: `{n}`.
    pub no_such_path: &'static str,
    /// Refusal: the path is not known yet.
    pub unknown_path: &'static str,
    /// Unknown command: `{n}` is the word.
    pub unknown_command: &'static str,
    /// The whole island is explored: `{count}` places, `{time}`.
    pub island_done: &'static str,
    /// Progress summary: `{n}` of `{count}` places fully explored.
    pub progress: &'static str,
    /// Saved to `{place}`.
    pub saved: &'static str,
    /// Farewell.
    pub bye: &'static str,
    /// Map legend: here.
    pub map_here: &'static str,
    /// Map legend: visited.
    pub map_visited: &'static str,
    /// Map legend: heard of (a path leads there).
    pub map_known: &'static str,
}

/// English.
pub const EN: Words = Words {
    intro: "{time} — You step ashore at {place}. Everything else on the island is unknown.\nType `help` for commands.",
    resumed: "{time} — You are back at {place}. Type `help` for commands.",
    help: "commands:\n  look (l)          where you are and the paths you know\n  paths (p)         the paths you know from here\n  map (m)           what you know of the island\n  time              the clock and your progress\n  save [FILE]       save the game\n  quit (q)          stop playing\nactions (a path's action takes its number from `paths`, or a place name):\n{commands}",
    which: "Which one? Add a number from `paths` or a place name.",
    cannot: "You cannot {n} here.",
    place: "{place} ({kind}) — explored {pct}%",
    place_alone: "{place} — explored {pct}%",
    paths_header: "Paths you know:",
    path_line: "  {n}. {dir} to {place} — {minutes} min",
    path_line_sea: "  {n}. {dir} to {place} by sea — {minutes} min (`{verbs} {n}`)",
    compass: [
        "north",
        "north-east",
        "east",
        "south-east",
        "south",
        "south-west",
        "west",
        "north-west",
    ],
    visited_mark: " (visited)",
    no_paths: "You know no path from here yet.",
    hidden: "{count} more paths are hidden here.",
    hidden_one: "One more path is hidden here.",
    all_known: "You know every path from here.",
    clock: "{time}",
    time: "Day {day}, {hh}:{mm}",
    found: "You find path {n}: {dir} to {place} ({minutes} min).",
    found_sea: "You find sea route {n}: {dir} to {place} by sea ({minutes} min, `{verbs} {n}`).",
    fully: "You have explored every corner of {place}.",
    walk: "You walk to {place} ({minutes} min).",
    first_visit: " You have never been here before.",
    no_such_path: "There is no path {n} here; `paths` lists them.",
    unknown_path: "You don't know a path from here to that place.",
    unknown_command: "Unknown command '{n}'. Type `help`.",
    island_done: "You have explored the whole island: {count} places, by {time}.",
    progress: "{n} of {count} places fully explored.",
    saved: "Saved to {place}.",
    bye: "You sit down by the path. Goodbye.",
    map_here: "you are here",
    map_visited: "visited",
    map_known: "heard of",
};

/// Japanese.
pub const JA: Words = Words {
    intro: "{time} — {place}に上陸した。島の他の場所はまだ分からない。\n`help` でコマンド一覧。",
    resumed: "{time} — {place}から旅を再開する。`help` でコマンド一覧。",
    help: "コマンド:\n  look (l)          現在地と知っている道\n  paths (p)         ここから知っている道\n  map (m)           分かっている島の地図\n  time              時刻と進み具合\n  save [FILE]       セーブする\n  quit (q)          終了\n行動（道の行動には `paths` の番号か地名を添える）:\n{commands}",
    which: "どれ？ `paths` の番号か地名を添えて。",
    cannot: "ここでは {n} できない。",
    place: "{place}（{kind}）— 探索 {pct}%",
    place_alone: "{place} — 探索 {pct}%",
    paths_header: "知っている道:",
    path_line: "  {n}. {dir}の{place}へ — {minutes}分",
    path_line_sea: "  {n}. 海路で{dir}の{place}へ — {minutes}分（`{verbs} {n}`）",
    compass: ["北", "北東", "東", "南東", "南", "南西", "西", "北西"],
    visited_mark: "（訪問済み）",
    no_paths: "ここから続く道はまだ知らない。",
    hidden: "ここにはまだ {count} 本の道が隠れている。",
    hidden_one: "ここにはまだ 1 本の道が隠れている。",
    all_known: "ここから続く道はすべて知っている。",
    clock: "{time}",
    time: "{day}日目 {hh}:{mm}",
    found: "道 {n} を見つけた：{dir}の{place}へ（{minutes}分）。",
    found_sea: "航路 {n} を見つけた：海路で{dir}の{place}へ（{minutes}分、`{verbs} {n}`）。",
    fully: "{place}の隅々まで探索した。",
    walk: "{place}へ歩いた（{minutes}分）。",
    first_visit: "初めて来た場所だ。",
    no_such_path: "ここに道 {n} はない。`paths` で一覧を見よう。",
    unknown_path: "ここからその場所への道はまだ知らない。",
    unknown_command: "知らないコマンド「{n}」。`help` を入力。",
    island_done: "島をすべて探索した：{count} か所、{time}。",
    progress: "{count} か所中 {n} か所を探索し尽くした。",
    saved: "{place} にセーブした。",
    bye: "道端に腰を下ろして休む。さようなら。",
    map_here: "現在地",
    map_visited: "訪問済み",
    map_known: "道を知っている",
};

/// The strings of `lang` (English for anything but `ja`).
pub fn words(lang: &str) -> &'static Words {
    if lang == "ja" { &JA } else { &EN }
}

/// Fills `{key}` placeholders.
pub fn fill(template: &str, pairs: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (k, v) in pairs {
        out = out.replace(&format!("{{{k}}}"), v);
    }
    out
}
