fn main() {
    std::process::exit(mmconform::cli::main());
}
