package dev.backplane.kernel.audit.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The walk merges links and rows in (occurred_at, id) order as PostgreSQL sorts them, so {@link ChainStore#compare}
 * must order uuids as PostgreSQL does: their 16 bytes, unsigned (memcmp), which is not {@link UUID#compareTo}'s
 * signed order. A wrong order would not fail verify (a row not met in the merge is looked up by its id), only slow it.
 */
class ChainOrderTest {

    private static final Instant AT = Instant.parse("2026-11-30T12:00:00.123456Z");

    @Test
    void uuidsOrderByTheirBytesUnsignedAsPostgresqlSortsThem() {
        SplittableRandom random = new SplittableRandom(7);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            ids.add(new UUID(random.nextLong(), random.nextLong()));
        }
        ids.addAll(List.of(UUID.fromString("00000000-0000-0000-0000-000000000000"),
                UUID.fromString("7fffffff-ffff-ffff-ffff-ffffffffffff"), UUID.fromString("80000000-0000-0000-0000-000000000000"),
                UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff"), UUID.fromString("00000000-0000-0000-8000-000000000000")));
        List<UUID> byBytes = ids.stream().sorted(Comparator.comparing(ChainOrderTest::bytes, Arrays::compareUnsigned)).toList();
        List<UUID> byChainOrder = ids.stream().sorted((a, b) -> ChainStore.compare(AT, a, AT, b)).toList();
        assertThat(byChainOrder).isEqualTo(byBytes);
        assertThat(ids.stream().sorted().toList()).as("UUID.compareTo is signed: a different order").isNotEqualTo(byBytes);
    }

    @Test
    void timeComesFirst() {
        UUID low = UUID.fromString("00000000-0000-0000-0000-000000000001");
        UUID high = UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff");
        assertThat(ChainStore.compare(AT, high, AT.plusNanos(1000), low)).isNegative();
        assertThat(ChainStore.compare(AT.plusNanos(1000), low, AT, high)).isPositive();
        assertThat(ChainStore.compare(AT, low, AT, UUID.fromString(low.toString()))).isZero();
    }

    private static byte[] bytes(UUID id) {
        return ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits()).array();
    }
}
