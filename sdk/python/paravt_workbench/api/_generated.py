# Generated from packages/client/openapi.json by packages/client/src/render-python.ts
# (`npm run -w @paravt/web openapi`). Do not edit: packages/client/src/render-python.test.ts fails
# while this file is stale.
"""Typed client of the workbench's REST API: TypedDicts of bodies and answers, a method per operation."""

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

from ._transport import Operation, Transport

DEFAULT_SERVER = "/api/v1"


class ErrorIssuesItem(TypedDict):
    message: str


class _ErrorRequired(TypedDict):
    # What went wrong, readable
    message: str
    # tRPC error code, e.g. UNAUTHORIZED, FORBIDDEN, NOT_FOUND, BAD_REQUEST
    code: str


class Error(_ErrorRequired, total=False):
    # 422 from input validation: the zod issues (path, message, code)
    issues: List[ErrorIssuesItem]


class RouteError(TypedDict):
    # What went wrong, readable
    error: str


class ProjectsListResponseItem(TypedDict):
    id: str
    name: str
    slug: str
    description: str
    role: Literal["VIEWER", "EDITOR", "OWNER"]
    memberCount: int
    videoCount: int
    runCount: int
    createdAt: str


ProjectsByIdResponse = ProjectsListResponseItem


class MembersListResponseItem(TypedDict):
    userId: str
    name: str
    email: str
    role: Literal["VIEWER", "EDITOR", "OWNER"]
    joinedAt: str


class RunsListResponseItem(TypedDict):
    id: str
    kind: Literal["sft", "rl", "eval", "import", "job"]
    jobName: str
    name: str
    status: Literal["QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"]
    progress: float
    message: Optional[str]
    error: Optional[str]
    attempts: int
    createdAt: str
    startedAt: Optional[str]
    finishedAt: Optional[str]
    createdBy: Optional[str]


class RunsWorkersResponseWorkersItemActiveItem(TypedDict):
    jobName: str
    runId: str
    since: str


class RunsWorkersResponseWorkersItem(TypedDict):
    id: str
    host: str
    pid: int
    queues: List[Literal["cpu", "gpu"]]
    concurrency: int
    backend: str
    device: str
    memoryBytes: float
    cores: int
    startedAt: str
    seenAt: str
    active: List[RunsWorkersResponseWorkersItemActiveItem]
    otherJobs: int


class RunsWorkersResponse(TypedDict):
    workers: List[RunsWorkersResponseWorkersItem]
    unreadable: int


RunsByIdResponse = RunsListResponseItem


class RunsMetricNamesResponseItem(TypedDict):
    name: str
    count: int
    firstStep: int
    lastStep: int


RunsMetricsBodyRange = TypedDict("RunsMetricsBodyRange", {"from": float, "to": float})


class _RunsMetricsBodyRequired(TypedDict):
    names: List[str]


class RunsMetricsBody(_RunsMetricsBodyRequired, total=False):
    maxPoints: int
    x: Literal["step", "time"]
    range: RunsMetricsBodyRange


class RunsMetricsResponseItem(TypedDict):
    name: str
    total: int
    steps: List[int]
    t: List[float]
    values: List[float]


class RunsMetricsExportResponse(TypedDict):
    format: Literal["csv", "json"]
    content: str
    rows: int
    nextAfterStep: Optional[int]


class RunsStepRolloutsResponseItemsItemSample(TypedDict):
    id: str
    key: str
    answer: str


class RunsStepRolloutsResponseItemsItem(TypedDict):
    episodeId: str
    rollout: int
    rolloutIndex: int
    sample: RunsStepRolloutsResponseItemsItemSample
    k: int
    promptMode: str
    status: Literal["OK", "ERROR"]
    error: Optional[str]
    prediction: Optional[str]
    correct: Optional[bool]
    score: Optional[float]
    toolCallCount: int
    rewardTerms: Optional[Dict[str, Union[float, bool, str]]]


class RunsStepRolloutsResponse(TypedDict):
    step: int
    items: List[RunsStepRolloutsResponseItemsItem]
    prev: Optional[int]
    next: Optional[int]
    nearest: Optional[int]


RunsCancelResponse = RunsListResponseItem


RunsResumeResponse = RunsListResponseItem


class VideosListResponseItem(TypedDict):
    id: str
    name: str
    source: Literal["UPLOAD", "PATH", "GENERATED"]
    status: Literal["PENDING", "PROBING", "PROCESSING", "READY", "FAILED"]
    error: Optional[str]
    durationS: Optional[float]
    width: Optional[float]
    height: Optional[float]
    fps: Optional[float]
    codec: Optional[str]
    sizeBytes: Optional[float]
    hasThumbnail: bool
    hasFilmstrip: bool
    createdAt: str


VideosByIdResponse = VideosListResponseItem


class _VideosRegisterBodyRequired(TypedDict):
    path: str


class VideosRegisterBody(_VideosRegisterBodyRequired, total=False):
    name: str


VideosRegisterResponseVideo = VideosListResponseItem


class VideosRegisterResponse(TypedDict):
    video: VideosListResponseItem
    runId: str


class VideosCreateDemoBody(TypedDict, total=False):
    name: str
    durationS: int


VideosCreateDemoResponseVideo = VideosListResponseItem


VideosCreateDemoResponse = VideosRegisterResponse


class DatasetsListResponseItem(TypedDict):
    id: str
    name: str
    description: str
    source: Dict[str, Any]
    sampleCount: int
    countsByType: Dict[str, int]
    createdAt: str


DatasetsByIdResponse = DatasetsListResponseItem


class DatasetsSamplesResponseItemsItem(TypedDict):
    id: str
    key: str
    question: str
    options: Optional[List[str]]
    answer: str
    questionType: Literal["mcq", "tvg", "oe"]
    videoId: Optional[str]
    videoName: Optional[str]
    metadata: Dict[str, Any]


class DatasetsSamplesResponse(TypedDict):
    items: List[DatasetsSamplesResponseItemsItem]
    nextCursor: Optional[str]


class _DatasetsGenerateSuiteBodyRequired(TypedDict):
    name: str


class DatasetsGenerateSuiteBody(_DatasetsGenerateSuiteBodyRequired, total=False):
    seed: int
    count: int
    minMinutes: float
    maxMinutes: float
    optionStyle: Literal["letter-first", "text-first"]


DatasetsGenerateSuiteResponseDataset = DatasetsListResponseItem


class DatasetsGenerateSuiteResponse(TypedDict):
    dataset: DatasetsListResponseItem
    runId: str


class DatasetsImportSuiteBody(TypedDict):
    name: str
    path: str


DatasetsImportSuiteResponseDataset = DatasetsListResponseItem


DatasetsImportSuiteResponse = DatasetsGenerateSuiteResponse


class DatasetsBenchmarksResponseItemFilesItem(TypedDict):
    path: str
    required: bool
    description: str


class DatasetsBenchmarksResponseItem(TypedDict):
    id: Literal["videomme", "longvideobench", "lvbench", "mlvu", "mmvu", "charades_sta", "custom", "paravt-parquet"]
    title: str
    description: str
    splits: List[str]
    defaultSplit: str
    questionType: str
    metric: str
    supportsSubtitles: bool
    source: str
    files: List[DatasetsBenchmarksResponseItemFilesItem]
    videoDirs: List[str]
    variants: List[str]


class _DatasetsImportBenchmarkBodyRequired(TypedDict):
    name: str
    benchmark: Literal["videomme", "longvideobench", "lvbench", "mlvu", "mmvu", "charades_sta", "custom", "paravt-parquet"]
    path: str


class DatasetsImportBenchmarkBody(_DatasetsImportBenchmarkBodyRequired, total=False):
    videoDir: str
    split: str
    subtitles: bool


DatasetsImportBenchmarkResponseDataset = DatasetsListResponseItem


DatasetsImportBenchmarkResponse = DatasetsGenerateSuiteResponse


class DatasetsReimportBenchmarkResponse(TypedDict):
    runId: str


class ModelsListResponseItemNanoQualitySuitesItem(TypedDict):
    name: str
    seed: Optional[int]
    count: Optional[int]
    options: str


class ModelsListResponseItemNanoQualityMeasurementsItemByType(TypedDict, total=False):
    mcq: float
    oe: float
    tvg: float


class _ModelsListResponseItemNanoQualityMeasurementsItemRequired(TypedDict):
    suite: str
    k: int
    tools: Optional[bool]
    questions: int
    formatCompliance: float
    score: float


class ModelsListResponseItemNanoQualityMeasurementsItem(_ModelsListResponseItemNanoQualityMeasurementsItemRequired, total=False):
    byType: ModelsListResponseItemNanoQualityMeasurementsItemByType


class ModelsListResponseItemNanoQuality(TypedDict):
    date: Optional[str]
    method: str
    suites: List[ModelsListResponseItemNanoQualitySuitesItem]
    measurements: List[ModelsListResponseItemNanoQualityMeasurementsItem]


ModelsListResponseItemNanoLineageItemDataSuite = ModelsListResponseItemNanoQualitySuitesItem


class _ModelsListResponseItemNanoLineageItemDataRequired(TypedDict):
    description: str
    dataHash: Optional[str]


class ModelsListResponseItemNanoLineageItemData(_ModelsListResponseItemNanoLineageItemDataRequired, total=False):
    suite: ModelsListResponseItemNanoQualitySuitesItem
    examples: int


class _ModelsListResponseItemNanoLineageItemRequired(TypedDict):
    name: str
    trainer: str
    arguments: Union[List[str], str]
    data: ModelsListResponseItemNanoLineageItemData
    steps: int
    batch: int
    seed: int
    hardware: str
    minutes: Optional[float]
    parentHash: Optional[str]


class ModelsListResponseItemNanoLineageItem(_ModelsListResponseItemNanoLineageItemRequired, total=False):
    commit: str


class ModelsListResponseItemNano(TypedDict):
    shortId: Optional[str]
    modelHash: Optional[str]
    trainedKs: Optional[List[int]]
    quality: Optional[ModelsListResponseItemNanoQuality]
    lineage: Optional[List[ModelsListResponseItemNanoLineageItem]]
    problem: Optional[str]


class ModelsListResponseItemEvaluationsItem(TypedDict):
    groupId: str
    name: str
    createdAt: str


class ModelsListResponseItem(TypedDict):
    id: str
    name: str
    kind: Literal["NANO_CHECKPOINT", "OPENAI_COMPATIBLE", "EXTERNAL"]
    config: Dict[str, Any]
    hasApiKey: bool
    createdAt: str
    nano: Optional[ModelsListResponseItemNano]
    description: str
    producedByRunId: Optional[str]
    evaluations: List[ModelsListResponseItemEvaluationsItem]


class _ModelsCreateBodyConfigOpenaiCompatibleRequired(TypedDict):
    kind: Literal["OPENAI_COMPATIBLE"]
    baseUrl: str
    servedModel: str


class ModelsCreateBodyConfigOpenaiCompatible(_ModelsCreateBodyConfigOpenaiCompatibleRequired, total=False):
    firstByteTimeoutS: int
    totalTimeoutS: int
    retries: int


class ModelsCreateBodyConfigNanoCheckpoint(TypedDict):
    kind: Literal["NANO_CHECKPOINT"]
    checkpoint: str


class _ModelsCreateBodyConfigExternalRequired(TypedDict):
    kind: Literal["EXTERNAL"]


class ModelsCreateBodyConfigExternal(_ModelsCreateBodyConfigExternalRequired, total=False):
    description: str


class _ModelsCreateBodyRequired(TypedDict):
    name: str
    config: Union[ModelsCreateBodyConfigOpenaiCompatible, ModelsCreateBodyConfigNanoCheckpoint, ModelsCreateBodyConfigExternal]


class ModelsCreateBody(_ModelsCreateBodyRequired, total=False):
    apiKey: str


ModelsCreateResponseNanoQualitySuitesItem = ModelsListResponseItemNanoQualitySuitesItem


ModelsCreateResponseNanoQualityMeasurementsItemByType = ModelsListResponseItemNanoQualityMeasurementsItemByType


ModelsCreateResponseNanoQualityMeasurementsItem = ModelsListResponseItemNanoQualityMeasurementsItem


ModelsCreateResponseNanoQuality = ModelsListResponseItemNanoQuality


ModelsCreateResponseNanoLineageItemDataSuite = ModelsListResponseItemNanoQualitySuitesItem


ModelsCreateResponseNanoLineageItemData = ModelsListResponseItemNanoLineageItemData


ModelsCreateResponseNanoLineageItem = ModelsListResponseItemNanoLineageItem


ModelsCreateResponseNano = ModelsListResponseItemNano


ModelsCreateResponseEvaluationsItem = ModelsListResponseItemEvaluationsItem


