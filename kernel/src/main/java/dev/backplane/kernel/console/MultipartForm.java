package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.CommonErrors;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code multipart/form-data} body (RFC 7578) as the console's one upload form sends it: text fields,
 * and files whose content is text (API specs). Parsed from the bytes already read under the size cap.
 */
final class MultipartForm {

    private static final Pattern BOUNDARY = Pattern.compile("boundary=\"?([^\";]{1,70})\"?");
    private static final Pattern NAME = Pattern.compile("\\bname=\"([^\"]*)\"");
    private static final Pattern FILENAME = Pattern.compile("\\bfilename=\"([^\"]*)\"");

    /** An uploaded file; {@code name} is the file name the browser sent. */
    record Upload(String name, String content) {
        @Override
        public String toString() {
            return "Upload[" + name + ", " + content.length() + " chars]";
        }
    }

    private MultipartForm() {
    }

    /** The boundary of a {@code multipart/form-data} content type, if it is one. */
    static Optional<String> boundary(String contentType) {
        if (contentType == null || !contentType.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/form-data")) {
            return Optional.empty();
        }
        Matcher m = BOUNDARY.matcher(contentType);
        if (!m.find()) {
            throw CommonErrors.UNREADABLE_REQUEST.error("multipart/form-data without a boundary");
        }
        return Optional.of(m.group(1));
    }

    /**
     * Puts text fields into {@code fields} and returns the files by field name (the first of each name).
     *
     * @throws dev.backplane.kernel.errors.DomainException {@code invalid_request} (400) for a malformed body
     */
    static Map<String, Upload> parse(byte[] body, String boundary, Map<String, String> fields) {
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        Map<String, Upload> files = new LinkedHashMap<>();
        int at = indexOf(body, delimiter, 0);
        if (at < 0) {
            throw malformed();
        }
        while (true) {
            int start = at + delimiter.length;
            if (start + 2 <= body.length && body[start] == '-' && body[start + 1] == '-') {
                return files; // closing delimiter
            }
            start = skipLineBreak(body, start);
            int next = indexOf(body, delimiter, start);
            if (next < 0) {
                throw malformed();
            }
            int end = next;
            if (end >= 2 && body[end - 2] == '\r' && body[end - 1] == '\n') {
                end -= 2;
            }
            part(Arrays.copyOfRange(body, start, Math.max(start, end)), fields, files);
            at = next;
        }
    }

    private static void part(byte[] part, Map<String, String> fields, Map<String, Upload> files) {
        int split = indexOf(part, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), 0);
        if (split < 0) {
            throw malformed();
        }
        String headers = new String(part, 0, split, StandardCharsets.UTF_8);
        String content = new String(part, split + 4, part.length - split - 4, StandardCharsets.UTF_8);
        Matcher name = NAME.matcher(headers);
        if (!name.find()) {
            throw malformed();
        }
        Matcher file = FILENAME.matcher(headers);
        if (file.find()) {
            if (!file.group(1).isEmpty()) {
                files.putIfAbsent(name.group(1), new Upload(file.group(1), content));
            }
        } else {
            fields.putIfAbsent(name.group(1), content);
        }
    }

    private static int skipLineBreak(byte[] b, int i) {
        if (i + 1 < b.length && b[i] == '\r' && b[i + 1] == '\n') {
            return i + 2;
        }
        throw malformed();
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static dev.backplane.kernel.errors.DomainException malformed() {
        return CommonErrors.UNREADABLE_REQUEST.error("the upload is not valid multipart/form-data");
    }
}
