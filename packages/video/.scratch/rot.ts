import { FormatContext } from "node-av/lib";
import { AV_PKT_DATA_DISPLAYMATRIX } from "node-av/constants";
const fc = new FormatContext();
await fc.openInput(process.argv[2]!);
await fc.findStreamInfo();
const s = fc.streams[0]!;
console.log(s.codecpar.nbCodedSideData, s.codecpar.getCodedSideData(AV_PKT_DATA_DISPLAYMATRIX), s.metadata?.getAll?.());
