package dev.backplane.plugins.ssh;

import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.TargetSpec;
import java.time.Duration;
import java.util.Optional;

/**
 * The per-target SSH settings, read from the target's extras.
 *
 * <ul>
 *   <li>{@code ssh_host_key}: the pinned host key ({@link HostKeyPin}); required.</li>
 *   <li>{@code ssh_command_timeout_seconds}: how long one remote command may run, 1..600, default 30;
 *       never longer than the call's own timeout.</li>
 *   <li>{@code ssh_output_cap_bytes}: the most a command may print on stdout or stderr, 64..16777216,
 *       default 1048576; more fails the call instead of truncating silently.</li>
 * </ul>
 *
 * @param pin the pinned host key, empty when the target has none (connecting then fails closed)
 * @param commandTimeout the per-command timeout
 * @param outputCapBytes the per-stream output cap
 */
public record SshSettings(Optional<HostKeyPin> pin, Duration commandTimeout, int outputCapBytes) {

    public static final String TIMEOUT_EXTRA = "ssh_command_timeout_seconds";
    public static final String OUTPUT_CAP_EXTRA = "ssh_output_cap_bytes";
    static final int DEFAULT_TIMEOUT_SECONDS = 30;
    static final int DEFAULT_OUTPUT_CAP = 1 << 20;

    /** Reads the settings; a malformed extra is a {@code connector_error} naming it. */
    public static SshSettings of(TargetSpec target, ConnectorContext context) {
        Optional<HostKeyPin> pin = Optional.ofNullable(target.extras().get(HostKeyPin.EXTRA))
                .map(Object::toString).filter(s -> !s.isBlank()).map(HostKeyPin::parse);
        long seconds = number(target, TIMEOUT_EXTRA, DEFAULT_TIMEOUT_SECONDS, 1, 600);
        Duration timeout = Duration.ofSeconds(seconds);
        if (context.timeout().compareTo(timeout) < 0) {
            timeout = context.timeout();
        }
        int cap = (int) number(target, OUTPUT_CAP_EXTRA, DEFAULT_OUTPUT_CAP, 64, 16 << 20);
        return new SshSettings(pin, timeout, cap);
    }

    private static long number(TargetSpec target, String extra, long fallback, long min, long max) {
        Object v = target.extras().get(extra);
        if (v == null) {
            return fallback;
        }
        try {
            long n = v instanceof Number num ? num.longValue() : Long.parseLong(v.toString().strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "target " + target.name() + ": extras." + extra
                + " must be a whole number in " + min + ".." + max);
    }
}
