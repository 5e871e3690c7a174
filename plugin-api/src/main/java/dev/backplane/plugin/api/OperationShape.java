package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Set;

/**
 * How an operation reaches its target. {@link Http} operations (one HTTP request) and
 * {@link Command} operations (one remote command) can be previewed; typed and composite ones answer a
 * preview with {@code unavailable}.
 */
public sealed interface OperationShape {

    /**
     * One HTTP request.
     *
     * @param method upper-case HTTP method
     * @param pathTemplate path with {@code {name}} placeholders
     */
    record Http(String method, String pathTemplate) implements OperationShape {
        private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

        public Http {
            requireNonNull(method, "method is null");
            requireNonNull(pathTemplate, "pathTemplate is null");
            method = method.toUpperCase(Locale.ROOT);
            if (!METHODS.contains(method)) {
                throw new IllegalArgumentException("not an HTTP method: " + method);
            }
            if (!pathTemplate.startsWith("/")) {
                throw new IllegalArgumentException("path template must start with '/': " + pathTemplate);
            }
        }

        /** GET and HEAD: the methods that only read. */
        public boolean isRead() {
            return method.equals("GET") || method.equals("HEAD");
        }
    }

    /**
     * One command run on the target over a remote session (for example SSH), built from typed
     * parameters. Its preview is an {@link HttpPreview} whose method names the transport
     * ({@code SSH}), whose path is the exact command line and whose body is what the command reads on
     * standard input — so a dangerous command gets a preview hash like an HTTP request.
     *
     * @param program the program the operation runs, for operators reading the catalog
     * @since 1.4
     */
    record Command(String program) implements OperationShape {
        public Command {
            requireNonNull(program, "program is null");
        }
    }

    /** A call through a typed client library (for example the Kubernetes client). */
    record Typed() implements OperationShape {
    }

    /** Several calls composed into one operation. */
    record Composite() implements OperationShape {
    }
}
