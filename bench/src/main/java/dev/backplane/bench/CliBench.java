package dev.backplane.bench;

import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * CLI start-up and round trip: the wall time of whole {@code bin/svc} commands, min and median of 10, against a
 * live kernel on loopback — {@code version} and {@code --help} (no network), {@code status} (three authenticated
 * requests) and {@code kb search} (one hybrid search over a small knowledge base) — with JDK 25's ahead-of-time
 * cache and with the dynamic CDS archive it replaces ({@code SVC_NO_AOT=1}). Budget: 300 ms a command
 * (ARCHITECTURE §14). {@code bench/run cli} builds the CLI and its AOT cache first and passes the checkout's root.
 */
public final class CliBench {

    private static final int RUNS = Smoke.size(10, 2);
    private static final long BUDGET_MS = 300;

    private CliBench() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        Path svc = root.resolve("bin/svc");
        Path work = TempDirs.create("svc-cli-bench");
        UUID tenant = UUID.randomUUID();
        try (TestIssuer issuer = new TestIssuer();
             TestKernel k = TestKernel.start(work.resolve("data"),
                     TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins"))))) {
            String admin = issuer.token("admin", tenant, "tenant_admin");
            for (int i = 0; i < 20; i++) {
                TestKernel.Response r = k.send("POST", "/api/v1/kb", admin, "{\"slug\": \"restart-" + i + "\", \"body\": "
                        + "\"How to restart service " + i + " safely: drain it, restart, then check its health.\"}", Map.of());
                if (r.status() / 100 != 2) {
                    throw new IllegalStateException("setup failed: " + r.status() + " " + r.body());
                }
            }
            Map<String, String> env = new HashMap<>();
            env.put("HOME", Files.createDirectories(work.resolve("home")).toString()); // no user config or token store
            env.put("SVC_BACKPLANE", k.url());
            env.put("SVC_INSECURE_ALLOW_HTTP", "1");
            env.put("SVC_TOKEN", issuer.token("op", tenant, "operator"));
            List<List<String>> commands = List.of(List.of("version", "--client"), List.of("--help"), List.of("status"),
                    List.of("kb", "search", "restart a service"));
            for (String mode : new String[] {"aot", "cds"}) {
                Map<String, String> modeEnv = new HashMap<>(env);
                if (mode.equals("cds")) {
                    modeEnv.put("SVC_NO_AOT", "1");
                }
                for (List<String> command : commands) {
                    run(svc, command, modeEnv); // the first of each warms the page cache and the kernel's caches
                    long[] ms = new long[RUNS];
                    for (int i = 0; i < RUNS; i++) {
                        ms[i] = run(svc, command, modeEnv);
                    }
                    Arrays.sort(ms);
                    System.out.printf("cli %-4s svc %-22s min %4d ms  median %4d ms  (budget %d ms)%n", mode,
                            String.join(" ", command), ms[0], ms[RUNS / 2], BUDGET_MS);
                }
            }
        }
    }

    /** Runs one command to its end and answers its wall time in ms; a failed command stops the benchmark. */
    private static long run(Path svc, List<String> command, Map<String, String> env) throws IOException,
            InterruptedException {
        List<String> argv = new ArrayList<>();
        argv.add(svc.toString());
        argv.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().putAll(env);
        long t0 = System.nanoTime();
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        int exit = p.waitFor();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (exit != 0) {
            throw new IllegalStateException("svc " + String.join(" ", command) + " exited " + exit + ": "
                    + new String(out, java.nio.charset.StandardCharsets.UTF_8));
        }
        return ms;
    }
}
