"use client";
import { useMutation } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { uploadVideo } from "@/lib/upload";
import { errorMessage, useTRPC } from "@/trpc/client";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";
import { Card, CardHeader } from "./ui/card";
import { Field, Input } from "./ui/input";
import { Progress } from "./ui/progress";

/** Upload, register a server path, or generate a synthetic video. Shown to editors and owners. */
export function AddVideo({ projectId, onAdded }: { projectId: string; onAdded: () => void }) {
  const trpc = useTRPC();
  const fileInput = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<{ name: string; progress: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [durationS, setDurationS] = useState(20);
  const register = useMutation(trpc.videos.register.mutationOptions({ onSuccess: onAdded }));
  const createDemo = useMutation(trpc.videos.createDemo.mutationOptions({ onSuccess: onAdded }));

  async function onUpload(file: File | undefined) {
    if (!file) return;
    setError(null);
    setUpload({ name: file.name, progress: 0 });
    try {
      await uploadVideo(projectId, file, (progress) => setUpload({ name: file.name, progress }));
      onAdded();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setUpload(null);
      if (fileInput.current) fileInput.current.value = "";
    }
  }

  function onRegister(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    register.mutate(
      { projectId, path: String(new FormData(form).get("path") ?? "") },
      { onSuccess: () => form.reset() },
    );
  }

  const mutationError = register.error ?? createDemo.error;
  return (
    <Card>
      <CardHeader
        title="Add videos"
        description="Upload a file, register one that is already on the server, or generate a synthetic one."
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="flex flex-col gap-2">
          <Field
            label="Upload a video file"
            hint="MP4, MOV, WebM, MKV, AVI, MPEG-TS; the type is checked from the bytes."
          >
            <Input
              ref={fileInput}
              type="file"
              accept="video/*,.mkv,.ts"
              disabled={upload !== null}
              onChange={(e) => void onUpload(e.target.files?.[0])}
              className="file:mr-3 file:rounded file:border-0 file:bg-surface-2 file:px-2 file:py-1 file:text-sm"
            />
          </Field>
          {upload && (
            <div className="flex items-center gap-2 text-sm">
              <span className="truncate text-muted">{upload.name}</span>
              <Progress value={upload.progress} label={`Upload of ${upload.name}`} />
            </div>
          )}
        </div>
        <form onSubmit={onRegister} className="flex flex-col gap-2">
          <Field label="Register a server path" hint="An absolute path or file:// URI inside the server's media roots.">
            <Input name="path" required placeholder="/data/videos/lecture.mp4" />
          </Field>
          <div>
            <Button type="submit" variant="secondary" size="sm" disabled={register.isPending}>
              Register path
            </Button>
          </div>
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            createDemo.mutate({ projectId, durationS });
          }}
          className="flex flex-col gap-2"
        >
          <Field label="Duration (seconds)" hint="Renders a synthetic H.264 video on a worker.">
            <Input
              type="number"
              min={2}
              max={1800}
              value={durationS}
              onChange={(e) => setDurationS(Number(e.target.value))}
            />
          </Field>
          <div>
            <Button type="submit" variant="secondary" size="sm" disabled={createDemo.isPending}>
              Generate demo video
            </Button>
          </div>
        </form>
      </div>
      {(error || mutationError) && (
        <div className="mt-4">
          <Alert>{error ?? errorMessage(mutationError)}</Alert>
        </div>
      )}
    </Card>
  );
}
