package dev.backplane.kernel.egress;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The egress proxy's reading of a request head: what it tunnels, forwards, or refuses with 400 before any dial. */
class RequestHeadTest {

    @Test
    void onlyAThreePartConnectLineOpensATunnel() {
        assertThat(RequestHead.connectAuthority("CONNECT api.example:443 HTTP/1.1\r\nHost: x\r\n\r\n"))
                .hasValue("api.example:443");
        assertThat(RequestHead.connectAuthority("connect [::1]:8443 HTTP/1.1\r\n\r\n")).hasValue("[::1]:8443");
        assertThat(RequestHead.connectAuthority("CONNECT api.example:443\r\n\r\n")).isEmpty();
        assertThat(RequestHead.connectAuthority("CONNECT  api.example:443 HTTP/1.1\r\n\r\n")).isEmpty();
        assertThat(RequestHead.connectAuthority("GET http://a/ HTTP/1.1\r\n\r\n")).isEmpty();
    }

    @Test
    void aConnectAuthorityNeedsAHostAndANumericPort() {
        assertThat(Authority.ofConnect("api.example:443")).hasValue(new Authority("api.example", 443));
        assertThat(Authority.ofConnect("[::1]:8443")).hasValue(new Authority("::1", 8443));
        assertThat(Authority.ofConnect("api.example")).isEmpty();
        assertThat(Authority.ofConnect("api.example:https")).isEmpty();
        assertThat(Authority.ofConnect("api.example:")).isEmpty();
        // out of range or without a host: a 400 from the proxy, never an exception from the dial
        assertThat(Authority.ofConnect("api.example:0")).isEmpty();
        assertThat(Authority.ofConnect("api.example:65536")).isEmpty();
        assertThat(Authority.ofConnect("api.example:-1")).isEmpty();
        assertThat(Authority.ofConnect(":443")).isEmpty();
        assertThat(Authority.ofConnect("[]:443")).isEmpty();
    }

    @Test
    void malformedPlainRequestsAreRefusedWithTheirOwnMessage() {
        assertThat(malformed("GET http://a/\r\n\r\n")).isEqualTo("malformed request line");
        assertThat(malformed("\r\n\r\n")).isEqualTo("malformed request line"); // blank lines only
        assertThat(malformed("GET http://a/ HTTP/1.1 extra\r\n\r\n")).isEqualTo("malformed request line");
        assertThat(malformed("CONNECT a:443 HTTP/1.1\r\n\r\n")).as("no tunnel on a kept-alive plain connection")
                .isEqualTo("malformed request line");
        assertThat(malformed("GET http://a/b{c} HTTP/1.1\r\n\r\n")).isEqualTo("malformed request target");
        assertThat(malformed("GET /relative HTTP/1.1\r\nHost: a\r\n\r\n"))
                .isEqualTo("only absolute http:// requests and CONNECT are proxied");
        assertThat(malformed("GET https://a/ HTTP/1.1\r\n\r\n"))
                .isEqualTo("only absolute http:// requests and CONNECT are proxied");
        assertThat(malformed("GET file:///etc/passwd HTTP/1.1\r\n\r\n"))
                .isEqualTo("only absolute http:// requests and CONNECT are proxied");
        assertThat(new RequestHead.Malformed("x").answer().status()).isEqualTo(400);
    }

    @Test
    void aPlainRequestIsForwardedInOriginFormWithoutHopByHopProxyOrExpectHeaders() {
        RequestHead.Plain get = plain("GET http://[::1]:8080/a%20b?q=1 HTTP/1.1\r\nHost: [::1]:8080\r\n"
                + "Proxy-Authorization: Basic c2VjcmV0\r\nConnection: keep-alive\r\nKeep-Alive: 5\r\n"
                + "Expect: 100-continue\r\nX-Trace: t\r\n\r\n");
        assertThat(get.target()).isEqualTo(new Authority("::1", 8080));
        assertThat(get.expectsContinue()).isTrue();
        assertThat(get.clientCloses()).isFalse();
        assertThat(get.forwardedHead()).isEqualTo("GET /a%20b?q=1 HTTP/1.1\r\nHost: [::1]:8080\r\nX-Trace: t\r\n\r\n");

        RequestHead.Plain old = plain("POST http://a.example HTTP/1.0\r\nContent-Length: 3\r\n\r\n");
        assertThat(old.target()).as("port 80 when none is named").isEqualTo(new Authority("a.example", 80));
        assertThat(old.clientCloses()).isTrue();
        assertThat(old.forwardedHead()).isEqualTo("POST / HTTP/1.1\r\nContent-Length: 3\r\nConnection: close\r\n\r\n");
        assertThat(plain("GET http://a/ HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\n").clientCloses()).isTrue();
    }

    private static String malformed(String head) {
        return ((RequestHead.Malformed) RequestHead.parse(head)).message();
    }

    private static RequestHead.Plain plain(String head) {
        return (RequestHead.Plain) RequestHead.parse(head);
    }
}
