/**
 * Background jobs a caller starts and then polls by id ({@code svc connector ingest}, {@code svc kb
 * ingest}): a row per job with its progress and outcome, owned by the tenant that started it. Not
 * periodic work; that is {@code scheduler}.
 */
package dev.backplane.kernel.jobs;
