-- Pre-aggregated metric tier (issue 42 item 2): per series, the lowest and the highest point of
-- every bucket of 2^level steps at levels 4, 7, 10 and 13 (16, 128, 1,024 and 8,192 steps), kept
-- by the triggers below on every write to `metrics`, whatever wrote it. A chart of a long series
-- reads a few hundred bucket rows instead of every point (services/metric-rollups.ts, whose
-- ROLLUP_LEVELS must list the same levels). Ties pick the earliest step, as the downsampling of
-- raw rows does (min over ARRAY[value, step], max over ARRAY[value, -step]).
CREATE TABLE "metric_rollups" (
    "run_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "level" SMALLINT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    "min_value" DOUBLE PRECISION NOT NULL,
    "min_step" INTEGER NOT NULL,
    "max_value" DOUBLE PRECISION NOT NULL,
    "max_step" INTEGER NOT NULL,

    CONSTRAINT "metric_rollups_pkey" PRIMARY KEY ("run_id","name","level","bucket")
);

ALTER TABLE "metric_rollups" ADD CONSTRAINT "metric_rollups_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- New points are merged into their buckets (one statement's points aggregated first).
CREATE FUNCTION paravt_metric_rollups_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO metric_rollups AS r (run_id, name, level, bucket, n, min_value, min_step, max_value, max_step)
  SELECT g.run_id, g.name, g.level, g.bucket, g.n, g.low[1], g.low[2]::int, g.high[1], (-g.high[2])::int
  FROM (
    SELECT p.run_id, p.name, l.level, (p.step >> l.level) AS bucket, count(*)::int AS n,
           min(ARRAY[p.value, p.step::float8]) AS low, max(ARRAY[p.value, -p.step::float8]) AS high
    FROM new_points p CROSS JOIN unnest(ARRAY[4, 7, 10, 13]::smallint[]) AS l(level)
    GROUP BY p.run_id, p.name, l.level, (p.step >> l.level)
  ) g
  ON CONFLICT (run_id, name, level, bucket) DO UPDATE SET
    n = r.n + excluded.n,
    min_value = CASE WHEN (excluded.min_value, excluded.min_step) < (r.min_value, r.min_step)
                     THEN excluded.min_value ELSE r.min_value END,
    min_step = CASE WHEN (excluded.min_value, excluded.min_step) < (r.min_value, r.min_step)
                    THEN excluded.min_step ELSE r.min_step END,
    max_value = CASE WHEN (excluded.max_value, -excluded.max_step) > (r.max_value, -r.max_step)
                     THEN excluded.max_value ELSE r.max_value END,
    max_step = CASE WHEN (excluded.max_value, -excluded.max_step) > (r.max_value, -r.max_step)
                    THEN excluded.max_step ELSE r.max_step END;
  RETURN NULL;
END
$$;

-- Points deleted or changed (nothing in the product does either today; a hand-edited database
-- may): the touched series are rebuilt from their rows, so the tier never disagrees with them.
CREATE FUNCTION paravt_metric_rollups_rebuild(series_run text[], series_name text[]) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM metric_rollups r
  USING unnest(series_run, series_name) AS s(run_id, name)
  WHERE r.run_id = s.run_id AND r.name = s.name;
  INSERT INTO metric_rollups (run_id, name, level, bucket, n, min_value, min_step, max_value, max_step)
  SELECT g.run_id, g.name, g.level, g.bucket, g.n, g.low[1], g.low[2]::int, g.high[1], (-g.high[2])::int
  FROM (
    SELECT p.run_id, p.name, l.level, (p.step >> l.level) AS bucket, count(*)::int AS n,
           min(ARRAY[p.value, p.step::float8]) AS low, max(ARRAY[p.value, -p.step::float8]) AS high
    FROM metrics p
    JOIN unnest(series_run, series_name) AS s(run_id, name) ON s.run_id = p.run_id AND s.name = p.name
    CROSS JOIN unnest(ARRAY[4, 7, 10, 13]::smallint[]) AS l(level)
    GROUP BY p.run_id, p.name, l.level, (p.step >> l.level)
  ) g;
$$;

CREATE FUNCTION paravt_metric_rollups_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM paravt_metric_rollups_rebuild(array_agg(run_id), array_agg(name))
  FROM (SELECT DISTINCT run_id, name FROM old_points) s;
  RETURN NULL;
END
$$;

-- An update may move a point to another series: both the old and the new series are rebuilt.
CREATE FUNCTION paravt_metric_rollups_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM paravt_metric_rollups_rebuild(array_agg(run_id), array_agg(name))
  FROM (SELECT run_id, name FROM old_points UNION SELECT run_id, name FROM new_points) s;
  RETURN NULL;
END
$$;

CREATE TRIGGER metrics_rollups_insert AFTER INSERT ON metrics
  REFERENCING NEW TABLE AS new_points FOR EACH STATEMENT EXECUTE FUNCTION paravt_metric_rollups_add();
CREATE TRIGGER metrics_rollups_delete AFTER DELETE ON metrics
  REFERENCING OLD TABLE AS old_points FOR EACH STATEMENT EXECUTE FUNCTION paravt_metric_rollups_deleted();
CREATE TRIGGER metrics_rollups_update AFTER UPDATE ON metrics
  REFERENCING OLD TABLE AS old_points NEW TABLE AS new_points
  FOR EACH STATEMENT EXECUTE FUNCTION paravt_metric_rollups_updated();

-- Existing points.
INSERT INTO metric_rollups (run_id, name, level, bucket, n, min_value, min_step, max_value, max_step)
SELECT g.run_id, g.name, g.level, g.bucket, g.n, g.low[1], g.low[2]::int, g.high[1], (-g.high[2])::int
FROM (
  SELECT p.run_id, p.name, l.level, (p.step >> l.level) AS bucket, count(*)::int AS n,
         min(ARRAY[p.value, p.step::float8]) AS low, max(ARRAY[p.value, -p.step::float8]) AS high
  FROM metrics p CROSS JOIN unnest(ARRAY[4, 7, 10, 13]::smallint[]) AS l(level)
  GROUP BY p.run_id, p.name, l.level, (p.step >> l.level)
) g;
