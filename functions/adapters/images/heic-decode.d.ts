/** heic-decode 2.1 ships CommonJS without types: `module.exports = one; module.exports.all = all`. */
declare module 'heic-decode' {
  interface HeicPixels {
    width: number;
    height: number;
    /** RGBA, 4 bytes a pixel, whatever the file's alpha. */
    data: Uint8ClampedArray;
  }
  interface HeicFrame {
    width: number;
    height: number;
    decode(): Promise<HeicPixels>;
  }
  /** Decodes the primary image. Throws a TypeError when the major brand is not a HEIC one. */
  function decode(input: { buffer: Uint8Array | ArrayBuffer }): Promise<HeicPixels>;
  namespace decode {
    function all(input: { buffer: Uint8Array | ArrayBuffer }): Promise<HeicFrame[] & { dispose(): void }>;
  }
  export = decode;
}
