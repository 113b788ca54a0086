/**
 * The face analyser (onnxruntime-node over @vladmandic/human's models): built once per process, its
 * models loaded at the first analysis. Imported only by the functions that analyse faces (the image
 * operations, RunEngine, training and preflight), whose assets carry onnxruntime-node and the models
 * (lib/constructs/function-defaults.ts).
 */
import { createOnnxFaceAnalyzer } from '../adapters/faces/onnx-face-analyzer';
import { DEVELOPMENT_ENV } from '../deployment/env-names';
import { once, settings } from './core';

export const faceAnalyzer = once(() => createOnnxFaceAnalyzer({ modelId: settings()[DEVELOPMENT_ENV.faceModelId] }));
