import { FormatContext, Packet, Log } from "node-av/lib";
import { AVSEEK_FLAG_BACKWARD, AV_LOG_QUIET } from "node-av/constants";
Log.setLevel(AV_LOG_QUIET);
const fc = new FormatContext();
await fc.openInput("/tmp/vt/fi.mp4");
await fc.findStreamInfo();
const pkt = new Packet();
pkt.alloc();
for (const t of [32.2, 31.2, 36.2, 30.2, 32.0, 33.9]) {
  const r = await fc.seekFrame(0, BigInt(Math.floor(t * 12800)), AVSEEK_FLAG_BACKWARD);
  await fc.readFrame(pkt);
  console.log(t, r, Number(pkt.pts) / 12800, pkt.isKeyframe);
  pkt.unref();
}
