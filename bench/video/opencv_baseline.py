"""OpenCV baseline for bench/video/run.ts (Debian python3-opencv; run with /usr/bin/python3).

Usage: opencv_baseline.py VIDEO MODE WIDTH HEIGHT T1 [T2 ...]
  MODE exact:  per timestamp, cap.set(CAP_PROP_POS_FRAMES, index of the first frame at or after t)
               then cap.read(): OpenCV's FFmpeg backend seeks to the keyframe before that frame
               and decodes forward to it (what a user writing `cap.set(...); cap.read()` gets).
  MODE window: one set() to the first timestamp's frame, then grab() forward once, retrieving the
               first frame at or after each timestamp (how a crop window is read).
Each frame is resized to WIDTH x HEIGHT (INTER_AREA, like our swscale area filter) and converted
to RGB, like ours before JPEG encoding (no JPEG here: the comparison favours OpenCV).
Prints JSON {"seconds": decode time excluding interpreter start, "times": [frame times]}, the
frame times computed as index / fps (CAP_PROP_POS_FRAMES is a frame index, CFR video).
"""

import json
import math
import sys
import time

import cv2


def main() -> None:
    path, mode, width, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    targets = [float(t) for t in sys.argv[5:]]
    started = time.perf_counter()
    cap = cv2.VideoCapture(path, cv2.CAP_FFMPEG)
    if not cap.isOpened():
        raise SystemExit(f"cannot open {path}")
    fps = cap.get(cv2.CAP_PROP_FPS)
    times = []

    def index_of(t: float) -> int:
        return max(0, math.ceil(t * fps - 1e-6))

    def emit(frame, index: int) -> None:
        small = cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
        cv2.cvtColor(small, cv2.COLOR_BGR2RGB)
        times.append(index / fps)

    if mode == "window":
        pos = index_of(targets[0])  # the index the next grab()/read() returns
        cap.set(cv2.CAP_PROP_POS_FRAMES, pos)
        for t in targets:
            want = index_of(t)
            while pos < want:
                cap.grab()
                pos += 1
            ok, frame = cap.read()
            pos += 1
            if not ok:
                raise SystemExit(f"no frame at {t}")
            emit(frame, want)
    else:
        for t in targets:
            want = index_of(t)
            cap.set(cv2.CAP_PROP_POS_FRAMES, want)
            ok, frame = cap.read()
            if not ok:
                raise SystemExit(f"no frame at {t}")
            emit(frame, want)
    cap.release()
    print(json.dumps({"seconds": time.perf_counter() - started, "times": times}))


if __name__ == "__main__":
    main()
