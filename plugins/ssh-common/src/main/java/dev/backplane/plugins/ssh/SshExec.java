package dev.backplane.plugins.ssh;

import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.session.ClientSession;

/**
 * Runs one {@link SshCommand} on an authenticated session under the target's command timeout and
 * output cap, stopping early when the caller cancels. A command that overruns either is killed (its
 * channel closed) and the call fails; nothing is truncated silently.
 *
 * <p>Cancellation: the kernel cancels a call (its timeout, run-cancel, the kill switch) by interrupting
 * the plugin thread. MINA's own {@code waitFor} swallows that interrupt, so this class waits on the
 * channel's close with an interruptible wait; an interrupt closes the channel, keeps the thread's
 * interrupt flag set (so no later command of the same operation starts, see {@link SshTarget#run}) and
 * fails with {@code connector_timeout}.
 *
 * <p>Closing a channel does not kill the remote process, so every command runs under coreutils
 * {@code timeout -k 5 <seconds>} on the server: a command the backplane gave up on is terminated
 * there within the same command timeout (then killed 5 s later if it ignores SIGTERM).
 */
public final class SshExec {

    private static final long SLICE_MILLIS = 100;
    /** Seconds between the remote {@code timeout}'s SIGTERM and its SIGKILL. */
    static final int KILL_AFTER_SECONDS = 5;

    private SshExec() {
    }

    /** The line sent to the server: the command under coreutils {@code timeout}, so the server kills it too. */
    static String remoteLine(SshCommand command, SshSettings settings) {
        long seconds = Math.max(1, (settings.commandTimeout().toMillis() + 999) / 1000);
        return "timeout -k " + KILL_AFTER_SECONDS + " " + seconds + " " + command.line();
    }

    /**
     * Runs {@code command}.
     *
     * @throws ConnectorException {@code connector_timeout} past the timeout or when the calling thread is
     *     interrupted or the call cancelled, {@code connector_error} past the output cap or when the session
     *     fails underneath
     */
    public static SshOutput run(ClientSession session, SshCommand command, SshSettings settings,
                                ConnectorContext context) {
        requireNotCancelled(command, context);
        CappedStream out = new CappedStream(settings.outputCapBytes());
        CappedStream err = new CappedStream(settings.outputCapBytes());
        long deadline = System.nanoTime() + settings.commandTimeout().toNanos();
        java.util.concurrent.Semaphore permits = SshSessions.channels(session);
        try {
            if (!permits.tryAcquire(settings.commandTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
                throw new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, command.program() + " waited "
                        + settings.commandTimeout().toSeconds() + " s for one of the session's " + SshSessions.MAX_CHANNELS
                        + " channels; stopped");
            }
        } catch (InterruptedException e) {
            throw cancelled(null, command);
        }
        ChannelExec channel = null;
        try {
            channel = session.createExecChannel(remoteLine(command, settings));
            CountDownLatch closed = new CountDownLatch(1);
            channel.addCloseFutureListener(f -> closed.countDown());
            channel.setOut(out);
            channel.setErr(err);
            try {
                channel.open().verify(settings.commandTimeout());
            } catch (InterruptedIOException e) {
                throw cancelled(channel, command);
            } catch (IOException e) {
                String text = String.valueOf(e.getMessage());
                if (text.contains("timeout") || text.contains("Timeout") || text.contains("timed out")) {
                    channel.close(true);
                    throw new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, "opening an SSH channel for "
                            + command.program() + " timed out", Map.of("exception_message", text), null);
                }
                throw e;
            }
            try (OutputStream in = channel.getInvertedIn()) {
                if (command.stdin().isPresent()) {
                    in.write(command.stdin().get().getBytes(StandardCharsets.US_ASCII));
                    in.flush();
                }
            }
            while (true) {
                boolean done;
                try {
                    done = closed.await(SLICE_MILLIS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    throw cancelled(channel, command);
                }
                if (out.exceeded() || err.exceeded()) {
                    channel.close(true);
                    throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, command.program() + " printed more than "
                            + settings.outputCapBytes() + " bytes (the target's " + SshSettings.OUTPUT_CAP_EXTRA
                            + "); stopped", Map.of("output_cap_bytes", settings.outputCapBytes()), null);
                }
                if (done) {
                    break;
                }
                if (context.cancelled() || Thread.currentThread().isInterrupted()) {
                    throw cancelled(channel, command);
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
        } catch (InterruptedIOException e) {
            throw cancelled(channel, command);
        } catch (IOException e) {
            if (!session.isOpen() || session.isClosing()) {
                SshSessions.evict(session); // the session failed, not just this channel
            }
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "running " + command.program() + " over SSH failed: "
                    + e.getMessage(), Map.of("exception_message", String.valueOf(e.getMessage())), e);
        } finally {
            if (channel != null) {
                channel.close(false);
            }
            permits.release();
        }
    }

    /**
     * Refuses to start a command once the call is cancelled or its thread interrupted, so a later step
     * of a multi-command operation (such as {@code nft -f} after {@code nft -c}) never runs.
     */
    static void requireNotCancelled(SshCommand command, ConnectorContext context) {
        if (Thread.currentThread().isInterrupted() || context.cancelled()) {
            throw new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, "the call was cancelled or timed out; "
                    + command.program() + " was not run");
        }
    }

    private static ConnectorException cancelled(ChannelExec channel, SshCommand command) {
        if (channel != null) {
            channel.close(true);
        }
        Thread.currentThread().interrupt();
        return new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, "the call was cancelled or timed out while "
                + command.program() + " ran; its channel was closed (the server's timeout wrapper ends it)");
    }
}
