package dev.backplane.kernel.egress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The admission of one proxied call: a host the guard refuses is answered 403 and never dialled. */
class GuardedDialTest {

    @Test
    void aHostTheGuardRefusesIsAnswered403WithoutAConnection() throws IOException {
        SsrfGuard guard = new SsrfGuard(List.of(), host -> new InetAddress[] {InetAddress.getByName("169.254.169.254")});
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(new GuardedDial(new GuardedSocketFactory(guard, 2000)).dial(new Authority("metadata.test", 80), out))
                .isNull();
        String answer = out.toString(StandardCharsets.UTF_8);
        assertThat(answer).startsWith("HTTP/1.1 403 Forbidden\r\n").contains("\r\nX-Svc-Egress: refused\r\n")
                .contains("\r\nConnection: close\r\n").contains("refused by the backplane's SSRF guard: ")
                .contains("169.254.169.254");
    }

    @Test
    void aNetworkFailureIs502AndOnlyAGuardRefusalIs403() {
        ProxyAnswer refused = GuardedDial.refusal(new Authority("a", 1),
                new GuardedSocketFactory.SsrfRefusedException("10.0.0.1 is private"));
        assertThat(refused).isEqualTo(ProxyAnswer.forbidden("refused by the backplane's SSRF guard: 10.0.0.1 is private"));
        ProxyAnswer failed = GuardedDial.refusal(new Authority("::1", 9), new ConnectException("Connection refused"));
        assertThat(failed).isEqualTo(ProxyAnswer.badGateway("cannot connect to ::1:9: Connection refused"));
        assertThat(new String(failed.bytes(), StandardCharsets.UTF_8)).isEqualTo("HTTP/1.1 502 Bad Gateway\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\nX-Svc-Egress: failed\r\nContent-Length: 43\r\n"
                + "Connection: close\r\n\r\ncannot connect to ::1:9: Connection refused");
    }
}
