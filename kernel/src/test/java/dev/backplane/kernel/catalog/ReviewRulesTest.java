package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The review rules of the catalog without a database: the moves between review statuses and their wire names,
 * what an override change and a group edit must hold, the connector list's status filter, and which supported
 * version ranges hold a target's version. The stored side runs in CatalogIT and ResolutionIT.
 */
class ReviewRulesTest {

    private static DomainException refusal(Runnable check) {
        try {
            check.run();
        } catch (DomainException e) {
            return e;
        }
        throw new AssertionError("the rule accepted what it must refuse");
    }

    @Test
    void stagedAndDisabledMayBeEnabledOnlyEnabledMayBeDisabledNothingGoesBackToStaged() {
        assertThat(ReviewStatus.STAGED.canMoveTo(ReviewStatus.ENABLED)).isTrue();
        assertThat(ReviewStatus.DISABLED.canMoveTo(ReviewStatus.ENABLED)).isTrue();
        assertThat(ReviewStatus.ENABLED.canMoveTo(ReviewStatus.ENABLED)).isFalse();
        assertThat(ReviewStatus.ENABLED.canMoveTo(ReviewStatus.DISABLED)).isTrue();
        assertThat(ReviewStatus.STAGED.canMoveTo(ReviewStatus.DISABLED)).isFalse();
        assertThat(ReviewStatus.DISABLED.canMoveTo(ReviewStatus.DISABLED)).isFalse();
        for (ReviewStatus s : ReviewStatus.values()) {
            assertThat(s.canMoveTo(ReviewStatus.STAGED)).as(s + " -> staged").isFalse();
            assertThat(s.dispatchable()).as(s + " dispatchable").isEqualTo(s == ReviewStatus.ENABLED);
        }
    }

    @Test
    void wireNamesAreTheStoredSpellings() {
        assertThat(CatalogService.STATUSES).containsExactlyInAnyOrder("staged", "enabled", "disabled");
        for (ReviewStatus s : ReviewStatus.values()) {
            assertThat(ReviewStatus.of(s.wireName())).isSameAs(s);
        }
        assertThatThrownBy(() -> ReviewStatus.of("ENABLED")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anOverrideChangeNamesAKnownSafetyLevelAndChangesSomething() {
        CatalogReview.checkOverride(Optional.empty(), Optional.of("caution"), Optional.empty(), Optional.empty());
        CatalogReview.checkOverride(Optional.of(""), Optional.empty(), Optional.empty(), Optional.empty());
        CatalogReview.checkOverride(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(true));
        DomainException level = refusal(() -> CatalogReview.checkOverride(Optional.empty(), Optional.of("risky"),
                Optional.empty(), Optional.empty()));
        assertThat(level.code()).isEqualTo("invalid_override");
        assertThat(level.extras()).containsEntry("field", "safety_level");
        assertThat(refusal(() -> CatalogReview.checkOverride(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty())).getMessage()).startsWith("nothing to change");
    }

    @Test
    void anOverrideNamesAClassAnAdminMayGive() {
        CatalogReview.checkOverride(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of("credential_read"));
        for (String bad : List.of("other", "READ", "secret", "")) {
            DomainException e = refusal(() -> CatalogReview.checkOverride(Optional.empty(), Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.of(bad)));
            assertThat(e.code()).as(bad).isEqualTo("invalid_override");
            assertThat(e.extras()).containsEntry("field", "op_class");
        }
    }

    @Test
    void aRulePathGlobStaysInASegmentUnlessDoubled() {
        assertThat(ClassificationRules.glob("/acl/token/*").matcher("/acl/token/{id}").matches()).isTrue();
        assertThat(ClassificationRules.glob("/acl/token/*").matcher("/acl/token/{id}/x").matches()).isFalse();
        assertThat(ClassificationRules.glob("/acl/**").matcher("/acl/token/{id}/x").matches()).isTrue();
        assertThat(ClassificationRules.glob("/v1.2/(a)+").matcher("/v1.2/(a)+").matches()).as("the rest is literal")
                .isTrue();
        assertThat(ClassificationRules.glob("/v1.2/(a)+").matcher("/v1x2/aa").matches()).isFalse();
    }

    @Test
    void aGroupEditChangesSomethingAndKeepsAName() {
        CatalogReview.checkGroupEdit(Optional.of("Pods"), Optional.empty());
        CatalogReview.checkGroupEdit(Optional.empty(), Optional.of(""));
        assertThat(refusal(() -> CatalogReview.checkGroupEdit(Optional.empty(), Optional.empty())).code())
                .isEqualTo("invalid_group_edit");
        assertThat(refusal(() -> CatalogReview.checkGroupEdit(Optional.of("  "), Optional.empty())).extras())
                .containsEntry("field", "name");
    }

    @Test
    void theListFiltersByAReviewStatusBrokenNotIngestedOrAll() {
        for (String s : List.of("staged", "enabled", "disabled", "broken", "not_ingested", "all")) {
            ConnectorListing.checkFilter(s);
        }
        DomainException bad = refusal(() -> ConnectorListing.checkFilter("Enabled"));
        assertThat(bad.code()).isEqualTo("invalid_status");
        assertThat(bad.extras()).containsEntry("field", "status");
    }

    @Test
    void aSupportedRangeHoldsTheVersionABadRangeHoldsNothing() {
        assertThat(ConnectorFit.anyHolds(List.of("1.x"), "1.29")).isTrue();
        assertThat(ConnectorFit.anyHolds(List.of("not a range!", "8.x"), "8.2")).isTrue();
        assertThat(ConnectorFit.anyHolds(List.of("1.x"), "2.0")).isFalse();
        assertThat(ConnectorFit.anyHolds(List.of("not a range!"), "1.0")).isFalse();
        assertThat(ConnectorFit.anyHolds(List.of(), "1.0")).isFalse();
    }
}
