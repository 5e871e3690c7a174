package dev.backplane.cli.conventions;

import dev.backplane.cli.common.RequestBody;

/** The body of POST /api/v1/conventions and PATCH /api/v1/conventions/{slug} (null fields are left out). */
@RequestBody
record ConventionWrite(String slug, String title, String kind, Integer priority, String body, Integer expectedVersion) {
}
