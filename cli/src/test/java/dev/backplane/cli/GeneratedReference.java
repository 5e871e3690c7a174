package dev.backplane.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A reference under {@code docs/reference/} generated from the code: the committed file must be exactly what the code
 * generates today. With {@code -Dsvc.docs.regenerate=true} (what {@code bin/gen-docs} passes) the file is rewritten
 * instead of checked. The kernel's twin is {@code dev.backplane.kernel.testing.GeneratedReference}.
 */
final class GeneratedReference {

    /** The one command that rewrites every generated reference. */
    static final String REGENERATE = "bin/gen-docs";

    private GeneratedReference() {
    }

    /** Rewrites {@code file} when regenerating; otherwise throws {@link AssertionError} unless it holds {@code generated}. */
    static void check(Path file, String generated) throws IOException {
        if (Boolean.getBoolean("svc.docs.regenerate")) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, generated, StandardCharsets.UTF_8);
            System.out.println("regenerated " + file.toAbsolutePath().normalize());
            return;
        }
        String shown = file.normalize().toString().replaceFirst("^\\.\\./", "");
        if (!Files.exists(file)) {
            throw new AssertionError(shown + " is missing. Generate it with: " + REGENERATE);
        }
        String committed = Files.readString(file, StandardCharsets.UTF_8);
        if (!committed.equals(generated)) {
            throw new AssertionError(shown + " is out of date: the code generates something else. Regenerate it with: "
                    + REGENERATE + " (then review and commit the diff).\n" + firstDifference(committed, generated));
        }
    }

    private static String firstDifference(String committed, String generated) {
        List<String> a = committed.lines().toList();
        List<String> b = generated.lines().toList();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String x = i < a.size() ? a.get(i) : "<end of file>";
            String y = i < b.size() ? b.get(i) : "<end of file>";
            if (!x.equals(y)) {
                return "First difference, line " + (i + 1) + ":\n  the file has        " + x
                        + "\n  the code generates  " + y;
            }
        }
        return "The lines are the same; the line endings differ.";
    }
}
