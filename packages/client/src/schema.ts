// Generated from openapi.json by scripts/generate.ts (openapi-typescript). Do not edit.
export interface paths {
    "/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller: user, and the token's project and scopes */
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
        /** Create an external run (idempotent by clientId) */
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
        /** Report an external run's status */
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
        /** Add a batch of metric steps (status per item; a retried batch stores nothing twice) */
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
        /** Add a batch of rollouts with full trajectories (status per item; idempotent by id) */
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
        /** A page of a run's episodes with full trajectories */
        get: operations["ingest-episodes"];
        put?: never;
        post?: never;
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
        /**
         * Invalid input data error (400)
         * @description The error information
         * @example {
         *       "code": "BAD_REQUEST",
         *       "message": "Invalid input data",
         *       "issues": []
         *     }
         */
        "error.BAD_REQUEST": {
            /**
             * @description The error message
             * @example Invalid input data
             */
            message: string;
            /**
             * @description The error code
             * @example BAD_REQUEST
             */
            code: string;
            /**
             * @description An array of issues that were responsible for the error
             * @example []
             */
            issues?: {
                message: string;
            }[];
        };
        /**
         * Authorization not provided error (401)
         * @description The error information
         * @example {
         *       "code": "UNAUTHORIZED",
         *       "message": "Authorization not provided",
         *       "issues": []
         *     }
         */
        "error.UNAUTHORIZED": {
            /**
             * @description The error message
             * @example Authorization not provided
             */
            message: string;
            /**
             * @description The error code
             * @example UNAUTHORIZED
             */
            code: string;
            /**
             * @description An array of issues that were responsible for the error
             * @example []
             */
            issues?: {
                message: string;
            }[];
        };
        /**
         * Insufficient access error (403)
         * @description The error information
         * @example {
         *       "code": "FORBIDDEN",
         *       "message": "Insufficient access",
         *       "issues": []
         *     }
         */
        "error.FORBIDDEN": {
            /**
             * @description The error message
             * @example Insufficient access
             */
            message: string;
            /**
             * @description The error code
             * @example FORBIDDEN
             */
            code: string;
            /**
             * @description An array of issues that were responsible for the error
             * @example []
             */
            issues?: {
                message: string;
            }[];
        };
        /**
         * Not found error (404)
         * @description The error information
         * @example {
         *       "code": "NOT_FOUND",
         *       "message": "Not found",
         *       "issues": []
         *     }
         */
        "error.NOT_FOUND": {
            /**
             * @description The error message
             * @example Not found
             */
            message: string;
            /**
             * @description The error code
             * @example NOT_FOUND
             */
            code: string;
            /**
             * @description An array of issues that were responsible for the error
             * @example []
             */
            issues?: {
                message: string;
            }[];
        };
        /**
         * Internal server error error (500)
         * @description The error information
         * @example {
         *       "code": "INTERNAL_SERVER_ERROR",
         *       "message": "Internal server error",
         *       "issues": []
         *     }
         */
        "error.INTERNAL_SERVER_ERROR": {
            /**
             * @description The error message
             * @example Internal server error
             */
            message: string;
            /**
             * @description The error code
             * @example INTERNAL_SERVER_ERROR
             */
            code: string;
            /**
             * @description An array of issues that were responsible for the error
             * @example []
             */
            issues?: {
                message: string;
            }[];
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
            /** @description Invalid input data */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.BAD_REQUEST"];
                };
            };
            /** @description Authorization not provided */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.UNAUTHORIZED"];
                };
            };
            /** @description Insufficient access */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.FORBIDDEN"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.NOT_FOUND"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.INTERNAL_SERVER_ERROR"];
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
                    kind?: "rl" | "sft" | "eval";
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
            /** @description Invalid input data */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.BAD_REQUEST"];
                };
            };
            /** @description Authorization not provided */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.UNAUTHORIZED"];
                };
            };
            /** @description Insufficient access */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.FORBIDDEN"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.INTERNAL_SERVER_ERROR"];
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
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        createdBy: string | null;
                    };
                };
            };
            /** @description Invalid input data */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.BAD_REQUEST"];
                };
            };
            /** @description Authorization not provided */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.UNAUTHORIZED"];
                };
            };
            /** @description Insufficient access */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.FORBIDDEN"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.INTERNAL_SERVER_ERROR"];
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
                        }[];
                    };
                };
            };
            /** @description Invalid input data */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.BAD_REQUEST"];
                };
            };
            /** @description Authorization not provided */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.UNAUTHORIZED"];
                };
            };
            /** @description Insufficient access */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.FORBIDDEN"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.INTERNAL_SERVER_ERROR"];
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
                        }[];
                    };
                };
            };
            /** @description Invalid input data */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.BAD_REQUEST"];
                };
            };
            /** @description Authorization not provided */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.UNAUTHORIZED"];
                };
            };
            /** @description Insufficient access */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.FORBIDDEN"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.INTERNAL_SERVER_ERROR"];
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
                                }[];
                            }[];
                            createdAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Invalid input data */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.BAD_REQUEST"];
                };
            };
            /** @description Authorization not provided */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.UNAUTHORIZED"];
                };
            };
            /** @description Insufficient access */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.FORBIDDEN"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.NOT_FOUND"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error.INTERNAL_SERVER_ERROR"];
                };
            };
        };
    };
}
