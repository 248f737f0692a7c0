//! Bot names: what a name may hold, and that no two bots, nor a bot and a player built into
//! the game, share one. Apart, because a journal's recorded names are checked the same way.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::ops::Range;

use toml::Spanned;

use super::bot_entry::BotContext;
use super::raw::RawBot;
use super::validate::string_value;
use crate::text::{escape_control, is_unsafe, reading_of};

/// The most characters a bot name may have: room for any real name, and short enough for a
/// table column and for a folder name (each character becomes one byte of it, see
/// `folders`), far below the 255 bytes a file system allows.
pub const MAX_NAME_CHARS: usize = 64;

/// A bot's `name` as written, and where; or where and why it has none (missing, or not a
/// string).
pub(super) fn written_name(
    bot: &Spanned<RawBot>,
) -> Result<(String, Range<usize>), (Range<usize>, String)> {
    match &bot.get_ref().name {
        Some(name) => string_value(name).map(|text| (text, name.span())),
        None => Err((bot.span(), "missing field `name`".to_owned())),
    }
}

/// Why the name `written` cannot be this bot's: unsafe to show ([`bot_name_problem`]), taken by
/// a bot before it or by a player built into the game. `seen` holds the names before it, by
/// how they read ([`reading_of`]), and this one joins them.
pub(super) fn name_refusal(
    context: &BotContext<'_>,
    written: &str,
    seen: &mut BTreeMap<String, String>,
) -> Option<String> {
    let name = written.trim();
    if let Some(why) = bot_name_problem(written) {
        return Some(why);
    }
    match seen.entry(reading_of(name)) {
        Entry::Occupied(earlier) if earlier.get() == name => {
            Some(format!("duplicate bot name `{name}`"))
        }
        Entry::Occupied(earlier) => Some(format!(
            "bot name `{name}` reads as the earlier bot's `{}` but is written with other \
             Unicode characters (an accented letter as a letter and a combining accent, or the \
             reverse): two bots may not have names that read alike; rename one",
            earlier.get()
        )),
        Entry::Vacant(vacant) => {
            vacant.insert(name.to_owned());
            context
                .built_in_names
                .contains(&name)
                .then(|| format!("bot name `{name}` is taken by a player built into the game"))
        }
    }
}

/// Why `name` (as written, before trimming spaces) cannot name a bot, if it cannot: empty,
/// too long, or with a character that is unsafe on a terminal ([`is_unsafe`]; a newline
/// would also forge a line of a table or a log).
pub fn bot_name_problem(name: &str) -> Option<String> {
    let trimmed = name.trim();
    let length = trimmed.chars().count();
    if let Some(c) = name.chars().find(|&c| is_unsafe(c)) {
        Some(format!(
            "bot name `{}` contains the control or invisible character U+{:04X}; names are shown on \
             terminals and in tables, so they may not hold control characters, newlines, \
             bidirectional overrides or characters that show as nothing",
            escape_control(name),
            u32::from(c)
        ))
    } else if trimmed.is_empty() {
        Some("a bot's `name` must not be empty".to_owned())
    } else if length > MAX_NAME_CHARS {
        let start: String = trimmed.chars().take(16).collect();
        Some(format!(
            "bot name `{start}…` has {length} characters, more than the {MAX_NAME_CHARS} \
             allowed"
        ))
    } else {
        None
    }
}