ModelsCreateResponse = ModelsListResponseItem


class ModelsUpdateBodyLimits(TypedDict, total=False):
    firstByteTimeoutS: int
    totalTimeoutS: int
    retries: int


class ModelsUpdateBody(TypedDict, total=False):
    name: str
    apiKey: Optional[str]
    limits: ModelsUpdateBodyLimits
    description: str


ModelsUpdateResponseNanoQualitySuitesItem = ModelsListResponseItemNanoQualitySuitesItem


ModelsUpdateResponseNanoQualityMeasurementsItemByType = ModelsListResponseItemNanoQualityMeasurementsItemByType


ModelsUpdateResponseNanoQualityMeasurementsItem = ModelsListResponseItemNanoQualityMeasurementsItem


ModelsUpdateResponseNanoQuality = ModelsListResponseItemNanoQuality


ModelsUpdateResponseNanoLineageItemDataSuite = ModelsListResponseItemNanoQualitySuitesItem


ModelsUpdateResponseNanoLineageItemData = ModelsListResponseItemNanoLineageItemData


ModelsUpdateResponseNanoLineageItem = ModelsListResponseItemNanoLineageItem


ModelsUpdateResponseNano = ModelsListResponseItemNano


ModelsUpdateResponseEvaluationsItem = ModelsListResponseItemEvaluationsItem


ModelsUpdateResponse = ModelsListResponseItem


class ModelsDeleteResponse(TypedDict):
    ok: Literal[True]


class ModelsProbeResponseOneImageVariant1(TypedDict):
    ok: Literal[True]
    answer: str
    reasoningField: Optional[Literal["reasoning", "reasoning_content"]]


class ModelsProbeResponseOneImageVariant2(TypedDict):
    ok: Literal[False]
    error: str


ModelsProbeResponseSeveralImagesVariant1 = ModelsProbeResponseOneImageVariant1


ModelsProbeResponseSeveralImagesVariant2 = ModelsProbeResponseOneImageVariant2


class ModelsProbeResponse(TypedDict):
    probedAt: str
    durationMs: float
    modelIds: List[str]
    modelsError: Optional[str]
    servedModelListed: bool
    maxModelLen: Optional[int]
    oneImage: Union[ModelsProbeResponseOneImageVariant1, ModelsProbeResponseOneImageVariant2]
    severalImages: Union[ModelsProbeResponseOneImageVariant1, ModelsProbeResponseOneImageVariant2]
    reasoningParser: Optional[Literal["reasoning", "reasoning_content"]]
    warnings: List[str]


class _TrainingLaunchSftBodyRequired(TypedDict):
    datasetId: str
    name: str


class TrainingLaunchSftBody(_TrainingLaunchSftBodyRequired, total=False):
    preset: Literal["tiny", "small", "default"]
    steps: int
    batchSize: int
    lr: float
    seed: int
    checkpointEvery: int


TrainingLaunchSftResponse = RunsListResponseItem


class TrainingLaunchRlBodyOverrides(TypedDict, total=False):
    groupSize: int
    promptsPerStep: int
    maxNewTokens: int
    maxTurns: int
    maxParallel: int
    temperature: float
    validationTemperature: float
    lr: float
    clip: float
    klCoef: float
    rewardBias: float
    rewardScale: float
    behaviourCap: float
    gradClip: float
    microBatchSize: int
    validateEvery: int
    validationSize: int
    formatWeight: float
    anchorWeight: float


class _TrainingLaunchRlBodyRequired(TypedDict):
    datasetId: str
    name: str


class TrainingLaunchRlBody(_TrainingLaunchRlBodyRequired, total=False):
    modelId: str
    preset: Literal["para-grpo", "vanilla-grpo"]
    steps: int
    checkpointEvery: int
    seed: int
    keepRolloutsPerStep: int
    overrides: TrainingLaunchRlBodyOverrides


TrainingLaunchRlResponse = RunsListResponseItem


class EvalsLaunchBodyKnobs(TypedDict, total=False):
    temperature: float
    maxTokens: int
    maxTurns: int
    maxParallel: int
    thinkPrefix: bool
    dispatch: Literal["evaluator", "subagent"]
    subtitles: bool
    promptPreset: Literal["generic", "nano"]
    prompts: Dict[str, str]
    requestStyle: Literal["workbench", "reference"]
    videoChannel: Literal["image_url", "video_url"]


class _EvalsLaunchBodyRequired(TypedDict):
    name: str
    modelIds: List[str]
    datasetIds: List[str]
    modes: List[Literal["direct", "reasoning", "agentic_general", "agentic_minimal"]]
    ks: List[int]


class EvalsLaunchBody(_EvalsLaunchBodyRequired, total=False):
    knobs: EvalsLaunchBodyKnobs
    sampleLimit: int
    split: str
    shardSize: int
    sampleIds: List[str]


class EvalsLaunchResponseGroup(TypedDict):
    id: str
    name: str


EvalsLaunchResponseRunsItem = RunsListResponseItem


class EvalsLaunchResponse(TypedDict):
    group: EvalsLaunchResponseGroup
    runs: List[RunsListResponseItem]


EvalsGroupsResponseItemRunsItemGroup = EvalsLaunchResponseGroup


class EvalsGroupsResponseItemRunsItemModel(TypedDict):
    id: str
    name: str
    kind: Literal["NANO_CHECKPOINT", "OPENAI_COMPATIBLE", "EXTERNAL"]


EvalsGroupsResponseItemRunsItemDataset = EvalsLaunchResponseGroup


class _EvalsGroupsResponseItemRunsItemKnobsRequired(TypedDict):
    temperature: float
    maxTokens: int
    maxTurns: int
    maxParallel: int
    thinkPrefix: bool
    dispatch: Literal["evaluator", "subagent"]
    subtitles: bool
    requestStyle: Literal["workbench", "reference"]
    videoChannel: Literal["image_url", "video_url"]


class EvalsGroupsResponseItemRunsItemKnobs(_EvalsGroupsResponseItemRunsItemKnobsRequired, total=False):
    promptPreset: Literal["generic", "nano"]
    prompts: Dict[str, str]


class EvalsGroupsResponseItemRunsItemSummaryMcq(TypedDict):
    n: int
    correct: int
    accuracy: Optional[float]


EvalsGroupsResponseItemRunsItemSummaryByDurationValue = EvalsGroupsResponseItemRunsItemSummaryMcq


class EvalsGroupsResponseItemRunsItemSummaryGrounding(TypedDict):
    n: int
    mIoU: float
    se: Optional[float]
    r03: float
    r05: float
    r07: float


class EvalsGroupsResponseItemRunsItemSummaryOpenEnded(TypedDict):
    n: int
    meanScore: float
    se: Optional[float]


class EvalsGroupsResponseItemRunsItemSummaryFormatCompliance(TypedDict):
    n: int
    compliant: int
    rate: float


class EvalsGroupsResponseItemRunsItemSummary(TypedDict):
    samples: int
    stored: int
    answered: int
    errors: int
    mcq: Optional[EvalsGroupsResponseItemRunsItemSummaryMcq]
    byDuration: Optional[Dict[str, EvalsGroupsResponseItemRunsItemSummaryMcq]]
    grounding: Optional[EvalsGroupsResponseItemRunsItemSummaryGrounding]
    openEnded: Optional[EvalsGroupsResponseItemRunsItemSummaryOpenEnded]
    formatCompliance: Optional[EvalsGroupsResponseItemRunsItemSummaryFormatCompliance]
    avgToolCalls: Optional[float]
    toolUsageRate: Optional[float]


class EvalsGroupsResponseItemRunsItem(TypedDict):
    id: str
    kind: Literal["sft", "rl", "eval", "import", "job"]
    jobName: str
    name: str
    status: Literal["QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"]
    progress: float
    message: Optional[str]
    error: Optional[str]
    attempts: int
    createdAt: str
    startedAt: Optional[str]
    finishedAt: Optional[str]
    createdBy: Optional[str]
    group: EvalsLaunchResponseGroup
    model: Optional[EvalsGroupsResponseItemRunsItemModel]
    dataset: Optional[EvalsLaunchResponseGroup]
    mode: Literal["direct", "reasoning", "agentic_general", "agentic_minimal"]
    k: int
    withTool: bool
    knobs: Optional[EvalsGroupsResponseItemRunsItemKnobs]
    imported: bool
    summary: EvalsGroupsResponseItemRunsItemSummary


class EvalsGroupsResponseItem(TypedDict):
    id: str
    name: str
    createdAt: str
    runs: List[EvalsGroupsResponseItemRunsItem]


EvalsGroupResponseRunsItemGroup = EvalsLaunchResponseGroup


EvalsGroupResponseRunsItemModel = EvalsGroupsResponseItemRunsItemModel


EvalsGroupResponseRunsItemDataset = EvalsLaunchResponseGroup


EvalsGroupResponseRunsItemKnobs = EvalsGroupsResponseItemRunsItemKnobs


EvalsGroupResponseRunsItemSummaryMcq = EvalsGroupsResponseItemRunsItemSummaryMcq


EvalsGroupResponseRunsItemSummaryByDurationValue = EvalsGroupsResponseItemRunsItemSummaryMcq


EvalsGroupResponseRunsItemSummaryGrounding = EvalsGroupsResponseItemRunsItemSummaryGrounding


EvalsGroupResponseRunsItemSummaryOpenEnded = EvalsGroupsResponseItemRunsItemSummaryOpenEnded


EvalsGroupResponseRunsItemSummaryFormatCompliance = EvalsGroupsResponseItemRunsItemSummaryFormatCompliance


EvalsGroupResponseRunsItemSummary = EvalsGroupsResponseItemRunsItemSummary


EvalsGroupResponseRunsItem = EvalsGroupsResponseItemRunsItem


EvalsGroupResponse = EvalsGroupsResponseItem


EvalsTableResponseGroup = EvalsLaunchResponseGroup


class EvalsTableResponseColumnsItem(TypedDict):
    datasetId: str
    name: str
    metric: Literal["accuracy", "score", "mIoU"]


class EvalsTableResponseRowsItem(TypedDict):
    modelName: str
    modes: List[Literal["direct", "reasoning", "agentic_general", "agentic_minimal"]]
    k: int
    withTool: bool
    values: List[Optional[float]]
    average: Optional[float]
    notes: List[str]


class EvalsTableResponse(TypedDict):
    group: EvalsLaunchResponseGroup
    columns: List[EvalsTableResponseColumnsItem]
    rows: List[EvalsTableResponseRowsItem]
    fileName: str
    csv: str
    markdown: str


EvalsByIdResponseGroup = EvalsLaunchResponseGroup


EvalsByIdResponseModel = EvalsGroupsResponseItemRunsItemModel


EvalsByIdResponseDataset = EvalsLaunchResponseGroup


EvalsByIdResponseKnobs = EvalsGroupsResponseItemRunsItemKnobs


EvalsByIdResponseSummaryMcq = EvalsGroupsResponseItemRunsItemSummaryMcq


EvalsByIdResponseSummaryByDurationValue = EvalsGroupsResponseItemRunsItemSummaryMcq


EvalsByIdResponseSummaryGrounding = EvalsGroupsResponseItemRunsItemSummaryGrounding


EvalsByIdResponseSummaryOpenEnded = EvalsGroupsResponseItemRunsItemSummaryOpenEnded


EvalsByIdResponseSummaryFormatCompliance = EvalsGroupsResponseItemRunsItemSummaryFormatCompliance


EvalsByIdResponseSummary = EvalsGroupsResponseItemRunsItemSummary


EvalsByIdResponse = EvalsGroupsResponseItemRunsItem


class EvalsSamplesResponseItemsItem(TypedDict):
    episodeId: str
    sampleId: str
    key: str
    question: str
    questionType: Literal["mcq", "tvg", "oe"]
    answer: str
    prediction: Optional[str]
    correct: Optional[bool]
    score: Optional[float]
    status: Literal["OK", "ERROR"]
    error: Optional[str]
    toolCallCount: int
    k: int
    rolloutIndex: int
    duration: Optional[Literal["short", "medium", "long"]]
    videoId: Optional[str]


class EvalsSamplesResponse(TypedDict):
    items: List[EvalsSamplesResponseItemsItem]
    nextCursor: Optional[str]


EvalsEpisodeResponseRun = EvalsLaunchResponseGroup


class _EvalsEpisodeResponseSampleRequired(TypedDict):
    id: str
    key: str
    question: str
    options: Optional[List[str]]
    answer: str
    questionType: Literal["mcq", "tvg", "oe"]
    videoId: Optional[str]
    metadata: Dict[str, Any]


