-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "rate_limit_per_minute" INTEGER NOT NULL DEFAULT 600;

-- AlterTable
ALTER TABLE "episodes" ADD COLUMN     "external_id" TEXT;

-- CreateTable
CREATE TABLE "token_uses" (
    "id" BIGSERIAL NOT NULL,
    "token_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "ip" TEXT,

    CONSTRAINT "token_uses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "token_uses_project_id_at_idx" ON "token_uses"("project_id", "at");

-- CreateIndex
CREATE INDEX "token_uses_token_id_at_idx" ON "token_uses"("token_id", "at");

-- CreateIndex
CREATE UNIQUE INDEX "episodes_run_id_external_id_key" ON "episodes"("run_id", "external_id");

-- AddForeignKey
ALTER TABLE "token_uses" ADD CONSTRAINT "token_uses_token_id_fkey" FOREIGN KEY ("token_id") REFERENCES "api_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;

