package dev.backplane.kernel.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConsoleLinksTest {

    @Test
    void onlyConsolePathsAreReturnedToAfterSignIn() {
        assertThat(ConsoleLinks.localReturn("/ui/connectors/k8s-1.x?q=pods")).isEqualTo("/ui/connectors/k8s-1.x?q=pods");
        for (String elsewhere : new String[] {"https://evil.test/ui/kb", "//evil.test/ui/", "/api/v1/kb", "/ui",
                "/ui/\\evil", "/ui/kb\r\nSet-Cookie: x=y", null, ""}) {
            assertThat(ConsoleLinks.localReturn(elsewhere)).as(String.valueOf(elsewhere)).isEqualTo("/ui/kb");
        }
    }

    @Test
    void idsArePercentEncodedAsOnePathSegment() {
        assertThat(ConsoleLinks.kbEntry("a b/../c")).isEqualTo("/ui/kb/entry/a%20b%2F..%2Fc");
        assertThat(ConsoleLinks.connector("k8s-1.x")).isEqualTo("/ui/connectors/k8s-1.x");
    }
}
