//! `skin`: see `skin --help`. Bad input exits with status 2 and one line on stderr,
//! `skin: <reason>`.

use std::process::ExitCode;

use clap::Parser as _;
use skin_host::cli::{run, Cli};

fn main() -> ExitCode {
    // A bug must still not spill a backtrace over the user: one line, then exit 101.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        eprintln!("skin: internal error (please report): {msg}");
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                print!("{e}");
                return ExitCode::SUCCESS;
            }
            let text = e.to_string();
            let line = text.lines().next().unwrap_or("bad arguments");
            eprintln!(
                "skin: {} (see skin --help)",
                line.trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run(cli, &mut out, &mut std::io::stderr()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("skin: {e}");
            ExitCode::from(2)
        }
    }
}
