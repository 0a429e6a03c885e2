-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "summary" JSONB;

-- AlterTable
ALTER TABLE "episodes" ADD COLUMN     "details" JSONB,
ADD COLUMN     "overview_timestamps" DOUBLE PRECISION[],
ADD COLUMN     "tool_call_count" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "turns" ADD COLUMN     "forced_final" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "forced_prefix" TEXT,
ADD COLUMN     "parsed_calls" JSONB,
ADD COLUMN     "prompt_tokens" INTEGER;

-- AlterTable
ALTER TABLE "tool_calls" ADD COLUMN     "clamped" BOOLEAN NOT NULL DEFAULT false;

