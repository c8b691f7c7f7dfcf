//! Test metadata: the YAML block between `/*---` and `---*/` (INTERPRETING.md, "Metadata").
//!
//! test262 uses a small, regular subset of YAML, and this parser accepts exactly that subset:
//!
//! - top-level `key: value` lines starting in column 0; `#` comment lines;
//! - plain or quoted scalars, with plain scalars allowed to continue on indented lines;
//! - block scalars `|` and `>` (with `-`/`+` chomping indicators) whose body is indented;
//! - flow lists `[a, b, c]` (which may wrap onto following lines);
//! - block lists (`key:` followed by indented `- item` lines);
//! - one-level mappings (`negative:` followed by indented `phase: …` / `type: …` lines).
//!
//! Keys other than the ones in [`Metadata`] (`esid`, `info`, `author`, `es5id`…) are parsed and
//! ignored. Anything outside the subset is an error naming the line, so a test that the parser
//! misreads fails loudly instead of silently running with the wrong flags.

use std::fmt;

/// The stage at which a negative test expects its error (INTERPRETING.md, "negative").
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// While parsing the source text or checking it for early errors.
    Parse,
    /// During module resolution (linking).
    Resolution,
    /// During evaluation.
    Runtime,
}

/// The `negative` attribute: the test must throw `error_type` at `phase`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Negative {
    pub phase: Phase,
    /// The name of the expected error's constructor, e.g. `SyntaxError`.
    #[serde(rename = "type")]
    pub error_type: String,
}

/// The `flags` attribute, one field per flag INTERPRETING.md defines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub only_strict: bool,
    pub no_strict: bool,
    pub module: bool,
    pub raw: bool,
    pub is_async: bool,
    pub generated: bool,
    pub can_block_is_false: bool,
    pub can_block_is_true: bool,
    pub non_deterministic: bool,
}

impl Flags {
    fn set(&mut self, flag: &str) -> Result<(), String> {
        let field = match flag {
            "onlyStrict" => &mut self.only_strict,
            "noStrict" => &mut self.no_strict,
            "module" => &mut self.module,
            "raw" => &mut self.raw,
            "async" => &mut self.is_async,
            "generated" => &mut self.generated,
            "CanBlockIsFalse" => &mut self.can_block_is_false,
            "CanBlockIsTrue" => &mut self.can_block_is_true,
            "non-deterministic" => &mut self.non_deterministic,
            other => return Err(format!("unknown flag `{other}`")),
        };
        *field = true;
        Ok(())
    }
}

/// What a test declares about itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    pub description: String,
    /// Harness files named by the test, in the order given (not including the implicit ones).
    pub includes: Vec<String>,
    pub flags: Flags,
    pub features: Vec<String>,
    pub negative: Option<Negative>,
    pub locale: Vec<String>,
}

/// Why a test's metadata could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontmatterError {
    /// 1-based line inside the metadata block (0 when the block itself is missing).
    pub line: usize,
    pub message: String,
}

