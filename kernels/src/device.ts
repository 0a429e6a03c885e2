// PARAVT_DEVICE (issue 39 item 2): which backend of the core a process asks for. "cpu" is the
// reference core; "cuda" requires a build with the CUDA backend and a device, and is an error
// otherwise (never a silent fall back); "auto" takes CUDA when this build has it, else the CPU
// core, and says which.

export const DEVICE_CHOICES = ["auto", "cpu", "cuda"] as const;
export type DeviceChoice = (typeof DEVICE_CHOICES)[number];

export interface ResolvedDevice {
  /** The backend the process will use ("cpu" or "cuda"). */
  backend: string;
  /** Said once at start: why this backend, when it is not what was asked for literally. */
  note: string | null;
}

/** `available`: the backend behind the built op table (`backendName()`). */
export function resolveDevice(requested: DeviceChoice, available: string): ResolvedDevice {
  if (requested === "cpu") return { backend: "cpu", note: null };
  if (available === "cuda") return { backend: "cuda", note: null };
  if (requested === "cuda")
    throw new Error(
      `PARAVT_DEVICE=cuda, but this build of the compute core has only the ${available} backend ` +
        "(no CUDA backend is built in yet): start with PARAVT_DEVICE=cpu or auto",
    );
  return { backend: available, note: `PARAVT_DEVICE=auto: no CUDA backend in this build; using the ${available} core` };
}
