package dev.backplane.kernel.governance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The approval life cycle without a database: the wire names and the one place that allows a move. */
class ApprovalStatusTest {

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @CsvSource(textBlock = """
            PENDING,  APPROVED, true
            PENDING,  REJECTED, true
            PENDING,  EXPIRED,  true
            PENDING,  PENDING,  false
            APPROVED, REJECTED, false
            APPROVED, APPROVED, false
            REJECTED, APPROVED, false
            EXPIRED,  APPROVED, false
            EXPIRED,  REJECTED, false
            """)
    void onlyAPendingRequestIsDecidedAndOnlyOnce(ApprovalStatus from, ApprovalStatus to, boolean allowed) {
        assertThat(from.canMoveTo(to)).isEqualTo(allowed);
    }

    @Test
    void wireNamesAreTheColumnsValuesAndParseBack() {
        assertThat(ApprovalStatus.wireNames()).containsExactly("pending", "approved", "rejected", "expired");
        assertThat(Approvals.STATUSES).containsExactlyInAnyOrder("pending", "approved", "rejected", "expired");
        for (ApprovalStatus s : ApprovalStatus.values()) {
            assertThat(ApprovalStatus.parse(s.wireName())).contains(s);
        }
        assertThat(ApprovalStatus.parse("PENDING")).as("the wire name is lower case").isEmpty();
        assertThat(ApprovalStatus.parse("withdrawn")).as("a withdrawal is a rejection").isEqualTo(Optional.empty());
    }
}
