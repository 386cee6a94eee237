//! Reel paytables: the exact check with its progress, and the simulation.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use paytables::check::Floor;

use super::{check, rounds_bar, seed_or_fresh, verdict};

/// Run a reel analysis with its size announced when it is large, and a
/// progress bar on a terminal while it runs.
pub(super) fn watched<T>(game: &game_core::reels::ReelGame, work: &paytables::reel_math::Work, run: impl FnOnce() -> T + Send) -> T
where
    T: Send,
{
    let (combos, stops) = paytables::reel_math::work_size(game);
    let by_counts = paytables::reel_math::method_for(game) == paytables::reel_math::Method::SymbolCounts;
    if by_counts {
        eprintln!(
            "exact analysis of {}: {combos} combinations of the reels' distinct windows are too many to walk; exact RTP and SD from symbol counts",
            game.id
        );
    } else if combos > 100_000_000 && !game.ways {
        // A ways game is not walked (generating functions over the reels).
        eprintln!("exact analysis of {}: {combos} combinations of the reels' distinct windows, walked in {stops} first-reel windows", game.id);
    }
    let bar = indicatif::ProgressBar::new(stops);
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let unit = if by_counts { "lines and pairs of lines" } else { "first-reel windows" };
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {unit}  eta {{eta}}"))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // The watcher wakes every 100 ms, and at once when the work ends (issue
    // 36: a sleep made every check last at least 0.1 s).
    let (finished, wait) = std::sync::mpsc::channel::<()>();
    let watcher = bar.clone();
    std::thread::scope(|s| {
        s.spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(std::time::Duration::from_millis(100)) {
                let (done, total) = work.progress();
                watcher.set_length(total);
                watcher.set_position(done);
            }
        });
        let out = run();
        drop(finished);
        bar.finish_and_clear();
        out
    })
}

/// Load and check a paytable; refuse with every reason.
pub(super) fn checked(file: &std::path::Path, floor: &str) -> Result<(paytables::Source, paytables::check::Checked)> {
    let floor = Floor::from_percent(floor)?;
    let source = paytables::load_source(file)?;
    let checked = check(&source.game, &floor, source.odds_disclosure.as_deref()).map_err(|e| anyhow!("{}", paytables::math_refusal::locate(&source, &e)))?;
    verdict(file, &checked.refusals.iter().map(|r| r.to_string()).collect::<Vec<_>>(), true)?;
    Ok((source, checked))
}

