use rondo_mcp::{Sample, sample};

#[sample(fallback = refuse)]
fn distance((from, to): (&str, &str)) -> Sample {
    Sample::user(format!("How far is {from} from {to}?"))
}

fn main() {}
