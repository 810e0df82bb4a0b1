-- M5 / D14: job progress without Redis.
--
-- The latest progress report of each job (a fraction, a short message and optional JSON detail),
-- written by the attempt that holds the job's lease (a fenced write, D9) and read by job id. With
-- Redis configured the reports live at taskq:{schema}:progress:{job_id} instead, and come here
-- only while Redis is unavailable. One row per job: a report replaces the previous one.
--
-- A job's progress is deleted with the job when prune moves it to jobs_archive (S11, the same
-- statement): progress is a view of a live job, not part of its archived record. There is
-- deliberately no foreign key, as for jobs.batch_id: a key check on every report would take a KEY
-- SHARE lock on the job row that completion and the sweeps lock FOR UPDATE. detail is kept as the
-- text the handler sent (validated JSON), so a reader gets it back exactly.
CREATE TABLE {schema}.job_progress (
  job_id       bigint           PRIMARY KEY,
  fraction     double precision NOT NULL,
  message      text             NOT NULL,
  detail       text,
  reported_at  timestamptz      NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT job_progress_fraction_check CHECK (fraction >= 0 AND fraction <= 1)
);
-- Polling subscribers read the reports newer than the last one they saw.
CREATE INDEX job_progress_reported_idx ON {schema}.job_progress (reported_at);