impl fmt::Display for FrontmatterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "frontmatter: {}", self.message)
        } else {
            write!(f, "frontmatter line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for FrontmatterError {}

/// A parsed YAML value of the supported subset.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Yaml {
    Scalar(String),
    List(Vec<String>),
    Map(Vec<(String, String)>),
}

/// Returns the text between `/*---` and `---*/`, or `None` when the file has no metadata block.
pub fn extract(source: &str) -> Option<&str> {
    let start = source.find("/*---")? + "/*---".len();
    let len = source[start..].find("---*/")?;
    Some(&source[start..start + len])
}

/// Parses the metadata block of a test file.
pub fn parse_test(source: &str) -> Result<Metadata, FrontmatterError> {
    let block = extract(source)
        .ok_or_else(|| FrontmatterError { line: 0, message: "no /*--- ---*/ metadata block".to_string() })?;
    parse(block)
}

/// Parses the text of a metadata block (without the delimiters).
pub fn parse(block: &str) -> Result<Metadata, FrontmatterError> {
    let mut meta = Metadata::default();
    for (line, key, value) in parse_document(block)? {
        let err = |message: String| FrontmatterError { line, message };
        match key.as_str() {
            "description" => meta.description = expect_scalar(&key, value).map_err(err)?,
            "includes" => meta.includes = expect_list(&key, value).map_err(err)?,
            "features" => meta.features = expect_list(&key, value).map_err(err)?,
            "locale" => meta.locale = expect_list(&key, value).map_err(err)?,
            "flags" => {
                for flag in expect_list(&key, value).map_err(err)? {
                    meta.flags.set(&flag).map_err(err)?;
                }
            }
            "negative" => meta.negative = Some(parse_negative(value).map_err(err)?),
            _ => {}
        }
    }
    Ok(meta)
}

fn expect_scalar(key: &str, value: Yaml) -> Result<String, String> {
    match value {
        Yaml::Scalar(s) => Ok(s),
        _ => Err(format!("`{key}` must be a string")),
    }
}

fn expect_list(key: &str, value: Yaml) -> Result<Vec<String>, String> {
    match value {
        Yaml::List(items) => Ok(items),
        // `features: foo` is a one-element list written as a scalar; accept it.
        Yaml::Scalar(s) if !s.is_empty() => Ok(vec![s]),
        Yaml::Scalar(_) => Ok(Vec::new()),
        Yaml::Map(_) => Err(format!("`{key}` must be a list")),
    }
}

fn parse_negative(value: Yaml) -> Result<Negative, String> {
    let Yaml::Map(entries) = value else {
        return Err("`negative` must be a mapping with `phase` and `type`".to_string());
    };
    let mut phase = None;
    let mut error_type = None;
    for (k, v) in entries {
        match k.as_str() {
            "phase" => {
                phase = Some(match v.as_str() {
                    "parse" => Phase::Parse,
                    "resolution" => Phase::Resolution,
                    "runtime" => Phase::Runtime,
                    other => return Err(format!("unknown negative phase `{other}`")),
                })
            }
            "type" => error_type = Some(v),
            other => return Err(format!("unknown key `negative.{other}`")),
        }
    }
    match (phase, error_type) {
        (Some(phase), Some(error_type)) if !error_type.is_empty() => Ok(Negative { phase, error_type }),
        _ => Err("`negative` needs both `phase` and `type`".to_string()),
    }
}

/// Splits a block into `(line, key, value)` entries.
fn parse_document(block: &str) -> Result<Vec<(usize, String, Yaml)>, FrontmatterError> {
    // Some tests use CR line endings (the line-terminator tests).
    let block = block.replace("\r\n", "\n").replace('\r', "\n");
    // A document indented as a whole (` description: …`) is read as if it were not.
    let base = block
        .lines()
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map_or(0, |l| l.len() - l.trim_start_matches(' ').len());
    let lines: Vec<&str> = block
        .lines()
        .map(|l| {
            let indent = l.len() - l.trim_start_matches(' ').len();
            &l[indent.min(base)..]
        })
        .collect();
    let mut entries = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line_no = i + 1;
        let line = lines[i].trim_end();
        let err = |message: &str| FrontmatterError { line: line_no, message: message.to_string() };
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            i += 1;
            continue;
        }
        if line.starts_with([' ', '\t']) {
            return Err(err("indented line outside of a value"));
        }
        let Some((key, rest)) = split_key(line) else {
            return Err(err("expected `key: value`"));
        };
        let rest = rest.trim();
        i += 1;
        // The indented lines that belong to this key.
        let body_start = i;
        while i < lines.len() && (lines[i].trim().is_empty() || lines[i].starts_with([' ', '\t'])) {
            i += 1;
        }
        // Trailing blank lines belong to nobody.
        let mut body_end = i;
        while body_end > body_start && lines[body_end - 1].trim().is_empty() {
            body_end -= 1;
        }
        let body = &lines[body_start..body_end];
        let value = parse_value(rest, body).map_err(|m| err(&m))?;
        entries.push((line_no, key.to_string(), value));
    }
    Ok(entries)
}

/// Splits `key: rest` (or `key:`); keys are plain words.
fn split_key(line: &str) -> Option<(&str, &str)> {
    let colon = line.find(':')?;
    let key = &line[..colon];
    let after = &line[colon + 1..];
    let valid = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.');
    (valid && (after.is_empty() || after.starts_with([' ', '\t']))).then_some((key, after))
}

