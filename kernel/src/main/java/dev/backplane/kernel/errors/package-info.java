/**
 * The failures services report: a {@link dev.backplane.kernel.errors.DomainException} carries an {@link
 * dev.backplane.kernel.errors.ErrorKind} and SPEC's stable code, and each capability declares its codes as an
 * enum implementing {@link dev.backplane.kernel.errors.ErrorCode} ({@link
 * dev.backplane.kernel.errors.CommonErrors} holds the codes several capabilities or the http layer share).
 * Services throw these and never build error responses by hand; only {@code http.ErrorMapping} turns a kind
 * into an HTTP status and only {@code mcp} into a JSON-RPC error. First in the layer list, it uses no other
 * kernel package.
 */
package dev.backplane.kernel.errors;
