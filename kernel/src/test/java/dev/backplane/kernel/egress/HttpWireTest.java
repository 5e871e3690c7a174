package dev.backplane.kernel.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The proxy's framing: heads and chunk lines are capped, bodies are copied exactly as framed. */
class HttpWireTest {

    @Test
    void aHeadEndsAtItsBlankLineAndTheRestStaysOnTheStream() throws IOException {
        InputStream in = stream("GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\nbody");
        assertThat(HttpWire.readHead(in)).isEqualTo("GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("body");
        assertThat(HttpWire.readHead(stream("GET http://a/ HTTP/1.1\r\nHost: a\r\n"))).as("ended early").isNull();
        assertThat(HttpWire.readHead(stream("GET x\n\nHost: a\n\n"))).as("bare LFs end no head").isNull();
        assertThat(HttpWire.readHead(stream("GET x\nHost: a\r\n\r\nrest"))).isEqualTo("GET x\nHost: a\r\n\r\n");
    }

    @Test
    void aHeadOrChunkLineOverTheLimitIsAnError() throws IOException {
        String justFits = "GET http://a/ HTTP/1.1\r\nX: " + "a".repeat(HttpWire.MAX_HEAD - 40) + "\r\n\r\n";
        assertThat(justFits).hasSizeLessThanOrEqualTo(HttpWire.MAX_HEAD);
        assertThat(HttpWire.readHead(stream(justFits))).isEqualTo(justFits);
        String tooLong = "GET http://a/ HTTP/1.1\r\nX: " + "a".repeat(HttpWire.MAX_HEAD) + "\r\n\r\n";
        assertThatThrownBy(() -> HttpWire.readHead(stream(tooLong))).isInstanceOf(IOException.class)
                .hasMessage("message head over 65536 bytes");
        assertThatThrownBy(() -> HttpWire.readLine(stream("f".repeat(HttpWire.MAX_HEAD + 1) + "\r\n")))
                .isInstanceOf(IOException.class).hasMessage("chunk line over 65536 bytes");
        assertThatThrownBy(() -> HttpWire.readLine(stream("5"))).hasMessage("stream ended inside a chunked body");
        assertThat(HttpWire.readLine(stream("5;ext=1\r\nrest"))).isEqualTo("5;ext=1");
    }

    @Test
    void statusCodesAndInterimAnswers() {
        assertThat(HttpWire.parseStatus("200")).isEqualTo(200);
        assertThat(HttpWire.parseStatus("99")).isEqualTo(-1);
        assertThat(HttpWire.parseStatus("1000")).isEqualTo(-1);
        assertThat(HttpWire.parseStatus("OK")).isEqualTo(-1);
        assertThat(HttpWire.isInterim("HTTP/1.1 100 Continue\r\n\r\n")).isTrue();
        assertThat(HttpWire.isInterim("HTTP/1.1 103 Early Hints\r\nLink: x\r\n\r\n")).isTrue();
        assertThat(HttpWire.isInterim("HTTP/1.1 101 Switching Protocols\r\n\r\n")).isFalse();
        assertThat(HttpWire.isInterim("HTTP/1.1 200 OK\r\n\r\n")).isFalse();
        assertThat(HttpWire.isInterim("garbage\r\n\r\n")).isFalse();
    }

    @Test
    void headersAreMatchedByTokenAndAMalformedContentLengthIsAnError() throws IOException {
        Headers h = Headers.of(List.of("HTTP/1.1 200 OK", "Transfer-Encoding: gzip, Chunked", "content-length: 12"));
        assertThat(h.has("transfer-encoding", "chunked")).isTrue();
        assertThat(h.has("transfer-encoding", "identity")).isFalse();
        assertThat(h.has("connection", "close")).isFalse();
        assertThat(h.contentLength()).isEqualTo(12);
        assertThat(Headers.of(List.of("GET / HTTP/1.1")).contentLength()).isEqualTo(-1);
        assertThatThrownBy(() -> Headers.of(List.of("x", "Content-Length: -1")).contentLength())
                .hasMessage("negative Content-Length");
        assertThatThrownBy(() -> Headers.of(List.of("x", "Content-Length: 1, 2")).contentLength())
                .hasMessage("malformed Content-Length");
    }

    @Test
    void aChunkedBodyIsCopiedWithItsTrailersAndAMalformedOneIsAnError() throws IOException {
        String chunked = "4;x=y\r\nWiki\r\n5\r\npedia\r\n0\r\nTrailer: t\r\n\r\nnext-request";
        InputStream in = stream(chunked);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BodyFraming.copyBody(Headers.of(List.of("x", "Transfer-Encoding: chunked")), true, in, out);
        assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo(chunked.replace("next-request", ""));
        assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("next-request");

        assertThatThrownBy(() -> BodyFraming.copyChunked(stream("zz\r\n"), new ByteArrayOutputStream()))
                .hasMessage("malformed chunk size");
        assertThatThrownBy(() -> BodyFraming.copyChunked(stream("4\r\nWikiX\r\n"), new ByteArrayOutputStream()))
                .hasMessage("malformed chunk end");
        assertThatThrownBy(() -> BodyFraming.copyChunked(stream("8\r\nWiki"), new ByteArrayOutputStream()))
                .hasMessage("chunk ended early");
    }

    @Test
    void aContentLengthBodyIsCopiedExactlyAndAShortOneIsAnError() throws IOException {
        InputStream in = stream("hello-next");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BodyFraming.copyBody(Headers.of(List.of("x", "Content-Length: 5")), false, in, out);
        assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo("hello");
        ByteArrayOutputStream none = new ByteArrayOutputStream();
        BodyFraming.copyBody(Headers.of(List.of("x")), false, stream("unframed"), none);
        assertThat(none.size()).as("a request without framing has no body").isZero();
        assertThatThrownBy(() -> BodyFraming.copyBody(Headers.of(List.of("x", "Content-Length: 9")), false,
                stream("short"), new ByteArrayOutputStream())).hasMessage("request body ended early");
        assertThatThrownBy(() -> BodyFraming.copyBody(Headers.of(List.of("x", "Content-Length: 9")), true,
                stream("short"), new ByteArrayOutputStream())).hasMessage("response body ended early");
    }

    private static InputStream stream(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.ISO_8859_1));
    }
}
