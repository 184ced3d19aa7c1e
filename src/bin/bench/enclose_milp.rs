//! An independent exact check of autoplayer's enclose.horse optima: the same generated levels
//! as `bench enclose`, each solved again as a mixed-integer program by CBC, a general-purpose
//! solver that shares no code and no reasoning with autoplayer's branch and bound.
//!
//! The model is written from the game's rules, not from the solver:
//! * `x[v]` = tile `v` is in the horse's pen (quarrel: a second family `y` for the unicorn's),
//!   `w[v]` = a new wall on grass tile `v`, at most the budget left after pre-placed walls;
//! * a pen never holds a border tile (the animal would escape there);
//! * closure: a pen tile's every neighbour (portal partners included) is in the same pen or is
//!   a wall, so the pen is everything the animal can reach;
//! * connection: a single-commodity flow from the animal over arcs inside its pen, every other
//!   pen tile consuming one unit, so the pen holds nothing the animal cannot reach;
//! * objective: the tile values of the pen(s), minus the wall cost in costly-walls rounds.
//!
//! Closure and connection together make each pen exactly the game's flood fill from its animal
//! behind the chosen walls, so the objective is the game's score of those walls; the run checks
//! that too, with `check::score`.

use autoplayer::games::enclose::model::WALL_COST;
use autoplayer::games::enclose::model::{Level, Variant};
use autoplayer::games::enclose::{check, generate, solve};
use autoplayer::report::Status;
use good_lp::solvers::coin_cbc::coin_cbc;
use good_lp::{
    constraint, variable, Expression, ProblemVariables, Solution, SolutionStatus, SolverModel,
    Variable, WithTimeLimit,
};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq)]
pub enum MilpStatus {
    /// CBC proved `objective` optimal.
    Optimal,
    /// CBC proved that no wall set meets the round's condition.
    Infeasible,
    /// The time limit passed; `objective` is the incumbent when there is one.
    TimedOut,
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct MilpResult {
    pub status: MilpStatus,
    /// The score of `walls` by the model (`None` without a solution).
    pub objective: Option<i32>,
    /// New walls, `[row, col]`, sorted.
    pub walls: Vec<[usize; 2]>,
    pub ms: f64,
}

/// Tiles that can belong to the pen of the animal at `root`: the pen is connected, so it lies in
/// the root's component of passable inner tiles.
fn candidates(level: &Level, adj: &[Vec<u32>], root: usize) -> Vec<bool> {
    let mut seen = vec![false; level.tiles.len()];
    if level.is_border(root) {
        return seen;
    }
    seen[root] = true;
    let mut queue = VecDeque::from([root]);
    while let Some(u) = queue.pop_front() {
        for &v in &adj[u] {
            let v = v as usize;
            if !seen[v] && !level.is_border(v) {
                seen[v] = true;
                queue.push_back(v);
            }
        }
    }
    seen
}

/// One pen: its tile variables (`None` off its candidate set) and its animal.
struct Pen {
    root: usize,
    x: Vec<Option<Variable>>,
}

fn infeasible(start: Instant) -> MilpResult {
    MilpResult {
        status: MilpStatus::Infeasible,
        objective: None,
        walls: Vec::new(),
        ms: start.elapsed().as_secs_f64() * 1e3,
    }
}

/// Solves the level as a MILP with CBC, stopping after `limit_s` seconds.
pub fn solve_milp(level: &Level, limit_s: f64) -> MilpResult {
    let start = Instant::now();
    let n = level.tiles.len();
    let adj = level.adjacency();
    let Some(new_walls) = level.budget.checked_sub(level.preplaced_walls()) else {
        return infeasible(start);
    };
    let horse = level.horse();
    let unicorn = level.unicorn();
    let mut roots = vec![horse];
    if level.variant == Variant::Quarrel {
        match unicorn {
            Some(u) => roots.push(u),
            None => return infeasible(start),
        }
    }
    let mut vars = ProblemVariables::new();
    let mut pens: Vec<Pen> = Vec::new();
    for &root in &roots {
        let cand = candidates(level, &adj, root);
        if !cand[root] {
            return infeasible(start);
        }
        let x = (0..n)
            .map(|v| cand[v].then(|| vars.add(variable().binary())))
            .collect();
        pens.push(Pen { root, x });
    }
    // Walls matter only in or next to a pen; elsewhere they could change nothing.
    let w: Vec<Option<Variable>> = (0..n)
        .map(|v| {
            let near = pens
                .iter()
                .any(|p| p.x[v].is_some() || adj[v].iter().any(|&u| p.x[u as usize].is_some()));
            (near && level.tiles[v].wallable()).then(|| vars.add(variable().binary()))
        })
        .collect();
    // Flow variables per pen and arc, made before the model is (good_lp fixes them then).
    let flows: Vec<Vec<(usize, usize, Variable)>> = pens
        .iter()
        .map(|p| {
            let big = p.x.iter().filter(|x| x.is_some()).count() as f64;
            let mut arcs = Vec::new();
            for (u, near) in adj.iter().enumerate() {
                if p.x[u].is_none() {
                    continue;
                }
                for &v in near {
                    let v = v as usize;
                    if v != p.root && p.x[v].is_some() {
                        arcs.push((u, v, vars.add(variable().min(0).max(big))));
                    }
                }
            }
            arcs
        })
        .collect();

    let mut objective = Expression::from(0);
    for p in &pens {
        for v in 0..n {
            if let Some(x) = p.x[v] {
                objective += level.tiles[v].value() * x;
            }
        }
    }
    let wall_sum: Expression = w.iter().flatten().map(|&v| Expression::from(v)).sum();
    if level.variant == Variant::CostlyWalls {
        objective -= WALL_COST * wall_sum.clone();
    }
    let mut model = vars
        .maximise(objective)
        .using(coin_cbc)
        .with_time_limit(limit_s);
    model.set_parameter("threads", "1");
    // CBC counts CPU seconds by default; the bench's budget is wall time on a shared machine.
    model.set_parameter("timeMode", "elapsed");
    model.add_constraint(constraint!(wall_sum <= new_walls as f64));
    for p in &pens {
        model.add_constraint(constraint!(p.x[p.root].unwrap() == 1));
    }
    if level.variant == Variant::Lovebirds {
        match unicorn.and_then(|u| pens[0].x[u]) {
            Some(xu) => {
                model.add_constraint(constraint!(xu == 1));
            }
            None => return infeasible(start),
        }
    }
    for p in &pens {
        for (u, near) in adj.iter().enumerate() {
            let Some(xu) = p.x[u] else { continue };
            for &v in near {
                let v = v as usize;
                let mut open = Expression::from(0);
                if let Some(xv) = p.x[v] {
                    open += xv;
                }
                if let Some(wv) = w[v] {
                    open += wv;
                }
                model.add_constraint(constraint!(xu <= open));
            }
        }
    }
    // A tile is in at most one pen, and a wall is in none.
    for (v, &wv) in w.iter().enumerate() {
        let terms: Vec<Variable> = pens.iter().filter_map(|p| p.x[v]).chain(wv).collect();
        if terms.len() > 1 {
            let sum: Expression = terms.iter().map(|&t| Expression::from(t)).sum();
            model.add_constraint(constraint!(sum <= 1));
        }
    }
    for (p, arcs) in pens.iter().zip(&flows) {
        let big = p.x.iter().filter(|x| x.is_some()).count() as f64;
        let mut balance: Vec<Expression> = vec![Expression::from(0); n];
        for &(u, v, f) in arcs {
            model.add_constraint(constraint!(f <= big * p.x[u].unwrap()));
            model.add_constraint(constraint!(f <= big * p.x[v].unwrap()));
            balance[v] += f;
            balance[u] -= f;
        }
        for (v, b) in balance.into_iter().enumerate() {
            if let (Some(xv), false) = (p.x[v], v == p.root) {
                model.add_constraint(constraint!(b == xv));
            }
        }
    }

    let solved = model.solve();
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let sol = match solved {
        Ok(s) => s,
        Err(good_lp::ResolutionError::Infeasible) => return infeasible(start),
        Err(e) => {
            return MilpResult {
                status: MilpStatus::Failed(e.to_string()),
                objective: None,
                walls: Vec::new(),
                ms,
            }
        }
    };
    let status = match sol.status() {
        SolutionStatus::Optimal => MilpStatus::Optimal,
        _ => MilpStatus::TimedOut,
    };
    // CBC's values are within its tolerances of 0 or 1: read them by rounding.
    let on = |v: Variable| sol.value(v) > 0.5;
    let mut score = 0;
    let mut complete = true;
    for p in &pens {
        complete &= on(p.x[p.root].unwrap());
        for v in 0..n {
            if p.x[v].is_some_and(on) {
                score += level.tiles[v].value();
            }
        }
    }
    let walls: Vec<[usize; 2]> = (0..n)
        .filter(|&v| w[v].is_some_and(on))
        .map(|v| [v / level.cols, v % level.cols])
        .collect();
    if level.variant == Variant::CostlyWalls {
        score -= WALL_COST * walls.len() as i32;
    }
    MilpResult {
        // A stopped run may hold no incumbent at all: then its values mean nothing.
        objective: complete.then_some(score),
        status,
        walls,
        ms,
    }
}

/// The level's optimum as one number where both sides can be compared: on a main level an
/// escaping horse scores 0, so the optimum is never below 0 and "no pen" is 0; in a bonus
/// round "no pen" stays `None` (unsolvable).
fn normalise(level: &Level, value: Option<i32>) -> Option<i32> {
    match level.variant {
        Variant::Main => Some(value.unwrap_or(0).max(0)),
        _ => value,
    }
}

#[derive(Default)]
struct Tally {
    compared: usize,
    skipped_small: usize,
    agreed: usize,
    milp_timed_out: usize,
    ap_not_proven: usize,
    /// Levels autoplayer gave up on, with what the MILP knows of them.
    unproven: Vec<String>,
    disagreed: Vec<String>,
    milp_ms: Vec<f64>,
    ap_ms: Vec<f64>,
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn median_max(v: &[f64]) -> (f64, f64) {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let median = if v.is_empty() { 0.0 } else { v[v.len() / 2] };
    (median, v.last().copied().unwrap_or(0.0))
}

/// Compares one level; returns the per-level line for stderr.
fn compare(level: &Level, ap_limit_s: u64, milp_limit_s: f64, t: &mut Tally) -> String {
    let start = Instant::now();
    let outcome = solve::solve(
        level,
        &autoplayer::solving::Limits::within(Some(Duration::from_secs(ap_limit_s))),
    );
    let ap_ms = start.elapsed().as_secs_f64() * 1000.0;
    let status = outcome.status();
    // Unsolvable: no walls, score and bound 0.
    let sol = outcome.into_solution().unwrap_or_default();
    let milp = solve_milp(level, milp_limit_s);
    t.compared += 1;
    t.ap_ms.push(ap_ms);
    t.milp_ms.push(milp.ms);
    let ap_rescored = check::score(level, &sol.walls);
    let ap_proven = matches!(status, Status::Optimal | Status::Unsolvable);
    let ap_value = match status {
        Status::Unsolvable => None,
        _ => Some(sol.score),
    };
    let milp_rescored = milp.objective.map(|_| check::score(level, &milp.walls));
    let note = format!(
        "autoplayer {:?} score {} bound {} rescored {:?} {:.1} ms | MILP {:?} objective {:?} rescored {:?} {} walls {:.1} ms",
        status,
        sol.score,
        sol.bound,
        ap_rescored,
        ap_ms,
        milp.status,
        milp.objective,
        milp_rescored,
        milp.walls.len(),
        milp.ms
    );
    let mut problems = Vec::new();
    if status == Status::Optimal && ap_rescored != Ok(sol.score) {
        problems.push("autoplayer's walls re-score differently");
    }
    if let (MilpStatus::Optimal, Some(obj), Some(r)) =
        (&milp.status, milp.objective, &milp_rescored)
    {
        if *r != Ok(obj) {
            problems.push("the MILP's walls re-score differently from its objective");
        }
    }
    // A run stopped on time may leave CBC's last relaxation where an incumbent would be: its
    // walls count only when the game scores them legally, to the model's objective.
    let legal_milp = match (milp.objective, &milp_rescored) {
        (Some(obj), Some(Ok(r))) if *r == obj => normalise(level, Some(obj)),
        _ => None,
    };
    let milp_proven = matches!(milp.status, MilpStatus::Optimal | MilpStatus::Infeasible);
    let a = normalise(level, ap_value);
    let m = normalise(
        level,
        match milp.status {
            MilpStatus::Optimal => milp.objective,
            _ => None,
        },
    );
    if ap_proven && milp_proven && a != m {
        problems.push("the optima differ");
    }
    // Even unproven, a better legal MILP answer refutes a proven autoplayer optimum.
    if ap_proven && milp.status == MilpStatus::TimedOut && legal_milp.is_some() && legal_milp > a {
        problems.push("the MILP's incumbent beats autoplayer's optimum");
    }
    // Autoplayer's proven bound must hold even when it gave up.
    if status == Status::GaveUp && legal_milp.is_some_and(|r| r > sol.bound.max(0)) {
        problems.push("a legal MILP answer exceeds autoplayer's proven bound");
    }
    let legal_ap = normalise(level, ap_rescored.clone().ok());
    if status == Status::GaveUp && milp_proven && legal_ap > m {
        problems.push("autoplayer's legal answer beats the MILP's optimum");
    }
    if !problems.is_empty() {
        t.disagreed.push(format!("{}: {note}", problems.join("; ")));
    } else if ap_proven && milp_proven {
        t.agreed += 1;
    } else {
        if !milp_proven {
            t.milp_timed_out += 1;
        }
        if !ap_proven {
            t.ap_not_proven += 1;
            t.unproven.push(format!(
                "autoplayer {} (bound {}), MILP {} {:?}",
                sol.score,
                sol.bound,
                if milp_proven { "optimum" } else { "incumbent" },
                legal_milp
            ));
        }
    }
    note
}

pub fn run() -> anyhow::Result<String> {
    let count: u64 = env_or("ENCLOSE_MILP_COUNT", 25);
    let from: u64 = env_or("ENCLOSE_MILP_GEN_FROM", 0);
    let min_cells: usize = env_or("ENCLOSE_MILP_MIN_CELLS", 150);
    let milp_limit_s: f64 = env_or("ENCLOSE_MILP_LIMIT_S", 60.0);
    let ap_limit_s: u64 = env_or("ENCLOSE_BENCH_LIMIT_S", 10);
    // ENCLOSE_MILP_VARIANT=<name> re-checks one round kind only, e.g. to look at one level.
    let only = std::env::var("ENCLOSE_MILP_VARIANT")
        .ok()
        .and_then(|s| Variant::from_name(&s));
    let mut rows = Vec::new();
    for variant in [
        Variant::Main,
        Variant::Lovebirds,
        Variant::CostlyWalls,
        Variant::Quarrel,
    ] {
        if only.is_some_and(|o| o != variant) {
            continue;
        }
        let mut t = Tally::default();
        for seed in from..from + count {
            let params = generate::Params {
                variant,
                ..generate::Params::for_seed(seed)
            };
            let level = generate::generate(seed, &params);
            if level.rows * level.cols < min_cells {
                t.skipped_small += 1;
                continue;
            }
            let before = (t.disagreed.len(), t.unproven.len());
            let note = compare(&level, ap_limit_s, milp_limit_s, &mut t);
            eprintln!(
                "milp gen-{variant}-{seed} {}x{} budget {}: {note}",
                level.rows, level.cols, level.budget
            );
            for d in t.disagreed[before.0..]
                .iter_mut()
                .chain(&mut t.unproven[before.1..])
            {
                *d = format!("{variant} seed {seed} ({}x{}): {d}", level.rows, level.cols);
            }
        }
        rows.push((variant, t));
    }
    let mut out = String::from("## enclose.horse: MILP cross-check\n\n");
    out.push_str(&format!(
        "Generated levels of `bench enclose` (seeds {from}..{}, maps of at least {min_cells} \
         tiles; smaller ones are covered by the brute-force unit tests), each solved by \
         autoplayer ({ap_limit_s} s deadline) and by an independent MILP of the rules with \
         CBC ({milp_limit_s} s limit, one thread). Agreed: both proved their answer and the \
         optima are equal; the MILP's walls always re-score by the game's flood fill to its \
         objective. Written by `cargo run --release --features milp --bin bench -- \
         enclose-milp`.\n\n",
        from + count
    ));
    out.push_str(
        "| variant | compared | agreed | MILP timed out | autoplayer not proven | DISAGREED | MILP median / max ms | autoplayer median / max ms |\n",
    );
    out.push_str("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    let mut disagreements = Vec::new();
    let mut unproven = Vec::new();
    for (variant, t) in &rows {
        let (mm, mx) = median_max(&t.milp_ms);
        let (am, ax) = median_max(&t.ap_ms);
        out.push_str(&format!(
            "| {variant} | {} | {} | {} | {} | {} | {mm:.0} / {mx:.0} | {am:.1} / {ax:.1} |\n",
            t.compared,
            t.agreed,
            t.milp_timed_out,
            t.ap_not_proven,
            t.disagreed.len(),
        ));
        disagreements.extend(t.disagreed.iter().cloned());
        unproven.extend(t.unproven.iter().cloned());
    }
    if disagreements.is_empty() {
        out.push_str("\nNo disagreements.\n");
    } else {
        out.push_str("\nDisagreements:\n\n");
        for d in &disagreements {
            out.push_str(&format!("* {d}\n"));
        }
    }
    if !unproven.is_empty() {
        out.push_str("\nLevels autoplayer did not prove in its deadline (its score and bound; the MILP's best):\n\n");
        for u in &unproven {
            out.push_str(&format!("* {u}\n"));
        }
    }
    print!("{out}");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use autoplayer::games::enclose::format::parse;

    fn optimum(text: &str, variant: Option<Variant>) -> MilpResult {
        let level = parse(text, "t", variant).unwrap();
        let r = solve_milp(&level, 60.0);
        if let Some(obj) = r.objective {
            assert_eq!(check::score(&level, &r.walls), Ok(obj), "{text}");
        }
        r
    }

    #[test]
    fn small_rounds() {
        let quarrel = "budget: 4\nvariant: quarrel\n~~~~~~\n~H.U.~\n~~~~~~\n";
        let r = optimum(quarrel, None);
        assert_eq!((r.status, r.objective), (MilpStatus::Optimal, Some(3)));
        let r = optimum(quarrel, Some(Variant::Lovebirds));
        assert_eq!((r.status, r.objective), (MilpStatus::Optimal, Some(4)));
        let costly = "budget: 2\n~~~~\n~H.~\n~.~~\n";
        let r = optimum(costly, Some(Variant::CostlyWalls));
        assert_eq!((r.status, r.objective), (MilpStatus::Optimal, Some(2 - 6)));
        // The golden apple is worth the bees beside it.
        let bees = "budget: 1\n~~~~\n~HS~\n~G~~\n~.~~\n";
        let r = optimum(bees, None);
        assert_eq!(
            (r.status, r.objective),
            (MilpStatus::Optimal, Some(1 - 4 + 11))
        );
        // No budget: the horse cannot be penned.
        let open = "budget: 0\n~~.~\n~H.~\n~~~~\n";
        assert_eq!(
            optimum(open, Some(Variant::CostlyWalls)).status,
            MilpStatus::Infeasible
        );
    }

    #[test]
    fn portals_lead_out() {
        // Portal 0 beside the horse opens onto the border: it must be walled off on that side.
        let text = "budget: 2\n~~~~~~\n~H0.~~\n~~~~~~\n~~~~~~\n~~~0.~\n~~~~.~\n";
        let level = parse(text, "t", None).unwrap();
        let r = solve_milp(&level, 60.0);
        assert_eq!((r.status, r.objective), (MilpStatus::Optimal, Some(5)));
        assert_eq!(check::score(&level, &r.walls), Ok(5));
    }

    #[test]
    fn published_day9_optimum() {
        let map = "budget: 12\n~~..~~~.~~~~\n~C.C.......~\n..C......~..\n.C.C~~..~~.~\n~.~.~~.....~\n~..........~\n....~.~~...~\n~...~~H~....\n~...........\n~.....~~...~\n..~~..~~C.C~\n~.~......C.~\n~.......C.C~\n~.~~.~.~...~\n";
        let r = optimum(map, None);
        assert_eq!((r.status, r.objective), (MilpStatus::Optimal, Some(66)));
    }

    #[test]
    fn agrees_on_a_few_generated_levels() {
        for variant in [
            Variant::Main,
            Variant::Lovebirds,
            Variant::CostlyWalls,
            Variant::Quarrel,
        ] {
            let mut t = Tally::default();
            for seed in 0..3 {
                let params = generate::Params {
                    variant,
                    rows: 10,
                    cols: 10,
                    ..generate::Params::for_seed(seed)
                };
                compare(&generate::generate(seed, &params), 10, 60.0, &mut t);
            }
            assert!(t.disagreed.is_empty(), "{variant}: {:?}", t.disagreed);
            assert_eq!(t.agreed, 3, "{variant}");
        }
    }
}
