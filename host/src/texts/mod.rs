//! The catalogue of every text a player or an operator reads (issue 45,
//! defect 10), in Portuguese (M-10) and English: the interface's words
//! (`words`), which the host and the cabinet ask for by key
//! ([`Lang::t`](crate::names::Lang::t), [`Session::t`](crate::session::Session::t)),
//! and the glossary of the names the paytables give (`terms`: games, reel
//! symbols, bingo patterns, progressive levels), which
//! [`Lang::term`](crate::names::Lang::term) translates.
//!
//! The rules' own names (a bet spot, a chance, a hand) are named by the
//! game's rules in game-core, in both languages, beside the rule that
//! defines them.
//!
//! It must never hold a text no source asks for, nor lack one a source
//! asks for: `every_key_the_sources_use_is_in_the_catalogue_and_no_other`
//! reads the host's and the cabinet's sources to check both.

mod terms;
mod words;

use terms::TERMS;
use words::WORDS;

/// The Portuguese of a key: the key less its sense (`"BANCA|dealer"`).
pub fn portuguese(key: &str) -> &str {
    key.split_once('|').map_or(key, |(pt, _)| pt)
}

/// The English of an interface key, if the catalogue has it.
pub fn english(key: &str) -> Option<&'static str> {
    WORDS.binary_search_by(|(k, _)| (*k).cmp(key)).ok().map(|i| WORDS[i].1)
}

/// Every (key, English) pair of the interface's words, for the window
/// tests' check that an English screen shows none of their Portuguese.
pub fn words() -> &'static [(&'static str, &'static str)] {
    WORDS
}

/// Every (Portuguese, English) pair of the glossary, for the window
/// tests' check that an English screen shows no Portuguese name.
pub fn terms() -> &'static [(&'static str, &'static str)] {
    TERMS
}

/// The English of a paytable's Portuguese name, if the glossary has it.
pub fn term_english(pt: &str) -> Option<&'static str> {
    TERMS.binary_search_by(|(p, _)| (*p).cmp(pt)).ok().map(|i| TERMS[i].1)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn both_halves_are_sorted_without_repeats_and_found_by_their_keys() {
        assert!(WORDS.windows(2).all(|w| w[0].0 < w[1].0), "WORDS must be sorted by key, once each");
        assert!(TERMS.windows(2).all(|w| w[0].0 < w[1].0), "TERMS must be sorted by the Portuguese, once each");
        for (k, en) in WORDS {
            assert_eq!(english(k), Some(*en));
            assert!(!en.is_empty() && !portuguese(k).is_empty(), "{k}");
        }
        for (pt, en) in TERMS {
            assert_eq!(term_english(pt), Some(*en));
        }
        assert_eq!(english("BANCA|dealer"), Some("DEALER"));
        assert_eq!(english("BANCA|banker"), Some("BANKER"));
        assert_eq!(portuguese("BANCA|dealer"), "BANCA");
        assert_eq!(english("AJUDA"), Some("HELP"));
        assert_eq!(term_english("Dama"), Some("Queen"));
        assert_eq!(english("not a key"), None);
    }

    /// Every Rust string literal of `src` that is the argument of a call
    /// to `t(` (`.t(`, or a local `t`/`pt` closure) or of `.count(` after
    /// its number: the keys the source asks the catalogue for.
    fn keys_in(src: &str) -> Vec<String> {
        let bytes = src.as_bytes();
        let mut keys = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let rest = &src[i..];
            let starts_call =
                |name: &str| rest.starts_with(name) && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':'));
            if starts_call("t(") || starts_call("pt(") || starts_call("count(") {
                // The call's arguments up to its closing parenthesis: each
                // literal in them, read with its escapes.
                let open = i + rest.find('(').unwrap();
                let (mut depth, mut j) = (0usize, open);
                while j < bytes.len() {
                    match bytes[j] {
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        b'"' => {
                            let mut k = j + 1;
                            let mut lit = String::new();
                            while k < bytes.len() && bytes[k] != b'"' {
                                if bytes[k] == b'\\' {
                                    k += 1;
                                    lit.push(match bytes[k] {
                                        b'n' => '\n',
                                        other => other as char,
                                    });
                                    k += 1;
                                } else {
                                    let ch = src[k..].chars().next().unwrap();
                                    lit.push(ch);
                                    k += ch.len_utf8();
                                }
                            }
                            // A call's literal keys only: not a format
                            // string nor a literal inside a nested call.
                            if depth == 1 && !lit.contains('{') {
                                keys.push(lit);
                            }
                            j = k;
                        }
                        _ => {}
                    }
                    j += 1;
                }
                i = j.max(i + 1);
                continue;
            }
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
        keys
    }

    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("texts/words.rs") && !p.ends_with("texts/mod.rs") {
                out.push(p);
            }
        }
    }

    #[test]
    fn every_key_the_sources_use_is_in_the_catalogue_and_no_other() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        rust_files(&root.join("src"), &mut files);
        rust_files(&root.join("../cabinet/src"), &mut files);
        assert!(files.len() > 50, "the host's and the cabinet's sources: {} files", files.len());
        let mut used = BTreeSet::new();
        let mut inline = Vec::new();
        for f in &files {
            let src = std::fs::read_to_string(f).unwrap();
            used.extend(keys_in(&src));
            // No text written in both languages beside the code that shows
            // it (`if pt { "…" } else { "…" }`): it belongs here.
            for (at, _) in src.match_indices("if pt {").chain(src.match_indices("if portuguese {")) {
                let after = src[at..].split_once('{').map_or("", |(_, r)| r.trim_start());
                if after.starts_with('"') || after.starts_with("format!") {
                    inline.push(format!("{}: {}", f.display(), &src[at..(at + 60).min(src.len())]));
                }
            }
        }
        assert!(inline.is_empty(), "texts in two languages outside the catalogue:\n{inline:#?}");
        // `.count()` of an iterator and `t(` in a test's text read no key;
        // what is left must all be in the catalogue.
        let missing: Vec<&String> = used.iter().filter(|k| english(k).is_none()).collect();
        assert!(missing.is_empty(), "keys with no entry in texts/words.rs:\n{missing:#?}");
        let unused: Vec<&str> = WORDS.iter().map(|(k, _)| *k).filter(|k| !used.contains(*k)).collect();
        assert!(unused.is_empty(), "entries of texts/words.rs no source asks for:\n{unused:#?}");
        // The scan itself reads a call as written, escapes and all.
        assert_eq!(keys_in(r#"s.t("a \"b\""); lang.count(n, "linha", "linhas"); x.count(); t("Y|z")"#), ["a \"b\"", "linha", "linhas", "Y|z"]);
        assert!(used.len() > 400, "{} keys found", used.len());
    }
}
