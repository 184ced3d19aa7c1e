//! Least-squares fits.

/// A straight line `y = intercept + slope·x`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    pub intercept: f64,
    pub slope: f64,
}

impl Line {
    pub fn at(&self, x: f64) -> f64 {
        self.intercept + self.slope * x
    }
}

/// The least-squares line through `points` `(x, y)`: level (slope 0, through the mean) when
/// every x is the same; `None` without points.
pub fn line(points: impl IntoIterator<Item = (f64, f64)>) -> Option<Line> {
    let pts: Vec<(f64, f64)> = points.into_iter().collect();
    if pts.is_empty() {
        return None;
    }
    let n = pts.len() as f64;
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
    let (sxy, sxx) = pts.iter().fold((0.0, 0.0), |(a, b), &(x, y)| {
        (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
    });
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    Some(Line {
        intercept: my - slope * mx,
        slope,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_through_noisy_points_and_the_edge_cases() {
        // y = 3 + 2x, nudged up and down in turn.
        let pts = (0..10).map(|x| {
            (
                x as f64,
                3.0 + 2.0 * x as f64 + if x % 2 == 0 { 0.1 } else { -0.1 },
            )
        });
        let l = line(pts).unwrap();
        assert!(
            (l.slope - 2.0).abs() < 0.03 && (l.intercept - 3.0).abs() < 0.15,
            "{l:?}"
        );
        assert!((l.at(4.0) - 11.0).abs() < 0.2);
        let upright = line([(1.0, 2.0), (1.0, 4.0)]).unwrap();
        assert_eq!((upright.slope, upright.intercept), (0.0, 3.0));
        assert_eq!(line(Vec::new()), None);
    }
}