pub(super) fn simulate(file: &std::path::Path, games: u64, seed: Option<u64>, lines: Option<u32>, threads: Option<usize>, json: bool) -> Result<ExitCode> {
    let source = paytables::load_source(file)?;
    let game = &source.game;
    let lines = lines.unwrap_or_else(|| game.bet.lines.last().copied().unwrap_or(1));
    if !game.bet.lines.contains(&lines) {
        return Err(anyhow!("{}: {lines} lines is not a bet this game offers ({:?})", file.display(), game.bet.lines));
    }
    let seed = seed_or_fresh(seed)?;
    let threads = threads.unwrap_or_else(super::threads);
    let exact = paytables::reel_math::analyse(game)?;
    let exact_rtp = exact.configs.iter().find(|c| c.lines == lines).map(|c| num_traits::ToPrimitive::to_f64(&c.rtp).unwrap_or(f64::NAN)).unwrap_or(f64::NAN);
    let bar = rounds_bar(games, json);
    let started = std::time::Instant::now();
    let r = paytables::simulate::run_parallel(game, lines, games, seed, threads, &|n| bar.inc(n))?;
    let secs = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let (lo, hi) = r.ci99();
    let inside = exact_rtp >= lo && exact_rtp <= hi;
    if json {
        let doc = serde_json::json!({
            "game": game.id, "lines": lines, "games": r.games, "seed": seed, "threads": threads,
            "measured_rtp": r.rtp(), "ci99": [lo, hi], "exact_rtp": exact_rtp, "exact_inside_ci99": inside,
            "standard_deviation": r.standard_deviation(), "seconds": secs, "rounds_per_second": r.games as f64 / secs,
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        println!(
            "{} — {} rounds at {} lines, seed {seed}, {threads} thread(s), {:.2} s ({:.0} rounds/s)",
            game.name,
            r.games,
            lines,
            secs,
            r.games as f64 / secs
        );
        println!("measured RTP {:.4}%   99% interval [{:.4}%, {:.4}%]", r.rtp() * 100.0, lo * 100.0, hi * 100.0);
        println!("exact RTP    {:.4}%   {}", exact_rtp * 100.0, if inside { "inside the interval" } else { "OUTSIDE the interval" });
    }
    Ok(ExitCode::SUCCESS)
}

/// A band `LOW..HIGH` of a command-line option, scaled by `scale`.
fn band(what: &str, text: Option<&str>, scale: f64) -> Result<Option<(f64, f64)>> {
    let Some(text) = text else { return Ok(None) };
    let (lo, hi) = text.split_once("..").ok_or_else(|| anyhow!("--{what} {text:?}: a band is LOW..HIGH"))?;
    let num = |x: &str| x.trim().parse::<f64>().map_err(|_| anyhow!("--{what} {text:?}: {x:?} is not a number"));
    let (lo, hi) = (num(lo)?, num(hi)?);
    if lo.is_nan() || hi.is_nan() || lo > hi {
        return Err(anyhow!("--{what} {text:?}: the band's low end is above its high end"));
    }
    Ok(Some((lo * scale, hi * scale)))
}

/// The bands `paytable generate` may aim for, as typed: the hit frequency
/// (%), the SD (total bets), the largest win's odds (1 in N games).
pub(super) struct Bands<'a> {
    pub hit: Option<&'a str>,
    pub sd: Option<&'a str>,
    pub top: Option<&'a str>,
}

/// `paytable generate` (issue 50): strips to the targets, written to `out`.
pub(super) fn generate(file: &std::path::Path, out: &std::path::Path, rtp: &str, bands: Bands<'_>, seed: u64, steps: usize) -> Result<ExitCode> {
    let source = paytables::load_source(file)?;
    let target = Floor::from_percent(rtp).map_err(|e| anyhow!("--rtp {rtp}: {e}"))?;
    let top = band("top", bands.top, 1.0)?;
    if top.is_some_and(|(lo, _)| lo < 1.0) {
        return Err(anyhow!("--top {:?}: the largest win's odds are 1 in N games, N at least 1", bands.top.unwrap_or_default()));
    }
    let targets = paytables::generate::Targets::to_a_hundredth_of_a_percent(target.value(), band("hit", bands.hit, 0.01)?, band("sd", bands.sd, 1.0)?, top);
    let mut rng = meters::StreamRng::from_seed(seed);
    let started = std::time::Instant::now();
    let g = paytables::generate::generate(&source.game, &targets, &mut rng, steps)?;
    let text = paytables::generate::with_strips(&source.text, &g.game).ok_or_else(|| anyhow!("{}: no `reels: [...]` list to rewrite", file.display()))?;
    // Issue 73: the strips written are an RTP variant of the source's game,
    // with an id of their own (the output file's name), approved beside it.
    let id = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| anyhow!("{}: no file name to take the id from", out.display()))?;
    let of = source.game.variant_of.clone().unwrap_or_else(|| source.game.id.clone());
    if id == source.game.id || id == of {
        return Err(anyhow!("{}: the variant needs an id of its own, not {id:?}: name the output file after it (e.g. {of}-94.ron)", out.display()));
    }
    let text = paytables::generate::as_variant(&text, &id, &of).ok_or_else(|| anyhow!("{}: no `id: \"…\"` to rewrite", file.display()))?;
    std::fs::write(out, text).map_err(|e| anyhow!("{}: {e}", out.display()))?;
    let pct = paytables::generate::percent;
    println!(
        "{}: RTP {} %, hit frequency {}, SD {:.3}, largest win {} after {} steps ({:.1} s, seed {seed})",
        out.display(),
        pct(&g.rtp),
        g.hit_frequency.map_or("—".to_owned(), |h| format!("{:.2} %", h * 100.0)),
        g.sd,
        g.top_one_in.map_or("never".to_owned(), |n| format!("1 in {n:.0}")),
        g.steps,
        started.elapsed().as_secs_f64()
    );
    if g.missed.is_empty() {
        println!("every target met; prove it: paytable check {}", out.display());
        Ok(ExitCode::SUCCESS)
    } else {
        for m in &g.missed {
            println!("not met: {m}");
        }
        Ok(ExitCode::from(1))
    }
}
