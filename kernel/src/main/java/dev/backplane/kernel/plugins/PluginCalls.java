package dev.backplane.kernel.plugins;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;

/**
 * The one wrapper around every call into plugin code: the plugin's class loader as context class
 * loader, a timeout, and any exception turned into a {@link ConnectorException} with a code, so a
 * misbehaving plugin becomes an error envelope, never a 500 or a hung request.
 */
public final class PluginCalls {

    private static final ExecutorService THREADS = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("plugin-call-", 0).factory());

    private PluginCalls() {
    }

    public static <T> T call(String pluginId, ClassLoader loader, Duration timeout, Callable<T> body) {
        Future<T> future = THREADS.submit(() -> {
            Thread t = Thread.currentThread();
            ClassLoader previous = t.getContextClassLoader();
            t.setContextClassLoader(loader);
            try {
                return body.call();
            } finally {
                t.setContextClassLoader(previous);
            }
        });
        try {
            return future.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, "plugin " + pluginId + " did not answer within "
                    + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "call into plugin " + pluginId + " was interrupted");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ConnectorException ce) {
                throw ce;
            }
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "plugin " + pluginId + " failed: "
                    + cause.getClass().getName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage()),
                    Map.of("exception_class", cause.getClass().getName()), cause);
        }
    }
}
