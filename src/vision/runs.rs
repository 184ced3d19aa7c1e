//! Runs of consecutive true values in a 1-D sequence (a scanline or a profile).

/// `(start, length)` of every maximal run of `true`.
pub fn runs(values: impl IntoIterator<Item = bool>) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut n = 0;
    for (i, v) in values.into_iter().enumerate() {
        match (v, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i - s));
                start = None;
            }
            _ => {}
        }
        n = i + 1;
    }
    if let Some(s) = start {
        out.push((s, n - s));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_runs_including_at_the_ends() {
        let v = [true, true, false, false, true, false, true, true, true];
        assert_eq!(runs(v), vec![(0, 2), (4, 1), (6, 3)]);
        assert!(runs([false, false]).is_empty());
        assert_eq!(runs([true]), vec![(0, 1)]);
    }
}
