//! The JSON forms, one reader told apart by their fields: the seed's islands (`{r,c,target}`
//! objects, also as JavaScript literals) and its RLE task (`{w,h,task}`), the janko line
//! and the `bridges.jsonl` record (`[x,y,n]` triples, or only `problem`).

use super::game_id::decode_rle;
use super::islands::{build, Header, Raw, MAX_BRIDGES};
use super::janko::parse_janko_problem;
use crate::error::{Error, Result};
use crate::games::hashi::model::Puzzle;
use serde_json::Value;

/// The JSON forms, told apart by their fields: `task` (seed RLE), `islands` as objects
/// `{r,c,target}` (seed) or as `[x,y,n]` triples (janko, `bridges.jsonl`), or only `problem`.
pub(super) fn parse_json(body: &str, source: &str) -> Result<Puzzle> {
    let v: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(e) => serde_json::from_str(&js_to_json(body))
            .map_err(|_| Error::parse(source, e.line(), e.column(), format!("bad JSON: {e}")))?,
    };
    let place = |off: usize| -> (usize, usize) {
        let line = body[..off].matches('\n').count() + 1;
        let col = off - body[..off].rfind('\n').map_or(0, |k| k + 1) + 1;
        (line, col)
    };
    let key_at = |key: &str| key_offset(body, key).unwrap_or(0);
    let blame = |key: &str| place(key_at(key));
    let err = |key: &str, msg: String| {
        let (l, c) = blame(key);
        Error::parse(source, l, c, msg)
    };
    let dim = |key: &str| -> Result<usize> {
        v.get(key)
            .and_then(Value::as_u64)
            .map(|n| n as usize)
            .ok_or_else(|| err(key, format!("field `{key}` must be a whole number")))
    };
    if v.get("islands").is_none() && v.get("task").is_none() {
        if let Some(problem) = v.get("problem").and_then(Value::as_str) {
            let (l, c) = blame("problem");
            return parse_janko_problem(problem, source, l, c);
        }
        return Err(Error::parse(
            source,
            1,
            1,
            "JSON needs `islands`, `task` or `problem`",
        ));
    }
    let (width, height) = (dim("w")?, dim("h")?);
    let max = match v.get("maxb") {
        None => None,
        Some(m) => Some(
            m.as_u64()
                .filter(|m| (1..=MAX_BRIDGES as u64).contains(m))
                .ok_or_else(|| err("maxb", format!("field `maxb` must be 1..={MAX_BRIDGES}")))?
                as u8,
        ),
    };
    let allow_loops = match v.get("allow_loops") {
        None => true,
        Some(b) => b.as_bool().ok_or_else(|| {
            err(
                "allow_loops",
                "field `allow_loops` must be true or false".into(),
            )
        })?,
    };
    let header = Header {
        cols: width,
        rows: height,
        max,
        allow_loops,
    };
    if let Some(task) = v.get("task") {
        let task = task
            .as_str()
            .ok_or_else(|| err("task", "field `task` must be a string".into()))?;
        // Errors inside the string point at its characters, so find where it opens.
        let colon = key_at("task") + body[key_at("task")..].find(':').unwrap_or(0);
        let open = colon + body[colon..].find(['"', '\'']).unwrap_or(0);
        let (l, c) = place(open);
        let raws = decode_rle(task, width, height, c + 1, source).map_err(|e| match e {
            Error::Parse { pos, message } => Error::parse(source, l, pos.column, message),
            other => other,
        })?;
        return build(header, raws, source);
    }
    let (line, column) = blame("islands");
    let list = v["islands"]
        .as_array()
        .ok_or_else(|| err("islands", "field `islands` must be a list".into()))?;
    let mut raws = Vec::with_capacity(list.len());
    for (k, item) in list.iter().enumerate() {
        let num = |x: Option<&Value>| x.and_then(Value::as_u64).map(|n| n as usize);
        let got = match item {
            Value::Array(a) if a.len() == 3 => num(a.get(1)).zip(num(a.first())).zip(num(a.get(2))),
            Value::Object(_) => num(item.get("r"))
                .zip(num(item.get("c")))
                .zip(num(item.get("target"))),
            _ => None,
        };
        let ((row, col), target) = got.ok_or_else(|| {
            Error::parse(
                source,
                line,
                column,
                format!("island {k} must be [x, y, n] or {{r, c, target}} with whole numbers"),
            )
        })?;
        raws.push(Raw {
            row,
            col,
            target: target.min(u32::MAX as usize) as u32,
            line,
            column,
        });
    }
    build(header, raws, source)
}

/// Where `key` is named as an object key, quoted (JSON) or bare (JavaScript).
pub(super) fn key_offset(body: &str, key: &str) -> Option<usize> {
    body.match_indices(key)
        .map(|(k, _)| k)
        .find(|&k| {
            let before = body[..k].chars().next_back();
            let after = body[k + key.len()..].trim_start_matches('"').trim_start();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after.starts_with(':')
        })
        .map(|k| if body[..k].ends_with('"') { k - 1 } else { k })
}

/// The seed writes its examples as JavaScript object literals (bare keys, single-quoted
/// strings, trailing commas); this rewrites such a literal as JSON.
pub(super) fn js_to_json(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 16);
    let mut k = 0;
    while k < chars.len() {
        let ch = chars[k];
        if ch == '\'' || ch == '"' {
            out.push('"');
            k += 1;
            while k < chars.len() && chars[k] != ch {
                match chars[k] {
                    '\\' if k + 1 < chars.len() => {
                        out.push('\\');
                        out.push(chars[k + 1]);
                        k += 1;
                    }
                    '"' => out.push_str("\\\""),
                    c => out.push(c),
                }
                k += 1;
            }
            out.push('"');
            k += 1;
        } else if ch.is_alphabetic() || ch == '_' || ch == '$' {
            let start = k;
            while k < chars.len()
                && (chars[k].is_alphanumeric() || chars[k] == '_' || chars[k] == '$')
            {
                k += 1;
            }
            let word: String = chars[start..k].iter().collect();
            let next = chars[k..].iter().find(|c| !c.is_whitespace());
            if next == Some(&':') {
                out.push('"');
                out.push_str(&word);
                out.push('"');
            } else {
                out.push_str(&word);
            }
        } else if ch == ','
            && matches!(
                chars[k + 1..].iter().find(|c| !c.is_whitespace()),
                Some('}' | ']')
            )
        {
            k += 1;
        } else {
            out.push(ch);
            k += 1;
        }
    }
    out
}
