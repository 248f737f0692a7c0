//! What the self-contained HTML pages (the replay viewer, the results page) share: a template
//! with its style and script embedded at build time, and the page's data as JSON.

/// A page made of its `template` with `{{TITLE}}`, `{{STYLE}}`, `{{SCRIPT}}` and `{{DATA}}`
/// filled in: `title` escaped for HTML, and `data` as JSON that no string in it can break out
/// of (`<` only occurs inside JSON strings, where `\u003c` means the same, so no
/// `</script>` in a bot's name or reply can end the data block early).
pub(crate) fn fill_page(
    template: &str,
    title: &str,
    style: &str,
    script: &str,
    data: &impl serde::Serialize,
) -> String {
    let json = serde_json::to_string(data)
        .expect("a page's data always serializes")
        .replace('<', "\\u003c");
    // The data goes in last, so nothing in it is ever taken for a placeholder.
    template
        .replace("{{TITLE}}", &escape_html(title))
        .replace("{{STYLE}}", style)
        .replace("{{SCRIPT}}", script)
        .replace("{{DATA}}", &json)
}

/// `text` safe between HTML tags.
fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_is_escaped_and_the_data_cannot_end_its_script() {
        let page = fill_page(
            "<title>{{TITLE}}</title><script>{{DATA}}</script>",
            "a<b>&",
            "",
            "",
            &["</script>{{TITLE}}"],
        );
        assert_eq!(
            page,
            "<title>a&lt;b&gt;&amp;</title><script>[\"\\u003c/script>{{TITLE}}\"]</script>"
        );
    }
}