class EvalsEpisodeResponseSample(_EvalsEpisodeResponseSampleRequired, total=False):
    # Fields given as a preview: name -> full length; the full text via GET
    # …/episodes/{episodeId}/text
    clipped: Dict[str, int]


class _EvalsEpisodeResponseTurnsItemToolCallsItemRequired(TypedDict):
    index: int
    name: str
    arguments: Any
    startS: Optional[float]
    endS: Optional[float]
    clamped: bool
    frameTimestamps: List[float]
    subAgentOutput: Optional[str]
    status: Literal["OK", "ERROR", "REJECTED"]
    error: Optional[str]
    durationMs: Optional[int]
    details: Any


class EvalsEpisodeResponseTurnsItemToolCallsItem(_EvalsEpisodeResponseTurnsItemToolCallsItemRequired, total=False):
    # Fields given as a preview: name -> full length; the full text via GET
    # …/episodes/{episodeId}/text
    clipped: Dict[str, int]


class _EvalsEpisodeResponseTurnsItemRequired(TypedDict):
    index: int
    rawText: str
    forcedPrefix: Optional[str]
    forcedFinal: bool
    parsedCalls: Any
    parseIssues: Any
    promptTokens: Optional[int]
    completionTokens: Optional[int]
    timings: Any
    toolCalls: List[EvalsEpisodeResponseTurnsItemToolCallsItem]


class EvalsEpisodeResponseTurnsItem(_EvalsEpisodeResponseTurnsItemRequired, total=False):
    # Fields given as a preview: name -> full length; the full text via GET
    # …/episodes/{episodeId}/text
    clipped: Dict[str, int]


class _EvalsEpisodeResponseRequired(TypedDict):
    id: str
    run: EvalsLaunchResponseGroup
    sample: EvalsEpisodeResponseSample
    rolloutIndex: int
    k: int
    promptMode: str
    status: Literal["OK", "ERROR"]
    error: Optional[str]
    finalText: Optional[str]
    prediction: Optional[str]
    score: Optional[float]
    correct: Optional[bool]
    toolCallCount: int
    overviewTimestamps: List[float]
    timings: Any
    tokenCounts: Any
    details: Any
    turns: List[EvalsEpisodeResponseTurnsItem]
    createdAt: str
    turnCount: int
    nextCursor: Optional[str]


class EvalsEpisodeResponse(_EvalsEpisodeResponseRequired, total=False):
    # Fields given as a preview: name -> full length; the full text via GET
    # …/episodes/{episodeId}/text
    clipped: Dict[str, int]


class EvalsEpisodeTextResponse(TypedDict):
    field: str
    turn: Optional[int]
    call: Optional[int]
    offset: int
    length: int
    text: str
    nextOffset: Optional[int]


class EvalsMatrixResponseColumnsItem(TypedDict):
    datasetId: str
    name: str


class EvalsMatrixResponseRowsItemCellsValueFiguresItem(TypedDict):
    quantity: Literal["accuracy", "score", "mIoU"]
    value: Optional[float]
    n: int
    se: Optional[float]


class EvalsMatrixResponseRowsItemCellsValue(TypedDict):
    runId: str
    metric: Literal["accuracy", "score", "mIoU"]
    value: Optional[float]
    n: int
    se: Optional[float]
    figures: List[EvalsMatrixResponseRowsItemCellsValueFiguresItem]
    answered: int
    errors: int
    status: str


class EvalsMatrixResponseRowsItem(TypedDict):
    modelId: str
    modelName: str
    mode: Literal["direct", "reasoning", "agentic_general", "agentic_minimal"]
    k: int
    withTool: bool
    cells: Dict[str, EvalsMatrixResponseRowsItemCellsValue]
    average: Optional[float]


class EvalsMatrixResponse(TypedDict):
    columns: List[EvalsMatrixResponseColumnsItem]
    rows: List[EvalsMatrixResponseRowsItem]


class _EvalsImportReferenceBodyRequired(TypedDict):
    name: str
    datasetId: str
    modelId: str
    file: Any


class EvalsImportReferenceBody(_EvalsImportReferenceBodyRequired, total=False):
    mode: Literal["direct", "reasoning", "agentic_general", "agentic_minimal"]
    k: int
    groupId: str


EvalsImportReferenceResponseRun = RunsListResponseItem


EvalsImportReferenceResponseGroup = EvalsLaunchResponseGroup


class EvalsImportReferenceResponseErrorKinds(TypedDict):
    rowError: int
    apiError: int


class EvalsImportReferenceResponseSkippedRowsItem(TypedDict):
    index: int
    id: str
    reason: str
    detail: str


class EvalsImportReferenceResponse(TypedDict):
    run: RunsListResponseItem
    group: EvalsLaunchResponseGroup
    rows: int
    matched: int
    errors: int
    unmatched: List[str]
    unmatchedCount: int
    duplicates: List[str]
    errorKinds: EvalsImportReferenceResponseErrorKinds
    skipped: int
    skippedByReason: Dict[str, int]
    skippedRows: List[EvalsImportReferenceResponseSkippedRowsItem]


class ReviewsTagsResponseItem(TypedDict):
    id: str
    name: str
    description: str
    position: int
    uses: int


class ReviewsQueuesResponseItemRun(TypedDict):
    id: str
    name: str
    kind: str


class ReviewsQueuesResponseItemFilterWrong(TypedDict):
    kind: Literal["wrong"]


class ReviewsQueuesResponseItemFilterError(TypedDict):
    kind: Literal["error"]


class ReviewsQueuesResponseItemFilterFormat(TypedDict):
    kind: Literal["format"]


class ReviewsQueuesResponseItemFilterNoToolSmallK(TypedDict):
    kind: Literal["no_tool_small_k"]
    maxK: int


class ReviewsQueuesResponseItemFilterLowIou(TypedDict):
    kind: Literal["low_iou"]
    below: float


class ReviewsQueuesResponseItemFilterFlipped(TypedDict):
    kind: Literal["flipped"]
    againstRunId: str
    direction: Literal["right_to_wrong", "wrong_to_right", "any"]


class ReviewsQueuesResponseItemCreatedBy(TypedDict):
    id: str
    name: str
    email: str


class ReviewsQueuesResponseItemProgress(TypedDict):
    total: int
    OPEN: int
    TRIAGED: int
    RESOLVED: int


class ReviewsQueuesResponseItem(TypedDict):
    id: str
    name: str
    run: ReviewsQueuesResponseItemRun
    filter: Union[ReviewsQueuesResponseItemFilterWrong, ReviewsQueuesResponseItemFilterError, ReviewsQueuesResponseItemFilterFormat, ReviewsQueuesResponseItemFilterNoToolSmallK, ReviewsQueuesResponseItemFilterLowIou, ReviewsQueuesResponseItemFilterFlipped]
    filterLabel: str
    questionType: Optional[Literal["mcq", "tvg", "oe"]]
    createdBy: Optional[ReviewsQueuesResponseItemCreatedBy]
    createdAt: str
    progress: ReviewsQueuesResponseItemProgress


ReviewsCreateQueueBodyFilterWrong = ReviewsQueuesResponseItemFilterWrong


ReviewsCreateQueueBodyFilterError = ReviewsQueuesResponseItemFilterError


ReviewsCreateQueueBodyFilterFormat = ReviewsQueuesResponseItemFilterFormat


class _ReviewsCreateQueueBodyFilterNoToolSmallKRequired(TypedDict):
    kind: Literal["no_tool_small_k"]


class ReviewsCreateQueueBodyFilterNoToolSmallK(_ReviewsCreateQueueBodyFilterNoToolSmallKRequired, total=False):
    maxK: int


class _ReviewsCreateQueueBodyFilterLowIouRequired(TypedDict):
    kind: Literal["low_iou"]


class ReviewsCreateQueueBodyFilterLowIou(_ReviewsCreateQueueBodyFilterLowIouRequired, total=False):
    below: float


class _ReviewsCreateQueueBodyFilterFlippedRequired(TypedDict):
    kind: Literal["flipped"]
    againstRunId: str


class ReviewsCreateQueueBodyFilterFlipped(_ReviewsCreateQueueBodyFilterFlippedRequired, total=False):
    direction: Literal["right_to_wrong", "wrong_to_right", "any"]


class _ReviewsCreateQueueBodyRequired(TypedDict):
    runId: str
    filter: Union[ReviewsQueuesResponseItemFilterWrong, ReviewsQueuesResponseItemFilterError, ReviewsQueuesResponseItemFilterFormat, ReviewsCreateQueueBodyFilterNoToolSmallK, ReviewsCreateQueueBodyFilterLowIou, ReviewsCreateQueueBodyFilterFlipped]


class ReviewsCreateQueueBody(_ReviewsCreateQueueBodyRequired, total=False):
    name: str
    questionType: Literal["mcq", "tvg", "oe"]


ReviewsCreateQueueResponseQueueRun = ReviewsQueuesResponseItemRun


ReviewsCreateQueueResponseQueueFilterWrong = ReviewsQueuesResponseItemFilterWrong


ReviewsCreateQueueResponseQueueFilterError = ReviewsQueuesResponseItemFilterError


ReviewsCreateQueueResponseQueueFilterFormat = ReviewsQueuesResponseItemFilterFormat


ReviewsCreateQueueResponseQueueFilterNoToolSmallK = ReviewsQueuesResponseItemFilterNoToolSmallK


ReviewsCreateQueueResponseQueueFilterLowIou = ReviewsQueuesResponseItemFilterLowIou


ReviewsCreateQueueResponseQueueFilterFlipped = ReviewsQueuesResponseItemFilterFlipped


ReviewsCreateQueueResponseQueueCreatedBy = ReviewsQueuesResponseItemCreatedBy


ReviewsCreateQueueResponseQueueProgress = ReviewsQueuesResponseItemProgress


ReviewsCreateQueueResponseQueue = ReviewsQueuesResponseItem


class ReviewsCreateQueueResponse(TypedDict):
    queue: ReviewsQueuesResponseItem
    leftOut: int


ReviewsQueueResponseQueueRun = ReviewsQueuesResponseItemRun


ReviewsQueueResponseQueueFilterWrong = ReviewsQueuesResponseItemFilterWrong


ReviewsQueueResponseQueueFilterError = ReviewsQueuesResponseItemFilterError


ReviewsQueueResponseQueueFilterFormat = ReviewsQueuesResponseItemFilterFormat


ReviewsQueueResponseQueueFilterNoToolSmallK = ReviewsQueuesResponseItemFilterNoToolSmallK


ReviewsQueueResponseQueueFilterLowIou = ReviewsQueuesResponseItemFilterLowIou


ReviewsQueueResponseQueueFilterFlipped = ReviewsQueuesResponseItemFilterFlipped


ReviewsQueueResponseQueueCreatedBy = ReviewsQueuesResponseItemCreatedBy


ReviewsQueueResponseQueueProgress = ReviewsQueuesResponseItemProgress


ReviewsQueueResponseQueue = ReviewsQueuesResponseItem


ReviewsQueueResponseItemsItemAssignee = ReviewsQueuesResponseItemCreatedBy


class ReviewsQueueResponseItemsItem(TypedDict):
    position: int
    episodeId: str
    runId: str
    sampleKey: str
    question: str
    questionType: Literal["mcq", "tvg", "oe"]
    answer: str
    prediction: Optional[str]
    correct: Optional[bool]
    episodeStatus: Literal["OK", "ERROR"]
    k: int
    toolCallCount: int
    status: Literal["OPEN", "TRIAGED", "RESOLVED"]
    assignee: Optional[ReviewsQueuesResponseItemCreatedBy]
    tagIds: List[str]
    comments: int


class ReviewsQueueResponse(TypedDict):
    queue: ReviewsQueuesResponseItem
    items: List[ReviewsQueueResponseItemsItem]


ReviewsReviewResponseAssignee = ReviewsQueuesResponseItemCreatedBy


ReviewsReviewResponseCommentsItemAuthor = ReviewsQueuesResponseItemCreatedBy


ReviewsReviewResponseCommentsItemMentionsItem = ReviewsQueuesResponseItemCreatedBy


class ReviewsReviewResponseCommentsItem(TypedDict):
    id: str
    author: ReviewsQueuesResponseItemCreatedBy
    body: str
    videoTimeS: Optional[float]
    mentions: List[ReviewsQueuesResponseItemCreatedBy]
    createdAt: str
    editedAt: Optional[str]
    revisions: int


ReviewsReviewResponseScoresItemSetBy = ReviewsQueuesResponseItemCreatedBy


class ReviewsReviewResponseScoresItem(TypedDict):
    configId: str
    value: float
    setBy: Optional[ReviewsQueuesResponseItemCreatedBy]
    setAt: str


ReviewsReviewResponseUpdatedBy = ReviewsQueuesResponseItemCreatedBy


