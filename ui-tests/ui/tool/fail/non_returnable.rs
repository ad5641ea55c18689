struct Report {
    lines: Vec<String>,
}

/// Reports.
#[rondo_mcp::tool]
async fn report() -> Report {
    Report { lines: Vec::new() }
}

fn main() {
    let _ = rondo_mcp::tools![report];
}
