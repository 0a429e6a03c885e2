-- AlterTable
ALTER TABLE "episodes" ADD COLUMN     "sample_key" TEXT;

-- The sample's key on each episode (issue 42 item 3): a run's samples page, in the table's order
-- (sample key, rollout, id), becomes one range of the index below instead of a join with every
-- sample of the run and a sort. Copied by triggers, so no writer sets it and none can get it
-- wrong (a sample's key is its dataset's upsert key and is not changed; if it ever is, its
-- episodes follow).
UPDATE "episodes" e SET "sample_key" = s."key" FROM "samples" s WHERE s."id" = e."sample_id";

CREATE FUNCTION episodes_sample_key() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  NEW."sample_key" := (SELECT "key" FROM "samples" WHERE "id" = NEW."sample_id");
  RETURN NEW;
END $$;

CREATE TRIGGER "episodes_sample_key" BEFORE INSERT OR UPDATE OF "sample_id", "sample_key" ON "episodes"
  FOR EACH ROW EXECUTE FUNCTION episodes_sample_key();

CREATE FUNCTION samples_key_to_episodes() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "episodes" SET "sample_key" = NEW."key" WHERE "sample_id" = NEW."id";
  RETURN NULL;
END $$;

CREATE TRIGGER "samples_key_to_episodes" AFTER UPDATE OF "key" ON "samples"
  FOR EACH ROW WHEN (OLD."key" IS DISTINCT FROM NEW."key") EXECUTE FUNCTION samples_key_to_episodes();

-- CreateIndex
CREATE INDEX "episodes_run_id_sample_key_rollout_index_id_idx" ON "episodes"("run_id", "sample_key", "rollout_index", "id");
