//! App and theme profiles: the glyph templates a reader matches against, learned by
//! `autoplayer calibrate` from screenshots whose puzzles are known, and saying which ones.
//! The profiles in `calibration/` are embedded as the defaults; `--calibration FILE` puts
//! another in their place for one run.

use crate::error::{Error, Result};
use crate::vision::glyph::{Glyph, Template, TemplateSet, SIZE};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One learned profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// The game it reads (`hashi`, `loop`, `enclose`).
    pub game: String,
    /// Which of the game's looks it is for (Hashi: `sgt` for Simon Tatham's Bridges, `web` for
    /// the web game; Loop: `app`; enclose.horse: `page`, its sprites in every theme).
    pub style: String,
    /// The pictures it was learned from, as they were named on the command line.
    #[serde(default)]
    pub made_from: Vec<String>,
    #[serde(flatten)]
    pub set: TemplateSet,
}

impl Profile {
    /// A profile's text; `source` names it in errors.
    pub fn from_json(text: &str, source: &str) -> Result<Profile> {
        let p: Profile = serde_json::from_str(text).map_err(|e| {
            Error::Usage(format!(
                "{source}: not a calibration profile (line {}, column {}: {e})",
                e.line(),
                e.column()
            ))
        })?;
        // The same checks as any template file: every mask its declared size.
        TemplateSet::from_json(&serde_json::to_string(&p.set).expect("templates serialise"))
            .map_err(|e| Error::Usage(format!("{source}: {e}")))?;
        if p.set.templates.is_empty() {
            return Err(Error::Usage(format!(
                "{source}: the profile has no templates"
            )));
        }
        Ok(p)
    }

    pub fn load(path: &std::path::Path) -> Result<Profile> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
            path: path.display().to_string(),
            reason: e,
        })?;
        Profile::from_json(&text, &path.display().to_string())
    }

    /// The file as text: the header fields, then one template a line so a change reads well
    /// in a diff.
    pub fn to_json(&self) -> String {
        let head = serde_json::json!({
            "game": self.game,
            "style": self.style,
            "made_from": self.made_from,
        });
        let set = self.set.to_json();
        // Both are JSON objects: splice the template set's fields after the header's.
        let head = head.to_string();
        format!(
            "{},\n{}",
            &head[..head.len() - 1],
            set.trim_start_matches('{')
        )
    }

    /// The templates, ready to match against.
    pub fn glyphs(&self) -> Vec<(String, Glyph)> {
        self.set.glyphs()
    }

    /// Refuses a profile made for another game or look, naming both.
    pub fn check_for(&self, game: &str, style: &str) -> Result<()> {
        if self.game == game && self.style == style {
            Ok(())
        } else {
            Err(Error::Usage(format!(
                "the calibration profile is for {} ({}), the picture shows {game} ({style})",
                self.game, self.style
            )))
        }
    }
}

/// Glyphs labelled by what a known puzzle says they show, gathered over many pictures and
/// averaged into one template per label, or per look of a label where one thing is drawn in
/// several ways (a sprite's animation frames).
#[derive(Debug, Default)]
pub struct Samples {
    /// Per label, its looks: glyphs alike enough to be averaged.
    by_label: BTreeMap<String, Vec<Vec<Glyph>>>,
    pictures: Vec<String>,
}

impl Samples {
    /// A glyph of the label's one look.
    pub fn add(&mut self, label: &str, glyph: Glyph) {
        let looks = self.by_label.entry(label.to_string()).or_default();
        match looks.first_mut() {
            Some(look) => look.push(glyph),
            None => looks.push(vec![glyph]),
        }
    }

    /// A glyph joining the first look of its label it is `alike` (compared with the look's
    /// first glyph), or starting a look of its own: averaging two frames of an animation would
    /// give a template like neither.
    pub fn add_look(&mut self, label: &str, glyph: Glyph, alike: impl Fn(&Glyph, &Glyph) -> bool) {
        let looks = self.by_label.entry(label.to_string()).or_default();
        match looks.iter_mut().find(|look| alike(&glyph, &look[0])) {
            Some(look) => look.push(glyph),
            None => looks.push(vec![glyph]),
        }
    }

