//! Some of a tournament's bots (`--bots a,b,c`, `--exclude x`): a run of only those, or the
//! standings of only the games among them. A run's selection is part of its tournament (the
//! journal's bot list), so a resume must name the same; a game's seed depends only on its own
//! bots, so the games of a selection are the same games in any larger tournament, which is
//! what `--reuse` needs.

/// Which bots to keep: those named in `only` (all if it is empty), less those in `exclude`.
/// Each holds the arguments as given: comma-separated names, or one name that holds a comma.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// The bots to keep; empty: all.
    pub only: Vec<String>,
    /// The bots to leave out.
    pub exclude: Vec<String>,
}

/// The names `arguments` give among `names`: an argument that is a name (spaces around it
/// trimmed, as a tournament file's names are) is that name, even with a comma in it; any
/// other is a comma-separated list of names.
fn named<'a>(arguments: &'a [String], names: &[String]) -> Vec<&'a str> {
    let is_name = |word: &str| names.iter().any(|name| name == word);
    arguments
        .iter()
        .flat_map(|argument| match argument.trim() {
            whole if is_name(whole) => vec![whole],
            list => list.split(',').map(str::trim).collect(),
        })
        .collect()
}

impl Selection {
    /// Whether it keeps every bot.
    pub fn is_all(&self) -> bool {
        self.only.is_empty() && self.exclude.is_empty()
    }

    /// The positions in `names` of the bots kept, in their order; an error names every bot
    /// given that is not among `names`.
    pub fn apply(&self, names: &[String]) -> Result<Vec<usize>, String> {
        let only = named(&self.only, names);
        let exclude = named(&self.exclude, names);
        let mut unknown: Vec<&str> = Vec::new();
        for &word in only.iter().chain(&exclude) {
            if !names.iter().any(|name| name == word) && !unknown.contains(&word) {
                unknown.push(word);
            }
        }
        if !unknown.is_empty() {
            return Err(unknown_bots(&unknown, names));
        }
        Ok((0..names.len())
            .filter(|&i| only.is_empty() || only.contains(&names[i].as_str()))
            .filter(|&i| !exclude.contains(&names[i].as_str()))
            .collect())
    }

    /// The selection as command-line words for a POSIX shell, as given, each argument
    /// quoted where it needs it: for the command that resumes a run.
    pub fn words(&self) -> Vec<String> {
        use crate::text::shell_word;
        let only = (self.only.iter()).map(|word| format!("--bots {}", shell_word(word)));
        let exclude = (self.exclude.iter()).map(|word| format!("--exclude {}", shell_word(word)));
        only.chain(exclude).collect()
    }
}

/// The error of the `unknown` names among the bots `names`, with the name each was
/// probably meant to be.
fn unknown_bots(unknown: &[&str], names: &[String]) -> String {
    let shown: Vec<String> = (unknown.iter())
        .map(|word| format!("`{}`", crate::text::escape_control(word)))
        .collect();
    let meant: Vec<(&str, &str)> = (unknown.iter())
        .filter_map(|&word| {
            Some((
                word,
                crate::text::closest(word, names.iter().map(String::as_str))?,
            ))
        })
        .collect();
    let bots = names.join(", ");
    match (shown.as_slice(), meant.as_slice()) {
        ([one], [(_, name)]) => {
            format!("there is no bot {one} (the bots: {bots}); did you mean `{name}`?")
        }
        ([one], _) => format!("there is no bot {one} (the bots: {bots})"),
        (_, []) => format!("there are no bots {} (the bots: {bots})", shown.join(", ")),
        (_, meant) => {
            let guesses: Vec<String> = (meant.iter())
                .map(|(word, name)| format!("`{name}` for `{}`", crate::text::escape_control(word)))
                .collect();
            format!(
                "there are no bots {} (the bots: {bots}); did you mean {}?",
                shown.join(", "),
                guesses.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["a", "b", "c", "d"].map(String::from).to_vec()
    }

    #[test]
    fn keeps_the_named_less_the_excluded_in_list_order() {
        let all = Selection::default();
        assert!(all.is_all());
        assert_eq!(all.apply(&names()), Ok(vec![0, 1, 2, 3]));
        let some = Selection {
            only: vec!["d,b".into(), "a".into()],
            exclude: vec!["b".into()],
        };
        assert_eq!(some.apply(&names()), Ok(vec![0, 3]));
        assert_eq!(some.words(), ["--bots 'd,b'", "--bots a", "--exclude b"]);
    }

    #[test]
    fn a_name_with_a_comma_or_spaces_is_given_whole_and_lists_are_trimmed() {
        let names = ["=js, bot|x", "hunter", "grower"]
            .map(String::from)
            .to_vec();
        let some = Selection {
            only: vec!["hunter, grower".into(), " =js, bot|x".into()],
            exclude: Vec::new(),
        };
        assert_eq!(some.apply(&names), Ok(vec![0, 1, 2]));
        assert_eq!(
            some.words(),
            ["--bots 'hunter, grower'", "--bots ' =js, bot|x'"]
        );
        let wrong = Selection {
            only: vec!["hunter,\u{1b}[2J".into()],
            exclude: Vec::new(),
        };
        assert!(
            wrong
                .apply(&names)
                .unwrap_err()
                .starts_with("there is no bot `\\x1b[2J`")
        );
    }

    #[test]
    fn an_unknown_bot_is_an_error_that_lists_the_bots() {
        let typo = Selection {
            only: Vec::new(),
            exclude: vec!["e".into()],
        };
        assert_eq!(
            typo.apply(&names()),
            Err("there is no bot `e` (the bots: a, b, c, d)".to_owned())
        );
        let capital = Selection {
            only: vec!["Hunter".into()],
            exclude: Vec::new(),
        };
        let names = ["hunter".to_owned(), "grower".to_owned()];
        assert_eq!(
            capital.apply(&names),
            Err(
                "there is no bot `Hunter` (the bots: hunter, grower); did you mean `hunter`?"
                    .to_owned()
            )
        );
        // Every unknown name at once, each once.
        let several = Selection {
            only: vec!["grower,nosuch,hunterr".into()],
            exclude: vec!["nosuch".into()],
        };
        assert_eq!(
            several.apply(&names),
            Err(
                "there are no bots `nosuch`, `hunterr` (the bots: hunter, grower); did you \
                 mean `hunter` for `hunterr`?"
                    .to_owned()
            )
        );
    }
}
