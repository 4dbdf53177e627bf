fn main() {
    eprintln!("skin: the command-line tool is not built yet");
    std::process::exit(2);
}
