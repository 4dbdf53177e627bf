//! `skin`: see `skin --help`. Bad input exits with status 2 and one line on stderr,
//! `skin: <reason>`.

use std::io::Write as _;
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
                // A closed pipe (`skin --help | head`) is not an error worth a message.
                let _ = write!(std::io::stdout(), "{e}");
                return ExitCode::SUCCESS;
            }
            // clap's first paragraph, on one line (a list of missing arguments follows
            // its first line).
            let text = e.to_string();
            let para: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let line = para.join(" ");
            let line = line.trim_start_matches("error: ");
            eprintln!(
                "skin: {} (see skin --help)",
                if line.is_empty() {
                    "bad arguments"
                } else {
                    line
                }
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
            ExitCode::from(e.status())
        }
    }
}
