package dev.backplane.kernel.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MarkdownTest {

    private final Markdown markdown = new Markdown();

    @Test
    void rendersMarkdown() {
        assertThat(markdown.toHtml("# Title\n\nsome **bold** and [a link](https://example.test/x)"))
                .contains("<h1>Title</h1>").contains("<strong>bold</strong>")
                .contains("href=\"https://example.test/x\"");
    }

    @Test
    void rawHtmlIsEscapedNotPassedThrough() {
        String html = markdown.toHtml("<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\ntext <b onclick=x>b</b>");
        assertThat(html).doesNotContain("<script").doesNotContain("<img").doesNotContain("<b ")
                .contains("&lt;script&gt;").contains("&lt;img src=x onerror=alert(2)&gt;");
    }

    @Test
    void scriptUrlsInLinksAndImagesAreDropped() {
        String html = markdown.toHtml("[x](javascript:alert(1)) ![y](javascript:alert(2)) [z](vbscript:msgbox) "
                + "[d](data:text/html;base64,PHNjcmlwdD4=) ![s](data:image/svg+xml;base64,PHN2Zz4=) [t](\tjavascript:x)"
                + " [u](JAVASCRIPT:x)");
        assertThat(html.toLowerCase()).doesNotContain("javascript:").doesNotContain("vbscript:")
                .doesNotContain("data:text/html").doesNotContain("data:image/svg");
    }

    @Test
    void safeSchemesAndRelativeUrlsStay() {
        assertThat(markdown.toHtml("[a](https://x.test/a) [m](mailto:ops@x.test) [r](/ui/kb/entry/x) [q](?a=b:c) "
                + "![i](data:image/png;base64,iVBOR)"))
                .contains("href=\"https://x.test/a\"").contains("href=\"mailto:ops@x.test\"")
                .contains("href=\"/ui/kb/entry/x\"").contains("href=\"?a=b:c\"").contains("src=\"data:image/png;base64,iVBOR\"");
    }

    @Test
    void nullRendersAsNothing() {
        assertThat(markdown.toHtml(null)).isEmpty();
    }
}
