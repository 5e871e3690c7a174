package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.CommonErrors;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The forms console pages post, decoded into field values: url-encoded (the first value of a repeated field wins;
 * undecodable is {@code unreadable_request}) or multipart, where an uploaded file's text is under its field name and
 * its file name under {@code <field>.filename}.
 */
final class ConsoleForms {

    private ConsoleForms() {
    }

    /** The fields of {@code raw}: multipart with {@code boundary} when there is one, else url-encoded UTF-8. */
    static Map<String, String> decode(byte[] raw, Optional<String> boundary) {
        if (boundary.isPresent()) {
            Map<String, String> form = new LinkedHashMap<>();
            MultipartForm.parse(raw, boundary.get(), form).forEach((field, upload) -> {
                form.put(field, upload.content());
                form.put(field + ".filename", upload.name());
            });
            return form;
        }
        return urlEncoded(new String(raw, StandardCharsets.UTF_8));
    }

    /** The fields of an {@code application/x-www-form-urlencoded} body; a field without {@code =} is empty. */
    static Map<String, String> urlEncoded(String text) {
        Map<String, String> form = new LinkedHashMap<>();
        if (text.isEmpty()) {
            return form;
        }
        try {
            for (String pair : text.split("&")) {
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                form.putIfAbsent(name, value);
            }
        } catch (IllegalArgumentException e) {
            throw CommonErrors.UNREADABLE_REQUEST.error("the form is not valid application/x-www-form-urlencoded");
        }
        return form;
    }

    /** A list's page number from the query: 1 when absent or unreadable, at most {@value #MAX_PAGE}. */
    static int pageNumber(String text) {
        try {
            return Math.min(MAX_PAGE, Math.max(1, Integer.parseInt(text.strip())));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** The deepest page a list offers (a bound on the offset a query string can ask for). */
    static final int MAX_PAGE = 10_000;

    /** Refuses {@code value} longer than {@code max} characters with {@code invalid_request} naming the field. */
    static void checkLength(String field, String value, int max) {
        if (value.length() > max) {
            throw CommonErrors.INVALID_REQUEST.error(field + " is longer than " + max + " characters",
                    Map.of("field", field));
        }
    }

    /** A duration as people say it: "in 5 min", "2 h ago", "just now". */
    static String relative(Duration d) {
        long s = Math.abs(d.toSeconds());
        String amount = s < 60 ? s + " s" : s < 3600 ? s / 60 + " min" : s < 172_800 ? s / 3600 + " h" : s / 86_400 + " d";
        if (s < 5) {
            return "just now";
        }
        return d.isNegative() ? amount + " ago" : "in " + amount;
    }
}
