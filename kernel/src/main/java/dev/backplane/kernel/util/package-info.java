/**
 * Helpers shared by every layer above, one copy of each: the kernel's one SHA-256 ({@link
 * dev.backplane.kernel.util.Digests}), the one JSON mapping of the wire and the JSONB stores ({@link
 * dev.backplane.kernel.util.JsonMapping}), JSON Schema compilation and problem lists ({@link
 * dev.backplane.kernel.util.JsonSchemas}), checked limit/offset pages ({@link dev.backplane.kernel.util.Paging}),
 * time arguments and the range of times a request may carry, enum wire names and fnmatch-style globs. One copy is
 * the point: hashes, stored JSON and validation messages read the same whichever capability wrote them. No tables
 * and no capability of its own; of the kernel's packages it uses only {@code errors}, for the codes its checks raise.
 */
package dev.backplane.kernel.util;
