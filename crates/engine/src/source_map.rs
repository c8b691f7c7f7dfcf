//! Positions in a transformed source text mapped back to the text it was made from (a
//! TypeScript file compiled to JavaScript by the embedder): the decoded, plain-data form of
//! a source map's mappings for one file.
//!
//! The compiler maps every position it records (the line tables behind stack traces, the
//! function positions of `--dump-bytecode`) through the map of the source it compiles, so
//! code blocks hold original positions; the map itself rides the image with its source
//! text (`heap::source::Source`), so code compiled from that source after a restore maps the same way.

use serde::{Deserialize, Serialize};

/// One mapping: a generated position and the original position it came from. Lines are
/// 1-based, columns 1-based in UTF-16 code units (as stack traces count them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Mapping {
    pub generated_line: u32,
    pub generated_column: u32,
    pub original_line: u32,
    pub original_column: u32,
}

/// The mappings of one generated file, ascending by generated position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionMap {
    mappings: Vec<Mapping>,
}

impl PositionMap {
    /// A map from mappings in any order (duplicates of a generated position keep the first).
    pub fn new(mut mappings: Vec<Mapping>) -> PositionMap {
        mappings.sort_by_key(|m| (m.generated_line, m.generated_column));
        mappings.dedup_by_key(|m| (m.generated_line, m.generated_column));
        PositionMap { mappings }
    }

    /// The same map for generated text with `lines` more lines in front of it (a wrapper
    /// such as CommonJS's function header on a line of its own).
    pub fn shifted(&self, lines: u32) -> PositionMap {
        let mappings = self
            .mappings
            .iter()
            .map(|m| Mapping { generated_line: m.generated_line.saturating_add(lines), ..*m })
            .collect();
        PositionMap { mappings }
    }

    pub fn mappings(&self) -> &[Mapping] {
        &self.mappings
    }

    /// The original position of generated (`line`, `column`): the nearest mapping at or
    /// before it on the same line; before a line's first mapping, that first mapping; on a
    /// line with none, the last mapping above it. An empty map maps nothing.
    pub fn original(&self, line: u32, column: u32) -> (u32, u32) {
        let i = self.mappings.partition_point(|m| (m.generated_line, m.generated_column) <= (line, column));
        let at = |k: usize| self.mappings.get(k).map(|m| (m.original_line, m.original_column));
        let before = i.checked_sub(1).and_then(|k| self.mappings.get(k));
        match before {
            Some(m) if m.generated_line == line => (m.original_line, m.original_column),
            _ => match self.mappings.get(i) {
                Some(next) if next.generated_line == line => (next.original_line, next.original_column),
                _ => before.map(|m| (m.original_line, m.original_column)).or_else(|| at(i)).unwrap_or((line, column)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(gl: u32, gc: u32, ol: u32, oc: u32) -> Mapping {
        Mapping { generated_line: gl, generated_column: gc, original_line: ol, original_column: oc }
    }

    #[test]
    fn maps_to_the_nearest_mapping_at_or_before() {
        let map = PositionMap::new(vec![m(2, 5, 9, 3), m(1, 1, 4, 1), m(2, 1, 8, 1)]);
        assert_eq!(map.original(1, 1), (4, 1));
        assert_eq!(map.original(1, 40), (4, 1));
        assert_eq!(map.original(2, 4), (8, 1));
        assert_eq!(map.original(2, 5), (9, 3));
        assert_eq!(map.original(2, 80), (9, 3));
    }

    #[test]
    fn lines_without_mappings_and_the_empty_map() {
        let map = PositionMap::new(vec![m(3, 7, 10, 2), m(5, 1, 20, 1)]);
        // Before the line's first mapping: that mapping.
        assert_eq!(map.original(3, 1), (10, 2));
        // A line with none: the last one above; above every mapping: the first.
        assert_eq!(map.original(4, 9), (10, 2));
        assert_eq!(map.original(1, 1), (10, 2));
        assert_eq!(PositionMap::default().original(6, 2), (6, 2));
    }

    #[test]
    fn shifted_moves_generated_lines_only() {
        let map = PositionMap::new(vec![m(1, 1, 4, 1)]).shifted(1);
        assert_eq!(map.original(2, 1), (4, 1));
        assert_eq!(map.mappings()[0], m(2, 1, 4, 1));
    }
}
