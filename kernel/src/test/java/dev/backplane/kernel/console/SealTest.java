package dev.backplane.kernel.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SealTest {

    static final byte[] KEY = new byte[32];
    static final byte[] OTHER_KEY = new byte[32];

    static {
        Arrays.fill(KEY, (byte) 7);
        Arrays.fill(OTHER_KEY, (byte) 9);
    }

    final Seal seal = new Seal(KEY);

    @Test
    void aSealedValueOpensOnlyWithItsKeyAndForItsPurpose() {
        String sealed = seal.seal("purpose a", "secret".getBytes(StandardCharsets.UTF_8));
        assertThat(sealed).matches("[A-Za-z0-9_-]+").doesNotContain("secret");
        assertThat(seal.open("purpose a", sealed)).hasValueSatisfying(b ->
                assertThat(new String(b, StandardCharsets.UTF_8)).isEqualTo("secret"));
        assertThat(seal.open("purpose b", sealed)).as("another purpose").isEmpty();
        assertThat(new Seal(OTHER_KEY).open("purpose a", sealed)).as("another key").isEmpty();
        assertThat(seal.seal("purpose a", "secret".getBytes(StandardCharsets.UTF_8))).as("a fresh IV each time")
                .isNotEqualTo(sealed);
    }

    @Test
    void alteredTruncatedOrForeignValuesDoNotOpen() {
        byte[] raw = Base64.getUrlDecoder().decode(seal.seal("p", "secret".getBytes(StandardCharsets.UTF_8)));
        for (int i = 0; i < raw.length; i++) {
            byte[] altered = raw.clone();
            altered[i] ^= 1;
            assertThat(seal.open("p", Base64.getUrlEncoder().withoutPadding().encodeToString(altered)))
                    .as("byte " + i + " flipped").isEmpty();
        }
        byte[] shortened = Arrays.copyOf(raw, 1 + 12 + 15);
        assertThat(seal.open("p", Base64.getUrlEncoder().withoutPadding().encodeToString(shortened))).isEmpty();
        assertThat(seal.open("p", "not base64 !")).isEmpty();
        assertThat(seal.open("p", "")).isEmpty();
    }

    @Test
    void toStringShowsNoKey() {
        assertThat(seal.toString()).isEqualTo("Seal[AES-256-GCM, key=****]");
    }
}