    /// Records a picture as used (named in the profile's `made_from`).
    pub fn used(&mut self, picture: &str) {
        self.pictures.push(picture.to_string());
    }

    /// How many glyphs each label got.
    pub fn counts(&self) -> Vec<(String, usize)> {
        self.by_label
            .iter()
            .map(|(l, looks)| (l.clone(), looks.iter().map(Vec::len).sum()))
            .collect()
    }

    pub fn into_profile(self, game: &str, style: &str) -> Result<Profile> {
        if self.by_label.is_empty() {
            return Err(Error::Usage(format!(
                "calibrate {game}: no glyph could be labelled in the pictures given"
            )));
        }
        let templates: Vec<Template> = self
            .by_label
            .iter()
            .flat_map(|(label, looks)| looks.iter().map(move |gs| (label, gs)))
            .map(|(label, gs)| {
                Template::from_glyph(label, gs.len(), &Glyph::mean(gs).expect("non-empty"))
            })
            .collect();
        let (width, height) = self
            .by_label
            .values()
            .flatten()
            .flatten()
            .next()
            .map_or((SIZE, SIZE), |g| (g.width, g.height));
        Ok(Profile {
            game: game.to_string(),
            style: style.to_string(),
            made_from: self.pictures,
            set: TemplateSet {
                width,
                height,
                templates,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dot(on: usize) -> Glyph {
        let mask: Vec<bool> = (0..SIZE * SIZE).map(|i| i < on).collect();
        Glyph::from_mask(SIZE, SIZE, &mask)
    }

    #[test]
    fn a_profile_reads_back_its_own_text() {
        let mut s = Samples::default();
        s.add("1", dot(10));
        s.add("1", dot(30));
        s.add("2", dot(100));
        s.used("a.png");
        let p = s.into_profile("hashi", "sgt").unwrap();
        assert_eq!(p.set.templates.len(), 2);
        assert_eq!(p.set.templates[0].samples, 2);
        let back = Profile::from_json(&p.to_json(), "mem").unwrap();
        assert_eq!(back, p);
        assert_eq!(back.made_from, vec!["a.png".to_string()]);
    }

    #[test]
    fn looks_unlike_each_other_become_templates_of_their_own() {
        let mut s = Samples::default();
        let alike = |a: &Glyph, b: &Glyph| a.cells == b.cells;
        s.add_look("portal", dot(10), alike);
        s.add_look("portal", dot(50), alike);
        s.add_look("portal", dot(10), alike);
        s.add_look("horse", dot(20), alike);
        assert_eq!(s.counts(), vec![("horse".into(), 1), ("portal".into(), 3)]);
        let p = s.into_profile("enclose", "page").unwrap();
        let looks: Vec<(&str, usize)> = p
            .set
            .templates
            .iter()
            .map(|t| (t.label.as_str(), t.samples))
            .collect();
        assert_eq!(looks, vec![("horse", 1), ("portal", 2), ("portal", 1)]);
    }

    #[test]
    fn a_bad_profile_is_refused_with_its_name_and_position() {
        let e = Profile::from_json("{\"game\": 3}", "p.json").unwrap_err();
        assert!(e.to_string().contains("p.json"), "{e}");
        assert!(e.to_string().contains("line 1"), "{e}");
        let empty =
            "{\"game\":\"loop\",\"style\":\"app\",\"width\":16,\"height\":16,\"templates\":[]}";
        let e = Profile::from_json(empty, "q.json").unwrap_err();
        assert!(e.to_string().contains("no templates"), "{e}");
    }

    #[test]
    fn a_profile_for_another_look_is_refused() {
        let mut s = Samples::default();
        s.add("1", dot(10));
        let p = s.into_profile("hashi", "web").unwrap();
        assert!(p.check_for("hashi", "web").is_ok());
        let e = p.check_for("hashi", "sgt").unwrap_err().to_string();
        assert!(
            e.contains("hashi (web)") && e.contains("hashi (sgt)"),
            "{e}"
        );
    }
}
