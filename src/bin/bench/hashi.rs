//! Hashi bars (helper-owned).

pub fn run(_corpus: &std::path::Path) -> anyhow::Result<String> {
    Ok("## Hashi\n\nnot measured yet\n".into())
}
