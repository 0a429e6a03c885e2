-- AlterTable
ALTER TABLE "review_comments" ADD COLUMN     "edited_at" TIMESTAMP(3);

