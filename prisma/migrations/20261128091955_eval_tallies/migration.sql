-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "tallied" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "eval_tallies" (
    "run_id" TEXT NOT NULL,
    "question_type" "QuestionType" NOT NULL,
    "duration" TEXT NOT NULL,
    "stored" INTEGER NOT NULL,
    "answered" INTEGER NOT NULL,
    "scored" INTEGER NOT NULL,
    "correct" INTEGER NOT NULL,
    "value_sum" DOUBLE PRECISION NOT NULL,
    "value_sq_sum" DOUBLE PRECISION NOT NULL,
    "recall_03" INTEGER NOT NULL,
    "recall_05" INTEGER NOT NULL,
    "recall_07" INTEGER NOT NULL,
    "format_judged" INTEGER NOT NULL,
    "format_compliant" INTEGER NOT NULL,
    "tool_calls" INTEGER NOT NULL,
    "tool_used" INTEGER NOT NULL,

    CONSTRAINT "eval_tallies_pkey" PRIMARY KEY ("run_id","question_type","duration")
);

-- AddForeignKey
ALTER TABLE "eval_tallies" ADD CONSTRAINT "eval_tallies_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Tallies are a cache of the run's episode rows (issue 42 item 3). The writers that keep them
-- (services/evals-tally-store.ts: storeEpisode, batch stores) add each episode's counters in the
-- transaction that inserts it and say so with the transaction-local setting
-- `paravt.keeps_tallies`. Every other change to what a summary reads marks the run's tallies
-- stale (`tallied` false), and the next read builds them from the rows again: an episode inserted
-- by another writer, an episode deleted (a run's, sample's or dataset's cascade included), an
-- episode's summary fields or a sample's question type or duration group changed (a re-imported
-- dataset). Turns are written only with their episode (storeEpisode), so they need no trigger.
CREATE FUNCTION eval_tallies_stale(run_ids TEXT[]) RETURNS VOID LANGUAGE sql AS $$
  UPDATE "runs" SET "tallied" = false WHERE "tallied" AND "id" = ANY(run_ids);
$$;

CREATE FUNCTION eval_tallies_episodes_inserted() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('paravt.keeps_tallies', true) IS DISTINCT FROM 'on' THEN
    PERFORM eval_tallies_stale(ARRAY(SELECT DISTINCT "run_id" FROM inserted));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "episodes_tallies_insert" AFTER INSERT ON "episodes"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION eval_tallies_episodes_inserted();

CREATE FUNCTION eval_tallies_episodes_deleted() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  PERFORM eval_tallies_stale(ARRAY(SELECT DISTINCT "run_id" FROM deleted));
  RETURN NULL;
END $$;

CREATE TRIGGER "episodes_tallies_delete" AFTER DELETE ON "episodes"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION eval_tallies_episodes_deleted();

-- An update that sets none of these columns (the trainer's reward terms) fires nothing.
CREATE FUNCTION eval_tallies_episode_changed() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  PERFORM eval_tallies_stale(ARRAY[OLD."run_id", NEW."run_id"]);
  RETURN NULL;
END $$;

CREATE TRIGGER "episodes_tallies_update" AFTER UPDATE OF
  "run_id", "sample_id", "status", "correct", "score", "tool_call_count", "prompt_mode", "details" ON "episodes"
  FOR EACH ROW WHEN (
    OLD."run_id" IS DISTINCT FROM NEW."run_id" OR OLD."sample_id" IS DISTINCT FROM NEW."sample_id"
    OR OLD."status" IS DISTINCT FROM NEW."status" OR OLD."correct" IS DISTINCT FROM NEW."correct"
    OR OLD."score" IS DISTINCT FROM NEW."score" OR OLD."tool_call_count" IS DISTINCT FROM NEW."tool_call_count"
    OR OLD."prompt_mode" IS DISTINCT FROM NEW."prompt_mode"
    OR OLD."details" -> 'duration' IS DISTINCT FROM NEW."details" -> 'duration'
  ) EXECUTE FUNCTION eval_tallies_episode_changed();

-- The sample's fields a tally key is read from (evals-summary.ts `durationCategoryOf`).
CREATE FUNCTION eval_tallies_sample_changed() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  PERFORM eval_tallies_stale(ARRAY(SELECT DISTINCT "run_id" FROM "episodes" WHERE "sample_id" = NEW."id"));
  RETURN NULL;
END $$;

CREATE TRIGGER "samples_tallies_update" AFTER UPDATE OF "question_type", "metadata" ON "samples"
  FOR EACH ROW WHEN (
    OLD."question_type" IS DISTINCT FROM NEW."question_type"
    OR OLD."metadata" -> 'duration' IS DISTINCT FROM NEW."metadata" -> 'duration'
    OR OLD."metadata" -> 'durationCategory' IS DISTINCT FROM NEW."metadata" -> 'durationCategory'
  ) EXECUTE FUNCTION eval_tallies_sample_changed();