class ReviewsReviewResponse(TypedDict):
    episodeId: str
    status: Literal["OPEN", "TRIAGED", "RESOLVED"]
    assignee: Optional[ReviewsQueuesResponseItemCreatedBy]
    tagIds: List[str]
    comments: List[ReviewsReviewResponseCommentsItem]
    scores: List[ReviewsReviewResponseScoresItem]
    updatedAt: Optional[str]
    updatedBy: Optional[ReviewsQueuesResponseItemCreatedBy]


class ReviewsUpdateBody(TypedDict, total=False):
    status: Literal["OPEN", "TRIAGED", "RESOLVED"]
    assigneeId: Optional[str]


ReviewsUpdateResponseAssignee = ReviewsQueuesResponseItemCreatedBy


ReviewsUpdateResponseCommentsItemAuthor = ReviewsQueuesResponseItemCreatedBy


ReviewsUpdateResponseCommentsItemMentionsItem = ReviewsQueuesResponseItemCreatedBy


ReviewsUpdateResponseCommentsItem = ReviewsReviewResponseCommentsItem


ReviewsUpdateResponseScoresItemSetBy = ReviewsQueuesResponseItemCreatedBy


ReviewsUpdateResponseScoresItem = ReviewsReviewResponseScoresItem


ReviewsUpdateResponseUpdatedBy = ReviewsQueuesResponseItemCreatedBy


ReviewsUpdateResponse = ReviewsReviewResponse


class ReviewsSetTagBody(TypedDict):
    on: bool


ReviewsSetTagResponseAssignee = ReviewsQueuesResponseItemCreatedBy


ReviewsSetTagResponseCommentsItemAuthor = ReviewsQueuesResponseItemCreatedBy


ReviewsSetTagResponseCommentsItemMentionsItem = ReviewsQueuesResponseItemCreatedBy


ReviewsSetTagResponseCommentsItem = ReviewsReviewResponseCommentsItem


ReviewsSetTagResponseScoresItemSetBy = ReviewsQueuesResponseItemCreatedBy


ReviewsSetTagResponseScoresItem = ReviewsReviewResponseScoresItem


ReviewsSetTagResponseUpdatedBy = ReviewsQueuesResponseItemCreatedBy


ReviewsSetTagResponse = ReviewsReviewResponse


class _ReviewsCommentBodyRequired(TypedDict):
    body: str


class ReviewsCommentBody(_ReviewsCommentBodyRequired, total=False):
    videoTimeS: Optional[float]
    mentionIds: List[str]


ReviewsCommentResponseAssignee = ReviewsQueuesResponseItemCreatedBy


ReviewsCommentResponseCommentsItemAuthor = ReviewsQueuesResponseItemCreatedBy


ReviewsCommentResponseCommentsItemMentionsItem = ReviewsQueuesResponseItemCreatedBy


ReviewsCommentResponseCommentsItem = ReviewsReviewResponseCommentsItem


ReviewsCommentResponseScoresItemSetBy = ReviewsQueuesResponseItemCreatedBy


ReviewsCommentResponseScoresItem = ReviewsReviewResponseScoresItem


ReviewsCommentResponseUpdatedBy = ReviewsQueuesResponseItemCreatedBy


ReviewsCommentResponse = ReviewsReviewResponse


class _ReviewsEditCommentBodyRequired(TypedDict):
    body: str


class ReviewsEditCommentBody(_ReviewsEditCommentBodyRequired, total=False):
    mentionIds: List[str]


ReviewsEditCommentResponseAssignee = ReviewsQueuesResponseItemCreatedBy


ReviewsEditCommentResponseCommentsItemAuthor = ReviewsQueuesResponseItemCreatedBy


ReviewsEditCommentResponseCommentsItemMentionsItem = ReviewsQueuesResponseItemCreatedBy


ReviewsEditCommentResponseCommentsItem = ReviewsReviewResponseCommentsItem


ReviewsEditCommentResponseScoresItemSetBy = ReviewsQueuesResponseItemCreatedBy


ReviewsEditCommentResponseScoresItem = ReviewsReviewResponseScoresItem


ReviewsEditCommentResponseUpdatedBy = ReviewsQueuesResponseItemCreatedBy


ReviewsEditCommentResponse = ReviewsReviewResponse


ReviewsDeleteCommentResponseAssignee = ReviewsQueuesResponseItemCreatedBy


ReviewsDeleteCommentResponseCommentsItemAuthor = ReviewsQueuesResponseItemCreatedBy


ReviewsDeleteCommentResponseCommentsItemMentionsItem = ReviewsQueuesResponseItemCreatedBy


ReviewsDeleteCommentResponseCommentsItem = ReviewsReviewResponseCommentsItem


ReviewsDeleteCommentResponseScoresItemSetBy = ReviewsQueuesResponseItemCreatedBy


ReviewsDeleteCommentResponseScoresItem = ReviewsReviewResponseScoresItem


ReviewsDeleteCommentResponseUpdatedBy = ReviewsQueuesResponseItemCreatedBy


ReviewsDeleteCommentResponse = ReviewsReviewResponse


class IngestWhoamiResponseToken(TypedDict):
    id: str
    projectId: str
    scopes: List[Literal["READ", "WRITE", "LAUNCH"]]


class IngestWhoamiResponse(TypedDict):
    userId: str
    token: Optional[IngestWhoamiResponseToken]


class _IngestCreateRunBodyRequired(TypedDict):
    clientId: str
    name: str


class IngestCreateRunBody(_IngestCreateRunBodyRequired, total=False):
    kind: Literal["rl", "sft"]
    config: Dict[str, Any]
    datasetId: str


IngestCreateRunResponseRun = RunsListResponseItem


class IngestCreateRunResponse(TypedDict):
    run: RunsListResponseItem
    datasetId: str
    created: bool


class _IngestSetStatusBodyRequired(TypedDict):
    status: Literal["RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"]


class IngestSetStatusBody(_IngestSetStatusBodyRequired, total=False):
    message: str
    error: str
    progress: float


IngestSetStatusResponse = RunsListResponseItem


class _IngestMetricsBodyItemsItemRequired(TypedDict):
    id: str
    step: int
    values: Dict[str, float]


class IngestMetricsBodyItemsItem(_IngestMetricsBodyItemsItemRequired, total=False):
    at: str


class IngestMetricsBody(TypedDict):
    items: List[IngestMetricsBodyItemsItem]


class IngestMetricsResponseCounts(TypedDict):
    stored: int
    duplicate: int
    conflict: int
    invalid: int


class _IngestMetricsResponseItemsItemRequired(TypedDict):
    id: str
    status: Literal["stored", "duplicate", "conflict", "invalid"]


class IngestMetricsResponseItemsItem(_IngestMetricsResponseItemsItemRequired, total=False):
    reason: str
    code: Literal["repeated_id", "not_finite", "no_values", "kept_stored_values", "other_values_stored", "clock_ahead", "before_run", "index_clash", "video_not_in_project", "video_not_linked", "slot_taken"]


class IngestMetricsResponse(TypedDict):
    counts: IngestMetricsResponseCounts
    items: List[IngestMetricsResponseItemsItem]


class _IngestRolloutsBodyItemsItemSampleRequired(TypedDict):
    key: str
    question: str
    answer: str
    questionType: Literal["mcq", "tvg", "oe"]


class IngestRolloutsBodyItemsItemSample(_IngestRolloutsBodyItemsItemSampleRequired, total=False):
    options: List[str]
    videoId: str
    videoPath: str


class _IngestRolloutsBodyItemsItemTurnsItemToolCallsItemRequired(TypedDict):
    index: int


class IngestRolloutsBodyItemsItemTurnsItemToolCallsItem(_IngestRolloutsBodyItemsItemTurnsItemToolCallsItemRequired, total=False):
    name: str
    arguments: Dict[str, Any]
    startS: Optional[float]
    endS: Optional[float]
    clamped: bool
    frameTimestamps: List[float]
    subAgentOutput: Optional[str]
    status: Literal["OK", "ERROR", "REJECTED"]
    error: Optional[str]


class _IngestRolloutsBodyItemsItemTurnsItemRequired(TypedDict):
    index: int
    rawText: str


class IngestRolloutsBodyItemsItemTurnsItem(_IngestRolloutsBodyItemsItemTurnsItemRequired, total=False):
    forcedPrefix: Optional[str]
    forcedFinal: bool
    parseIssues: List[str]
    promptTokens: Optional[int]
    completionTokens: Optional[int]
    toolCalls: List[IngestRolloutsBodyItemsItemTurnsItemToolCallsItem]


class _IngestRolloutsBodyItemsItemRequired(TypedDict):
    id: str
    k: int
    sample: IngestRolloutsBodyItemsItemSample


class IngestRolloutsBodyItemsItem(_IngestRolloutsBodyItemsItemRequired, total=False):
    step: int
    index: int
    promptMode: str
    status: Literal["OK", "ERROR"]
    error: Optional[str]
    finalText: Optional[str]
    prediction: Optional[str]
    correct: Optional[bool]
    score: Optional[float]
    rewardTerms: Dict[str, Union[float, bool]]
    overviewTimestamps: List[float]
    turns: List[IngestRolloutsBodyItemsItemTurnsItem]


class IngestRolloutsBody(TypedDict):
    items: List[IngestRolloutsBodyItemsItem]


IngestRolloutsResponseCounts = IngestMetricsResponseCounts


IngestRolloutsResponseItemsItem = IngestMetricsResponseItemsItem


IngestRolloutsResponse = IngestMetricsResponse


IngestEpisodesResponseItemsItemRun = EvalsLaunchResponseGroup


IngestEpisodesResponseItemsItemSample = EvalsEpisodeResponseSample


IngestEpisodesResponseItemsItemTurnsItemToolCallsItem = EvalsEpisodeResponseTurnsItemToolCallsItem


IngestEpisodesResponseItemsItemTurnsItem = EvalsEpisodeResponseTurnsItem


IngestEpisodesResponseItemsItem = EvalsEpisodeResponse


class IngestEpisodesResponse(TypedDict):
    items: List[EvalsEpisodeResponse]
    nextCursor: Optional[str]


class VideosUploadResponseVideo(TypedDict, total=False):
    id: str
    name: str


class VideosUploadResponse(TypedDict):
    video: VideosUploadResponseVideo
    runId: str


