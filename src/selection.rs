//! Some of a tournament's bots (`--bots a,b,c`, `--exclude x`): a run of only those, or the
//! standings of only the games among them. A run's selection is part of its tournament (the
//! journal's bot list), so a resume must name the same; a game's seed depends only on its own
//! bots, so the games of a selection are the same games in any larger tournament, which is
//! what `--reuse` needs.

/// Which bots to keep: those named in `only` (all if it is empty), less those in `exclude`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// The bots to keep; empty: all.
    pub only: Vec<String>,
    /// The bots to leave out.
    pub exclude: Vec<String>,
}

impl Selection {
    /// Whether it keeps every bot.
    pub fn is_all(&self) -> bool {
        self.only.is_empty() && self.exclude.is_empty()
    }

    /// The positions in `names` of the bots kept, in their order; an error names a bot that
    /// is not among `names`.
    pub fn apply(&self, names: &[String]) -> Result<Vec<usize>, String> {
        if let Some(unknown) = self
            .only
            .iter()
            .chain(&self.exclude)
            .find(|name| !names.contains(name))
        {
            return Err(format!(
                "there is no bot `{}` (the bots: {})",
                unknown.escape_debug(),
                names.join(", ")
            ));
        }
        Ok((0..names.len())
            .filter(|&i| self.only.is_empty() || self.only.contains(&names[i]))
            .filter(|&i| !self.exclude.contains(&names[i]))
            .collect())
    }

    /// The selection as command-line words, for the command that resumes a run.
    pub fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        if !self.only.is_empty() {
            words.push(format!("--bots {}", self.only.join(",")));
        }
        if !self.exclude.is_empty() {
            words.push(format!("--exclude {}", self.exclude.join(",")));
        }
        words
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
            only: vec!["d".into(), "b".into(), "a".into()],
            exclude: vec!["b".into()],
        };
        assert_eq!(some.apply(&names()), Ok(vec![0, 3]));
        assert_eq!(some.words(), ["--bots d,b,a", "--exclude b"]);
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
    }
}
