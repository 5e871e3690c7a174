package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link ListenerWatch} against real sockets on loopback. */
class ListenerWatchTest {

    @Test
    void aListenerThatStopsIsReportedAfterTwoRefusals() throws Exception {
        try (ListenerWatch watch = new ListenerWatch(Duration.ofMillis(50))) {
            ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            watch.watch("127.0.0.1", listener.getLocalPort());
            Thread.sleep(300); // several probes, each connected (and left in the backlog: nothing accepts them)
            assertThat(watch.accepting()).as("a listener that holds connections in its backlog is busy, not dead")
                    .isTrue();
            listener.close();
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (watch.accepting() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(watch.accepting()).as("refused twice: the listener is gone").isFalse();
        }
    }

    @Test
    void aWildcardBindIsProbedOnLoopback() throws Exception {
        assertThat(ListenerWatch.probeAddress("0.0.0.0")).isEqualTo(InetAddress.getByName("127.0.0.1"));
        assertThat(ListenerWatch.probeAddress("::")).isEqualTo(InetAddress.getByName("::1"));
        assertThat(ListenerWatch.probeAddress("127.0.0.1")).isEqualTo(InetAddress.getByName("127.0.0.1"));
    }
}
