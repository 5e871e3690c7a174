package dev.backplane.plugins.ssh;

import java.util.List;

/**
 * What a remote command printed and how it ended.
 *
 * @param exitStatus the exit status ({@code -1} when the server reported none, such as on a signal)
 * @param stdout standard output (UTF-8)
 * @param stderr standard error (UTF-8)
 */
public record SshOutput(int exitStatus, String stdout, String stderr) {

    public boolean ok() {
        return exitStatus == 0;
    }

    /** The non-blank lines of standard output. */
    public List<String> lines() {
        return stdout.lines().filter(l -> !l.isBlank()).toList();
    }

    /** The first lines of stderr (else stdout), for an error message; at most 500 characters. */
    public String diagnostic() {
        String text = (stderr.isBlank() ? stdout : stderr).strip();
        return text.length() <= 500 ? text : text.substring(0, 500) + "...";
    }
}
