//! The PAR sheet (certification.md I-57): what a designer and a lab read.
//! Markdown with every figure, CSV tables, and two SVG charts: the exact
//! distribution of base-game wins, and the RTP's convergence with the
//! number of games (the exact RTP, its exact 99% band from the standard
//! deviation, and one simulated path).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use game_core::reels::{FastReels, ReelGame, StopTables};
use meters::StreamRng;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use plotters::prelude::*;

use crate::check::{Checked, pct};

/// Win buckets in multiples of the total bet.
const BUCKETS: [(f64, f64, &str); 10] = [
    (0.0, 0.0, "0"),
    (1e-9, 1.0, "(0, 1)"),
    (1.0, 2.0, "[1, 2)"),
    (2.0, 5.0, "[2, 5)"),
    (5.0, 10.0, "[5, 10)"),
    (10.0, 20.0, "[10, 20)"),
    (20.0, 50.0, "[20, 50)"),
    (50.0, 100.0, "[50, 100)"),
    (100.0, 500.0, "[100, 500)"),
    (500.0, f64::INFINITY, "500+"),
];

fn bucket_of(win_in_bets: f64) -> usize {
    if win_in_bets == 0.0 {
        return 0;
    }
    BUCKETS.iter().position(|(lo, hi, _)| win_in_bets >= *lo && win_in_bets < *hi).unwrap_or(BUCKETS.len() - 1)
}

#[derive(Debug, thiserror::Error)]
pub enum ParError {
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error("chart {0}: {1}")]
    Chart(String, String),
}

fn write(path: &Path, text: &str) -> Result<(), ParError> {
    std::fs::write(path, text).map_err(|e| ParError::Io(path.display().to_string(), e))
}

