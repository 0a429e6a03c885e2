// Generated from openapi.json by scripts/generate.ts (openapi-typescript). Do not edit.
export interface paths {
    "/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Projects the caller can see (a token sees its own project only)
         * @description Token scope: READ (read data).
         */
        get: operations["projects-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One project with the caller's role
         * @description Token scope: READ (read data).
         */
        get: operations["projects-byId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Members of the project (user ids for review assignees and mentions)
         * @description Token scope: READ (read data).
         */
        get: operations["members-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Runs (jobs, trainings, evaluations) of the project, newest first
         * @description Token scope: READ (read data).
         */
        get: operations["runs-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/workers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live worker processes: host, queues, compute backend and device, running jobs
         * @description Token scope: READ (read data).
         */
        get: operations["runs-workers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One run with its status and progress
         * @description Token scope: READ (read data).
         */
        get: operations["runs-byId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/runs/{runId}/metric-names": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The metric series a run has (names, point counts, step extent)
         * @description Token scope: READ (read data).
         */
        get: operations["runs-metricNames"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/runs/{runId}/metrics/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Metric series by step or wall time, optionally a zoom window, downsampled (min/max kept) to maxPoints
         * @description Token scope: READ (read data).
         */
        post: operations["runs-metrics"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/runs/{runId}/metrics/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every point of the chosen series as CSV or JSON, one page of steps per call
         * @description Token scope: READ (read data).
         */
        get: operations["runs-metricsExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/runs/{runId}/steps/{step}/rollouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The rollouts an RL run kept of one step, with the nearest steps that have some
         * @description Token scope: READ (read data).
         */
        get: operations["runs-stepRollouts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/runs/{runId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a queued or running run
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        post: operations["runs-cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/runs/{runId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a failed or cancelled evaluation or training run (only the missing work runs)
         * @description Token scope: LAUNCH (launch jobs), and the editor role.
         */
        post: operations["runs-resume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/videos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Videos of the project, optionally filtered by name
         * @description Token scope: READ (read data).
         */
        get: operations["videos-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/videos/{videoId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One video with its probe metadata and status
         * @description Token scope: READ (read data).
         */
        get: operations["videos-byId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/videos/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register a video file on the server (path or file:// URI inside MEDIA_ROOTS) and probe it
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        post: operations["videos-register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/videos/demo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Render a synthetic demo video on a worker
         * @description Token scope: LAUNCH (launch jobs), and the editor role.
         */
        post: operations["videos-createDemo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/datasets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Datasets of the project
         * @description Token scope: READ (read data).
         */
        get: operations["datasets-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/datasets/{datasetId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One dataset (source, import report, counts by question type)
         * @description Token scope: READ (read data).
         */
        get: operations["datasets-byId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/datasets/{datasetId}/samples": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Samples of a dataset, one cursor page at a time
         * @description Token scope: READ (read data).
         */
        get: operations["datasets-samples"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/datasets/generate-suite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Render a needle suite on a worker and import it
         * @description Token scope: LAUNCH (launch jobs), and the editor role.
         */
        post: operations["datasets-generateSuite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/datasets/import-suite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a suite directory on the server (inside MEDIA_ROOTS)
         * @description Token scope: LAUNCH (launch jobs), and the editor role.
         */
        post: operations["datasets-importSuite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/benchmarks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Benchmarks a local copy can be imported from, with their expected files
         * @description Token scope: READ (read data).
         */
        get: operations["datasets-benchmarks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/datasets/import-benchmark": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a local benchmark copy (inside MEDIA_ROOTS) as a dataset
         * @description Token scope: LAUNCH (launch jobs), and the editor role.
         */
        post: operations["datasets-importBenchmark"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/datasets/{datasetId}/reimport": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a benchmark dataset again with its stored options
         * @description Token scope: LAUNCH (launch jobs), and the editor role.
         */
        post: operations["datasets-reimportBenchmark"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Models of the registry (API keys are never returned: hasApiKey only)
         * @description Token scope: READ (read data).
         */
        get: operations["models-list"];
        put?: never;
        /**
         * Register a nano checkpoint, an OpenAI-compatible endpoint (apiKey is write-only) or an external model
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        post: operations["models-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/models/{modelId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a model
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        delete: operations["models-delete"];
        options?: never;
        head?: never;
        /**
         * Rename a model, change its description, or replace / remove its API key
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        patch: operations["models-update"];
        trace?: never;
    };
    "/projects/{projectId}/models/{modelId}/probe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Probe an OpenAI-compatible endpoint: served models and context length, one image, several images, reasoning parser
         * @description Token scope: WRITE (write data and reviews), and the editor role. The result is also stored in the model's config as `probe`.
         */
        post: operations["models-probe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/training/sft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Launch cold-start SFT of ParaVT-nano on a needle suite
         * @description Token scope: LAUNCH (launch jobs), and the editor role.
         */
        post: operations["training-launchSft"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/training/rl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Launch PARA-GRPO / vanilla GRPO of ParaVT-nano on a needle suite
         * @description Token scope: LAUNCH (launch jobs), and the editor role.
         */
        post: operations["training-launchRl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/evals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Launch models x datasets x prompt modes x K as one group of eval runs
         * @description Token scope: LAUNCH (launch jobs), and the editor role.
         */
        post: operations["evals-launch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/evals/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent evaluation groups with their runs, progress and summaries
         * @description Token scope: READ (read data).
         */
        get: operations["evals-groups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/evals/groups/{groupId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One evaluation group
         * @description Token scope: READ (read data).
         */
        get: operations["evals-group"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/evals/groups/{groupId}/table": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An evaluation group as the paper's main table (benchmarks as columns, average), as CSV and Markdown
         * @description Token scope: READ (read data). Rows are (model, prompt mode, K); each column is a benchmark's headline figure (accuracy, or mIoU for temporal grounding) over answered samples; ERROR episodes are left out and named in the row's notes.
         */
        get: operations["evals-table"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/evals/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One eval run: settings and SPEC §5 summary
         * @description Token scope: READ (read data).
         */
        get: operations["evals-byId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/evals/runs/{runId}/samples": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Per-sample rows of an eval run, filtered, one cursor page at a time
         * @description Token scope: READ (read data).
         */
        get: operations["evals-samples"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/episodes/{episodeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One episode's trajectory, a bounded page at a time: turns, raw text, tool calls with windows and outputs
         * @description Token scope: READ (read data). Texts longer than 16 Ki characters are head + tail previews listed in the `clipped` field of the object that holds them (name -> full length; whole through GET …/episodes/{episodeId}/text). Turns and tool calls fill about 256 KB; `nextCursor` continues (a turn split across pages repeats its fields with its remaining calls).
         */
        get: operations["evals-episode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/episodes/{episodeId}/text": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One text of an episode, whole, in pages of at most 64 Ki characters
         * @description Token scope: READ (read data). `field` of the episode (or its sample: question, answer, options, metadata), of turn `turn`, or of tool call `call` of turn `turn`; a JSON field's text is its JSON. Offsets and lengths count UTF-16 code units; follow `nextOffset` until it is null.
         */
        get: operations["evals-episodeText"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/evals/matrix": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Results matrix of a group or of chosen runs
         * @description Token scope: READ (read data).
         */
        get: operations["evals-matrix"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/evals/import-reference": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import one dataset's reference evaluator output (SPEC §6) as a run
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        post: operations["evals-importReference"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/reviews/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's failure taxonomy
         * @description Token scope: READ (read data).
         */
        get: operations["reviews-tags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/reviews/queues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Review queues with progress
         * @description Token scope: READ (read data).
         */
        get: operations["reviews-queues"];
        put?: never;
        /**
         * Build a review queue from one run's episodes by a filter
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        post: operations["reviews-createQueue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/reviews/queues/{queueId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One review queue with its items
         * @description Token scope: READ (read data).
         */
        get: operations["reviews-queue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/reviews/episodes/{episodeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The review of one episode: status, assignee, tags, comments
         * @description Token scope: READ (read data).
         */
        get: operations["reviews-review"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set an episode's review status and / or assignee
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        patch: operations["reviews-update"];
        trace?: never;
    };
    "/projects/{projectId}/reviews/episodes/{episodeId}/tags/{tagId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Add (on: true) or remove (on: false) a failure tag on an episode
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        put: operations["reviews-setTag"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/reviews/episodes/{episodeId}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Comment on an episode, optionally pinned to a video time, with @-mentions
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        post: operations["reviews-comment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/reviews/episodes/{episodeId}/comments/{commentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a comment: your own, or anyone's as a project owner
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        delete: operations["reviews-deleteComment"];
        options?: never;
        head?: never;
        /**
         * Edit your own comment (its video pin stays; mentions are replaced)
         * @description Token scope: WRITE (write data and reviews), and the editor role. Only the comment's author may edit it (403 otherwise).
         */
        patch: operations["reviews-editComment"];
        trace?: never;
    };
    "/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller: user, and the token's project and scopes
         * @description Any API token (no scope needed).
         */
        get: operations["ingest-whoami"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/external-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an external run (idempotent by clientId)
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        post: operations["ingest-createRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/external-runs/{runId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report an external run's status
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        post: operations["ingest-setStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/external-runs/{runId}/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a batch of metric steps (status per item; a retried batch stores nothing twice)
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        post: operations["ingest-metrics"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/external-runs/{runId}/rollouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a batch of rollouts with full trajectories (status per item; idempotent by id)
         * @description Token scope: WRITE (write data and reviews), and the editor role.
         */
        post: operations["ingest-rollouts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/runs/{runId}/episodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of a run's episodes with full trajectories
         * @description Token scope: READ (read data).
         */
        get: operations["ingest-episodes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectId}/videos/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a video file as the raw request body (streamed to disk; the type is sniffed from its bytes)
         * @description Token scope: WRITE (write data and reviews), and the editor role. Send the bytes as the body (any Content-Type) and the file name, URI-encoded, in X-File-Name. Larger than UPLOAD_MAX_BYTES: 413. Bytes that are not a video container: 415.
         */
        post: operations["videos-upload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            /** @description What went wrong, readable */
            message: string;
            /** @description tRPC error code, e.g. UNAUTHORIZED, FORBIDDEN, NOT_FOUND, BAD_REQUEST */
            code: string;
            /** @description 422 from input validation: the zod issues (path, message, code) */
            issues?: {
                message: string;
            }[];
        };
        RouteError: {
            /** @description What went wrong, readable */
            error: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "projects-list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        slug: string;
                        description: string;
                        /** @enum {string} */
                        role: "VIEWER" | "EDITOR" | "OWNER";
                        memberCount: number;
                        videoCount: number;
                        runCount: number;
                        /** Format: date-time */
                        createdAt: string;
                    }[];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "projects-byId": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        slug: string;
                        description: string;
                        /** @enum {string} */
                        role: "VIEWER" | "EDITOR" | "OWNER";
                        memberCount: number;
                        videoCount: number;
                        runCount: number;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "members-list": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        userId: string;
                        name: string;
                        email: string;
                        /** @enum {string} */
                        role: "VIEWER" | "EDITOR" | "OWNER";
                        /** Format: date-time */
                        joinedAt: string;
                    }[];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "runs-list": {
        parameters: {
            query?: {
                status?: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                limit?: number;
            };
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "sft" | "rl" | "eval" | "import" | "job";
                        jobName: string;
                        name: string;
                        /** @enum {string} */
                        status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                        progress: number;
                        message: string | null;
                        error: string | null;
                        attempts: number;
                        /** Format: date-time */
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        createdBy: string | null;
                    }[];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "runs-workers": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workers: {
                            id: string;
                            host: string;
                            pid: number;
                            queues: ("cpu" | "gpu")[];
                            concurrency: number;
                            backend: string;
                            device: string;
                            memoryBytes: number;
                            cores: number;
                            /** Format: date-time */
                            startedAt: string;
                            /** Format: date-time */
                            seenAt: string;
                            active: {
                                jobName: string;
                                runId: string;
                                /** Format: date-time */
                                since: string;
                            }[];
                            otherJobs: number;
                        }[];
                        unreadable: number;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "runs-byId": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "sft" | "rl" | "eval" | "import" | "job";
                        jobName: string;
                        name: string;
                        /** @enum {string} */
                        status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                        progress: number;
                        message: string | null;
                        error: string | null;
                        attempts: number;
                        /** Format: date-time */
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        createdBy: string | null;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "runs-metricNames": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        count: number;
                        firstStep: number;
                        lastStep: number;
                    }[];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "runs-metrics": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    names: string[];
                    /** @default 600 */
                    maxPoints?: number;
                    /**
                     * @default step
                     * @enum {string}
                     */
                    x?: "step" | "time";
                    range?: {
                        from: number;
                        to: number;
                    };
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        total: number;
                        steps: number[];
                        t: number[];
                        values: number[];
                    }[];
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "runs-metricsExport": {
        parameters: {
            query: {
                names: string[];
                format: "csv" | "json";
                afterStep?: number;
                limitSteps?: number;
            };
            header?: never;
            path: {
                projectId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response. format=csv: the page's rows as CSV (`step,time_s,<names…>`, the header line on the first page only, so pages concatenate into one file); X-Next-After-Step gives the next page's afterStep (absent on the last page). format=json: the JSON object. */
            200: {
                headers: {
                    /** @description format=csv: afterStep of the next page; absent on the last page */
                    "X-Next-After-Step"?: number;
                    /** @description format=csv: the number of rows (steps) in this page */
                    "X-Rows"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        format: "csv" | "json";
                        content: string;
                        rows: number;
                        nextAfterStep: number | null;
                    };
                    "text/csv": string;
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "runs-stepRollouts": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                runId: string;
                step: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        step: number;
                        items: {
                            episodeId: string;
                            rollout: number;
                            rolloutIndex: number;
                            sample: {
                                id: string;
                                key: string;
                                answer: string;
                            };
                            k: number;
                            promptMode: string;
                            /** @enum {string} */
                            status: "OK" | "ERROR";
                            error: string | null;
                            prediction: string | null;
                            correct: boolean | null;
                            score: number | null;
                            toolCallCount: number;
                            rewardTerms: {
                                [key: string]: number | boolean | string;
                            } | null;
                        }[];
                        prev: number | null;
                        next: number | null;
                        nearest: number | null;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "runs-cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "sft" | "rl" | "eval" | "import" | "job";
                        jobName: string;
                        name: string;
                        /** @enum {string} */
                        status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                        progress: number;
                        message: string | null;
                        error: string | null;
                        attempts: number;
                        /** Format: date-time */
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        createdBy: string | null;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "runs-resume": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "sft" | "rl" | "eval" | "import" | "job";
                        jobName: string;
                        name: string;
                        /** @enum {string} */
                        status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                        progress: number;
                        message: string | null;
                        error: string | null;
                        attempts: number;
                        /** Format: date-time */
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        createdBy: string | null;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "videos-list": {
        parameters: {
            query?: {
                query?: string;
            };
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @enum {string} */
                        source: "UPLOAD" | "PATH" | "GENERATED";
                        /** @enum {string} */
                        status: "PENDING" | "PROBING" | "PROCESSING" | "READY" | "FAILED";
                        error: string | null;
                        durationS: number | null;
                        width: number | null;
                        height: number | null;
                        fps: number | null;
                        codec: string | null;
                        sizeBytes: number | null;
                        hasThumbnail: boolean;
                        hasFilmstrip: boolean;
                        /** Format: date-time */
                        createdAt: string;
                    }[];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "videos-byId": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                videoId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @enum {string} */
                        source: "UPLOAD" | "PATH" | "GENERATED";
                        /** @enum {string} */
                        status: "PENDING" | "PROBING" | "PROCESSING" | "READY" | "FAILED";
                        error: string | null;
                        durationS: number | null;
                        width: number | null;
                        height: number | null;
                        fps: number | null;
                        codec: string | null;
                        sizeBytes: number | null;
                        hasThumbnail: boolean;
                        hasFilmstrip: boolean;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "videos-register": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    path: string;
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        video: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            source: "UPLOAD" | "PATH" | "GENERATED";
                            /** @enum {string} */
                            status: "PENDING" | "PROBING" | "PROCESSING" | "READY" | "FAILED";
                            error: string | null;
                            durationS: number | null;
                            width: number | null;
                            height: number | null;
                            fps: number | null;
                            codec: string | null;
                            sizeBytes: number | null;
                            hasThumbnail: boolean;
                            hasFilmstrip: boolean;
                            /** Format: date-time */
                            createdAt: string;
                        };
                        runId: string;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "videos-createDemo": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @default 20 */
                    durationS?: number;
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        video: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            source: "UPLOAD" | "PATH" | "GENERATED";
                            /** @enum {string} */
                            status: "PENDING" | "PROBING" | "PROCESSING" | "READY" | "FAILED";
                            error: string | null;
                            durationS: number | null;
                            width: number | null;
                            height: number | null;
                            fps: number | null;
                            codec: string | null;
                            sizeBytes: number | null;
                            hasThumbnail: boolean;
                            hasFilmstrip: boolean;
                            /** Format: date-time */
                            createdAt: string;
                        };
                        runId: string;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "datasets-list": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        source: {
                            [key: string]: unknown;
                        };
                        sampleCount: number;
                        countsByType: {
                            [key: string]: number;
                        };
                        /** Format: date-time */
                        createdAt: string;
                    }[];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "datasets-byId": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                datasetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        source: {
                            [key: string]: unknown;
                        };
                        sampleCount: number;
                        countsByType: {
                            [key: string]: number;
                        };
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "datasets-samples": {
        parameters: {
            query?: {
                questionType?: "mcq" | "tvg" | "oe";
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                projectId: string;
                datasetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            key: string;
                            question: string;
                            options: string[] | null;
                            answer: string;
                            /** @enum {string} */
                            questionType: "mcq" | "tvg" | "oe";
                            videoId: string | null;
                            videoName: string | null;
                            metadata: {
                                [key: string]: unknown;
                            };
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "datasets-generateSuite": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @default 1 */
                    seed?: number;
                    /** @default 5 */
                    count?: number;
                    /** @default 1 */
                    minMinutes?: number;
                    /** @default 3 */
                    maxMinutes?: number;
                    /**
                     * @default letter-first
                     * @enum {string}
                     */
                    optionStyle?: "letter-first" | "text-first";
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dataset: {
                            id: string;
                            name: string;
                            description: string;
                            source: {
                                [key: string]: unknown;
                            };
                            sampleCount: number;
                            countsByType: {
                                [key: string]: number;
                            };
                            /** Format: date-time */
                            createdAt: string;
                        };
                        runId: string;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "datasets-importSuite": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    path: string;
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dataset: {
                            id: string;
                            name: string;
                            description: string;
                            source: {
                                [key: string]: unknown;
                            };
                            sampleCount: number;
                            countsByType: {
                                [key: string]: number;
                            };
                            /** Format: date-time */
                            createdAt: string;
                        };
                        runId: string;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "datasets-benchmarks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        id: "videomme" | "longvideobench" | "lvbench" | "mlvu" | "mmvu" | "charades_sta" | "custom" | "paravt-parquet";
                        title: string;
                        description: string;
                        splits: string[];
                        defaultSplit: string;
                        questionType: string;
                        metric: string;
                        supportsSubtitles: boolean;
                        source: string;
                        files: {
                            path: string;
                            required: boolean;
                            description: string;
                        }[];
                        videoDirs: string[];
                        variants: string[];
                    }[];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "datasets-importBenchmark": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @enum {string} */
                    benchmark: "videomme" | "longvideobench" | "lvbench" | "mlvu" | "mmvu" | "charades_sta" | "custom" | "paravt-parquet";
                    path: string;
                    videoDir?: string;
                    split?: string;
                    /** @default false */
                    subtitles?: boolean;
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dataset: {
                            id: string;
                            name: string;
                            description: string;
                            source: {
                                [key: string]: unknown;
                            };
                            sampleCount: number;
                            countsByType: {
                                [key: string]: number;
                            };
                            /** Format: date-time */
                            createdAt: string;
                        };
                        runId: string;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "datasets-reimportBenchmark": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                datasetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        runId: string;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "models-list": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @enum {string} */
                        kind: "NANO_CHECKPOINT" | "OPENAI_COMPATIBLE" | "EXTERNAL";
                        config: {
                            [key: string]: unknown;
                        };
                        hasApiKey: boolean;
                        /** Format: date-time */
                        createdAt: string;
                        nano: {
                            shortId: string | null;
                            modelHash: string | null;
                            trainedKs: number[] | null;
                            quality: {
                                date: string | null;
                                method: string;
                                suites: {
                                    name: string;
                                    seed: number | null;
                                    count: number | null;
                                    options: string;
                                }[];
                                measurements: {
                                    suite: string;
                                    k: number;
                                    tools: boolean | null;
                                    questions: number;
                                    formatCompliance: number;
                                    score: number;
                                    byType?: {
                                        mcq?: number;
                                        oe?: number;
                                        tvg?: number;
                                    };
                                }[];
                            } | null;
                            lineage: {
                                name: string;
                                trainer: string;
                                arguments: string[] | string;
                                data: {
                                    description: string;
                                    suite?: {
                                        name: string;
                                        seed: number | null;
                                        count: number | null;
                                        options: string;
                                    };
                                    examples?: number;
                                    dataHash: string | null;
                                };
                                steps: number;
                                batch: number;
                                seed: number;
                                hardware: string;
                                minutes: number | null;
                                parentHash: string | null;
                                commit?: string;
                            }[] | null;
                            problem: string | null;
                        } | null;
                        description: string;
                        producedByRunId: string | null;
                        evaluations: {
                            groupId: string;
                            name: string;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                    }[];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "models-create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    config: {
                        /** @constant */
                        kind: "OPENAI_COMPATIBLE";
                        /** Format: uri */
                        baseUrl: string;
                        servedModel: string;
                        /** @default 120 */
                        firstByteTimeoutS?: number;
                        /** @default 600 */
                        totalTimeoutS?: number;
                        /** @default 2 */
                        retries?: number;
                    } | {
                        /** @constant */
                        kind: "NANO_CHECKPOINT";
                        checkpoint: string;
                    } | {
                        /** @constant */
                        kind: "EXTERNAL";
                        /** @default  */
                        description?: string;
                    };
                    apiKey?: string;
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @enum {string} */
                        kind: "NANO_CHECKPOINT" | "OPENAI_COMPATIBLE" | "EXTERNAL";
                        config: {
                            [key: string]: unknown;
                        };
                        hasApiKey: boolean;
                        /** Format: date-time */
                        createdAt: string;
                        nano: {
                            shortId: string | null;
                            modelHash: string | null;
                            trainedKs: number[] | null;
                            quality: {
                                date: string | null;
                                method: string;
                                suites: {
                                    name: string;
                                    seed: number | null;
                                    count: number | null;
                                    options: string;
                                }[];
                                measurements: {
                                    suite: string;
                                    k: number;
                                    tools: boolean | null;
                                    questions: number;
                                    formatCompliance: number;
                                    score: number;
                                    byType?: {
                                        mcq?: number;
                                        oe?: number;
                                        tvg?: number;
                                    };
                                }[];
                            } | null;
                            lineage: {
                                name: string;
                                trainer: string;
                                arguments: string[] | string;
                                data: {
                                    description: string;
                                    suite?: {
                                        name: string;
                                        seed: number | null;
                                        count: number | null;
                                        options: string;
                                    };
                                    examples?: number;
                                    dataHash: string | null;
                                };
                                steps: number;
                                batch: number;
                                seed: number;
                                hardware: string;
                                minutes: number | null;
                                parentHash: string | null;
                                commit?: string;
                            }[] | null;
                            problem: string | null;
                        } | null;
                        description: string;
                        producedByRunId: string | null;
                        evaluations: {
                            groupId: string;
                            name: string;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "models-delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                modelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        ok: true;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "models-update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                modelId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    apiKey?: string | null;
                    limits?: {
                        firstByteTimeoutS?: number;
                        totalTimeoutS?: number;
                        retries?: number;
                    };
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @enum {string} */
                        kind: "NANO_CHECKPOINT" | "OPENAI_COMPATIBLE" | "EXTERNAL";
                        config: {
                            [key: string]: unknown;
                        };
                        hasApiKey: boolean;
                        /** Format: date-time */
                        createdAt: string;
                        nano: {
                            shortId: string | null;
                            modelHash: string | null;
                            trainedKs: number[] | null;
                            quality: {
                                date: string | null;
                                method: string;
                                suites: {
                                    name: string;
                                    seed: number | null;
                                    count: number | null;
                                    options: string;
                                }[];
                                measurements: {
                                    suite: string;
                                    k: number;
                                    tools: boolean | null;
                                    questions: number;
                                    formatCompliance: number;
                                    score: number;
                                    byType?: {
                                        mcq?: number;
                                        oe?: number;
                                        tvg?: number;
                                    };
                                }[];
                            } | null;
                            lineage: {
                                name: string;
                                trainer: string;
                                arguments: string[] | string;
                                data: {
                                    description: string;
                                    suite?: {
                                        name: string;
                                        seed: number | null;
                                        count: number | null;
                                        options: string;
                                    };
                                    examples?: number;
                                    dataHash: string | null;
                                };
                                steps: number;
                                batch: number;
                                seed: number;
                                hardware: string;
                                minutes: number | null;
                                parentHash: string | null;
                                commit?: string;
                            }[] | null;
                            problem: string | null;
                        } | null;
                        description: string;
                        producedByRunId: string | null;
                        evaluations: {
                            groupId: string;
                            name: string;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "models-probe": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                modelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        probedAt: string;
                        durationMs: number;
                        modelIds: string[];
                        modelsError: string | null;
                        servedModelListed: boolean;
                        maxModelLen: number | null;
                        oneImage: {
                            /** @constant */
                            ok: true;
                            answer: string;
                            reasoningField: ("reasoning" | "reasoning_content") | null;
                        } | {
                            /** @constant */
                            ok: false;
                            error: string;
                        };
                        severalImages: {
                            /** @constant */
                            ok: true;
                            answer: string;
                            reasoningField: ("reasoning" | "reasoning_content") | null;
                        } | {
                            /** @constant */
                            ok: false;
                            error: string;
                        };
                        reasoningParser: ("reasoning" | "reasoning_content") | null;
                        warnings: string[];
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "training-launchSft": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    datasetId: string;
                    name: string;
                    /**
                     * @default tiny
                     * @enum {string}
                     */
                    preset?: "tiny" | "small" | "default";
                    /** @default 200 */
                    steps?: number;
                    /** @default 4 */
                    batchSize?: number;
                    /** @default 0.001 */
                    lr?: number;
                    /** @default 1 */
                    seed?: number;
                    /** @default 50 */
                    checkpointEvery?: number;
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "sft" | "rl" | "eval" | "import" | "job";
                        jobName: string;
                        name: string;
                        /** @enum {string} */
                        status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                        progress: number;
                        message: string | null;
                        error: string | null;
                        attempts: number;
                        /** Format: date-time */
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        createdBy: string | null;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "training-launchRl": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    datasetId: string;
                    modelId?: string;
                    name: string;
                    /**
                     * @default para-grpo
                     * @enum {string}
                     */
                    preset?: "para-grpo" | "vanilla-grpo";
                    /** @default 100 */
                    steps?: number;
                    /** @default 10 */
                    checkpointEvery?: number;
                    /** @default 1 */
                    seed?: number;
                    /** @default 64 */
                    keepRolloutsPerStep?: number;
                    /** @default {} */
                    overrides?: {
                        groupSize?: number;
                        promptsPerStep?: number;
                        maxNewTokens?: number;
                        maxTurns?: number;
                        maxParallel?: number;
                        temperature?: number;
                        validationTemperature?: number;
                        lr?: number;
                        clip?: number;
                        klCoef?: number;
                        rewardBias?: number;
                        rewardScale?: number;
                        behaviourCap?: number;
                        gradClip?: number;
                        microBatchSize?: number;
                        validateEvery?: number;
                        validationSize?: number;
                        formatWeight?: number;
                        anchorWeight?: number;
                    };
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "sft" | "rl" | "eval" | "import" | "job";
                        jobName: string;
                        name: string;
                        /** @enum {string} */
                        status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                        progress: number;
                        message: string | null;
                        error: string | null;
                        attempts: number;
                        /** Format: date-time */
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        createdBy: string | null;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "evals-launch": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    modelIds: string[];
                    datasetIds: string[];
                    modes: ("direct" | "reasoning" | "agentic_general" | "agentic_minimal")[];
                    ks: number[];
                    /** @default {} */
                    knobs?: {
                        /** @default 0 */
                        temperature?: number;
                        /** @default 2048 */
                        maxTokens?: number;
                        /** @default 3 */
                        maxTurns?: number;
                        /** @default 5 */
                        maxParallel?: number;
                        /** @default false */
                        thinkPrefix?: boolean;
                        /**
                         * @default evaluator
                         * @enum {string}
                         */
                        dispatch?: "evaluator" | "subagent";
                        /** @default false */
                        subtitles?: boolean;
                        /** @enum {string} */
                        promptPreset?: "generic" | "nano";
                        prompts?: {
                            [key: string]: string;
                        };
                        /**
                         * @default workbench
                         * @enum {string}
                         */
                        requestStyle?: "workbench" | "reference";
                        /**
                         * @default image_url
                         * @enum {string}
                         */
                        videoChannel?: "image_url" | "video_url";
                    };
                    sampleLimit?: number;
                    split?: string;
                    /** @default 25 */
                    shardSize?: number;
                    sampleIds?: string[];
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        group: {
                            id: string;
                            name: string;
                        };
                        runs: {
                            id: string;
                            /** @enum {string} */
                            kind: "sft" | "rl" | "eval" | "import" | "job";
                            jobName: string;
                            name: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                            progress: number;
                            message: string | null;
                            error: string | null;
                            attempts: number;
                            /** Format: date-time */
                            createdAt: string;
                            startedAt: string | null;
                            finishedAt: string | null;
                            createdBy: string | null;
                        }[];
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "evals-groups": {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** Format: date-time */
                        createdAt: string;
                        runs: {
                            id: string;
                            /** @enum {string} */
                            kind: "sft" | "rl" | "eval" | "import" | "job";
                            jobName: string;
                            name: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                            progress: number;
                            message: string | null;
                            error: string | null;
                            attempts: number;
                            /** Format: date-time */
                            createdAt: string;
                            startedAt: string | null;
                            finishedAt: string | null;
                            createdBy: string | null;
                            group: {
                                id: string;
                                name: string;
                            };
                            model: {
                                id: string;
                                name: string;
                                /** @enum {string} */
                                kind: "NANO_CHECKPOINT" | "OPENAI_COMPATIBLE" | "EXTERNAL";
                            } | null;
                            dataset: {
                                id: string;
                                name: string;
                            } | null;
                            /** @enum {string} */
                            mode: "direct" | "reasoning" | "agentic_general" | "agentic_minimal";
                            k: number;
                            withTool: boolean;
                            knobs: {
                                /** @default 0 */
                                temperature: number;
                                /** @default 2048 */
                                maxTokens: number;
                                /** @default 3 */
                                maxTurns: number;
                                /** @default 5 */
                                maxParallel: number;
                                /** @default false */
                                thinkPrefix: boolean;
                                /**
                                 * @default evaluator
                                 * @enum {string}
                                 */
                                dispatch: "evaluator" | "subagent";
                                /** @default false */
                                subtitles: boolean;
                                /** @enum {string} */
                                promptPreset?: "generic" | "nano";
                                prompts?: {
                                    [key: string]: string;
                                };
                                /**
                                 * @default workbench
                                 * @enum {string}
                                 */
                                requestStyle: "workbench" | "reference";
                                /**
                                 * @default image_url
                                 * @enum {string}
                                 */
                                videoChannel: "image_url" | "video_url";
                            } | null;
                            imported: boolean;
                            summary: {
                                samples: number;
                                stored: number;
                                answered: number;
                                errors: number;
                                mcq: {
                                    n: number;
                                    correct: number;
                                    accuracy: number | null;
                                } | null;
                                byDuration: {
                                    [key: string]: {
                                        n: number;
                                        correct: number;
                                        accuracy: number | null;
                                    };
                                } | null;
                                grounding: {
                                    n: number;
                                    mIoU: number;
                                    se: number | null;
                                    r03: number;
                                    r05: number;
                                    r07: number;
                                } | null;
                                openEnded: {
                                    n: number;
                                    meanScore: number;
                                    se: number | null;
                                } | null;
                                formatCompliance: {
                                    n: number;
                                    compliant: number;
                                    rate: number;
                                } | null;
                                avgToolCalls: number | null;
                                toolUsageRate: number | null;
                            };
                        }[];
                    }[];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "evals-group": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                groupId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** Format: date-time */
                        createdAt: string;
                        runs: {
                            id: string;
                            /** @enum {string} */
                            kind: "sft" | "rl" | "eval" | "import" | "job";
                            jobName: string;
                            name: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                            progress: number;
                            message: string | null;
                            error: string | null;
                            attempts: number;
                            /** Format: date-time */
                            createdAt: string;
                            startedAt: string | null;
                            finishedAt: string | null;
                            createdBy: string | null;
                            group: {
                                id: string;
                                name: string;
                            };
                            model: {
                                id: string;
                                name: string;
                                /** @enum {string} */
                                kind: "NANO_CHECKPOINT" | "OPENAI_COMPATIBLE" | "EXTERNAL";
                            } | null;
                            dataset: {
                                id: string;
                                name: string;
                            } | null;
                            /** @enum {string} */
                            mode: "direct" | "reasoning" | "agentic_general" | "agentic_minimal";
                            k: number;
                            withTool: boolean;
                            knobs: {
                                /** @default 0 */
                                temperature: number;
                                /** @default 2048 */
                                maxTokens: number;
                                /** @default 3 */
                                maxTurns: number;
                                /** @default 5 */
                                maxParallel: number;
                                /** @default false */
                                thinkPrefix: boolean;
                                /**
                                 * @default evaluator
                                 * @enum {string}
                                 */
                                dispatch: "evaluator" | "subagent";
                                /** @default false */
                                subtitles: boolean;
                                /** @enum {string} */
                                promptPreset?: "generic" | "nano";
                                prompts?: {
                                    [key: string]: string;
                                };
                                /**
                                 * @default workbench
                                 * @enum {string}
                                 */
                                requestStyle: "workbench" | "reference";
                                /**
                                 * @default image_url
                                 * @enum {string}
                                 */
                                videoChannel: "image_url" | "video_url";
                            } | null;
                            imported: boolean;
                            summary: {
                                samples: number;
                                stored: number;
                                answered: number;
                                errors: number;
                                mcq: {
                                    n: number;
                                    correct: number;
                                    accuracy: number | null;
                                } | null;
                                byDuration: {
                                    [key: string]: {
                                        n: number;
                                        correct: number;
                                        accuracy: number | null;
                                    };
                                } | null;
                                grounding: {
                                    n: number;
                                    mIoU: number;
                                    se: number | null;
                                    r03: number;
                                    r05: number;
                                    r07: number;
                                } | null;
                                openEnded: {
                                    n: number;
                                    meanScore: number;
                                    se: number | null;
                                } | null;
                                formatCompliance: {
                                    n: number;
                                    compliant: number;
                                    rate: number;
                                } | null;
                                avgToolCalls: number | null;
                                toolUsageRate: number | null;
                            };
                        }[];
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "evals-table": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                groupId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        group: {
                            id: string;
                            name: string;
                        };
                        columns: {
                            datasetId: string;
                            name: string;
                            /** @enum {string} */
                            metric: "accuracy" | "score" | "mIoU";
                        }[];
                        rows: {
                            modelName: string;
                            modes: ("direct" | "reasoning" | "agentic_general" | "agentic_minimal")[];
                            k: number;
                            withTool: boolean;
                            values: (number | null)[];
                            average: number | null;
                            notes: string[];
                        }[];
                        fileName: string;
                        csv: string;
                        markdown: string;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "evals-byId": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "sft" | "rl" | "eval" | "import" | "job";
                        jobName: string;
                        name: string;
                        /** @enum {string} */
                        status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                        progress: number;
                        message: string | null;
                        error: string | null;
                        attempts: number;
                        /** Format: date-time */
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        createdBy: string | null;
                        group: {
                            id: string;
                            name: string;
                        };
                        model: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            kind: "NANO_CHECKPOINT" | "OPENAI_COMPATIBLE" | "EXTERNAL";
                        } | null;
                        dataset: {
                            id: string;
                            name: string;
                        } | null;
                        /** @enum {string} */
                        mode: "direct" | "reasoning" | "agentic_general" | "agentic_minimal";
                        k: number;
                        withTool: boolean;
                        knobs: {
                            /** @default 0 */
                            temperature: number;
                            /** @default 2048 */
                            maxTokens: number;
                            /** @default 3 */
                            maxTurns: number;
                            /** @default 5 */
                            maxParallel: number;
                            /** @default false */
                            thinkPrefix: boolean;
                            /**
                             * @default evaluator
                             * @enum {string}
                             */
                            dispatch: "evaluator" | "subagent";
                            /** @default false */
                            subtitles: boolean;
                            /** @enum {string} */
                            promptPreset?: "generic" | "nano";
                            prompts?: {
                                [key: string]: string;
                            };
                            /**
                             * @default workbench
                             * @enum {string}
                             */
                            requestStyle: "workbench" | "reference";
                            /**
                             * @default image_url
                             * @enum {string}
                             */
                            videoChannel: "image_url" | "video_url";
                        } | null;
                        imported: boolean;
                        summary: {
                            samples: number;
                            stored: number;
                            answered: number;
                            errors: number;
                            mcq: {
                                n: number;
                                correct: number;
                                accuracy: number | null;
                            } | null;
                            byDuration: {
                                [key: string]: {
                                    n: number;
                                    correct: number;
                                    accuracy: number | null;
                                };
                            } | null;
                            grounding: {
                                n: number;
                                mIoU: number;
                                se: number | null;
                                r03: number;
                                r05: number;
                                r07: number;
                            } | null;
                            openEnded: {
                                n: number;
                                meanScore: number;
                                se: number | null;
                            } | null;
                            formatCompliance: {
                                n: number;
                                compliant: number;
                                rate: number;
                            } | null;
                            avgToolCalls: number | null;
                            toolUsageRate: number | null;
                        };
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "evals-samples": {
        parameters: {
            query?: {
                outcome?: "correct" | "wrong" | "error";
                questionType?: "mcq" | "tvg" | "oe";
                minToolCalls?: number;
                maxToolCalls?: number;
                k?: number;
                duration?: "short" | "medium" | "long";
                flippedAgainst?: string;
                flipDirection?: "right_to_wrong" | "wrong_to_right" | "any";
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                projectId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            episodeId: string;
                            sampleId: string;
                            key: string;
                            question: string;
                            /** @enum {string} */
                            questionType: "mcq" | "tvg" | "oe";
                            answer: string;
                            prediction: string | null;
                            correct: boolean | null;
                            score: number | null;
                            /** @enum {string} */
                            status: "OK" | "ERROR";
                            error: string | null;
                            toolCallCount: number;
                            k: number;
                            rolloutIndex: number;
                            duration: ("short" | "medium" | "long") | null;
                            videoId: string | null;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "evals-episode": {
        parameters: {
            query?: {
                cursor?: string;
            };
            header?: never;
            path: {
                projectId: string;
                episodeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        run: {
                            id: string;
                            name: string;
                        };
                        sample: {
                            id: string;
                            key: string;
                            question: string;
                            options: string[] | null;
                            answer: string;
                            /** @enum {string} */
                            questionType: "mcq" | "tvg" | "oe";
                            videoId: string | null;
                            metadata: {
                                [key: string]: unknown;
                            };
                            /** @description Fields given as a preview: name -> full length; the full text via GET …/episodes/{episodeId}/text */
                            clipped?: {
                                [key: string]: number;
                            };
                        };
                        rolloutIndex: number;
                        k: number;
                        promptMode: string;
                        /** @enum {string} */
                        status: "OK" | "ERROR";
                        error: string | null;
                        finalText: string | null;
                        prediction: string | null;
                        score: number | null;
                        correct: boolean | null;
                        toolCallCount: number;
                        overviewTimestamps: number[];
                        timings: unknown;
                        tokenCounts: unknown;
                        details: unknown;
                        turns: {
                            index: number;
                            rawText: string;
                            forcedPrefix: string | null;
                            forcedFinal: boolean;
                            parsedCalls: unknown;
                            parseIssues: unknown;
                            promptTokens: number | null;
                            completionTokens: number | null;
                            timings: unknown;
                            toolCalls: {
                                index: number;
                                name: string;
                                arguments: unknown;
                                startS: number | null;
                                endS: number | null;
                                clamped: boolean;
                                frameTimestamps: number[];
                                subAgentOutput: string | null;
                                /** @enum {string} */
                                status: "OK" | "ERROR" | "REJECTED";
                                error: string | null;
                                durationMs: number | null;
                                details: unknown;
                                /** @description Fields given as a preview: name -> full length; the full text via GET …/episodes/{episodeId}/text */
                                clipped?: {
                                    [key: string]: number;
                                };
                            }[];
                            /** @description Fields given as a preview: name -> full length; the full text via GET …/episodes/{episodeId}/text */
                            clipped?: {
                                [key: string]: number;
                            };
                        }[];
                        /** Format: date-time */
                        createdAt: string;
                        /** @description Fields given as a preview: name -> full length; the full text via GET …/episodes/{episodeId}/text */
                        clipped?: {
                            [key: string]: number;
                        };
                        turnCount: number;
                        nextCursor: string | null;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "evals-episodeText": {
        parameters: {
            query: {
                field: "finalText" | "prediction" | "error" | "details" | "timings" | "tokenCounts" | "question" | "answer" | "options" | "metadata" | "rawText" | "forcedPrefix" | "parsedCalls" | "parseIssues" | "name" | "arguments" | "subAgentOutput";
                turn?: number;
                call?: number;
                offset?: number;
                limit?: number;
            };
            header?: never;
            path: {
                projectId: string;
                episodeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        field: string;
                        turn: number | null;
                        call: number | null;
                        offset: number;
                        length: number;
                        text: string;
                        nextOffset: number | null;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "evals-matrix": {
        parameters: {
            query?: {
                groupId?: string;
                runIds?: string[];
            };
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        columns: {
                            datasetId: string;
                            name: string;
                        }[];
                        rows: {
                            modelId: string;
                            modelName: string;
                            /** @enum {string} */
                            mode: "direct" | "reasoning" | "agentic_general" | "agentic_minimal";
                            k: number;
                            withTool: boolean;
                            cells: {
                                [key: string]: {
                                    runId: string;
                                    /** @enum {string} */
                                    metric: "accuracy" | "score" | "mIoU";
                                    value: number | null;
                                    n: number;
                                    se: number | null;
                                    figures: {
                                        /** @enum {string} */
                                        quantity: "accuracy" | "score" | "mIoU";
                                        value: number | null;
                                        n: number;
                                        se: number | null;
                                    }[];
                                    answered: number;
                                    errors: number;
                                    status: string;
                                };
                            };
                            average: number | null;
                        }[];
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "evals-importReference": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    datasetId: string;
                    modelId: string;
                    /**
                     * @default agentic_general
                     * @enum {string}
                     */
                    mode?: "direct" | "reasoning" | "agentic_general" | "agentic_minimal";
                    /** @default 64 */
                    k?: number;
                    groupId?: string;
                    file: unknown;
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: {
                            id: string;
                            /** @enum {string} */
                            kind: "sft" | "rl" | "eval" | "import" | "job";
                            jobName: string;
                            name: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                            progress: number;
                            message: string | null;
                            error: string | null;
                            attempts: number;
                            /** Format: date-time */
                            createdAt: string;
                            startedAt: string | null;
                            finishedAt: string | null;
                            createdBy: string | null;
                        };
                        group: {
                            id: string;
                            name: string;
                        };
                        rows: number;
                        matched: number;
                        errors: number;
                        unmatched: string[];
                        unmatchedCount: number;
                        duplicates: string[];
                        errorKinds: {
                            rowError: number;
                            apiError: number;
                        };
                        skipped: number;
                        skippedByReason: {
                            [key: string]: number;
                        };
                        skippedRows: {
                            index: number;
                            id: string;
                            reason: string;
                            detail: string;
                        }[];
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reviews-tags": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        position: number;
                        uses: number;
                    }[];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reviews-queues": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        run: {
                            id: string;
                            name: string;
                            kind: string;
                        };
                        filter: {
                            /** @constant */
                            kind: "wrong";
                        } | {
                            /** @constant */
                            kind: "error";
                        } | {
                            /** @constant */
                            kind: "format";
                        } | {
                            /** @constant */
                            kind: "no_tool_small_k";
                            /** @default 16 */
                            maxK: number;
                        } | {
                            /** @constant */
                            kind: "low_iou";
                            /** @default 0.3 */
                            below: number;
                        } | {
                            /** @constant */
                            kind: "flipped";
                            againstRunId: string;
                            /**
                             * @default right_to_wrong
                             * @enum {string}
                             */
                            direction: "right_to_wrong" | "wrong_to_right" | "any";
                        };
                        filterLabel: string;
                        questionType: ("mcq" | "tvg" | "oe") | null;
                        createdBy: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                        /** Format: date-time */
                        createdAt: string;
                        progress: {
                            total: number;
                            OPEN: number;
                            TRIAGED: number;
                            RESOLVED: number;
                        };
                    }[];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reviews-createQueue": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    runId: string;
                    name?: string;
                    filter: {
                        /** @constant */
                        kind: "wrong";
                    } | {
                        /** @constant */
                        kind: "error";
                    } | {
                        /** @constant */
                        kind: "format";
                    } | {
                        /** @constant */
                        kind: "no_tool_small_k";
                        /** @default 16 */
                        maxK?: number;
                    } | {
                        /** @constant */
                        kind: "low_iou";
                        /** @default 0.3 */
                        below?: number;
                    } | {
                        /** @constant */
                        kind: "flipped";
                        againstRunId: string;
                        /**
                         * @default right_to_wrong
                         * @enum {string}
                         */
                        direction?: "right_to_wrong" | "wrong_to_right" | "any";
                    };
                    /** @enum {string} */
                    questionType?: "mcq" | "tvg" | "oe";
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queue: {
                            id: string;
                            name: string;
                            run: {
                                id: string;
                                name: string;
                                kind: string;
                            };
                            filter: {
                                /** @constant */
                                kind: "wrong";
                            } | {
                                /** @constant */
                                kind: "error";
                            } | {
                                /** @constant */
                                kind: "format";
                            } | {
                                /** @constant */
                                kind: "no_tool_small_k";
                                /** @default 16 */
                                maxK: number;
                            } | {
                                /** @constant */
                                kind: "low_iou";
                                /** @default 0.3 */
                                below: number;
                            } | {
                                /** @constant */
                                kind: "flipped";
                                againstRunId: string;
                                /**
                                 * @default right_to_wrong
                                 * @enum {string}
                                 */
                                direction: "right_to_wrong" | "wrong_to_right" | "any";
                            };
                            filterLabel: string;
                            questionType: ("mcq" | "tvg" | "oe") | null;
                            createdBy: {
                                id: string;
                                name: string;
                                email: string;
                            } | null;
                            /** Format: date-time */
                            createdAt: string;
                            progress: {
                                total: number;
                                OPEN: number;
                                TRIAGED: number;
                                RESOLVED: number;
                            };
                        };
                        leftOut: number;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reviews-queue": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                queueId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queue: {
                            id: string;
                            name: string;
                            run: {
                                id: string;
                                name: string;
                                kind: string;
                            };
                            filter: {
                                /** @constant */
                                kind: "wrong";
                            } | {
                                /** @constant */
                                kind: "error";
                            } | {
                                /** @constant */
                                kind: "format";
                            } | {
                                /** @constant */
                                kind: "no_tool_small_k";
                                /** @default 16 */
                                maxK: number;
                            } | {
                                /** @constant */
                                kind: "low_iou";
                                /** @default 0.3 */
                                below: number;
                            } | {
                                /** @constant */
                                kind: "flipped";
                                againstRunId: string;
                                /**
                                 * @default right_to_wrong
                                 * @enum {string}
                                 */
                                direction: "right_to_wrong" | "wrong_to_right" | "any";
                            };
                            filterLabel: string;
                            questionType: ("mcq" | "tvg" | "oe") | null;
                            createdBy: {
                                id: string;
                                name: string;
                                email: string;
                            } | null;
                            /** Format: date-time */
                            createdAt: string;
                            progress: {
                                total: number;
                                OPEN: number;
                                TRIAGED: number;
                                RESOLVED: number;
                            };
                        };
                        items: {
                            position: number;
                            episodeId: string;
                            runId: string;
                            sampleKey: string;
                            question: string;
                            /** @enum {string} */
                            questionType: "mcq" | "tvg" | "oe";
                            answer: string;
                            prediction: string | null;
                            correct: boolean | null;
                            /** @enum {string} */
                            episodeStatus: "OK" | "ERROR";
                            k: number;
                            toolCallCount: number;
                            /** @enum {string} */
                            status: "OPEN" | "TRIAGED" | "RESOLVED";
                            assignee: {
                                id: string;
                                name: string;
                                email: string;
                            } | null;
                            tagIds: string[];
                            comments: number;
                        }[];
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reviews-review": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                episodeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        episodeId: string;
                        /** @enum {string} */
                        status: "OPEN" | "TRIAGED" | "RESOLVED";
                        assignee: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                        tagIds: string[];
                        comments: {
                            id: string;
                            author: {
                                id: string;
                                name: string;
                                email: string;
                            };
                            body: string;
                            videoTimeS: number | null;
                            mentions: {
                                id: string;
                                name: string;
                                email: string;
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            editedAt: string | null;
                            revisions: number;
                        }[];
                        scores: {
                            configId: string;
                            value: number;
                            setBy: {
                                id: string;
                                name: string;
                                email: string;
                            } | null;
                            /** Format: date-time */
                            setAt: string;
                        }[];
                        updatedAt: string | null;
                        updatedBy: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reviews-update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                episodeId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    status?: "OPEN" | "TRIAGED" | "RESOLVED";
                    assigneeId?: string | null;
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        episodeId: string;
                        /** @enum {string} */
                        status: "OPEN" | "TRIAGED" | "RESOLVED";
                        assignee: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                        tagIds: string[];
                        comments: {
                            id: string;
                            author: {
                                id: string;
                                name: string;
                                email: string;
                            };
                            body: string;
                            videoTimeS: number | null;
                            mentions: {
                                id: string;
                                name: string;
                                email: string;
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            editedAt: string | null;
                            revisions: number;
                        }[];
                        scores: {
                            configId: string;
                            value: number;
                            setBy: {
                                id: string;
                                name: string;
                                email: string;
                            } | null;
                            /** Format: date-time */
                            setAt: string;
                        }[];
                        updatedAt: string | null;
                        updatedBy: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reviews-setTag": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                episodeId: string;
                tagId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    on: boolean;
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        episodeId: string;
                        /** @enum {string} */
                        status: "OPEN" | "TRIAGED" | "RESOLVED";
                        assignee: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                        tagIds: string[];
                        comments: {
                            id: string;
                            author: {
                                id: string;
                                name: string;
                                email: string;
                            };
                            body: string;
                            videoTimeS: number | null;
                            mentions: {
                                id: string;
                                name: string;
                                email: string;
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            editedAt: string | null;
                            revisions: number;
                        }[];
                        scores: {
                            configId: string;
                            value: number;
                            setBy: {
                                id: string;
                                name: string;
                                email: string;
                            } | null;
                            /** Format: date-time */
                            setAt: string;
                        }[];
                        updatedAt: string | null;
                        updatedBy: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reviews-comment": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                episodeId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                    /** @default null */
                    videoTimeS?: number | null;
                    /** @default [] */
                    mentionIds?: string[];
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        episodeId: string;
                        /** @enum {string} */
                        status: "OPEN" | "TRIAGED" | "RESOLVED";
                        assignee: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                        tagIds: string[];
                        comments: {
                            id: string;
                            author: {
                                id: string;
                                name: string;
                                email: string;
                            };
                            body: string;
                            videoTimeS: number | null;
                            mentions: {
                                id: string;
                                name: string;
                                email: string;
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            editedAt: string | null;
                            revisions: number;
                        }[];
                        scores: {
                            configId: string;
                            value: number;
                            setBy: {
                                id: string;
                                name: string;
                                email: string;
                            } | null;
                            /** Format: date-time */
                            setAt: string;
                        }[];
                        updatedAt: string | null;
                        updatedBy: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reviews-deleteComment": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                episodeId: string;
                commentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        episodeId: string;
                        /** @enum {string} */
                        status: "OPEN" | "TRIAGED" | "RESOLVED";
                        assignee: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                        tagIds: string[];
                        comments: {
                            id: string;
                            author: {
                                id: string;
                                name: string;
                                email: string;
                            };
                            body: string;
                            videoTimeS: number | null;
                            mentions: {
                                id: string;
                                name: string;
                                email: string;
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            editedAt: string | null;
                            revisions: number;
                        }[];
                        scores: {
                            configId: string;
                            value: number;
                            setBy: {
                                id: string;
                                name: string;
                                email: string;
                            } | null;
                            /** Format: date-time */
                            setAt: string;
                        }[];
                        updatedAt: string | null;
                        updatedBy: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reviews-editComment": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                episodeId: string;
                commentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                    /** @default [] */
                    mentionIds?: string[];
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        episodeId: string;
                        /** @enum {string} */
                        status: "OPEN" | "TRIAGED" | "RESOLVED";
                        assignee: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                        tagIds: string[];
                        comments: {
                            id: string;
                            author: {
                                id: string;
                                name: string;
                                email: string;
                            };
                            body: string;
                            videoTimeS: number | null;
                            mentions: {
                                id: string;
                                name: string;
                                email: string;
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            editedAt: string | null;
                            revisions: number;
                        }[];
                        scores: {
                            configId: string;
                            value: number;
                            setBy: {
                                id: string;
                                name: string;
                                email: string;
                            } | null;
                            /** Format: date-time */
                            setAt: string;
                        }[];
                        updatedAt: string | null;
                        updatedBy: {
                            id: string;
                            name: string;
                            email: string;
                        } | null;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "ingest-whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        userId: string;
                        token: {
                            id: string;
                            projectId: string;
                            scopes: ("READ" | "WRITE" | "LAUNCH")[];
                        } | null;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "ingest-createRun": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    clientId: string;
                    name: string;
                    /**
                     * @default rl
                     * @enum {string}
                     */
                    kind?: "rl" | "sft";
                    /** @default {} */
                    config?: {
                        [key: string]: unknown;
                    };
                    datasetId?: string;
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: {
                            id: string;
                            /** @enum {string} */
                            kind: "sft" | "rl" | "eval" | "import" | "job";
                            jobName: string;
                            name: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                            progress: number;
                            message: string | null;
                            error: string | null;
                            attempts: number;
                            /** Format: date-time */
                            createdAt: string;
                            startedAt: string | null;
                            finishedAt: string | null;
                            createdBy: string | null;
                        };
                        datasetId: string;
                        created: boolean;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "ingest-setStatus": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    status: "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                    message?: string;
                    error?: string;
                    progress?: number;
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "sft" | "rl" | "eval" | "import" | "job";
                        jobName: string;
                        name: string;
                        /** @enum {string} */
                        status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                        progress: number;
                        message: string | null;
                        error: string | null;
                        attempts: number;
                        /** Format: date-time */
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        createdBy: string | null;
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "ingest-metrics": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    items: {
                        id: string;
                        step: number;
                        values: {
                            [key: string]: number;
                        };
                        /** Format: date-time */
                        at?: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        counts: {
                            stored: number;
                            duplicate: number;
                            conflict: number;
                            invalid: number;
                        };
                        items: {
                            id: string;
                            /** @enum {string} */
                            status: "stored" | "duplicate" | "conflict" | "invalid";
                            reason?: string;
                            /** @enum {string} */
                            code?: "repeated_id" | "not_finite" | "no_values" | "kept_stored_values" | "other_values_stored" | "clock_ahead" | "before_run" | "index_clash" | "video_not_in_project" | "video_not_linked" | "slot_taken";
                        }[];
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "ingest-rollouts": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    items: {
                        id: string;
                        /** @default 0 */
                        step?: number;
                        /** @default 0 */
                        index?: number;
                        k: number;
                        /** @default agentic_general */
                        promptMode?: string;
                        sample: {
                            key: string;
                            question: string;
                            answer: string;
                            /** @enum {string} */
                            questionType: "mcq" | "tvg" | "oe";
                            options?: string[];
                            videoId?: string;
                            videoPath?: string;
                        };
                        /**
                         * @default OK
                         * @enum {string}
                         */
                        status?: "OK" | "ERROR";
                        /** @default null */
                        error?: string | null;
                        /** @default null */
                        finalText?: string | null;
                        /** @default null */
                        prediction?: string | null;
                        /** @default null */
                        correct?: boolean | null;
                        /** @default null */
                        score?: number | null;
                        rewardTerms?: {
                            [key: string]: number | boolean;
                        };
                        /** @default [] */
                        overviewTimestamps?: number[];
                        /** @default [] */
                        turns?: {
                            index: number;
                            rawText: string;
                            /** @default null */
                            forcedPrefix?: string | null;
                            /** @default false */
                            forcedFinal?: boolean;
                            /** @default [] */
                            parseIssues?: string[];
                            /** @default null */
                            promptTokens?: number | null;
                            /** @default null */
                            completionTokens?: number | null;
                            /** @default [] */
                            toolCalls?: {
                                index: number;
                                /** @default crop_video */
                                name?: string;
                                /** @default {} */
                                arguments?: {
                                    [key: string]: unknown;
                                };
                                /** @default null */
                                startS?: number | null;
                                /** @default null */
                                endS?: number | null;
                                /** @default false */
                                clamped?: boolean;
                                /** @default [] */
                                frameTimestamps?: number[];
                                /** @default null */
                                subAgentOutput?: string | null;
                                /**
                                 * @default OK
                                 * @enum {string}
                                 */
                                status?: "OK" | "ERROR" | "REJECTED";
                                /** @default null */
                                error?: string | null;
                            }[];
                        }[];
                    }[];
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        counts: {
                            stored: number;
                            duplicate: number;
                            conflict: number;
                            invalid: number;
                        };
                        items: {
                            id: string;
                            /** @enum {string} */
                            status: "stored" | "duplicate" | "conflict" | "invalid";
                            reason?: string;
                            /** @enum {string} */
                            code?: "repeated_id" | "not_finite" | "no_values" | "kept_stored_values" | "other_values_stored" | "clock_ahead" | "before_run" | "index_clash" | "video_not_in_project" | "video_not_linked" | "slot_taken";
                        }[];
                    };
                };
            };
            /** @description The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with what exists (e.g. a model name or video path already in the project) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body that is not sent as application/json (a POST without a body counts as {}) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "ingest-episodes": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                projectId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            run: {
                                id: string;
                                name: string;
                            };
                            sample: {
                                id: string;
                                key: string;
                                question: string;
                                options: string[] | null;
                                answer: string;
                                /** @enum {string} */
                                questionType: "mcq" | "tvg" | "oe";
                                videoId: string | null;
                                metadata: {
                                    [key: string]: unknown;
                                };
                                /** @description Fields given as a preview: name -> full length; the full text via GET …/episodes/{episodeId}/text */
                                clipped?: {
                                    [key: string]: number;
                                };
                            };
                            rolloutIndex: number;
                            k: number;
                            promptMode: string;
                            /** @enum {string} */
                            status: "OK" | "ERROR";
                            error: string | null;
                            finalText: string | null;
                            prediction: string | null;
                            score: number | null;
                            correct: boolean | null;
                            toolCallCount: number;
                            overviewTimestamps: number[];
                            timings: unknown;
                            tokenCounts: unknown;
                            details: unknown;
                            turns: {
                                index: number;
                                rawText: string;
                                forcedPrefix: string | null;
                                forcedFinal: boolean;
                                parsedCalls: unknown;
                                parseIssues: unknown;
                                promptTokens: number | null;
                                completionTokens: number | null;
                                timings: unknown;
                                toolCalls: {
                                    index: number;
                                    name: string;
                                    arguments: unknown;
                                    startS: number | null;
                                    endS: number | null;
                                    clamped: boolean;
                                    frameTimestamps: number[];
                                    subAgentOutput: string | null;
                                    /** @enum {string} */
                                    status: "OK" | "ERROR" | "REJECTED";
                                    error: string | null;
                                    durationMs: number | null;
                                    details: unknown;
                                    /** @description Fields given as a preview: name -> full length; the full text via GET …/episodes/{episodeId}/text */
                                    clipped?: {
                                        [key: string]: number;
                                    };
                                }[];
                                /** @description Fields given as a preview: name -> full length; the full text via GET …/episodes/{episodeId}/text */
                                clipped?: {
                                    [key: string]: number;
                                };
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            /** @description Fields given as a preview: name -> full length; the full text via GET …/episodes/{episodeId}/text */
                            clipped?: {
                                [key: string]: number;
                            };
                            turnCount: number;
                            nextCursor: string | null;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid parameters or body: see `issues` (or `message` for a service's refusal) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the token's requests per minute */
            429: {
                headers: {
                    /** @description Seconds until the window resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "videos-upload": {
        parameters: {
            query?: never;
            header?: {
                /** @description The file's name, URI-encoded (default: upload) */
                "X-File-Name"?: string;
            };
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description The video is registered (PENDING) and its probe job queued */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        video: {
                            id?: string;
                            name?: string;
                        };
                        runId: string;
                    };
                };
            };
            /** @description Empty body or an invalid X-File-Name */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteError"];
                };
            };
            /** @description No token, or an unknown, revoked or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteError"];
                };
            };
            /** @description The token lacks the scope (or its creator the role), or it belongs to another project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteError"];
                };
            };
            /** @description Unknown id (or a project the caller is not a member of) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteError"];
                };
            };
            /** @description Larger than the upload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteError"];
                };
            };
            /** @description The bytes are not a video container */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteError"];
                };
            };
        };
    };
}
