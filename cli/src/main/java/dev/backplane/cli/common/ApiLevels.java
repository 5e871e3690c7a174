package dev.backplane.cli.common;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CLI's side of version negotiation. Every request to the backplane says which REST API level this CLI speaks
 * ({@code Svc-Api-Level}); the backplane refuses another major itself ({@code 400 incompatible_client}, with the fix).
 * Every answer says the backplane's level and version: another major (a backplane too old to refuse) is an error
 * with the fix; another minor is a one-line note on stderr, at most once a day per backplane and pair of levels
 * (remembered in {@code api-level-notes} in the CLI's config directory), since newer commands or fields may be
 * missing on one side.
 */
public final class ApiLevels {

    public static final String HEADER = "Svc-Api-Level";
    public static final String VERSION_HEADER = "Svc-Version";
    private static final Pattern LEVEL = Pattern.compile("(\\d{1,4})\\.(\\d{1,4})");

    private final String ours;
    private final PrintWriter err;
    private final Path notes;
    private final Clock clock;
    private boolean noted;

    /**
     * @param ours this CLI's level ({@link BuildInfo#apiLevel()})
     * @param notes the file that remembers which notes were shown today
     */
    public ApiLevels(String ours, PrintWriter err, Path notes, Clock clock) {
        this.ours = ours;
        this.err = err;
        this.notes = notes;
        this.clock = clock;
    }

    public static ApiLevels of(CliContext ctx) {
        return new ApiLevels(BuildInfo.apiLevel(), ctx.err(), ctx.configDir().resolve("api-level-notes"),
                Clock.systemDefaultZone());
    }

    /** The level to send, or null when this build has none. */
    public String ours() {
        return LEVEL.matcher(ours).matches() ? ours : null;
    }

    /** Looks at one answer of the backplane at {@code base}. */
    public void observe(URI base, HttpHeaders headers) {
        String theirs = headers.firstValue(HEADER).orElse(null);
        if (theirs == null || ours() == null) {
            return; // a backplane from before negotiation, or an unstamped build
        }
        Matcher a = LEVEL.matcher(ours);
        Matcher b = LEVEL.matcher(theirs.strip());
        if (!a.matches() || !b.matches()) {
            return;
        }
        String version = headers.firstValue(VERSION_HEADER).orElse("unknown");
        if (!a.group(1).equals(b.group(1))) {
            throw new CliException(ExitCodes.FAILED, "this svc CLI (version " + BuildInfo.version() + ", API level "
                    + ours + ") cannot work with the backplane at " + base + " (version " + version + ", API level "
                    + theirs.strip() + "): install the svc CLI of version " + version);
        }
        if (!a.group(2).equals(b.group(2)) && !noted) {
            noted = true;
            note(base, theirs.strip(), version);
        }
    }

    private void note(URI base, String theirs, String version) {
        String key = base + " " + ours + " " + theirs;
        String today = LocalDate.now(clock).toString();
        try {
            if (Files.isRegularFile(notes)) {
                for (String line : Files.readAllLines(notes, StandardCharsets.UTF_8)) {
                    if (line.equals(today + " " + key)) {
                        return; // shown today already
                    }
                }
            }
        } catch (IOException unreadable) {
            // note it again rather than never
        }
        boolean newer = Integer.parseInt(theirs.substring(theirs.indexOf('.') + 1))
                > Integer.parseInt(ours.substring(ours.indexOf('.') + 1));
        err.println("svc: note: the backplane at " + base + " (version " + version + ") speaks API level " + theirs
                + " and this CLI (version " + BuildInfo.version() + ") " + ours + "; "
                + (newer ? "the backplane's newer commands and fields are missing here: install the svc CLI of version "
                + version : "commands of this CLI the backplane does not have yet answer not found: update the backplane "
                + "or use the CLI of its version " + version) + " (shown once a day)");
        err.flush();
        try {
            Files.createDirectories(notes.getParent());
            // only today's notes are kept
            java.util.List<String> kept = new java.util.ArrayList<>();
            if (Files.isRegularFile(notes)) {
                Files.readAllLines(notes, StandardCharsets.UTF_8).stream().filter(l -> l.startsWith(today + " "))
                        .forEach(kept::add);
            }
            kept.add(today + " " + key);
            Files.write(notes, kept, StandardCharsets.UTF_8);
        } catch (IOException ignored) {
            // the note shows again next time
        }
    }
}
