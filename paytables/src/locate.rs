//! Finding the line of a value in a RON source, so that every error names
//! the file, the line and what is wrong. A path is a sequence of field
//! names and list indices (`reels[2][14]`); the scanner walks the source's
//! brackets, skipping strings and comments.

/// One step of a path into a RON document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    Field(&'static str),
    Index(usize),
}

/// A path, printable as `reels[2][14]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Path(pub Vec<Seg>);

impl Path {
    pub fn field(mut self, f: &'static str) -> Self {
        self.0.push(Seg::Field(f));
        self
    }
    pub fn index(mut self, i: usize) -> Self {
        self.0.push(Seg::Index(i));
        self
    }
}

impl std::fmt::Display for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            match s {
                Seg::Field(name) if i == 0 => write!(f, "{name}")?,
                Seg::Field(name) => write!(f, ".{name}")?,
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// Tokens of interest to the scanner.
fn skip_string(b: &[u8], mut i: usize) -> usize {
    // b[i] is the opening quote.
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

fn skip_trivia(b: &[u8], mut i: usize) -> usize {
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i + 1 < b.len() && b[i] == b'/' && b[i + 1] == b'/' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if i + 1 < b.len() && b[i] == b'/' && b[i + 1] == b'*' {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else {
            return i.min(b.len());
        }
    }
}

/// The end of the value starting at `i` (exclusive).
fn skip_value(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = skip_string(b, i);
                if depth == 0 {
                    return i;
                }
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                if depth == 0 {
                    return i;
                }
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b',' if depth == 0 => return i,
            b'/' if i + 1 < b.len() && (b[i + 1] == b'/' || b[i + 1] == b'*') => {
                i = skip_trivia(b, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// Position of the first element inside the container starting at `i`
/// (after an optional struct/enum name such as `Some(` or `ReelPaytable(`).
fn enter(b: &[u8], mut i: usize) -> Option<usize> {
    i = skip_trivia(b, i);
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    i = skip_trivia(b, i);
    if i < b.len() && matches!(b[i], b'(' | b'[' | b'{') { Some(skip_trivia(b, i + 1)) } else { None }
}

/// The byte offset of the value at `path`, or the deepest prefix found.
pub fn offset(src: &str, path: &Path) -> usize {
    let b = src.as_bytes();
    let mut at = skip_trivia(b, 0);
    for seg in &path.0 {
        // A field of a struct inside `Some((...))`: step into the Some first.
        if matches!(seg, Seg::Field(_))
            && src[at..].trim_start().starts_with("Some")
            && let Some(inner) = enter(b, at)
        {
            at = inner;
        }
        let Some(mut i) = enter(b, at) else { return at };
        match seg {
            Seg::Field(name) => {
                let mut found = None;
                while i < b.len() && !matches!(b[i], b')' | b']' | b'}') {
                    let start = i;
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                    let key = &src[start..i];
                    i = skip_trivia(b, i);
                    if i < b.len() && b[i] == b':' {
                        i = skip_trivia(b, i + 1);
                        if key == *name {
                            found = Some(i);
                            break;
                        }
                    } else {
                        i = start;
                    }
                    i = skip_value(b, i);
                    i = skip_trivia(b, i);
                    if i < b.len() && b[i] == b',' {
                        i = skip_trivia(b, i + 1);
                    }
                    if i == start {
                        break;
                    }
                }
                match found {
                    Some(v) => at = v,
                    None => return at,
                }
            }
            Seg::Index(n) => {
                // `Some([...])`: step into the Some first.
                if src[at..].trim_start().starts_with("Some")
                    && let Some(inner) = enter(b, at)
                {
                    at = inner;
                    let Some(j) = enter(b, at) else { return at };
                    i = j;
                }
                for _ in 0..*n {
                    let start = i;
                    i = skip_value(b, i);
                    i = skip_trivia(b, i);
                    if i < b.len() && b[i] == b',' {
                        i = skip_trivia(b, i + 1);
                    }
                    if i == start || i >= b.len() || matches!(b[i], b')' | b']' | b'}') {
                        return at;
                    }
                }
                at = i;
            }
        }
    }
    at
}

/// The 1-based line of the value at `path`.
pub fn line_of(src: &str, path: &Path) -> usize {
    let off = offset(src, path).min(src.len());
    src[..off].bytes().filter(|&c| c == b'\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fields_and_indices() {
        let src = "Game(\n  name: \"x, y\",\n  // reels: nope\n  reels: [\n    [\"A\", \"B\"],\n    [\"C\",\n     \"D\"],\n  ],\n  bet: (lines: [1]),\n)";
        let p = Path::default().field("reels").index(1).index(1);
        assert_eq!(line_of(src, &p), 7);
        assert_eq!(line_of(src, &Path::default().field("bet").field("lines")), 9);
        assert_eq!(line_of(src, &Path::default().field("reels").index(0)), 5);
        assert_eq!(line_of(src, &Path::default().field("name")), 2);
    }

    #[test]
    fn finds_fields_inside_some() {
        let src = "Game(\n  scatter: Some((\n    pays: {3: 1},\n    free_games: Some((\n      multiplier: 2,\n      awards: {3: 10},\n    )),\n  )),\n)";
        let free = Path::default().field("scatter").field("free_games");
        assert_eq!(line_of(src, &free.clone().field("awards")), 6);
        assert_eq!(line_of(src, &free), 4);
        assert_eq!(line_of(src, &Path::default().field("scatter").field("pays")), 3);
    }
}
