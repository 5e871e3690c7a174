/**
 * A tenant's conventions ({@code conventions}, and every edit that changes something as a new version in
 * {@code convention_versions}): {@link dev.backplane.kernel.conventions.Conventions} creates, edits, deletes,
 * lists and shows them, gives their history with diffs ({@link dev.backplane.kernel.conventions.LineDiff}),
 * and searches the workflow and reference ones on the hybrid retrieval engine. Operational conventions are
 * not searched but packed into agents' instructions by {@link
 * dev.backplane.kernel.conventions.ConventionPacker}: highest priority first, each whole or not at all, within
 * a token budget. {@link dev.backplane.kernel.conventions.ConventionRoutes} reads as operator and writes as
 * tenant_admin; agent runs get the packed section through the toolbox the wiring builds, not by calling this
 * package themselves.
 */
package dev.backplane.kernel.conventions;
