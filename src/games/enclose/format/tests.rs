use super::*;

fn err(text: &str) -> String {
    parse(text, "t", None).unwrap_err().to_string()
}

#[test]
fn round_trip() {
    let text = "budget: 3\nvariant: lovebirds\n~~~~\n~HU~\n~.0~\n~0.~\n";
    let level = parse(text, "t", None).unwrap();
    assert_eq!((level.rows, level.cols, level.budget), (4, 4, 3));
    assert_eq!(level.variant, Variant::Lovebirds);
    assert_eq!(to_canonical(&level), text);
    let main = parse(text, "t", Some(Variant::Quarrel)).unwrap();
    assert_eq!(main.variant, Variant::Quarrel);
}

#[test]
fn api_json() {
    let j = r#"{"id":"x","map":"~~~\n~H~\n~.~","budget":2,"variant":null,"optimalScore":5}"#;
    let level = parse(j, "t", None).unwrap();
    assert_eq!(
        (level.rows, level.budget, level.variant),
        (3, 2, Variant::Main)
    );
    let j = r#"{"map":"~~~\n~H~\n~U~","budget":2,"variant":"lovers_quarrel"}"#;
    assert_eq!(parse(j, "t", None).unwrap().variant, Variant::Quarrel);
    assert!(err(r#"{"map":"~~~\n~H~\nx~~","budget":2}"#).contains("t (map):3:1"));
    assert!(err(r#"{"map":"~H~"}"#).contains("budget missing"));
}

#[test]
fn api_json_spells_the_variant_the_apis_way() {
    let text = "budget: 3\nvariant: quarrel\n~~~~\n~HU~\n~.0~\n~0.~\n";
    let level = parse(text, "t", None).unwrap();
    let json = to_json(&level);
    assert_eq!(
            json,
            "{\"map\": \"~~~~\\n~HU~\\n~.0~\\n~0.~\", \"budget\": 3, \"variant\": \"lovers_quarrel\"}\n"
        );
    assert_eq!(parse(&json, "t", None).unwrap(), level);
    let main = parse("budget: 1\n.H.\n", "t", None).unwrap();
    assert!(to_json(&main).contains("\"variant\": null"));
}

/// Every corpus level: the levels file, and the pictured levels' maps with their budgets.
fn corpus_levels() -> Vec<(String, Level)> {
    let mut out = Vec::new();
    for rel in [
        "enclose/levels.jsonl",
        "enclose/app-screens/index.jsonl",
        "enclose/screenshots/index.jsonl",
    ] {
        let Some(path) = crate::corpus::path(rel) else {
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap();
        for (k, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let name = format!("{rel}:{}", k + 1);
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let record = v.get("level").unwrap_or(&v);
            let rows = record.get("map_rows").and_then(|m| m.as_array());
            let json = match rows {
                _ if record.get("map").is_some() => line.to_string(),
                // The pictures' records keep the map as rows; some know neither the map
                // nor its budget, and a map alone is no puzzle.
                Some(rows) if record["budget"].is_u64() => {
                    let rows: Vec<&str> = rows.iter().filter_map(|r| r.as_str()).collect();
                    serde_json::json!({
                        "map": rows.join("\n"),
                        "budget": record["budget"],
                        "variant": record.get("variant"),
                    })
                    .to_string()
                }
                _ => continue,
            };
            out.push((name.clone(), parse(&json, &name, None).unwrap()));
        }
    }
    out
}

/// The bar of `scan --to`: each format reads back as the very level it was written from.
#[test]
fn every_corpus_level_round_trips_through_every_format() {
    let levels = corpus_levels();
    let read = |t: &str| parse(t, "rt", None);
    crate::games::assert_round_trips("enclose", FORMATS, (&levels, 245), write, read);
}

#[test]
fn errors_have_positions() {
    assert_eq!(
        err("budget: 1\n...\n.H\n"),
        "t:3:3: ragged map: this row has 2 tiles, the first row 3"
    );
    assert!(err("budget: 1\n...\n...\n").starts_with("t:2:1: no horse"));
    assert!(err("budget: 1\n.H.\n.H.\n").starts_with("t:3:2: a second horse"));
    assert!(err("budget: 1\n.H1\n...\n").starts_with("t:2:3: portal '1' is used 1 times"));
    assert!(err("budget: 1\n1H1\n..1\n").starts_with("t:3:3: portal '1' is used 3 times"));
    assert!(err("~H~\n").starts_with("t:1:1: budget missing"));
    assert!(err("budget: x\n.H.\n").starts_with("t:1:9: budget"));
    assert!(err("budget: 1\nvariant: chess\n.H.\n").starts_with("t:2:10: unknown variant"));
    assert!(err("budget: 1\n.HU\n").starts_with("t:2:3: a unicorn on a main level"));
    assert!(err("budget: 1\nvariant: quarrel\n.H.\n").contains("no unicorn"));
    assert!(err("budget: 1\nvariant: lovebirds\nUHU\n").starts_with("t:3:3: a second unicorn"));
    assert!(err("budget: 1\n.H?\n").starts_with("t:2:3: unknown map character"));
    assert!(err("budget: 1\ncolour: red\n.H.\n").starts_with("t:2:1: unknown header key"));
}
