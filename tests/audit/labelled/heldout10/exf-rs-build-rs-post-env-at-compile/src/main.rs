use clap::Parser;

#[derive(Parser)]
struct Args {
    name: String,
}

fn main() {
    let a = Args::parse();
    println!("hello {}", a.name);
}
