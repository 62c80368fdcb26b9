//! The `sinew` command-line tool as a library: `dump` (the oracle's pose dump schema),
//! `info`, `validate` and `bench`, so tests can call the commands in-process.
//!
//! Module map: [`args`] (command-line forms), [`stepping`] (sample times and the step
//! schedule), [`schema`] (JS-compatible JSON numbers), [`pose`] (the only module that calls
//! the runtime), and one module per command. Verified by unit tests beside the code, the
//! golden suite (`tests/all/golden.rs`) and the binary tests (`tests/all/cli.rs`).

pub mod args;
pub mod bench;
pub mod cage;
pub mod convert;
pub mod dragonbones;
pub mod dump;
pub mod gpu_backend;
pub mod guard;
pub mod info;
pub mod inochi;
pub mod inochi_render;
pub mod lint;
pub mod pose;
pub mod render;
pub mod schema;
pub mod stepping;
pub mod stream;
pub mod validate;
pub mod view;

use anyhow::Result;
use args::{Cli, Command};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs a parsed command and returns what to print on stdout.
pub fn run(cli: &Cli) -> Result<String> {
    // Every input file the guard checks is read once (`sinew_formats::read_once`): the
    // guard's sniffing, format detection, the loader and the dump's metadata share its bytes.
    sinew_formats::read_once::read_once(|| run_checked(cli)).0
}

fn run_checked(cli: &Cli) -> Result<String> {
    guard::precheck(cli)?;
    // The budget flags apply to this command's loads and checks only, passed down
    // explicitly (no process-wide setting).
    let b = &cli.budgets.budgets();
    let mut out = match &cli.command {
        Command::Dump(a) => dump::dump(a, b)?.to_string(),
        Command::Info(a) => info::info(a, b)?,
        Command::Validate(a) => validate::validate(a, b)?,
        Command::Bench(a) => bench::bench(a, b)?,
        Command::Render(a) => render::render(a, b)?,
        Command::Cage(a) => cage::cage(a, b)?,
        Command::Lint(a) => lint::lint(a, b)?.stdout,
        Command::Convert(a) => convert::convert(a, b)?,
        Command::View(a) => view::view(a, b)?,
    };
    if !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

/// Runs a command, turning a panic anywhere below into an "internal error" instead of an
/// abort with a backtrace (the last line of defence: loaders and stages must not panic).
pub fn run_guarded(cli: &Cli) -> Result<String> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = catch_unwind(AssertUnwindSafe(|| run(cli)));
    std::panic::set_hook(previous);
    match result {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            Err(anyhow::anyhow!("internal error (please report): {msg}"))
        }
    }
}

/// `sinew lint` with the same panic guard as [`run_guarded`]; its exit status is in the
/// outcome (an `Err` is a file that cannot be read: status 2).
pub fn lint_guarded(
    args: &lint::LintArgs,
    budgets: &sinew_formats::budget::Budgets,
) -> Result<lint::LintOutcome> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = catch_unwind(AssertUnwindSafe(|| lint::lint(args, budgets)));
    std::panic::set_hook(previous);
    result.unwrap_or_else(|_| {
        Err(anyhow::anyhow!(
            "internal error (please report): lint panicked"
        ))
    })
}
