/**
 * SLOW (about 10 s with a warm npm cache, a minute or more with a cold one; needs the npm registry):
 * really bundles one image function the way `cdk synth` does, with the local esbuild and `npm ci`, into
 * a temporary cdk.out, and looks inside the asset. The template tests skip bundling, so this is the one
 * test that proves sharp reaches Lambda as its linux-arm64 build. Because it needs the registry, it is
 * not part of `npm test` (tests stay on loopback): run it with `npm run test:packaging`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { WORKFLOWS } from '../../functions/workflows/definitions';
import { serviceFunction } from '../../lib/constructs/function-defaults';
import { CDK_JSON_CONTEXT } from '../fixtures/infra/service-stack';

process.env.CDK_VALIDATION = 'false';

const BUNDLING_TIMEOUT_MS = 180_000;

/** The engine Task: it imports sharp, and heic-decode on first use. */
const task = WORKFLOWS['image-job'].tasks.RunEngineFunctionArn;

describe(`the image function ${task.handler}, bundled for Lambda`, () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'cdk-bundling-'));
  let asset = '';

  beforeAll(() => {
    const app = new App({ outdir, context: CDK_JSON_CONTEXT });
    serviceFunction(new Stack(app, 'Bundling'), 'RunEngine', {
      entry: task.handler,
      description: 'bundling test',
      timeout: Duration.seconds(task.timeoutSeconds ?? 60),
      environment: {},
      images: task.images,
    });
    app.synth();
    const assets = readdirSync(outdir).filter((name) => name.startsWith('asset.'));
    expect(assets).toHaveLength(1);
    asset = path.join(outdir, assets[0]);
  }, BUNDLING_TIMEOUT_MS);

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  const installed = (module: string) => existsSync(path.join(asset, 'node_modules', module, 'package.json'));

  test('the handler is one esbuild bundle that loads sharp and heic-decode from node_modules', () => {
    const bundle = readFileSync(path.join(asset, 'index.js'), 'utf8');
    expect(bundle).toContain('require("sharp")');
    expect(bundle).toContain('import("heic-decode")');
    expect(bundle).not.toMatch(/libheif|sharp-libvips/);
    expect(existsSync(path.join(asset, 'index.js.map'))).toBe(true);
  });

  test('sharp is installed with its linux-arm64 (glibc) binary and libvips', () => {
    expect(installed('sharp')).toBe(true);
    expect(installed('@img/sharp-linux-arm64')).toBe(true);
    expect(installed('@img/sharp-libvips-linux-arm64')).toBe(true);
  });

  test('no sharp build for another platform is shipped, x64 included', () => {
    expect(installed('@img/sharp-linux-x64')).toBe(false);
    const platformBuilds = readdirSync(path.join(asset, 'node_modules', '@img')).filter((name) =>
      name.startsWith('sharp-'),
    );
    expect(platformBuilds.sort()).toEqual(['sharp-libvips-linux-arm64', 'sharp-linux-arm64']);
  });

  test('heic-decode is installed with its WASM decoder', () => {
    expect(installed('heic-decode')).toBe(true);
    expect(installed('libheif-js')).toBe(true);
  });

  test('onnxruntime-node is installed with its linux-arm64 binaries only, and the face models are ONNX files beside the bundle', () => {
    const listing = (dir: string) => readdirSync(path.join(asset, 'node_modules', dir)).sort();
    expect(listing('onnxruntime-node/bin/napi-v6')).toEqual(['linux']);
    expect(listing('onnxruntime-node/bin/napi-v6/linux')).toEqual(['arm64']);
    expect(listing('onnxruntime-node/bin/napi-v6/linux/arm64')).toContain('onnxruntime_binding.node');
    expect(installed('onnxruntime-common')).toBe(true);
    expect(installed('@vladmandic/human')).toBe(false);
    expect(readdirSync(path.join(asset, 'face-models')).sort()).toEqual([
      'blazeface.data',
      'blazeface.onnx',
      'facemesh.data',
      'facemesh.onnx',
      'faceres.data',
      'faceres.onnx',
      'manifest.json',
    ]);
  });

  test("the unzipped asset fits Lambda's 250 MB", () => {
    const bytes = Number(execFileSync('du', ['-sb', asset], { encoding: 'utf8' }).split('\t')[0]);
    process.stdout.write(`RunEngine asset (arm64, unzipped): ${(bytes / 1e6).toFixed(1)} MB\n`);
    expect(bytes).toBeLessThan(250 * 1024 * 1024);
  });
});
