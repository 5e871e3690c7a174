package dev.backplane.kernel.targets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.errors.DomainException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The plan discovery answers: names made DNS-1123 labels and unique, the seed and members seen twice or already
 * registered listed (not importable) with their reason, product-less members listed, what the import validation
 * refuses listed with its code, the seed's TLS trust inherited by members of its product. The import validation
 * itself runs against the real registry in ProbeIT and the plugins' discovery ITs; here it is a stand-in that
 * refuses one host.
 */
class DiscoveryPlanTest {

    private static final String PIN = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

    private static Target target(String name, List<String> aliases, String product, String host, int port,
                                 boolean verifyTls, Optional<String> pin, Map<String, Object> extras) {
        return new Target(UUID.randomUUID(), name, aliases, product, host, port, false, Optional.empty(),
                "tenants/x/" + name, "shared_service_account", false, Optional.empty(), Optional.empty(), verifyTls, pin,
                Optional.empty(), extras, Optional.empty(), Optional.empty(), Instant.EPOCH, Instant.EPOCH);
    }

    private static final Target SEED = target("lab1", List.of(), "proxmox", "10.1.0.1", 8006, true, Optional.of(PIN),
            Map.of("scheme", "https"));

    private final List<TargetFields> validated = new ArrayList<>();

    private DiscoveryPlan.Plan plan(List<Target> registered, List<Map<String, Object>> found) {
        DiscoveryPlan p = new DiscoveryPlan(SEED, registered, Map.of("proxmox", 8006, "k8s", 6443), f -> {
            validated.add(f);
            return f.host().filter("10.9.9.9"::equals).map(h -> new DomainException(
                    dev.backplane.kernel.errors.ErrorKind.INVALID, "ssrf_refused", "destination " + h + " is private"));
        });
        return p.of(found);
    }

    private static Map<String, Object> member(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static List<String> reasons(DiscoveryPlan.Plan p) {
        return p.skipped().stream().map(s -> s.candidate().get("name") + " " + s.reason()).toList();
    }

    @Test
    void labelsAreDns1123() {
        assertThat(DiscoveryCandidates.label("PVE_1.Example.COM")).isEqualTo("pve-1-example-com");
        assertThat(DiscoveryCandidates.label("--node--")).isEqualTo("node");
        assertThat(DiscoveryCandidates.label("192.168.10.11:8006")).isEqualTo("192-168-10-11-8006");
        assertThat(DiscoveryCandidates.label("x".repeat(70) + "-y")).hasSize(63).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
        assertThat(DiscoveryCandidates.label("ñ!")).isEmpty();
    }

    @Test
    void theSeedDuplicatesRegisteredMembersAndRefusalsAreListedNotPlanned() {
        Target registered = target("pve3-old", List.of("pve4"), "proxmox", "10.1.0.3", 8006, true, Optional.empty(),
                Map.of());
        var p = plan(List.of(registered), List.of(
                member("name", "pve1", "product", "proxmox", "host", "10.1.0.1"),           // the seed's address
                member("name", "pve2", "product", "proxmox", "host", "10.1.0.2", "seed", true),
                member("name", "PVE5", "product", "proxmox", "host", "10.1.0.5", "port", 8006),
                member("name", "pve5-again", "product", "proxmox", "host", "10.1.0.5"),  // default port: the same
                member("name", "pve3", "product", "proxmox", "host", "10.1.0.3"),          // registered as pve3-old
                member("name", "pve4", "product", "proxmox", "host", "10.1.0.4"),          // name is an alias
                member("name", "worker", "host", "10.1.0.6", "notes", "runs no API"),      // no product
                member("name", "far", "product", "proxmox", "host", "10.9.9.9"),           // the validation refuses
                member("name", "nohost", "product", "proxmox"),
                member("name", "typed", "product", "proxmox", "host", "10.1.0.7", "port", "not-a-port")));

        assertThat(p.candidates()).extracting(c -> c.get("name")).containsExactly("pve5", "pve4-2");
        assertThat(reasons(p)).containsExactly("pve1 seed_target", "pve2 seed_target", "pve5-again duplicate_candidate",
                "pve3 already_registered", "worker no_product", "far ssrf_refused", "nohost invalid_candidate",
                "typed invalid_candidate");
        assertThat(p.skipped().get(3).message()).isEqualTo("registered as target pve3-old");
        assertThat(p.skipped().get(5).message()).isEqualTo("destination 10.9.9.9 is private");
        assertThat(p.skipped().get(4).candidate()).containsEntry("notes", "runs no API");
        assertThat(p.omitted()).isZero();
    }

    @Test
    void membersOfTheSeedsProductInheritItsTrustUnlessTheConnectorSaidOtherwise() {
        var p = plan(List.of(), List.of(
                member("name", "pve2", "product", "proxmox", "host", "10.1.0.2", "job", "x"),
                member("name", "pve3", "product", "proxmox", "host", "10.1.0.3", "verify_tls", false),
                member("name", "api", "product", "k8s", "host", "10.1.0.4")));

        Map<String, Object> pve2 = p.candidates().get(0);
        assertThat(pve2).containsEntry("tls_ca_pin", PIN).doesNotContainKey("verify_tls");
        assertThat(pve2.get("extras")).isEqualTo(Map.of("job", "x", "scheme", "https"));
        assertThat(new ArrayList<>(pve2.keySet())).as("the plan's field order")
                .containsExactly("name", "product", "host", "tls_ca_pin", "extras");
        assertThat(p.candidates().get(1)).containsEntry("verify_tls", false).doesNotContainKey("tls_ca_pin");
        assertThat(p.candidates().get(2)).doesNotContainKeys("tls_ca_pin", "verify_tls", "extras");
        assertThat(validated).extracting(f -> f.name().orElseThrow()).containsExactly("pve2", "pve3", "api");
    }

    @Test
    void aPluginsOddAnswerIsListedNeverThrown() {
        Map<Object, Object> numericKeys = new HashMap<>();
        numericKeys.put(1, "x");
        List<Object> found = new ArrayList<>(List.of("not a map", numericKeys));
        Map<String, Object> nulls = new HashMap<>();
        nulls.put("name", null);
        nulls.put("host", "10.1.0.8");
        nulls.put("product", "proxmox");
        found.add(nulls);
        found.add(null);
        var p = new DiscoveryPlan(SEED, List.of(), Map.of(), f -> Optional.empty()).of(found);

        assertThat(reasons(p)).containsExactly("null invalid_candidate", "null invalid_candidate",
                "null invalid_candidate");
        assertThat(p.candidates()).extracting(c -> c.get("name")).containsExactly("10-1-0-8");
    }

    @Test
    void beyondTheCapMembersAreCountedNotChecked() {
        List<Map<String, Object>> many = new ArrayList<>();
        for (int i = 0; i < DiscoveryPlan.MAX_CANDIDATES + 5; i++) {
            many.add(member("name", "n" + i, "product", "proxmox", "host", "10.2." + (i / 250) + "." + (i % 250)));
        }
        var p = plan(List.of(), many);
        assertThat(p.candidates()).hasSize(DiscoveryPlan.MAX_CANDIDATES);
        assertThat(p.omitted()).isEqualTo(5);
    }
}
