package dev.backplane.bench;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Open-loop load: request i starts at t0 + i/rate on a virtual thread, and its latency counts from that
 * scheduled time, so a slow answer delays no later request (no coordinated omission).
 */
final class OpenLoop {

    /** Sends request {@code i}; true when the answer is the expected one. */
    @FunctionalInterface
    interface Request {
        boolean send(int i) throws Exception;
    }

    /**
     * The latencies (ns) of one run, {@link Long#MAX_VALUE} for a request that failed, and the seconds from the
     * first scheduled start until the last answer.
     */
    record Run(long[] latencies, double elapsedSeconds) {

        /** The successful requests' latencies, sorted. */
        long[] ok() {
            return Arrays.stream(latencies).filter(l -> l != Long.MAX_VALUE).sorted().toArray();
        }

        /** How many requests failed (a wrong answer or an exception). */
        long failed() {
            return Arrays.stream(latencies).filter(l -> l == Long.MAX_VALUE).count();
        }
    }

    private OpenLoop() {
    }

    /** Sends {@code n} requests at {@code rate} per second; {@code onError} sees each request's exception. */
    static Run run(int rate, int n, Request request, Consumer<Exception> onError) throws InterruptedException {
        long[] latencies = new long[n];
        CountDownLatch done = new CountDownLatch(n);
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
        long t0 = System.nanoTime() + 20_000_000;
        long interval = 1_000_000_000L / rate;
        for (int i = 0; i < n; i++) {
            int idx = i;
            long scheduled = t0 + i * interval;
            clock.schedule(() -> Thread.ofVirtual().start(() -> {
                try {
                    latencies[idx] = request.send(idx) ? System.nanoTime() - scheduled : Long.MAX_VALUE;
                } catch (Exception e) {
                    onError.accept(e);
                    latencies[idx] = Long.MAX_VALUE;
                } finally {
                    done.countDown();
                }
            }), scheduled - System.nanoTime(), TimeUnit.NANOSECONDS);
        }
        done.await(5, TimeUnit.MINUTES);
        double elapsed = (System.nanoTime() - t0) / 1e9;
        clock.shutdownNow();
        return new Run(latencies, elapsed);
    }

    /** The {@code p}th percentile of sorted latencies (ns), in ms; NaN for none. */
    static double pct(long[] sorted, int p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * p / 100.0) - 1)] / 1e6;
    }
}
