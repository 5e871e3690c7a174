package dev.backplane.plugins.ssh;

import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.session.ClientSession;

/**
 * Runs one {@link SshCommand} on an authenticated session under the target's command timeout and
 * output cap, stopping early when the caller cancels. A command that overruns either is killed (its
 * channel closed) and the call fails; nothing is truncated silently.
 */
public final class SshExec {

    private static final long SLICE_MILLIS = 100;

    private SshExec() {
    }

    /**
     * Runs {@code command}.
     *
     * @throws ConnectorException {@code connector_timeout} past the timeout, {@code connector_error} past the
     *     output cap or when the session fails underneath
     */
    public static SshOutput run(ClientSession session, SshCommand command, SshSettings settings,
                                ConnectorContext context) {
        CappedStream out = new CappedStream(settings.outputCapBytes());
        CappedStream err = new CappedStream(settings.outputCapBytes());
        long deadline = System.nanoTime() + settings.commandTimeout().toNanos();
        try (ChannelExec channel = session.createExecChannel(command.line())) {
            channel.setOut(out);
            channel.setErr(err);
            channel.open().verify(settings.commandTimeout());
            try (OutputStream in = channel.getInvertedIn()) {
                if (command.stdin().isPresent()) {
                    in.write(command.stdin().get().getBytes(StandardCharsets.US_ASCII));
                    in.flush();
                }
            }
            while (true) {
                Set<ClientChannelEvent> events = channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), SLICE_MILLIS);
                if (out.exceeded() || err.exceeded()) {
                    channel.close(true);
                    throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, command.program() + " printed more than "
                            + settings.outputCapBytes() + " bytes (the target's " + SshSettings.OUTPUT_CAP_EXTRA
                            + "); stopped", Map.of("output_cap_bytes", settings.outputCapBytes()), null);
                }
                if (events.contains(ClientChannelEvent.CLOSED)) {
                    break;
                }
                if (context.cancelled()) {
                    channel.close(true);
                    throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, command.program() + " was cancelled");
                }
                if (System.nanoTime() > deadline) {
                    channel.close(true);
                    throw new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, command.program() + " did not finish within "
                            + settings.commandTimeout().toSeconds() + " s (the target's " + SshSettings.TIMEOUT_EXTRA
                            + "); stopped");
                }
            }
            Integer status = channel.getExitStatus();
            return new SshOutput(status == null ? -1 : status, out.text(), err.text());
        } catch (IOException e) {
            SshSessions.evict(session);
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "running " + command.program() + " over SSH failed: "
                    + e.getMessage(), Map.of("exception_message", String.valueOf(e.getMessage())), e);
        }
    }
}
