-- Chart reads at a few statements per chart (issue 42 item 2):
--  1. every rollup bucket also keeps the wall times of its lowest and highest point (ms since the
--     epoch), so a chart's kept points need no lookup in `metrics` (that lookup was ~1,000 index
--     probes per series of a long run, about a third of the read);
--  2. `metric_watermarks`: per run, a version that goes up in the same transaction as every
--     statement that inserts, updates or deletes metric rows of the run, whatever wrote them. The
--     chart cache (services/metric-chart-cache.ts) keys its entries by it.

-- The wall time of a point in ms since the epoch, as the chart reads compute with it: one
-- definition for the triggers and the reads (timestamp without time zone: nominal UTC; date_part
-- is a float8, rounded back to the stored whole milliseconds).
CREATE FUNCTION paravt_epoch_ms(ts timestamp) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT round(date_part('epoch', ts) * 1000) $$;

-- The tier is refilled below with the new columns.
TRUNCATE "metric_rollups";

-- AlterTable
ALTER TABLE "metric_rollups" ADD COLUMN     "max_wall_ms" DOUBLE PRECISION NOT NULL,
ADD COLUMN     "min_wall_ms" DOUBLE PRECISION NOT NULL;

-- CreateTable
CREATE TABLE "metric_watermarks" (
    "run_id" TEXT NOT NULL,
    "version" BIGINT NOT NULL,

    CONSTRAINT "metric_watermarks_pkey" PRIMARY KEY ("run_id")
);

-- AddForeignKey
ALTER TABLE "metric_watermarks" ADD CONSTRAINT "metric_watermarks_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- New points merged into their buckets, now with the extremes' wall times (the third element of
-- the arrays: steps are unique in a series, so it never decides the order).
CREATE OR REPLACE FUNCTION paravt_metric_rollups_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO metric_rollups AS r
    (run_id, name, level, bucket, n, min_value, min_step, min_wall_ms, max_value, max_step, max_wall_ms)
  SELECT g.run_id, g.name, g.level, g.bucket, g.n,
         g.low[1], g.low[2]::int, g.low[3], g.high[1], (-g.high[2])::int, g.high[3]
  FROM (
    SELECT p.run_id, p.name, l.level, (p.step >> l.level) AS bucket, count(*)::int AS n,
           min(ARRAY[p.value, p.step::float8, paravt_epoch_ms(p.wall_time)]) AS low,
           max(ARRAY[p.value, -p.step::float8, paravt_epoch_ms(p.wall_time)]) AS high
    FROM new_points p CROSS JOIN unnest(ARRAY[4, 7, 10, 13]::smallint[]) AS l(level)
    GROUP BY p.run_id, p.name, l.level, (p.step >> l.level)
  ) g
  ON CONFLICT (run_id, name, level, bucket) DO UPDATE SET
    n = r.n + excluded.n,
    min_value = CASE WHEN (excluded.min_value, excluded.min_step) < (r.min_value, r.min_step)
                     THEN excluded.min_value ELSE r.min_value END,
    min_step = CASE WHEN (excluded.min_value, excluded.min_step) < (r.min_value, r.min_step)
                    THEN excluded.min_step ELSE r.min_step END,
    min_wall_ms = CASE WHEN (excluded.min_value, excluded.min_step) < (r.min_value, r.min_step)
                       THEN excluded.min_wall_ms ELSE r.min_wall_ms END,
    max_value = CASE WHEN (excluded.max_value, -excluded.max_step) > (r.max_value, -r.max_step)
                     THEN excluded.max_value ELSE r.max_value END,
    max_step = CASE WHEN (excluded.max_value, -excluded.max_step) > (r.max_value, -r.max_step)
                    THEN excluded.max_step ELSE r.max_step END,
    max_wall_ms = CASE WHEN (excluded.max_value, -excluded.max_step) > (r.max_value, -r.max_step)
                       THEN excluded.max_wall_ms ELSE r.max_wall_ms END;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION paravt_metric_rollups_rebuild(series_run text[], series_name text[]) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM metric_rollups r
  USING unnest(series_run, series_name) AS s(run_id, name)
  WHERE r.run_id = s.run_id AND r.name = s.name;
  INSERT INTO metric_rollups
    (run_id, name, level, bucket, n, min_value, min_step, min_wall_ms, max_value, max_step, max_wall_ms)
  SELECT g.run_id, g.name, g.level, g.bucket, g.n,
         g.low[1], g.low[2]::int, g.low[3], g.high[1], (-g.high[2])::int, g.high[3]
  FROM (
    SELECT p.run_id, p.name, l.level, (p.step >> l.level) AS bucket, count(*)::int AS n,
           min(ARRAY[p.value, p.step::float8, paravt_epoch_ms(p.wall_time)]) AS low,
           max(ARRAY[p.value, -p.step::float8, paravt_epoch_ms(p.wall_time)]) AS high
    FROM metrics p
    JOIN unnest(series_run, series_name) AS s(run_id, name) ON s.run_id = p.run_id AND s.name = p.name
    CROSS JOIN unnest(ARRAY[4, 7, 10, 13]::smallint[]) AS l(level)
    GROUP BY p.run_id, p.name, l.level, (p.step >> l.level)
  ) g;
$$;

-- The watermark. Inserted points create or bump their runs' rows. Deleted points only bump
-- (never insert): deleting a run cascades to its metrics, and a row inserted for the run being
-- deleted would break the foreign key; its watermark row goes with it. Updated points bump the
-- runs they left and create or bump the runs they are in. Inserted in run order, so two
-- statements writing the same runs lock their rows in the same order.
CREATE FUNCTION paravt_metric_watermarks_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO metric_watermarks AS w (run_id, version)
    SELECT DISTINCT run_id, 1::bigint FROM new_points ORDER BY run_id
    ON CONFLICT (run_id) DO UPDATE SET version = w.version + 1;
  END IF;
  IF TG_OP = 'DELETE' THEN
    UPDATE metric_watermarks w SET version = w.version + 1
    FROM (SELECT DISTINCT run_id FROM old_points ORDER BY run_id) o WHERE w.run_id = o.run_id;
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE metric_watermarks w SET version = w.version + 1
    FROM (SELECT run_id FROM old_points EXCEPT SELECT run_id FROM new_points ORDER BY run_id) o
    WHERE w.run_id = o.run_id;
  END IF;
  RETURN NULL;
END
$$;

-- Transition tables allow one event per trigger: one trigger per event.
CREATE TRIGGER metrics_watermark_insert AFTER INSERT ON metrics
  REFERENCING NEW TABLE AS new_points FOR EACH STATEMENT EXECUTE FUNCTION paravt_metric_watermarks_bump();
CREATE TRIGGER metrics_watermark_delete AFTER DELETE ON metrics
  REFERENCING OLD TABLE AS old_points FOR EACH STATEMENT EXECUTE FUNCTION paravt_metric_watermarks_bump();
CREATE TRIGGER metrics_watermark_update AFTER UPDATE ON metrics
  REFERENCING OLD TABLE AS old_points NEW TABLE AS new_points
  FOR EACH STATEMENT EXECUTE FUNCTION paravt_metric_watermarks_bump();

-- Existing points: the tier refilled, every run with metrics at version 1.
SELECT paravt_metric_rollups_rebuild(array_agg(run_id), array_agg(name))
FROM (SELECT DISTINCT run_id, name FROM metrics) s;
INSERT INTO metric_watermarks (run_id, version) SELECT DISTINCT run_id, 1 FROM metrics;
