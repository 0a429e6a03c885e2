-- AlterTable (hand-edited: project_id is backfilled from the episode's run before it becomes
-- NOT NULL, so a database with review rows migrates; string tags had no taxonomy to map onto).
ALTER TABLE "reviews" DROP COLUMN "tags",
ADD COLUMN     "project_id" TEXT,
ADD COLUMN     "updated_by_id" TEXT;
UPDATE "reviews" r SET "project_id" = ru."project_id"
  FROM "episodes" e JOIN "runs" ru ON ru."id" = e."run_id" WHERE e."id" = r."episode_id";
ALTER TABLE "reviews" ALTER COLUMN "project_id" SET NOT NULL;

-- AlterTable
ALTER TABLE "review_comments" ADD COLUMN     "mention_ids" TEXT[];

-- CreateTable
CREATE TABLE "failure_tags" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "failure_tags_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_tags" (
    "review_id" TEXT NOT NULL,
    "tag_id" TEXT NOT NULL,
    "added_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_tags_pkey" PRIMARY KEY ("review_id","tag_id")
);

-- CreateTable
CREATE TABLE "review_queues" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "filter" JSONB NOT NULL,
    "created_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_queues_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_queue_items" (
    "queue_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "episode_id" TEXT NOT NULL,

    CONSTRAINT "review_queue_items_pkey" PRIMARY KEY ("queue_id","position")
);

-- CreateIndex
CREATE UNIQUE INDEX "failure_tags_project_id_name_key" ON "failure_tags"("project_id", "name");

-- CreateIndex
CREATE INDEX "review_tags_tag_id_idx" ON "review_tags"("tag_id");

-- CreateIndex
CREATE INDEX "review_queues_project_id_created_at_idx" ON "review_queues"("project_id", "created_at");

-- CreateIndex
CREATE INDEX "review_queue_items_episode_id_idx" ON "review_queue_items"("episode_id");

-- CreateIndex
CREATE UNIQUE INDEX "review_queue_items_queue_id_episode_id_key" ON "review_queue_items"("queue_id", "episode_id");

-- CreateIndex
CREATE INDEX "reviews_project_id_assignee_id_idx" ON "reviews"("project_id", "assignee_id");

-- AddForeignKey
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "failure_tags" ADD CONSTRAINT "failure_tags_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_tags" ADD CONSTRAINT "review_tags_review_id_fkey" FOREIGN KEY ("review_id") REFERENCES "reviews"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_tags" ADD CONSTRAINT "review_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "failure_tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_queues" ADD CONSTRAINT "review_queues_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_queues" ADD CONSTRAINT "review_queues_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_queue_items" ADD CONSTRAINT "review_queue_items_queue_id_fkey" FOREIGN KEY ("queue_id") REFERENCES "review_queues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_queue_items" ADD CONSTRAINT "review_queue_items_episode_id_fkey" FOREIGN KEY ("episode_id") REFERENCES "episodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- AddForeignKey
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_updated_by_id_fkey" FOREIGN KEY ("updated_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_queues" ADD CONSTRAINT "review_queues_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Seed failure taxonomy (issue 10) for the projects that exist; new projects get it when created
-- (services/reviews-taxonomy.ts SEED_FAILURE_TAGS, same names and order).
INSERT INTO "failure_tags" ("id", "project_id", "name", "position")
SELECT gen_random_uuid()::text, p."id", t.name, t.position
FROM "projects" p CROSS JOIN (VALUES
  ('mis-localized crop', 0),
  ('evidence missed in overview', 1),
  ('hallucinated sub-agent summary', 2),
  ('aggregation error', 3),
  ('format collapse', 4),
  ('skipped a needed tool', 5),
  ('answer-extraction problem', 6),
  ('video decode problem', 7)
) AS t(name, position)
ON CONFLICT DO NOTHING;
