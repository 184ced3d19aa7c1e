//! The reading's confidence: the least sure of its calls (a grid edge drawn or not, a disc or
//! not, two discs one colour or not, a pipe's colour), with what and where that call was, so a
//! refusal can name it.

use crate::error::{Error, Region};

#[derive(Debug, Clone)]
pub struct Weakest {
    confidence: f64,
    region: Option<Region>,
    what: String,
}

impl Weakest {
    pub fn new() -> Weakest {
        Weakest {
            confidence: 1.0,
            region: None,
            what: String::new(),
        }
    }

    /// One call, `sure` in 0..1 (clamped); computes `what` only when it is the weakest yet.
    pub fn note(&mut self, sure: f64, region: Option<Region>, what: impl Into<String>) {
        let sure = sure.clamp(0.0, 1.0);
        if sure < self.confidence {
            self.confidence = sure;
            self.region = region;
            self.what = what.into();
        }
    }

    pub fn confidence(&self) -> f64 {
        self.confidence
    }

    /// The refusal when the weakest call is under `floor`.
    pub fn check(&self, floor: f64) -> Result<(), Error> {
        if self.confidence < floor {
            return Err(Error::vision(
                self.region,
                format!(
                    "{} (confidence {:.2}, below the floor {floor})",
                    self.what, self.confidence
                ),
            ));
        }
        Ok(())
    }
}

impl Default for Weakest {
    fn default() -> Self {
        Weakest::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_weakest_call_and_refuses_below_the_floor() {
        let mut w = Weakest::new();
        w.note(0.9, None, "a");
        w.note(1.7, None, "b");
        w.note(0.2, None, "c");
        w.note(0.5, None, "d");
        assert_eq!(w.confidence(), 0.2);
        let err = w.check(0.4).unwrap_err().to_string();
        assert!(err.contains("c (confidence 0.20"), "{err}");
        assert!(w.check(0.1).is_ok());
    }
}
