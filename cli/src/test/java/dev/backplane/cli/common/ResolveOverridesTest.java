package dev.backplane.cli.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResolveOverridesTest {

    /** Parses {@code spec} and checks its host and port; what the address must be is the test's. */
    private static ResolveOverrides.Entry parsed(String spec, String host, int port) {
        ResolveOverrides.Entry e = ResolveOverrides.parse(spec);
        assertThat(e.host()).isEqualTo(host);
        assertThat(e.port()).isEqualTo(port);
        return e;
    }

    @Test
    void parsesHostPortAndIpv4() throws Exception {
        ResolveOverrides.Entry e = parsed("backplane.example.com:443:10.1.2.3", "backplane.example.com", 443);

        assertThat(e.address()).isInstanceOf(Inet4Address.class);
        assertThat(e.address()).isEqualTo(InetAddress.getByAddress(new byte[] {10, 1, 2, 3}));
    }

    @Test
    void lowerCasesTheHost() {
        assertThat(ResolveOverrides.parse("Backplane.EXAMPLE.com:8443:127.0.0.1").host())
                .isEqualTo("backplane.example.com");
    }

    @Test
    void parsesBracketedIpv6() throws Exception {
        ResolveOverrides.Entry e = parsed("kc.example.com:8443:[::1]", "kc.example.com", 8443);

        assertThat(e.address()).isInstanceOf(Inet6Address.class);
        assertThat(e.address().isLoopbackAddress()).isTrue();
    }

    @Test
    void parsesFullBracketedIpv6() throws Exception {
        ResolveOverrides.Entry e = ResolveOverrides.parse("h:1:[2001:db8::7]");

        assertThat(e.address()).isEqualTo(InetAddress.getByName("2001:db8::7"));
        assertThat(e.port()).isEqualTo(1);
    }

    @Test
    void acceptsPortBounds() {
        assertThat(ResolveOverrides.parse("h:1:127.0.0.1").port()).isEqualTo(1);
        assertThat(ResolveOverrides.parse("h:65535:127.0.0.1").port()).isEqualTo(65535);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        // input                  | expected fragment of the message
        "hostonly                 | wants host:port:ip",
        "host:443                 | wants host:port:ip",
        ":443:127.0.0.1           | wants host:port:ip",
        "''                       | wants host:port:ip",
        "h:https:127.0.0.1        | port must be a number",
        "h::127.0.0.1             | port must be a number",
        "h:0:127.0.0.1            | port must be 1..65535",
        "h:65536:127.0.0.1        | port must be 1..65535",
        "h:-1:127.0.0.1           | port must be 1..65535",
        "h:443:                   | must be an IP address",
        "h:443:example.com        | must be an IP address",
        "h:443:[example.com]      | must be an IP address",
        "h:443:1.2.3.4:5          | must be an IP address",
    })
    void malformedIsAUsageErrorNamingTheProblem(String input, String fragment) {
        CliException e = catchThrowableOfType(CliException.class, () -> ResolveOverrides.parse(input));

        assertThat(e).as("parse(%s) must fail", input).isNotNull();
        assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(e.getMessage()).contains("--resolve").contains(fragment);
    }

    @Test
    void messageQuotesTheOffendingInput() {
        CliException e = catchThrowableOfType(CliException.class, () -> ResolveOverrides.parse("h:99999:127.0.0.1"));

        assertThat(e.getMessage()).contains("'h:99999:127.0.0.1'");
    }

    /*
     * BUG (ResolveOverrides.parse, the "must be an IP address" check and InetAddress.getByName(ip)):
     * the check only asks that the text be digits and dots, or contain a colon, and then hands it to
     * InetAddress.getByName. For text that passes the check but is not a valid literal ("999.1.1.1",
     * "256.0.0.1", "a:b") the JDK falls back to a NAME LOOKUP through the system resolver (DNS), so
     * --resolve h:443:999.1.1.1 queries DNS and, if anything answers (search domain, wildcard record,
     * hosts file, or an override installed earlier), silently pins the host to that answer instead
     * of failing with a usage error. Expected: CliException(USAGE, "... not an IP address ...")
     * without any lookup. This test proves the lookup without touching the network: it installs an
     * override for the name "999.1.1.1", and the buggy parse returns the overridden address.
     */
    @Test
    void invalidDottedQuadIsRejectedWithoutANameLookup() throws Exception {
        ResolveOverrides.install(List.of(new ResolveOverrides.Entry("999.1.1.1", 443,
                InetAddress.getByAddress(new byte[] {127, 0, 0, 5}))));

        CliException e = catchThrowableOfType(CliException.class, () -> ResolveOverrides.parse("h:443:999.1.1.1"));

        assertThat(e).as("999.1.1.1 is not an IP literal; parse must not resolve it as a name").isNotNull();
        assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(e.getMessage()).contains("999.1.1.1");
    }
}
