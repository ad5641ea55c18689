//! Tools in modules are listed by path.

mod math {
    /// Multiplies two integers.
    #[rondo_mcp::tool]
    pub async fn mul(a: i64, b: i64) -> i64 {
        a * b
    }

    pub mod more {
        /// Negates an integer.
        #[rondo_mcp::tool(name = "neg")]
        pub fn negate(a: i64) -> i64 {
            -a
        }
    }
}

fn main() {
    let _ = rondo_mcp::tools![math::mul, math::more::negate,];
    let _ = rondo_mcp::tools![];
}
