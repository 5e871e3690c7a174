/**
 * Stored results: a large set result the dispatcher's reducer keeps whole under a handle owned by (tenant,
 * principal) with an expiry, in {@code results_handles} and one JSONB row each in {@code results_rows} ({@link
 * dev.backplane.kernel.results.ResultHandles}); an expired, missing or someone else's handle is the same {@code
 * handle_not_found}. {@link dev.backplane.kernel.results.ResultQueryService} answers {@code result_query}: a {@link
 * dev.backplane.kernel.results.ResultQuery} pages through a handle or queries it with structured predicates,
 * selects, groups and aggregates, checked by {@link dev.backplane.kernel.results.ResultQueryRules} and compiled
 * to one parameterized statement that runs read-only under a statement timeout. All SQL is {@link
 * dev.backplane.kernel.results.ResultStore}'s. No raw SQL is accepted on any transport, and the package has no
 * routes of its own: {@code dispatch} and {@code mcp} serve {@code result_query}, and the periodic jobs sweep
 * expired handles.
 */
package dev.backplane.kernel.results;
