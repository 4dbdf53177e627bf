//! `skin`: see `skin --help`. Bad input exits with status 2 and one line on stderr,
//! `skin: <reason>`.

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;
use skin_host::cli::{run, Cli};

fn main() -> ExitCode {
    quiet_mesa();
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

/// Mesa's Vulkan drivers (lavapipe, the adapter on machines without a GPU) probe for a
/// Wayland display and print `error: XDG_RUNTIME_DIR is invalid or not set` when the
/// variable is missing, as it is under `sudo`, in CI and over plain ssh. `skin` never opens a
/// window, so without one it points the variable at a private, empty directory. Runs first
/// in `main`, before any thread exists.
fn quiet_mesa() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_some() {
        return;
    }
    let dir = std::env::temp_dir().join("skin-runtime");
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    if builder.create(&dir).is_ok() || dir.is_dir() {
        std::env::set_var("XDG_RUNTIME_DIR", dir);
    }
}
