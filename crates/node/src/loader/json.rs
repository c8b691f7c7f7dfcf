//! A small JSON reader for `package.json`: object keys keep their order, which the
//! `"exports"` and `"imports"` conditions depend on (the first matching condition wins).

/// A parsed JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    /// Members in source order; a repeated key keeps its first position and last value.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string value, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }
}

/// Parses `text` (a leading byte-order mark is ignored); the error says where it failed.
pub fn parse(text: &str) -> Result<Json, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut p = Parser { s: text.as_bytes(), i: 0, depth: 0 };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.error("unexpected data after the JSON value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: u32,
}

/// Deeper nesting than this is refused rather than recursed into.
const MAX_DEPTH: u32 = 512;

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        format!("{what} at position {}", self.i)
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn literal(&mut self, word: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.error("unexpected token"))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.s.get(self.i) {
            None => Err(self.error("unexpected end of JSON input")),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::String),
            Some(b'[') => self.nested(|p| {
                let mut items = Vec::new();
                if p.eat(b']') {
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(p.value()?);
                    if p.eat(b']') {
                        return Ok(Json::Array(items));
                    }
                    if !p.eat(b',') {
                        return Err(p.error("expected ',' or ']'"));
                    }
                }
            }),
            Some(b'{') => self.nested(|p| {
                let mut members: Vec<(String, Json)> = Vec::new();
                if p.eat(b'}') {
                    return Ok(Json::Object(members));
                }
                loop {
                    p.ws();
                    if p.s.get(p.i) != Some(&b'"') {
                        return Err(p.error("expected a property name"));
                    }
                    let key = p.string()?;
                    if !p.eat(b':') {
                        return Err(p.error("expected ':'"));
                    }
                    let v = p.value()?;
                    match members.iter_mut().find(|(k, _)| *k == key) {
                        Some(m) => m.1 = v,
                        None => members.push((key, v)),
                    }
                    if p.eat(b'}') {
                        return Ok(Json::Object(members));
                    }
                    if !p.eat(b',') {
                        return Err(p.error("expected ',' or '}'"));
                    }
                }
            }),
            Some(_) => self.number(),
        }
    }

    fn nested(&mut self, f: impl FnOnce(&mut Self) -> Result<Json, String>) -> Result<Json, String> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        self.i += 1;
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.i;
        while self.i < self.s.len() && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
            self.i += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        match text.parse::<f64>() {
            Ok(n) if !text.is_empty() && !text.starts_with('+') && !text.starts_with('.') => Ok(Json::Number(n)),
            _ => {
                self.i = start;
                Err(self.error("unexpected token"))
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self.s.get(self.i..self.i + 4).ok_or_else(|| self.error("bad unicode escape"))?;
        let text = std::str::from_utf8(digits).map_err(|_| self.error("bad unicode escape"))?;
        let n = u32::from_str_radix(text, 16).map_err(|_| self.error("bad unicode escape"))?;
        self.i += 4;
        Ok(n)
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.i) else { return Err(self.error("unterminated string")) };
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|_| self.error("invalid UTF-8")),
                b'\\' => {
                    let Some(&e) = self.s.get(self.i) else { return Err(self.error("unterminated string")) };
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xd800..0xdc00).contains(&hi) && self.s[self.i..].starts_with(b"\\u") {
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xdc00..0xe000).contains(&lo) {
                                    0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                                } else {
                                    0xfffd
                                }
                            } else {
                                hi
                            };
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        _ => return Err(self.error("bad escape")),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c if c < 0x20 => return Err(self.error("control character in string")),
                c => out.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_member_order() {
        let v = parse(r#"{"z":1,"a":{"import":"./a.mjs","require":"./a.cjs"},"s":"\u00e9\n"}"#).unwrap_or(Json::Null);
        let Json::Object(m) = &v else { panic!("not an object") };
        assert_eq!(m.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(), ["z", "a", "s"]);
        assert_eq!(v.get("s").and_then(Json::as_str), Some("é\n"));
    }

    #[test]
    fn rejects_bad_input() {
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01x", "\"\\q\"", "nul", "1 2"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(10_000);
        assert!(parse(&deep).is_err());
    }
}
