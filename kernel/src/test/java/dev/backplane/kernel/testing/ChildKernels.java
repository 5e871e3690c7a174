package dev.backplane.kernel.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** Kernels in child JVMs (this test's class path), for tests that kill one with SIGKILL and restart it. */
public final class ChildKernels {

    private ChildKernels() {
    }

    /** Starts {@code dev.backplane.kernel.app.Main} with {@code env}, its output to {@code log}. */
    public static Process start(Map<String, String> env, Path log) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "dev.backplane.kernel.app.Main").redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        return pb.start();
    }

    /** Waits until {@code base}/health/ready answers 200 (at most 60 s). */
    public static void awaitReady(HttpClient http, String base) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(base + "/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            }
            assertThat(System.nanoTime()).as("kernel ready within 60 s").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
