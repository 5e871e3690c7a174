package dev.backplane.kernel.app;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;

/**
 * Whether the API listener still accepts connections, for {@code /health/live}.
 *
 * <p>Helidon's listener stops for good when an accept fails (the process out of file descriptors, for one) and
 * nothing else notices: the process runs on, its management listener answers the probes, and every connection to
 * the API port is refused. {@link ConnectionBudget} keeps the listener's own connections from causing that; this
 * catches every other cause. It connects to the API port every {@link #PERIOD} and closes at once; two refusals in a
 * row turn liveness DOWN, so the supervisor replaces the replica. A connection that waits (every slot taken, the
 * backlog full) is a busy listener, not a dead one, and counts as accepting.
 */
final class ListenerWatch implements AutoCloseable {

    static final Duration PERIOD = Duration.ofSeconds(5);
    private static final int CONNECT_TIMEOUT_MS = 1_000;
    private static final System.Logger LOG = System.getLogger(ListenerWatch.class.getName());

    private final Duration period;
    private volatile boolean accepting = true;
    private volatile Thread thread;

    ListenerWatch() {
        this(PERIOD);
    }

    /** @param period the time between probes */
    ListenerWatch(Duration period) {
        this.period = period;
    }

    /** Whether the API listener accepted (or held in its backlog) the last probes' connections. */
    boolean accepting() {
        return accepting;
    }

    /** Starts probing the listener bound to {@code host} (the configured interface) and {@code port}. */
    void watch(String host, int port) {
        InetSocketAddress address = new InetSocketAddress(probeAddress(host), port);
        thread = Thread.ofVirtual().name("listener-watch").start(() -> {
            int refusals = 0;
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(period);
                } catch (InterruptedException e) {
                    return;
                }
                refusals = refuses(address) ? refusals + 1 : 0;
                boolean was = accepting;
                accepting = refusals < 2;
                if (was && !accepting) {
                    LOG.log(System.Logger.Level.ERROR, "the API listener at " + address + " refuses connections: it "
                            + "stopped (see the error logged when it did); /health/live answers 503 so this replica "
                            + "is replaced");
                }
            }
        });
    }

    /** Whether a connection to {@code address} is refused: nothing listens there any more. */
    static boolean refuses(InetSocketAddress address) {
        try (Socket s = new Socket()) {
            s.connect(address, CONNECT_TIMEOUT_MS);
            return false;
        } catch (ConnectException e) {
            return true;
        } catch (IOException e) {
            return false; // a timeout: the backlog is full, the listener is busy
        }
    }

    /** A wildcard bind is probed on loopback; an interface, at its own address. */
    static InetAddress probeAddress(String host) {
        try {
            InetAddress bound = InetAddress.getByName(host);
            if (!bound.isAnyLocalAddress()) {
                return bound;
            }
            return InetAddress.getByName(bound instanceof java.net.Inet6Address ? "::1" : "127.0.0.1");
        } catch (UnknownHostException e) {
            return InetAddress.getLoopbackAddress();
        }
    }

    @Override
    public void close() {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }
}
