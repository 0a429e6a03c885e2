-- CreateTable
CREATE TABLE "eval_run_samples" (
    "run_id" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "sample_id" TEXT NOT NULL,

    CONSTRAINT "eval_run_samples_pkey" PRIMARY KEY ("run_id","ordinal")
);

-- AddForeignKey
ALTER TABLE "eval_run_samples" ADD CONSTRAINT "eval_run_samples_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Each eval run's sample ids move out of `runs.config.sampleIds` (issue 42 item 3: 100,000 ids
-- were ~3 MB of JSON that every read of the run's config detoasted) into the rows above, in
-- order (ordinal 0-based, so shard i still covers [from, to)); the config keeps their number as
-- `sampleCount`. Only eval runs: another run's config (an ingested trainer's verbatim settings)
-- may use the key for something else.
INSERT INTO "eval_run_samples" ("run_id", "ordinal", "sample_id")
SELECT r."id", (s.ord - 1)::int, s.sample_id
FROM "runs" r
CROSS JOIN LATERAL jsonb_array_elements_text(r."config" -> 'sampleIds') WITH ORDINALITY AS s(sample_id, ord)
WHERE r."kind" = 'eval' AND jsonb_typeof(r."config" -> 'sampleIds') = 'array';

UPDATE "runs"
SET "config" = ("config" - 'sampleIds') || jsonb_build_object('sampleCount', jsonb_array_length("config" -> 'sampleIds'))
WHERE "kind" = 'eval' AND jsonb_typeof("config" -> 'sampleIds') = 'array';
