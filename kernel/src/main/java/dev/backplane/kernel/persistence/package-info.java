/**
 * The system of record and what is built on it: {@link dev.backplane.kernel.persistence.Database} connects to
 * {@code db.url} or starts an embedded PostgreSQL and runs (or, with {@code db.migrate-on-start=false}, checks) the
 * Flyway migrations before the kernel serves; {@link dev.backplane.kernel.persistence.Jdbc} (parameterized
 * statements, transactions) and {@code FilteredSelect} are the helpers the stores build on, with no ORM. {@link
 * dev.backplane.kernel.persistence.ChangeFeed} announces committed changes to this replica at once and to the
 * others through {@code LISTEN/NOTIFY}, and {@link dev.backplane.kernel.persistence.SharedCache} is the
 * read-through cache it keeps correct across replicas. It owns no capability's tables: the SQL stays in each
 * capability's store, and the migrations are under {@code db/migration} in the resources (only V047, which must run
 * outside a transaction, is Java here).
 */
package dev.backplane.kernel.persistence;
