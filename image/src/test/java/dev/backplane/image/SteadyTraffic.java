package dev.backplane.image;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Clients that keep sending requests through the load balancer while a drill changes what stands behind it. Every
 * answer is recorded with the drill's phase at the time it was sent: a request that did not get the answer its
 * {@link Request} expects (another status, an unexpected body, or no answer at all) is a {@link Outcome failure}
 * with its time, phase and cause.
 */
final class SteadyTraffic implements AutoCloseable {

    /** One kind of request the clients send in turn; {@code ok} judges a response. */
    record Request(String name, String method, String path, Object body, Predicate<HttpResponse<String>> ok) {
    }

    /** A request that failed: when (ms since the traffic started), in which phase, what, and why. */
    record Outcome(long atMs, String phase, String request, String cause) {
        @Override
        public String toString() {
            return "+" + atMs + " ms [" + phase + "] " + request + ": " + cause;
        }
    }

    private final String base;
    private final String token;
    private final List<Request> requests;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> clients = new ArrayList<>();
    private final Map<String, AtomicInteger> sent = Collections.synchronizedMap(new LinkedHashMap<>());
    private final List<Outcome> failures = Collections.synchronizedList(new ArrayList<>());
    private final long t0 = System.nanoTime();
    private volatile String phase = "start";

    private SteadyTraffic(String base, String token, List<Request> requests) {
        this.base = base;
        this.token = token;
        this.requests = requests;
    }

    /** Starts {@code clients} clients, each sending {@code requests} in turn with {@code pause} between two. */
    static SteadyTraffic start(String base, String token, List<Request> requests, int clients, Duration pause) {
        SteadyTraffic t = new SteadyTraffic(base, token, requests);
        for (int i = 0; i < clients; i++) {
            int offset = i;
            t.clients.add(Thread.ofVirtual().name("traffic-" + i).start(() -> t.loop(offset, pause)));
        }
        return t;
    }

    /** Names the phase the requests sent from now on belong to. */
    void phase(String name) {
        phase = name;
    }

    private void loop(int offset, Duration pause) {
        for (int n = offset; running.get(); n++) {
            Request r = requests.get(n % requests.size());
            String at = phase;
            sent.computeIfAbsent(at, k -> new AtomicInteger()).incrementAndGet();
            try {
                HttpResponse<String> res = Http.send(r.method(), base + r.path(), token, r.body());
                if (!r.ok().test(res)) {
                    fail(at, r, res.statusCode() + " " + abbreviate(res.body()));
                }
            } catch (IOException e) {
                fail(at, r, "transport: " + e);
            } catch (InterruptedException e) {
                return;
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void fail(String at, Request r, String cause) {
        failures.add(new Outcome(Duration.ofNanos(System.nanoTime() - t0).toMillis(), at, r.name(), cause));
    }

    private static String abbreviate(String body) {
        return body.length() > 300 ? body.substring(0, 300) + "..." : body;
    }

    /** Requests sent per phase, in the order the phases began. */
    Map<String, Integer> sent() {
        Map<String, Integer> out = new LinkedHashMap<>();
        synchronized (sent) {
            sent.forEach((k, v) -> out.put(k, v.get()));
        }
        return out;
    }

    int total() {
        return sent().values().stream().mapToInt(Integer::intValue).sum();
    }

    List<Outcome> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    /** Stops the clients after their request in flight. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread t : clients) {
            t.join(Duration.ofSeconds(40));
        }
    }
}
