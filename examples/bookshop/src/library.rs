//! The bookshop's two tools from the Python SDK's documentation: `blurb` asks the client's
//! model for a one-sentence blurb (`#[sample]`; without sampling, a blurb written from the
//! catalogue), and `catalog_folder` finds the catalogue's export folder in the client's roots
//! (`#[roots]`; without roots, the server's `BOOKSHOP_EXPORT_DIR`, else `-32021` naming
//! `roots`).

use crate::shop::Book;
use rondo_mcp::prelude::*;
use rondo_mcp::{Fallback, roots, sample, toolbox};

/// The catalogue and the configured export folder.
pub struct Library {
    /// The books.
    pub catalogue: Vec<Book>,
    /// `BOOKSHOP_EXPORT_DIR`: the export folder for clients without roots.
    pub export_dir: Option<String>,
}

/// A one-sentence blurb from the client's model.
#[sample(fallback = catalogue_blurb)]
fn blurb_for(book: &Book) -> Sample {
    Sample::user(format!(
        "Write a one-sentence blurb for the book \"{}\" by {}. Answer with the sentence only.",
        book.title, book.author
    ))
    .system("You write short, accurate back-cover blurbs for a bookshop.")
    .max_tokens(120)
}

/// Without the client's model: a blurb from the catalogue, the same every time.
fn catalogue_blurb(book: &Book) -> String {
    let (dollars, cents) = (book.price_cents / 100, book.price_cents % 100);
    format!(
        "\"{}\" by {}, the classic, is ${dollars}.{cents:02} at this bookshop.",
        book.title, book.author
    )
}

/// The folder the catalogue is exported to: the client's first root.
#[roots(fallback = configured_export_dir)]
fn export_roots(configured: &Option<String>) -> Roots;

/// Without roots: the server's configuration, else a refusal naming `roots`.
fn configured_export_dir(configured: &Option<String>) -> Fallback<Roots> {
    match configured {
        Some(dir) => Fallback::Answer(Roots::from_paths([dir])),
        None => Fallback::Refuse,
    }
}

#[toolbox]
impl Library {
    /// A one-sentence blurb for a book in the catalogue, by title (case-insensitive). The
    /// client's model writes it when the client can sample; otherwise it comes from the
    /// catalogue.
    #[tool(read_only_hint = true, asks = [blurb_for])]
    async fn blurb(
        &self,
        cx: &Cx,
        #[arg(description = "The book's title, or words from it")] title: String,
    ) -> Result<String, String> {
        let words = title.trim().to_lowercase();
        let book = self
            .catalogue
            .iter()
            .find(|b| !words.is_empty() && b.title.to_lowercase().contains(&words))
            .ok_or_else(|| format!("No book titled {title:?} in the catalogue."))?;
        let blurb = cx.ask(blurb_for(book)).await;
        Ok(blurb.trim().to_owned())
    }

    /// The folder the catalogue is exported to: the client's first root, or for a client
    /// without roots the server's BOOKSHOP_EXPORT_DIR. Roots are advisory.
    #[tool(read_only_hint = true, asks = [export_roots])]
    async fn catalog_folder(&self, cx: &Cx) -> Result<String, String> {
        let roots = cx.ask(export_roots(&self.export_dir)).await;
        let folder =
            roots.paths().into_iter().next().ok_or(
                "No export folder: the client's roots hold no local folder (a file:// URI).",
            )?;
        Ok(format!("Catalogue export folder: {}", folder.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rondo_mcp::protocol::{Error, Revision, code};
    use rondo_mcp::testing::{Reply, Script, TestClient};
    use serde_json::json;

    const BOTH: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

    fn server(export_dir: Option<&str>) -> Server<Router> {
        let library = Library {
            catalogue: crate::shop::Shop::new().books().to_vec(),
            export_dir: export_dir.map(Into::into),
        };
        Server::new(Router::new(ServerInfo::new("bookshop", "1")).tools(library))
    }

    async fn client(
        server: Server<Router>,
        rev: Revision,
        caps: ClientCapabilities,
        script: Script,
    ) -> TestClient {
        let c = TestClient::builder(server, rev)
            .capabilities(caps)
            .script(script);
        c.connect().await.unwrap()
    }

    const FROM_CATALOGUE: &str = "\"The Rust Programming Language\" by Klabnik & Nichols, the classic, is $39.99 at this bookshop.";

    #[tokio::test]
    async fn the_clients_model_writes_the_blurb() {
        for rev in BOTH {
            let script = Script::new().sample(Reply::sample_text(" Ownership, explained kindly. "));
            let c = client(
                server(None),
                rev,
                ClientCapabilities::with_sampling(),
                script,
            )
            .await;
            let call = c
                .call_tool("blurb", json!({"title": "rust"}))
                .await
                .unwrap();
            assert_eq!(call.text(), "Ownership, explained kindly.", "{rev}");
        }
    }

    #[tokio::test]
    async fn without_a_model_the_blurb_comes_from_the_catalogue() {
        for rev in BOTH {
            let c = client(
                server(None),
                rev,
                ClientCapabilities::default(),
                Script::new(),
            )
            .await;
            let call = c
                .call_tool("blurb", json!({"title": "Rust"}))
                .await
                .unwrap();
            assert_eq!(call.text(), FROM_CATALOGUE, "{rev}");
            assert_eq!(call.rounds, 1);
        }
        let reject = Reply::Error(Error::new(-1, "User rejected sampling request"));
        let c = client(
            server(None),
            Revision::V2025_11_25,
            ClientCapabilities::with_sampling(),
            Script::new().sample(reject),
        )
        .await;
        let call = c
            .call_tool("blurb", json!({"title": "rust"}))
            .await
            .unwrap();
        assert_eq!(call.text(), FROM_CATALOGUE);
    }

    #[tokio::test]
    async fn an_unknown_title_is_a_tool_error() {
        let c = client(
            server(None),
            Revision::V2026_07_28,
            ClientCapabilities::with_sampling(),
            Script::new(),
        )
        .await;
        let call = c
            .call_tool("blurb", json!({"title": "Dune"}))
            .await
            .unwrap();
        assert!(call.is_error());
        assert_eq!(call.text(), "No book titled \"Dune\" in the catalogue.");
    }

    #[tokio::test]
    async fn the_export_folder_comes_from_the_roots_then_the_configuration_else_a_refusal() {
        for rev in BOTH {
            let roots = Roots::from_paths(["/srv/exports", "/srv/other"])
                .roots()
                .to_vec();
            let c = client(
                server(Some("/etc/configured")),
                rev,
                ClientCapabilities::with_roots(),
                Script::new().roots(Reply::roots(roots)),
            )
            .await;
            let call = c.call_tool("catalog_folder", json!({})).await.unwrap();
            assert_eq!(
                call.text(),
                "Catalogue export folder: /srv/exports",
                "{rev}"
            );

            let c = client(
                server(Some("/srv/configured")),
                rev,
                ClientCapabilities::default(),
                Script::new(),
            )
            .await;
            let call = c.call_tool("catalog_folder", json!({})).await.unwrap();
            assert_eq!(
                call.text(),
                "Catalogue export folder: /srv/configured",
                "{rev}"
            );

            let c = client(
                server(None),
                rev,
                ClientCapabilities::default(),
                Script::new(),
            )
            .await;
            let err = c.call_tool("catalog_folder", json!({})).await.unwrap_err();
            assert_eq!(err.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY, "{rev}");
            assert_eq!(
                err.data.unwrap()["requiredCapabilities"],
                json!({"roots": {}})
            );
        }
    }
}