fn parse_value(rest: &str, body: &[&str]) -> Result<Yaml, String> {
    if let Some(indicator) = rest.strip_prefix(['|', '>']) {
        let folded = rest.starts_with('>');
        return Ok(Yaml::Scalar(block_scalar(folded, indicator.trim(), body)?));
    }
    if rest.starts_with('[') {
        let mut text = rest.to_string();
        for line in body {
            text.push(' ');
            text.push_str(line.trim());
        }
        return flow_list(&text).map(Yaml::List);
    }
    if !rest.is_empty() {
        let mut text = scalar(rest)?;
        // A plain scalar may continue on indented lines; they fold into one line.
        for line in body {
            if !line.trim().is_empty() {
                text.push(' ');
                text.push_str(line.trim());
            }
        }
        return Ok(Yaml::Scalar(text));
    }
    let items: Vec<&str> = body.iter().map(|l| l.trim()).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    if items.is_empty() {
        return Ok(Yaml::Scalar(String::new()));
    }
    if items.iter().all(|l| l.starts_with('-')) {
        return items.iter().map(|l| scalar(l[1..].trim())).collect::<Result<_, _>>().map(Yaml::List);
    }
    let mut map = Vec::new();
    for item in items {
        let (k, v) = split_key(item).ok_or_else(|| format!("expected `key: value`, got `{item}`"))?;
        map.push((k.to_string(), scalar(v.trim())?));
    }
    Ok(Yaml::Map(map))
}

/// A `|` or `>` block scalar: dedented by the first line's indentation.
fn block_scalar(folded: bool, indicator: &str, body: &[&str]) -> Result<String, String> {
    let chomp = match indicator {
        "" => Chomp::Clip,
        "-" => Chomp::Strip,
        "+" => Chomp::Keep,
        other => return Err(format!("unsupported block scalar indicator `{other}`")),
    };
    let indent = body.iter().find(|l| !l.trim().is_empty()).map_or(0, |l| l.len() - l.trim_start().len());
    let dedented: Vec<&str> =
        body.iter().map(|l| if l.len() >= indent { &l[indent..] } else { l.trim_start() }).collect();
    let mut text = if folded {
        // Lines of a paragraph join with a space; each blank line is one newline.
        let mut out = String::new();
        let mut in_paragraph = false;
        for line in &dedented {
            if line.is_empty() {
                out.push('\n');
                in_paragraph = false;
                continue;
            }
            if in_paragraph {
                out.push(if line.starts_with(' ') { '\n' } else { ' ' });
            }
            out.push_str(line);
            in_paragraph = true;
        }
        out
    } else {
        dedented.join("\n")
    };
    match chomp {
        Chomp::Strip => {}
        Chomp::Clip | Chomp::Keep if !text.is_empty() => text.push('\n'),
        Chomp::Clip | Chomp::Keep => {}
    }
    Ok(text)
}

enum Chomp {
    Clip,
    Strip,
    Keep,
}

/// `[a, b, "c"]` → items.
fn flow_list(text: &str) -> Result<Vec<String>, String> {
    let inner = text
        .trim()
        .strip_prefix('[')
        .and_then(|t| t.trim_end().strip_suffix(']'))
        .ok_or_else(|| format!("unterminated flow list `{text}`"))?;
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    inner.split(',').map(str::trim).filter(|s| !s.is_empty()).map(scalar).collect()
}

