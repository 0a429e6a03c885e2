-- AlterTable
ALTER TABLE "tool_calls" ADD COLUMN     "details" JSONB;