/// Write the PAR sheet of a checked game into `dir`; returns the files.
pub fn write_par(game: &ReelGame, checked: &Checked, dir: &Path) -> Result<Vec<PathBuf>, ParError> {
    std::fs::create_dir_all(dir).map_err(|e| ParError::Io(dir.display().to_string(), e))?;
    let fig = &checked.figures;
    let rep = &checked.report;
    let id = &game.id;
    let mut files = Vec::new();
    let max = fig.configs.last().map(|c| c.lines).unwrap_or(1);
    let cycle = BigRational::from_integer(BigInt::from(fig.cycle));

    // configs.csv
    let mut csv = String::from(
        "lines,rtp_exact,rtp_percent,share_lines_percent,share_scatter_percent,share_free_games_percent,hit_frequency_percent,standard_deviation,max_base_win\n",
    );
    for c in &rep.configs {
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{:.6},{}",
            c.lines,
            c.rtp_exact,
            c.rtp_percent,
            c.share_lines_percent,
            c.share_scatter_percent,
            c.share_free_games_percent,
            c.hit_frequency_percent.as_deref().unwrap_or("skipped"),
            c.standard_deviation,
            c.max_base_win_credits_per_line_credit.map_or_else(|| "skipped".to_owned(), |m| m.to_string())
        );
    }
    let p = dir.join(format!("{id}-configs.csv"));
    write(&p, &csv)?;
    files.push(p);

    // combinations.csv: line hits in the cycle and contributions.
    let mut combos = String::from("symbol,count,pays_per_line_credit,line_hits_in_cycle,probability_per_line,rtp_contribution_percent\n");
    let mut combo_rows = Vec::new();
    for (&(sym, count, pay), &hits) in &fig.combo_hits {
        let per_line = BigRational::from_integer(BigInt::from(hits)) / &cycle / BigRational::from_integer(BigInt::from(max));
        let contribution = &per_line * BigRational::from_integer(BigInt::from(pay));
        let name = &game.symbols[sym as usize].name;
        let _ = writeln!(combos, "{name},{count},{pay},{hits},{:.9e},{}", per_line.to_f64().unwrap_or(0.0), pct(&contribution));
        combo_rows.push((name.clone(), count, pay, hits, per_line, contribution));
    }
    let p = dir.join(format!("{id}-combinations.csv"));
    write(&p, &combos)?;
    files.push(p);

    // distribution.csv (exact, base spins, at the largest line count):
    // only where the full cycle was walked.
    let top = fig.configs.last();
    let histogram = top.and_then(|c| c.histogram.as_ref().map(|h| (c.lines, h)));
    let mut probs = Vec::new();
    if let Some((lines, h)) = histogram {
        let mut dist = vec![0u128; BUCKETS.len()];
        for (&win, &w) in h {
            dist[bucket_of(win as f64 / f64::from(lines))] += w;
        }
        let mut dcsv = String::from("win_in_total_bets,weight,probability\n");
        probs = dist.iter().map(|&w| w as f64 / fig.cycle as f64).collect();
        for ((_, _, label), (w, p)) in BUCKETS.iter().zip(dist.iter().zip(&probs)) {
            let _ = writeln!(dcsv, "\"{label}\",{w},{p:.9e}");
        }
        let p = dir.join(format!("{id}-distribution.csv"));
        write(&p, &dcsv)?;
        files.push(p);
        let p = dir.join(format!("{id}-win-distribution.svg"));
        distribution_chart(&p, &probs, &game.name).map_err(|e| ParError::Chart(p.display().to_string(), e))?;
        files.push(p);
    }
    let p = dir.join(format!("{id}-rtp-convergence.svg"));
    if let Some(c) = top {
        let rtp = c.rtp.to_f64().unwrap_or(0.0);
        convergence_chart(&p, game, c.lines, rtp, c.standard_deviation(), &game.name).map_err(|e| ParError::Chart(p.display().to_string(), e))?;
        files.push(p);
    }

    // The sheet.
    let mut md = String::new();
    let _ = writeln!(md, "# PAR sheet — {} (`{}`)\n", game.name, id);
    let _ = writeln!(
        md,
        "Generated by `paytable par` from the exact enumeration of the full game cycle ({} stop combinations). Every figure below is exact (rational arithmetic) except the simulated path of the convergence chart. RTP floor: {}% (M-17).\n",
        fig.cycle, rep.floor_percent
    );
    // A ways game (issue 50): its ways and each reel's rows, no paylines.
    let rows = if game.reel_rows.is_empty() { game.rows.to_string() } else { game.reel_rows.iter().map(u8::to_string).collect::<Vec<_>>().join("-") };
    let pays_by = if game.ways { format!("{} ways", game.ways_count()) } else { format!("{} paylines", game.lines.len()) };
    let bet_unit = if game.ways { "ways cost" } else { "lines" };
    let _ = writeln!(
        md,
        "## Game\n\n- {} reels × {rows} rows, {pays_by}; bets: {bet_unit} {:?} × credits per line {:?}",
        game.reels.len(),
        game.bet.lines,
        game.bet.credits_per_line
    );
    if let Some(w) = game.symbols.iter().find(|s| matches!(s.kind, game_core::reels::SymbolKind::Wild { .. })) {
        let _ = writeln!(md, "- Wild: {} ({:?})", w.name, w.kind);
    }
    if let Some(f) = game.free_games() {
        let _ = writeln!(
            md,
            "- Free games: awards by scatter count {:?}, wins ×{}, retrigger: {}",
            f.awards.iter().enumerate().filter(|(_, a)| **a > 0).collect::<Vec<_>>(),
            f.multiplier,
            f.retrigger
        );
    }
    if let Some(d) = &game.double_up {
        let _ = writeln!(
            md,
            "- Double-up: fair 50/50, RTP exactly 100% per gamble, at most {} doubles, maximum {} credits (M-11)",
            d.max_doubles, d.max_win_credits
        );
    }
    let _ = writeln!(md, "\n## Return to player by bet configuration\n");
    let _ = writeln!(
        md,
        "| lines | RTP % | lines % | scatter % | free games % | hit frequency % | 1 in | SD (total bets) | max base win (line credits) |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for c in &rep.configs {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {:.4} | {} |",
            c.lines,
            c.rtp_percent,
            c.share_lines_percent,
            c.share_scatter_percent,
            c.share_free_games_percent,
            c.hit_frequency_percent.as_deref().unwrap_or("skipped"),
            c.hit_frequency_one_in.map_or_else(|| "skipped".to_owned(), |x| format!("{x:.2}")),
            c.standard_deviation,
            c.max_base_win_credits_per_line_credit.map_or_else(|| "skipped".to_owned(), |m| m.to_string())
        );
    }
    let _ = writeln!(md, "\nExact RTP fractions:\n");
    for c in &rep.configs {
        let _ = writeln!(md, "- {} lines: `{}`", c.lines, c.rtp_exact);
    }
    if let Some(fg) = &rep.free_games {
        let _ = writeln!(
            md,
            "\n## Free games\n\n- triggered 1 in {:.2} games\n- {:.4} free games per trigger, retriggers included ({:.6} retriggered games per free game)\n- wins ×{}",
            fg.trigger_one_in, fg.mean_games_per_trigger, fg.retrigger_rate, fg.multiplier
        );
    }
    if let Some(h) = &rep.hold_and_spin {
        let _ = writeln!(
            md,
            "\n## Hold-and-spin\n\nExact, by a Markov chain over (cells held, respins left).\n\n- started 1 in {:.2} games; {}% of the RTP\n- per feature: mean win {:.4} total bets; a full screen (the grand) 1 in {:.1}\n\n| part | RTP % |\n|---|---:|",
            h.trigger_one_in, h.rtp_percent, h.mean_win_total_bets, h.full_screen_one_in
        );
        for (name, x) in &h.rtp_levels {
            let _ = writeln!(md, "| {name} | {x} |");
        }
        if h.grand_progressive {
            let _ = writeln!(md, "\n{}.", crate::check::PROGRESSIVE_GRAND);
        }
        let _ = writeln!(md, "\n| cells held at the end | probability per feature % |\n|---:|---:|");
        for (n, x) in &h.final_counts_percent {
            let _ = writeln!(md, "| {n} | {x} |");
        }
    }
    let _ = writeln!(
        md,
        "\n## Reel strips\n\n| symbol | kind |{} \n|---|---|{}",
        (1..=game.reels.len()).map(|r| format!(" reel {r} |")).collect::<String>(),
        "---:|".repeat(game.reels.len())
    );
    for (i, s) in game.symbols.iter().enumerate() {
        let counts: String = game
            .reels
            .iter()
            .map(|st| {
                let w: u64 = st.symbols.iter().enumerate().filter(|(_, x)| **x as usize == i).map(|(j, _)| st.weight(j)).sum();
                format!(" {w} / {} |", st.total_weight())
            })
            .collect();
        let _ = writeln!(md, "| {} | {:?} |{}", s.name, s.kind, counts);
    }
    let _ = writeln!(
        md,
        "\n## Winning combinations ({} lines)\n\n| combination | pays (line credits) | line hits in the cycle | probability per line | RTP contribution % |\n|---|---:|---:|---:|---:|",
        max
    );
    for (name, count, pay, hits, per_line, contribution) in &combo_rows {
        let _ = writeln!(md, "| {count} × {name} | {pay} | {hits} | 1 in {:.1} | {} |", 1.0 / per_line.to_f64().unwrap_or(f64::NAN), pct(contribution));
    }
    let _ = writeln!(md, "\n## Prizes and their odds per game ({} lines)\n\n| prize | pays | probability | 1 in |\n|---|---|---:|---:|", max);
    for p in &rep.prizes {
        let _ = writeln!(md, "| {} | {} | {:.6e} | {:.1} |", p.prize, p.pays, p.probability, p.one_in);
    }
    if let Some(t) = &rep.top_award {
        let _ = writeln!(md, "\nTop award: {} — 1 in {:.0} games.", t.prize, t.one_in);
    }
    if let Some(d) = &rep.odds_disclosure {
        let _ = writeln!(md, "\nOdds disclosure: {d}");
    }
    if histogram.is_some() {
        let _ = writeln!(md, "\n## Win distribution (base game, exact)\n\n| win (total bets) | probability |\n|---|---:|");
        for ((_, _, label), p) in BUCKETS.iter().zip(&probs) {
            let _ = writeln!(md, "| {label} | {p:.6e} |");
        }
        let _ = writeln!(md, "\n![win distribution]({id}-win-distribution.svg)");
    } else {
        let _ = writeln!(
            md,
            "\n## Win distribution\n\nSkipped: the hit frequency, the largest base win and the distribution need every line of a spin at once, that is a walk over every combination of the reels' distinct windows: {} here, past the limit of {}. The RTP and the standard deviation above are exact, from symbol counts. Prize odds are lower bounds (the one line most likely to pay).",
            crate::reel_math::work_size(game).0,
            crate::reel_math::FULL_CYCLE_LIMIT
        );
    }
    let _ = writeln!(
        md,
        "\n## RTP convergence\n\nThe exact RTP, its 99% band (±2.576·σ/√n) and one simulated path through the production game code.\n\n![RTP convergence]({id}-rtp-convergence.svg)"
    );
    let p = dir.join(format!("{id}-par.md"));
    write(&p, &md)?;
    files.push(p);
    Ok(files)
}

