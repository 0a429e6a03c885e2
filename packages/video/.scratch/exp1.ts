import { FormatContext, Codec, FFmpegError } from "node-av/lib";
import { Log } from "node-av/lib";
import { AV_LOG_QUIET } from "node-av/constants";
Log.setLevel(AV_LOG_QUIET);
import { AVMEDIA_TYPE_VIDEO, AVMEDIA_TYPE_AUDIO } from "node-av/constants";
for (const f of process.argv.slice(2)) {
  const fc = new FormatContext();
  let ret = await fc.openInput(f);
  if (ret < 0) {
    console.log(f, "open", ret, FFmpegError.strerror?.(ret) ?? new FFmpegError(ret).message);
    continue;
  }
  ret = await fc.findStreamInfo();
  console.log(
    f,
    "fmt",
    fc.iformat?.name,
    "dur",
    fc.duration,
    "info",
    ret,
    fc.streams.map((s) => [
      s.codecpar.codecType,
      s.codecpar.codecId,
      Codec.findDecoder(s.codecpar.codecId)?.name,
      s.codecpar.width,
      s.codecpar.height,
      s.nbFrames,
      s.duration,
      `${s.timeBase.num}/${s.timeBase.den}`,
      s.avgFrameRate.num + "/" + s.avgFrameRate.den,
      s.disposition,
    ]),
  );
  await fc.closeInput();
}
