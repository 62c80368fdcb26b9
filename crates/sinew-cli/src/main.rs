//! The `sinew` binary: parses the command line and prints the result; errors go to stderr
//! as one line naming the file, with exit status 1 (2 for usage errors, from clap).

use clap::Parser;
use sinew_cli::args::Cli;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let sinew_cli::args::Command::Lint(args) = &cli.command {
        // The guard and the linter share one read of each input (`read_once`).
        return sinew_formats::read_once::read_once(|| lint(&cli, args)).0;
    }
    match sinew_cli::run_guarded(&cli) {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (`sinew dump ... | head`) is not an error worth reporting.
            let _ = stdout
                .write_all(out.as_bytes())
                .and_then(|()| stdout.flush());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}", sinew_cli::validate::one_line(&e));
            ExitCode::FAILURE
        }
    }
}

/// `sinew lint`: exits 1 when it finds errors and 2 when the file cannot be read.
fn lint(cli: &Cli, args: &sinew_cli::lint::LintArgs) -> ExitCode {
    if let Err(e) = sinew_cli::guard::precheck(cli) {
        eprintln!("error: {}", sinew_cli::validate::one_line(&e));
        return ExitCode::from(2);
    }
    match sinew_cli::lint_guarded(args, &cli.budgets.budgets()) {
        Ok(outcome) => {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout
                .write_all(outcome.stdout.as_bytes())
                .and_then(|()| stdout.flush());
            ExitCode::from(outcome.status)
        }
        Err(e) => {
            eprintln!("error: {}", sinew_cli::validate::one_line(&e));
            ExitCode::from(2)
        }
    }
}
