"""Typed client of the workbench's REST API (/api/v1), generated from packages/client/openapi.json.

    from paravt_workbench.api import ApiClient
    api = ApiClient("http://localhost:3000", "pvt_…")      # or ApiClient.from_env()
    project_id = api.ingest_whoami()["token"]["projectId"]
    for run in api.runs_list(project_id, status="SUCCEEDED"):
        print(run["name"], run["status"])

One method per operation (the operationId in snake case: `runs-metricsExport` ->
`runs_metrics_export`), path parameters positional, the JSON body as `body`, query and header
parameters as keywords. Answers are the parsed JSON, typed by the TypedDicts of _generated.py.
Failures raise ApiError (status, the server's message, `retryable`, `retry_after_s`). For an
answer's headers (the CSV export's X-Next-After-Step) use `call(OPERATIONS[id], ...)`, which
returns an ApiResponse.
"""

from ._generated import *  # noqa: F401,F403  (every TypedDict, ApiClient, OPERATIONS)
from ._generated import (
    IngestMetricsBodyItemsItem,
    IngestRolloutsBodyItemsItem,
    RunsByIdResponse,
)
from ._transport import ApiError, ApiResponse, Operation, Transport

# Short names for the shapes scripts use most, as the TypeScript client exports them.
MetricItem = IngestMetricsBodyItemsItem
RolloutItem = IngestRolloutsBodyItemsItem
RunSummary = RunsByIdResponse
