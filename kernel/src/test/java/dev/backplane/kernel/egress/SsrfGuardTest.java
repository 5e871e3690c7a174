package dev.backplane.kernel.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SsrfGuardTest {

    /** A resolver with fixed answers; everything else does not resolve. */
    private static SsrfGuard.Dns dns(Map<String, String> answers) {
        return host -> {
            String ip = answers.get(host);
            if (ip == null) {
                if (host.matches("[0-9a-f:.]+")) {
                    return new InetAddress[] {InetAddress.getByName(host)};
                }
                throw new UnknownHostException(host);
            }
            return new InetAddress[] {InetAddress.getByName(ip)};
        };
    }

    private static final SsrfGuard STRICT = new SsrfGuard(List.of(), dns(Map.of(
            "public.example", "93.184.216.34",
            "sneaky.example", "127.0.0.1",
            "metadata.example", "169.254.169.254",
            "mapped.example", "::ffff:10.1.2.3")));

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.10.0.1", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.1",
        "100.64.0.1", "100.127.255.254", "169.254.169.254", "169.254.1.1", "0.0.0.0", "224.0.0.1", "239.1.1.1",
        "240.0.0.1", "255.255.255.255", "198.18.0.1", "192.0.2.10", "::1", "::", "fc00::1", "fd12:3456::1",
        "fe80::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "::ffff:10.0.0.1", "::127.0.0.1",
        "64:ff9b::a00:1", "2002:a00:1::1", "::ffff:0:7f00:1", "::ffff:0:a9fe:a9fe", "::ffff:0:a00:1",
        "64:ff9b:1::a00:1", "64:ff9b:1:a9:fe00:a9fe::", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:db8::1",
        "sneaky.example", "metadata.example", "mapped.example", "[::1]"})
    void internalDestinationsAreRefused(String host) {
        assertThatThrownBy(() -> STRICT.check(host)).isInstanceOf(SsrfGuard.Refused.class)
                .hasMessageContaining("SVC_TARGET_SSRF_ALLOWLIST");
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "public.example",
        "100.128.0.1", "172.32.0.1", "::ffff:8.8.8.8"})
    void publicDestinationsPass(String host) {
        assertThat(STRICT.check(host)).isNotEmpty();
    }

    @Test
    void aNameThatDoesNotResolveIsRefused() {
        assertThatThrownBy(() -> STRICT.check("nowhere.invalid")).isInstanceOf(SsrfGuard.Refused.class)
                .hasMessageContaining("does not resolve");
    }

    @Test
    void theAllowlistAdmitsRangesAndHostNames() {
        SsrfGuard guard = new SsrfGuard(List.of("10.20.0.0/16", "127.0.0.1/32", "vault.internal", "*.corp.example"),
                dns(Map.of("vault.internal", "10.99.0.1", "db.corp.example", "192.168.0.9", "x.example", "10.21.0.1")));
        assertThat(guard.check("10.20.3.4")).isNotEmpty();
        assertThat(guard.check("127.0.0.1")).isNotEmpty();
        assertThat(guard.check("vault.internal")).isNotEmpty();
        assertThat(guard.check("db.corp.example")).isNotEmpty();
        assertThatThrownBy(() -> guard.check("10.21.0.1")).isInstanceOf(SsrfGuard.Refused.class);
        assertThatThrownBy(() -> guard.check("x.example")).isInstanceOf(SsrfGuard.Refused.class);
        assertThatThrownBy(() -> guard.check("127.0.0.2")).isInstanceOf(SsrfGuard.Refused.class);
    }

    /** Security review D16: a host-name allowlist entry never opens loopback or the metadata address. */
    @Test
    void anAllowlistedHostNameNeverReachesLoopbackOrMetadata() {
        SsrfGuard guard = new SsrfGuard(List.of("vault.internal", "*.corp.example"), dns(Map.of(
                "vault.internal", "10.99.0.1", "meta.corp.example", "169.254.169.254", "self.corp.example", "127.0.0.1",
                "mapped.corp.example", "::ffff:169.254.169.254", "siit.corp.example", "::ffff:0:7f00:1",
                "v6local.corp.example", "::1", "linklocal.corp.example", "fe80::1")));
        assertThat(guard.check("vault.internal")).isNotEmpty();
        for (String host : List.of("meta.corp.example", "self.corp.example", "mapped.corp.example", "siit.corp.example",
                "v6local.corp.example", "linklocal.corp.example")) {
            assertThatThrownBy(() -> guard.check(host)).as(host).isInstanceOf(SsrfGuard.Refused.class)
                    .hasMessageContaining("only a CIDR entry");
        }
        // at connect time too: the name is re-checked against the address actually dialled
        assertThatThrownBy(() -> guard.checkAddress("vault.internal", java.net.InetAddress.getLoopbackAddress()))
                .isInstanceOf(SsrfGuard.Refused.class);
        // a CIDR entry still admits exactly its range
        SsrfGuard cidr = new SsrfGuard(List.of("169.254.169.254/32"), dns(Map.of("m.example", "169.254.169.254")));
        assertThat(cidr.check("m.example")).isNotEmpty();
    }

    @Test
    void aBadAllowlistEntryIsAClearError() {
        assertThatThrownBy(() -> SsrfGuard.fromSetting("10.0.0.0/99")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SsrfGuard.fromSetting("banana/8")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("banana/8");
    }

    @Test
    void theSocketFactoryChecksTheAddressActuallyDialledSoRebindingFails() throws IOException {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        s.getOutputStream().write('!');
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            AtomicInteger lookups = new AtomicInteger();
            // "rebind.example" answers a public address first (at registration), loopback afterwards
            SsrfGuard.Dns rebinding = host -> {
                if (!host.equals("rebind.example")) {
                    return new InetAddress[] {InetAddress.getByName(host)};
                }
                return new InetAddress[] {InetAddress.getByName(lookups.getAndIncrement() == 0 ? "93.184.216.34"
                        : "127.0.0.1")};
            };
            SsrfGuard guard = new SsrfGuard(List.of(), rebinding);
            assertThat(guard.check("rebind.example")).as("passes at registration").isNotEmpty();
            GuardedSocketFactory sockets = new GuardedSocketFactory(guard, 2000);
            assertThatThrownBy(() -> sockets.createSocket("rebind.example", server.getLocalPort()))
                    .isInstanceOf(GuardedSocketFactory.SsrfRefusedException.class).hasMessageContaining("127.0.0.1");
            assertThatThrownBy(() -> sockets.createSocket(InetAddress.getLoopbackAddress(), server.getLocalPort()))
                    .isInstanceOf(GuardedSocketFactory.SsrfRefusedException.class);

            GuardedSocketFactory allowed = new GuardedSocketFactory(new SsrfGuard(List.of("127.0.0.0/8"), rebinding), 2000);
            try (Socket s = allowed.createSocket("rebind.example", server.getLocalPort()); InputStream in = s.getInputStream()) {
                assertThat(in.read()).as("an allowlisted loopback target is reached").isEqualTo('!');
            }
        }
    }

    @Test
    void ipLiteralsAreReadWithoutAnyLookupAndOnlyAdmittedOnesCount() throws Exception {
        assertThat(SsrfGuard.literal("127.0.0.1")).hasValue(InetAddress.getByName("127.0.0.1"));
        assertThat(SsrfGuard.literal("[::1]")).hasValue(InetAddress.getByName("::1"));
        assertThat(SsrfGuard.literal("::1")).hasValue(InetAddress.getByName("::1"));
        assertThat(SsrfGuard.literal("[2001:db8::1]")).hasValue(InetAddress.getByName("2001:db8::1"));
        for (String notALiteral : new String[] {"example.com", "999.1.1.1", "1.2.3", "1.2.3.4.5", "[fe80::1%eth0]",
                "[::1", "::1]", "", "0x7f.0.0.1", null}) {
            assertThat(SsrfGuard.literal(notALiteral)).as(String.valueOf(notALiteral)).isEmpty();
        }
        SsrfGuard guard = new SsrfGuard(List.of("127.0.0.0/8"), host -> {
            throw new AssertionError("no lookup expected for " + host);
        });
        assertThat(guard.admitsLiteral("127.0.0.1")).isTrue();
        assertThat(guard.admitsLiteral("93.184.216.34")).as("a public address").isTrue();
        assertThat(guard.admitsLiteral("10.0.0.1")).as("private, not allowlisted").isFalse();
        assertThat(guard.admitsLiteral("[::1]")).as("loopback v6, not in the v4 range").isFalse();
        assertThat(guard.admitsLiteral("localhost")).as("a name is never a literal").isFalse();
    }
}