fn distribution_chart(path: &Path, probs: &[f64], title: &str) -> Result<(), String> {
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let floor = 1e-9f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{title}: base-game win distribution (exact)"), ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0..probs.len(), (floor..1.0f64).log_scale())
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_labels(probs.len())
        .x_label_formatter(&|i| BUCKETS.get(*i).map_or(String::new(), |b| b.2.to_owned()))
        .x_desc("win, in total bets")
        .y_desc("probability")
        .draw()
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(
            probs.iter().enumerate().filter(|(_, p)| **p > 0.0).map(|(i, &p)| Rectangle::new([(i, floor), (i + 1, p.max(floor))], BLUE.mix(0.6).filled())),
        )
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

fn convergence_chart(path: &Path, game: &ReelGame, lines: u32, rtp: f64, sd: f64, title: &str) -> Result<(), String> {
    let tables = StopTables::new(game).map_err(|e| e.to_string())?;
    let fast = FastReels::new(game, &tables);
    let mut rng = StreamRng::from_seed(1);
    let mut path_points = Vec::new();
    let (mut won, mut n) = (0u128, 0u64);
    let mut next = 100u64;
    while n < 10_000_000 {
        won += u128::from(fast.round(&mut rng, lines as usize));
        n += 1;
        if n == next {
            path_points.push((n as f64, won as f64 / (n as f64 * f64::from(lines))));
            next = (next as f64 * 1.25) as u64;
        }
    }
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let lo = (rtp - 2.0).max(0.0);
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{title}: RTP convergence, {lines} lines"), ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((100f64..1e7f64).log_scale(), lo..(rtp + 2.0))
        .map_err(|e| e.to_string())?;
    chart.configure_mesh().x_desc("games").y_desc("RTP").draw().map_err(|e| e.to_string())?;
    let xs: Vec<f64> = (0..=50).map(|i| 100f64 * 10f64.powf(i as f64 * 5.0 / 50.0)).collect();
    chart
        .draw_series(LineSeries::new(xs.iter().map(|&x| (x, rtp)), &BLACK))
        .map_err(|e| e.to_string())?
        .label(format!("exact RTP {:.4}%", rtp * 100.0))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
    for sign in [-1.0, 1.0] {
        chart.draw_series(LineSeries::new(xs.iter().map(|&x| (x, rtp + sign * 2.575_829 * sd / x.sqrt())), RED.mix(0.7))).map_err(|e| e.to_string())?;
    }
    chart
        .draw_series(LineSeries::new(path_points, BLUE))
        .map_err(|e| e.to_string())?
        .label("simulated")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
