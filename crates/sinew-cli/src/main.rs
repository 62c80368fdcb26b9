//! The `sinew` binary: parses the command line and prints the result; errors go to stderr
//! as one line naming the file, with exit status 1 (2 for usage errors, from clap).

use clap::Parser;
use sinew_cli::args::Cli;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
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
