import { FormatContext, Codec, CodecContext, Packet, Frame, FFmpegError, Log } from "node-av/lib";
import { AVMEDIA_TYPE_VIDEO, AV_LOG_QUIET, AVSEEK_FLAG_BACKWARD, AVERROR_EOF } from "node-av/constants";
Log.setLevel(AV_LOG_QUIET);
for (const f of process.argv.slice(2)) {
  const fc = new FormatContext();
  await fc.openInput(f);
  await fc.findStreamInfo();
  const si = fc.findBestStream(AVMEDIA_TYPE_VIDEO);
  const st = fc.streams[si]!;
  const codec = Codec.findDecoder(st.codecpar.codecId);
  console.log(f, "codec", codec?.name, st.codecpar.codecTagString, st.codecpar.codecId);
  if (!codec) continue;
  const cc = new CodecContext();
  cc.allocContext3(codec);
  cc.parametersToContext(st.codecpar);
  await cc.open2(codec, null);
  const pkt = new Packet();
  pkt.alloc();
  const fr = new Frame();
  fr.alloc();
  // decode first frames
  let got = 0,
    errs = 0,
    pkts = 0;
  while (got < 3 && pkts < 100) {
    const r = await fc.readFrame(pkt);
    if (r < 0) {
      console.log("read", r);
      break;
    }
    if (pkt.streamIndex !== si) {
      pkt.unref();
      continue;
    }
    pkts++;
    const s = await cc.sendPacket(pkt);
    if (s < 0) errs++;
    pkt.unref();
    while ((await cc.receiveFrame(fr)) >= 0) {
      got++;
      console.log(" frame", fr.pts, fr.width, fr.height, fr.format, "decErr", fr.decodeErrorFlags, fr.flags);
      fr.unref();
    }
  }
  console.log(" got", got, "errs", errs, "pkts", pkts);
  // seek near end
  const end = st.duration - 10n;
  const r = await fc.seekFrame(si, end, AVSEEK_FLAG_BACKWARD);
  let last: any = null;
  let n = 0;
  let rr = 0;
  while (true) {
    rr = await fc.readFrame(pkt);
    if (rr < 0) break;
    if (pkt.streamIndex === si) {
      last = [pkt.pts, pkt.pos, pkt.size, pkt.flags];
      n++;
    }
    pkt.unref();
  }
  console.log(
    " seek",
    r,
    "pkts to end",
    n,
    "last",
    last,
    "readret",
    rr,
    FFmpegError.strerror ? "" : new FFmpegError(rr).message,
    "fileSize",
    fc.pb?.size?.(),
  );
}
