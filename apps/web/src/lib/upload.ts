"use client";

export interface UploadResult {
  video: { id: string; name: string };
  runId: string;
}

/**
 * Streams a file to the upload route with progress (fetch has no upload progress events, XHR
 * does). Rejects with the server's readable message on any non-2xx answer.
 */
export function uploadVideo(
  projectId: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/projects/${encodeURIComponent(projectId)}/videos/upload`);
    xhr.setRequestHeader("x-file-name", encodeURIComponent(file.name));
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: use the status text below */
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as UploadResult);
      else
        reject(
          new Error((body as { error?: string } | null)?.error ?? `Upload failed (${xhr.status} ${xhr.statusText})`),
        );
    };
    xhr.onerror = () => reject(new Error("Upload failed: the connection was interrupted"));
    xhr.onabort = () => reject(new Error("Upload cancelled"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