# operationId -> how to send it (method, path template, server prefix, parameters by place).
OPERATIONS: Dict[str, Operation] = {
    "projects-list": Operation(
        "projects-list",
        "GET",
        "/projects",
        "/api/v1",
        path=(),
        query=(),
        headers=(),
        body=None,
    ),
    "projects-byId": Operation(
        "projects-byId",
        "GET",
        "/projects/{projectId}",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body=None,
    ),
    "members-list": Operation(
        "members-list",
        "GET",
        "/projects/{projectId}/members",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body=None,
    ),
    "runs-list": Operation(
        "runs-list",
        "GET",
        "/projects/{projectId}/runs",
        "/api/v1",
        path=("projectId",),
        query=("status", "limit"),
        headers=(),
        body=None,
    ),
    "runs-workers": Operation(
        "runs-workers",
        "GET",
        "/projects/{projectId}/workers",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body=None,
    ),
    "runs-byId": Operation(
        "runs-byId",
        "GET",
        "/projects/{projectId}/runs/{runId}",
        "/api/v1",
        path=("projectId", "runId"),
        query=(),
        headers=(),
        body=None,
    ),
    "runs-metricNames": Operation(
        "runs-metricNames",
        "GET",
        "/projects/{projectId}/runs/{runId}/metric-names",
        "/api/v1",
        path=("projectId", "runId"),
        query=(),
        headers=(),
        body=None,
    ),
    "runs-metrics": Operation(
        "runs-metrics",
        "POST",
        "/projects/{projectId}/runs/{runId}/metrics/query",
        "/api/v1",
        path=("projectId", "runId"),
        query=(),
        headers=(),
        body="json",
    ),
    "runs-metricsExport": Operation(
        "runs-metricsExport",
        "GET",
        "/projects/{projectId}/runs/{runId}/metrics/export",
        "/api/v1",
        path=("projectId", "runId"),
        query=("names", "format", "afterStep", "limitSteps"),
        headers=(),
        body=None,
    ),
    "runs-stepRollouts": Operation(
        "runs-stepRollouts",
        "GET",
        "/projects/{projectId}/runs/{runId}/steps/{step}/rollouts",
        "/api/v1",
        path=("projectId", "runId", "step"),
        query=(),
        headers=(),
        body=None,
    ),
    "runs-cancel": Operation(
        "runs-cancel",
        "POST",
        "/projects/{projectId}/runs/{runId}/cancel",
        "/api/v1",
        path=("projectId", "runId"),
        query=(),
        headers=(),
        body=None,
    ),
    "runs-resume": Operation(
        "runs-resume",
        "POST",
        "/projects/{projectId}/runs/{runId}/resume",
        "/api/v1",
        path=("projectId", "runId"),
        query=(),
        headers=(),
        body=None,
    ),
    "videos-list": Operation(
        "videos-list",
        "GET",
        "/projects/{projectId}/videos",
        "/api/v1",
        path=("projectId",),
        query=("query",),
        headers=(),
        body=None,
    ),
    "videos-byId": Operation(
        "videos-byId",
        "GET",
        "/projects/{projectId}/videos/{videoId}",
        "/api/v1",
        path=("projectId", "videoId"),
        query=(),
        headers=(),
        body=None,
    ),
    "videos-register": Operation(
        "videos-register",
        "POST",
        "/projects/{projectId}/videos/register",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body="json",
    ),
    "videos-createDemo": Operation(
        "videos-createDemo",
        "POST",
        "/projects/{projectId}/videos/demo",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body="json",
    ),
    "datasets-list": Operation(
        "datasets-list",
        "GET",
        "/projects/{projectId}/datasets",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body=None,
    ),
    "datasets-byId": Operation(
        "datasets-byId",
        "GET",
        "/projects/{projectId}/datasets/{datasetId}",
        "/api/v1",
        path=("projectId", "datasetId"),
        query=(),
        headers=(),
        body=None,
    ),
    "datasets-samples": Operation(
        "datasets-samples",
        "GET",
        "/projects/{projectId}/datasets/{datasetId}/samples",
        "/api/v1",
        path=("projectId", "datasetId"),
        query=("questionType", "cursor", "limit"),
        headers=(),
        body=None,
    ),
    "datasets-generateSuite": Operation(
        "datasets-generateSuite",
        "POST",
        "/projects/{projectId}/datasets/generate-suite",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body="json",
    ),
    "datasets-importSuite": Operation(
        "datasets-importSuite",
        "POST",
        "/projects/{projectId}/datasets/import-suite",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body="json",
    ),
    "datasets-benchmarks": Operation(
        "datasets-benchmarks",
        "GET",
        "/benchmarks",
        "/api/v1",
        path=(),
        query=(),
        headers=(),
        body=None,
    ),
    "datasets-importBenchmark": Operation(
        "datasets-importBenchmark",
        "POST",
        "/projects/{projectId}/datasets/import-benchmark",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body="json",
    ),
    "datasets-reimportBenchmark": Operation(
        "datasets-reimportBenchmark",
        "POST",
        "/projects/{projectId}/datasets/{datasetId}/reimport",
        "/api/v1",
        path=("projectId", "datasetId"),
        query=(),
        headers=(),
        body=None,
    ),
    "models-list": Operation(
        "models-list",
        "GET",
        "/projects/{projectId}/models",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body=None,
    ),
    "models-create": Operation(
        "models-create",
        "POST",
        "/projects/{projectId}/models",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body="json",
    ),
    "models-update": Operation(
        "models-update",
        "PATCH",
        "/projects/{projectId}/models/{modelId}",
        "/api/v1",
        path=("projectId", "modelId"),
        query=(),
        headers=(),
        body="json",
    ),
    "models-delete": Operation(
        "models-delete",
        "DELETE",
        "/projects/{projectId}/models/{modelId}",
        "/api/v1",
        path=("projectId", "modelId"),
        query=(),
        headers=(),
        body=None,
    ),
    "models-probe": Operation(
        "models-probe",
        "POST",
        "/projects/{projectId}/models/{modelId}/probe",
        "/api/v1",
        path=("projectId", "modelId"),
        query=(),
        headers=(),
        body=None,
    ),
    "training-launchSft": Operation(
        "training-launchSft",
        "POST",
        "/projects/{projectId}/training/sft",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body="json",
    ),
    "training-launchRl": Operation(
        "training-launchRl",
        "POST",
        "/projects/{projectId}/training/rl",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body="json",
    ),
    "evals-launch": Operation(
        "evals-launch",
        "POST",
        "/projects/{projectId}/evals",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body="json",
    ),
    "evals-groups": Operation(
        "evals-groups",
        "GET",
        "/projects/{projectId}/evals/groups",
        "/api/v1",
        path=("projectId",),
        query=("limit",),
        headers=(),
        body=None,
    ),
    "evals-group": Operation(
        "evals-group",
        "GET",
        "/projects/{projectId}/evals/groups/{groupId}",
        "/api/v1",
        path=("projectId", "groupId"),
        query=(),
        headers=(),
        body=None,
    ),
    "evals-table": Operation(
        "evals-table",
        "GET",
        "/projects/{projectId}/evals/groups/{groupId}/table",
        "/api/v1",
        path=("projectId", "groupId"),
        query=(),
        headers=(),
        body=None,
    ),
    "evals-byId": Operation(
        "evals-byId",
        "GET",
        "/projects/{projectId}/evals/runs/{runId}",
        "/api/v1",
        path=("projectId", "runId"),
        query=(),
        headers=(),
        body=None,
    ),
    "evals-samples": Operation(
        "evals-samples",
        "GET",
        "/projects/{projectId}/evals/runs/{runId}/samples",
        "/api/v1",
        path=("projectId", "runId"),
        query=("outcome", "questionType", "minToolCalls", "maxToolCalls", "k", "duration", "flippedAgainst", "flipDirection", "cursor", "limit"),
        headers=(),
        body=None,
    ),
    "evals-episode": Operation(
        "evals-episode",
        "GET",
        "/projects/{projectId}/episodes/{episodeId}",
        "/api/v1",
        path=("projectId", "episodeId"),
        query=("cursor",),
        headers=(),
        body=None,
    ),
    "evals-episodeText": Operation(
        "evals-episodeText",
        "GET",
        "/projects/{projectId}/episodes/{episodeId}/text",
        "/api/v1",
        path=("projectId", "episodeId"),
        query=("field", "turn", "call", "offset", "limit"),
        headers=(),
        body=None,
    ),
    "evals-matrix": Operation(
        "evals-matrix",
        "GET",
        "/projects/{projectId}/evals/matrix",
        "/api/v1",
        path=("projectId",),
        query=("groupId", "runIds"),
        headers=(),
        body=None,
    ),
    "evals-importReference": Operation(
        "evals-importReference",
        "POST",
        "/projects/{projectId}/evals/import-reference",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body="json",
    ),
    "reviews-tags": Operation(
        "reviews-tags",
        "GET",
        "/projects/{projectId}/reviews/tags",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body=None,
    ),
    "reviews-queues": Operation(
        "reviews-queues",
        "GET",
        "/projects/{projectId}/reviews/queues",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body=None,
    ),
    "reviews-createQueue": Operation(
        "reviews-createQueue",
        "POST",
        "/projects/{projectId}/reviews/queues",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body="json",
    ),
    "reviews-queue": Operation(
        "reviews-queue",
        "GET",
        "/projects/{projectId}/reviews/queues/{queueId}",
        "/api/v1",
        path=("projectId", "queueId"),
        query=(),
        headers=(),
        body=None,
    ),
    "reviews-review": Operation(
        "reviews-review",
        "GET",
        "/projects/{projectId}/reviews/episodes/{episodeId}",
        "/api/v1",
        path=("projectId", "episodeId"),
        query=(),
        headers=(),
        body=None,
    ),
    "reviews-update": Operation(
        "reviews-update",
        "PATCH",
        "/projects/{projectId}/reviews/episodes/{episodeId}",
        "/api/v1",
        path=("projectId", "episodeId"),
        query=(),
        headers=(),
        body="json",
    ),
    "reviews-setTag": Operation(
        "reviews-setTag",
        "PUT",
        "/projects/{projectId}/reviews/episodes/{episodeId}/tags/{tagId}",
        "/api/v1",
        path=("projectId", "episodeId", "tagId"),
        query=(),
        headers=(),
        body="json",
    ),
    "reviews-comment": Operation(
        "reviews-comment",
        "POST",
        "/projects/{projectId}/reviews/episodes/{episodeId}/comments",
        "/api/v1",
        path=("projectId", "episodeId"),
        query=(),
        headers=(),
        body="json",
    ),
    "reviews-editComment": Operation(
        "reviews-editComment",
        "PATCH",
        "/projects/{projectId}/reviews/episodes/{episodeId}/comments/{commentId}",
        "/api/v1",
        path=("projectId", "episodeId", "commentId"),
        query=(),
        headers=(),
        body="json",
    ),
    "reviews-deleteComment": Operation(
        "reviews-deleteComment",
        "DELETE",
        "/projects/{projectId}/reviews/episodes/{episodeId}/comments/{commentId}",
        "/api/v1",
        path=("projectId", "episodeId", "commentId"),
        query=(),
        headers=(),
        body=None,
    ),
    "ingest-whoami": Operation(
        "ingest-whoami",
        "GET",
        "/whoami",
        "/api/v1",
        path=(),
        query=(),
        headers=(),
        body=None,
    ),
    "ingest-createRun": Operation(
        "ingest-createRun",
        "POST",
        "/projects/{projectId}/external-runs",
        "/api/v1",
        path=("projectId",),
        query=(),
        headers=(),
        body="json",
    ),
    "ingest-setStatus": Operation(
        "ingest-setStatus",
        "POST",
        "/projects/{projectId}/external-runs/{runId}/status",
        "/api/v1",
        path=("projectId", "runId"),
        query=(),
        headers=(),
        body="json",
    ),
    "ingest-metrics": Operation(
        "ingest-metrics",
        "POST",
        "/projects/{projectId}/external-runs/{runId}/metrics",
        "/api/v1",
        path=("projectId", "runId"),
        query=(),
        headers=(),
        body="json",
    ),
    "ingest-rollouts": Operation(
        "ingest-rollouts",
        "POST",
        "/projects/{projectId}/external-runs/{runId}/rollouts",
        "/api/v1",
        path=("projectId", "runId"),
        query=(),
        headers=(),
        body="json",
    ),
    "ingest-episodes": Operation(
        "ingest-episodes",
        "GET",
        "/projects/{projectId}/runs/{runId}/episodes",
        "/api/v1",
        path=("projectId", "runId"),
        query=("cursor", "limit"),
        headers=(),
        body=None,
    ),
    "videos-upload": Operation(
        "videos-upload",
        "POST",
        "/projects/{projectId}/videos/upload",
        "/api",
        path=("projectId",),
        query=(),
        headers=("X-File-Name",),
        body="binary",
    ),
}


