package dev.backplane.kernel.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

/** The address rules under the SSRF guard: CIDR ranges, and what a host-name allowlist entry can never admit. */
class AddressSpaceTest {

    @Test
    void aCidrRangeContainsExactlyItsAddressesAndABadOneIsNamed() throws UnknownHostException {
        AddressSpace.Cidr range = AddressSpace.cidr("10.20.0.0/14");
        assertThat(range.contains(ip("10.23.255.255"))).isTrue();
        assertThat(range.contains(ip("10.24.0.0"))).isFalse();
        assertThat(range.contains(ip("a14::1"))).as("another family").isFalse();
        assertThat(AddressSpace.cidr("fc00::/7").contains(ip("fdff::1"))).isTrue();
        assertThatThrownBy(() -> AddressSpace.cidr("10.0.0.0/33")).hasMessage("bad prefix length in 10.0.0.0/33");
        assertThatThrownBy(() -> AddressSpace.cidr("intranet/8")).hasMessage("not a CIDR range: 'intranet/8'");
        assertThatThrownBy(() -> AddressSpace.cidr("10.0.0.0/x")).hasMessage("not a CIDR range: '10.0.0.0/x'");
    }

    @Test
    void aHostNameNeverAdmitsLoopbackMetadataOrTheirIpv6Disguises() throws UnknownHostException {
        for (String never : new String[] {"127.0.0.1", "169.254.169.254", "0.0.0.0", "255.255.255.255", "::1",
                "fe80::1", "::ffff:127.0.0.1", "2002:a9fe:a9fe::1", "64:ff9b::a9fe:a9fe"}) {
            assertThat(AddressSpace.neverByName(InetAddress.getByName(never))).as(never).isTrue();
        }
        for (String byName : new String[] {"10.0.0.1", "192.168.1.1", "100.64.0.1", "fd00::1"}) {
            assertThat(AddressSpace.neverByName(InetAddress.getByName(byName))).as(byName).isFalse();
        }
    }

    private static byte[] ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal).getAddress();
    }
}
