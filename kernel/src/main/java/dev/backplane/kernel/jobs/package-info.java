/**
 * Background jobs a caller starts and then polls by id ({@code svc connector ingest}, {@code svc kb
 * ingest}): a row per job with its progress and outcome, owned by the tenant that started it. Not
 * periodic work; that is {@code scheduler}. {@link dev.backplane.kernel.jobs.BackgroundJobs} runs them, {@link
 * dev.backplane.kernel.jobs.JobStatus} holds a job's statuses and the moves between them, and all SQL of {@code
 * background_jobs} is {@code BackgroundJobStore}'s.
 */
package dev.backplane.kernel.jobs;
