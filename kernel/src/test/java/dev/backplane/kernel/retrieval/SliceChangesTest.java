package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The slice caches' reading of the change feed: which slice and entry a key names, and when a slice has drifted. */
class SliceChangesTest {

    private static final UUID PARTITION = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID ENTRY = UUID.fromString("00000000-0000-0000-0000-0000000000e1");

    @Test
    void anEntryKeyNamesItsSliceAndEntry() {
        String key = SliceChanges.entryKey(PARTITION, "kb", ENTRY);
        assertThat(SliceChanges.parse(key)).isEqualTo(new SliceChanges.Change(SliceChanges.key(PARTITION, "kb"), ENTRY));
    }

    @Test
    void aSliceKeyOrAKeyWithoutAnEntryNamesTheWholeKey() {
        String slice = SliceChanges.key(PARTITION, "kb");
        assertThat(SliceChanges.parse(slice)).as("a slice key: drop the slice")
                .isEqualTo(new SliceChanges.Change(slice, null));
        assertThat(SliceChanges.parse(slice + "/not-a-uuid")).as("a last part that is no UUID")
                .isEqualTo(new SliceChanges.Change(slice + "/not-a-uuid", null));
        assertThat(SliceChanges.parse("kb/" + ENTRY)).as("one slash: not partition/surface/entry")
                .isEqualTo(new SliceChanges.Change("kb/" + ENTRY, null));
        assertThat(SliceChanges.parse("")).isEqualTo(new SliceChanges.Change("", null));
    }

    @Test
    void aSliceIsStaleWhenMoreThanATenthOrAThousandChanged() {
        assertThat(SliceChanges.tooManyChanged(1_000, 5_000)).isFalse();
        assertThat(SliceChanges.tooManyChanged(1_001, 5_000)).isTrue();
        assertThat(SliceChanges.tooManyChanged(2_000, 20_000)).isFalse();
        assertThat(SliceChanges.tooManyChanged(2_001, 20_000)).isTrue();
    }

    @Test
    void pendingEntriesAccumulate() {
        UUID other = UUID.randomUUID();
        assertThat(SliceChanges.union(Set.of(ENTRY), Set.of(other, ENTRY))).containsExactlyInAnyOrder(ENTRY, other);
    }
}
