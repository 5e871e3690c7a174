package dev.backplane.kernel.egress;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/** The header lines of one message the egress proxy relays (after its start line), read as the proxy needs them. */
record Headers(List<String> lines) {

    /** The headers of a head split into lines, its start line first. */
    static Headers of(List<String> headLines) {
        return new Headers(headLines.subList(1, headLines.size()));
    }

    /** Whether a header {@code name} lists {@code token} among its comma-separated values (both case-insensitive). */
    boolean has(String name, String token) {
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                for (String v : line.substring(colon + 1).split(",")) {
                    if (v.trim().equalsIgnoreCase(token)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The Content-Length, or -1 when absent; a malformed one is an error. */
    long contentLength() throws IOException {
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                try {
                    long n = Long.parseLong(line.substring(colon + 1).trim());
                    if (n < 0) {
                        throw new IOException("negative Content-Length");
                    }
                    return n;
                } catch (NumberFormatException e) {
                    throw new IOException("malformed Content-Length");
                }
            }
        }
        return -1;
    }

    /** Appends every line except hop-by-hop ones (Connection, Keep-Alive) and those with the given prefixes. */
    void appendHopByHopFree(StringBuilder to, String... dropPrefixes) {
        for (String line : lines) {
            String lower = line.toLowerCase(Locale.ROOT);
            boolean drop = line.isEmpty() || lower.startsWith("connection:") || lower.startsWith("keep-alive:");
            for (String prefix : dropPrefixes) {
                drop |= lower.startsWith(prefix);
            }
            if (!drop) {
                to.append(line).append("\r\n");
            }
        }
    }
}
