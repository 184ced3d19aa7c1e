//! enclose.horse bars (helper-owned).

pub fn run(_corpus: &std::path::Path) -> anyhow::Result<String> {
    Ok("## enclose.horse\n\nnot measured yet\n".into())
}