/// A plain, single-quoted or double-quoted scalar.
fn scalar(text: &str) -> Result<String, String> {
    let text = text.trim();
    if let Some(inner) = text.strip_prefix('\'') {
        let inner = inner.strip_suffix('\'').ok_or_else(|| format!("unterminated quoted string `{text}`"))?;
        return Ok(inner.replace("''", "'"));
    }
    if let Some(inner) = text.strip_prefix('"') {
        let inner = inner.strip_suffix('"').ok_or_else(|| format!("unterminated quoted string `{text}`"))?;
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        }
        return Ok(out);
    }
    // A plain scalar ends at ` #` (a comment).
    let plain = match text.find(" #") {
        Some(i) => &text[..i],
        None => text,
    };
    Ok(plain.trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typical_test() {
        let src = r#"// Copyright
/*---
esid: sec-array.prototype.at
description: >
  Property type and descriptor.
info: |
  Array.prototype.at( index )

    1. Let O be ? ToObject(this value).
includes: [propertyHelper.js, compareArray.js]
features: [Array.prototype.at]
flags: [onlyStrict, async]
---*/
assert.sameValue(1, 1);
"#;
        let m = parse_test(src).unwrap();
        assert_eq!(m.description, "Property type and descriptor.\n");
        assert_eq!(m.includes, ["propertyHelper.js", "compareArray.js"]);
        assert_eq!(m.features, ["Array.prototype.at"]);
        assert!(m.flags.only_strict && m.flags.is_async);
        assert!(!m.flags.raw && !m.flags.module && !m.flags.no_strict);
        assert_eq!(m.negative, None);
    }

    #[test]
    fn negative_block_and_block_lists() {
        let src = "/*---\ndescription: x\nnegative:\n  phase: parse\n  type: SyntaxError\nflags:\n  - noStrict\n  - CanBlockIsTrue\nfeatures:\n  - class\n  - decorators\n---*/";
        let m = parse_test(src).unwrap();
        assert_eq!(m.negative, Some(Negative { phase: Phase::Parse, error_type: "SyntaxError".into() }));
        assert!(m.flags.no_strict && m.flags.can_block_is_true);
        assert_eq!(m.features, ["class", "decorators"]);
    }

    #[test]
    fn every_phase_and_flag() {
        for (text, phase) in [("parse", Phase::Parse), ("resolution", Phase::Resolution), ("runtime", Phase::Runtime)] {
            let m = parse(&format!("negative:\n  phase: {text}\n  type: ReferenceError\n")).unwrap();
            assert_eq!(m.negative.unwrap().phase, phase);
        }
        let m = parse("flags: [onlyStrict, noStrict, module, raw, async, generated, CanBlockIsFalse, CanBlockIsTrue, non-deterministic]").unwrap();
        let f = m.flags;
        assert!(f.only_strict && f.no_strict && f.module && f.raw && f.is_async);
        assert!(f.generated && f.can_block_is_false && f.can_block_is_true && f.non_deterministic);
    }

    #[test]
    fn quoting_and_scalars() {
        let m = parse("description: '`name` property isn''t odd'\nlocale: [en, \"en-US\", ar]").unwrap();
        assert_eq!(m.description, "`name` property isn't odd");
        assert_eq!(m.locale, ["en", "en-US", "ar"]);
        let m = parse("description: \"a \\\"quoted\\\" word\"").unwrap();
        assert_eq!(m.description, "a \"quoted\" word");
        let m = parse("description: first line\n  continues here\n").unwrap();
        assert_eq!(m.description, "first line continues here");
        let m = parse("description: |-\n  kept\n\n  lines\n").unwrap();
        assert_eq!(m.description, "kept\n\nlines");
        let m = parse("description: >\n  folded\n  text\n\n  para\n").unwrap();
        assert_eq!(m.description, "folded text\npara\n");
    }

    #[test]
    fn wrapped_flow_list_comments_and_empty() {
        let m = parse("# a comment\nfeatures: [a,\n  b, c]\nincludes: []\n").unwrap();
        assert_eq!(m.features, ["a", "b", "c"]);
        assert!(m.includes.is_empty());
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("description: x\nflags: [bogus]\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("bogus"));
        let e = parse("negative:\n  phase: later\n  type: X\n").unwrap_err();
        assert!(e.message.contains("later"));
        let e = parse("negative:\n  phase: parse\n").unwrap_err();
        assert!(e.message.contains("both"));
        assert!(parse("features: [a, b\n").is_err());
        assert!(parse_test("no metadata here").is_err());
        assert!(parse("just some text\n").is_err());
    }

    #[test]
    fn cr_line_endings_and_indented_documents() {
        let m = parse("\rdescription: cr\rflags: [raw]\rincludes:\r  - a.js\r").unwrap();
        assert_eq!(m.description, "cr");
        assert!(m.flags.raw);
        assert_eq!(m.includes, ["a.js"]);
        let m = parse("\n description: >\n    folded\n    text\n flags: [noStrict]\n").unwrap();
        assert_eq!(m.description, "folded text\n");
        assert!(m.flags.no_strict);
    }

    #[test]
    fn extract_finds_the_block() {
        assert_eq!(extract("x /*---a: b---*/ y"), Some("a: b"));
        assert_eq!(extract("/*--- unterminated"), None);
    }
}
