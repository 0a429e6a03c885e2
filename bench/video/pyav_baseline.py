"""PyAV baseline for bench/video/run.ts (Debian python3-av; run with /usr/bin/python3).

Usage: pyav_baseline.py VIDEO MODE WIDTH HEIGHT T1 [T2 ...]
  MODE keyframe: per timestamp, container.seek(t) (backward, to the keyframe at or before t)
                 then take the first decoded frame.
  MODE exact:    per timestamp, seek, then decode until the first frame at or after t.
  MODE window:   one seek to the first timestamp, then decode forward once, taking the first
                 frame at or after each timestamp (how a crop window is read).
Each frame is converted to RGB at WIDTH x HEIGHT (swscale), like ours before JPEG encoding.
Prints JSON {"seconds": decode time excluding interpreter start, "times": [frame times]}.
"""

import json
import sys
import time

import av


def main() -> None:
    path, mode, width, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    targets = [float(t) for t in sys.argv[5:]]
    started = time.perf_counter()
    container = av.open(path)
    stream = container.streams.video[0]
    tb = stream.time_base
    start_pts = stream.start_time or 0
    times = []

    def frame_time(frame) -> float:
        return float((frame.pts - start_pts) * tb)

    def emit(frame) -> None:
        frame.reformat(width=width, height=height, format="rgb24").to_ndarray()
        times.append(frame_time(frame))

    if mode == "window":
        container.seek(int(targets[0] / tb) + start_pts, stream=stream, backward=True, any_frame=False)
        pending = list(targets)
        for frame in container.decode(stream):
            while pending and frame_time(frame) >= pending[0] - 1e-6:
                emit(frame)
                pending.pop(0)
            if not pending:
                break
    else:
        for t in targets:
            container.seek(int(t / tb) + start_pts, stream=stream, backward=True, any_frame=False)
            for frame in container.decode(stream):
                if mode == "keyframe" or frame_time(frame) >= t - 1e-6:
                    emit(frame)
                    break
    container.close()
    print(json.dumps({"seconds": time.perf_counter() - started, "times": times}))


if __name__ == "__main__":
    main()
