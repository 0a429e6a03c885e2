// The PyTorch mirror's two ends from the command line (README.md here; gpu-export.ts):
//
//   npx tsx research/torch/gpu-sft.ts export --suite var/suites/train1000m \
//     --out var/gpu/data [--init packages/nano/checkpoints/default] [--videos 600] [--ks 4,8,16] [--seed 9] \
//     [--drill-videos 4000 --drill-seed 5]   (the when drill of gpu-export.ts: unrendered videos' when trajectories)
//     [--letter-drill-videos 3000 --letter-drill-seed 6]   (the letter drill: scene_color / order letter lookups)
//   npx tsx research/torch/gpu-sft.ts import --model OUT/model-final.safetensors \
//     --out var/checkpoints/gpu --step N --seed S [--init packages/nano/checkpoints/default]
import { parseArgs } from "node:util";
import { exportGpuDataset, importGpuModel } from "./gpu-export";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    suite: { type: "string" },
    init: { type: "string", default: "packages/nano/checkpoints/default" },
    out: { type: "string" },
    model: { type: "string" },
    videos: { type: "string" },
    ks: { type: "string", default: "4,8,16" },
    seed: { type: "string", default: "9" },
    step: { type: "string" },
    "drill-videos": { type: "string" },
    "drill-seed": { type: "string", default: "5" },
    "letter-drill-videos": { type: "string" },
    "letter-drill-seed": { type: "string", default: "6" },
  },
});
const need = (name: string, v: string | undefined): string => {
  if (!v) throw new Error(`gpu-sft ${positionals[0]}: --${name} is required`);
  return v;
};
if (positionals[0] === "export") {
  const r = await exportGpuDataset({
    suiteDir: need("suite", values.suite),
    init: values.init,
    out: need("out", values.out),
    videos: values.videos === undefined ? undefined : Number(values.videos),
    ks: values.ks.split(",").map(Number),
    seed: Number(values.seed),
    ...(values["drill-videos"] === undefined
      ? {}
      : { whenDrill: { seed: Number(values["drill-seed"]), videos: Number(values["drill-videos"]) } }),
    ...(values["letter-drill-videos"] === undefined
      ? {}
      : {
          letterDrill: { seed: Number(values["letter-drill-seed"]), videos: Number(values["letter-drill-videos"]) },
        }),
    onProgress: (line) => process.stderr.write(`  ${line}\n`),
  });
  process.stderr.write(
    `wrote ${values.out}: ${r.examples} examples (${r.drillExamples} when drill, ${r.letterDrillExamples} letter drill), ${r.tokens} tokens, ${r.frames} frames; ` +
      `parity batch loss ${r.parity.loss}\n`,
  );
} else if (positionals[0] === "import") {
  await importGpuModel({
    model: need("model", values.model),
    init: values.init,
    out: need("out", values.out),
    step: Number(need("step", values.step)),
    seed: Number(values.seed),
  });
  process.stderr.write(`wrote ${values.out} (step ${values.step})\n`);
} else {
  throw new Error("usage: gpu-sft.ts export|import … (see the comment at the top)");
}
