-- CreateTable
CREATE TABLE "review_comment_revisions" (
    "id" TEXT NOT NULL,
    "comment_id" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "edited_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "editor_id" TEXT,

    CONSTRAINT "review_comment_revisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mention_notifications" (
    "id" TEXT NOT NULL,
    "recipient_id" TEXT NOT NULL,
    "comment_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read_at" TIMESTAMP(3),

    CONSTRAINT "mention_notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "score_configs" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "min" DOUBLE PRECISION NOT NULL,
    "max" DOUBLE PRECISION NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "score_configs_pkey" PRIMARY KEY ("id")
);

-- Hand-added (Prisma does not model CHECK constraints): a score's range is never empty or
-- reversed, whoever writes the row (the contract refuses it first with a readable message).
ALTER TABLE "score_configs" ADD CONSTRAINT "score_configs_range_check" CHECK ("min" < "max");

-- CreateTable
CREATE TABLE "review_scores" (
    "review_id" TEXT NOT NULL,
    "config_id" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "set_by_id" TEXT,
    "set_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_scores_pkey" PRIMARY KEY ("review_id","config_id")
);

-- CreateIndex
CREATE INDEX "review_comment_revisions_comment_id_edited_at_idx" ON "review_comment_revisions"("comment_id", "edited_at");

-- CreateIndex
CREATE INDEX "mention_notifications_recipient_id_read_at_idx" ON "mention_notifications"("recipient_id", "read_at");

-- CreateIndex
CREATE INDEX "mention_notifications_recipient_id_created_at_idx" ON "mention_notifications"("recipient_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "mention_notifications_comment_id_recipient_id_key" ON "mention_notifications"("comment_id", "recipient_id");

-- CreateIndex
CREATE UNIQUE INDEX "score_configs_project_id_name_key" ON "score_configs"("project_id", "name");

-- CreateIndex
CREATE INDEX "review_scores_config_id_idx" ON "review_scores"("config_id");

-- AddForeignKey
ALTER TABLE "review_comment_revisions" ADD CONSTRAINT "review_comment_revisions_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "review_comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_comment_revisions" ADD CONSTRAINT "review_comment_revisions_editor_id_fkey" FOREIGN KEY ("editor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mention_notifications" ADD CONSTRAINT "mention_notifications_recipient_id_fkey" FOREIGN KEY ("recipient_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mention_notifications" ADD CONSTRAINT "mention_notifications_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "review_comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mention_notifications" ADD CONSTRAINT "mention_notifications_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "score_configs" ADD CONSTRAINT "score_configs_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_scores" ADD CONSTRAINT "review_scores_review_id_fkey" FOREIGN KEY ("review_id") REFERENCES "reviews"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_scores" ADD CONSTRAINT "review_scores_config_id_fkey" FOREIGN KEY ("config_id") REFERENCES "score_configs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_scores" ADD CONSTRAINT "review_scores_set_by_id_fkey" FOREIGN KEY ("set_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