class ApiClient(Transport):
    """One method per operation of the REST API; see Transport for the connection and errors."""

    def projects_list(self) -> List[ProjectsListResponseItem]:
        """Projects the caller can see (a token sees its own project only)

        GET /api/v1/projects (projects-list).
        Token scope: READ (read data).
        """
        return self.call(OPERATIONS["projects-list"]).data

    def projects_by_id(self, project_id: str) -> ProjectsListResponseItem:
        """One project with the caller's role

        GET /api/v1/projects/{projectId} (projects-byId).
        Token scope: READ (read data).
        """
        return self.call(OPERATIONS["projects-byId"], path={"projectId": project_id}).data

    def members_list(self, project_id: str) -> List[MembersListResponseItem]:
        """Members of the project (user ids for review assignees and mentions)

        GET /api/v1/projects/{projectId}/members (members-list).
        Token scope: READ (read data).
        """
        return self.call(OPERATIONS["members-list"], path={"projectId": project_id}).data

    def runs_list(
        self,
        project_id: str,
        *,
        status: Optional[Literal["QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"]] = None,
        limit: Optional[int] = None,
    ) -> List[RunsListResponseItem]:
        """Runs (jobs, trainings, evaluations) of the project, newest first

        GET /api/v1/projects/{projectId}/runs (runs-list).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["runs-list"],
            path={"projectId": project_id},
            query={"status": status, "limit": limit},
        ).data

    def runs_workers(self, project_id: str) -> RunsWorkersResponse:
        """Live worker processes: host, queues, compute backend and device, running jobs

        GET /api/v1/projects/{projectId}/workers (runs-workers).
        Token scope: READ (read data).
        """
        return self.call(OPERATIONS["runs-workers"], path={"projectId": project_id}).data

    def runs_by_id(self, project_id: str, run_id: str) -> RunsListResponseItem:
        """One run with its status and progress

        GET /api/v1/projects/{projectId}/runs/{runId} (runs-byId).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["runs-byId"],
            path={"projectId": project_id, "runId": run_id},
        ).data

    def runs_metric_names(self, project_id: str, run_id: str) -> List[RunsMetricNamesResponseItem]:
        """The metric series a run has (names, point counts, step extent)

        GET /api/v1/projects/{projectId}/runs/{runId}/metric-names (runs-metricNames).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["runs-metricNames"],
            path={"projectId": project_id, "runId": run_id},
        ).data

    def runs_metrics(
        self,
        project_id: str,
        run_id: str,
        body: RunsMetricsBody,
    ) -> List[RunsMetricsResponseItem]:
        """Metric series by step or wall time, optionally a zoom window, downsampled (min/max kept)
        to maxPoints

        POST /api/v1/projects/{projectId}/runs/{runId}/metrics/query (runs-metrics).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["runs-metrics"],
            path={"projectId": project_id, "runId": run_id},
            body=body,
        ).data

    def runs_metrics_export(
        self,
        project_id: str,
        run_id: str,
        *,
        names: List[str],
        format: Literal["csv", "json"],
        after_step: Optional[int] = None,
        limit_steps: Optional[int] = None,
    ) -> Union[RunsMetricsExportResponse, str]:
        """Every point of the chosen series as CSV or JSON, one page of steps per call

        GET /api/v1/projects/{projectId}/runs/{runId}/metrics/export (runs-metricsExport).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["runs-metricsExport"],
            path={"projectId": project_id, "runId": run_id},
            query={"names": names, "format": format, "afterStep": after_step, "limitSteps": limit_steps},
        ).data

    def runs_step_rollouts(
        self,
        project_id: str,
        run_id: str,
        step: int,
    ) -> RunsStepRolloutsResponse:
        """The rollouts an RL run kept of one step, with the nearest steps that have some

        GET /api/v1/projects/{projectId}/runs/{runId}/steps/{step}/rollouts (runs-stepRollouts).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["runs-stepRollouts"],
            path={"projectId": project_id, "runId": run_id, "step": step},
        ).data

    def runs_cancel(self, project_id: str, run_id: str) -> RunsListResponseItem:
        """Cancel a queued or running run

        POST /api/v1/projects/{projectId}/runs/{runId}/cancel (runs-cancel).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["runs-cancel"],
            path={"projectId": project_id, "runId": run_id},
        ).data

    def runs_resume(self, project_id: str, run_id: str) -> RunsListResponseItem:
        """Resume a failed or cancelled evaluation or training run (only the missing work runs)

        POST /api/v1/projects/{projectId}/runs/{runId}/resume (runs-resume).
        Token scope: LAUNCH (launch jobs), and the editor role.
        """
        return self.call(
            OPERATIONS["runs-resume"],
            path={"projectId": project_id, "runId": run_id},
        ).data

    def videos_list(
        self,
        project_id: str,
        *,
        query: Optional[str] = None,
    ) -> List[VideosListResponseItem]:
        """Videos of the project, optionally filtered by name

        GET /api/v1/projects/{projectId}/videos (videos-list).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["videos-list"],
            path={"projectId": project_id},
            query={"query": query},
        ).data

    def videos_by_id(self, project_id: str, video_id: str) -> VideosListResponseItem:
        """One video with its probe metadata and status

        GET /api/v1/projects/{projectId}/videos/{videoId} (videos-byId).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["videos-byId"],
            path={"projectId": project_id, "videoId": video_id},
        ).data

    def videos_register(self, project_id: str, body: VideosRegisterBody) -> VideosRegisterResponse:
        """Register a video file on the server (path or file:// URI inside MEDIA_ROOTS) and probe it

        POST /api/v1/projects/{projectId}/videos/register (videos-register).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["videos-register"],
            path={"projectId": project_id},
            body=body,
        ).data

    def videos_create_demo(
        self,
        project_id: str,
        body: VideosCreateDemoBody,
    ) -> VideosRegisterResponse:
        """Render a synthetic demo video on a worker

        POST /api/v1/projects/{projectId}/videos/demo (videos-createDemo).
        Token scope: LAUNCH (launch jobs), and the editor role.
        """
        return self.call(
            OPERATIONS["videos-createDemo"],
            path={"projectId": project_id},
            body=body,
        ).data

    def datasets_list(self, project_id: str) -> List[DatasetsListResponseItem]:
        """Datasets of the project

        GET /api/v1/projects/{projectId}/datasets (datasets-list).
        Token scope: READ (read data).
        """
        return self.call(OPERATIONS["datasets-list"], path={"projectId": project_id}).data

    def datasets_by_id(self, project_id: str, dataset_id: str) -> DatasetsListResponseItem:
        """One dataset (source, import report, counts by question type)

        GET /api/v1/projects/{projectId}/datasets/{datasetId} (datasets-byId).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["datasets-byId"],
            path={"projectId": project_id, "datasetId": dataset_id},
        ).data

    def datasets_samples(
        self,
        project_id: str,
        dataset_id: str,
        *,
        question_type: Optional[Literal["mcq", "tvg", "oe"]] = None,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> DatasetsSamplesResponse:
        """Samples of a dataset, one cursor page at a time

        GET /api/v1/projects/{projectId}/datasets/{datasetId}/samples (datasets-samples).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["datasets-samples"],
            path={"projectId": project_id, "datasetId": dataset_id},
            query={"questionType": question_type, "cursor": cursor, "limit": limit},
        ).data

    def datasets_generate_suite(
        self,
        project_id: str,
        body: DatasetsGenerateSuiteBody,
    ) -> DatasetsGenerateSuiteResponse:
        """Render a needle suite on a worker and import it

        POST /api/v1/projects/{projectId}/datasets/generate-suite (datasets-generateSuite).
        Token scope: LAUNCH (launch jobs), and the editor role.
        """
        return self.call(
            OPERATIONS["datasets-generateSuite"],
            path={"projectId": project_id},
            body=body,
        ).data

    def datasets_import_suite(
        self,
        project_id: str,
        body: DatasetsImportSuiteBody,
    ) -> DatasetsGenerateSuiteResponse:
        """Import a suite directory on the server (inside MEDIA_ROOTS)

        POST /api/v1/projects/{projectId}/datasets/import-suite (datasets-importSuite).
        Token scope: LAUNCH (launch jobs), and the editor role.
        """
        return self.call(
            OPERATIONS["datasets-importSuite"],
            path={"projectId": project_id},
            body=body,
        ).data

    def datasets_benchmarks(self) -> List[DatasetsBenchmarksResponseItem]:
        """Benchmarks a local copy can be imported from, with their expected files

        GET /api/v1/benchmarks (datasets-benchmarks).
        Token scope: READ (read data).
        """
        return self.call(OPERATIONS["datasets-benchmarks"]).data

    def datasets_import_benchmark(
        self,
        project_id: str,
        body: DatasetsImportBenchmarkBody,
    ) -> DatasetsGenerateSuiteResponse:
        """Import a local benchmark copy (inside MEDIA_ROOTS) as a dataset

        POST /api/v1/projects/{projectId}/datasets/import-benchmark (datasets-importBenchmark).
        Token scope: LAUNCH (launch jobs), and the editor role.
        """
        return self.call(
            OPERATIONS["datasets-importBenchmark"],
            path={"projectId": project_id},
            body=body,
        ).data

    def datasets_reimport_benchmark(
        self,
        project_id: str,
        dataset_id: str,
    ) -> DatasetsReimportBenchmarkResponse:
        """Import a benchmark dataset again with its stored options

        POST /api/v1/projects/{projectId}/datasets/{datasetId}/reimport
        (datasets-reimportBenchmark).
        Token scope: LAUNCH (launch jobs), and the editor role.
        """
        return self.call(
            OPERATIONS["datasets-reimportBenchmark"],
            path={"projectId": project_id, "datasetId": dataset_id},
        ).data

    def models_list(self, project_id: str) -> List[ModelsListResponseItem]:
        """Models of the registry (API keys are never returned: hasApiKey only)

        GET /api/v1/projects/{projectId}/models (models-list).
        Token scope: READ (read data).
        """
        return self.call(OPERATIONS["models-list"], path={"projectId": project_id}).data

    def models_create(self, project_id: str, body: ModelsCreateBody) -> ModelsListResponseItem:
        """Register a nano checkpoint, an OpenAI-compatible endpoint (apiKey is write-only) or an
        external model

        POST /api/v1/projects/{projectId}/models (models-create).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["models-create"],
            path={"projectId": project_id},
            body=body,
        ).data

    def models_update(
        self,
        project_id: str,
        model_id: str,
        body: ModelsUpdateBody,
    ) -> ModelsListResponseItem:
        """Rename a model, change its description, or replace / remove its API key

        PATCH /api/v1/projects/{projectId}/models/{modelId} (models-update).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["models-update"],
            path={"projectId": project_id, "modelId": model_id},
            body=body,
        ).data

    def models_delete(self, project_id: str, model_id: str) -> ModelsDeleteResponse:
        """Delete a model

        DELETE /api/v1/projects/{projectId}/models/{modelId} (models-delete).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["models-delete"],
            path={"projectId": project_id, "modelId": model_id},
        ).data

    def models_probe(self, project_id: str, model_id: str) -> ModelsProbeResponse:
        """Probe an OpenAI-compatible endpoint: served models and context length, one image, several
        images, reasoning parser

        POST /api/v1/projects/{projectId}/models/{modelId}/probe (models-probe).
        Token scope: WRITE (write data and reviews), and the editor role. The result is also stored
        in the model's config as `probe`.
        """
        return self.call(
            OPERATIONS["models-probe"],
            path={"projectId": project_id, "modelId": model_id},
        ).data

    def training_launch_sft(
        self,
        project_id: str,
        body: TrainingLaunchSftBody,
    ) -> RunsListResponseItem:
        """Launch cold-start SFT of ParaVT-nano on a needle suite

        POST /api/v1/projects/{projectId}/training/sft (training-launchSft).
        Token scope: LAUNCH (launch jobs), and the editor role.
        """
        return self.call(
            OPERATIONS["training-launchSft"],
            path={"projectId": project_id},
            body=body,
        ).data

    def training_launch_rl(
        self,
        project_id: str,
        body: TrainingLaunchRlBody,
    ) -> RunsListResponseItem:
        """Launch PARA-GRPO / vanilla GRPO of ParaVT-nano on a needle suite

        POST /api/v1/projects/{projectId}/training/rl (training-launchRl).
        Token scope: LAUNCH (launch jobs), and the editor role.
        """
        return self.call(
            OPERATIONS["training-launchRl"],
            path={"projectId": project_id},
            body=body,
        ).data

    def evals_launch(self, project_id: str, body: EvalsLaunchBody) -> EvalsLaunchResponse:
        """Launch models x datasets x prompt modes x K as one group of eval runs

        POST /api/v1/projects/{projectId}/evals (evals-launch).
        Token scope: LAUNCH (launch jobs), and the editor role.
        """
        return self.call(OPERATIONS["evals-launch"], path={"projectId": project_id}, body=body).data

    def evals_groups(
        self,
        project_id: str,
        *,
        limit: Optional[int] = None,
    ) -> List[EvalsGroupsResponseItem]:
        """Recent evaluation groups with their runs, progress and summaries

        GET /api/v1/projects/{projectId}/evals/groups (evals-groups).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["evals-groups"],
            path={"projectId": project_id},
            query={"limit": limit},
        ).data

    def evals_group(self, project_id: str, group_id: str) -> EvalsGroupsResponseItem:
        """One evaluation group

        GET /api/v1/projects/{projectId}/evals/groups/{groupId} (evals-group).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["evals-group"],
            path={"projectId": project_id, "groupId": group_id},
        ).data

    def evals_table(self, project_id: str, group_id: str) -> EvalsTableResponse:
        """An evaluation group as the paper's main table (benchmarks as columns, average), as CSV
        and Markdown

        GET /api/v1/projects/{projectId}/evals/groups/{groupId}/table (evals-table).
        Token scope: READ (read data). Rows are (model, prompt mode, K); each column is a
        benchmark's headline figure (accuracy, or mIoU for temporal grounding) over answered
        samples; ERROR episodes are left out and named in the row's notes.
        """
        return self.call(
            OPERATIONS["evals-table"],
            path={"projectId": project_id, "groupId": group_id},
        ).data

    def evals_by_id(self, project_id: str, run_id: str) -> EvalsGroupsResponseItemRunsItem:
        """One eval run: settings and SPEC §5 summary

        GET /api/v1/projects/{projectId}/evals/runs/{runId} (evals-byId).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["evals-byId"],
            path={"projectId": project_id, "runId": run_id},
        ).data

    def evals_samples(
        self,
        project_id: str,
        run_id: str,
        *,
        outcome: Optional[Literal["correct", "wrong", "error"]] = None,
        question_type: Optional[Literal["mcq", "tvg", "oe"]] = None,
        min_tool_calls: Optional[int] = None,
        max_tool_calls: Optional[int] = None,
        k: Optional[int] = None,
        duration: Optional[Literal["short", "medium", "long"]] = None,
        flipped_against: Optional[str] = None,
        flip_direction: Optional[Literal["right_to_wrong", "wrong_to_right", "any"]] = None,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> EvalsSamplesResponse:
        """Per-sample rows of an eval run, filtered, one cursor page at a time

        GET /api/v1/projects/{projectId}/evals/runs/{runId}/samples (evals-samples).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["evals-samples"],
            path={"projectId": project_id, "runId": run_id},
            query={"outcome": outcome, "questionType": question_type, "minToolCalls": min_tool_calls, "maxToolCalls": max_tool_calls, "k": k, "duration": duration, "flippedAgainst": flipped_against, "flipDirection": flip_direction, "cursor": cursor, "limit": limit},
        ).data

    def evals_episode(
        self,
        project_id: str,
        episode_id: str,
        *,
        cursor: Optional[str] = None,
    ) -> EvalsEpisodeResponse:
        """One episode's trajectory, a bounded page at a time: turns, raw text, tool calls with
        windows and outputs

        GET /api/v1/projects/{projectId}/episodes/{episodeId} (evals-episode).
        Token scope: READ (read data). Texts longer than 16 Ki characters are head + tail previews
        listed in the `clipped` field of the object that holds them (name -> full length; whole
        through GET …/episodes/{episodeId}/text). Turns and tool calls fill about 256 KB;
        `nextCursor` continues (a turn split across pages repeats its fields with its remaining
        calls).
        """
        return self.call(
            OPERATIONS["evals-episode"],
            path={"projectId": project_id, "episodeId": episode_id},
            query={"cursor": cursor},
        ).data

    def evals_episode_text(
        self,
        project_id: str,
        episode_id: str,
        *,
        field: Literal["finalText", "prediction", "error", "details", "timings", "tokenCounts", "question", "answer", "options", "metadata", "rawText", "forcedPrefix", "parsedCalls", "parseIssues", "name", "arguments", "subAgentOutput"],
        turn: Optional[int] = None,
        call: Optional[int] = None,
        offset: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> EvalsEpisodeTextResponse:
        """One text of an episode, whole, in pages of at most 64 Ki characters

        GET /api/v1/projects/{projectId}/episodes/{episodeId}/text (evals-episodeText).
        Token scope: READ (read data). `field` of the episode (or its sample: question, answer,
        options, metadata), of turn `turn`, or of tool call `call` of turn `turn`; a JSON field's
        text is its JSON. Offsets and lengths count UTF-16 code units; follow `nextOffset` until it
        is null.
        """
        return self.call(
            OPERATIONS["evals-episodeText"],
            path={"projectId": project_id, "episodeId": episode_id},
            query={"field": field, "turn": turn, "call": call, "offset": offset, "limit": limit},
        ).data

    def evals_matrix(
        self,
        project_id: str,
        *,
        group_id: Optional[str] = None,
        run_ids: Optional[List[str]] = None,
    ) -> EvalsMatrixResponse:
        """Results matrix of a group or of chosen runs

        GET /api/v1/projects/{projectId}/evals/matrix (evals-matrix).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["evals-matrix"],
            path={"projectId": project_id},
            query={"groupId": group_id, "runIds": run_ids},
        ).data

    def evals_import_reference(
        self,
        project_id: str,
        body: EvalsImportReferenceBody,
    ) -> EvalsImportReferenceResponse:
        """Import one dataset's reference evaluator output (SPEC §6) as a run

        POST /api/v1/projects/{projectId}/evals/import-reference (evals-importReference).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["evals-importReference"],
            path={"projectId": project_id},
            body=body,
        ).data

    def reviews_tags(self, project_id: str) -> List[ReviewsTagsResponseItem]:
        """The project's failure taxonomy

        GET /api/v1/projects/{projectId}/reviews/tags (reviews-tags).
        Token scope: READ (read data).
        """
        return self.call(OPERATIONS["reviews-tags"], path={"projectId": project_id}).data

    def reviews_queues(self, project_id: str) -> List[ReviewsQueuesResponseItem]:
        """Review queues with progress

        GET /api/v1/projects/{projectId}/reviews/queues (reviews-queues).
        Token scope: READ (read data).
        """
        return self.call(OPERATIONS["reviews-queues"], path={"projectId": project_id}).data

    def reviews_create_queue(
        self,
        project_id: str,
        body: ReviewsCreateQueueBody,
    ) -> ReviewsCreateQueueResponse:
        """Build a review queue from one run's episodes by a filter

        POST /api/v1/projects/{projectId}/reviews/queues (reviews-createQueue).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["reviews-createQueue"],
            path={"projectId": project_id},
            body=body,
        ).data

    def reviews_queue(self, project_id: str, queue_id: str) -> ReviewsQueueResponse:
        """One review queue with its items

        GET /api/v1/projects/{projectId}/reviews/queues/{queueId} (reviews-queue).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["reviews-queue"],
            path={"projectId": project_id, "queueId": queue_id},
        ).data

    def reviews_review(self, project_id: str, episode_id: str) -> ReviewsReviewResponse:
        """The review of one episode: status, assignee, tags, comments

        GET /api/v1/projects/{projectId}/reviews/episodes/{episodeId} (reviews-review).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["reviews-review"],
            path={"projectId": project_id, "episodeId": episode_id},
        ).data

    def reviews_update(
        self,
        project_id: str,
        episode_id: str,
        body: ReviewsUpdateBody,
    ) -> ReviewsReviewResponse:
        """Set an episode's review status and / or assignee

        PATCH /api/v1/projects/{projectId}/reviews/episodes/{episodeId} (reviews-update).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["reviews-update"],
            path={"projectId": project_id, "episodeId": episode_id},
            body=body,
        ).data

    def reviews_set_tag(
        self,
        project_id: str,
        episode_id: str,
        tag_id: str,
        body: ReviewsSetTagBody,
    ) -> ReviewsReviewResponse:
        """Add (on: true) or remove (on: false) a failure tag on an episode

        PUT /api/v1/projects/{projectId}/reviews/episodes/{episodeId}/tags/{tagId} (reviews-setTag).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["reviews-setTag"],
            path={"projectId": project_id, "episodeId": episode_id, "tagId": tag_id},
            body=body,
        ).data

    def reviews_comment(
        self,
        project_id: str,
        episode_id: str,
        body: ReviewsCommentBody,
    ) -> ReviewsReviewResponse:
        """Comment on an episode, optionally pinned to a video time, with @-mentions

        POST /api/v1/projects/{projectId}/reviews/episodes/{episodeId}/comments (reviews-comment).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["reviews-comment"],
            path={"projectId": project_id, "episodeId": episode_id},
            body=body,
        ).data

    def reviews_edit_comment(
        self,
        project_id: str,
        episode_id: str,
        comment_id: str,
        body: ReviewsEditCommentBody,
    ) -> ReviewsReviewResponse:
        """Edit your own comment (its video pin stays; mentions are replaced)

        PATCH /api/v1/projects/{projectId}/reviews/episodes/{episodeId}/comments/{commentId}
        (reviews-editComment).
        Token scope: WRITE (write data and reviews), and the editor role. Only the comment's author
        may edit it (403 otherwise).
        """
        return self.call(
            OPERATIONS["reviews-editComment"],
            path={"projectId": project_id, "episodeId": episode_id, "commentId": comment_id},
            body=body,
        ).data

    def reviews_delete_comment(
        self,
        project_id: str,
        episode_id: str,
        comment_id: str,
    ) -> ReviewsReviewResponse:
        """Delete a comment: your own, or anyone's as a project owner

        DELETE /api/v1/projects/{projectId}/reviews/episodes/{episodeId}/comments/{commentId}
        (reviews-deleteComment).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["reviews-deleteComment"],
            path={"projectId": project_id, "episodeId": episode_id, "commentId": comment_id},
        ).data

    def ingest_whoami(self) -> IngestWhoamiResponse:
        """The caller: user, and the token's project and scopes

        GET /api/v1/whoami (ingest-whoami). Token scope: ANY.
        Any API token (no scope needed).
        """
        return self.call(OPERATIONS["ingest-whoami"]).data

    def ingest_create_run(
        self,
        project_id: str,
        body: IngestCreateRunBody,
    ) -> IngestCreateRunResponse:
        """Create an external run (idempotent by clientId)

        POST /api/v1/projects/{projectId}/external-runs (ingest-createRun).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["ingest-createRun"],
            path={"projectId": project_id},
            body=body,
        ).data

    def ingest_set_status(
        self,
        project_id: str,
        run_id: str,
        body: IngestSetStatusBody,
    ) -> RunsListResponseItem:
        """Report an external run's status

        POST /api/v1/projects/{projectId}/external-runs/{runId}/status (ingest-setStatus).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["ingest-setStatus"],
            path={"projectId": project_id, "runId": run_id},
            body=body,
        ).data

    def ingest_metrics(
        self,
        project_id: str,
        run_id: str,
        body: IngestMetricsBody,
    ) -> IngestMetricsResponse:
        """Add a batch of metric steps (status per item; a retried batch stores nothing twice)

        POST /api/v1/projects/{projectId}/external-runs/{runId}/metrics (ingest-metrics).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["ingest-metrics"],
            path={"projectId": project_id, "runId": run_id},
            body=body,
        ).data

    def ingest_rollouts(
        self,
        project_id: str,
        run_id: str,
        body: IngestRolloutsBody,
    ) -> IngestMetricsResponse:
        """Add a batch of rollouts with full trajectories (status per item; idempotent by id)

        POST /api/v1/projects/{projectId}/external-runs/{runId}/rollouts (ingest-rollouts).
        Token scope: WRITE (write data and reviews), and the editor role.
        """
        return self.call(
            OPERATIONS["ingest-rollouts"],
            path={"projectId": project_id, "runId": run_id},
            body=body,
        ).data

    def ingest_episodes(
        self,
        project_id: str,
        run_id: str,
        *,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> IngestEpisodesResponse:
        """A page of a run's episodes with full trajectories

        GET /api/v1/projects/{projectId}/runs/{runId}/episodes (ingest-episodes).
        Token scope: READ (read data).
        """
        return self.call(
            OPERATIONS["ingest-episodes"],
            path={"projectId": project_id, "runId": run_id},
            query={"cursor": cursor, "limit": limit},
        ).data

    def videos_upload(
        self,
        project_id: str,
        body: bytes,
        *,
        x_file_name: Optional[str] = None,
    ) -> VideosUploadResponse:
        """Upload a video file as the raw request body (streamed to disk; the type is sniffed from
        its bytes)

        POST /api/projects/{projectId}/videos/upload (videos-upload).
        Token scope: WRITE (write data and reviews), and the editor role. Send the bytes as the body
        (any Content-Type) and the file name, URI-encoded, in X-File-Name. Larger than
        UPLOAD_MAX_BYTES: 413. Bytes that are not a video container: 415.
        """
        return self.call(
            OPERATIONS["videos-upload"],
            path={"projectId": project_id},
            headers={"X-File-Name": x_file_name},
            body=body,
        ).data


__all__ = [
    "ApiClient",
    "OPERATIONS",
    "DEFAULT_SERVER",
    "ErrorIssuesItem",
    "Error",
    "RouteError",
    "ProjectsListResponseItem",
    "ProjectsByIdResponse",
    "MembersListResponseItem",
    "RunsListResponseItem",
    "RunsWorkersResponseWorkersItemActiveItem",
    "RunsWorkersResponseWorkersItem",
    "RunsWorkersResponse",
    "RunsByIdResponse",
    "RunsMetricNamesResponseItem",
    "RunsMetricsBodyRange",
    "RunsMetricsBody",
    "RunsMetricsResponseItem",
    "RunsMetricsExportResponse",
    "RunsStepRolloutsResponseItemsItemSample",
    "RunsStepRolloutsResponseItemsItem",
    "RunsStepRolloutsResponse",
    "RunsCancelResponse",
    "RunsResumeResponse",
    "VideosListResponseItem",
    "VideosByIdResponse",
    "VideosRegisterBody",
    "VideosRegisterResponseVideo",
    "VideosRegisterResponse",
    "VideosCreateDemoBody",
    "VideosCreateDemoResponseVideo",
    "VideosCreateDemoResponse",
    "DatasetsListResponseItem",
    "DatasetsByIdResponse",
    "DatasetsSamplesResponseItemsItem",
    "DatasetsSamplesResponse",
    "DatasetsGenerateSuiteBody",
    "DatasetsGenerateSuiteResponseDataset",
    "DatasetsGenerateSuiteResponse",
    "DatasetsImportSuiteBody",
    "DatasetsImportSuiteResponseDataset",
    "DatasetsImportSuiteResponse",
    "DatasetsBenchmarksResponseItemFilesItem",
    "DatasetsBenchmarksResponseItem",
    "DatasetsImportBenchmarkBody",
    "DatasetsImportBenchmarkResponseDataset",
    "DatasetsImportBenchmarkResponse",
    "DatasetsReimportBenchmarkResponse",
    "ModelsListResponseItemNanoQualitySuitesItem",
    "ModelsListResponseItemNanoQualityMeasurementsItemByType",
    "ModelsListResponseItemNanoQualityMeasurementsItem",
    "ModelsListResponseItemNanoQuality",
    "ModelsListResponseItemNanoLineageItemDataSuite",
    "ModelsListResponseItemNanoLineageItemData",
    "ModelsListResponseItemNanoLineageItem",
    "ModelsListResponseItemNano",
    "ModelsListResponseItemEvaluationsItem",
    "ModelsListResponseItem",
    "ModelsCreateBodyConfigOpenaiCompatible",
    "ModelsCreateBodyConfigNanoCheckpoint",
    "ModelsCreateBodyConfigExternal",
    "ModelsCreateBody",
    "ModelsCreateResponseNanoQualitySuitesItem",
    "ModelsCreateResponseNanoQualityMeasurementsItemByType",
    "ModelsCreateResponseNanoQualityMeasurementsItem",
    "ModelsCreateResponseNanoQuality",
    "ModelsCreateResponseNanoLineageItemDataSuite",
    "ModelsCreateResponseNanoLineageItemData",
    "ModelsCreateResponseNanoLineageItem",
    "ModelsCreateResponseNano",
    "ModelsCreateResponseEvaluationsItem",
    "ModelsCreateResponse",
    "ModelsUpdateBodyLimits",
    "ModelsUpdateBody",
    "ModelsUpdateResponseNanoQualitySuitesItem",
    "ModelsUpdateResponseNanoQualityMeasurementsItemByType",
    "ModelsUpdateResponseNanoQualityMeasurementsItem",
    "ModelsUpdateResponseNanoQuality",
    "ModelsUpdateResponseNanoLineageItemDataSuite",
    "ModelsUpdateResponseNanoLineageItemData",
    "ModelsUpdateResponseNanoLineageItem",
    "ModelsUpdateResponseNano",
    "ModelsUpdateResponseEvaluationsItem",
    "ModelsUpdateResponse",
    "ModelsDeleteResponse",
    "ModelsProbeResponseOneImageVariant1",
    "ModelsProbeResponseOneImageVariant2",
    "ModelsProbeResponseSeveralImagesVariant1",
    "ModelsProbeResponseSeveralImagesVariant2",
    "ModelsProbeResponse",
    "TrainingLaunchSftBody",
    "TrainingLaunchSftResponse",
    "TrainingLaunchRlBodyOverrides",
    "TrainingLaunchRlBody",
    "TrainingLaunchRlResponse",
    "EvalsLaunchBodyKnobs",
    "EvalsLaunchBody",
    "EvalsLaunchResponseGroup",
    "EvalsLaunchResponseRunsItem",
    "EvalsLaunchResponse",
    "EvalsGroupsResponseItemRunsItemGroup",
    "EvalsGroupsResponseItemRunsItemModel",
    "EvalsGroupsResponseItemRunsItemDataset",
    "EvalsGroupsResponseItemRunsItemKnobs",
    "EvalsGroupsResponseItemRunsItemSummaryMcq",
    "EvalsGroupsResponseItemRunsItemSummaryByDurationValue",
    "EvalsGroupsResponseItemRunsItemSummaryGrounding",
    "EvalsGroupsResponseItemRunsItemSummaryOpenEnded",
    "EvalsGroupsResponseItemRunsItemSummaryFormatCompliance",
    "EvalsGroupsResponseItemRunsItemSummary",
    "EvalsGroupsResponseItemRunsItem",
    "EvalsGroupsResponseItem",
    "EvalsGroupResponseRunsItemGroup",
    "EvalsGroupResponseRunsItemModel",
    "EvalsGroupResponseRunsItemDataset",
    "EvalsGroupResponseRunsItemKnobs",
    "EvalsGroupResponseRunsItemSummaryMcq",
    "EvalsGroupResponseRunsItemSummaryByDurationValue",
    "EvalsGroupResponseRunsItemSummaryGrounding",
    "EvalsGroupResponseRunsItemSummaryOpenEnded",
    "EvalsGroupResponseRunsItemSummaryFormatCompliance",
    "EvalsGroupResponseRunsItemSummary",
    "EvalsGroupResponseRunsItem",
    "EvalsGroupResponse",
    "EvalsTableResponseGroup",
    "EvalsTableResponseColumnsItem",
    "EvalsTableResponseRowsItem",
    "EvalsTableResponse",
    "EvalsByIdResponseGroup",
    "EvalsByIdResponseModel",
    "EvalsByIdResponseDataset",
    "EvalsByIdResponseKnobs",
    "EvalsByIdResponseSummaryMcq",
    "EvalsByIdResponseSummaryByDurationValue",
    "EvalsByIdResponseSummaryGrounding",
    "EvalsByIdResponseSummaryOpenEnded",
    "EvalsByIdResponseSummaryFormatCompliance",
    "EvalsByIdResponseSummary",
    "EvalsByIdResponse",
    "EvalsSamplesResponseItemsItem",
    "EvalsSamplesResponse",
    "EvalsEpisodeResponseRun",
    "EvalsEpisodeResponseSample",
    "EvalsEpisodeResponseTurnsItemToolCallsItem",
    "EvalsEpisodeResponseTurnsItem",
    "EvalsEpisodeResponse",
    "EvalsEpisodeTextResponse",
    "EvalsMatrixResponseColumnsItem",
    "EvalsMatrixResponseRowsItemCellsValueFiguresItem",
    "EvalsMatrixResponseRowsItemCellsValue",
    "EvalsMatrixResponseRowsItem",
    "EvalsMatrixResponse",
    "EvalsImportReferenceBody",
    "EvalsImportReferenceResponseRun",
    "EvalsImportReferenceResponseGroup",
    "EvalsImportReferenceResponseErrorKinds",
    "EvalsImportReferenceResponseSkippedRowsItem",
    "EvalsImportReferenceResponse",
    "ReviewsTagsResponseItem",
    "ReviewsQueuesResponseItemRun",
    "ReviewsQueuesResponseItemFilterWrong",
    "ReviewsQueuesResponseItemFilterError",
    "ReviewsQueuesResponseItemFilterFormat",
    "ReviewsQueuesResponseItemFilterNoToolSmallK",
    "ReviewsQueuesResponseItemFilterLowIou",
    "ReviewsQueuesResponseItemFilterFlipped",
    "ReviewsQueuesResponseItemCreatedBy",
    "ReviewsQueuesResponseItemProgress",
    "ReviewsQueuesResponseItem",
    "ReviewsCreateQueueBodyFilterWrong",
    "ReviewsCreateQueueBodyFilterError",
    "ReviewsCreateQueueBodyFilterFormat",
    "ReviewsCreateQueueBodyFilterNoToolSmallK",
    "ReviewsCreateQueueBodyFilterLowIou",
    "ReviewsCreateQueueBodyFilterFlipped",
    "ReviewsCreateQueueBody",
    "ReviewsCreateQueueResponseQueueRun",
    "ReviewsCreateQueueResponseQueueFilterWrong",
    "ReviewsCreateQueueResponseQueueFilterError",
    "ReviewsCreateQueueResponseQueueFilterFormat",
    "ReviewsCreateQueueResponseQueueFilterNoToolSmallK",
    "ReviewsCreateQueueResponseQueueFilterLowIou",
    "ReviewsCreateQueueResponseQueueFilterFlipped",
    "ReviewsCreateQueueResponseQueueCreatedBy",
    "ReviewsCreateQueueResponseQueueProgress",
    "ReviewsCreateQueueResponseQueue",
    "ReviewsCreateQueueResponse",
    "ReviewsQueueResponseQueueRun",
    "ReviewsQueueResponseQueueFilterWrong",
    "ReviewsQueueResponseQueueFilterError",
    "ReviewsQueueResponseQueueFilterFormat",
    "ReviewsQueueResponseQueueFilterNoToolSmallK",
    "ReviewsQueueResponseQueueFilterLowIou",
    "ReviewsQueueResponseQueueFilterFlipped",
    "ReviewsQueueResponseQueueCreatedBy",
    "ReviewsQueueResponseQueueProgress",
    "ReviewsQueueResponseQueue",
    "ReviewsQueueResponseItemsItemAssignee",
    "ReviewsQueueResponseItemsItem",
    "ReviewsQueueResponse",
    "ReviewsReviewResponseAssignee",
    "ReviewsReviewResponseCommentsItemAuthor",
    "ReviewsReviewResponseCommentsItemMentionsItem",
    "ReviewsReviewResponseCommentsItem",
    "ReviewsReviewResponseScoresItemSetBy",
    "ReviewsReviewResponseScoresItem",
    "ReviewsReviewResponseUpdatedBy",
    "ReviewsReviewResponse",
    "ReviewsUpdateBody",
    "ReviewsUpdateResponseAssignee",
    "ReviewsUpdateResponseCommentsItemAuthor",
    "ReviewsUpdateResponseCommentsItemMentionsItem",
    "ReviewsUpdateResponseCommentsItem",
    "ReviewsUpdateResponseScoresItemSetBy",
    "ReviewsUpdateResponseScoresItem",
    "ReviewsUpdateResponseUpdatedBy",
    "ReviewsUpdateResponse",
    "ReviewsSetTagBody",
    "ReviewsSetTagResponseAssignee",
    "ReviewsSetTagResponseCommentsItemAuthor",
    "ReviewsSetTagResponseCommentsItemMentionsItem",
    "ReviewsSetTagResponseCommentsItem",
    "ReviewsSetTagResponseScoresItemSetBy",
    "ReviewsSetTagResponseScoresItem",
    "ReviewsSetTagResponseUpdatedBy",
    "ReviewsSetTagResponse",
    "ReviewsCommentBody",
    "ReviewsCommentResponseAssignee",
    "ReviewsCommentResponseCommentsItemAuthor",
    "ReviewsCommentResponseCommentsItemMentionsItem",
    "ReviewsCommentResponseCommentsItem",
    "ReviewsCommentResponseScoresItemSetBy",
    "ReviewsCommentResponseScoresItem",
    "ReviewsCommentResponseUpdatedBy",
    "ReviewsCommentResponse",
    "ReviewsEditCommentBody",
    "ReviewsEditCommentResponseAssignee",
    "ReviewsEditCommentResponseCommentsItemAuthor",
    "ReviewsEditCommentResponseCommentsItemMentionsItem",
    "ReviewsEditCommentResponseCommentsItem",
    "ReviewsEditCommentResponseScoresItemSetBy",
    "ReviewsEditCommentResponseScoresItem",
    "ReviewsEditCommentResponseUpdatedBy",
    "ReviewsEditCommentResponse",
    "ReviewsDeleteCommentResponseAssignee",
    "ReviewsDeleteCommentResponseCommentsItemAuthor",
    "ReviewsDeleteCommentResponseCommentsItemMentionsItem",
    "ReviewsDeleteCommentResponseCommentsItem",
    "ReviewsDeleteCommentResponseScoresItemSetBy",
    "ReviewsDeleteCommentResponseScoresItem",
    "ReviewsDeleteCommentResponseUpdatedBy",
    "ReviewsDeleteCommentResponse",
    "IngestWhoamiResponseToken",
    "IngestWhoamiResponse",
    "IngestCreateRunBody",
    "IngestCreateRunResponseRun",
    "IngestCreateRunResponse",
    "IngestSetStatusBody",
    "IngestSetStatusResponse",
    "IngestMetricsBodyItemsItem",
    "IngestMetricsBody",
    "IngestMetricsResponseCounts",
    "IngestMetricsResponseItemsItem",
    "IngestMetricsResponse",
    "IngestRolloutsBodyItemsItemSample",
    "IngestRolloutsBodyItemsItemTurnsItemToolCallsItem",
    "IngestRolloutsBodyItemsItemTurnsItem",
    "IngestRolloutsBodyItemsItem",
    "IngestRolloutsBody",
    "IngestRolloutsResponseCounts",
    "IngestRolloutsResponseItemsItem",
    "IngestRolloutsResponse",
    "IngestEpisodesResponseItemsItemRun",
    "IngestEpisodesResponseItemsItemSample",
    "IngestEpisodesResponseItemsItemTurnsItemToolCallsItem",
    "IngestEpisodesResponseItemsItemTurnsItem",
    "IngestEpisodesResponseItemsItem",
    "IngestEpisodesResponse",
    "VideosUploadResponseVideo",
    "VideosUploadResponse",
]
