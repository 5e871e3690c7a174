package dev.backplane.kernel.console;

import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * Renders kb bodies (Markdown written by people and agents) for the console. Raw HTML in the body is
 * escaped, not passed through, and link and image URLs are sanitised (only http, https, mailto and
 * data images survive), so a body cannot run script in an operator's browser.
 */
public final class Markdown {

    private final Parser parser = Parser.builder().build();
    private final HtmlRenderer renderer = HtmlRenderer.builder().escapeHtml(true).sanitizeUrls(true).build();

    public String toHtml(String markdown) {
        return renderer.render(parser.parse(markdown == null ? "" : markdown));
    }
}
