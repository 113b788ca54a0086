/**
 * The zip fal's trainer reads (functions/adapters/engine/providers/fal/zip.ts): read back here by walking its
 * local headers, each entry's CRC checked with node's zlib.crc32, and by the fal double's reader (the central
 * directory, as fal's unzip reads it): both must find every file, byte for byte, under its UTF-8 name.
 */
import { crc32 as zlibCrc32 } from 'node:zlib';
import { crc32, zipStored } from '../../../../../../functions/adapters/engine/providers/fal/zip';
import { readZip } from '../../../../../support/providers/fal-trainer-double';

/** The entries as the local headers say, in order, each checked against its CRC and sizes. */
const walkLocalHeaders = (zip: Buffer) => {
  const entries: { name: string; data: Buffer; method: number; flags: number }[] = [];
  let at = 0;
  while (zip.readUInt32LE(at) === 0x04034b50) {
    const flags = zip.readUInt16LE(at + 6);
    const method = zip.readUInt16LE(at + 8);
    const crc = zip.readUInt32LE(at + 14);
    const compressed = zip.readUInt32LE(at + 18);
    const size = zip.readUInt32LE(at + 22);
    const nameLength = zip.readUInt16LE(at + 26);
    const extra = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    const data = Buffer.from(zip.subarray(at + 30 + nameLength + extra, at + 30 + nameLength + extra + compressed));
    expect({ name, size, crc }).toEqual({ name, size: data.length, crc: zlibCrc32(data) });
    entries.push({ name, data, method, flags });
    at += 30 + nameLength + extra + compressed;
  }
  expect(zip.readUInt32LE(at)).toBe(0x02014b50); // the central directory follows the last entry
  return entries;
};

describe('zipStored', () => {
  const files = [
    { name: 'photo-01.jpg', data: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]) },
    { name: 'photo-01.txt', data: Buffer.from('a photo of qwertyui person', 'utf8') },
    { name: 'café-ü.txt', data: Buffer.from('ünïcode', 'utf8') },
    { name: 'empty.txt', data: Buffer.alloc(0) },
  ];

  it('stores every file uncompressed under its UTF-8 name, each with the CRC zlib computes', () => {
    const entries = walkLocalHeaders(zipStored(files));
    expect(entries.map(({ name, data }) => ({ name, data }))).toEqual(files);
    expect(entries.every((entry) => entry.method === 0 && entry.flags === 0x0800)).toBe(true);
  });

  it('has a central directory and end record a zip reader finds the same files through', () => {
    const zip = zipStored(files);
    expect(readZip(zip)).toEqual(files);
    const end = zip.length - 22;
    expect(zip.readUInt32LE(end)).toBe(0x06054b50);
    expect([zip.readUInt16LE(end + 8), zip.readUInt16LE(end + 10)]).toEqual([files.length, files.length]);
    // The directory's size and offset place it exactly before the end record.
    expect(zip.readUInt32LE(end + 16) + zip.readUInt32LE(end + 12)).toBe(end);
  });

  it('makes an empty archive of its end record alone', () => {
    const zip = zipStored([]);
    expect(zip.length).toBe(22);
    expect(readZip(zip)).toEqual([]);
  });

  it('refuses more files than a zip without ZIP64 can list', () => {
    const many = Array.from({ length: 0x10000 }, (_, index) => ({ name: `${index}`, data: Buffer.alloc(0) }));
    expect(() => zipStored(many)).toThrow(/too many files/);
  });

  it('computes CRC-32 as zlib does (the check value of "123456789" is 0xCBF43926)', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, index) => (index * 37) % 256));
    expect(crc32(bytes)).toBe(zlibCrc32(bytes));
    expect(crc32(Buffer.alloc(0))).toBe(0);
  });
});
