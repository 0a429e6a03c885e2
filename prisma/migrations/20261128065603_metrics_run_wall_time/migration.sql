-- CreateIndex
CREATE INDEX "metrics_run_id_wall_time_idx" ON "metrics"("run_id", "wall_time");

