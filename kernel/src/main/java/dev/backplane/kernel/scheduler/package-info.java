/**
 * Work the kernel runs on its own, on a clock: today the periodic maintenance ({@link
 * dev.backplane.kernel.scheduler.PeriodicJobs}: expiry sweeps, reapers), and next the event and cron
 * triggers of SPEC §"Event triggers (scheduler)". Nobody polls these by id; jobs a caller starts and
 * polls are {@code jobs}.
 */
package dev.backplane.kernel.scheduler;
