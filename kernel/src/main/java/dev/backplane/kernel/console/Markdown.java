package dev.backplane.kernel.console;

import java.util.Locale;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.commonmark.renderer.html.UrlSanitizer;

/**
 * Renders kb bodies (Markdown written by people and agents) for the console. Raw HTML in the body is
 * escaped, not passed through, and link and image URLs keep only safe schemes (links: http, https,
 * mailto and relative; images: http, https, relative and {@code data:image/}), so a body cannot run
 * script in an operator's browser.
 */
public final class Markdown {

    private final Parser parser = Parser.builder().build();
    private final HtmlRenderer renderer = HtmlRenderer.builder().escapeHtml(true).sanitizeUrls(true)
            .urlSanitizer(new SafeSchemes()).build();

    public String toHtml(String markdown) {
        return renderer.render(parser.parse(markdown == null ? "" : markdown));
    }

    /** commonmark's default lets {@code data:} through for links too; this one does not. */
    private static final class SafeSchemes implements UrlSanitizer {
        @Override
        public String sanitizeLinkUrl(String url) {
            return allowed(url, false) ? url : "";
        }

        @Override
        public String sanitizeImageUrl(String url) {
            return allowed(url, true) ? url : "";
        }

        private static boolean allowed(String url, boolean image) {
            String u = url.strip().toLowerCase(Locale.ROOT);
            int colon = u.indexOf(':');
            int slash = u.indexOf('/');
            if (colon < 0 || (slash >= 0 && slash < colon) || u.indexOf('?') >= 0 && u.indexOf('?') < colon
                    || u.indexOf('#') >= 0 && u.indexOf('#') < colon) {
                return true; // relative: no scheme
            }
            String scheme = u.substring(0, colon);
            return scheme.equals("http") || scheme.equals("https") || (!image && scheme.equals("mailto"))
                    || (image && u.startsWith("data:image/") && !u.startsWith("data:image/svg"));
        }
    }
}
