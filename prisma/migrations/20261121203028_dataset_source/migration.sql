-- AlterTable
ALTER TABLE "datasets" ADD COLUMN     "source" JSONB NOT NULL DEFAULT '{}';

