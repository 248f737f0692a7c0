//! Probes: prepared game positions sent to a bot by `arena check`, each with the game's own
//! judgement of the reply. Games build them from their engines' rendering and parsing, so the
//! bytes are exactly those of a tournament; this module is pure data, like the engines.

use std::fmt;

use crate::engine::{Input, Phase};

/// One request in a prepared position.
pub struct Probe {
    /// Which position: `setup`, `early`, `crowded`, `edge of board`, `end-game`, ...
    pub name: String,
    /// The request, exactly as a tournament sends it.
    pub input: Input,
    /// Which time limit applies.
    pub phase: Phase,
    /// The game's verdict on a reply.
    pub judge: Judge,
}

/// A game's verdict on a reply, for one probe.
pub type Judge = Box<dyn Fn(&[u8]) -> Verdict + Send + Sync>;

impl fmt::Debug for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Probe")
            .field("name", &self.name)
            .field("input", &self.input)
            .field("phase", &self.phase)
            .finish_non_exhaustive()
    }
}

/// What a game makes of a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It parsed and is legal here; what it means.
    Legal(String),
    /// It parsed (as the first string) but is not legal here (why: the second).
    Illegal(String, String),
    /// It does not parse; why.
    Unparsed(String),
}

impl Verdict {
    /// Whether the reply is usable as it is (no fallback).
    pub fn is_valid(&self) -> bool {
        matches!(self, Verdict::Legal(_))
    }
}

/// A game's probes, given the answers to those sent so far (a setup reply may choose how
/// the rest are framed, as Petri's `LOOP` does), and what to write to a persistent process
/// before closing it.
#[derive(Debug)]
pub struct Plan {
    /// Every probe, in order; the checker sends `probes[answers.len()]` next.
    pub probes: Vec<Probe>,
    /// The game's farewell to a persistent process.
    pub farewell: &'static [u8],
}

impl Plan {
    /// The plan of a game that starts its bots afresh every turn: one play-phase probe per
    /// prepared position (name, request, judgement), and no persistent process to bid
    /// farewell.
    pub fn one_shot<J>(positions: impl IntoIterator<Item = (String, Input, J)>) -> Plan
    where
        J: Fn(&[u8]) -> Verdict + Send + Sync + 'static,
    {
        let probes = positions
            .into_iter()
            .map(|(name, input, judge)| Probe {
                name,
                input,
                phase: Phase::Play,
                judge: Box::new(judge),
            })
            .collect();
        Plan {
            probes,
            farewell: b"",
        }
    }
}
