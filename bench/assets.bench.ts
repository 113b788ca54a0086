/**
 * The shipped functions: for every AWS::Lambda::Function of the synthesised template (host
 * architecture, bin/assets/build.ts), the size of its bundle and of its whole asset, and its cold import
 * time: the init phase (loading `index.js` and what it requires) in the Lambda-like sandbox of
 * bin/assets/sandbox.ts, a fresh worker process each time, median of COLD_STARTS. Also how long the
 * synthesis that made them took.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureAssets } from '../bin/assets/build';
import { Sandbox } from '../bin/assets/sandbox';
import { readTemplate } from '../bin/assets/template';
import { atMost, type BenchResult, median, progress, round } from './harness';

export const name = 'assets';

const COLD_STARTS = 5;
const BUNDLE_LIMIT_KB = 300;
const COLD_IMPORT_LIMIT_MS = 100;
/** Issue 32: an image function loads neither sharp nor onnxruntime at init, and starts within this. */
const IMAGE_COLD_IMPORT_LIMIT_MS = 150;

const sizeOf = (entry: string): number => {
  const stat = fs.lstatSync(entry);
  return stat.isDirectory()
    ? fs.readdirSync(entry).reduce((sum, child) => sum + sizeOf(path.join(entry, child)), 0)
    : stat.size;
};

/** `ApiPostEdit6CB9B6CA` → `ApiPostEdit`: stable across synths. */
const readable = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');

export const run = async (): Promise<BenchResult[]> => {
  const assets = await ensureAssets({ log: (line) => progress(name, line) });
  const template = readTemplate(assets.templateFile);
  const results: BenchResult[] = [
    {
      metric: 'assets.synth_ms',
      value: assets.synthMs,
      unit: 'ms',
      notes: `cdk synth for ${assets.architecture}, every function bundled${assets.built ? '' : ' (the synthesis that made the cached artefacts)'}`,
    },
  ];
  const sandbox = new Sandbox();
  try {
    for (const fn of template.functions) {
      const images = fs.existsSync(path.join(fn.assetDir, 'node_modules'));
      const bundleKb = round(fs.statSync(path.join(fn.assetDir, 'index.js')).size / 1024);
      const lambda = sandbox.create({
        name: fn.logicalId,
        assetDir: fn.assetDir,
        handler: fn.handler,
        memoryMb: fn.memoryMb,
        timeoutSeconds: fn.timeoutSeconds,
        // The template's other variables name AWS resources; NODE_OPTIONS (when a function sets it) changes
        // what loading costs, so it is passed as Lambda would.
        environment:
          typeof fn.environment.NODE_OPTIONS === 'string' ? { NODE_OPTIONS: fn.environment.NODE_OPTIONS } : {},
      });
      const coldMs: number[] = [];
      // Each cold start is a new worker process; the warm ones stay idle until the function closes.
      for (let i = 0; i < COLD_STARTS; i += 1) coldMs.push(await lambda.coldStart());
      await lambda.close();
      const id = readable(fn.logicalId);
      progress(name, `${id}: ${bundleKb} KB, cold import ${round(median(coldMs))} ms`);
      const bundle = {
        metric: `assets.${id}.bundle_kb`,
        value: bundleKb,
        unit: 'KB',
        notes: images
          ? 'image function: sharp, heic-decode and onnxruntime-node are installed beside it, the face models (ONNX) in face-models/'
          : undefined,
      };
      results.push(
        images ? bundle : atMost(bundle, BUNDLE_LIMIT_KB),
        { metric: `assets.${id}.asset_mb`, value: round(sizeOf(fn.assetDir) / (1024 * 1024), 2), unit: 'MB' },
        atMost(
          {
            metric: `assets.${id}.cold_import_ms`,
            value: round(median(coldMs)),
            unit: 'ms',
            notes: `median of ${COLD_STARTS} fresh workers`,
          },
          images ? IMAGE_COLD_IMPORT_LIMIT_MS : COLD_IMPORT_LIMIT_MS,
        ),
      );
    }
  } finally {
    await sandbox.dispose();
  }
  return results;
};
