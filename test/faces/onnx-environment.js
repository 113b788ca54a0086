/**
 * Jest runs each test file in a separate V8 realm, whose Float32Array is not the one onnxruntime-node's
 * native binding creates its outputs with, so onnxruntime-common's `instanceof Float32Array` check rejects
 * every result ("A float32 tensor's data must be type of function Float32Array()"). The face tests run in
 * this environment: the node one, with the host's typed arrays. Production code runs in one realm and
 * does not need it.
 */
const { TestEnvironment } = require('jest-environment-node');

class OnnxEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of ['Float32Array', 'Int32Array', 'BigInt64Array']) {
      this.global[name] = globalThis[name];
    }
  }
}

module.exports = OnnxEnvironment;
