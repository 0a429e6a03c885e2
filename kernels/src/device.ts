// PARAVT_DEVICE (issue 39 item 2): which backend of the core a process asks for. "cpu" is the
// reference core; "cuda" requires the CUDA backend library, a driver and a device, and is an error
// otherwise (never a silent fall back); "auto" takes CUDA when it can run, else the CPU core, and
// says why.

export const DEVICE_CHOICES = ["auto", "cpu", "cuda"] as const;
/** PARAVT_MATMUL_PRECISION: the CUDA backend's product precision (src/cuda/matmul_precision.h). */
export const MATMUL_PRECISIONS = ["fp32", "tf32", "bf16"] as const;
export type DeviceChoice = (typeof DEVICE_CHOICES)[number];

export interface CudaDevice {
  name: string;
  totalBytes: number;
  freeBytes: number;
  multiprocessors: number;
  /** e.g. "9.0" */
  computeCapability: string;
  /** True only for the host emulation the C++ tests use (never in the addon's library). */
  emulated: boolean;
  /** The products' path and precision: "cuBLAS x.y.z (library); fp32" or "own tiles (why not cuBLAS); bf16 ...". */
  matmul: string;
}

/** What the addon's cudaProbe() found. */
export interface CudaProbe {
  available: boolean;
  /** Why CUDA cannot run here (no library, no driver, no device), null when available. */
  reason: string | null;
  device: CudaDevice | null;
}

export interface ResolvedDevice {
  /** The backend the process will use ("cpu" or "cuda"). */
  backend: "cpu" | "cuda";
  /** Said once at start: why this backend, when it is not what was asked for literally. */
  note: string | null;
}

export interface SelectedDevice extends ResolvedDevice {
  /** The GPU, when the backend is cuda. */
  device: CudaDevice | null;
}

/** `probe`: the addon's cudaProbe() (null when only the CPU was asked for). */
export function resolveDevice(requested: DeviceChoice, probe: CudaProbe | null): ResolvedDevice {
  if (requested === "cpu") return { backend: "cpu", note: null };
  if (probe?.available) return { backend: "cuda", note: null };
  const reason = probe?.reason ?? "the CUDA backend was not probed";
  if (requested === "cuda") throw new Error(`PARAVT_DEVICE=cuda, but ${reason}: start with PARAVT_DEVICE=cpu or auto`);
  return { backend: "cpu", note: `PARAVT_DEVICE=auto: ${reason}; using the cpu core` };
}

/**
 * What the CUDA backend says when an error has made the process's CUDA context unusable (a kernel
 * fault, an uncorrectable ECC error: src/cuda/backend_cuda.cu `context_lost`, which appends
 * "; the CUDA context is lost: this process must restart to use the GPU again"). Every later call
 * fails the same way, so a worker that meets it in its own process must restart.
 */
export const CUDA_CONTEXT_LOST = "the CUDA context is lost";

export function isCudaContextLost(message: string): boolean {
  return message.includes(CUDA_CONTEXT_LOST);
}
