/**
 * `node bin/faces/optimise-models.cjs <from.onnx> <to.onnx> [...]`: each model's graph optimised by
 * onnxruntime-node at the `extended` level, written to its target with its weights (every initializer of
 * 1 KB or more) in `<name>.data` beside it; run by bin/faces/build-models.ts in a child process, because
 * onnxruntime-node's API is asynchronous and the build is not.
 *
 * The weights apart: onnxruntime reads an external data file far faster than the same bytes embedded in
 * the protobuf (FaceRes's 12.8 MB: its session is created in ~45 ms instead of ~75).
 *
 * `extended` is the last level whose result does not depend on the CPU that made it (fusions, constant
 * folding, eliminations); `all` adds the NCHWc layout, whose block size is that CPU's vector width (8 on
 * AVX2, 16 on AVX-512) and so is left to the run time, on the machine that runs it. Telemetry is off
 * before the runtime starts, as in the analyser.
 */
process.env.ORT_DISABLE_TELEMETRY = '1';
const path = require('node:path');
const ort = require('onnxruntime-node');

/** The weights file of a model file: `faceres.onnx` → `faceres.data`, in the same folder. */
const dataFileOf = (modelFile) => `${path.basename(modelFile, '.onnx')}.data`;

const main = async (pairs) => {
  if (pairs.length === 0 || pairs.length % 2 !== 0) throw new Error('usage: optimise-models.cjs <from> <to> [...]');
  for (let index = 0; index < pairs.length; index += 2) {
    const session = await ort.InferenceSession.create(pairs[index], {
      executionProviders: ['cpu'],
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'extended',
      optimizedModelFilePath: pairs[index + 1],
      extra: {
        session: {
          optimized_model_external_initializers_file_name: dataFileOf(pairs[index + 1]),
          optimized_model_external_initializers_min_size_in_bytes: '1024',
        },
      },
    });
    await session.release();
  }
};

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
